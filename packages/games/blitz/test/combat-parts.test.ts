/**
 * A combat's participants (rules/combat.ts `parts`) are kept from one ask to the next against the
 * state, its units record, the count of unit writes (rules/unit-writes.ts), the combat, its attack and
 * the lengths of the lists they read. With `checkCombatParts` on, every kept answer handed out again is
 * compared with one worked out afresh, and a stale one throws: whole random games of every scenario,
 * through the runner's path (units moved in place) and the copying one, must play through without a
 * throw, and play as they do with the check off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCombatParts } from '../src/rules/combat.ts';
import { playOut } from './helpers.ts';

describe('kept combat participants', () => {
  beforeAll(() => checkCombatParts(true));
  afterAll(() => checkCombatParts(false));
  for (const [scenario, games] of [['A', 40], ['B', 20], ['C', 3], ['D', 2], ['E', 2], ['F', 1], ['full', 1]] as const) {
    it(`match the units at every ask of whole games of scenario ${scenario}`, () => {
      for (let g = 0; g < games; g++) playOut(scenario, 500 + g, g !== 1);
    });
  }
  it('change no game (the same end with the check on and off)', () => {
    const on = playOut('A', 9, true);
    checkCombatParts(false);
    try {
      expect(playOut('A', 9, true)).toBe(on);
    } finally {
      checkCombatParts(true);
    }
  });
});
