/**
 * The sandboxed match processor: BullMQ runs this file (compiled to one JS module by
 * `buildProcessor`) in a child process per concurrent job, so a CPU-bound game never starves the
 * worker's lock renewal. It plays the job's planned matches (a side-swapped pair, or one match) through
 * `playPlanned` (the same code as every other path), writes telemetry through a sink opened here from
 * the environment and drained before the job is reported done, and returns the `MatchOutcome`s as the
 * job's return value.
 *
 * Failures: bad input (unknown game, pack, scenario or bot, bad parameters) is `UnrecoverableError`,
 * failed at once; anything else (a crash, refused credentials) is thrown as is and retried with
 * backoff. A telemetry server that is down or hung is not a failure: the match is spooled. Engine faults are not failures: they come back as `error` outcomes. A match aborted
 * because its tournament was cancelled fails for good; one aborted because the worker is shutting
 * down goes back to the queue without using up an attempt.
 */
import { UnrecoverableError, type SandboxedJob } from 'bullmq';
import { SalientError } from '@salient/engine';
import { openTelemetry, telemetryConfigFromEnv, type ClickHouseSink, type Telemetry } from '@salient/telemetry';
import { plannedPart, playPlanned } from '../play.ts';
import { allowedJobBots } from './job-bots.ts';
import type { MatchOutcome, PlannedMatch } from '../types.ts';
import type { MatchJobData } from './submit.ts';
import { BAD_INPUT } from './faults.ts';

/** Abort reasons the worker sends (`Worker.cancelJob`). */
export const CANCELLED = 'salient:cancelled';
export const SHUTDOWN = 'salient:shutdown';


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

/** A match of a cancelled pair that was not played to its end. */
function cancelledOutcome(m: PlannedMatch, played?: MatchOutcome): MatchOutcome {
  return played ?? { ...plannedPart(m), kind: 'cancelled', sides: {}, scores: {}, decisions: 0, impulses: 0, wallMs: 0 };
}

/**
 * Play the job's matches (one side-swapped pair, or one match) in order and return their outcomes.
 * Stopped part-way: on shutdown the whole job goes back to the queue; on cancel, a job with a finished
 * match completes with it and `cancelled` outcomes for the rest, one with none fails as cancelled.
 */
export default async function processMatch(job: SandboxedJob<MatchJobData, MatchOutcome[]>, token?: string, signal?: AbortSignal): Promise<MatchOutcome[]> {
  const { matches } = job.data;
  if (signal?.aborted) return stopped(job, token, signal.reason);
  // Before anything runs: a job may come from anyone who reaches Redis (refused for good if not allowed).
  const bots = await allowedJobBots(job.data);
  const s = await matchSink();
  const outcomes: MatchOutcome[] = [];
  let interrupted: MatchOutcome | undefined;
  for (const m of matches) {
    if (signal?.aborted) break;
    let played;
    try {
      played = await playPlanned(m, {
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
      interrupted = played.outcome;
      break;
    }
    outcomes.push(played.outcome);
  }
  // The job is done only when its rows are in the store (or spooled): a worker killed before this
  // leaves the job to be played again, and the rows' deterministic keys keep the replay one copy.
  // The wait is bounded (each insert by its timeout; with the server known away, none at all).
  if (s) await s.drain();
  if (outcomes.length === matches.length) return outcomes;
  if (signal?.reason === CANCELLED && outcomes.length > 0) {
    return matches.map((m, i) => cancelledOutcome(m, outcomes[i] ?? (i === outcomes.length ? interrupted : undefined)));
  }
  return stopped(job, token, signal?.reason);
}
