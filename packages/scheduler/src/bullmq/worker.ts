/**
 * `startWorker`: a BullMQ worker for match jobs (sandboxed: each concurrent job plays its batch of
 * side-swapped pairs in its own child process, running the compiled processor) and a light in-process worker that completes the
 * tournament flow parents once their matches are done. It also watches the cancel flags of the
 * tournaments it is playing and aborts their matches within `cancelPollMs`, and runs their stop rules
 * (`stop: sprt`; see `stop.ts`): the worker that sees a test decide takes the rest off the queue.
 *
 * Shutdown (`close`): the worker stops taking jobs and lets running matches finish; past `graceMs`
 * it aborts them and puts them back on the queue (no attempt used), where another worker plays them
 * from the start. Telemetry rows of the abandoned part carry the same keys as the replay's, so
 * nothing is counted twice. A worker killed outright (SIGKILL, power loss) leaves its jobs locked
 * until the lock expires (`lockDurationMs`); the stalled-job check of any live worker then puts them
 * back the same way.
 */
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { BOTS_FILE_ENV, loadBotsFile } from '@salient/bots';
import type { MatchOutcome } from '../types.ts';
import type { MatchJobData } from './submit.ts';
import { buildProcessor } from './build-processor.ts';
import { bullConnection } from './connection.ts';
import { MATCH_QUEUE, QUEUE_URL_ENV, TOURNAMENT_QUEUE, cancelKey } from './names.ts';
import { CANCELLED, SHUTDOWN } from './processor.ts';
import { stopWatcher, type StopEvent } from './stop.ts';

export interface StartWorkerOptions {
  /** Redis URL. */
  connection: string;
  /** Match jobs played at once, each in its own child process (default 1). */
  concurrency?: number;
  /** Recorded with every match (`worker` in outcomes and telemetry); default `host:pid`. */
  name?: string;
  /** Write telemetry from the environment (`SALIENT_CLICKHOUSE_*`; default true). */
  telemetry?: boolean;
  /** How long a job's lock lasts without renewal (default 30 000 ms); a killed worker's match is replayed after about this long. */
  lockDurationMs?: number;
  /** How often stalled jobs are looked for (default 30 000 ms). */
  stalledIntervalMs?: number;
  /** How often cancel flags are checked (default 500 ms). */
  cancelPollMs?: number;
  /** Where the compiled processor is kept (default: see `buildProcessor`). */
  cacheDir?: string;
  /**
   * The operator's bots file (docs/bot-protocol.md, "Registered bots"): the `ext:<name>` bots this
   * worker plays, and the `cmd:` command lines and hosts it allows. Default: none, so a job whose
   * seat would run a command or call a host fails for good. Checked now; the children read it.
   */
  botsFile?: string;
  /** Called for every match job (a batch of side-swapped pairs) that ends here, completed or failed. */
  onMatch?: (event: MatchEvent) => void;
  /** A stop rule decided here (an SPRT accepted H0 or H1), and the tournament's waiting matches were taken off the queue. */
  onStop?: (event: StopEvent) => void;
  /** Worker errors (lost connections and the like); BullMQ retries on its own. */
  onError?: (error: Error) => void;
}

/** A match job ended: `completed` with the outcome of each of its matches, or `failed` for all `matches` of it. */
export type MatchEvent =
  | { kind: 'completed'; jobId: string; outcomes: MatchOutcome[]; durationMs: number }
  | { kind: 'failed'; jobId: string; matches: number; reason: string; willRetry: boolean; durationMs: number };

export interface MatchWorker {
  readonly name: string;
  /** The compiled processor file the children run. */
  readonly processorFile: string;
  /** The underlying BullMQ workers, for metrics and tests. */
  readonly matches: Worker<MatchJobData, MatchOutcome[]>;
  readonly tournaments: Worker;
  /** Match jobs running here now. */
  running(): number;
  /** Stop as described above. Idempotent. */
  close(options?: { graceMs?: number }): Promise<void>;
}

export async function startWorker(o: StartWorkerOptions): Promise<MatchWorker> {
  const name = o.name ?? `${hostname()}:${process.pid}`;
  const botsFile = o.botsFile !== undefined ? resolve(o.botsFile) : undefined;
  // A bad file fails the start, not every job after it.
  if (botsFile !== undefined) await loadBotsFile(botsFile);
  const processorFile = await buildProcessor(o.cacheDir);
  const lockDuration = o.lockDurationMs ?? 30_000;
  const matches = new Worker<MatchJobData, MatchOutcome[]>(MATCH_QUEUE, processorFile, {
    connection: bullConnection(o.connection),
    concurrency: o.concurrency ?? 1,
    name,
    lockDuration,
    stalledInterval: o.stalledIntervalMs ?? 30_000,
    // A Redis restart can cost a job one stall on top of a crash; a third stall is a real problem.
    maxStalledCount: 2,
    // Per-minute completed/failed counts kept in Redis for `exportPrometheusMetrics` (one day).
    metrics: { maxDataPoints: 24 * 60 },
    workerForkOptions: {
      // The child runs compiled JS: no tsx loader (and none of the parent's inspector flags).
      execArgv: [],
      env: {
        ...process.env,
        SALIENT_WORKER_NAME: name,
        // The children record each game as it ends (see processor.ts).
        [QUEUE_URL_ENV]: o.connection,
        SALIENT_PROCESSOR_TELEMETRY: o.telemetry === false ? '0' : '1',
        // Always set, so a file named only in this process's environment never applies unasked.
        [BOTS_FILE_ENV]: botsFile ?? '',
      },
    },
  });
  const tournaments = new Worker(
    TOURNAMENT_QUEUE,
    async (job: Job) => job.getDependenciesCount({ processed: true, ignored: true, failed: true }),
    { connection: bullConnection(o.connection), name },
  );
  const onError = (e: Error) => o.onError?.(e);
  matches.on('error', onError);
  tournaments.on('error', onError);

  // Cancel flags of the tournaments whose matches run here.
  const active = new Map<string, string>(); // job id -> tournament id
  const flags = new Redis(o.connection, { maxRetriesPerRequest: 1, lazyConnect: false });
  flags.on('error', () => {}); // a missed check is made again next tick
  let checking = false;
  const checkCancels = async (): Promise<void> => {
    if (checking || active.size === 0) return;
    checking = true;
    try {
      const tids = [...new Set(active.values())];
      const set = await flags.mget(...tids.map(cancelKey));
      tids.forEach((tid, i) => {
        if (set[i] === null || set[i] === undefined) return;
        for (const [jobId, t] of active) if (t === tid) matches.cancelJob(jobId, CANCELLED);
      });
    } catch {
      // Redis away: checked again next tick.
    } finally {
      checking = false;
    }
  };
  const stops = stopWatcher(flags, o.connection);
  const stopRule = (job: Job<MatchJobData, MatchOutcome[]>, ended?: Parameters<typeof stops.jobEnded>[1]) =>
    void stops.jobEnded(job.data, ended).then(
      (e) => e && o.onStop?.(e),
      (e: unknown) => onError(e instanceof Error ? e : new Error(String(e))),
    );
  const timer = setInterval(() => void checkCancels(), o.cancelPollMs ?? 500);
  timer.unref();
  matches.on('active', (job) => {
    if (job.id) active.set(job.id, job.data.tournamentId);
    void checkCancels();
  });
  const ended = (job: Job<MatchJobData, MatchOutcome[]> | undefined) => {
    if (job?.id) active.delete(job.id);
    return job ? Date.now() - (job.processedOn ?? Date.now()) : 0;
  };
  // A batch of a `stop: sprt` tournament reports progress as its games are recorded (and fed to the
  // test): the test is brought up to date pair by pair, not only when the batch ends.
  matches.on('progress', (job) => {
    if (job.data.feed) stopRule(job);
  });
  matches.on('completed', (job, outcomes) => {
    const durationMs = ended(job);
    o.onMatch?.({ kind: 'completed', jobId: job.id ?? '', outcomes, durationMs });
    if (job.data.feed) stopRule(job);
  });
  matches.on('failed', (job, err) => {
    const durationMs = ended(job);
    if (!job || err.name === 'WaitingError') return;
    const willRetry = err.name !== 'UnrecoverableError' && job.attemptsMade < (job.opts.attempts ?? 1);
    o.onMatch?.({ kind: 'failed', jobId: job.id ?? '', matches: job.data.matches.length, reason: err.message, willRetry, durationMs });
    if (!willRetry && job.data.feed) stopRule(job, { reason: err.message });
  });

  let closing: Promise<void> | undefined;
  return {
    name,
    processorFile,
    matches,
    tournaments,
    running: () => active.size,
    close: ({ graceMs = 30_000 } = {}) =>
      (closing ??= (async () => {
        clearInterval(timer);
        const release = setTimeout(() => matches.cancelAllJobs(SHUTDOWN), graceMs);
        try {
          await Promise.all([matches.close(), tournaments.close()]);
        } finally {
          clearTimeout(release);
          await stops.close().catch(() => {});
          flags.disconnect();
        }
      })()),
  };
}
