/**
 * 4.3 blocking, and 9.8 forced passage, on the way of a move to sea (4.2): the player moves the ship
 * area by area, so the route is theirs to choose. It is asked only when the routes differ in what
 * they risk (a blockade roll leaving this sea or that one, with this value or that, a strait forced or
 * not); a route meeting nothing, or meeting less than another, is simply taken.
 *
 * On the full game's map Norway's Port touches the North Sea and the Arctic Ocean, both next to the
 * North Atlantic; Leningrad's Port touches the Baltic and the Arctic Ocean, both next to the North
 * Sea (the Baltic past the Danish straits, which Germany's hold on Western Germany closes to the Allies).
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, eventsOf, options, pack, play, prompt, until } from '../helpers.ts';

const full = (optional?: string): BlitzState => blitz.setup('full', pack, optional ? { optional } : {});

describe('4.3 the route past blockaders, on a move to sea', () => {
  /** Germany holds Norway (and Sweden, for its supply line, 1.7), the High Seas Fleet in its Port. */
  const norway = (units: Parameters<typeof arrange>[1]['units'], ship = 'high-seas-fleet') =>
    play(arrange(until(full(), 'GER', 'sea-pick'), { control: { norway: 'GER', sweden: 'GER' }, units: { [ship]: { at: 'norway' }, ...units } }), `sail ${ship}`).state;
  const bothBlockaded = { 'north-sea-fleet': { at: 'sea:north-sea' }, 'north-atlantic-fleet': { at: 'sea:arctic-ocean' } };

  it('with one way clear of blockaders it is taken, and nothing is asked', () => {
    const r = play(norway({ 'north-sea-fleet': { at: 'sea:north-sea' } }), 'to north-atlantic');
    expect(r.state.units['high-seas-fleet']!.at).toBe('sea:north-atlantic');
    expect(eventsOf(r, 'blocked')).toEqual([]);
    expect(prompt(r.state)).toBe('GER:sea-pick');
  });

  it('with both ways blockaded the player picks the route, offered in code-point order', () => {
    const r = play(norway(bothBlockaded), 'to north-atlantic');
    expect(prompt(r.state)).toBe('GER:sea-route');
    expect(options(r.state)).toEqual(['via arctic-ocean north-atlantic', 'via north-sea north-atlantic']);
    // Each is a well-formed choice for the game's codec (bots and replays pass choices through it).
    for (const o of options(r.state)) expect(blitz.decode(blitz.encode(o))).toBe(o);
    expect(r.state.units['high-seas-fleet']!.at).toBe('norway');
  });

  it('the route picked is the one sailed: the blockade roll is for leaving that sea, and a block leaves the ship there', () => {
    const asked = play(norway(bothBlockaded), 'to north-atlantic').state;
    for (const [route, sea] of [['via arctic-ocean north-atlantic', 'arctic-ocean'], ['via north-sea north-atlantic', 'north-sea']] as const) {
      const r = play(asked, route);
      expect(prompt(r.state)).toBe('chance:blockade-die');
      expect(r.state.units['high-seas-fleet']!.at).toBe(`sea:${sea}`);
      const blocked = play(r.state, 'die 1');
      expect(eventsOf(blocked, 'blocked')[0]!.data).toMatchObject({ unit: 'high-seas-fleet', sea });
      expect(blocked.state.units['high-seas-fleet']!.at).toBe(`sea:${sea}`);
      expect(play(r.state, 'die 6').state.units['high-seas-fleet']!.at).toBe('sea:north-atlantic');
    }
  });

  it('a route not offered is refused', () => {
    const asked = play(norway(bothBlockaded), 'to north-atlantic').state;
    expect(() => blitz.apply(asked, 'via north-sea arctic-ocean north-atlantic')).toThrow();
  });

  it('a SUB is never blocked, so its routes risk the same and it is not asked', () => {
    const r = play(norway(bothBlockaded, 'u-boat-i'), 'to north-atlantic');
    expect(r.state.units['u-boat-i']!.at).toBe('sea:north-atlantic');
    expect(prompt(r.state)).toBe('GER:sea-pick');
  });
});

describe('9.8 the route past a closed strait, on a move to sea', () => {
  /** The AFA holds Leningrad, the North Sea Fleet in its Port bound for the North Sea. */
  const leningrad = (optional: string | undefined, units: Parameters<typeof arrange>[1]['units'] = {}) =>
    play(arrange(until(full(optional), 'AFA', 'sea-pick'), { control: { leningrad: 'AFA' }, units: { 'north-sea-fleet': { at: 'leningrad' }, ...units } }), 'sail north-sea-fleet', 'to north-sea');

  it('with the Arctic Ocean clear the fleet goes round by it, forcing nothing and asked nothing', () => {
    const r = leningrad('9.8');
    expect(r.state.units['north-sea-fleet']!.at).toBe('sea:north-sea');
    expect(eventsOf(r, 'forced-passage')).toEqual([]);
    expect(prompt(r.state)).toBe('AFA:sea-pick');
  });

  it('with a U-boat in the Arctic Ocean, forcing the Danish straits or running the blockade is the player’s choice', () => {
    const r = leningrad('9.8', { 'u-boat-i': { at: 'sea:arctic-ocean' } });
    expect(prompt(r.state)).toBe('AFA:sea-route');
    expect(options(r.state)).toEqual(['via arctic-ocean north-sea', 'via baltic-sea north-sea']);
    const forced = play(r.state, 'via baltic-sea north-sea');
    expect(prompt(forced.state)).toBe('chance:forced-passage-die');
    expect(forced.state.units['north-sea-fleet']!.at).toBe('sea:baltic-sea');
    const run = play(r.state, 'via arctic-ocean north-sea');
    expect(prompt(run.state)).toBe('chance:blockade-die');
    expect(run.state.units['north-sea-fleet']!.at).toBe('sea:arctic-ocean');
  });

  it('without the option the straits stay shut: the one route is by the Arctic Ocean, blockade and all, and nothing is asked', () => {
    const r = leningrad(undefined, { 'u-boat-i': { at: 'sea:arctic-ocean' } });
    expect(prompt(r.state)).toBe('chance:blockade-die');
    expect(r.state.units['north-sea-fleet']!.at).toBe('sea:arctic-ocean');
  });
});
