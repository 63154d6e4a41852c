/**
 * recordedMatches against the real embedded store (chdb in a temporary directory): a tournament's
 * matches read back as the runner ended them, other tournaments and cancelled matches left out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBot } from '@salient/bots';
import { openTelemetry, recordedMatches, type Telemetry } from '../src/index.ts';
import { playBlitz } from './support/matches.ts';

let root = '';
let t: Telemetry;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'salient-tournament-queries-'));
  t = await openTelemetry({ kind: 'embedded', path: join(root, 'clickhouse'), spoolDir: join(root, 'spool') });
});
afterAll(async () => {
  await t?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('recordedMatches', () => {
  it('reads back the matches of one tournament, as they ended, without cancelled ones', async () => {
    const sink = t.sink();
    const played = [];
    for (const seed of [1, 2]) played.push(await playBlitz(seed, sink, { matchId: `t1-m${seed}`, tags: { tournament: 't1', worker: 'w' } }));
    const forfeit = await playBlitz(3, sink, {
      matchId: 't1-m3',
      tags: { tournament: 't1' },
      seats: { Axis: createBot('crash:after=2'), Allies: createBot('random') },
    });
    const aborted = new AbortController();
    aborted.abort();
    const cancelled = await playBlitz(4, sink, { matchId: 't1-m4', tags: { tournament: 't1' }, signal: aborted.signal });
    await playBlitz(5, sink, { matchId: 't2-m1', tags: { tournament: 't2' } });
    await sink.drain();

    expect(cancelled.result.kind).toBe('cancelled');
    expect(forfeit.result.kind).toBe('forfeit');
    const got = await recordedMatches(t, 't1');
    expect(got.map((r) => r.matchId)).toEqual(['t1-m1', 't1-m2', 't1-m3']);
    for (const [i, p] of played.entries()) {
      const r = p.result;
      if (r.kind !== 'completed' && r.kind !== 'adjudicated') throw new Error(`expected a finished match, got ${r.kind}`);
      expect(got[i]).toEqual({
        matchId: `t1-m${i + 1}`,
        scenario: 'A',
        seed: i + 1,
        kind: r.kind,
        sides: r.result.sides,
        scores: r.result.scores,
        decisions: r.decisions,
        impulses: r.impulses,
        wallMs: expect.any(Number),
        detail: '',
        worker: 'w',
      });
    }
    const f = forfeit.result;
    if (f.kind !== 'forfeit') throw new Error('expected a forfeit');
    expect(got[2]).toMatchObject({ kind: 'forfeit', sides: f.result.sides, detail: `${f.seat} forfeits (${f.reason}): ${f.detail}` });
    expect(await recordedMatches(t, 'nobody')).toEqual([]);
  });
});
