/**
 * 9.8 Forced passage: a naval unit may cross a strait the map closes to it (4.2), taking a 7-factor
 * attack on the Combat Chart as it crosses: the number is damage, an L sends it back to where its
 * move began with no further move this phase. It applies on a return to base too (4.1), and never
 * opens the Suez Canal (Mediterranean to Arabian Sea) while the other side holds Egypt.
 *
 * On the full game's map in 1939 the AFA holds Gibraltar (closing it to German ships) and Germany
 * Western Germany (closing the Danish straits to Allied ships); neutral Turkey closes its straits.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, dieFor, eventsOf, options, pack, play, prompt, until } from '../helpers.ts';

const full = (optional?: string): BlitzState => blitz.setup('full', pack, optional ? { optional } : {});
const L = dieFor(7, (r) => r.letter === 'L');
const ONE = dieFor(7, (r) => r.damage === 1 && r.letter === null);
const TWO = dieFor(7, (r) => r.damage === 2);

/** Germany about to choose the Italian Fleet's destination (Rome, movement 2). */
const italianFleet = (optional?: string) => play(until(full(optional), 'GER', 'sea-pick'), 'sail italian-fleet').state;

describe('9.8 forcing a closed strait on a move to sea', () => {
  it('without the option the Italian Fleet keeps to the Mediterranean', () => {
    expect(options(italianFleet()).filter((o) => o.startsWith('to '))).toEqual(['to mediterranean']); // seas; 'into' a Port on it too (4.2)
  });

  it('with it, Gibraltar and the Turkish straits may be forced, never Suez while the AFA holds Egypt', () => {
    const opts = options(italianFleet('9.8'));
    expect(opts).toEqual(expect.arrayContaining(['to mediterranean', 'to western-approaches', 'to black-sea']));
    expect(opts).not.toContain('to arabian-sea');
  });

  it('the crossing is a 7-factor attack, rolled as the ship reaches the strait', () => {
    const r = play(italianFleet('9.8'), 'to western-approaches');
    expect(prompt(r.state)).toBe('chance:forced-passage-die');
    expect(r.state.units['italian-fleet']!.at).toBe('sea:mediterranean');
  });

  it('a number is damage and the ship sails on', () => {
    const r = play(italianFleet('9.8'), 'to western-approaches', ONE);
    expect(r.state.units['italian-fleet']).toMatchObject({ at: 'sea:western-approaches', size: 1 });
    expect(eventsOf(r, 'forced-passage')[0]!.data).toMatchObject({ unit: 'italian-fleet', from: 'mediterranean', to: 'western-approaches', result: '1' });
    expect(prompt(r.state)).toBe('GER:sea-pick');
  });

  it('enough damage sinks it', () => {
    const r = play(italianFleet('9.8'), 'to western-approaches', TWO);
    expect(r.state.units['italian-fleet']!.at).toBe('pool');
    expect(eventsOf(r, 'elimination').map((e) => e.data!.unit)).toEqual(['italian-fleet']);
  });

  it('4.2: the Italian SUB passes Gibraltar freely, with no forced-passage roll', () => {
    const r = play(until(full('9.8'), 'GER', 'sea-pick'), 'sail italian-submarines', 'to western-approaches');
    expect(r.state.units['italian-submarines']!.at).toBe('sea:western-approaches');
    expect(eventsOf(r, 'forced-passage')).toEqual([]);
    expect(prompt(r.state)).toBe('GER:sea-pick');
  });

  it('an L sends it back to its port, and it may not move again this phase', () => {
    const r = play(italianFleet('9.8'), 'to western-approaches', L);
    expect(r.state.units['italian-fleet']).toMatchObject({ at: 'rome', size: 2, moved: true });
    expect(eventsOf(r, 'return-to-base')[0]!.data).toMatchObject({ unit: 'italian-fleet', to: 'rome', forced: true });
    expect(options(r.state)).not.toContain('sail italian-fleet');
    const rb = until(r.state, 'GER', 'rebase-pick');
    expect(options(rb)).not.toContain('rebase italian-fleet');
  });

  it('a transport hit below its cargo loses land units aboard, its owner choosing, then sails on', () => {
    const s0 = arrange(full('9.8'), { units: { 'europe-trs': { power: 'AFA', at: 'scotland', size: 2 }, bef: { power: 'AFA', at: 'scotland', size: 2 }, '8th-army': { power: 'AFA', at: 'scotland', size: 2 } } });
    let s = play(until(s0, 'AFA', 'sea-pick'), 'sail europe-trs', 'load bef', 'load 8th-army', 'sail').state;
    expect(options(s)).toContain('to baltic-sea');
    s = play(s, 'to baltic-sea', ONE).state;
    expect(prompt(s)).toBe('AFA:transport-overloaded');
    expect(options(s)).toEqual(['lose 8th-army', 'lose bef']);
    const r = play(s, 'lose bef');
    expect(r.state.units.bef!.at).toBe('pool');
    expect(r.state.units['europe-trs']).toMatchObject({ at: 'sea:baltic-sea', size: 1 });
    expect(r.state.units['8th-army']!.at).toBe('trs:europe-trs');
    expect(prompt(r.state)).toBe('AFA:sea-embark');
  });
});

describe('9.8 on a return to base (4.1)', () => {
  // Turn 1 opens at the move to sea (nobody is at sea yet): step back to the return step (4.1) with the fleet out.
  const atSea = (optional?: string) => arrange({ ...full(optional), step: 'return' }, { units: { 'italian-fleet': { at: 'sea:western-approaches' } } });

  it('the way home through a closed strait opens only with the option', () => {
    // Without it no port is in reach: the fleet is not even offered a return.
    expect(options(atSea())).not.toContain('return italian-fleet');
    expect(options(play(until(atSea('9.8'), 'GER', 'return-pick'), 'return italian-fleet').state)).toContain('to rome');
  });

  it('is attacked at the strait: through with damage, or turned back to the sea it started in', () => {
    const s = play(until(atSea('9.8'), 'GER', 'return-pick'), 'return italian-fleet', 'to rome').state;
    expect(prompt(s)).toBe('chance:forced-passage-die');
    expect(play(s, ONE).state.units['italian-fleet']).toMatchObject({ at: 'rome', size: 1 });
    const back = play(s, L).state;
    expect(back.units['italian-fleet']).toMatchObject({ at: 'sea:western-approaches', size: 2, moved: true });
    expect(options(back)).not.toContain('return italian-fleet');
  });
});

/**
 * A sea combat in the Baltic in Germany's first impulse: the AFA's ships there have no base on its
 * shores (Leningrad is Soviet, Poland has no Port) and Germany holds the Danish straits, so home is
 * past a closed strait: Scotland (two away), or London, Paris and others (three).
 */
describe('9.8 on a return to base made by a combat result (6.5)', () => {
  const baltic = (optional: string | undefined, units: Parameters<typeof arrange>[1]['units'], control?: Record<string, string>) => {
    const s = arrange(until(full(optional), 'GER', 'sea-pick'), { units: { 'high-seas-fleet': { at: 'sea:baltic-sea' }, ...units }, ...(control ? { control } : {}) });
    return play(until(play(s, 'done').state, 'JAP', 'sea-pick'), 'done').state;
  };
  /** The Naval Round, the High Seas Fleet (5) against the North Sea Fleet (7): an L for Germany, a harmless S for the AFA. */
  const naval = (optional?: string, control?: Record<string, string>) => {
    const s = baltic(optional, { 'north-sea-fleet': { at: 'sea:baltic-sea' } }, control);
    expect(s.sea?.log[0]).toMatchObject({ round: 'naval', attackers: ['high-seas-fleet'], defenders: ['north-sea-fleet'], attFactors: 5, defFactors: 7 });
    return play(s, dieFor(5, (r) => r.letter === 'L' && r.damage === 0), dieFor(7, (r) => r.letter === 'S' && r.damage === 0));
  };

  it('without the option the fleet sent back has no base it can reach, and is destroyed (4.1)', () => {
    const r = naval();
    expect(eventsOf(r, 'stranded').map((e) => e.data!.unit)).toEqual(['north-sea-fleet']);
    expect(r.state.units['north-sea-fleet']!.at).toBe('pool');
    expect(eventsOf(r, 'forced-passage')).toEqual([]);
  });

  it('with it, the fleet sails for Scotland and the Danish straits are attacked first: a number is damage, and it gets home', () => {
    const r = naval('9.8');
    expect(prompt(r.state)).toBe('chance:forced-passage-die');
    expect(r.state.units['north-sea-fleet']!.at).toBe('sea:baltic-sea');
    const home = play(r.state, ONE);
    expect(eventsOf(home, 'forced-passage')[0]!.data).toMatchObject({ unit: 'north-sea-fleet', from: 'baltic-sea', to: 'north-sea', result: '1' });
    expect(home.state.units['north-sea-fleet']).toMatchObject({ at: 'scotland', size: 1 });
    expect(home.state.sea ?? null).toBeNull(); // the combat is over
  });

  it('4.1: with no base in range (Scotland lost) it goes to one of the closest, its owner choosing, and is attacked on the way there too', () => {
    const r = naval('9.8', { scotland: 'GER' });
    expect(prompt(r.state)).toBe('AFA:return-to-base-where');
    // Three moves away each: past the straits, the North Sea, then the Western Approaches or the North Atlantic.
    expect(options(r.state)).toEqual(['base eastern-canada', 'base gibraltar', 'base london', 'base morocco', 'base paris']);
    const asked = play(r.state, 'base london');
    expect(prompt(asked.state)).toBe('chance:forced-passage-die');
    expect(play(asked.state, ONE).state.units['north-sea-fleet']).toMatchObject({ at: 'london', size: 1 });
  });

  it('an L turns it back into the Baltic, where it takes no further part in the combat', () => {
    // An Air Round first (the Luftwaffe, 3, against the North Atlantic Fleet's carriers, 2): an L sends the CV home.
    const s = baltic('9.8', { 'north-atlantic-fleet': { at: 'sea:baltic-sea' }, luftwaffe: { at: 'sea:baltic-sea' } });
    expect(s.sea?.log[0]).toMatchObject({ round: 'air', attackers: ['luftwaffe'], defenders: ['north-atlantic-fleet'], attFactors: 3, defFactors: 2 });
    const r = play(s, dieFor(3, (x) => x.letter === 'L' && x.damage === 0), dieFor(2, (x) => x.letter === null && x.damage === 0));
    expect(prompt(r.state)).toBe('chance:forced-passage-die');
    const back = play(r.state, L);
    expect(back.state.units['north-atlantic-fleet']).toMatchObject({ at: 'sea:baltic-sea', size: 2 });
    // No Naval Round follows: the High Seas Fleet has no ship left in the fight to fire at.
    const fought = eventsOf(back, 'combat').at(-1)!.data!.rounds as unknown as { round: string }[];
    expect(fought.map((x) => x.round)).toEqual(['air']);
    expect(back.state.sea ?? null).toBeNull();
  });
});

describe('9.8 does not reach an overrun (6.6)', () => {
  it('an AFA fleet in East Prussia when Germany walks in keeps to open straits: with no port it can reach, it is destroyed', () => {
    const s = arrange(until(full('9.8'), 'GER', 'move-pick'), { control: { 'east-prussia': 'AFA' }, units: { 'north-sea-fleet': { at: 'east-prussia' } } });
    const mover = options(s).find((o) => o.startsWith('move ') && options(play(s, o).state).includes('to east-prussia'));
    expect(mover).toBeDefined();
    const r = play(s, mover!, 'to east-prussia');
    expect(eventsOf(r, 'overrun')[0]!.data).toMatchObject({ unit: 'north-sea-fleet' });
    expect(r.state.units['north-sea-fleet']!.at).toBe('pool');
    expect(eventsOf(r, 'forced-passage')).toEqual([]);
  });
});

describe('9.8 on a SUB returning to base to avoid a sea combat (4.4)', () => {
  /** The AFA's impulse: its Mediterranean Fleet finds U-boat I in the Black Sea, whose Turkish straits are closed to German ships (SUBs too). */
  const blackSea = (optional?: string) => {
    const s = arrange(until(full(optional), 'AFA', 'sea-pick'), { units: { 'u-boat-i': { at: 'sea:black-sea' }, 'mediterranean-fleet': { at: 'sea:black-sea' } } });
    return until(play(s, 'done').state, 'GER', 'sub-evasion');
  };

  it('without the option it has no base to slip back to, so it is not offered the escape', () => {
    expect(() => blackSea()).toThrow(/sub-evasion/);
  });

  it('with it, it may escape past the straits to a Mediterranean port, attacked at the crossing; an L leaves it in the Black Sea, out of the fight', () => {
    const s = blackSea('9.8');
    expect(options(s)).toEqual(['evade u-boat-i', 'done']);
    const where = play(s, 'evade u-boat-i').state;
    expect(prompt(where)).toBe('GER:return-to-base-where');
    const asked = play(where, 'base rome').state;
    expect(prompt(asked)).toBe('chance:forced-passage-die');
    expect(play(asked, dieFor(7, (r) => r.letter === 'S' && r.damage === 0)).state.units['u-boat-i']!.at).toBe('rome');
    const back = play(asked, L);
    expect(back.state.units['u-boat-i']).toMatchObject({ at: 'sea:black-sea', size: 1 });
    // Nothing is left for the Mediterranean Fleet to fight: the combat ends with no round.
    expect(eventsOf(back, 'combat').at(-1)!.data).toMatchObject({ target: 'black-sea', rounds: [] });
  });
});
