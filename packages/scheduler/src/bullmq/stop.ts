/**
 * Stop rules on the queue. When a match job of a `stop: sprt` tournament ends on a worker, the worker
 * writes the job's outcomes to the tournament's results hash in Redis (retried for about 16 s if Redis
 * refuses, then again with the next job's update), then brings its own copy of the
 * test up to date: it reads the jobs in plan order from where it left off, up to the first one not yet
 * in. So, as on the local pool, the test decides at the same pair however the jobs were spread over
 * workers and in whatever order they ended. The first worker to see it decide sets the stop key and
 * takes the tournament's waiting jobs off the queue; jobs already running finish and are recorded
 * (and counted in the test's final figures, as fishtest counts games finished after a test stops). A
 * job that fails for good counts as an `error` for each of its matches (its pair is voided), so the
 * test never waits for it.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { errorOutcome } from '../play.ts';
import { createStopRule, stopContextOf, type StopRule } from '../stop-rule.ts';
import type { MatchOutcome, TournamentSpec } from '../types.ts';
import { bullConnection } from './connection.ts';
import { MATCH_QUEUE, planKey, resultsKey, stopKey } from './names.ts';
import { removeWaiting } from './status.ts';
import { matchJobs, type MatchJobData, type SubmittablePlan } from './submit.ts';

/** What the stop key holds. */
export interface StopRecord {
  at: string;
  reason: string;
}

/** A tournament this worker decided to stop. */
export interface StopEvent {
  tournamentId: string;
  reason: string;
  /** Matches taken off the queue. */
  removed: number;
}

export interface StopWatcher {
  /** A match job ended here: with its outcomes, or failed for good (`reason`). Resolves once the test is up to date. */
  jobEnded(data: MatchJobData, ended: { outcomes: readonly MatchOutcome[] } | { reason: string }): Promise<StopEvent | undefined>;
  close(): Promise<void>;
}

interface Watch {
  plan: SubmittablePlan;
  jobs: MatchJobData[];
  rule: StopRule;
  /** Jobs (in plan order) the rule has seen. */
  next: number;
  /** Decided, here or by another worker: nothing more to do. */
  done: boolean;
}

/** The stop-rule side of a worker; `redis` is a plain connection the worker owns. */
export function stopWatcher(redis: Redis, connection: string): StopWatcher {
  const watches = new Map<string, Promise<Watch | null>>();
  const chains = new Map<string, Promise<unknown>>();
  let queue: Queue | undefined;

  const load = async (id: string): Promise<Watch | null> => {
    const raw = await redis.get(planKey(id));
    if (raw === null) return null;
    const plan = JSON.parse(raw) as SubmittablePlan;
    const spec = plan.spec as TournamentSpec | undefined;
    if (spec?.stop?.rule !== 'sprt') return null;
    return { plan, jobs: matchJobs(plan.matches), rule: createStopRule(spec.stop, stopContextOf(spec)), next: 0, done: false };
  };
  const watchOf = (id: string): Promise<Watch | null> => {
    let w = watches.get(id);
    if (!w) {
      w = load(id);
      watches.set(id, w);
      w.catch(() => watches.delete(id)); // Redis away: tried again at the next job
    }
    return w;
  };

  // Outcomes whose write failed even after retries, by tournament: written before anything else next time.
  const unwritten = new Map<string, Map<string, string>>();
  const write = async (id: string, field: string, value: string): Promise<void> => {
    const pending = unwritten.get(id) ?? new Map<string, string>();
    unwritten.set(id, pending);
    pending.set(field, value);
    for (const [f, v] of [...pending]) {
      await retried(() => redis.hset(resultsKey(id), f, v));
      pending.delete(f);
    }
  };

  const update = async (data: MatchJobData, outcomes: readonly MatchOutcome[]): Promise<StopEvent | undefined> => {
    const id = data.tournamentId;
    const w = await watchOf(id);
    if (!w || w.done || data.matches.length === 0) return undefined;
    // A lost write would leave the test waiting at this job for good (it reads the jobs in plan order), so
    // it is retried, and kept for the next job's update if Redis stays away longer.
    await write(id, String(data.matches[0]!.index), JSON.stringify(outcomes));
    if ((await redis.exists(stopKey(id))) === 1) {
      w.done = true;
      return undefined;
    }
    while (w.next < w.jobs.length) {
      const batch = w.jobs.slice(w.next, w.next + 200);
      const values = await redis.hmget(resultsKey(id), ...batch.map((j) => String(j.matches[0]!.index)));
      for (const v of values) {
        if (v === null) return undefined; // the next job in plan order is not in yet
        for (const o of JSON.parse(v) as MatchOutcome[]) w.rule.observe(o);
        w.next++;
        const d = w.rule.decided();
        if (!d.accepted) continue;
        w.done = true;
        const reason = d.reason ?? `the stop rule accepted ${d.accepted}`;
        const claimed = await redis.set(stopKey(id), JSON.stringify({ at: new Date().toISOString(), reason } satisfies StopRecord), 'NX');
        if (claimed === null) return undefined; // another worker got there first
        queue ??= new Queue(MATCH_QUEUE, { connection: bullConnection(connection) });
        const { removed } = await removeWaiting(w.plan, queue);
        return { tournamentId: id, reason, removed };
      }
    }
    return undefined;
  };

  return {
    jobEnded(data, ended) {
      const outcomes = 'outcomes' in ended ? ended.outcomes : data.matches.map((m) => errorOutcome(m, `its job failed: ${ended.reason}`));
      // One update at a time per tournament: the rule sees each job once, in plan order.
      const run = (chains.get(data.tournamentId) ?? Promise.resolve()).then(() => update(data, outcomes));
      chains.set(data.tournamentId, run.catch(() => undefined));
      return run;
    },
    async close() {
      await Promise.allSettled(chains.values());
      await queue?.close();
    },
  };
}

/** Waits between attempts at a write the stop rule cannot do without (about 16 s in all). */
const RETRY_MS = [100, 200, 400, 800, 1600, 3200, 5000, 5000];

async function retried<T>(f: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await f();
    } catch (e) {
      if (i >= RETRY_MS.length) throw e;
      await new Promise((r) => setTimeout(r, RETRY_MS[i]));
    }
  }
}

/** What the stop key of tournament `id` says, if it is set. */
export async function readStop(redis: Redis, id: string): Promise<StopRecord | undefined> {
  const raw = await redis.get(stopKey(id));
  if (raw === null) return undefined;
  try {
    return JSON.parse(raw) as StopRecord;
  } catch {
    return { at: '', reason: raw };
  }
}

