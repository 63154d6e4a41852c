/** What a bot sees: the open state (1.9 keeps only builds secret), as a copy it cannot use to change the game. */
import { describe, expect, it } from 'vitest';
import { hashJson } from '@salient/engine';
import { blitz } from '../src/index.ts';
import { start } from './helpers.ts';

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
});
