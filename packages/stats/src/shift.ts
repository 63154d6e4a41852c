/**
 * Two-sample tests for a shift between a baseline and a candidate: counts over categories (χ² test of
 * homogeneity) and numbers (k-sample Anderson–Darling for data with ties; two-sample
 * Kolmogorov–Smirnov), each with an effect size, because with enough games every shift is
 * "significant" and the reader needs to know how large it is.
 */
import { createRequire } from 'node:module';

interface JStat {
  chisquare: { cdf(x: number, dof: number): number };
}
const { chisquare } = createRequire(import.meta.url)('jstat') as JStat;

function checkNumbers(what: string, xs: readonly number[]): void {
  if (!xs.length) throw new RangeError(`${what}: a sample is empty; pass at least one value per sample.`);
  const bad = xs.findIndex((x) => !Number.isFinite(x));
  if (bad >= 0) throw new RangeError(`${what}: value ${bad} is ${xs[bad]}; every value must be a finite number.`);
}

export interface ChiSquaredResult {
  statistic: number;
  df: number;
  pValue: number;
  /** Cramér's V: 0 when the two samples spread over the categories alike, 1 when they share none. */
  cramersV: number;
  /** The smallest expected count; below 5 the χ² approximation is rough and `warning` says so. */
  minExpected: number;
  warning?: string;
}

/**
 * Pearson's χ² test that two samples of counts over categories (category -> count) come from one
 * distribution: a 2×k contingency table, categories missing on one side counting 0, categories empty
 * on both sides dropped. No continuity correction (it makes a 2×2 test conservative for nothing here).
 */
export function chiSquaredHomogeneity(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): ChiSquaredResult {
  for (const [name, c] of [['first', a], ['second', b]] as const) {
    for (const [k, v] of Object.entries(c)) {
      if (!(Number.isFinite(v) && v >= 0)) throw new RangeError(`chiSquaredHomogeneity: the ${name} sample's count of '${k}' is ${v}; counts must be finite and not negative.`);
    }
  }
  const cats = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => (a[k] ?? 0) + (b[k] ?? 0) > 0);
  const na = cats.reduce((s, k) => s + (a[k] ?? 0), 0);
  const nb = cats.reduce((s, k) => s + (b[k] ?? 0), 0);
  if (na === 0 || nb === 0) throw new RangeError('chiSquaredHomogeneity: a sample has no counts; both need at least one.');
  const n = na + nb;
  let statistic = 0;
  let minExpected = Infinity;
  for (const k of cats) {
    const col = (a[k] ?? 0) + (b[k] ?? 0);
    for (const [obs, row] of [[a[k] ?? 0, na], [b[k] ?? 0, nb]] as const) {
      const e = (row * col) / n;
      minExpected = Math.min(minExpected, e);
      statistic += (obs - e) ** 2 / e;
    }
  }
  const df = cats.length - 1;
  const pValue = df === 0 ? 1 : Math.min(1, Math.max(0, 1 - chisquare.cdf(statistic, df)));
  const r: ChiSquaredResult = { statistic, df, pValue, cramersV: df === 0 ? 0 : Math.sqrt(statistic / n), minExpected };
  if (minExpected < 5) r.warning = `an expected count is ${minExpected.toFixed(2)} (below 5): the χ² p-value is approximate; more games make it sound.`;
  return r;
}

/** Kolmogorov's limiting distribution: P(K > z). */
function kolmogorovSf(z: number): number {
  if (z <= 0) return 1;
  if (z < 1.18) {
    // The series in exp(-π²/(8z²)) converges fast for small z.
    const y = Math.exp((-Math.PI * Math.PI) / (8 * z * z));
    const s = y + y ** 9 + y ** 25 + y ** 49;
    return 1 - (Math.sqrt(2 * Math.PI) / z) * s;
  }
  let s = 0;
  for (let k = 1; k <= 100; k++) {
    const t = (k % 2 ? 1 : -1) * Math.exp(-2 * k * k * z * z);
    s += t;
    if (Math.abs(t) < 1e-16) break;
  }
  return Math.min(1, Math.max(0, 2 * s));
}

export interface KsResult {
  /** D, the largest distance between the two empirical distribution functions (0 to 1): also the effect size. */
  statistic: number;
  pValue: number;
}

/**
 * Two-sample Kolmogorov–Smirnov test. The p-value is the limiting distribution with Stephens'
 * small-sample correction, Q((√nₑ + 0.12 + 0.11/√nₑ)·D) with nₑ = nm/(n+m); within a few per cent of
 * the exact value for samples of ten or more. With ties (game lengths are whole numbers) the test is
 * conservative: a real shift reads a little less significant, never more.
 */
export function ksTwoSample(x: readonly number[], y: readonly number[]): KsResult {
  checkNumbers('ksTwoSample', x);
  checkNumbers('ksTwoSample', y);
  const a = [...x].sort((p, q) => p - q);
  const b = [...y].sort((p, q) => p - q);
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < a.length && j < b.length) {
    const v = Math.min(a[i] as number, b[j] as number);
    while (i < a.length && a[i] === v) i++;
    while (j < b.length && b[j] === v) j++;
    d = Math.max(d, Math.abs(i / a.length - j / b.length));
  }
  const en = (a.length * b.length) / (a.length + b.length);
  const root = Math.sqrt(en);
  return { statistic: d, pValue: kolmogorovSf((root + 0.12 + 0.11 / root) * d) };
}

export interface AndersonDarlingResult {
  /** The standardized statistic T = (A²akN − (k−1)) / σ: about 0 when the samples agree. */
  statistic: number;
  /** Unstandardized A²akN (midranks). */
  a2: number;
  pValue: number;
  /** How `pValue` was found: between the tabulated levels, or beyond them (see the function). */
  pValueFrom: 'interpolated' | 'at least 0.25' | 'extrapolated';
}

/** Scholz & Stephens' tabulated coefficients of the critical values, for levels 0.25 … 0.001. */
const AD_LEVELS = [0.25, 0.1, 0.05, 0.025, 0.01, 0.005, 0.001];
const AD_B0 = [0.675, 1.281, 1.645, 1.96, 2.326, 2.573, 3.085];
const AD_B1 = [-0.245, 0.25, 0.678, 1.149, 1.822, 2.364, 3.615];
const AD_B2 = [-0.105, -0.305, -0.362, -0.391, -0.396, -0.345, -0.154];

/** Least-squares quadratic y ≈ c0 + c1 x + c2 x². */
function quadraticFit(xs: readonly number[], ys: readonly number[]): [number, number, number] {
  const s = [0, 0, 0, 0, 0];
  const t = [0, 0, 0];
  xs.forEach((x, i) => {
    for (let p = 0; p < 5; p++) s[p] = (s[p] as number) + x ** p;
    for (let p = 0; p < 3; p++) t[p] = (t[p] as number) + (ys[i] as number) * x ** p;
  });
  const m = [
    [s[0], s[1], s[2], t[0]],
    [s[1], s[2], s[3], t[1]],
    [s[2], s[3], s[4], t[2]],
  ] as number[][];
  for (let c = 0; c < 3; c++) {
    const piv = m[c] as number[];
    for (let r = c + 1; r < 3; r++) {
      const row = m[r] as number[];
      const f = (row[c] as number) / (piv[c] as number);
      for (let k = c; k < 4; k++) row[k] = (row[k] as number) - f * (piv[k] as number);
    }
  }
  const out = [0, 0, 0];
  for (let r = 2; r >= 0; r--) {
    const row = m[r] as number[];
    let v = row[3] as number;
    for (let k = r + 1; k < 3; k++) v -= (row[k] as number) * (out[k] as number);
    out[r] = v / (row[r] as number);
  }
  return out as [number, number, number];
}

/**
 * The k-sample Anderson–Darling test of Scholz & Stephens (1987) in its midrank form (A²akN), made
 * for discrete data with ties, as scipy's `anderson_ksamp(midrank=True)` computes it. It weighs the
 * tails more than Kolmogorov–Smirnov, so it notices a change in how often games run long.
 *
 * The p-value is scipy's: a quadratic in log(level) fitted to the tabulated critical values, between
 * 0.25 and 0.001. Below the 0.25 critical value it is reported as 0.25 (`at least 0.25`: no sign of
 * a shift). Above the 0.001 one, where scipy floors it at 0.001, it is extrapolated along the fit's
 * tangent at the last tabulated point (`extrapolated`), so that many tests corrected together can
 * still single out a large shift; read it as "far below 0.001", not as a precise figure.
 */
export function andersonDarlingKSample(samples: readonly (readonly number[])[]): AndersonDarlingResult {
  const k = samples.length;
  if (k < 2) throw new RangeError(`andersonDarlingKSample: got ${k} sample(s); pass two or more.`);
  samples.forEach((s, i) => checkNumbers(`andersonDarlingKSample (sample ${i})`, s));
  const n = samples.map((s) => s.length);
  const z = samples.flat().sort((p, q) => p - q);
  const N = z.length;
  if (N < 4) throw new RangeError(`andersonDarlingKSample: ${N} values in all; the test needs at least 4.`);
  const distinct = [...new Set(z)];
  if (distinct.length < 2) throw new RangeError('andersonDarlingKSample: every value is the same; there is nothing to compare.');
  // For each distinct value: how many pooled values lie below it (left), and how many equal it (l).
  const below = (arr: readonly number[], v: number, strict: boolean) => {
    let lo = 0;
    let hi = arr.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (strict ? (arr[mid] as number) < v : (arr[mid] as number) <= v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const left = distinct.map((v) => below(z, v, true));
  const l = distinct.map((v, j) => below(z, v, false) - (left[j] as number));
  const B = distinct.map((_, j) => (left[j] as number) + (l[j] as number) / 2);
  let a2 = 0;
  samples.forEach((sample, i) => {
    const s = [...sample].sort((p, q) => p - q);
    const ni = n[i] as number;
    let inner = 0;
    distinct.forEach((v, j) => {
      const right = below(s, v, false);
      const f = right - below(s, v, true);
      const M = right - f / 2;
      const Bj = B[j] as number;
      const lj = l[j] as number;
      inner += ((lj / N) * (N * M - Bj * ni) ** 2) / (Bj * (N - Bj) - (N * lj) / 4);
    });
    a2 += inner / ni;
  });
  a2 *= (N - 1) / N;

  const H = n.reduce((s, x) => s + 1 / x, 0);
  let h = 0;
  for (let i = 1; i < N; i++) h += 1 / i;
  // g = Σ_{i=1}^{N−2} Σ_{j=i+1}^{N−1} 1/((N−i) j), with the inner sum as h − (1 + … + 1/i).
  let g = 0;
  let partial = 0;
  for (let i = 1; i <= N - 2; i++) {
    partial += 1 / i;
    g += (h - partial) / (N - i);
  }
  const a = (4 * g - 6) * (k - 1) + (10 - 6 * g) * H;
  const b = (2 * g - 4) * k * k + 8 * h * k + (2 * g - 14 * h - 4) * H - 8 * h + 4 * g - 6;
  const c = (6 * h + 2 * g - 2) * k * k + (4 * h - 4 * g + 6) * k + (2 * h - 6) * H + 4 * h;
  const d = (2 * h + 6) * k * k - 4 * h * k;
  const sigma2 = (a * N ** 3 + b * N ** 2 + c * N + d) / ((N - 1) * (N - 2) * (N - 3));
  const m = k - 1;
  const statistic = (a2 - m) / Math.sqrt(sigma2);

  const critical = AD_B0.map((b0, i) => b0 + (AD_B1[i] as number) / Math.sqrt(m) + (AD_B2[i] as number) / m);
  const [c0, c1, c2] = quadraticFit(critical, AD_LEVELS.map(Math.log));
  const top = critical.at(-1) as number;
  let pValue: number;
  let pValueFrom: AndersonDarlingResult['pValueFrom'];
  if (statistic < (critical[0] as number)) {
    pValue = 0.25;
    pValueFrom = 'at least 0.25';
  } else if (statistic <= top) {
    pValue = Math.exp(c0 + c1 * statistic + c2 * statistic * statistic);
    pValueFrom = 'interpolated';
  } else {
    const atTop = c0 + c1 * top + c2 * top * top;
    const slope = Math.min(c1 + 2 * c2 * top, -1e-9);
    pValue = Math.exp(atTop + slope * (statistic - top));
    pValueFrom = 'extrapolated';
  }
  return { statistic, a2, pValue: Math.min(1, pValue), pValueFrom };
}
