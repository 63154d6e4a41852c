/**
 * An embedded store held by another process: that process serves it to this one (writes and reads go
 * through it, exactly once), this one takes the store over when the holder exits, and a holder that
 * serves nobody is named in a clear error. Its own test file, because this process must not have opened
 * another embedded store first (one per process).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTelemetry } from '../src/index.ts';
import { expectedCounts, playBlitz, storedCounts } from './support/matches.ts';

// Made in beforeAll, not at import, so a run that filters these tests out leaves no directory behind.
let root = '';
let path = '';
const holder = fileURLToPath(new URL('./fixtures/hold-store.ts', import.meta.url));
let child: ChildProcess | undefined;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'salient-lock-'));
  path = join(root, 'clickhouse');
});

afterAll(async () => {
  await stopChild();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function stopChild(): Promise<void> {
  const c = child;
  if (!c || c.exitCode !== null || c.signalCode !== null) return;
  const gone = new Promise((resolve) => c.once('exit', resolve));
  c.kill('SIGKILL');
  await gone;
}

/** Start the holder and wait until it says the store is open. */
function holdStore(...flags: string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ['--import', 'tsx', holder, path, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    let err = '';
    c.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    c.stdout?.on('data', (d: Buffer) => {
      if (d.toString().includes('ready')) resolve(c);
    });
    c.once('exit', (code) => reject(new Error(`the holder exited (${code}) before opening the store:\n${err}`)));
  });
}

describe('embedded store held by another process', () => {
  it('is served by that process: writes land once, reads see them, ad hoc SQL stays read-only; when it exits this process takes the store over', async () => {
    const c = await holdStore();
    const config = { kind: 'embedded' as const, path, spoolDir: join(root, 'spool') };
    const t = await openTelemetry(config);
    try {
      expect(t.mode).toBe('embedded');
      expect(t.where).toBe(`embedded ClickHouse in ${path} (held by process ${c.pid}, reached through it)`);
      const sink = t.sink({ lingerMs: 0, decisionSample: 1 });
      const played = [await playBlitz(901, sink, { tags: { tournament: 'relayed' } }), await playBlitz(902, sink, { tags: { tournament: 'relayed' } })];
      for (const p of played) expect(await storedCounts(t, p.result.matchId)).toEqual(expectedCounts(p, 1));
      // the same match again through the holder: one copy of each row
      await playBlitz(901, sink, { tags: { tournament: 'relayed' } });
      expect((await t.query("SELECT count() AS n FROM matches FINAL WHERE tournament = 'relayed'")).rows).toEqual([{ n: 2 }]);
      await expect(t.query("SELECT * FROM matches INTO OUTFILE '/tmp/x'")).rejects.toMatchObject({ code: 'BAD_QUERY' });
      const rates = await t.winRates({ tournament: 'relayed' });
      expect(rates.reduce((n, r) => n + r.games, 0)).toBe(4);

      // The holder exits: the next call finds the store free and opens it here.
      await stopChild();
      expect((await t.winRates({ tournament: 'relayed' })).reduce((n, r) => n + r.games, 0)).toBe(4);
      expect(t.where).toBe(`embedded ClickHouse in ${path}`);
      const third = await playBlitz(903, sink, { tags: { tournament: 'relayed' } });
      expect(await storedCounts(t, third.result.matchId)).toEqual(expectedCounts(third, 1));
    } finally {
      await t.close();
    }
  });
});

describe('embedded store locked by another process that serves nobody', () => {
  it('names the process holding it and says what to do; opens once that process is gone', async () => {
    const c = await holdStore('--no-relay');
    const config = { kind: 'embedded' as const, path, spoolDir: join(root, 'spool') };
    await expect(openTelemetry(config)).rejects.toMatchObject({
      code: 'TELEMETRY_LOCKED',
      message: expect.stringMatching(
        new RegExp(`^The embedded telemetry store at ${path} is in use by process ${c.pid} \\(.*hold-store\\.ts.*\\)\\. Stop that process, or point SALIENT_CLICKHOUSE_URL at a ClickHouse server\\.$`),
      ),
    });
    await stopChild();
    const t = await openTelemetry(config);
    expect(t.mode).toBe('embedded');
    await t.close();
  });
});
