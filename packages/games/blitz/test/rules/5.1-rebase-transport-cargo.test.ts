/**
 * 5.1 / B.3 / B.4 a rebasing TRS: loading several units, and cargo that may still move.
 *
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { arrange, eventsOf, options, pack, play, prompt, start, until } from '../helpers.ts';

describe('5.1 a rebasing TRS carries up to twice its Size', () => {
  // 5.1 example: the Size-1 3rd Fleet embarks the Home Guard and the Malta GAR (combined Size 2).
  it('after loading the Home Guard (Size 1) the 3rd Fleet (Size 1) may still load the Royal Marines (Size 1)', () => {
    const s = until(start('B'), 'WA', 'rebase-pick');
    const r = play(s, 'rebase 3rd-fleet', 'load home-guard');
    expect(prompt(r.state)).toBe('WA:rebase-load');
    expect(options(r.state)).toContain('load royal-marines');
    expect(options(r.state)).not.toContain('load 2nd-army'); // Size 2 would exceed the capacity
  });
});

describe('B.4 a land unit may move even if it rebased earlier in this action phase', () => {
  it('the 2nd Army, carried by the rebasing 3rd Fleet from London to Scotland, may then move', () => {
    const s = until(start('B'), 'WA', 'rebase-pick');
    const r = play(s, 'rebase 3rd-fleet', 'load 2nd-army', 'to scotland', 'done');
    expect(r.state.units['2nd-army']!.at).toBe('scotland');
    expect(prompt(r.state)).toBe('WA:move-pick');
    expect(options(r.state)).toContain('move 2nd-army');
  });
});

describe('5.1 a PARA that rebased by TRS may not also rebase by air', () => {
  it('the 1st Airborne, carried by the 3rd Fleet from London to Scotland, is no longer offered a rebase', () => {
    const s = until(start('B'), 'WA', 'rebase-pick');
    expect(options(s)).toContain('rebase 1st-airborne');
    const r = play(s, 'rebase 3rd-fleet', 'load 1st-airborne', 'go', 'to scotland');
    expect(r.state.units['1st-airborne']!.at).toBe('scotland');
    expect(prompt(r.state)).toBe('WA:rebase-pick');
    expect(options(r.state)).not.toContain('rebase 1st-airborne');
  });
});

describe('5.1/1.3 a rebasing TRS ends where its cargo can stand ashore', () => {
  it('the Central TRS carrying the 25th Army (Size 2) may not end in the Marshall Islands, an Island where the SNLF already stands', () => {
    const s = until(arrange(blitz.setup('E', pack), { units: { '25th-army': { at: 'caroline-islands' }, '14th-area-army': { at: 'caroline-islands' } } }), 'JAP', 'rebase-pick');
    expect(options(play(s, 'rebase central-trs').state)).toEqual(['load 14th-area-army', 'load 25th-army', 'go']);
    expect(options(play(s, 'rebase central-trs', 'load 14th-area-army', 'go').state)).toContain('to marshall-islands');
    expect(options(play(s, 'rebase central-trs', 'load 25th-army', 'go').state)).not.toContain('to marshall-islands');
  });
});

describe('5.1 returning to base (4.1) is not moving to sea (4.2): the TRS may still rebase and carry', () => {
  it('the Europe Trs. returns to Scotland, then rebases carrying the 8th Army', () => {
    const s = until(arrange(start('B'), { units: { 'europe-trs': { at: 'sea:north-sea' } } }), 'WA', 'return-pick');
    const r = play(s, 'return europe-trs', 'to scotland');
    const rb = until(r.state, 'WA', 'rebase-pick');
    expect(options(rb)).toContain('rebase europe-trs');
    const r2 = play(rb, 'rebase europe-trs');
    expect(prompt(r2.state)).toBe('WA:rebase-load');
    expect(options(r2.state)).toContain('load 8th-army');
  });
});

describe('5.1 example: the 3rd Fleet TRS ferries the 9th Army to Paris', () => {
  // Scenario B with Paris in Allied hands and the 9th Army (Size 2) in London with the 3rd Fleet (a Size-1 TRS).
  const s = until(
    arrange(start('B'), { units: { 'army-group-b': null, '7th-army': null, 'atlantic-wall': null, '9th-army': { power: 'WA', at: 'london', size: 2 } }, control: { paris: 'WA' } }),
    'WA',
    'rebase-pick',
  );

  it('a Size-1 TRS carrying the Size-2 9th Army has no room left', () => {
    const r = play(s, 'rebase 3rd-fleet', 'load 9th-army');
    expect(prompt(r.state)).toBe('WA:rebase-to');
  });

  it('London -> Western Approaches -> Paris (2 of its 6 rebase moves): the 9th Army disembarks in Paris', () => {
    const r = play(s, 'rebase 3rd-fleet', 'load 9th-army');
    expect(options(r.state)).toContain('to paris');
    const r2 = play(r.state, 'to paris');
    expect(r2.state.units['3rd-fleet']!.at).toBe('paris');
    expect(r2.state.units['9th-army']!.at).toBe('paris');
  });
});

describe('5.1 example: the 3rd Fleet goes back for the Home Guard and the Malta GAR, all in one rebase', () => {
  // As above, with the Malta GAR also in London.
  const s = until(
    arrange(start('B'), {
      units: { 'army-group-b': null, '7th-army': null, 'atlantic-wall': null, '9th-army': { power: 'WA', at: 'london', size: 2 }, 'malta-gar': { power: 'WA', at: 'london', size: 1 } },
      control: { paris: 'WA' },
    }),
    'WA',
    'rebase-pick',
  );
  // Where nothing is left to load or unload, the next question is where to sail (no 'go').
  const ferry = ['rebase 3rd-fleet', 'load 9th-army', 'via paris', 'unload 9th-army', 'via london', 'load home-guard', 'load malta-gar', 'to paris'];

  it('with 4 of its 6 moves left after Paris, it may stop there to put the 9th Army ashore and sail on', () => {
    const r = play(s, 'rebase 3rd-fleet', 'load 9th-army');
    expect(options(r.state)).toContain('via paris');
    const r2 = play(r.state, 'via paris');
    expect(prompt(r2.state)).toBe('WA:rebase-load');
    expect(options(r2.state)).toEqual(['unload 9th-army', 'go']);
    const r3 = play(r2.state, 'unload 9th-army');
    expect(r3.state.units['9th-army']!.at).toBe('paris');
    // Nothing more to do in Paris (the 9th Army is not taken aboard again): on to London, 2 of the 4 left.
    expect(prompt(r3.state)).toBe('WA:rebase-to');
    expect(options(r3.state)).toContain('via london');
  });

  it('back in London (2 more, 2 left) it takes the Home Guard and the Malta GAR aboard (Size 2, its capacity)', () => {
    const r = play(s, ...ferry.slice(0, 5));
    expect(r.state.units['3rd-fleet']!.at).toBe('london');
    expect(prompt(r.state)).toBe('WA:rebase-load');
    expect(options(r.state)).toContain('load home-guard');
    expect(options(r.state)).toContain('load malta-gar');
    const full = play(r.state, 'load home-guard');
    expect(options(full.state)).not.toContain('unload home-guard'); // taken aboard here: not put back ashore here
    expect(play(full.state, 'load malta-gar').state.units['malta-gar']!.at).toBe('trs:3rd-fleet');
  });

  it('with its last 2 moves it ends the rebase in Paris, where the two GARs go ashore; no further stop is offered', () => {
    const r = play(s, ...ferry.slice(0, 7));
    expect(options(r.state)).toEqual(['to paris']); // Scotland is 3 moves away; no movement for another stop
    const r2 = play(r.state, 'to paris');
    const u = r2.state.units;
    expect([u['3rd-fleet']!.at, u['9th-army']!.at, u['home-guard']!.at, u['malta-gar']!.at]).toEqual(['paris', 'paris', 'paris', 'paris']);
    expect(eventsOf(r2, 'rebase').map((e) => [e.data!.from, e.data!.to])).toEqual([['london', 'paris']]);
    const all = play(s, ...ferry);
    expect(eventsOf(all, 'rebase').map((e) => [e.data!.from, e.data!.to])).toEqual([['london', 'paris'], ['paris', 'london'], ['london', 'paris']]);
    expect(eventsOf(all, 'disembark').map((e) => e.data!.unit)).toEqual(['9th-army']);
    expect(prompt(r2.state)).toBe('WA:rebase-pick');
    expect(options(r2.state)).not.toContain('rebase 3rd-fleet');
  });

  it('B.4: being carried is not a move: the three land units have not moved (the B.4 test above shows such a unit moving)', () => {
    const u = play(s, ...ferry).state.units;
    expect([u['9th-army']!.moved, u['home-guard']!.moved, u['malta-gar']!.moved]).toEqual([undefined, undefined, undefined]);
  });

  it('an armed Axis unit in the Western Approaches would have barred the whole rebase', () => {
    // London's Port is on the Western Approaches: with U-Boat II there the 3rd Fleet cannot rebase at all.
    const s2 = arrange(s, { units: { 'u-boat-ii': { power: 'GER', at: 'sea:western-approaches', size: 2 } } });
    expect(prompt(s2)).toBe('WA:rebase-pick');
    expect(options(s2)).not.toContain('rebase 3rd-fleet');
  });
});
