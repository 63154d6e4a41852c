/** Spool files on their own: names, atomic writes, reading back, and a damaged file. */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingSpool, readSpool, writeSpool } from '../src/spool.ts';

let root = '';
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'salient-spool-'));
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('spool files', () => {
  it('holds one whole file per match id, whatever characters the id has, and reads it back by table', async () => {
    const dir = join(root, 'a');
    const id = 'tournament/7:match 1';
    await writeSpool(dir, id, [
      { table: 'impulses', row: { match_id: id, seq: 0 } },
      { table: 'events', row: { match_id: id, seq: 0, text: 'line\nbreak' } },
      { table: 'matches', row: { match_id: id } },
    ]);
    await writeSpool(dir, id, [{ table: 'matches', row: { match_id: id, kind: 'completed' } }]);
    // no temporary files left behind, one file for the id
    expect(readdirSync(dir)).toEqual([`${encodeURIComponent(id)}.jsonl`]);
    const pending = await pendingSpool(dir);
    expect(pending.map((p) => p.matchId)).toEqual([id]);
    const rows = await readSpool(pending[0]!.file);
    expect([...rows.entries()]).toEqual([['matches', [{ match_id: id, kind: 'completed' }]]]);
  });

  it('treats a missing directory as empty and ignores files that are not spooled matches', async () => {
    expect(await pendingSpool(join(root, 'none'))).toEqual([]);
    const dir = join(root, 'b');
    await writeSpool(dir, 'm1', [{ table: 'matches', row: { match_id: 'm1' } }]);
    writeFileSync(join(dir, '.m2.jsonl.123.tmp'), '{"table":"matches"');
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    expect((await pendingSpool(dir)).map((p) => p.matchId)).toEqual(['m1']);
  });

  it('says which file and line are damaged and what to do', async () => {
    const dir = join(root, 'c');
    const file = join(dir, 'bad.jsonl');
    await writeSpool(dir, 'bad', [{ table: 'matches', row: { match_id: 'bad' } }]);
    writeFileSync(file, '{"table":"matches","row":{}}\n{"table":"nope","row":{}}\n');
    await expect(readSpool(file)).rejects.toMatchObject({
      code: 'IO',
      message: expect.stringMatching(new RegExp(`^Spool file ${file} line 2 is not a telemetry row .*Move the file out of the spool directory`)),
    });
  });
});
