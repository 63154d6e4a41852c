/**
 * The sea presence (rules/supply.ts: which sides and armed powers are at sea where, for 1.5's closed
 * seas) is kept from one question to the next against the units record, the count of unit writes
 * (rules/unit-writes.ts) and the control stamp. With `checkSeaPresence` on, every kept presence taken
 * is compared with one worked out afresh from the units at sea, and a stale one throws: whole random
 * games of every scenario with sea areas, through the runner's path (units moved in place) and the
 * copying one, must play through without a throw, and play as they do with the check off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSeaPresence } from '../src/rules/supply.ts';
import { playOut } from './helpers.ts';

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
