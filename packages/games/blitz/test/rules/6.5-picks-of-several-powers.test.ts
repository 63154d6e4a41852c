/**
 * 6.5 (and 6.6's Land Round letters): on a side with units of several powers in a round, the picks
 * are made by its power with the most Factors in that round, not by the power that announced the
 * attack or holds the area. The rules say nothing of a tie; ours goes to the attacking power or the
 * area's holder.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, dieFor, eventsOf, pack, play, prompt, until } from '../helpers.ts';

/** The full game with the USA and the USSR at war with Germany (so the AFA and the USA may attack together, 5.3). */
function fullAtWar(): BlitzState {
  const s = structuredClone(blitz.setup('full', pack));
  s.wars = [...s.wars!, 'GER~USA', 'GER~USSR'].sort();
  s.neutral = [];
  return s;
}

describe('6.5 picks on a side of several powers: a joint AFA and USA Ground Attack', () => {
  // The AFA announce a Ground Attack on Western Germany with the French 1st Army from Paris; the USA
  // join it with the US 9th Army, also in Paris. Western Germany holds the 7th Army (3 Land Factors) and
  // Army Group B (4); the West Wall is taken off.
  const resolved = (afaSize: number, usaSize: number, att: (t: number) => string, def: (t: number) => string) => {
    const bed = arrange(fullAtWar(), { units: { 'west-wall': null, 'french-1st-army': { size: afaSize }, '9th-army': { power: 'USA', at: 'paris', size: usaSize } } });
    const s = until(bed, 'AFA', 'announce-attack');
    const announced = play(s, 'attack western-germany', 'add french-1st-army', 'launch', 'done').state;
    const joined = play(until(announced, 'USA', 'announce-attack'), 'join western-germany', 'add 9th-army', 'launch', 'done').state;
    const r = play(until(joined, 'AFA', 'resolve-order'), 'resolve western-germany');
    const land = r.state.combat!.log.at(-1)!;
    expect(land.round).toBe('land');
    expect(land.attackers).toEqual(['french-1st-army', '9th-army']);
    return play(r.state, att(land.attFactors as number), def(land.defFactors as number));
  };
  const two = (t: number) => dieFor(t, (x) => x.damage === 2);
  const one = (t: number) => dieFor(t, (x) => x.damage === 1);
  const none = (t: number) => dieFor(t, (x) => x.damage === 0);

  it('6.5: the USA, with more Land Factors in the round (4 to the AFA\'s 3), pick for the Allies though the AFA announced the attack', () => {
    let r = resolved(2, 2, two, two);
    // The Allies' number first (the phasing side's): Germany picks its first loss, then the enemy
    // power with the most Factors in the round, the USA, the second.
    expect(prompt(r.state)).toBe('GER:assign-damage');
    r = play(r.state, 'hit 7th-army');
    expect(prompt(r.state)).toBe('USA:assign-damage');
    r = play(r.state, 'hit army-group-b');
    // Then Germany's number: the Allies' own first pick is the USA's too, the second Germany's.
    expect(prompt(r.state)).toBe('USA:assign-damage');
    r = play(r.state, 'hit french-1st-army');
    expect(prompt(r.state)).toBe('GER:assign-damage');
    r = play(r.state, 'hit 9th-army');
    expect(eventsOf(r, 'loss').map((e) => `${e.power}:${e.data!.unit}`)).toEqual(['USA:9th-army']);
    expect([r.state.units['french-1st-army']!.size, r.state.units['9th-army']!.size]).toEqual([1, 1]);
  });

  it('6.5: the AFA, bigger in the round (3 Land Factors to 2), keep the picks of their own attack', () => {
    const r = resolved(2, 1, none, one);
    expect(prompt(r.state)).toBe('AFA:assign-damage');
    expect(r.state.combat!.pickers).toBeUndefined();
  });

  it('6.5 tie: 2 Land Factors each, the Allies\' pick stays with the AFA, the power that announced the attack', () => {
    const r = resolved(1, 1, none, one);
    expect(prompt(r.state)).toBe('AFA:assign-damage');
    expect(r.state.combat!.pickers).toBeUndefined();
  });

  it('6.5 tie: when the USA announced the attack and the AFA joined it, 2 Land Factors each, the USA pick (not the side\'s first power)', () => {
    const bed = arrange(fullAtWar(), { units: { 'west-wall': null, 'french-1st-army': { size: 1 }, '9th-army': { power: 'USA', at: 'paris', size: 1 } } });
    const afaPasses = play(until(bed, 'AFA', 'announce-attack'), 'done').state;
    const usa = play(until(afaPasses, 'USA', 'announce-attack'), 'attack western-germany', 'add 9th-army', 'launch', 'done').state;
    const joined = play(until(usa, 'AFA', 'announce-attack'), 'join western-germany', 'add french-1st-army', 'launch', 'done').state;
    const r = play(until(joined, 'USA', 'resolve-order'), 'resolve western-germany');
    const land = r.state.combat!.log.at(-1)!;
    const hit = play(r.state, none(land.attFactors as number), one(land.defFactors as number));
    expect(prompt(hit.state)).toBe('USA:assign-damage');
  });
});

describe('6.5 picks on a side of several powers: the AFA and the USA defend Paris together', () => {
  // Germany attacks Paris (held by the AFA) from Western Germany with the 7th Army and Army Group B.
  // Paris holds the US 9th Army and some AFA units (the rest of the AFA's there are taken off).
  const fought = (afa: Record<string, { size: number }>, usaSize: number, defend: string[], attDie: (t: number) => string, defDie: (t: number) => string) => {
    const away = Object.fromEntries(['maginot-line', 'french-1st-army', 'french-7th-army', 'armee-de-l-air', 'bef'].map((id) => [id, null]));
    const units = { ...away, ...Object.fromEntries(Object.entries(afa).map(([id, u]) => [id, { ...u, power: 'AFA', at: 'paris' }])), '9th-army': { power: 'USA', at: 'paris', size: usaSize } };
    const s = until(arrange(fullAtWar(), { units }), 'GER', 'announce-attack');
    let r = play(s, 'attack paris', 'add 7th-army', 'add army-group-b', 'launch', 'done');
    r = play(until(r.state, 'AFA', 'commit-defence'), ...defend.map((x) => `defend paris ${x}`), 'done');
    r = play(until(r.state, 'GER', 'resolve-order'), 'resolve paris');
    const land = r.state.combat!.log.at(-1)!;
    expect(land.round).toBe('land');
    return play(r.state, attDie(land.attFactors as number), defDie(land.defFactors as number));
  };
  const one = (t: number) => dieFor(t, (x) => x.damage === 1);
  const none = (t: number) => dieFor(t, (x) => x.damage === 0);

  it('6.5: the USA, with 4 Land Factors to the AFA\'s 2, make the Allies\' first pick in Paris, which the AFA hold', () => {
    const r = fought({ bef: { size: 1 } }, 2, [], one, none);
    expect(r.state.combat!.log.at(-1)!.defenders).toEqual(['9th-army', 'bef']);
    expect(prompt(r.state)).toBe('USA:assign-damage');
    expect(r.state.combat!.pickers).toEqual({ Allies: 'USA' });
  });

  it('6.5 tie: 2 Land Factors each, the AFA, who hold Paris, pick', () => {
    const r = fought({ bef: { size: 1 } }, 1, [], one, none);
    expect(prompt(r.state)).toBe('AFA:assign-damage');
    expect(r.state.combat!.pickers).toBeUndefined();
  });

  it('6.6: the defenders wiped out, the USA (most Land Factors in the battle) pick the German army the Allied letter keeps back', () => {
    // The US 9th Army (Size 1, 2 Land Factors) in Paris, with the AFA's Armee de l'Air (1 Land Factor) flying
    // in support. Germany's point destroys the 9th Army; the Allies roll an S or L and no number: one
    // of the two German armies may not advance, and the USA choose which.
    const r = fought({ 'armee-de-l-air': { size: 1 } }, 1, ['armee-de-l-air'], one, (t) => dieFor(t, (x) => x.damage === 0 && (x.letter === 'S' || x.letter === 'L')));
    expect(r.state.combat!.log.at(-1)!.defenders).toEqual(['9th-army', 'armee-de-l-air']);
    expect(r.state.units['9th-army']!.at).toBe('pool');
    expect(prompt(r.state)).toBe('USA:block-advance');
    const done = play(r.state, 'block 7th-army');
    expect(done.state.units['army-group-b']!.at).toBe('paris');
    expect(done.state.units['7th-army']!.at).toBe('western-germany');
  });
});

describe('6.5 picks on a side of several powers: a sea area combat', () => {
  // The full game at the Allied Blitz: the AFA's North Sea Fleet (5 Naval Factors) already at sea in the
  // North Atlantic with Germany's U-Boat II; the USA call a Total Blitz and sail the US Atlantic Fleet
  // (4 Naval Factors) in, so the USA are the phasing power of the combat.
  it('6.5: the AFA, with more Naval Factors in the round, make the Allies\' first pick though the USA began the combat', () => {
    const s0 = structuredClone(until(fullAtWar(), 'AFA', 'blitz-choice'));
    s0.oil = { ...s0.oil, AFA: 1, USA: 2 };
    const bed = arrange(s0, { units: { 'north-sea-fleet': { at: 'sea:north-atlantic', size: 2 }, 'us-atlantic-fleet': { size: 2 }, 'u-boat-ii': { at: 'sea:north-atlantic', size: 2 } } });
    let s = play(bed, 'blitz land', 'blitz total', 'blitz free', 'sail us-atlantic-fleet', 'to north-atlantic').state;
    for (let q = blitz.pending(s); q.kind === 'decision'; q = blitz.pending(s)) s = play(s, q.options.find((o) => o === 'done' || o === 'stop') ?? q.options[0]!).state;
    const naval = s.sea!.log.at(-1)!;
    expect(naval).toMatchObject({ round: 'naval', attackers: ['north-sea-fleet', 'us-atlantic-fleet'], defenders: ['u-boat-ii'] });
    const r = play(s, dieFor(naval.attFactors as number, (x) => x.damage === 1 && x.letter === null), dieFor(naval.defFactors as number, (x) => x.damage === 1));
    expect(prompt(r.state)).toBe('AFA:assign-damage');
    expect(r.state.sea!.pickers).toEqual({ Allies: 'AFA' });
  });
});
