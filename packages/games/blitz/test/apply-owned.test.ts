/**
 * `applyOwned` (the runner's path, no copy of the state per step) against `apply` over whole games:
 * the conformance kit compares single steps; this keeps what every owned step handed out (events,
 * and at each impulse the position and summary) as live objects to the end of the game, and only
 * then compares them with the same things serialized at once from the pure path. Anything handed out
 * that shares an object a later step changes in place shows up as a difference.
 */
import { describe, expect, it } from 'vitest';
import { RngStreams } from '@salient/engine';
import { blitz } from '../src/index.ts';
import type { BlitzState } from '../src/rules/state.ts';
import { pack } from './helpers.ts';

const applyOwned = blitz.applyOwned!;

function playBoth(scenario: string, seed: number): { steps: number } {
  const rng = new RngStreams(seed);
  let pure: BlitzState = blitz.setup(scenario, pack);
  let owned: BlitzState = blitz.setup(scenario, pack);
  const kept: unknown[] = [];
  const written: string[] = [];
  for (let step = 0; step < 20_000; step++) {
    const p = blitz.pending(pure);
    if (p.kind === 'terminal') {
      expect(blitz.pending(owned).kind).toBe('terminal');
      expect(JSON.stringify(owned)).toBe(JSON.stringify(pure));
      // The first entry that changed after it was handed out, named by its index, not the whole game.
      const changed = kept.findIndex((k, i) => JSON.stringify(k) !== written[i]);
      expect(changed === -1 ? 'nothing changed' : `entry ${changed}: handed out ${written[changed]}, now ${JSON.stringify(kept[changed])}`).toBe('nothing changed');
      return { steps: step };
    }
    const choice = p.kind === 'decision' ? rng.get('pick').pick(p.options) : rng.get(p.stream).sample(p.outcomes);
    const a = blitz.apply(pure, choice);
    const b = applyOwned(owned, choice);
    written.push(JSON.stringify(a.events));
    kept.push(b.events);
    if (a.boundary === 'impulse' || a.boundary === 'turn') {
      written.push(JSON.stringify([blitz.position(a.state), blitz.summarize!(a.state)]));
      kept.push([blitz.position(b.state), blitz.summarize!(b.state)]);
    }
    expect(b.boundary).toBe(a.boundary);
    // States apart from the first difference on (aliases inside the owned state would show here).
    if (JSON.stringify(b.state) !== JSON.stringify(a.state)) throw new Error(`${scenario} seed ${seed}: the states differ after step ${step} (${blitz.encode(choice)})`);
    pure = a.state;
    owned = b.state;
  }
  throw new Error(`${scenario} seed ${seed}: no end in 20000 steps`);
}

describe('applyOwned', () => {
  it('builds the next state in the one it is given', () => {
    const s = blitz.setup('A', pack);
    const p = blitz.pending(s);
    const choice = p.kind === 'decision' ? p.options[0]! : p.kind === 'chance' ? p.outcomes[0]!.outcome : '';
    expect(blitz.apply(s, choice).state).not.toBe(s);
    expect(applyOwned(s, choice).state).toBe(s);
  });

  for (const [scenario, seeds] of [['A', 30], ['B', 30], ['C', 10], ['D', 3], ['E', 4], ['F', 2], ['full', 2]] as const) {
    it(`gives what apply gives over whole games of scenario ${scenario}, nothing it handed out changing later`, () => {
      for (let seed = 1; seed <= seeds; seed++) expect(playBoth(scenario, seed).steps).toBeGreaterThan(10);
    }, 120_000);
  }
});
