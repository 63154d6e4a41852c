/** What a bot sees: the open state (1.9 keeps builds, Lend Lease choices and save splits secret), as a copy it cannot use to change the game. */
import { describe, expect, it } from 'vitest';
import { hashJson } from '@salient/engine';
import { blitz } from '../src/index.ts';
import { arrange, pack, start } from './helpers.ts';

describe('observe', () => {
  it('returns a copy: changing it leaves the game untouched', () => {
    const s = start('A');
    const before = hashJson(s);
    const o = blitz.observe(s, 'GER');
    o.units['army-group-center']!.at = 'paris';
    o.control.paris = 'GER';
    expect(hashJson(s)).toBe(before);
  });

  it('shows everything but the other power’s hidden builds', () => {
    const s = { ...start('B'), hidden: { GER: [{ unit: 'volkssturm', size: 1, at: 'berlin' }], WA: [] } };
    expect(blitz.observe(s, 'WA').hidden).toEqual({ WA: [] });
    expect(blitz.observe(s, 'GER').hidden.GER).toHaveLength(1);
    expect(blitz.observe(s, 'WA').units).toEqual(s.units);
  });

  it('hides the other powers\' weapon picks and research draws of this turn (1.9), from the Force Pool and from the list of units picked', () => {
    const s0 = blitz.setup('full', pack);
    const s = { ...s0, pool: { ...s0.pool, 'test-pick': { size: 2, from: 0 } }, picked: [...(s0.picked ?? []), 'old-pick', 'test-pick'], hidden: { ...s0.hidden, GER: [{ unit: 'test-pick', size: 2, at: 'drawn' }] } };
    for (const other of ['AFA', 'USA', 'USSR', 'JAP']) {
      const o = blitz.observe(s, other);
      expect(o.pool['test-pick']).toBeUndefined();
      expect(o.picked).toContain('old-pick');
      expect(o.picked).not.toContain('test-pick');
    }
    expect(blitz.observe(s, 'GER').picked).toContain('test-pick');
    expect(blitz.observe(s, 'GER').pool['test-pick']).toEqual({ size: 2, from: 0 });
  });

  it('hides the other powers\' turn-end Lend Lease choices (7.4) and the split of what they save (7.8) until revealed', () => {
    const s0 = arrange(blitz.setup('full', pack), { units: { 'liberty-ll': { power: 'USA', at: 'sea:north-atlantic', size: 1 } } });
    const s = { ...s0, llOil: { 'liberty-ll': 1 }, saveOil: { USA: 2, AFA: 0 } };
    expect(blitz.observe(s, 'USA').llOil).toEqual({ 'liberty-ll': 1 });
    expect(blitz.observe(s, 'USA').saveOil).toEqual({ USA: 2 });
    for (const other of ['GER', 'JAP', 'USSR']) {
      expect(blitz.observe(s, other).llOil).toEqual({});
      expect(blitz.observe(s, other).saveOil).toEqual({});
    }
    expect(blitz.observe(s, 'AFA').llOil).toEqual({});
    expect(blitz.observe(s, 'AFA').saveOil).toEqual({ AFA: 0 });
  });
});
