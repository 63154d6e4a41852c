/**
 * The sea presence (rules/supply.ts: which sides and armed powers are at sea where, for 1.5's closed
 * seas) is kept from one question to the next against the units record, the count of unit writes
 * (rules/unit-writes.ts) and the control stamp. With `checkSeaPresence` on, every kept presence taken
 * is compared with one worked out afresh from the units at sea, and a stale one throws: whole random
 * games of every scenario with sea areas, through the runner's path (units moved in place) and the
 * copying one, must play through without a throw, and play as they do with the check off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RngStreams } from '@salient/engine';
import { blitz } from '../src/index.ts';
import { checkSeaPresence } from '../src/rules/supply.ts';
import type { BlitzState } from '../src/rules/state.ts';
import { pack } from './helpers.ts';

function playOut(scenario: string, seed: number, owned: boolean): string {
  const rng = new RngStreams(seed);
  let s: BlitzState = blitz.setup(scenario, pack);
  for (let step = 0; step < 20_000; step++) {
    const p = blitz.pending(s);
    if (p.kind === 'terminal') return JSON.stringify(s);
    const choice = p.kind === 'decision' ? rng.get('pick').pick(p.options) : rng.get(p.stream).sample(p.outcomes);
    s = owned ? blitz.applyOwned!(s, choice).state : blitz.apply(s, choice).state;
  }
  throw new Error(`${scenario} seed ${seed}: no end in 20000 steps`);
}

describe('kept sea presence', () => {
  beforeAll(() => checkSeaPresence(true));
  afterAll(() => checkSeaPresence(false));
  for (const [scenario, games] of [['C', 3], ['D', 2], ['E', 2], ['F', 1], ['full', 1]] as const) {
    it(`matches the units at sea at every question of whole games of scenario ${scenario}`, () => {
      for (let g = 0; g < games; g++) playOut(scenario, 300 + g, g !== 1);
    });
  }
  it('changes no game (the same end with the check on and off)', () => {
    const on = playOut('D', 7, true);
    checkSeaPresence(false);
    try {
      expect(playOut('D', 7, true)).toBe(on);
    } finally {
      checkSeaPresence(true);
    }
  });
});
