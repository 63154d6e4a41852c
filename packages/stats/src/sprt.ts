/**
 * The sequential probability ratio test (SPRT) on side-swapped game pairs, computed the way fishtest
 * (the Stockfish testing framework) computes it, so that a verdict here means what a fishtest verdict
 * means and can be checked against published fishtest figures.
 *
 * Why pairs: each pair plays one seed twice with the sides exchanged, so a side advantage cancels
 * inside the pair. The two games of a pair are not independent (the same seed favours the same
 * side), and counting pairs rather than games keeps that correlation in the variance instead of
 * pretending it away. A pair's score is the sum of its two games from the candidate's point of view
 * (0, 0.5, 1, 1.5 or 2); the counts of the five scores are the *pentanomial*, written
 * [LL, LD+DL, LW+DD+WL, DW+WD, WW] as fishtest prints it (`Ptnml(0-2): a, b, c, d, e`).
 *
 * What is ported, from fishtest `server/fishtest/stats` (our own code, same mathematics):
 * - `LLRcalc.LLR_normalized` (the required model) and `LLRcalc.LLR_logistic`: the generalized
 *   log-likelihood ratio, maximising the multinomial likelihood of the pair scores under each
 *   hypothesis (a fixed normalized t-value, or a fixed expected score); zero counts are replaced by
 *   1e-3 first (`regularize`), because the maximum-likelihood step divides by every cell.
 * - The Wald bounds `log(beta / (1 - alpha))` and `log((1 - beta) / alpha)` (±2.94 at 0.05/0.05).
 * - `stat_util.get_elo` (Elo, 95% interval, LOS), the normalized Elo with its interval from the
 *   test statistics page, and `sprt.analytics` (an Elo estimate that accounts for the test having
 *   stopped early, from a Brownian-motion model of the LLR).
 *
 * Which fishtest: every figure here (LLR, bounds, Elo, LOS, normalized Elo, the SPRT Elo estimate
 * and its interval) matches fishtest's code at commit 93fe81eb8256b870ab759ec4470f6251fe985827,
 * "Fix for issue 2571" (written 2026-07-20, committed 2026-08-13 through fishtest's pull request
 * 2581). Of what this module reports, that commit changed only the SPRT Elo estimate and its LOS:
 * see `sprtElo`. The known answers in test/fixtures/fishtest-stats.json come from that commit's code.
 *
 * Not ported: fishtest's dynamic overshoot correction, which nudges the bounds inward by an estimate
 * of how far the LLR jumps past them between its batched updates. We update after every pair, so the
 * overshoot is one pair's jump, and the plain Wald bounds are what this module compares against.
 */
import { createRequire } from 'node:module';
import type { Interval } from './intervals.ts';

/** Counts of pairs scoring 0, 0.5, 1, 1.5 and 2 (from the candidate's point of view). */
export type Pentanomial = readonly [number, number, number, number, number];

/** One game's score from the candidate's point of view: loss 0, draw 0.5, win 1. */
export type GameScore = 0 | 0.5 | 1;

/**
 * The scale `elo0`/`elo1` are given in. `normalized`: normalized Elo, fishtest's current default,
 * where the same bound costs about the same number of games whatever the draw rate. `logistic`: the
 * classic Elo of the expected score.
 */
export type EloModel = 'normalized' | 'logistic';

/** `H1` accepted (the candidate is at least elo1 better), `H0` accepted (at most elo0), or neither yet. */
export type SprtState = 'H0' | 'H1' | 'continue';

export interface SprtOptions {
  /** Elo difference (candidate minus baseline) of the null hypothesis; below `elo1`. */
  elo0: number;
  /** Elo difference of the alternative hypothesis. */
  elo1: number;
  /** False positive rate, in (0, 0.5]; default 0.05. */
  alpha?: number;
  /** False negative rate, in (0, 0.5]; default 0.05. */
  beta?: number;
  /** Scale of `elo0` and `elo1`; default `normalized`. */
  model?: EloModel;
}

export interface SprtBounds {
  /** Accept H0 at or below this: log(beta / (1 - alpha)). */
  lower: number;
  /** Accept H1 at or above this: log((1 - beta) / alpha). */
  upper: number;
}

export interface SprtResult extends SprtBounds {
  llr: number;
  state: SprtState;
  /** Pairs counted (the sum of the pentanomial). */
  pairs: number;
}

export interface EloEstimate {
  /** Logistic Elo of the mean score per game. */
  elo: number;
  /** 95% interval: elo ± plusMinus. */
  ci: Interval;
  /** Half the width of the interval (fishtest's `ELO: x +-y`). */
  plusMinus: number;
  /** Likelihood of superiority: the probability the candidate is the stronger, in [0, 1]. */
  los: number;
}

export interface NormalizedEloEstimate {
  nelo: number;
  /** 95% interval. */
  ci: Interval;
}

export interface SprtEloEstimate {
  /** Median-unbiased logistic Elo given where the test stopped. */
  elo: number;
  /** Confidence interval at the level asked for (95% by default). */
  ci: Interval;
  /** Likelihood of superiority under the same model. */
  los: number;
}

/** Normalized Elo per unit of normalized t-value: 800 / ln 10. */
export const NELO_PER_NT = 800 / Math.LN10;

// jstat ships no type declarations; this is the one corner of it used here.
interface JStatNormal {
  cdf(x: number, mean: number, sd: number): number;
  inv(p: number, mean: number, sd: number): number;
}
const { normal } = createRequire(import.meta.url)('jstat') as { normal: JStatNormal };
const phi = (x: number): number => normal.cdf(x, 0, 1);
const phiInv = (p: number): number => normal.inv(p, 0, 1);

// ---------------------------------------------------------------------------------------------
// Building the counts

/** The pentanomial cell (0..4) of a pair whose two games scored `first` and `second` for the candidate. */
export function pentanomialCell(first: GameScore, second: GameScore): 0 | 1 | 2 | 3 | 4 {
  for (const [which, s] of [['first', first], ['second', second]] as const) {
    if (s !== 0 && s !== 0.5 && s !== 1) {
      throw new RangeError(`pentanomialCell: the ${which} game's score is ${String(s)}; pass the candidate's score, 0 (loss), 0.5 (draw) or 1 (win).`);
    }
  }
  return (2 * (first + second)) as 0 | 1 | 2 | 3 | 4;
}

/** Pentanomial counts of `pairs`, each the two game scores of one side-swapped pair from the candidate's view. */
export function pentanomial(pairs: Iterable<readonly [GameScore, GameScore]>): Pentanomial {
  const counts: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  let i = 0;
  for (const [first, second] of pairs) {
    try {
      counts[pentanomialCell(first, second)]++;
    } catch (e) {
      throw e instanceof RangeError ? new RangeError(`pentanomial: pair ${i}: ${e.message}`) : e;
    }
    i++;
  }
  return counts;
}

// ---------------------------------------------------------------------------------------------
// The test

/** The Wald bounds for error rates `alpha` and `beta` (each in (0, 0.5]). */
export function sprtBounds(alpha: number, beta: number): SprtBounds {
  checkRate('alpha', alpha);
  checkRate('beta', beta);
  return { lower: Math.log(beta / (1 - alpha)), upper: Math.log((1 - beta) / alpha) };
}

/** Generalized LLR of H1 (normalized Elo `nelo1`) against H0 (`nelo0`) for the pair `counts`. */
export function llrNormalized(counts: Pentanomial, nelo0: number, nelo1: number): number {
  checkCounts(counts);
  checkElos(nelo0, nelo1);
  // A pair is two games: the per-pair t-value is sqrt(2) times the per-game one.
  const [t0, t1] = [nelo0, nelo1].map((e) => (e / NELO_PER_NT) * Math.SQRT2) as [number, number];
  const { n, pdf } = toPdf(counts);
  const p0 = mleTValue(pdf, 0.5, t0);
  const p1 = mleTValue(pdf, 0.5, t1);
  return n * meanLogRatio(pdf, p0, p1);
}

/** Generalized LLR of H1 (logistic Elo `elo1`) against H0 (`elo0`) for the pair `counts`. */
export function llrLogistic(counts: Pentanomial, elo0: number, elo1: number): number {
  checkCounts(counts);
  checkElos(elo0, elo1);
  const { n, pdf } = toPdf(counts);
  const p0 = mleExpected(pdf, logisticScore(elo0));
  const p1 = mleExpected(pdf, logisticScore(elo1));
  return n * meanLogRatio(pdf, p0, p1);
}

/**
 * The SPRT verdict for the pair `counts`: the LLR, the bounds and the state (H1 once the LLR reaches
 * the upper bound, H0 once it reaches the lower one). Throws RangeError for bad counts or options.
 */
export function sprt(counts: Pentanomial, options: SprtOptions): SprtResult {
  const { elo0, elo1, alpha, beta, model } = checkOptions(options);
  checkCounts(counts);
  const { lower, upper } = sprtBounds(alpha, beta);
  const llr = model === 'normalized' ? llrNormalized(counts, elo0, elo1) : llrLogistic(counts, elo0, elo1);
  const state: SprtState = llr >= upper ? 'H1' : llr <= lower ? 'H0' : 'continue';
  return { llr, lower, upper, state, pairs: sum(counts) };
}

// ---------------------------------------------------------------------------------------------
// Estimates

/**
 * Elo with its 95% interval and the LOS from the pair counts (fishtest `stat_util.get_elo`). The
 * variance is the pairs' own, so the interval is the honest (narrower or wider) one for paired play.
 * The interval is symmetric about the estimate, as fishtest reports it (`ELO: x +-y`, and `elo ±
 * elo95` on its statistics page): the score interval mapped to Elo is lopsided, and half its width
 * is the ±.
 */
export function pentanomialElo(counts: Pentanomial): EloEstimate {
  checkCounts(counts);
  const r = counts.map((c) => (c === 0 ? REGULARIZE : c));
  const pairs = sum(r);
  const games = 2 * pairs;
  // Mean score per game, and the per-game variance implied by the pair scores.
  const mu = r.reduce((s, c, i) => s + c * (i / 2), 0) / games;
  const pairMean = 2 * mu;
  const variance = r.reduce((s, c, i) => s + c * (i / 2 - pairMean) ** 2, 0) / games;
  const se = Math.sqrt(variance) / Math.sqrt(games);
  const muMin = mu + phiInv(0.025) * se;
  const muMax = mu + phiInv(0.975) * se;
  const elo = scoreToElo(mu);
  const plusMinus = (scoreToElo(muMax) - scoreToElo(muMin)) / 2;
  return { elo, ci: { low: elo - plusMinus, high: elo + plusMinus }, plusMinus, los: phi((mu - 0.5) / se) };
}

/**
 * Elo with its 95% interval and the LOS from game results (wins, draws, losses of the candidate), as
 * cutechess-cli and fastchess print them for games that are not paired (`Elo: x +/- y`, `LOS`): the
 * mean score per game, its standard error from the per-game variance of the results, both ends of the
 * normal interval on the score turned into Elo, and LOS = Φ((score − ½) / se). Zero counts are
 * replaced by 1e-3 first, as `pentanomialElo` does (fishtest's `regularize`), so a clean sweep gives a
 * large finite estimate rather than an infinite one; otherwise the figures are fastchess's `EloWDL`.
 * For side-swapped pairs prefer `pentanomialElo`: paired games are not independent.
 */
export function trinomialElo(wins: number, draws: number, losses: number): EloEstimate {
  for (const [name, c] of [['wins', wins], ['draws', draws], ['losses', losses]] as const) {
    if (!(Number.isInteger(c) && c >= 0)) throw new RangeError(`trinomialElo: ${name} is ${String(c)}; pass whole counts of games, 0 or more.`);
  }
  const [l, d, w] = [losses, draws, wins].map((c) => (c === 0 ? REGULARIZE : c)) as [number, number, number];
  const games = l + d + w;
  const mu = (w + d / 2) / games;
  const variance = (w * (1 - mu) ** 2 + d * (0.5 - mu) ** 2 + l * mu ** 2) / games;
  const se = Math.sqrt(variance / games);
  const elo = scoreToElo(mu);
  const plusMinus = (scoreToElo(mu + phiInv(0.975) * se) - scoreToElo(mu + phiInv(0.025) * se)) / 2;
  return { elo, ci: { low: elo - plusMinus, high: elo + plusMinus }, plusMinus, los: phi((mu - 0.5) / se) };
}

/**
 * Normalized Elo with its 95% interval, as fishtest's statistics page computes it: the t-value of the
 * pair scores, its variance from their skewness and kurtosis, scaled to normalized Elo.
 */
export function pentanomialNormalizedElo(counts: Pentanomial): NormalizedEloEstimate {
  checkCounts(counts);
  const { n, pdf } = toPdf(counts);
  const { mean, variance, skewness, exkurt } = moments(pdf);
  const t = (mean - 0.5) / Math.sqrt(variance);
  // Rounding can take this a hair below zero where it should be zero.
  const varT = Math.max(1 - t * skewness + 0.25 * t * t * (exkurt + 2), 0);
  const half = phiInv(0.975) * Math.sqrt(varT / n);
  const toNelo = (x: number) => (NELO_PER_NT * x) / Math.SQRT2;
  return { nelo: toNelo(t), ci: { low: toNelo(t - half), high: toNelo(t + half) } };
}

/**
 * Elo estimate for a test stopped by the SPRT (fishtest `sprt.analytics`): a plain estimate is biased
 * after an early stop, so this one asks, in a Brownian model of the LLR, for which Elo the observed
 * stop would be the median (and the 2.5% / 97.5%) outcome. `level` is the interval's confidence.
 * As fishtest since 93fe81eb: the LLR's variance per pair is the observed one for every trial Elo.
 */
export function sprtElo(counts: Pentanomial, options: SprtOptions, level = 0.95): SprtEloEstimate {
  const o = checkOptions(options);
  checkCounts(counts);
  if (!(level > 0 && level < 1)) throw new RangeError(`sprtElo: level is ${level}; pass a confidence level between 0 and 1, such as 0.95.`);
  const { lower, upper } = sprtBounds(o.alpha, o.beta);
  const { n, pdf } = toPdf(counts);
  const { mean: sHat, variance: vHat } = stats(pdf);
  // Bounds as expected pair-average scores: normalized Elo scales by the observed spread per game.
  const sigmaPerGame = Math.sqrt(2 * vHat);
  const score = (e: number) => (o.model === 'normalized' ? (e / NELO_PER_NT) * sigmaPerGame + 0.5 : logisticScore(e));
  const s0 = score(o.elo0);
  const s1 = score(o.elo1);
  const drift = (s: number, v: number) => ({ mu: ((s - (s0 + s1) / 2) * (s1 - s0)) / v, variance: (s1 - s0) ** 2 / v });

  // The LLR path approximated as a Brownian motion; a path past a bound is clamped to it.
  let llr = n * drift(sHat, vHat).mu;
  let time = n;
  const slope = llr / n;
  if (llr < lower) {
    time = lower / slope;
    llr = lower;
  } else if (llr > upper) {
    time = upper / slope;
    llr = upper;
  }

  /**
   * Probability of a worse outcome than the observed one if the true (logistic) Elo were `elo`.
   * The LLR's variance per pair is the observed one whatever Elo is tried (fishtest 93fe81eb). It
   * used to be re-estimated for each trial Elo, as vHat + (s - sHat)^2, which is the right variance
   * given that Elo but made this probability rise again far from the observed score, so the bounds
   * below could land on the wrong side or at the ±1000 clamp (fishtest issue 2571). Near the
   * observed score the two agree to second order.
   */
  const outcomeProb = (elo: number) => {
    const d = drift(logisticScore(elo), vHat);
    return brownianOutcomeCdf(lower, upper, d.mu, d.variance, time, llr);
  };
  const boundFor = (p: number) => {
    const mid = (o.elo0 + o.elo1) / 2;
    const delta = o.elo1 - o.elo0;
    for (let k = 30; ; k *= 2) {
      const lo = Math.max(mid - k * delta, -1000);
      const hi = Math.min(mid + k * delta, 1000);
      const root = brent((e) => outcomeProb(e) - (1 - p), lo, hi);
      if (root !== undefined) return root;
      if (lo <= -1000 && hi >= 1000) return outcomeProb(lo) - (1 - p) > 0 ? hi : lo;
    }
  };
  const tail = (1 - level) / 2;
  return { elo: boundFor(0.5), ci: { low: boundFor(tail), high: boundFor(1 - tail) }, los: outcomeProb(0) };
}

// ---------------------------------------------------------------------------------------------
// The maximum-likelihood machinery

/** A discrete distribution: values a_i (pair score / 2, in [0, 1]) with probabilities p_i. */
interface Pdf {
  values: number[];
  probs: number[];
}

/** Zero counts become this before any division (fishtest's `regularize`). */
const REGULARIZE = 1e-3;

function toPdf(counts: Pentanomial): { n: number; pdf: Pdf } {
  const r = counts.map((c) => (c === 0 ? REGULARIZE : c));
  const n = sum(r);
  return { n, pdf: { values: r.map((_, i) => i / (r.length - 1)), probs: r.map((c) => c / n) } };
}

function stats(pdf: Pdf): { mean: number; variance: number } {
  const mean = pdf.values.reduce((s, a, i) => s + a * at(pdf.probs, i), 0);
  const variance = pdf.values.reduce((s, a, i) => s + at(pdf.probs, i) * (a - mean) ** 2, 0);
  return { mean, variance };
}

function moments(pdf: Pdf): { mean: number; variance: number; skewness: number; exkurt: number } {
  const { mean, variance } = stats(pdf);
  const central = (k: number) => pdf.values.reduce((s, a, i) => s + at(pdf.probs, i) * (a - mean) ** k, 0);
  return { mean, variance, skewness: central(3) / variance ** 1.5, exkurt: central(4) / variance ** 2 - 3 };
}

/** Mean over the observed distribution of log(p1_i / p0_i): the LLR per pair. */
function meanLogRatio(pdf: Pdf, p0: number[], p1: number[]): number {
  return pdf.probs.reduce((s, p, i) => s + p * (Math.log(at(p1, i)) - Math.log(at(p0, i))), 0);
}

/**
 * The x solving Σ p_i a_i / (1 + x a_i) = 0 on the interval where every 1 + x a_i > 0. The maximum
 * likelihood distribution under a linear constraint Σ q_i a_i = 0 is q_i = p_i / (1 + x a_i) for this
 * x (a Lagrange multiplier); the sum falls monotonically in x, so one bracketed root exists when the
 * a_i take both signs.
 */
function secular(values: readonly number[], probs: readonly number[]): number {
  const v = Math.min(...values);
  const w = Math.max(...values);
  if (!(v * w < 0)) throw new Error(`sprt: no maximum-likelihood solution (constraint values ${values.join(', ')} do not straddle zero)`);
  const f = (x: number) => values.reduce((s, a, i) => s + (at(probs, i) * a) / (1 + x * a), 0);
  const eps = 1e-9;
  const x = brent(f, -1 / w + eps, -1 / v - eps);
  if (x === undefined) throw new Error('sprt: the maximum-likelihood equation has no root in its bracket');
  return x;
}

/** Maximum-likelihood distribution on the observed support with expected value `s`. */
function mleExpected(pdf: Pdf, s: number): number[] {
  const shifted = pdf.values.map((a) => a - s);
  const x = secular(shifted, pdf.probs);
  return pdf.probs.map((p, i) => p / (1 + x * at(shifted, i)));
}

/**
 * Maximum-likelihood distribution on the observed support with t-value (mu - ref) / sigma = t. The
 * constraint is not linear, so it is linearised around the current estimate and re-solved, starting
 * from the uniform distribution, until the probabilities settle (at most 10 rounds, as fishtest).
 */
function mleTValue(pdf: Pdf, ref: number, t: number): number[] {
  const k = pdf.values.length;
  let q = pdf.values.map(() => 1 / k);
  for (let round = 0; round < 10; round++) {
    const previous = q;
    const { mean, variance } = stats({ values: pdf.values, probs: q });
    const sigma = Math.sqrt(variance);
    const shifted = pdf.values.map((a) => a - ref - (t * sigma * (1 + ((mean - a) / sigma) ** 2)) / 2);
    const x = secular(shifted, pdf.probs);
    q = pdf.probs.map((p, i) => p / (1 + x * at(shifted, i)));
    if (Math.max(...q.map((p, i) => Math.abs(p - at(previous, i)))) < 1e-9) break;
  }
  return q;
}

// ---------------------------------------------------------------------------------------------
// Brownian model of the LLR (for sprtElo)

/**
 * Probability that a Brownian motion with drift `mu` and variance `variance` per unit time, started
 * at 0 between absorbing bounds `a` < 0 < `b`, ends in a worse place than (time `T`, value `y`):
 * absorbed at `a` earlier, or at `b` later, or still running below y. The series converges slowly
 * for short times or strong drift, where Siegmund's approximation takes over.
 */
function brownianOutcomeCdf(a: number, b: number, mu: number, variance: number, T: number, y: number): number {
  const gamma = mu / variance;
  const A = b - a;
  if ((variance * T) / A ** 2 < 1e-2 || Math.abs(gamma * A) > 15) return brownianSiegmund(a, b, mu, variance, T, y);
  const x = -a;
  const yy = y - a;
  const lambda = (n: number) => (((n * Math.PI) / A) ** 2 * variance) / 2 + mu ** 2 / variance / 2;
  const lambda1 = lambda(1);
  const t0 = Math.exp(-lambda1 * T - x * gamma + yy * gamma);
  let s = 0;
  for (let n = 1; ; n++) {
    const t1 = Math.exp(-(lambda(n) - lambda1) * T);
    // A primitive of e^(gamma y) sin(n pi y / A), times 2/A e^(-gamma y).
    const t3 =
      (2 * A * gamma * Math.sin((Math.PI * n * yy) / A) - 2 * Math.PI * n * Math.cos((Math.PI * n * yy) / A)) /
      (A ** 2 * gamma ** 2 + Math.PI ** 2 * n ** 2);
    s += t1 * t3 * Math.sin((n * Math.PI * x) / A);
    if (Math.abs(t0 * t1 * t3) <= 1e-9) break;
  }
  let pre: number;
  if (gamma * A > 30) pre = Math.exp(-2 * gamma * x); // the exact form overflows
  else if (Math.abs(gamma * A) < 1e-8) pre = (A - x) / A; // the exact form divides by ~0
  else pre = (1 - Math.exp(2 * gamma * (A - x))) / (1 - Math.exp(2 * gamma * A));
  return pre + t0 * s;
}

/** Siegmund's approximation of `brownianOutcomeCdf`, with Phi's asymptotic expansion far in the tail. */
function brownianSiegmund(a: number, b: number, mu: number, variance: number, T: number, y: number): number {
  const denom = Math.sqrt(T * variance);
  const offset = mu * T;
  const gamma = mu / variance;
  const z = (y - offset) / denom;
  const za = (-y + offset + 2 * a) / denom;
  const zb = (y - offset - 2 * b) / denom;
  const term = (g: number, zz: number) =>
    g >= 5 ? (-Math.exp(-(zz ** 2) / 2 + 2 * g) / Math.sqrt(2 * Math.PI)) * (1 / zz - 1 / zz ** 3) : Math.exp(2 * g) * phi(zz);
  return phi(z) + term(gamma * a, za) - term(gamma * b, zb);
}

// ---------------------------------------------------------------------------------------------
// Small helpers

/** Expected score of a logistic Elo difference. */
function logisticScore(elo: number): number {
  return 1 / (1 + 10 ** (-elo / 400));
}

/** Logistic Elo of a score, the score held within [0.001, 0.999] so a clean sweep stays finite (as fishtest). */
function scoreToElo(score: number): number {
  const s = Math.min(Math.max(score, 1e-3), 1 - 1e-3);
  return -400 * Math.log10(1 / s - 1);
}

/**
 * A root of `f` between `lo` and `hi` by Brent's method (bisection made fast by secant and inverse
 * quadratic steps where they behave), to scipy's default tolerances; undefined when f(lo) and f(hi)
 * have the same sign, since then no root is bracketed.
 */
function brent(f: (x: number) => number, lo: number, hi: number): number | undefined {
  const xtol = 2e-12;
  const rtol = 4 * Number.EPSILON;
  let a = lo;
  let b = hi;
  let fa = f(a);
  let fb = f(b);
  if (fa === 0) return a;
  if (fb === 0) return b;
  if (Math.sign(fa) === Math.sign(fb)) return undefined;
  let c = a;
  let fc = fa;
  let d = b - a;
  let e = d;
  for (let i = 0; i < 200; i++) {
    if (Math.sign(fb) === Math.sign(fc)) {
      c = a;
      fc = fa;
      d = b - a;
      e = d;
    }
    if (Math.abs(fc) < Math.abs(fb)) {
      [a, b, c] = [b, c, b];
      [fa, fb, fc] = [fb, fc, fb];
    }
    const tol = 2 * rtol * Math.abs(b) + xtol / 2;
    const m = (c - b) / 2;
    if (Math.abs(m) <= tol || fb === 0) return b;
    if (Math.abs(e) >= tol && Math.abs(fa) > Math.abs(fb)) {
      const s = fb / fa;
      let p: number;
      let q: number;
      if (a === c) {
        p = 2 * m * s;
        q = 1 - s;
      } else {
        const r1 = fa / fc;
        const r2 = fb / fc;
        p = s * (2 * m * r1 * (r1 - r2) - (b - a) * (r2 - 1));
        q = (r1 - 1) * (r2 - 1) * (s - 1);
      }
      if (p > 0) q = -q;
      else p = -p;
      if (2 * p < Math.min(3 * m * q - Math.abs(tol * q), Math.abs(e * q))) {
        e = d;
        d = p / q;
      } else {
        d = m;
        e = m;
      }
    } else {
      d = m;
      e = m;
    }
    a = b;
    fa = fb;
    b += Math.abs(d) > tol ? d : m > 0 ? tol : -tol;
    fb = f(b);
  }
  throw new Error(`sprt: root finding between ${lo} and ${hi} did not converge`);
}

function sum(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0);
}

/** xs[i] for an index known to be in range (the arrays here all have the pentanomial's length). */
function at(xs: readonly number[], i: number): number {
  return xs[i] as number;
}

// ---------------------------------------------------------------------------------------------
// Input checks

function checkCounts(counts: unknown): asserts counts is Pentanomial {
  if (!Array.isArray(counts) || counts.length !== 5 || !counts.every((c) => Number.isInteger(c) && c >= 0)) {
    const shown = Array.isArray(counts) ? `[${counts.map(String).join(', ')}]` : String(counts);
    throw new RangeError(
      `sprt: counts must be 5 whole numbers of 0 or more, the pairs scoring 0, 0.5, 1, 1.5 and 2 for the candidate ([LL, LD+DL, LW+DD+WL, DW+WD, WW]); got ${shown}. Build them with pentanomial().`,
    );
  }
}

function checkRate(name: 'alpha' | 'beta', x: number): void {
  if (!(typeof x === 'number' && x > 0 && x <= 0.5)) {
    throw new RangeError(`sprt: ${name} is ${String(x)}; pass an error rate above 0 and at most 0.5 (0.05 is usual).`);
  }
}

function checkElos(elo0: number, elo1: number): void {
  if (!(Number.isFinite(elo0) && Number.isFinite(elo1))) {
    throw new RangeError(`sprt: elo0 and elo1 must be finite numbers; got elo0 ${String(elo0)}, elo1 ${String(elo1)}.`);
  }
  if (!(elo0 < elo1)) {
    throw new RangeError(`sprt: elo0 (${elo0}) must be below elo1 (${elo1}); H0 is the smaller difference, for example elo0: 0, elo1: 2.`);
  }
}

function checkOptions(o: SprtOptions): Required<SprtOptions> {
  if (typeof o !== 'object' || o === null) throw new RangeError('sprt: pass options { elo0, elo1, alpha?, beta?, model? }.');
  const alpha = o.alpha ?? 0.05;
  const beta = o.beta ?? 0.05;
  const model = o.model ?? 'normalized';
  checkRate('alpha', alpha);
  checkRate('beta', beta);
  checkElos(o.elo0, o.elo1);
  if (model !== 'normalized' && model !== 'logistic') {
    throw new RangeError(`sprt: model is '${String(model)}'; pass 'normalized' (the default) or 'logistic'.`);
  }
  return { elo0: o.elo0, elo1: o.elo1, alpha, beta, model };
}
