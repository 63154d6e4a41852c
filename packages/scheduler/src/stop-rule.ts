/**
 * Stop rules: when a tournament may end before its plan is played out. An executor feeds every
 * outcome to `observe` in the order it learns of them and stops handing out matches once `decided()`
 * says so. `fixed` stops when every planned match has been observed; `sprt` runs a sequential
 * probability ratio test on the side-swapped pairs of a candidate against a baseline and stops as
 * soon as it accepts either hypothesis (or when the plan runs out first).
 */
import { SalientError, type PathIssue } from '@salient/engine';
import {
  pentanomialCell,
  pentanomialElo,
  pentanomialNormalizedElo,
  sprt,
  sprtBounds,
  sprtElo,
  type EloEstimate,
  type SprtEloEstimate,
  type GameScore,
  type NormalizedEloEstimate,
  type Pentanomial,
  type SprtState,
} from '@salient/stats';
import type { MatchOutcome, StopSpec, TournamentPlan, TournamentSpec } from './types.ts';

export interface StopDecision {
  stop: boolean;
  /** Why, for logs and status, when `stop` is true. */
  reason?: string;
  /** `sprt`: the hypothesis the test accepted, when that is why it stopped (absent when the plan ran out first). */
  accepted?: 'H0' | 'H1';
  /** `sprt`: complete pairs counted when the decision was made (latched with it). */
  pairs?: number;
}

export interface StopRule {
  observe(outcome: MatchOutcome): void;
  decided(): StopDecision;
  /** Live figures for progress reports; only rules with something to report (`sprt`) have it. */
  status?(): StopStatus;
}

/** What a stop rule reports while it runs. */
export type StopStatus = SprtStatus;

/** The SPRT as it stands: the test, the counts it rests on, and what they say about strength. */
export interface SprtStatus {
  rule: 'sprt';
  candidate: string;
  baseline: string;
  /** The hypotheses in normalized Elo, and the error rates. */
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
  llr: number;
  lower: number;
  upper: number;
  /** Where the LLR is now; the stop decision itself is latched when a bound is first reached. */
  state: SprtState;
  /** Complete, counted pairs. */
  pairs: number;
  pentanomial: Pentanomial;
  /** Pairs with one game in (waiting for the other). */
  pendingPairs: number;
  /** Complete pairs not counted because a game ended in `error` or was `cancelled`. */
  voidedPairs: number;
  /** Logistic Elo of the candidate over the baseline, with 95% interval and LOS. */
  elo: EloEstimate;
  /** Normalized Elo (the scale of elo0/elo1), with 95% interval. */
  nelo: NormalizedEloEstimate;
  /**
   * Once the test has decided: the Elo estimate that allows for the early stop (fishtest's
   * SPRT-adjusted estimate, median-unbiased given where the LLR stopped), with its 95% interval and
   * LOS. A plain estimate after an early stop leans towards the hypothesis accepted.
   */
  sprtElo?: SprtEloEstimate;
  /** Matches observed, of `matches` planned. */
  matchesSeen: number;
  matches: number;
}

/** What a rule may know of the plan it watches. */
export interface StopContext {
  /** Number of planned matches. */
  matches: number;
  /** `sprt` only: the entrant under test (the gauntlet's other entrant). */
  candidate?: string;
  /** `sprt` only: the entrant it is measured against (the gauntlet's reference). */
  baseline?: string;
}

/**
 * The context for `spec`'s stop rule: the number of planned matches, and for `sprt` the candidate and
 * the baseline. Checks that the spec can run an SPRT: a gauntlet of two entrants, the reference being
 * the baseline (so which side is "better" is never guessed), with side swap on (the test counts
 * pairs). Throws `BAD_SPEC` listing what to change.
 */
export function stopContextOf(spec: TournamentSpec): StopContext {
  const n = spec.entrants.length;
  const pairings =
    spec.format === 'round-robin' ? (n * (n - 1)) / 2 : spec.format === 'gauntlet' ? n - 1 : spec.format === 'strength-sweep' ? n : (spec.pairings?.length ?? 0);
  const matches = spec.seeds.length * spec.scenarios.length * pairings * (spec.sideSwap ? 2 : 1);
  if (spec.stop.rule !== 'sprt') return { matches };

  const names = spec.entrants.map((e) => e.name);
  const issues: PathIssue[] = [];
  if (spec.format !== 'gauntlet' || spec.reference === undefined) {
    const [a = 'baseline', b = 'candidate'] = names;
    issues.push({
      path: 'format',
      message: `is ${spec.format}, but stop: sprt needs format: gauntlet with reference: <the baseline>, so the test knows which entrant is the candidate (for example format: gauntlet, reference: ${a} to test ${b} against ${a}).`,
    });
  } else if (n !== 2) {
    const candidates = names.filter((x) => x !== spec.reference);
    issues.push({
      path: 'entrants',
      message: `stop: sprt tests one candidate against the reference, but this gauntlet has ${candidates.length} (${candidates.join(', ')}); run one tournament per candidate, or use stop: fixed.`,
    });
  }
  if (!spec.sideSwap) {
    issues.push({ path: 'sideSwap', message: 'is false, but stop: sprt counts side-swapped pairs; set sideSwap: true (the default).' });
  }
  if (issues.length) {
    throw new SalientError('BAD_SPEC', `tournament spec ${spec.id}: stop: sprt cannot run on this tournament; fix the spec and try again.`, issues);
  }
  const baseline = spec.reference as string;
  const candidate = names.find((x) => x !== baseline) as string;
  return { matches, candidate, baseline };
}

/** Play the whole plan: stop once every planned match has an outcome (of any kind). */
export function fixedStopRule(ctx: StopContext): StopRule {
  const seen = new Set<string>();
  return {
    observe(o) {
      seen.add(o.matchId);
    },
    decided() {
      return seen.size >= ctx.matches ? { stop: true, reason: `all ${ctx.matches} planned matches played` } : { stop: false };
    },
  };
}

/**
 * A sequential probability ratio test of the candidate against the baseline, on normalized Elo
 * bounds `elo0` < `elo1` with error rates `alpha` and `beta`, computed as fishtest does (see
 * `@salient/stats` `sprt`).
 *
 * - Pairs: the two games sharing a `pairId` (same seed, sides exchanged). A pair counts once both
 *   games are in, in whichever order they arrive; a lone game counts for nothing yet.
 * - Scores, from the candidate's side: win 1, draw 0.5, loss 0. A `forfeit` counts as recorded (a
 *   loss for the side that forfeited: a bot that crashes or times out is weaker for it). An `error`
 *   or `cancelled` game has no result, and guessing one would bias the test, so its pair is voided:
 *   not counted, but reported in `status().voidedPairs`.
 * - The LLR is recomputed after every completed pair; the first time it reaches a bound the decision
 *   is latched with the LLR and pair count of that moment (outcomes of matches already in flight
 *   still update `status()`, as fishtest keeps counting the games that finish after a test stops).
 * - If the plan runs out first, the rule stops with the test undecided.
 * - A repeated outcome (same `matchId`) counts once.
 */
export function sprtStopRule(spec: Extract<StopSpec, { rule: 'sprt' }>, ctx: StopContext): StopRule {
  const { candidate, baseline } = ctx;
  if (candidate === undefined || baseline === undefined) {
    throw new Error(
      'sprtStopRule: the context needs candidate and baseline (the gauntlet entrant and its reference); build it with stopContextOf(spec), which also checks the spec can run an SPRT.',
    );
  }
  const options = { elo0: spec.elo0, elo1: spec.elo1, alpha: spec.alpha, beta: spec.beta, model: 'normalized' as const };
  const bounds = sprtBounds(spec.alpha, spec.beta); // also refuses bad rates now rather than at the first pair
  const counts: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  let llr = sprt(counts, options).llr; // and bad bounds

  const seen = new Set<string>();
  /** pairId -> matchId -> the candidate's score, or null when the game has no result. */
  const open = new Map<string, Map<string, GameScore | null>>();
  const closed = new Set<string>();
  let voided = 0;
  let state: SprtState = 'continue';
  let verdict: StopDecision | undefined;
  let cached: SprtStatus | undefined;

  const scoreOf = (o: MatchOutcome): GameScore | null => {
    const sides = Object.keys(o.entrants);
    const side = sides.find((s) => o.entrants[s] === candidate);
    if (side === undefined || !sides.some((s) => o.entrants[s] === baseline)) {
      throw new Error(
        `sprtStopRule: match ${o.matchId} seats ${sides.map((s) => `${s}: ${o.entrants[s]}`).join(', ')}, not ${candidate} against ${baseline}; this rule only watches that gauntlet.`,
      );
    }
    if (o.kind === 'error' || o.kind === 'cancelled') return null;
    const result = o.sides[side];
    return result === 'win' ? 1 : result === 'draw' ? 0.5 : result === 'loss' ? 0 : null;
  };

  const test = () => {
    const r = sprt(counts, options);
    llr = r.llr;
    state = r.state;
    if (verdict || state === 'continue') return;
    const pairs = `after ${r.pairs} pair${r.pairs === 1 ? '' : 's'}`;
    const c = `${candidate} vs ${baseline}`;
    verdict =
      state === 'H1'
        ? { stop: true, accepted: 'H1', pairs: r.pairs, reason: `SPRT accepted H1 (${c}: ${spec.elo1 > 0 ? 'candidate stronger' : `candidate not weaker by more than ${-spec.elo1} nElo`}): LLR ${twoDecimals(llr)} ≥ ${twoDecimals(r.upper)} ${pairs}` }
        : { stop: true, accepted: 'H0', pairs: r.pairs, reason: `SPRT accepted H0 (${c}: ${spec.elo0 >= 0 ? 'candidate not stronger' : 'candidate weaker'}): LLR ${twoDecimals(llr)} ≤ ${twoDecimals(r.lower)} ${pairs}` };
  };

  return {
    observe(o) {
      if (seen.has(o.matchId)) return;
      const score = scoreOf(o);
      if (closed.has(o.pairId)) {
        throw new Error(`sprtStopRule: match ${o.matchId} is a third match of pair ${o.pairId}; a side-swapped pair is two games.`);
      }
      seen.add(o.matchId);
      cached = undefined;
      let games = open.get(o.pairId);
      if (!games) open.set(o.pairId, (games = new Map()));
      games.set(o.matchId, score);
      if (games.size < 2) return;
      open.delete(o.pairId);
      closed.add(o.pairId);
      const [first, second] = [...games.values()] as [GameScore | null, GameScore | null];
      if (first === null || second === null) {
        voided++;
        return;
      }
      counts[pentanomialCell(first, second)]++;
      test();
    },
    decided() {
      if (verdict) return verdict;
      if (seen.size >= ctx.matches) {
        const pairs = counts.reduce((s, x) => s + x, 0);
        return {
          stop: true,
          pairs,
          reason: `all ${ctx.matches} planned matches played; SPRT undecided: LLR ${twoDecimals(llr)} between ${twoDecimals(bounds.lower)} and ${twoDecimals(bounds.upper)} after ${pairs} pair${pairs === 1 ? '' : 's'}`,
        };
      }
      return { stop: false };
    },
    status() {
      if (cached) return cached;
      const r = sprt(counts, options);
      cached = {
        rule: 'sprt',
        candidate,
        baseline,
        elo0: spec.elo0,
        elo1: spec.elo1,
        alpha: spec.alpha,
        beta: spec.beta,
        llr: r.llr,
        lower: r.lower,
        upper: r.upper,
        state: r.state,
        pairs: r.pairs,
        pentanomial: [counts[0], counts[1], counts[2], counts[3], counts[4]],
        pendingPairs: open.size,
        voidedPairs: voided,
        elo: pentanomialElo(counts),
        nelo: pentanomialNormalizedElo(counts),
        ...(r.state !== 'continue' && r.pairs > 0 ? { sprtElo: sprtElo(counts, options) } : {}),
        matchesSeen: seen.size,
        matches: ctx.matches,
      };
      return cached;
    },
  };
}

/** The rule a spec asks for; `sprt` needs the context from `stopContextOf`. */
export function createStopRule(spec: StopSpec, ctx: StopContext): StopRule {
  switch (spec.rule) {
    case 'fixed':
      return fixedStopRule(ctx);
    case 'sprt':
      return sprtStopRule(spec, ctx);
  }
}

/**
 * `plan`'s stop rule over `outcomes` (a run's, the matches a store holds for it, or the outcomes queue
 * workers fed their rules) as the executors feed it: in plan order, up to the first planned match
 * without an outcome. The decision is the one taken on that unbroken run of outcomes, so it comes out
 * as the run (local pool or workers) made it, whatever finished out of order after a gap; the figures
 * then count every outcome given (as a run's final figures count the matches still in flight).
 */
export function replayStopRule(plan: Pick<TournamentPlan, 'spec' | 'matches'>, outcomes: readonly MatchOutcome[]): { decision: StopDecision; status?: StopStatus } {
  const rule = createStopRule(plan.spec.stop, stopContextOf(plan.spec));
  const byId = new Map(outcomes.map((o) => [o.matchId, o]));
  let next = 0;
  for (; next < plan.matches.length; next++) {
    const o = byId.get(plan.matches[next]!.id);
    if (!o) break;
    rule.observe(o);
    byId.delete(o.matchId);
  }
  const decision = rule.decided();
  for (const o of [...byId.values()].sort((a, b) => a.index - b.index)) rule.observe(o);
  return { decision, ...(rule.status ? { status: rule.status() } : {}) };
}

/**
 * The SPRT as two lines for terminals and logs: the test and where its LLR stands, then the counts and
 * the strength estimates (`Elo` logistic, with fishtest's ± and LOS; `nElo` normalized, the scale of
 * the bounds, with its 95% interval).
 */
export function sprtText(s: SprtStatus): [string, string] {
  const where =
    s.state === 'H1' ? `H1 accepted: LLR ${twoDecimals(s.llr)} ≥ ${twoDecimals(s.upper)}` : s.state === 'H0' ? `H0 accepted: LLR ${twoDecimals(s.llr)} ≤ ${twoDecimals(s.lower)}` : `LLR ${twoDecimals(s.llr)} in (${twoDecimals(s.lower)}, ${twoDecimals(s.upper)})`;
  const head = `SPRT ${s.candidate} vs ${s.baseline}, nElo [${s.elo0}, ${s.elo1}], alpha ${s.alpha}, beta ${s.beta}: ${where}`;
  const extra = [s.pendingPairs ? `${s.pendingPairs} half-played` : '', s.voidedPairs ? `${s.voidedPairs} voided by errors` : ''].filter(Boolean).join(', ');
  const counts = `${s.pairs} pair${s.pairs === 1 ? '' : 's'} [${s.pentanomial.join(', ')}]${extra ? ` (${extra})` : ''}`;
  if (s.pairs === 0) return [head, `  ${counts}; no estimate yet`];
  const signed = (x: number) => {
    if (!Number.isFinite(x)) return x > 0 ? '+inf' : '-inf';
    const t = x.toFixed(1);
    return t.startsWith('-') && Number(t) !== 0 ? t : `+${t.replace('-', '')}`;
  };
  const elo = `Elo ${signed(s.elo.elo)} ± ${Number.isFinite(s.elo.plusMinus) ? s.elo.plusMinus.toFixed(1) : 'inf'} (LOS ${(100 * s.elo.los).toFixed(1)}%)`;
  const nelo = `nElo ${signed(s.nelo.nelo)} (${signed(s.nelo.ci.low)} to ${signed(s.nelo.ci.high)})`;
  const adjusted = s.sprtElo ? `; SPRT-adjusted Elo ${signed(s.sprtElo.elo)} (${signed(s.sprtElo.ci.low)} to ${signed(s.sprtElo.ci.high)}, LOS ${(100 * s.sprtElo.los).toFixed(1)}%)` : '';
  return [head, `  ${counts}; ${elo}; ${nelo}${adjusted}`];
}

/** Two decimals, as fishtest prints an LLR (and never "-0.00"). */
export function twoDecimals(x: number): string {
  const s = x.toFixed(2);
  return s === '-0.00' ? '0.00' : s;
}
