/**
 * 7.8 spending Resources, with the rulebook's example (continuing 7.7's: the USA at the end of Turn 2
 * of the full game, its marker in box 7) at the USA's builds. The Warlords in Chungking and the
 * Nationalist Army are arranged at Size 1 so that there is something Chinese to spend on.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { options, passUntil, play, prompt } from '../helpers.ts';
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
  // Under its limit the USA's budget holds its 4 Oil and 3 Resources (7.7 keeps Oil first, an Oil doing all
  // a Resource does); what is left after the builds is saved as the player chooses between the two.
  const built = () => play(s, 'repair chinese-warlords', 'repair nationalist-army', 'repair us-1st-army', 'repair usaffe', 'done');

  it('7.8 (D12): done building, it chooses how the 3 left are saved, from all Oil to as few Oil as its Resources allow', () => {
    expect(s.budgetOil!.USA).toBe(4);
    const r = built();
    expect(prompt(r.state)).toBe('USA:save-split');
    expect(options(r.state)).toEqual(['save 3 oil 0 resources', 'save 2 oil 1 resources', 'save 1 oil 2 resources', 'save 0 oil 3 resources']);
  });

  it('it saves two Oil and one Resource: its Oil marker in box 2 and its Resources marker in box 1', () => {
    const r = play(built().state, 'save 2 oil 1 resources');
    const next = passUntil(r.state, (x) => x.turn === 3)!;
    expect(next.oil!.USA).toBe(2);
    expect(next.saved!.USA).toBe(1);
  });

  it('a player who takes the first option saves Oil first, as the engine did before the choice was offered', () => {
    const next = passUntil(built().state, (x) => x.turn === 3)!;
    expect(next.oil!.USA).toBe(3);
    expect(next.saved!.USA).toBe(0);
  });

  it('1.9: the split is hidden from the other powers while the builds are secret', () => {
    const r = play(built().state, 'save 1 oil 2 resources');
    const seen = { ...structuredClone(r.state), saveOil: { USA: 1 } };
    expect(blitz.observe(seen, 'USA').saveOil).toEqual({ USA: 1 });
    expect(blitz.observe(seen, 'JAP').saveOil).toEqual({});
  });
});
