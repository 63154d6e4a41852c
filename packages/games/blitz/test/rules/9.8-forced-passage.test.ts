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
