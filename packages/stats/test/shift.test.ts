/**
 * Known answers for the interval, shift and multiple-testing functions. Sources: Scholz & Stephens
 * (1987) for Anderson–Darling (their four-sample example; the values as scipy 1.17's
 * `anderson_ksamp(..., midrank=True)` gives them), scipy 1.17 (`chi2_contingency(correction=False)`,
 * `beta.ppf`, `ks_2samp`) where noted, Newcombe (1998) for his difference interval, and hand computation.
 */
import { describe, expect, it } from 'vitest';
import { andersonDarlingKSample, benjaminiHochberg, chiSquaredHomogeneity, differenceInterval, jeffreys, ksTwoSample, significant, wilson } from '../src/index.ts';

describe('intervals', () => {
  it('Wilson: 4 of 4 and 0 of 4 as the dashboard shows them; 0 trials is [0, 1]', () => {
    expect(wilson(4, 4).low).toBeCloseTo(0.5101, 4);
    expect(wilson(0, 4).high).toBeCloseTo(0.4899, 4);
    expect(wilson(0, 0)).toEqual({ low: 0, high: 1 });
  });

  it('Jeffreys: the Beta(x+½, n−x+½) quantiles (scipy beta.ppf), 0 and 1 at the ends', () => {
    const i = jeffreys(3, 20);
    expect(i.low).toBeCloseTo(0.04413134, 7);
    expect(i.high).toBeCloseTo(0.34857771, 7);
    expect(jeffreys(0, 20)).toEqual({ low: 0, high: expect.closeTo(0.11663898, 7) });
    expect(jeffreys(20, 20).high).toBe(1);
    expect(jeffreys(20, 20).low).toBeCloseTo(1 - 0.11663898, 7);
    expect(() => jeffreys(3, 2)).toThrow(/0 <= successes <= trials/);
    expect(() => jeffreys(1, 2, 1.5)).toThrow(/level/);
  });

  it('Newcombe (method 10): the published intervals for 56/70 − 48/80 and 9/10 − 3/10', () => {
    // Newcombe, Statistics in Medicine 17:873–890, table II: 0.0524 to 0.3339, and 0.1705 to 0.8090.
    const a = differenceInterval(48, 80, 56, 70);
    expect(a.low).toBeCloseTo(0.0524, 4);
    expect(a.high).toBeCloseTo(0.3339, 4);
    const b = differenceInterval(3, 10, 9, 10);
    expect(b.low).toBeCloseTo(0.1705, 4);
    expect(b.high).toBeCloseTo(0.809, 4);
  });

  it('Newcombe at 0%: 0/10 − 0/10 is ± the Wilson upper end z²/(n + z²) = 0.2775; the samples swapped, the interval flips; no trials throws', () => {
    const z2 = 1.959963984540054 ** 2;
    const zero = differenceInterval(0, 10, 0, 10);
    expect(zero.low).toBeCloseTo(-z2 / (10 + z2), 10);
    expect(zero.high).toBeCloseTo(z2 / (10 + z2), 10);
    const there = differenceInterval(48, 80, 56, 70);
    const back = differenceInterval(56, 70, 48, 80);
    expect(back.low).toBeCloseTo(-there.high, 12);
    expect(back.high).toBeCloseTo(-there.low, 12);
    expect(() => differenceInterval(0, 0, 1, 2)).toThrow(/at least one trial/);
  });
});

describe('chiSquaredHomogeneity', () => {
  it('2×2: [[30, 70], [80, 20]] gives χ² = 50.505 on 1 df (by hand, and scipy), V = √(χ²/200)', () => {
    const r = chiSquaredHomogeneity({ win: 30, loss: 70 }, { win: 80, loss: 20 });
    expect(r.statistic).toBeCloseTo(50.50505050505, 9);
    expect(r.df).toBe(1);
    expect(r.pValue).toBeLessThan(1e-11);
    expect(r.cramersV).toBeCloseTo(Math.sqrt(50.50505050505 / 200), 9);
    expect(r.warning).toBeUndefined();
  });

  it('2×3 with a category missing on one side counted as 0: scipy gives χ² 5.3333, p 0.069483', () => {
    const r = chiSquaredHomogeneity({ a: 10, b: 20, c: 30 }, { a: 20, b: 20, c: 20 });
    expect(r.statistic).toBeCloseTo(5.333333333, 8);
    expect(r.pValue).toBeCloseTo(0.0694834512, 8);
    const missing = chiSquaredHomogeneity({ a: 5, b: 5 }, { a: 5, b: 3, c: 2 });
    expect(missing.df).toBe(2);
    expect(missing.warning).toMatch(/expected count/);
  });

  it('identical samples: χ² 0, p 1; one category only: df 0, p 1; bad counts refused', () => {
    expect(chiSquaredHomogeneity({ a: 3, b: 7 }, { a: 3, b: 7 })).toMatchObject({ statistic: 0, pValue: 1 });
    expect(chiSquaredHomogeneity({ a: 3 }, { a: 9, b: 0 })).toMatchObject({ df: 0, pValue: 1, cramersV: 0 });
    expect(() => chiSquaredHomogeneity({ a: -1 }, { a: 1 })).toThrow(/not negative/);
    expect(() => chiSquaredHomogeneity({}, { a: 1 })).toThrow(/no counts/);
  });
});

describe('ksTwoSample', () => {
  it('D is the largest gap between the empirical distributions, ties handled (scipy ks_2samp)', () => {
    const t1 = [38.7, 41.5, 43.8, 44.5, 45.5, 46.0, 47.7, 58.0];
    const t4 = [34.0, 34.8, 34.8, 35.4, 37.2, 37.8, 41.2, 42.8];
    expect(ksTwoSample(t1, t4).statistic).toBe(0.75);
    const a = [3, 4, 4, 5, 5, 5, 6, 6, 4, 5, 3, 4, 5, 6, 5];
    const b = [4, 5, 5, 5, 6, 6, 4, 3, 5, 6, 5, 4, 5, 5, 6];
    expect(ksTwoSample(a, b).statistic).toBeCloseTo(0.133333333, 9);
    expect(ksTwoSample(a, a)).toEqual({ statistic: 0, pValue: 1 });
  });

  it('its p-value is within a few per cent of scipy’s exact-distribution value for mid-sized samples', () => {
    const x = Array.from({ length: 40 }, (_, i) => ((i + 1) * 0.37) % 5);
    const y = Array.from({ length: 60 }, (_, i) => (((i + 1) * 0.53) % 5) + 0.9);
    const r = ksTwoSample(x, y);
    expect(r.statistic).toBeCloseTo(0.191666667, 8);
    expect(r.pValue / 0.301270006).toBeGreaterThan(0.95);
    expect(r.pValue / 0.301270006).toBeLessThan(1.05);
    expect(() => ksTwoSample([], [1])).toThrow(/empty/);
    expect(() => ksTwoSample([NaN], [1])).toThrow(/finite/);
  });
});

describe('andersonDarlingKSample (midrank)', () => {
  const t1 = [38.7, 41.5, 43.8, 44.5, 45.5, 46.0, 47.7, 58.0];
  const t2 = [39.2, 39.3, 39.7, 41.4, 41.8, 42.9, 43.3, 45.8];
  const t3 = [34.0, 35.0, 39.0, 40.0, 43.0, 43.0, 44.0, 45.0];
  const t4 = [34.0, 34.8, 34.8, 35.4, 37.2, 37.8, 41.2, 42.8];

  it("Scholz & Stephens' four samples of paper smoothness: T = 4.4798, p = 0.00223", () => {
    const r = andersonDarlingKSample([t1, t2, t3, t4]);
    expect(r.statistic).toBeCloseTo(4.479780627135, 9);
    expect(r.pValue).toBeCloseTo(0.002225442311, 9);
    expect(r.pValueFrom).toBe('interpolated');
  });

  it('two samples: T = 1.7183, p = 0.06351 (scipy); no shift reads p 0.25 at least; a large one extrapolates below 0.001', () => {
    const r = andersonDarlingKSample([t1, t2]);
    expect(r.statistic).toBeCloseTo(1.718309674436, 9);
    expect(r.pValue).toBeCloseTo(0.063514677288, 9);
    const a = [3, 4, 4, 5, 5, 5, 6, 6, 4, 5, 3, 4, 5, 6, 5];
    const b = [4, 5, 5, 5, 6, 6, 4, 3, 5, 6, 5, 4, 5, 5, 6];
    expect(andersonDarlingKSample([a, b])).toMatchObject({ statistic: expect.closeTo(-0.759737776224, 9), pValue: 0.25, pValueFrom: 'at least 0.25' });
    const far = andersonDarlingKSample([[3, 3, 4, 4, 4, 5, 5, 6, 3, 4, 4, 5], [5, 6, 6, 7, 5, 6, 7, 8, 6, 6, 5, 7]]);
    expect(far.statistic).toBeCloseTo(11.195585802762, 9);
    expect(far.pValueFrom).toBe('extrapolated');
    expect(far.pValue).toBeLessThan(0.001);
    expect(far.pValue).toBeGreaterThan(0);
  });

  it('refuses fewer than two samples, too few values, no spread, non-numbers', () => {
    expect(() => andersonDarlingKSample([[1, 2, 3]])).toThrow(/two or more/);
    expect(() => andersonDarlingKSample([[1], [2]])).toThrow(/at least 4/);
    expect(() => andersonDarlingKSample([[1, 1], [1, 1]])).toThrow(/same/);
    expect(() => andersonDarlingKSample([[1, Infinity], [1, 2]])).toThrow(/finite/);
  });
});

describe('Benjamini–Hochberg', () => {
  it('adjusts as R p.adjust(p, "BH") does, in the input order (by hand)', () => {
    // sorted: 0.005·5/1, 0.01·5/2, 0.03·5/3, 0.04·5/4, 0.2·5/5, then the running minimum from the top
    expect(benjaminiHochberg([0.2, 0.005, 0.04, 0.01, 0.03])).toEqual([0.2, 0.025, 0.05, 0.025, 0.05].map((x) => expect.closeTo(x, 12)));
    expect(benjaminiHochberg([0.01, 0.02, 0.03, 0.04, 0.05])).toEqual([0.05, 0.05, 0.05, 0.05, 0.05].map((x) => expect.closeTo(x, 12)));
    expect(benjaminiHochberg([0.9, 0.95])).toEqual([0.95, 0.95]);
    expect(benjaminiHochberg([])).toEqual([]);
    expect(significant([0.2, 0.005, 0.04, 0.01, 0.03], 0.03)).toEqual([false, true, false, true, false]);
    expect(() => benjaminiHochberg([1.2])).toThrow(/between 0 and 1/);
  });
});
