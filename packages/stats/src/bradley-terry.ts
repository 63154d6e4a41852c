/**
 * Bot strength net of side advantage: a Bradley–Terry model with one advantage term per side of each
 * scenario, fitted by maximum likelihood over all matches at once.
 *
 * The model: when bot i plays side s and bot j plays side t of scenario c,
 *
 *   P(i's side beats j's side) = logistic(θ_i − θ_j + γ_{c,s} − γ_{c,t}).
 *
 * This is Agresti's home-advantage model (Categorical Data Analysis, 2nd ed., §10.6) with "home" and
 * "away" generalised to the named sides of each scenario. It is what lets a report say "the Axis wins
 * 62% between equal bots": a win rate alone mixes bot strength with the side the bot was given.
 *
 * Choices, and why:
 * - Identification. Only differences enter the model, so strengths are centred (Σθ = 0: a strength is
 *   relative to the average bot of this fit) and each scenario's side terms are centred (Σ_s γ_{c,s} =
 *   0). Centring rather than a reference bot or side keeps every bot and side on an equal footing and
 *   gives each its own interval. A side's reported `advantage` is γ_s minus the mean γ of the other
 *   sides, the log-odds of beating an average other side between equal bots; with two sides that is
 *   exactly Agresti's home advantage α for one side and −α for the other.
 * - Draws count as half a win and half a loss, the usual score convention (as in Elo). The estimating
 *   equations stay unbiased, and since a draw varies less than a decisive game the intervals are, if
 *   anything, a little wide. Davidson's draw model would add a parameter for little gain here.
 * - Games with more than two sides are split into the comparisons between each pair of sides, each
 *   weighted 1/(k − 1) for k sides so that every side contributes one game's worth of evidence.
 *   A pair that both won or both lost says nothing about their order and is skipped; a pair that both
 *   drew counts as a draw. This is a composite likelihood: the pairs of one game are not independent,
 *   so intervals for many-sided games are approximate. With two sides it is the exact model.
 * - Firth's penalty (by default): the log-likelihood plus ½·log det of the information (Jeffreys'
 *   prior; Firth, Biometrika 1993; for logistic models Heinze & Schemper, Statistics in Medicine
 *   2002). Tournament data are often separated or nearly so: a pairing in which one side won every
 *   game (a strong bot on a favoured side) has no finite maximum-likelihood estimate, and the plain
 *   fit answers with a huge estimate and an interval from 0% to 100%. The penalised estimate is always
 *   finite, removes the first-order small-sample bias of the maximum-likelihood one, and on data that
 *   are far from separated differs from it by O(1/n). `firth: false` gives the plain fit.
 * - A tiny ridge prior, (λ/2)·Σ(θ² + γ²) with λ = 1e-3 by default (a normal prior with standard
 *   deviation about 32 logits), for what Firth's penalty cannot mend: data that do not determine a
 *   parameter at all (bots that never met, a bot always on the same side), where the information is
 *   singular. 32 logits is far beyond any real gap (10 logits is already a 99.995% win rate), so on
 *   ordinary data the prior moves estimates by about λθ/information, a few ten-thousandths of a
 *   logit. Pass `ridge: 0, firth: false` for the plain maximum-likelihood fit (as the known-answer
 *   tests do).
 * - Newton–Raphson (Firth's modified score with the information as Hessian), halving the step if it
 *   ever lowers the penalised objective; dimensions are small (bots + scenario sides). Intervals are
 *   95% Wald intervals from the inverse of the information (including the ridge) at the estimate.
 *
 * Bots always on the same side of a scenario confound their strength with that side's advantage; the
 * data then identify only the sum, the ridge splits it, and the intervals are wide. Swap sides.
 */
import type { Interval } from './intervals.ts';
import { validateMatches, type MatchResult, type RatedMatch } from './ratings.ts';

/** Two-sided 95% normal quantile. */
const Z95 = 1.959963984540054;

/** One logit of strength on the Elo scale: 400 / ln 10. */
export const ELO_PER_LOGIT = 400 / Math.LN10;

export interface BradleyTerryOptions {
  /** Ridge prior precision λ per parameter (see the module comment); default 1e-3; 0 for plain maximum likelihood. */
  ridge?: number;
  /** Firth's bias-reducing penalty, finite estimates under separation (see the module comment); default true. */
  firth?: boolean;
  /** Newton iterations before giving up with `converged: false`; default 100. */
  maxIterations?: number;
  /** Converged when no parameter moves more than this many logits in an iteration; default 1e-9. */
  tolerance?: number;
}

/**
 * One bot's strength relative to the average bot of the fit. Because it is relative to an average,
 * one bot with a very uncertain strength (one that never lost, say) widens every bot's interval; to
 * compare two bots, use `eloDifference`, whose interval is only as wide as their own evidence.
 */
export interface BotStrength {
  bot: string;
  /** θ in logits, relative to the average bot of this fit (strengths sum to 0). */
  strength: number;
  /** Standard error of `strength`, in logits. */
  standardError: number;
  /** `strength` on the Elo scale (400/ln 10 per logit): 100 Elo between two bots means a 64% expected score. */
  elo: number;
  /** 95% Wald interval for `elo`. */
  interval: Interval;
  /** Matches this bot played (a mirror match counts once). */
  games: number;
}

export interface SideAdvantage {
  scenario: string;
  side: string;
  /** Log-odds of this side beating an average other side of its scenario when the bots are equal. */
  advantage: number;
  /** Standard error of `advantage`, in logits. */
  standardError: number;
  /** 95% Wald interval for `advantage`. */
  interval: Interval;
  /** logistic(advantage): with two sides, the probability this side wins between equal bots (draws as half). */
  winProbabilityEven: number;
  /** 95% interval for `winProbabilityEven` (the logistic of `interval`). */
  winProbabilityInterval: Interval;
  /** Matches in which this side was played. */
  games: number;
}

export interface BradleyTerryResult {
  /** Strongest first; ties by name. */
  bots: BotStrength[];
  /** Covariance of the `strength`s in logits², rows and columns in `bots` order (for `eloDifference`). */
  strengthCovariance: number[][];
  /** By scenario, then side, in name order. */
  sides: SideAdvantage[];
  /** Newton iterations taken. */
  iterations: number;
  /** False if `maxIterations` ran out first; the estimates are then the last iterate. */
  converged: boolean;
  /** Log-likelihood at the estimate without the ridge term (draws as half a win and half a loss). */
  logLikelihood: number;
}

/** Pairwise comparisons with the same bots and sides, merged; indexes are into the parameter vector. */
interface Comparison {
  /** Parameter index of the first bot, its side, the second bot, its side. */
  readonly a: number;
  readonly sa: number;
  readonly b: number;
  readonly sb: number;
  /** Total weight of these comparisons and the first side's weighted score (1 win, 0.5 draw, 0 loss). */
  weight: number;
  score: number;
}

const ORDER: Readonly<Record<MatchResult, number>> = { loss: 0, draw: 1, win: 2 };

/**
 * Fits bot strengths and per-scenario side advantages to `matches` (order does not matter). See the
 * module comment for the model and its choices. Throws RangeError when there are no matches, a match
 * is malformed (see `validateMatches`), an option is out of range, or, with `ridge: 0`, the data do not
 * determine the estimates (the message says which causes to look for).
 */
export function bradleyTerry(matches: readonly RatedMatch[], options: BradleyTerryOptions = {}): BradleyTerryResult {
  validateMatches('bradleyTerry', matches);
  if (matches.length === 0) {
    throw new RangeError('bradleyTerry: no matches; pass at least one finished match to fit.');
  }
  const ridge = options.ridge ?? 1e-3;
  const firth = options.firth ?? true;
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-9;
  if (!(Number.isFinite(ridge) && ridge >= 0)) {
    throw new RangeError(`bradleyTerry: ridge is ${String(ridge)}; pass a number of 0 or more (default 1e-3).`);
  }
  if (!(Number.isInteger(maxIterations) && maxIterations >= 1)) {
    throw new RangeError(`bradleyTerry: maxIterations is ${String(maxIterations)}; pass a whole number of at least 1 (default 100).`);
  }
  if (!(Number.isFinite(tolerance) && tolerance > 0)) {
    throw new RangeError(`bradleyTerry: tolerance is ${String(tolerance)}; pass a number above 0 (default 1e-9).`);
  }

  const { botNames, botGames, sideKeys, sideGames, comparisons } = index(matches);
  const nBots = botNames.length;
  const n = nBots + sideKeys.length;
  // The groups whose sum the likelihood cannot see: all strengths, and each scenario's sides.
  const groups: number[][] = [[...botNames.keys()]];
  const groupOf = new Map<string, number[]>();
  sideKeys.forEach(({ scenario }, s) => {
    let group = groupOf.get(scenario);
    if (group === undefined) {
      group = [];
      groupOf.set(scenario, group);
      groups.push(group);
    }
    group.push(nBots + s);
  });

  let x = new Array<number>(n).fill(0);
  const at = (point: readonly number[]): Evaluation => {
    const e = evaluate(point, comparisons, groups, ridge);
    return firth ? penalise(e, point, comparisons) : e;
  };
  let current = at(x);
  let iterations = 0;
  let converged = false;
  while (iterations < maxIterations) {
    iterations += 1;
    const factor = current.factor ?? cholesky(current.information);
    if (factor === undefined) throw unidentified(ridge);
    const step = solveCholesky(factor, current.gradient);
    // Full Newton steps almost always raise the objective; halving guards the rare one that overshoots.
    let t = 1;
    let next = x.map((v, i) => v + (step[i] ?? 0));
    let trial = at(next);
    while (trial.objective < current.objective - 1e-12 * Math.abs(current.objective) && t > 1e-8) {
      t /= 2;
      next = x.map((v, i) => v + t * (step[i] ?? 0));
      trial = at(next);
    }
    // Judged on the full Newton step, so a step that the halving shrank cannot pass for convergence.
    const moved = Math.max(...step.map((v) => Math.abs(v)));
    x = next;
    current = trial;
    if (!Number.isFinite(current.objective)) throw unidentified(ridge);
    if (moved < tolerance) {
      converged = true;
      break;
    }
  }

  const factor = cholesky(current.information);
  if (factor === undefined) throw unidentified(ridge);
  const covariance = centredCovariance(factor, groups, n);
  const variance = (weights: ReadonlyMap<number, number>): number => {
    let v = 0;
    for (const [i, wi] of weights) for (const [j, wj] of weights) v += wi * wj * (covariance[i]?.[j] ?? 0);
    return Math.max(v, 0);
  };

  const bots: BotStrength[] = botNames.map((bot, i) => {
    const strength = x[i] ?? 0;
    const standardError = Math.sqrt(variance(new Map([[i, 1]])));
    return {
      bot,
      strength,
      standardError,
      elo: ELO_PER_LOGIT * strength,
      interval: {
        low: ELO_PER_LOGIT * (strength - Z95 * standardError),
        high: ELO_PER_LOGIT * (strength + Z95 * standardError),
      },
      games: botGames[i] ?? 0,
    };
  });
  const rank = botNames.map((_, i) => i);
  rank.sort((p, q) => (x[q] ?? 0) - (x[p] ?? 0) || compareNames(botNames[p] ?? '', botNames[q] ?? ''));
  const sorted = rank.flatMap((i) => bots[i] ?? []);
  const strengthCovariance = rank.map((i) => rank.map((j) => covariance[i]?.[j] ?? 0));

  const sides: SideAdvantage[] = sideKeys.map(({ scenario, side }, s) => {
    // advantage = γ_s − mean of the other sides' γ in this scenario.
    const others = (groupOf.get(scenario) ?? []).filter((j) => j !== nBots + s);
    const weights = new Map<number, number>([[nBots + s, 1]]);
    for (const j of others) weights.set(j, -1 / others.length);
    let advantage = 0;
    for (const [j, w] of weights) advantage += w * (x[j] ?? 0);
    const standardError = Math.sqrt(variance(weights));
    const interval = { low: advantage - Z95 * standardError, high: advantage + Z95 * standardError };
    return {
      scenario,
      side,
      advantage,
      standardError,
      interval,
      winProbabilityEven: logistic(advantage),
      winProbabilityInterval: { low: logistic(interval.low), high: logistic(interval.high) },
      games: sideGames[s] ?? 0,
    };
  });
  sides.sort((p, q) => compareNames(p.scenario, q.scenario) || compareNames(p.side, q.side));

  return { bots: sorted, strengthCovariance, sides, iterations, converged, logLikelihood: current.logLikelihood };
}

export interface EloDifference {
  /** Strength of `a` minus strength of `b`, on the Elo scale. */
  elo: number;
  /** Standard error of `elo`. */
  standardError: number;
  /** 95% Wald interval for `elo`. */
  interval: Interval;
}

/**
 * How much stronger bot `a` is than bot `b` in a fit from `bradleyTerry`, on the Elo scale, with a
 * 95% interval from the covariance of the two strengths. Throws RangeError if either bot is not in
 * the fit.
 */
export function eloDifference(fit: BradleyTerryResult, a: string, b: string): EloDifference {
  const i = fit.bots.findIndex((x) => x.bot === a);
  const j = fit.bots.findIndex((x) => x.bot === b);
  for (const [name, at] of [[a, i], [b, j]] as const) {
    if (at < 0) {
      throw new RangeError(`eloDifference: bot '${name}' is not in this fit; pass one of ${fit.bots.map((x) => `'${x.bot}'`).join(', ')}.`);
    }
  }
  const cov = (p: number, q: number): number => fit.strengthCovariance[p]?.[q] ?? 0;
  const logits = (fit.bots[i]?.strength ?? 0) - (fit.bots[j]?.strength ?? 0);
  const standardError = ELO_PER_LOGIT * Math.sqrt(Math.max(cov(i, i) + cov(j, j) - 2 * cov(i, j), 0));
  const elo = ELO_PER_LOGIT * logits;
  return { elo, standardError, interval: { low: elo - Z95 * standardError, high: elo + Z95 * standardError } };
}

/** Numbers bots and scenario sides in order of first appearance, and merges the pairwise comparisons. */
function index(matches: readonly RatedMatch[]) {
  const botIndex = new Map<string, number>();
  const botNames: string[] = [];
  const botGames: number[] = [];
  const sideIndex = new Map<string, number>();
  const sideKeys: { scenario: string; side: string }[] = [];
  const sideGames: number[] = [];
  const merged = new Map<string, { pb: number; ps: number; qb: number; qs: number; weight: number; score: number }>();

  for (const match of matches) {
    const players = match.sides.map(({ side, bot, result }) => {
      let b = botIndex.get(bot);
      if (b === undefined) {
        b = botNames.length;
        botIndex.set(bot, b);
        botNames.push(bot);
        botGames.push(0);
      }
      // JSON of the pair keeps scenario and side names apart whatever characters they contain.
      const key = JSON.stringify([match.scenario, side]);
      let s = sideIndex.get(key);
      if (s === undefined) {
        s = sideKeys.length;
        sideIndex.set(key, s);
        sideKeys.push({ scenario: match.scenario, side });
        sideGames.push(0);
      }
      sideGames[s] = (sideGames[s] ?? 0) + 1;
      return { b, s, order: ORDER[result] };
    });
    for (const b of new Set(players.map((p) => p.b))) botGames[b] = (botGames[b] ?? 0) + 1;

    const weight = 1 / (players.length - 1);
    for (let i = 0; i < players.length; i += 1) {
      for (let j = i + 1; j < players.length; j += 1) {
        let p = players[i];
        let q = players[j];
        if (p === undefined || q === undefined) continue;
        if (p.order === q.order && p.order !== ORDER.draw) continue;
        // One orientation per pair of (bot, side), so a pairing seen both ways merges into one row.
        if (p.b > q.b || (p.b === q.b && p.s > q.s)) [p, q] = [q, p];
        const score = p.order > q.order ? 1 : p.order < q.order ? 0 : 0.5;
        const key = `${p.b},${p.s},${q.b},${q.s}`;
        const row = merged.get(key);
        if (row === undefined) merged.set(key, { pb: p.b, ps: p.s, qb: q.b, qs: q.s, weight, score: weight * score });
        else {
          row.weight += weight;
          row.score += weight * score;
        }
      }
    }
  }
  // Side parameters come after all the bots, whose count is known only now.
  const nBots = botNames.length;
  const comparisons: Comparison[] = [...merged.values()].map((r) => ({
    a: r.pb,
    sa: nBots + r.ps,
    b: r.qb,
    sb: nBots + r.qs,
    weight: r.weight,
    score: r.score,
  }));
  return { botNames, botGames, sideKeys, sideGames, comparisons };
}

interface Evaluation {
  /** Penalised log-likelihood: what Newton maximises. */
  objective: number;
  logLikelihood: number;
  /** Gradient of the objective (with Firth's penalty: the modified score). */
  gradient: number[];
  /** Negative Hessian of the objective (observed information plus penalties). */
  information: number[][];
  /** Cholesky factor of `information`, when already computed. */
  factor?: number[][];
}

/**
 * Firth's penalty on an evaluation: objective + ½·log det(information), and the modified score
 * U*_j = U_j + Σ_r h_r (½ − p_r) ∂η_r/∂x_j, where h_r = w_r p_r (1 − p_r) d_rᵀ I⁻¹ d_r is the
 * leverage of comparison row r (the diagonal of the hat matrix, as in Firth's logistic regression).
 * The information includes the ridge and the group-sum term; the latter only fills the directions the
 * likelihood cannot see and adds a constant to log det. A singular information (parameters the data do
 * not determine) makes the objective −∞, which the caller reports.
 */
function penalise(e: Evaluation, x: readonly number[], comparisons: readonly Comparison[]): Evaluation {
  const factor = cholesky(e.information);
  if (factor === undefined) return { ...e, objective: Number.NEGATIVE_INFINITY };
  let logDet = 0;
  factor.forEach((row, i) => (logDet += 2 * Math.log(row[i] ?? 1)));
  const gradient = [...e.gradient];
  const n = x.length;
  for (const c of comparisons) {
    const eta = (x[c.a] ?? 0) - (x[c.b] ?? 0) + (x[c.sa] ?? 0) - (x[c.sb] ?? 0);
    const p = logistic(eta);
    const d = new Array<number>(n).fill(0);
    for (const [i, v] of [[c.a, 1], [c.b, -1], [c.sa, 1], [c.sb, -1]] as const) d[i] = (d[i] ?? 0) + v;
    if (d.every((v) => v === 0)) continue;
    const solved = solveCholesky(factor, d);
    let quad = 0;
    for (let i = 0; i < n; i += 1) quad += (d[i] ?? 0) * (solved[i] ?? 0);
    const leverage = c.weight * p * (1 - p) * quad;
    for (let i = 0; i < n; i += 1) if (d[i]) gradient[i] = (gradient[i] ?? 0) + leverage * (0.5 - p) * (d[i] ?? 0);
  }
  return { ...e, objective: e.objective + logDet / 2, gradient, factor };
}

/**
 * The objective is the log-likelihood minus the ridge, minus (1/2)·(sum of each unidentified group)².
 * That last term is zero at every centred point and only fills the directions the likelihood cannot
 * see, so the information matrix can be factorised even with `ridge: 0`; it keeps iterates centred
 * and is projected out of the covariance.
 */
function evaluate(x: readonly number[], comparisons: readonly Comparison[], groups: readonly number[][], ridge: number): Evaluation {
  const n = x.length;
  const gradient = new Array<number>(n).fill(0);
  const information = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  let logLikelihood = 0;
  const d = new Map<number, number>();
  for (const c of comparisons) {
    const eta = (x[c.a] ?? 0) - (x[c.b] ?? 0) + (x[c.sa] ?? 0) - (x[c.sb] ?? 0);
    const p = logistic(eta);
    const q = logistic(-eta);
    logLikelihood += c.score * logLogistic(eta) + (c.weight - c.score) * logLogistic(-eta);
    // d = ∂η/∂x; a mirror match has a === b, and the two bot terms cancel.
    d.clear();
    for (const [i, v] of [[c.a, 1], [c.b, -1], [c.sa, 1], [c.sb, -1]] as const) d.set(i, (d.get(i) ?? 0) + v);
    const residual = c.score - c.weight * p;
    const curvature = c.weight * p * q;
    for (const [i, di] of d) {
      if (di === 0) continue;
      gradient[i] = (gradient[i] ?? 0) + residual * di;
      const row = information[i];
      if (row === undefined) continue;
      for (const [j, dj] of d) row[j] = (row[j] ?? 0) + curvature * di * dj;
    }
  }
  let objective = logLikelihood;
  for (let i = 0; i < n; i += 1) {
    const xi = x[i] ?? 0;
    objective -= (ridge / 2) * xi * xi;
    gradient[i] = (gradient[i] ?? 0) - ridge * xi;
    const row = information[i];
    if (row !== undefined) row[i] = (row[i] ?? 0) + ridge;
  }
  for (const group of groups) {
    let sum = 0;
    for (const i of group) sum += x[i] ?? 0;
    objective -= (sum * sum) / 2;
    for (const i of group) {
      gradient[i] = (gradient[i] ?? 0) - sum;
      const row = information[i];
      if (row === undefined) continue;
      for (const j of group) row[j] = (row[j] ?? 0) + 1;
    }
  }
  return { objective, logLikelihood, gradient, information };
}

/**
 * Inverse information with each group's sum projected out: the covariance of the centred estimates.
 * Projecting removes exactly what the group-sum term added, leaving the Moore–Penrose inverse on the
 * centred parameters (plus the ridge, when there is one).
 */
function centredCovariance(factor: readonly number[][], groups: readonly number[][], n: number): number[][] {
  const inverse: number[][] = [];
  for (let k = 0; k < n; k += 1) {
    const unit = new Array<number>(n).fill(0);
    unit[k] = 1;
    inverse.push(solveCholesky(factor, unit));
  }
  // P·C·P, where P centres each group.
  const centre = (m: number[][]): number[][] => {
    const out = m.map((row) => [...row]);
    for (const group of groups) {
      for (const row of out) {
        let mean = 0;
        for (const j of group) mean += row[j] ?? 0;
        mean /= group.length;
        for (const j of group) row[j] = (row[j] ?? 0) - mean;
      }
    }
    return out;
  };
  const transpose = (m: number[][]): number[][] => m.map((_, i) => m.map((row) => row[i] ?? 0));
  return transpose(centre(transpose(centre(inverse))));
}

/**
 * Lower-triangular L with L·Lᵀ = m, or undefined when m is not safely positive definite (a pivot at
 * or below 1e-12 of the largest diagonal entry). Written out rather than taken from jstat because
 * that failure is the signal that the data do not determine the estimates, and it has to be caught.
 */
function cholesky(m: readonly number[][]): number[][] | undefined {
  const n = m.length;
  const scale = Math.max(...m.map((row, i) => Math.abs(row[i] ?? 0)));
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let j = 0; j < n; j += 1) {
    const lj = l[j] ?? [];
    let pivot = m[j]?.[j] ?? 0;
    for (let k = 0; k < j; k += 1) pivot -= (lj[k] ?? 0) ** 2;
    if (!(pivot > 1e-12 * scale)) return undefined;
    const root = Math.sqrt(pivot);
    lj[j] = root;
    for (let i = j + 1; i < n; i += 1) {
      const li = l[i] ?? [];
      let v = m[i]?.[j] ?? 0;
      for (let k = 0; k < j; k += 1) v -= (li[k] ?? 0) * (lj[k] ?? 0);
      li[j] = v / root;
    }
  }
  return l;
}

/** Solves L·Lᵀ·y = v. */
function solveCholesky(l: readonly number[][], v: readonly number[]): number[] {
  const n = l.length;
  const z = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i += 1) {
    let s = v[i] ?? 0;
    for (let k = 0; k < i; k += 1) s -= (l[i]?.[k] ?? 0) * (z[k] ?? 0);
    z[i] = s / (l[i]?.[i] ?? 1);
  }
  const y = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i -= 1) {
    let s = z[i] ?? 0;
    for (let k = i + 1; k < n; k += 1) s -= (l[k]?.[i] ?? 0) * (y[k] ?? 0);
    y[i] = s / (l[i]?.[i] ?? 1);
  }
  return y;
}

function unidentified(ridge: number): RangeError {
  const fix =
    ridge === 0
      ? 'Leave ridge at its default (1e-3) for finite estimates with wide intervals, or add the missing matches.'
      : 'Pass a larger ridge, or add the missing matches.';
  return new RangeError(
    'bradleyTerry: the matches do not determine the ratings. Usual causes: a bot or side that won (or lost) every comparison, ' +
      'groups of bots that never played each other, or a bot that always played the same side of a scenario. ' +
      fix,
  );
}

function logistic(eta: number): number {
  return eta >= 0 ? 1 / (1 + Math.exp(-eta)) : Math.exp(eta) / (1 + Math.exp(eta));
}

/** log(logistic(eta)), without overflow or log(0) for large |eta|. */
function logLogistic(eta: number): number {
  return eta >= 0 ? -Math.log1p(Math.exp(-eta)) : eta - Math.log1p(Math.exp(eta));
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
