/**
 * 7.8 spending Resources, with the rulebook's example (continuing 7.7's: the USA at the end of Turn 2
 * of the full game, its marker in box 7) at the USA's builds. The Warlords in Chungking and the
 * Nationalist Army are arranged at Size 1 so that there is something Chinese to spend on.
 */
import { describe, expect, it } from 'vitest';
import { options, passUntil, play } from '../helpers.ts';
import { usaBuilds } from '../support/usa-turn-2.ts';

describe('7.8 example: the USA spends on Chinese units and its own', () => {
  const s = usaBuilds({ 'chinese-warlords': { size: 1 }, 'nationalist-army': { size: 1 } });

  it('two Resources, the Lend Lease one and Chungking\'s (where the Warlords stand), may go to Chinese units only', () => {
    expect(s.units['chinese-warlords']!.at).toBe('chungking');
    expect(s.earmark!.USA).toEqual({ china: 2 });
    expect(options(s)).toEqual(expect.arrayContaining(['repair chinese-warlords', 'repair nationalist-army']));
  });

  it('it spends its maximum of two on Chinese units, which leaves the rest for the USA\'s own units', () => {
    const r = play(s, 'repair chinese-warlords');
    expect(options(r.state)).toContain('repair nationalist-army');
    const r2 = play(r.state, 'repair nationalist-army');
    expect(r2.state.res.USA).toBe(7);
    // Nothing Chinese is left to pay for; the USA's own units still are.
    expect(options(r2.state).some((o) => o.includes('chinese') || o.includes('nationalist') || o.includes('8th-route'))).toBe(false);
    expect(options(r2.state)).toContain('repair us-1st-army');
  });

  // The example then saves two Oil and one Resource (markers at 2 and 1): 2 Chinese + 2 own + 3 saved = 7.
  // The engine keeps the USA's 4 Oil within its limit of 7 and saves what is left Oil first, so the 3 are
  // all saved as Oil (the example's player keeps one of them as a Resource: a choice the engine makes for it).
  it('it saves Oil out of its limited budget: after 2 on Chinese units and 2 on its own, 3 are saved, Oil first', () => {
    expect(s.budgetOil!.USA).toBe(4);
    const r = play(s, 'repair chinese-warlords', 'repair nationalist-army', 'repair us-1st-army', 'repair usaffe', 'done');
    const next = passUntil(r.state, (x) => x.turn === 3)!;
    expect(next.oil!.USA).toBe(3);
    expect(next.saved!.USA).toBe(0);
    expect(next.oil!.USA! + next.saved!.USA!).toBe(7 - 2 - 2);
  });
});
