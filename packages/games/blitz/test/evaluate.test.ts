/**
 * The evaluation search bots use (src/rules/evaluate.ts), on positions from the real set-ups where one
 * option is plainly better: it must prefer that one. Each position is reached by real decisions, or
 * made from a set-up by the smallest edit (`arrange`), said in the test. Each comparison is one an
 * evaluation without the term under test gets wrong or calls even.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../src/index.ts';
import { pressure } from '../src/rules/evaluate.ts';
import { packOf } from '../src/rules/pack-index.ts';
import { inSupply } from '../src/rules/supply.ts';
import type { BlitzState } from '../src/rules/state.ts';
import { arrange, play, prompt, start } from './helpers.ts';

const value = (s: BlitzState, power: string) => blitz.model!.evaluate(s, power);

describe('evaluation (a heuristic for bots)', () => {
  it('A: Germany prefers launching an overwhelming attack on Poland to holding back', () => {
    // Real decisions: no rebase, no move, then at the first announce-attack of Turn 1 either attack
    // Poland (one Size 2 Polish army) with both army groups and both air units, or announce nothing.
    const s0 = play(start('A'), 'done', 'done').state;
    expect(prompt(s0)).toBe('GER:announce-attack');
    const attack = play(s0, 'attack poland', 'add army-group-center', 'add army-group-north', 'add luftwaffe', 'add stukas', 'launch').state;
    const hold = play(s0, 'done').state;
    expect(value(attack, 'GER')).toBeGreaterThan(value(hold, 'GER'));
    expect(value(attack, 'AFA')).toBeLessThan(value(hold, 'AFA'));
  });

  it('A: the Allies keep the only defender of Paris while German stacks stand next to it', () => {
    // Edit of the set-up: every German land unit in Western Germany (next to Paris, not to Poland);
    // Paris held by the French 1st Army alone (the Maginot Line taken off). The alternative puts that
    // army in Poland instead, which is an objective as near (both are key areas), and leaves Paris empty.
    const units = { 'maginot-line': null, '18th-army': { at: 'western-germany' }, 'army-group-center': { at: 'western-germany' }, 'army-group-north': { at: 'western-germany' } };
    const kept = arrange(start('A'), { units });
    const stripped = arrange(start('A'), { units: { ...units, 'french-1st-army': { at: 'poland' } } });
    expect(value(kept, 'AFA')).toBeGreaterThan(value(stripped, 'AFA'));
    expect(value(kept, 'GER')).toBeLessThan(value(stripped, 'GER'));
    // Without German land units next to Paris or Poland, the same two positions are worth the same to the Allies.
    const calm = { ...units, '18th-army': null, 'army-group-center': null, 'army-group-north': null, '1st-para': null };
    expect(value(arrange(start('A'), { units: calm }), 'AFA')).toBeCloseTo(value(arrange(start('A'), { units: { ...calm, 'french-1st-army': { at: 'poland' } } }), 'AFA'), 9);
  });

  it('A: an enemy objective next to our strong stacks is threatened, more so the weaker its garrison', () => {
    // Edit of the set-up: the German army groups in Western Germany, next to Paris; Paris held by both
    // French units, or by the French 1st Army alone.
    const units = { 'army-group-center': { at: 'western-germany' }, 'army-group-north': { at: 'western-germany' } };
    const strong = arrange(start('A'), { units });
    const weak = arrange(start('A'), { units: { ...units, 'maginot-line': null } });
    const none = arrange(start('A'), { units: { ...units, 'maginot-line': null, 'french-1st-army': null } });
    // Less garrison is less material for the Allies too: the threat must add to it, so compare the
    // Allies' loss of the unit with Germany next to Paris against its loss with Germany away.
    const away = { 'army-group-center': { at: 'berlin' }, 'army-group-north': { at: 'berlin' } };
    const lossNear = value(strong, 'AFA') - value(weak, 'AFA');
    const lossAway = value(arrange(start('A'), { units: away }), 'AFA') - value(arrange(start('A'), { units: { ...away, 'maginot-line': null } }), 'AFA');
    expect(lossNear).toBeGreaterThan(lossAway);
    expect(value(none, 'GER')).toBeGreaterThan(value(weak, 'GER'));
    // The pressure term itself: diminishing in the attackers, near 1 against an empty area, 0 with none.
    expect(pressure(0, 5)).toBe(0);
    expect(pressure(20, 0)).toBeGreaterThan(0.9);
    expect(pressure(20, 2) - pressure(10, 2)).toBeLessThan(pressure(10, 2) - pressure(0, 2));
  });

  it('A: German stacks next to Paris press it harder from Belgium-Netherlands than from Germany (the Maginot Line, 5.3)', () => {
    // Edit of the set-up: Belgium-Netherlands given to Germany, and the German army groups and the 18th
    // Army either in it or in Western Germany; both are next to Paris and to no other key area, but the
    // Maginot Line's red triangles count only against attackers all from Germany (6.2, 5.3).
    const at = (area: string) => arrange(start('A'), { control: { 'belgium-netherlands': 'GER' }, units: { '18th-army': { at: area }, 'army-group-center': { at: area }, 'army-group-north': { at: area } } });
    expect(value(at('belgium-netherlands'), 'GER')).toBeGreaterThan(value(at('western-germany'), 'GER'));
  });

  it('D: a unit out of supply (1.7) is worth less than the same unit in supply', () => {
    // Edit of the set-up: the 18th Army in the Ukraine, given to Germany. In supply through Poland; cut
    // off when Poland and Central Europe are Soviet. The unit's worth is the value with it less the
    // value without it, in the same position otherwise.
    const p = packOf(start('D').pack);
    const worth = (control: Record<string, string>) => {
      const withIt = arrange(start('D'), { units: { '18th-army': { at: 'ukraine' } }, control: { ukraine: 'GER', ...control } });
      const without = arrange(start('D'), { units: { '18th-army': null }, control: { ukraine: 'GER', ...control } });
      return { inSupply: inSupply(p, withIt, '18th-army'), worth: value(withIt, 'GER') - value(without, 'GER') };
    };
    const fed = worth({});
    const cut = worth({ poland: 'USSR', 'central-europe': 'USSR' });
    expect(fed.inSupply).toBe(true);
    expect(cut.inSupply).toBe(false);
    expect(fed.worth).toBeGreaterThan(cut.worth + 1);
    expect(cut.worth).toBeGreaterThan(0);
  });

  it('A: when ahead, an even trade of material is worth making', () => {
    // Edit of the set-up: the BEF and the Home Guard gone (Germany ahead in material). The trade takes a
    // German and an Allied unit of equal worth (Size 1, same factors: the 1st Para and the Armée de
    // l'Air made alike) from areas next to no objective (London and Scotland, where both are put).
    const base = { bef: null, 'home-guard': null, '1st-para': { at: 'scotland', def: 'armee-de-l-air', power: 'GER' }, 'armee-de-l-air': { at: 'london' } };
    const before = arrange(start('A'), { units: base });
    const after = arrange(start('A'), { units: { ...base, '1st-para': null, 'armee-de-l-air': null } });
    expect(value(after, 'GER')).toBeGreaterThan(value(before, 'GER'));
    expect(value(after, 'AFA')).toBeLessThan(value(before, 'AFA'));
  });
});
