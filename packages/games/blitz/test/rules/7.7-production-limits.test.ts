/**
 * 7.7 a neutral major power's production limit, with the rulebook's example (the USA at the end of
 * Turn 2 of the full game, continuing 7.6's) played through to the USA's builds.
 */
import { describe, expect, it } from 'vitest';
import { passUntil, play } from '../helpers.ts';
import { usaBuilds } from '../support/usa-turn-2.ts';

describe('7.7 example: the USA\'s It\'s War! marker is in box 7', () => {
  it('the USA, still neutral, may use only 7 of its Oil and Resources (12 are its own, besides China\'s)', () => {
    const s = usaBuilds();
    expect(s.neutral).toContain('USA');
    expect(s.itsWar!.USA).toBe(7);
    expect(s.res.USA).toBe(7);
  });

  // China's 2 earmarked Resources (Chungking's and the Lend Lease one) are spent within the same 7.
  it('spending on Chinese units counts within the limit of 7: after 2 on them, 5 are left, saved at the turn end', () => {
    const s = usaBuilds({ 'chinese-warlords': { size: 1 }, 'nationalist-army': { size: 1 } });
    expect(s.earmark!.USA).toEqual({ china: 2 });
    const r = play(s, 'repair chinese-warlords', 'repair nationalist-army', 'done');
    const next = passUntil(r.state, (x) => x.turn === 3)!;
    expect(next.oil!.USA! + next.saved!.USA!).toBe(7 - 2);
  });
});
