/**
 * The sandboxed match processor: BullMQ runs this file (compiled to one JS module by
 * `buildProcessor`) in a child process per concurrent job, so a CPU-bound game never starves the
 * worker's lock renewal. It plays the job's batch of planned matches (side-swapped pairs, in plan
 * order) through `playPlanned` (the same code as every other path), writes telemetry through a sink
 * opened here from the environment, and returns the `MatchOutcome`s as the job's return value.
 *
 * Each game is recorded as it ends (`recordedKey`, HSETNX by match id; and the stop rule's feed for
 * `stop: sprt`): pair by pair, or for pairs quicker than {@link RECORD_MS} (with telemetry
 * {@link RECORD_TELEMETRY_MS}, once the games' rows are in the store or the spool) those of that time
 * together. So status moves game by game within a batch, and a batch played again (its
 * worker died, it was put back on shutdown, a retry) skips what is recorded: each game counts once.
 * With every write it looks whether the tournament was stopped (its stop rule decided) or cancelled,
 * and ends the batch there, between pairs; a cancel also aborts the game being played at once (the
 * worker's flag watch, `Worker.cancelJob`).
 *
 * Failures: bad input (unknown game, pack, scenario or bot, bad parameters) is `UnrecoverableError`,
 * failed at once; anything else (a crash, refused credentials) is thrown as is and retried with
 * backoff. A telemetry server that is down or hung is not a failure: the match is spooled. Engine faults are not failures: they come back as `error` outcomes. A match aborted
 * because its tournament was cancelled fails for good; one aborted because the worker is shutting
 * down goes back to the queue without using up an attempt.
 */
import { UnrecoverableError, type SandboxedJob } from 'bullmq';
import { Redis } from 'ioredis';
import { SalientError } from '@salient/engine';
import { openTelemetry, telemetryConfigFromEnv, type ClickHouseSink, type Telemetry } from '@salient/telemetry';
import { plannedPart, playPlanned } from '../play.ts';
import { allowedJobBots } from './job-bots.ts';
import type { MatchOutcome, PlannedMatch } from '../types.ts';
import type { MatchJobData } from './submit.ts';
import { BAD_INPUT } from './faults.ts';
import { QUEUE_URL_ENV, cancelKey, recordedKey, resultsKey, stopKey } from './names.ts';

/** Abort reasons the worker sends (`Worker.cancelJob`). */
export const CANCELLED = 'salient:cancelled';
export const SHUTDOWN = 'salient:shutdown';

/**
 * How long finished games may wait to be recorded: a pair that ends later than this after the last
 * record is recorded at once (so a pair of a tenth of a second or more is recorded on its own), quicker
 * ones together, so that the round trip to Redis is not paid per pair of a few-millisecond game.
 */
export const RECORD_MS = 100;
/** The same with telemetry, whose rows are drained before a record (an insert each time): not more often than this. */
export const RECORD_TELEMETRY_MS = 250;

// A child whose worker died (SIGKILL, OOM) must not play on: its match is replayed elsewhere once
// the lock expires. BullMQ's child wrapper does not watch for that, so the processor does. The wrapper
// imports this module asynchronously, so the worker may already be gone (the event already emitted)
// by the time it is loaded: check the channel as well as listening.
if (process.send) {
  process.once('disconnect', () => process.exit(1));
  if (!process.connected) process.exit(1);
}

let telemetry: Promise<Telemetry> | undefined;
let sink: ClickHouseSink | undefined;

// One store and one sink per child process (a child plays one match at a time); opened on first use
// so a worker without telemetry never touches ClickHouse. A server that cannot be reached (down, or
// not answering) fails no job: the store opens with its link down, finished matches go to the spool,
// and this process delivers them once the server answers. Any other failed open (credentials, a
// newer schema) is retried by the next job.
async function matchSink(): Promise<ClickHouseSink | undefined> {
  if (process.env.SALIENT_PROCESSOR_TELEMETRY === '0') return undefined;
  telemetry ??= openTelemetry(telemetryConfigFromEnv(), { whenUnreachable: 'spool' }).catch((e: unknown) => {
    telemetry = undefined;
    throw e;
  });
  const t = await telemetry;
  sink ??= t.sink();
  return sink;
}

// BullMQ recognises these by `name` after the error crosses the process boundary as JSON.
function unrecoverable(message: string): UnrecoverableError {
  const e = new UnrecoverableError(message);
  e.name = 'UnrecoverableError';
  return e;
}

function movedToWait(): Error {
  const e = new Error('bullmq:movedToWait');
  e.name = 'WaitingError';
  return e;
}

async function stopped(job: SandboxedJob<MatchJobData, MatchOutcome[]>, token: string | undefined, reason: unknown): Promise<never> {
  if (reason === SHUTDOWN) {
    await job.moveToWait(token);
    throw movedToWait();
  }
  throw unrecoverable(`cancelled: tournament ${job.data.tournamentId} was cancelled`);
}

/** A match of a cancelled batch that was not played to its end. */
function cancelledOutcome(m: PlannedMatch, played?: MatchOutcome): MatchOutcome {
  return played ?? { ...plannedPart(m), kind: 'cancelled', sides: {}, scores: {}, decisions: 0, impulses: 0, wallMs: 0 };
}

let queueRedis: Redis | undefined;

/** This child's connection to the queue's Redis (the worker's URL, from the environment). */
function recordsRedis(): Redis {
  const url = process.env[QUEUE_URL_ENV];
  if (!url) throw new Error(`${QUEUE_URL_ENV} is not set: the worker passes its Redis URL to the processor's children.`);
  if (!queueRedis) {
    // Named for `CLIENT LIST`: which worker's match child holds the connection (names take no spaces).
    const worker = (process.env.SALIENT_WORKER_NAME ?? 'worker').replace(/[^\w.:-]/g, '_');
    queueRedis = new Redis(url, { maxRetriesPerRequest: 3, connectionName: `salient-match:${worker}:${process.pid}` });
  }
  return queueRedis;
}

type Halt = 'stop' | 'cancel' | undefined;

/** What the stop and cancel keys of the job's tournament say. */
function haltOf(stop: unknown, cancel: unknown): Halt {
  return cancel === 1 ? 'cancel' : stop === 1 ? 'stop' : undefined;
}

/**
 * Record `played` (games that just ended) in one round trip, with the tournament's stop and cancel
 * flags read in the same. A game an earlier, overlapping attempt recorded first keeps that record,
 * which replaces the one in `outcomes`, so what the job returns is what is recorded.
 */
async function record(redis: Redis, data: MatchJobData, played: readonly { i: number; outcome: MatchOutcome }[], outcomes: (MatchOutcome | undefined)[]): Promise<Halt> {
  const tid = data.tournamentId;
  const p = redis.multi();
  for (const { outcome } of played) p.hsetnx(recordedKey(tid), outcome.matchId, JSON.stringify(outcome));
  p.exists(stopKey(tid));
  p.exists(cancelKey(tid));
  const res = (await p.exec()) ?? [];
  for (const [e] of res) if (e) throw e;
  const lost = played.filter((_, k) => res[k]?.[1] === 0);
  if (lost.length) {
    const kept = await redis.hmget(recordedKey(tid), ...lost.map((x) => x.outcome.matchId));
    lost.forEach((x, k) => kept[k] && (outcomes[x.i] = JSON.parse(kept[k]) as MatchOutcome));
  }
  // The stop rule's feed: what was recorded (overwriting a placeholder left by a cancel or a failed job).
  const fed = played.filter((_, k) => res[k]?.[1] === 1);
  if (data.feed && fed.length) await redis.hset(resultsKey(tid), ...fed.flatMap((x) => [x.outcome.matchId, JSON.stringify(x.outcome)]));
  return haltOf(res[played.length]?.[1], res[played.length + 1]?.[1]);
}

/** The batch's matches in pairs (consecutive matches sharing a pair id), as indexes into it. */
function pairsOf(matches: readonly PlannedMatch[]): number[][] {
  const pairs: number[][] = [];
  matches.forEach((m, i) => {
    const last = pairs.at(-1);
    if (last && matches[last[0]!]!.pairId === m.pairId) last.push(i);
    else pairs.push([i]);
  });
  return pairs;
}

/**
 * Play the job's batch pair by pair in plan order, skipping games already recorded, and return the
 * outcomes. Ended part-way: on shutdown the job goes back to the queue (what was recorded stays); when
 * the stop rule decided, the job completes with the games played, the rest not played; on cancel, a
 * job with a finished game completes with it and `cancelled` outcomes for the rest, one with none
 * fails as cancelled.
 */
export default async function processMatch(job: SandboxedJob<MatchJobData, MatchOutcome[]>, token?: string, signal?: AbortSignal): Promise<MatchOutcome[]> {
  const { matches, tournamentId: tid } = job.data;
  if (signal?.aborted) return stopped(job, token, signal.reason);
  // Before anything runs: a job may come from anyone who reaches Redis (refused for good if not allowed).
  const bots = await allowedJobBots(job.data);
  const s = await matchSink();
  const redis = recordsRedis();
  // What an earlier attempt recorded, and whether the tournament still wants games.
  const res = (await redis
    .multi()
    .hmget(recordedKey(tid), ...matches.map((m) => m.id))
    .exists(stopKey(tid))
    .exists(cancelKey(tid))
    .exec()) ?? [];
  for (const [e] of res) if (e) throw e;
  const [before, stop, cancel] = res.map(([, v]) => v);
  const outcomes: (MatchOutcome | undefined)[] = ((before ?? []) as (string | null)[]).map((v) => (v ? (JSON.parse(v) as MatchOutcome) : undefined));
  let halt = haltOf(stop, cancel);
  let unrecorded: { i: number; outcome: MatchOutcome }[] = [];
  let recordedAt = performance.now();
  let interrupted: { i: number; outcome: MatchOutcome } | undefined;
  const flush = async () => {
    if (s) await s.drain(); // a recorded game is never played again: its rows must be safe first
    const batch = unrecorded;
    unrecorded = [];
    recordedAt = performance.now();
    halt = (await record(redis, job.data, batch, outcomes)) ?? halt;
    if (job.data.feed) await job.updateProgress(outcomes.filter(Boolean).length);
  };
  const pairs = pairsOf(matches);
  for (const [p, pair] of pairs.entries()) {
    if (halt !== undefined || signal?.aborted) break;
    for (const i of pair) {
      if (outcomes[i] !== undefined || signal?.aborted) continue;
      let played;
      try {
        played = await playPlanned(matches[i]!, {
          ...(s ? { sink: s } : {}),
          ...(process.env.SALIENT_WORKER_NAME ? { worker: process.env.SALIENT_WORKER_NAME } : {}),
          ...(signal ? { signal } : {}),
          bots,
        });
      } catch (e) {
        if (e instanceof SalientError && BAD_INPUT.has(e.code)) throw unrecoverable(`${e.code}: ${e.message}`);
        throw e;
      }
      if (played.outcome.kind === 'cancelled') {
        interrupted = { i, outcome: played.outcome };
        break;
      }
      outcomes[i] = played.outcome;
      unrecorded.push({ i, outcome: played.outcome });
    }
    if (interrupted) break;
    if (unrecorded.length && (p === pairs.length - 1 || performance.now() - recordedAt >= (s ? RECORD_TELEMETRY_MS : RECORD_MS))) await flush();
  }
  // The job is done only when its rows are in the store (or spooled) and its games recorded: a worker
  // killed before this leaves the rest to be played again, and the rows' deterministic keys keep the
  // replay one copy. The wait is bounded (each insert by its timeout; with the server known away, none at all).
  if (unrecorded.length) await flush();
  else if (s) await s.drain();
  if (outcomes.every((o) => o !== undefined)) return outcomes as MatchOutcome[];
  if (signal?.aborted && signal.reason === SHUTDOWN) return stopped(job, token, SHUTDOWN);
  const cancelled = halt === 'cancel' || (signal?.aborted && signal.reason === CANCELLED);
  // The stop rule decided: the rest of the batch is not played (as the waiting jobs are taken off).
  if (!cancelled && halt === 'stop') return outcomes.filter((o): o is MatchOutcome => o !== undefined);
  if (cancelled && outcomes.some((o) => o !== undefined)) {
    const all = matches.map((m, i) => outcomes[i] ?? cancelledOutcome(m, interrupted?.i === i ? interrupted.outcome : undefined));
    if (job.data.feed) {
      const p = redis.multi();
      for (const [i, o] of all.entries()) if (outcomes[i] === undefined) p.hsetnx(resultsKey(tid), o.matchId, JSON.stringify(o));
      await p.exec();
    }
    return all;
  }
  return stopped(job, token, cancelled ? CANCELLED : signal?.reason);
}
