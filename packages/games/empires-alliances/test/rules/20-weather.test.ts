/** 20 Weather: the table (20.1), the effects (20.22, 20.23) and the MF arithmetic with its rulings (8.2). */
import { describe, expect, it } from 'vitest';
import { parseRulings } from '../../src/rules/rulings.ts';
import { harsher, movementFactor, railHexes, railheadAdvance, supplyLength, weatherFor } from '../../src/rules/weather.ts';
import { CHARTS } from '../helpers.ts';

const defaults = parseRulings(undefined);
const mf = (printed: number, weather: 'clear' | 'mud' | 'snow', supplyLevel = 0, demoralized = false, rulings = defaults) => movementFactor({ printed, weather, supplyLevel, demoralized }, rulings);

describe('20.1 the Weather Table', () => {
  it('gives one result for both zones or a West/East pair', () => {
    expect(weatherFor(CHARTS.weather, 7, 1)).toEqual({ west: 'clear', east: 'clear' });
    expect(weatherFor(CHARTS.weather, 11, 10)).toEqual({ west: 'snow', east: 'snow' });
    expect(weatherFor(CHARTS.weather, 11, 4)).toEqual({ west: 'mud', east: 'snow' });
  });
  it('applies the harsher weather across both zones', () => {
    expect(harsher('clear', 'mud')).toBe('mud');
    expect(harsher('snow', 'mud')).toBe('snow');
  });
});

describe('20.22 Mud', () => {
  it('takes 1 MP off by default (the rule sentence): 5 becomes 4', () => {
    expect(mf(5, 'mud')).toBe(4);
  });
  it("turns 5 into 3 as the text's example does under ruling mud-mf=halve-up", () => {
    expect(mf(5, 'mud', 0, false, parseRulings('mud-mf=halve-up'))).toBe(3);
  });
  it('shortens supply paths to 4 and railhead advances to 2', () => {
    expect(supplyLength('mud')).toBe(4);
    expect(railheadAdvance('mud')).toBe(2);
    expect(railHexes('mud')).toBe(30);
  });
});

describe('20.23 Snow', () => {
  it('10: railheads advance 3 hexes, 2 in Mud, 1 in Snow (10.4)', () => {
    expect([railheadAdvance('clear'), railheadAdvance('mud'), railheadAdvance('snow')]).toEqual([3, 2, 1]);
  });
  it('halves the MF rounding up, rail to 24 hexes, supply to 3, railheads 1', () => {
    expect(mf(5, 'snow')).toBe(3);
    expect(mf(4, 'snow')).toBe(2);
    expect(railHexes('snow')).toBe(24);
    expect(supplyLength('snow')).toBe(3);
    expect(railheadAdvance('snow')).toBe(1);
  });
  it('leaves clear weather at 5 supply hexes, 30 rail hexes and 3 railhead hexes', () => {
    expect([supplyLength('clear'), railHexes('clear'), railheadAdvance('clear')]).toEqual([5, 30, 3]);
  });
});

describe('8.2 MF modifiers and their order (ruling mf-order)', () => {
  it('never goes below 1', () => {
    expect(mf(3, 'snow', 2, true)).toBe(1);
  });
  it('unsupplied L1 loses 1, L2 halves rounding down, demoralized halves rounding down (14.6, 13.85)', () => {
    expect(mf(4, 'clear', 1)).toBe(3);
    expect(mf(5, 'clear', 2)).toBe(2);
    expect(mf(5, 'clear', 0, true)).toBe(2);
  });
  it('subtracts before halving by default; as-listed halves Snow first', () => {
    // Snow, L1, MF 4: subtract first: (4-1)=3 -> snow ceil 2; as listed: snow 2 -> L1 1.
    expect(mf(4, 'snow', 1)).toBe(2);
    expect(mf(4, 'snow', 1, false, parseRulings('mf-order=as-listed'))).toBe(1);
  });
});
