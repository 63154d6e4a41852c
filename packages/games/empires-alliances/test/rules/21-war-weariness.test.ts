/** 21 National Morale with S3 3.68: checks, DRMs (19.11, 19.21), the table, R# losses, M as R30. */
import { describe, expect, it } from 'vitest';
import { parseRulings } from '../../src/rules/rulings.ts';
import { deserts, economicDrm, moraleMonth, r30ExtraLoss, rPercentLoss, s3Effect, wwResult, wwRoll } from '../../src/rules/war-weariness.ts';
import { CHARTS, S3 } from '../helpers.ts';

const defaults = parseRulings(undefined);

describe('21.1, 7.4 when morale is checked', () => {
  it('at the end of March, June, September and December only', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].filter(moraleMonth)).toEqual([3, 6, 9, 12]);
  });
  it('S3: three checks, at the end of March, June and September 1918 (3.68a)', () => {
    const months = [3, 4, 5, 6, 7, 8, 9, 10, 11];
    expect(months.filter(moraleMonth)).toEqual([3, 6, 9]);
    expect(S3.first).toBe('1918-03');
  });
});

describe('21.2 the roll', () => {
  it('is clamped to 1..15', () => {
    expect(wwRoll(1, -3)).toBe(1);
    expect(wwRoll(10, 7)).toBe(15);
  });
  it('reads the table', () => {
    expect(wwResult(CHARTS.warWeariness, 1)).toEqual({ kind: 'NE' });
    expect(wwResult(CHARTS.warWeariness, 15)).toEqual({ kind: 'S' });
    expect(wwResult(CHARTS.warWeariness, 6)).toEqual({ kind: 'R', percent: 10 });
  });
});

describe('19.11, 19.21 economic DRMs', () => {
  it('blockade: Central Powers +1 from March 1918, +2 from September 1918', () => {
    expect(economicDrm('GE', 1918, 2)).toBe(0);
    expect(economicDrm('GE', 1918, 3)).toBe(1);
    expect(economicDrm('AH', 1918, 8)).toBe(1);
    expect(economicDrm('GE', 1918, 9)).toBe(2);
  });
  it('submarines: Britain +1 from March 1917; France none', () => {
    expect(economicDrm('GB', 1918, 3)).toBe(1);
    expect(economicDrm('FR', 1918, 9)).toBe(0);
  });
});

describe('21.32 R#', () => {
  it("the text's example: 18 Infantry RPs at R10 lose 1.8, rounded to 2", () => {
    expect(rPercentLoss(18, 10)).toBe(2);
  });
  it('rounds halves up and never takes less than 1', () => {
    expect(rPercentLoss(5, 10)).toBe(1); // 0.5 -> 1
    expect(rPercentLoss(3, 10)).toBe(1); // 0.3 -> at least 1
    expect(rPercentLoss(0, 30)).toBe(0);
    expect(rPercentLoss(15, 30)).toBe(5); // 4.5 -> 5
  });
  it('R30 also costs one Art or Tank RP', () => {
    expect(r30ExtraLoss(30)).toBe(1);
    expect(r30ExtraLoss(10)).toBe(0);
  });
});

describe('S3 3.68c: M counts as R30', () => {
  it('by default it is R30 and adds nothing to later rolls', () => {
    expect(s3Effect({ kind: 'M' }, defaults)).toEqual({ effect: { kind: 'R', percent: 30 }, addDrm: 0 });
  });
  it('under ruling s3-m-drm=r30-and-drm it still adds +1', () => {
    expect(s3Effect({ kind: 'M' }, parseRulings('s3-m-drm=r30-and-drm')).addDrm).toBe(1);
  });
  it('D adds +1 (21.34); M and D accumulate (two M and a D make +3 in the full game)', () => {
    expect(s3Effect({ kind: 'D' }, defaults).addDrm).toBe(1);
  });
});

describe('21.34 desertion', () => {
  it('a unit deserts on a 1 or 2', () => {
    expect([1, 2, 3, 10].map(deserts)).toEqual([true, true, false, false]);
  });
});
