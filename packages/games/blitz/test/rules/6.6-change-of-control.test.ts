/** 6.6: the ARM test, retreats chosen by the attacker and placed by the owner, FORTs, advance, blocks, overrun. */
import { describe, expect, it } from 'vitest';
import { arrange, combatLog, dieFor, eventsOf, options, play, prompt, skipTo, start } from '../helpers.ts';

/** A letter strong enough to move a single unit (2/3 of 1 rounds to 1; 1/3 of 1 rounds to 0). */
const letter = (r: { letter: string | null; damage: number }) => (r.letter === 'L' || r.letter === 'B') && r.damage === 0;
const nothing = (r: { letter: string | null; damage: number }) => r.letter === null && r.damage === 0;

/** Germany to announce, with Paris open to attack from Belgium-Netherlands (so the Maginot note does not apply). */
function fromBeNe(units: Record<string, object | null>) {
  return skipTo(
    arrange(start('A'), {
      atWar: ['belgium-netherlands'],
      control: { 'belgium-netherlands': 'GER' },
      units: { 'army-group-center': { at: 'belgium-netherlands' }, 'army-group-north': { at: 'belgium-netherlands' }, 'armee-de-l-air': { at: 'london' }, ...units },
    }),
    'announce-attack',
  );
}

/** Announce and resolve one attack, then roll: the attacker's die chosen by `att`, the defender's by `def`. */
type Want = (r: { damage: number; letter: string | null }) => boolean;

function fight(s: ReturnType<typeof start>, target: string, attackers: string[], att: Want, def: Want) {
  let r = play(s, `attack ${target}`, ...attackers.map((a) => `add ${a}`), 'launch', 'done');
  r = play(r.state, ...(options(r.state).includes('done') ? ['done'] : []));
  r = play(r.state, `resolve ${target}`);
  const land = r.state.combat!.log.at(-1)!;
  return play(r.state, dieFor(land.attFactors as number, att), dieFor(land.defFactors as number, def));
}

describe('6.6 change of control', () => {
  it('with no more ARM than the defence (FORT 2 in Paris), the attacker letters are ignored', () => {
    const s = skipTo(arrange(start('A'), { units: { 'army-group-north': { at: 'western-germany' }, 'armee-de-l-air': { at: 'london' } } }), 'announce-attack');
    // Any letter would move one of the two defenders (1/3 of 2 rounds to 1) if the ARM test passed.
    const r = fight(s, 'paris', ['army-group-north'], (x: { letter: string | null }) => x.letter !== null, nothing);
    const land = combatLog(r).find((x) => x.round === 'land')!;
    expect(land.armAttack).toBe(1);
    expect(land.armDefence).toBe(2);
    expect(String(land.attResult)).toMatch(/^[SLB]$/);
    expect(eventsOf(r, 'retreat')).toEqual([]);
    expect(r.state.control.paris).toBe('AFA');
  });

  it('with more ARM, a letter forces the defender out; the owner retreats it, then the attackers must all advance', () => {
    const s = fromBeNe({ 'maginot-line': null });
    const r = fight(s, 'paris', ['army-group-center', 'army-group-north'], letter, nothing);
    expect(eventsOf(r, 'retreat')[0]!.data).toMatchObject({ unit: 'french-1st-army', from: 'paris', to: 'vichy-france' });
    expect(eventsOf(r, 'advance')[0]!.data!.units).toEqual(['army-group-center', 'army-group-north']);
    expect(r.state.control.paris).toBe('GER');
    expect(r.state.units['army-group-center']!.at).toBe('paris');
  });

  it('never retreats into an area already under announced Ground Attack', () => {
    // Belgium-Netherlands is AFA-held and empty; Germany announces attacks on it and on Paris.
    const s = skipTo(
      arrange(start('A'), {
        atWar: ['belgium-netherlands'],
        control: { 'belgium-netherlands': 'AFA' },
        units: { 'army-group-center': { at: 'western-germany' }, 'army-group-north': { at: 'western-germany' }, 'maginot-line': null, 'armee-de-l-air': { at: 'london' } },
      }),
      'announce-attack',
    );
    let r = play(s, 'attack belgium-netherlands', 'add 18th-army', 'launch', 'attack paris', 'add army-group-center', 'add army-group-north', 'launch', 'done');
    r = play(r.state, ...(options(r.state).includes('done') ? ['done'] : []), 'resolve paris');
    const land = r.state.combat!.log.at(-1)!;
    r = play(r.state, dieFor(land.attFactors as number, letter), dieFor(land.defFactors as number, nothing));
    expect(eventsOf(r, 'retreat')[0]!.data!.to).toBe('vichy-france');
  });

  it('a FORT cannot retreat and takes an extra loss instead', () => {
    const s = fromBeNe({ 'french-1st-army': null });
    const r = fight(s, 'paris', ['army-group-center', 'army-group-north'], letter, nothing);
    expect(eventsOf(r, 'loss').map((e) => [e.data!.unit, e.data!.why])).toContainEqual(['maginot-line', 'a FORT cannot retreat']);
  });

  it('if every attacker is blocked, the defender keeps control of the emptied area', () => {
    // A lone ARM forces the French 1st Army out with an L; the defender's own L blocks the lone attacker.
    const s = fromBeNe({ 'maginot-line': null, 'army-group-north': null });
    const r = fight(s, 'paris', ['army-group-center'], letter, letter);
    expect(eventsOf(r, 'retreat').map((e) => e.data!.unit)).toEqual(['french-1st-army']);
    const c = eventsOf(r, 'combat')[0]!;
    expect(c.data!.outcome).toBe('held (no attacker able to advance)');
    expect(r.state.control.paris).toBe('AFA');
    expect(r.state.units['army-group-center']!.at).toBe('belgium-netherlands');
  });

  it('enemy air in a captured area is overrun to the closest base, the attacker choosing among ties', () => {
    const s = fromBeNe({ 'maginot-line': null, 'french-1st-army': null, 'armee-de-l-air': { at: 'paris' } });
    // Empty of land units: the attack takes Paris without a Land Round.
    let r = play(s, 'attack paris', 'add army-group-center', 'launch', 'done');
    r = play(r.state, ...(options(r.state).includes('done') ? ['done'] : []), 'resolve paris');
    expect(prompt(r.state)).toBe('GER:overrun-destination');
    expect(options(r.state)).toEqual(['to london', 'to vichy-france']);
    const r2 = play(r.state, 'to london');
    expect(r2.state.units['armee-de-l-air']!.at).toBe('london');
    expect(r2.state.control.paris).toBe('GER');
  });
});
