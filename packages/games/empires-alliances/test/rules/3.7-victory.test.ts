/** S3 3.71/3.72 Victory: the 15 places, half for a place without a supply path, the bands and their ruling. */
import { describe, expect, it } from 'vitest';
import { parseRulings } from '../../src/rules/rulings.ts';
import { centralVp, levelReason, placeVp, victoryLevel, type VpPlace } from '../../src/rules/victory.ts';
import { S3 } from '../helpers.ts';

const defaults = parseRulings(undefined);
const bands = S3.victory.bands;
const place = (kind: 'take' | 'hold', x: Partial<VpPlace> = {}): VpPlace => ({ kind, germanInfantry: false, alliedInfantry: false, supplied: true, ...x });

describe('S3 3.7 victory points (3.71)', () => {
  it('an Allied place scores only with German infantry in it; a German city unless Allied infantry is in it', () => {
    expect(placeVp(place('take'))).toBe(0);
    expect(placeVp(place('take', { germanInfantry: true }))).toBe(1);
    expect(placeVp(place('hold'))).toBe(1);
    expect(placeVp(place('hold', { alliedInfantry: true }))).toBe(0);
  });
  it('a place that cannot trace a supply path counts one half', () => {
    expect(placeVp(place('take', { germanInfantry: true, supplied: false }))).toBe(0.5);
    expect(placeVp(place('hold', { supplied: false }))).toBe(0.5);
  });
  it('adds them up over the 15 places', () => {
    const all = [...Array<VpPlace>(10).fill(place('take', { germanInfantry: true })), ...Array<VpPlace>(5).fill(place('hold'))];
    expect(centralVp(all)).toBe(15);
  });
});

describe('S3 3.7 level of victory (3.72)', () => {
  it('reads the bands: under 7, 7-8, 9-10, 11-12, more than 12', () => {
    const lv = (v: number) => victoryLevel(v, bands, defaults);
    expect([6, 7, 8, 9, 10, 11, 12, 13].map(lv)).toEqual(['allied-major', 'allied-minor', 'allied-minor', 'draw', 'draw', 'cp-minor', 'cp-minor', 'cp-major']);
  });
  it('places half points by ruling vp-bands: thresholds (default) or round-down', () => {
    expect(victoryLevel(12.5, bands, defaults)).toBe('cp-major');
    expect(victoryLevel(8.5, bands, defaults)).toBe('allied-minor');
    expect(victoryLevel(6.5, bands, defaults)).toBe('allied-major');
    expect(victoryLevel(12.5, bands, parseRulings('vp-bands=round-down'))).toBe('cp-minor');
  });
  it('names the level and the span of totals that gives it, the same sentence for every total in the span', () => {
    const says = (v: number, r = defaults) => levelReason(victoryLevel(v, bands, r), bands, r, 'at the end');
    expect(says(6.5)).toBe('Allied Major Victory: the Central Powers hold less than 7 VP at the end (3.71, 3.72)');
    expect(says(7)).toBe('Allied Minor Victory: the Central Powers hold 7 to 8½ VP at the end (3.71, 3.72)');
    expect(says(8.5)).toBe(says(7));
    expect(says(10.5)).toContain('Draw: the Central Powers hold 9 to 10½ VP');
    expect(says(12)).toContain('Central Powers Minor Victory: the Central Powers hold 11 to 12 VP');
    expect(says(12.5)).toContain('Central Powers Major Victory: the Central Powers hold 12½ VP or more');
    const down = parseRulings('vp-bands=round-down');
    expect(says(12.5, down)).toContain('Central Powers Minor Victory: the Central Powers hold 11 to 12½ VP');
    expect(says(13, down)).toContain('13 VP or more');
  });
});
