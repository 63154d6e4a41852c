import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hashString, runReplay } from '@salient/engine';
import { diceRace, diceRacePack } from '@salient/engine/testing';
import { runMatch } from '../src/index.ts';
import { diceSpec } from './helpers.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const script = fileURLToPath(new URL('./fixtures/play-once.ts', import.meta.url));

describe('determinism', () => {
  it('gives a byte-identical replay and the same final hash for the same seed, whatever the clock', async () => {
    let t = 0;
    const a = await runMatch(diceSpec(42));
    const b = await runMatch(diceSpec(42, { now: () => (t += 7) }));
    expect(a.replay.log.length).toBeGreaterThan(0);
    expect(JSON.stringify(b.replay)).toBe(JSON.stringify(a.replay));
    expect(b.finalHash).toBe(a.finalHash);
    expect(b.matchId).toBe(a.matchId);
    expect(b.thinkMsBySeat).not.toEqual(a.thinkMsBySeat);
  });

  it('gives the same game in a separate process', async () => {
    const local = await runMatch(diceSpec(7, { seatSpecs: { A: 'test-random', B: 'test-random' } }));
    const out = execFileSync(process.execPath, ['--import', 'tsx', script, '7'], { cwd: repoRoot, encoding: 'utf8' });
    const remote = JSON.parse(out) as { finalHash: string; replayHash: string; matchId: string };
    expect(remote).toEqual({ finalHash: local.finalHash, replayHash: hashString(JSON.stringify(local.replay)), matchId: local.matchId });
  });

  it('plays different games for different seeds', async () => {
    const seeds = Array.from({ length: 10 }, (_, i) => i + 1);
    const results = await Promise.all(seeds.map((s) => runMatch(diceSpec(s))));
    expect(new Set(results.map((r) => JSON.stringify(r.replay.log))).size).toBe(seeds.length);
    expect(new Set(results.map((r) => r.matchId)).size).toBe(seeds.length);
  });

  it('records a replay that reproduces the final state hash', async () => {
    for (const seed of [3, 4, 5]) {
      const r = await runMatch(diceSpec(seed));
      const again = runReplay(diceRace, diceRacePack, JSON.parse(JSON.stringify(r.replay)));
      expect(again.matches).toBe(true);
      expect(again.hash).toBe(r.finalHash);
      expect(again.steps).toBe(r.decisions + r.chanceDraws);
    }
  });
});
