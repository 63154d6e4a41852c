/**
 * 5.1 / B.3 / B.4 a rebasing TRS: loading several units, and cargo that may still move.
 *
 */
import { describe, expect, it } from 'vitest';
import { arrange, options, play, prompt, start, until } from '../helpers.ts';

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
