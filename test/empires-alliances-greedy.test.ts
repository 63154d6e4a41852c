/**
 * Greedy on Empires & Alliances 1918 (one-ply lookahead on `model.evaluate`: VP held, strength, supply)
 * plays better than random from either side, on the same seeds: as the Central Powers it ends with more
 * VP (3.71) than a random Central Powers player against the same random Allies, and as the Allies it
 * leaves the Central Powers fewer VP than random Allies do. Whole games through the runner; the
 * evaluation's speed (src/rules/vp-supply.ts) keeps the greedy games to a few seconds each.
 */
import { describe, expect, it } from 'vitest';
import { createBot } from '@salient/bots';
import { empiresAlliances } from '@salient/game-empires-alliances';
import { runMatch } from '@salient/runner';

const SEEDS = [2, 3];

function pack() {
  const r = empiresAlliances.checkPack(empiresAlliances.bundledPacks.approximation);
  if (!r.ok) throw new Error('the bundled E&A pack fails its schema');
  return r.pack;
}

/** The Central Powers' VP and result at the end of a whole game with these bots. */
async function play(cp: string, al: string, seed: number): Promise<{ vp: number; points: number }> {
  const r = await runMatch({ game: empiresAlliances, pack: pack(), scenario: '1918', seed, seats: { CP: createBot(cp), AL: createBot(al) }, decisionTimeoutMs: 600_000 });
  if (r.kind !== 'completed') throw new Error(`seed ${seed}, ${cp} vs ${al}: ${r.kind}`);
  const side = r.result.sides.CP;
  return { vp: r.result.scores.CP!, points: side === 'win' ? 1 : side === 'draw' ? 0.5 : 0 };
}

describe('greedy against random on Empires & Alliances 1918', () => {
  it('does better than random as the Central Powers and as the Allies, on the same seeds', { timeout: 300_000 }, async () => {
    const base: { vp: number; points: number }[] = [];
    const asCp: { vp: number; points: number }[] = [];
    const asAl: { vp: number; points: number }[] = [];
    for (const seed of SEEDS) {
      base.push(await play('random', 'random', seed));
      asCp.push(await play('greedy', 'random', seed));
      asAl.push(await play('random', 'greedy', seed));
    }
    const sum = (xs: { vp: number }[]) => xs.reduce((t, x) => t + x.vp, 0);
    const points = (xs: { points: number }[]) => xs.reduce((t, x) => t + x.points, 0);
    // As the Central Powers: more VP in all, and a result at least as good on every seed.
    expect(sum(asCp)).toBeGreaterThan(sum(base) + SEEDS.length);
    expect(points(asCp)).toBeGreaterThan(points(base));
    asCp.forEach((x, i) => expect(x.points).toBeGreaterThanOrEqual(base[i]!.points));
    // As the Allies: fewer Central Powers VP in all, and never a better Central Powers result.
    expect(sum(asAl)).toBeLessThan(sum(base));
    asAl.forEach((x, i) => expect(x.points).toBeLessThanOrEqual(base[i]!.points));
  });
});
