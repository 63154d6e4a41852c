/**
 * Stop rules on the queue. The processor writes every game of a `stop: sprt` tournament to the
 * tournament's feed in Redis (`resultsKey`, by match id) as the game is recorded, and reports progress;
 * a worker then brings its own copy of the test up to date: it reads the games in plan order from
 * where it left off, up to the first one not yet in. So, as on the local pool, the test decides at the
 * same pair however the games were cut into batches, spread over workers, and in whatever order they
 * ended. The first worker to see it decide sets the stop key and takes the tournament's waiting jobs
 * off the queue; batches already running end at their next pair (the processor reads the stop key
 * with every write), and the games they finished are recorded (and counted in the test's final
 * figures, as fishtest counts games finished after a test stops). A job that fails for good counts as
 * an `error` for each of its games not recorded (their pairs are voided), so the test never waits for
 * it; those placeholders are written here, retried for about 16 s if Redis refuses, then again with
 * the next update.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { errorOutcome } from '../play.ts';
import { createStopRule, stopContextOf, type StopRule } from '../stop-rule.ts';
import type { MatchOutcome, TournamentSpec } from '../types.ts';
import { bullConnection } from './connection.ts';
import { MATCH_QUEUE, planKey, resultsKey, stopKey } from './names.ts';
import { removeWaiting } from './status.ts';
import type { MatchJobData, StoredPlan } from './submit.ts';

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
  /**
   * A match job recorded games (no `ended`: the processor wrote them to the feed), or failed for good
   * (`reason`: its unrecorded games go in as errors), or ended with `outcomes` to be written here.
   * Resolves once the test is up to date.
   */
  jobEnded(data: MatchJobData, ended?: { outcomes: readonly MatchOutcome[] } | { reason: string }): Promise<StopEvent | undefined>;
  close(): Promise<void>;
}

interface Watch {
  plan: StoredPlan;
  rule: StopRule;
  /** Matches (in plan order) the rule has seen. */
  next: number;
  /** Decided, here or by another worker: nothing more to do. */
  done: boolean;
}

/** The stop-rule side of a worker; `redis` is a plain connection the worker owns. */
export function stopWatcher(redis: Redis, connection: string): StopWatcher {
  const watches = new Map<string, Promise<Watch | null>>();
  const chains = new Map<string, Promise<unknown>>();
  const waiting = new Map<string, Promise<StopEvent | undefined>>();
  let queue: Queue | undefined;

  const load = async (id: string): Promise<Watch | null> => {
    const raw = await redis.get(planKey(id));
    if (raw === null) return null;
    const plan = JSON.parse(raw) as StoredPlan;
    const spec = plan.spec as TournamentSpec | undefined;
    if (spec?.stop?.rule !== 'sprt') return null;
    return { plan, rule: createStopRule(spec.stop, stopContextOf(spec)), next: 0, done: false };
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

  // Feed entries whose write failed even after retries, by tournament: written before anything else
  // next time. `nx`: a placeholder, which never replaces a recorded game.
  const unwritten = new Map<string, Map<string, { value: string; nx: boolean }>>();
  const write = async (id: string, entries: readonly (readonly [string, string, boolean])[]): Promise<void> => {
    const pending = unwritten.get(id) ?? new Map<string, { value: string; nx: boolean }>();
    unwritten.set(id, pending);
    for (const [f, value, nx] of entries) pending.set(f, { value, nx });
    if (pending.size === 0) return;
    await retried(async () => {
      const p = redis.multi();
      for (const [f, { value, nx }] of pending) {
        if (nx) p.hsetnx(resultsKey(id), f, value);
        else p.hset(resultsKey(id), f, value);
      }
      const res = (await p.exec()) ?? [];
      for (const [e] of res) if (e) throw e;
    });
    pending.clear();
  };

  const update = async (data: MatchJobData, ended: { outcomes: readonly MatchOutcome[] } | { reason: string } | undefined): Promise<StopEvent | undefined> => {
    const id = data.tournamentId;
    const w = await watchOf(id);
    if (!w || w.done) return undefined;
    // A lost write would leave the test waiting at this game for good (it reads them in plan order), so
    // it is retried, and kept for the next update if Redis stays away longer.
    const entries: [string, string, boolean][] =
      ended === undefined
        ? []
        : 'outcomes' in ended
          ? ended.outcomes.map((o) => [o.matchId, JSON.stringify(o), false])
          : data.matches.map((m) => [m.id, JSON.stringify(errorOutcome(m, `its job failed: ${ended.reason}`)), true]);
    await write(id, entries);
    if ((await redis.exists(stopKey(id))) === 1) {
      w.done = true;
      return undefined;
    }
    const order = w.plan.matches;
    while (w.next < order.length) {
      const ids = order.slice(w.next, w.next + 500).map((m) => m.id);
      const values = await redis.hmget(resultsKey(id), ...ids);
      for (const v of values) {
        if (v === null) return undefined; // the next game in plan order is not in yet
        w.rule.observe(JSON.parse(v) as MatchOutcome);
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
      const id = data.tournamentId;
      // A batch's progress reports come faster than the test may be brought up to date: one update
      // waiting to start covers them all (it reads everything in by then).
      if (ended === undefined && waiting.has(id)) return Promise.resolve(undefined);
      // One update at a time per tournament: the rule sees each game once, in plan order.
      const run = (chains.get(id) ?? Promise.resolve()).then(() => {
        if (waiting.get(id) === run) waiting.delete(id);
        return update(data, ended);
      });
      if (ended === undefined) waiting.set(id, run);
      chains.set(id, run.catch(() => undefined));
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

