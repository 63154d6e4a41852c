/** 12.1 Automatic Victory odds. */
import { describe, expect, it } from 'vitest';
import { avOddsNeeded, avReached } from '../../src/rules/combat.ts';

describe('12.1 automatic victory', () => {
  it('needs 8-1, 10-1 in defensive terrain or Mud/Snow, 12-1 with both', () => {
    expect(avOddsNeeded(false, false)).toBe(8);
    expect(avOddsNeeded(true, false)).toBe(10);
    expect(avOddsNeeded(false, true)).toBe(10);
    expect(avOddsNeeded(true, true)).toBe(12);
  });
  it('is reached at exactly the odds', () => {
    expect(avReached(24, 3, 8)).toBe(true);
    expect(avReached(23, 3, 8)).toBe(false);
  });
});
