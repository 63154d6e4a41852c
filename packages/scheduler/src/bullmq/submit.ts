/**
 * `submitTournament`: a tournament plan onto the queue as one BullMQ flow. The parent job (in
 * `salient-tournaments`) completes once every match has finished; the matches go in child jobs (in
 * `salient-matches`), each a *batch* of side-swapped pairs (both games of each, in plan order; without
 * side swap a pair is one match) whose id comes from the tournament and the batch's index, so
 * submitting the same plan again adds nothing.
 *
 * Why batches: the queue's own cost (Redis scripts, locks, handing the job and its outcomes to the
 * sandboxed child) is paid per job, and for the cheapest games (random bots, a few ms) one job per
 * pair still cost about a tenth of the throughput. So a job carries `batchPairs` pairs, by default as
 * many as last about `jobSeconds` (1 s) at the rate of probe games played here (as fishtest hands a
 * worker a batch of games sized to its speed). What a batch plays is the same whatever its size: the
 * same match ids, the same games, each recorded once (`recordedKey`, written game by game), and the
 * stop rule reads them pair by pair in plan order. The size is kept with the stored plan, so a
 * resubmission cuts the plan the same way. The price of a bigger batch: it cannot be spread over two
 * workers, and a worker that dies mid-batch leaves the rest of it waiting for its lock to expire.
 */
import { FlowProducer } from 'bullmq';
import { SalientError } from '@salient/engine';
import type { PlannedMatch } from '../types.ts';
import { playPlanned, resolveGamePack } from '../play.ts';
import { bullConnection, connectRedis } from './connection.ts';
import { MATCH_QUEUE, TOURNAMENT_QUEUE, cancelKey, matchJobId, planKey, stopKey, tournamentJobId } from './names.ts';

/** What the executor needs of a plan (`planTournament` gives more; the rest is stored for status). */
export interface SubmittablePlan {
  tournamentId: string;
  matches: readonly PlannedMatch[];
  specHash?: string;
  spec?: unknown;
}

/** A plan as it is stored on the queue (`planKey`). */
export interface StoredPlan extends SubmittablePlan {
  /** Side-swapped pairs per match job (absent: 1). */
  batchPairs?: number;
  submittedAt?: string;
}

export interface SubmitOptions {
  /** Redis URL. */
  connection: string;
  /** Tries per match job for infrastructure faults (default 3); bad input fails at once. */
  attempts?: number;
  /** First retry delay in ms, doubled each time (default 2000). */
  backoffMs?: number;
  /**
   * Side-swapped pairs per match job (a whole number ≥ 1). Default: from `jobSeconds` and a probe
   * game (see {@link batchPairsFor}). Ignored when the tournament is already on the queue: its stored
   * size stays.
   */
  batchPairs?: number;
  /** What a match job should last, in seconds, when `batchPairs` is not given (default 1). */
  jobSeconds?: number;
}

export interface SubmitReport {
  tournamentId: string;
  matches: number;
  /** Match jobs (batches of `batchPairs` side-swapped pairs). */
  jobs: number;
  /** Side-swapped pairs per job. */
  batchPairs: number;
  /** The quickest probe game's wall time in ms, when the batch size was worked out from probe games here. */
  probeMs?: number;
  /** Matches whose jobs were not on the queue before this call. */
  added: number;
}

/** The job data of a match job: the planned matches of a batch of pairs, in plan order. */
export interface MatchJobData {
  tournamentId: string;
  /** The batch's index among the plan's batches (its job id is `matchJobId(tournamentId, batch)`). */
  batch: number;
  matches: PlannedMatch[];
  /** The tournament runs `stop: sprt`: every outcome also goes to its test's feed (`resultsKey`). */
  feed?: boolean;
}

/** Default of {@link SubmitOptions.jobSeconds}. */
export const DEFAULT_JOB_SECONDS = 1;
/**
 * A plan is cut into at least this many jobs (when it has that many pairs), however quick its games:
 * with fewer, the last jobs leave workers idle while one plays on, which costs more than the queue
 * saves. At 1 s a job only plans of thousands of quick games meet this cap.
 */
export const MIN_JOBS = 32;
/** The most pairs a job carries. */
export const MAX_BATCH_PAIRS = 500;

/**
 * The plan's matches as match jobs: grouped by pair id (in the order each pair first appears), and
 * the pairs cut into batches of `batchPairs`, in plan order.
 */
export function matchJobs(matches: readonly PlannedMatch[], batchPairs = 1, feed = false): MatchJobData[] {
  const pairs = new Map<string, PlannedMatch[]>();
  for (const m of matches) {
    let pair = pairs.get(m.pairId);
    if (!pair) pairs.set(m.pairId, (pair = []));
    pair.push(m);
  }
  const k = Math.max(1, Math.floor(batchPairs));
  const tournamentId = matches[0]?.tournamentId ?? '';
  const jobs: MatchJobData[] = [];
  let batch: PlannedMatch[] = [];
  let n = 0;
  for (const pair of pairs.values()) {
    batch.push(...pair);
    if (++n % k === 0) {
      jobs.push({ tournamentId, batch: jobs.length, matches: batch, ...(feed ? { feed } : {}) });
      batch = [];
    }
  }
  if (batch.length) jobs.push({ tournamentId, batch: jobs.length, matches: batch, ...(feed ? { feed } : {}) });
  return jobs;
}

/** Whether a stored plan's spec runs `stop: sprt` (its outcomes feed the test). */
export function feedsStopRule(plan: SubmittablePlan): boolean {
  return (plan.spec as { stop?: { rule?: string } } | undefined)?.stop?.rule === 'sprt';
}

/** The match jobs of a plan as stored on the queue (its batch size, its stop rule). */
export function planJobs(plan: StoredPlan): MatchJobData[] {
  return matchJobs(plan.matches, plan.batchPairs ?? 1, feedsStopRule(plan));
}

/** Number of distinct pairs in `matches`. */
function pairCount(matches: readonly PlannedMatch[]): number {
  return new Set(matches.map((m) => m.pairId)).size;
}

/**
 * Pairs per job so that a job lasts about `jobSeconds` when a game takes `gameMs` (a pair being two
 * games, one without side swap), within 1..{@link MAX_BATCH_PAIRS}, and small enough that the plan
 * still makes {@link MIN_JOBS} jobs.
 */
export function batchPairsFor(gameMs: number, jobSeconds: number, matches: readonly PlannedMatch[]): number {
  const pairs = pairCount(matches);
  const gamesPerPair = pairs ? matches.length / pairs : 1;
  const byTime = Math.floor((jobSeconds * 1000) / (Math.max(gameMs, 0.1) * gamesPerPair));
  const bySpread = Math.floor(pairs / MIN_JOBS);
  return Math.max(1, Math.min(MAX_BATCH_PAIRS, byTime, bySpread));
}

// Seats the submitter may play for a probe: built-in bots only. A `cmd:`, `http:` or `ext:` seat
// would run a program or call a host from wherever the plan is submitted (the API server, say), which
// only the workers' operator may allow.
const external = /^(cmd:|https?:\/\/|ext:)/;

/** How long a probe may go on playing further games once one has finished (ms), and how many it plays at most. */
const PROBE_MORE_MS = 250;
const PROBE_GAMES = 8;

/**
 * How long a game of the plan takes here, in ms: its first games played without telemetry, the first
 * given at most `capMs` (a game that takes longer makes a job of one pair anyway), more while they
 * take under {@link PROBE_MORE_MS} in all; the quickest counts, as the least slowed by whatever else
 * runs here and by the JIT's warm-up. Undefined when it cannot be played here (an external bot, a pack
 * only the workers have) or was cut off.
 */
export async function probeGameMs(matches: readonly PlannedMatch[], capMs: number): Promise<number | undefined> {
  const probes = matches.slice(0, PROBE_GAMES);
  if (!probes.length || probes.some((m) => Object.values(m.seats).some((s) => external.test(s.trim())))) return undefined;
  let best: number | undefined;
  let start: number | undefined; // when the first game began
  try {
    for (const m of probes) {
      // Loading the game's code and pack is not part of a game's time (a worker's child does it once).
      await resolveGamePack(m.game, m.pack);
      const left = start === undefined ? capMs : Math.min(capMs, PROBE_MORE_MS) - (performance.now() - start);
      if (left <= 0) break;
      const t0 = performance.now();
      start ??= t0;
      const { outcome } = await playPlanned(m, { signal: AbortSignal.timeout(Math.max(1, Math.ceil(left))) });
      if (outcome.kind === 'cancelled') break;
      best = Math.min(best ?? Infinity, performance.now() - t0);
    }
  } catch {
    // Cannot be played here: the size falls back to one pair (or what was measured).
  }
  return best;
}

function checkBatchPairs(k: number | undefined): void {
  if (k !== undefined && !(Number.isInteger(k) && k >= 1)) {
    throw new SalientError('BAD_ARGUMENT', `batchPairs is ${k}; give a whole number of side-swapped pairs per job, 1 or more (or leave it out to size jobs by jobSeconds).`);
  }
}

function sameMatches(a: SubmittablePlan, b: SubmittablePlan): boolean {
  return a.matches.length === b.matches.length && a.matches.every((m, i) => m.id === b.matches[i]?.id);
}

/**
 * Put `plan` on the queue, in batches of `batchPairs` pairs (worked out from a probe game when not
 * given, see {@link SubmitOptions}). Throws `QUEUE_UNREACHABLE` when Redis cannot be reached,
 * `BAD_ARGUMENT` for a cancelled tournament or one whose id is already taken by a different spec.
 */
export async function submitTournament(plan: SubmittablePlan, o: SubmitOptions): Promise<SubmitReport> {
  checkBatchPairs(o.batchPairs);
  const redis = await connectRedis(o.connection);
  const flow = new FlowProducer({ connection: bullConnection(o.connection) });
  try {
    // Cancelled matches were taken off the queue, so BullMQ would take them as new: refuse instead.
    const cancelled = await redis.get(cancelKey(plan.tournamentId));
    if (cancelled !== null) {
      throw new SalientError(
        'BAD_ARGUMENT',
        `Tournament ${plan.tournamentId} was cancelled at ${cancelled}; it is not run again. Change the spec (which gives a new tournament id) to play it anew.`,
      );
    }
    // Its stop rule decided and its waiting matches were taken off: submitting it again would play them anyway.
    const stopped = await redis.get(stopKey(plan.tournamentId));
    if (stopped !== null) {
      let why = stopped;
      try {
        why = (JSON.parse(stopped) as { reason?: string }).reason ?? stopped;
      } catch {
        // a plain value: shown as it is
      }
      throw new SalientError(
        'BAD_ARGUMENT',
        `Tournament ${plan.tournamentId} was stopped by its stop rule (${why}); nothing is left to play. \`salient tournament status ${plan.tournamentId}\` shows the result; change the spec (a new tournament id) to test anew.`,
      );
    }
    // Stored first and never overwritten: status reads the plan a worker may already be playing, and
    // the batch size it was cut with names the jobs.
    let stored = await redis.get(planKey(plan.tournamentId));
    let probeMs: number | undefined;
    if (stored === null) {
      let batchPairs = o.batchPairs;
      if (batchPairs === undefined) {
        const jobSeconds = o.jobSeconds ?? DEFAULT_JOB_SECONDS;
        probeMs = await probeGameMs(plan.matches, jobSeconds * 1000);
        batchPairs = probeMs === undefined ? 1 : batchPairsFor(probeMs, jobSeconds, plan.matches);
      }
      const record: StoredPlan = { ...plan, batchPairs, submittedAt: new Date().toISOString() };
      const fresh = await redis.set(planKey(plan.tournamentId), JSON.stringify(record), 'NX');
      stored = fresh === null ? await redis.get(planKey(plan.tournamentId)) : JSON.stringify(record);
      if (fresh === null) probeMs = undefined; // another submission got there first: its size stands
    } else {
      const earlier = JSON.parse(stored) as StoredPlan;
      const same = earlier.specHash !== undefined && plan.specHash !== undefined ? earlier.specHash === plan.specHash : sameMatches(earlier, plan);
      if (!same) {
        throw new SalientError(
          'BAD_ARGUMENT',
          `Tournament id '${plan.tournamentId}' is already on this queue with a different spec. Give the changed spec a new id (resubmitting the original unchanged is fine).`,
        );
      }
    }
    const batchPairs = (JSON.parse(stored ?? '{}') as StoredPlan).batchPairs ?? 1;
    const jobs = matchJobs(plan.matches, batchPairs, feedsStopRule(plan));
    const there = jobs.length ? ((await redis.pipeline(jobs.map((j) => ['exists', `bull:${MATCH_QUEUE}:${matchJobId(j.tournamentId, j.batch)}`])).exec()) ?? []) : [];
    const before = jobs.reduce((n, j, i) => n + (there[i]?.[1] === 1 ? j.matches.length : 0), 0);
    await flow.add({
      name: 'tournament',
      queueName: TOURNAMENT_QUEUE,
      data: { tournamentId: plan.tournamentId, matches: plan.matches.length },
      opts: { jobId: tournamentJobId(plan.tournamentId) },
      children: jobs.map((j) => ({
        name: 'match',
        queueName: MATCH_QUEUE,
        data: j,
        opts: {
          jobId: matchJobId(j.tournamentId, j.batch),
          attempts: o.attempts ?? 3,
          backoff: { type: 'exponential', delay: o.backoffMs ?? 2000 },
          // A match that fails for good is reported, not a reason to hold up the tournament.
          ignoreDependencyOnFailure: true,
        },
      })),
    });
    return {
      tournamentId: plan.tournamentId,
      matches: plan.matches.length,
      jobs: jobs.length,
      batchPairs,
      ...(probeMs !== undefined ? { probeMs } : {}),
      added: plan.matches.length - before,
    };
  } finally {
    await flow.close();
    redis.disconnect();
  }
}
