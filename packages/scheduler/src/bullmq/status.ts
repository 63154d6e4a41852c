/**
 * `tournamentStatus` and `cancelTournament`: what became of a submitted tournament, read from the
 * stored plan, the games recorded so far (`recordedKey`: they count as completed the moment they end,
 * also within a running batch) and the match jobs (by their deterministic ids) for the rest, and how
 * to stop one. Counts are of matches (games), not jobs.
 */
import { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { SalientError } from '@salient/engine';
import { replayStopRule, type SprtStatus, type StopDecision } from '../stop-rule.ts';
import type { MatchOutcome, TournamentPlan, TournamentSpec } from '../types.ts';
import { bullConnection, connectRedis } from './connection.ts';
import { MATCH_QUEUE, PLAN_PATTERN, cancelKey, matchJobId, planKey, recordedKey, resultsKey } from './names.ts';
import { readStop, type StopRecord } from './stop.ts';
import { explainFailure, faultOf, type JobFault } from './faults.ts';
import { readSpools, type WorkerSpool } from './spool-state.ts';
import { planJobs, type MatchJobData, type StoredPlan } from './submit.ts';

export interface FailedMatch {
  matchId: string;
  index: number;
  reason: string;
  attempts: number;
  /** What let it down: the match itself (bad input), a cancel, or the infrastructure (see `faults.ts`). */
  fault: JobFault;
}

export interface TournamentStatus {
  tournamentId: string;
  specHash?: string;
  /** `running` until every match has finished or failed; `cancelled` once cancelled. */
  state: 'running' | 'finished' | 'cancelled';
  cancelledAt?: string;
  /** Set once the stop rule decided: when and why (its waiting matches were taken off the queue). */
  stopped?: StopRecord;
  /**
   * `stop: sprt`: the test over what the workers feed their rules (each recorded game, a cancelled one
   * as cancelled, one whose job failed for good as an error), in plan order.
   */
  stop?: SprtStatus;
  /** `stop: sprt`: what the test decided on those outcomes, as the workers took them (see `replayStopRule`). */
  stopDecision?: StopDecision;
  /** The spec the plan was submitted with, when it carries one. */
  spec?: TournamentSpec;
  /** When it was submitted (ISO; absent for plans submitted before this was recorded). */
  submittedAt?: string;
  /** The latest a match job of it ended, or it was cancelled or stopped (ISO); absent before any. */
  lastActivity?: string;
  /**
   * Matches by state: `completed` as soon as a game is recorded (within a running batch too), the rest
   * by their job's state. After a stop rule decided, the games of a running batch it did not reach
   * are in none of them (as the jobs it took off the queue).
   */
  counts: { total: number; waiting: number; active: number; delayed: number; completed: number; failed: number };
  /** Side-swapped pairs per match job (as the plan was cut when submitted). */
  batchPairs?: number;
  /** Finished matches in plan order. */
  outcomes: MatchOutcome[];
  failed: FailedMatch[];
  /** Entrant names, in spec order (for standings). */
  entrants: string[];
  /**
   * Workers whose telemetry spool holds finished matches waiting for the ClickHouse server (of any
   * tournament: a spool is per worker). Empty when every match played has reached the store.
   */
  spool: WorkerSpool[];
}

export interface StatusOptions {
  /** Redis URL. */
  connection: string;
}

async function readPlan(redis: Redis, id: string): Promise<StoredPlan> {
  const raw = await redis.get(planKey(id));
  if (raw === null) {
    throw new SalientError('UNKNOWN_TOURNAMENT', `No tournament '${id}' on this queue. Check the id printed by \`salient tournament submit\`, and that --redis points at the same Redis.`);
  }
  return JSON.parse(raw) as StoredPlan;
}

/** Every value of hash `key`, parsed, by field (HSCAN: a big tournament's hash is read in parts). */
async function readHash<T>(redis: Redis, key: string): Promise<Map<string, T>> {
  const out = new Map<string, T>();
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(key, cursor, 'COUNT', 1000);
    cursor = next;
    for (let i = 0; i + 1 < flat.length; i += 2) out.set(flat[i]!, JSON.parse(flat[i + 1]!) as T);
  } while (cursor !== '0');
  return out;
}

/** Entrant names in spec order when the plan carries its spec, else in order of first appearance. */
export function entrantNames(plan: StoredPlan): string[] {
  const fromSpec = (plan.spec as { entrants?: { name?: unknown }[] } | undefined)?.entrants?.map((e) => e.name);
  if (fromSpec && fromSpec.every((n): n is string => typeof n === 'string')) return fromSpec;
  const { matches } = plan;
  const seen = new Set<string>();
  for (const m of matches) for (const name of Object.values(m.entrants)) seen.add(name);
  return [...seen];
}

/** Counts, outcomes and failures of tournament `id`. Throws `UNKNOWN_TOURNAMENT` or `QUEUE_UNREACHABLE`. */
export async function tournamentStatus(id: string, o: StatusOptions): Promise<TournamentStatus> {
  const redis = await connectRedis(o.connection);
  const queue = new Queue(MATCH_QUEUE, { connection: bullConnection(o.connection) });
  try {
    const plan = await readPlan(redis, id);
    const cancelledAt = (await redis.get(cancelKey(id))) ?? undefined;
    const stopped = await readStop(redis, id);
    const counts = { total: plan.matches.length, waiting: 0, active: 0, delayed: 0, completed: 0, failed: 0 };
    const spec = plan.spec as TournamentSpec | undefined;
    const sprtSpec = spec?.stop?.rule === 'sprt';
    // Recorded games first (read before the jobs' states: a game recorded meanwhile is then counted
    // by its job, still running, rather than missed), then each job for the games it has not recorded.
    const recorded = await readHash<MatchOutcome>(redis, recordedKey(id));
    const outcomes: MatchOutcome[] = [...recorded.values()];
    counts.completed = outcomes.length;
    const failed: FailedMatch[] = [];
    let last = 0;
    await Promise.all(
      planJobs(plan).map(async ({ tournamentId, batch, matches: all }) => {
        // State first, then the job: a job seen completed has its return value written (both change
        // in one script), whereas a job read first might complete before its state is read.
        const jobId = matchJobId(tournamentId, batch);
        const matches = all.filter((m) => !recorded.has(m.id));
        const state = await queue.getJobState(jobId);
        if (state === 'unknown') return; // removed by a cancel or a stop before it ran
        const n = matches.length;
        if (state === 'completed' || state === 'failed') {
          const job = await Job.fromId<MatchJobData, MatchOutcome[]>(queue, jobId);
          if (!job) return;
          last = Math.max(last, job.finishedOn ?? 0);
          if (n === 0) return;
          if (state === 'completed') {
            const returned = new Map((job.returnvalue ?? []).map((o) => [o.matchId, o]));
            for (const m of matches) {
              const outcome = returned.get(m.id);
              // Not there: the batch ended at a stop before this game; a game it did play is recorded.
              if (outcome === undefined) continue;
              if (outcome.kind === 'cancelled') {
                counts.failed += 1;
                failed.push({ matchId: outcome.matchId, index: outcome.index, reason: `cancelled: tournament ${id} was cancelled`, attempts: job.attemptsMade, fault: 'cancelled' });
              } else {
                // Returned but not recorded (a job from before games were recorded one by one).
                counts.completed += 1;
                outcomes.push(outcome);
              }
            }
          } else {
            counts.failed += n;
            const fault = faultOf(job.failedReason);
            const reason = explainFailure(job.failedReason, id);
            for (const m of matches) failed.push({ matchId: m.id, index: m.index, reason, attempts: job.attemptsMade, fault });
          }
        } else if (state === 'active') counts.active += n;
        else if (state === 'delayed') counts.delayed += n;
        else counts.waiting += n;
      }),
    );
    /** What the workers' stop rules are fed (see `stop.ts`). */
    const fed = sprtSpec ? [...(await readHash<MatchOutcome>(redis, resultsKey(id))).values()] : [];
    outcomes.sort((a, b) => a.index - b.index);
    failed.sort((a, b) => a.index - b.index);
    const open = counts.waiting + counts.active + counts.delayed;
    const sprt = sprtSpec ? replayStopRule({ ...plan, spec } as TournamentPlan, fed) : undefined;
    const stop = sprt?.status;
    const times = [last ? new Date(last).toISOString() : '', cancelledAt ?? '', stopped?.at ?? ''].filter(Boolean).sort();
    return {
      tournamentId: id,
      ...(plan.specHash !== undefined ? { specHash: plan.specHash } : {}),
      ...(spec !== undefined ? { spec } : {}),
      ...(plan.submittedAt !== undefined ? { submittedAt: plan.submittedAt } : {}),
      ...(times.length ? { lastActivity: times.at(-1)! } : {}),
      ...(sprt ? { stopDecision: sprt.decision } : {}),
      state: cancelledAt !== undefined ? 'cancelled' : open === 0 ? 'finished' : 'running',
      ...(cancelledAt !== undefined ? { cancelledAt } : {}),
      ...(stopped ? { stopped } : {}),
      ...(stop?.rule === 'sprt' ? { stop } : {}),
      counts,
      batchPairs: plan.batchPairs ?? 1,
      outcomes,
      failed,
      entrants: entrantNames(plan),
      spool: await readSpools(redis),
    };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/** Ids of the tournaments whose plans are on the queue at `redis` (in no particular order). */
export async function queuedTournamentIds(connection: string): Promise<string[]> {
  const redis = await connectRedis(connection);
  try {
    const ids = new Set<string>();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', PLAN_PATTERN, 'COUNT', 500);
      cursor = next;
      for (const k of keys) ids.add(k.slice('salient:tournament:'.length, -':plan'.length));
    } while (cursor !== '0');
    return [...ids];
  } finally {
    redis.disconnect();
  }
}

/**
 * Take `plan`'s waiting and delayed match jobs off `queue` (the flow parent then completes once the
 * running ones end). Counts matches removed, and those running (or taken by a worker meanwhile: a
 * locked job stays, and its worker plays or aborts it).
 */
export async function removeWaiting(plan: StoredPlan, queue: Queue): Promise<{ removed: number; running: number }> {
  let removed = 0;
  let running = 0;
  for (const { tournamentId, batch, matches } of planJobs(plan)) {
    const job = await Job.fromId(queue, matchJobId(tournamentId, batch));
    if (!job) continue;
    const state = await job.getState();
    if (state === 'active') running += matches.length;
    // Taken by a worker while this loop ran, and already failed by the cancel flag: it was running.
    else if (state === 'failed' && /cancelled/.test(job.failedReason ?? '')) running += matches.length;
    else if (state === 'waiting' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') {
      try {
        await job.remove({ removeChildren: false });
        removed += matches.length;
      } catch {
        running += matches.length;
      }
    }
  }
  return { removed, running };
}

export interface CancelReport {
  tournamentId: string;
  /** Matches taken off the queue (their jobs were waiting or delayed). */
  removed: number;
  /** Matches in jobs running when the flag was set, or taken by a worker while the cancel went through; their workers abort them within about a second. */
  running: number;
}

/**
 * Cancel tournament `id`: set its cancel flag (workers abort its running matches and refuse to start
 * any), and take its waiting and delayed matches off the queue (the flow parent then completes once
 * the running ones end). Finished matches stay, so status
 * still shows the standings so far. Idempotent.
 */
export async function cancelTournament(id: string, o: StatusOptions): Promise<CancelReport> {
  const redis = await connectRedis(o.connection);
  const matches = new Queue(MATCH_QUEUE, { connection: bullConnection(o.connection) });
  try {
    const plan = await readPlan(redis, id);
    await redis.set(cancelKey(id), new Date().toISOString(), 'NX');
    return { tournamentId: id, ...(await removeWaiting(plan, matches)) };
  } finally {
    await matches.close();
    redis.disconnect();
  }
}
