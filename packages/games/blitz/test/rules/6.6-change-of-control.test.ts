/** 6.6: the ARM test, retreats chosen by the attacker and placed by the owner, FORTs, advance, blocks, overrun. */
import { describe, expect, it } from 'vitest';
import { arrange, combatLog, dieFor, eventsOf, options, pack, play, prompt, skipTo, start, until } from '../helpers.ts';
import { donBasinRound } from '../support/don-basin.ts';
import { blitz } from '../../src/index.ts';

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

  it('may retreat into an area under a Factory Attack: only an announced Ground Attack closes it', () => {
    // Scenario D: the NKVD Troops alone hold Byelorussia, whose only neighbour left to the USSR is Moscow;
    // Germany bombs Moscow's Factory and attacks Byelorussia with more ARM than its Forest and Swamp give.
    const s = until(
      arrange(start('D'), {
        control: { leningrad: 'GER', ukraine: 'GER' },
        units: {
          'western-front': null,
          'northwestern-front': null,
          'northern-front': null,
          'baltic-sea-fleet': null,
          'southwestern-front': null,
          'southern-front': null,
          'black-sea-fleet': null,
          'vvs-fighters': null,
          lra: null,
          'he-177s': { at: 'poland', size: 2 },
        },
      }),
      'GER',
      'announce-attack',
    );
    let r = play(s, 'bomb moscow', 'add he-177s', 'launch', 'attack byelorussia', 'add army-group-center', 'add army-group-south', 'add waffen-ss-army', 'launch', 'done');
    r = play(until(r.state, 'GER', 'resolve-order'), 'resolve byelorussia');
    const land = r.state.combat!.log.at(-1)!;
    r = play(r.state, dieFor(land.attFactors as number, letter), dieFor(land.defFactors as number, nothing));
    expect(eventsOf(r, 'retreat').map((e) => e.data)).toEqual([{ unit: 'nkvd-troops', from: 'byelorussia', to: 'moscow' }]);
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

describe('6.6 example: the Don Basin, continued from 6.2', () => {
  const r0 = donBasinRound();

  it('five Soviet ARM (Byelorussian Front 3, Guards Banner Army 2) beat two German ARM (Waffen SS) plus two for Forest', () => {
    const land = combatLog(r0).find((x) => x.round === 'land')!;
    expect(land.armAttack).toBe(5);
    expect(land.armDefence).toBe(4);
  });

  // The USSR rolls a 4 on column 19 (2L); Germany a 2 on column 13 (1S).
  const rolled = play(r0.state, 'die 4', 'die 2');

  it("the USSR's 4 is 2L and Germany's 2 is 1S", () => {
    const land = combatLog(rolled).find((x) => x.round === 'land')!;
    expect([land.attResult, land.defResult]).toEqual(['2L', '1S']);
  });

  it('Germany puts the first point on Army Group B, the USSR the second, which destroys it into the German Force Pool', () => {
    expect(prompt(rolled.state)).toBe('GER:assign-damage');
    expect(options(rolled.state)).toEqual(['hit army-group-b', 'hit waffen-ss-army']);
    const first = play(rolled.state, 'hit army-group-b');
    expect(first.state.units['army-group-b']!.size).toBe(1);
    expect(prompt(first.state)).toBe('USSR:assign-damage');
    const second = play(first.state, 'hit army-group-b');
    expect(eventsOf(second, 'elimination').map((e) => e.data!.unit)).toContain('army-group-b');
    expect(second.state.units['army-group-b']!.at).toBe('pool');
    expect(second.state.pool['army-group-b']).toBeDefined();
  });

  const afterGerman = play(rolled.state, 'hit army-group-b', 'hit army-group-b');

  it("Germany's one hit: the USSR destroys the Far Eastern Front (Size 1)", () => {
    expect(prompt(afterGerman.state)).toBe('USSR:assign-damage');
    const r = play(afterGerman.state, 'hit far-eastern-front');
    expect(r.state.units['far-eastern-front']!.at).toBe('pool');
  });

  const end = play(afterGerman.state, 'hit far-eastern-front');

  it('the L moves 2/3 of the one surviving German unit (rounds to 1): the Waffen SS Army retreats to the Ukraine', () => {
    expect(eventsOf(end, 'retreat').map((e) => e.data)).toEqual([{ unit: 'waffen-ss-army', from: 'don-basin', to: 'ukraine' }]);
  });

  it('the S blocks 4 x 1/3 (rounds to 1) of the four surviving attackers; Germany picks the Byelorussian Front and the other three advance', () => {
    expect(prompt(end.state)).toBe('GER:block-advance');
    expect(options(end.state)).toEqual(['block byelorussian-front', 'block guards-banner-army', 'block transbaikal-front', 'block western-front']);
    const r = play(end.state, 'block byelorussian-front');
    expect(eventsOf(r, 'advance')[0]!.data!.units).toEqual(['western-front', 'guards-banner-army', 'transbaikal-front']);
    expect(r.state.control['don-basin']).toBe('USSR');
    expect(r.state.units['byelorussian-front']!.at).toBe('stalingrad');
    expect(r.state.units['transbaikal-front']!.at).toBe('don-basin');
  });
});

describe('6.6 example: an attack on the GHQ FORT in Gibraltar, an Island', () => {
  // The full game, Germany holding Spain. The pack has no Panzer Army Afrika counter, so the Waffen SS
  // Army (an ARM of Size 2, within the Island limit) stands in for it.
  const s = until(
    arrange(blitz.setup('full', pack), { control: { spain: 'GER' }, units: { 'waffen-ss-army': { power: 'GER', at: 'spain', size: 2 } } }),
    'GER',
    'announce-attack',
  );
  const r = play(s, 'attack gibraltar', 'add waffen-ss-army', 'launch', 'done');
  const at = until(r.state, 'GER', 'resolve-order');
  const fought = play(at, 'resolve gibraltar');
  const land = combatLog(fought).find((x) => x.round === 'land')!;

  it('the ARM test passes (2 against the FORT\'s 1, Clear terrain), so an L would normally force the FORT out', () => {
    expect(land.defenders).toEqual(['ghq-fort']);
    expect(land.armAttack).toBe(2);
    expect(land.armDefence).toBe(1);
  });

  it("the attackers' L has no effect on an Island: the FORT takes no extra point of damage and Gibraltar stays British", () => {
    const die = dieFor(land.attFactors as number, (x) => x.letter === 'L' && x.damage === 0);
    const done = play(fought.state, die, dieFor(land.defFactors as number, (x) => x.letter === null && x.damage === 0));
    expect(combatLog(done).find((x) => x.round === 'land')!.attResult).toBe('L');
    expect(eventsOf(done, 'loss')).toEqual([]);
    expect(eventsOf(done, 'retreat')).toEqual([]);
    expect(done.state.units['ghq-fort']).toMatchObject({ at: 'gibraltar', size: 1 });
    expect(done.state.control.gibraltar).toBe('AFA');
  });
});
