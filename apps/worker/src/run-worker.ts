/**
 * `runWorkerProcess`: what `salient worker` runs. A BullMQ match worker (sandboxed children) on the
 * given Redis, an HTTP server with `/metrics` (Prometheus) and `/health`, structured log lines on
 * stderr, and a graceful close on SIGTERM/SIGINT: stop taking matches, let running ones finish for
 * up to `graceMs`, then put them back on the queue for other workers, and exit.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import closeWithGrace from 'close-with-grace';
import { Redis } from 'ioredis';
import { redactDeep, SalientError } from '@salient/engine';
import { loadBotsFile } from '@salient/bots';
import { openTelemetry, telemetryConfigFromEnv, type Telemetry } from '@salient/telemetry';
import {
  MATCH_QUEUE,
  TOURNAMENT_QUEUE,
  connectRedis,
  describeRedis,
  publishSpool,
  startWorker,
  type MatchWorker,
} from '@salient/scheduler/bullmq';
import { workerMetrics, type WorkerMetrics } from './metrics.ts';
import { watchSpool, type SpoolSnapshot, type SpoolWatch } from './spool-watch.ts';

export const DEFAULT_METRICS_PORT = 9466;

/** A spooled match older than this is delivered by the worker itself if no child has done it. */
const ORPHAN_AFTER_MS = 5000;

export interface WorkerProcessOptions {
  /** Redis URL (`SALIENT_REDIS_URL`). */
  redis: string;
  /** Matches at once (`SALIENT_WORKER_CONCURRENCY`, default 1). */
  concurrency?: number;
  /** Port of `/metrics` and `/health` (`SALIENT_METRICS_PORT`, default 9466; 0 picks a free one). */
  metricsPort?: number;
  /** Interface the metrics server listens on (default all). */
  metricsHost?: string;
  /** Worker name recorded with its matches (default host:pid). */
  name?: string;
  /** Write telemetry from `SALIENT_CLICKHOUSE_*` (default true). */
  telemetry?: boolean;
  /**
   * The operator's bots file (`SALIENT_BOTS_FILE`, `--bots`): the `ext:<name>` bots this worker plays
   * and the command lines and hosts it allows. Default none: only built-in bots play.
   */
  botsFile?: string;
  /** How long running matches may finish after SIGTERM before they are handed back (default 30 s). */
  graceMs?: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Close on SIGTERM/SIGINT (default true; tests running in-process turn it off). */
  handleSignals?: boolean;
  /** Where log lines go (default: JSON lines on stderr). */
  log?: (line: Record<string, unknown>) => void;
  /** How often the telemetry spool is looked at (default 1000 ms). */
  spoolWatchMs?: number;
}

export interface WorkerProcess {
  readonly worker: MatchWorker;
  readonly metrics: WorkerMetrics;
  /** The telemetry spool as last seen (absent without telemetry). */
  readonly spool: SpoolWatch | undefined;
  /** The port `/metrics` listens on. */
  readonly metricsPort: number;
  /** Graceful close, as on SIGTERM. Idempotent. */
  close(): Promise<void>;
}

function stderrLog(line: Record<string, unknown>): void {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...line })}\n`);
}

export async function runWorkerProcess(o: WorkerProcessOptions): Promise<WorkerProcess> {
  const sink = o.log ?? stderrLog;
  // Queue and telemetry errors may quote a Redis or ClickHouse URL with its password: never logged.
  const log = (line: Record<string, unknown>): void => sink(redactDeep(line));
  const concurrency = o.concurrency ?? 1;
  const telemetryConfig = o.telemetry !== false ? telemetryConfigFromEnv() : undefined;
  if (telemetryConfig?.kind === 'embedded') {
    // A worker's matches must reach the store every worker and the dashboard read. An embedded store
    // is this host's alone (and one process's): every match written there would be missing from
    // everyone else's results, so the worker refuses to start rather than play into it.
    throw new SalientError(
      'BAD_CONFIG',
      `A worker writes its matches to the ClickHouse server the other workers and the dashboard share, and none is configured (the embedded store in ${telemetryConfig.path} is this machine's alone). ` +
        'Set SALIENT_CLICKHOUSE_URL (and SALIENT_CLICKHOUSE_USER, SALIENT_CLICKHOUSE_PASSWORD), or start it with --no-telemetry to play without recording. ' +
        'To play a tournament on this machine alone, use `salient tournament run`.',
    );
  }
  // A bad bots file is the operator's to fix before anything starts (startWorker reads it again).
  if (o.botsFile !== undefined) await loadBotsFile(o.botsFile);
  // Fail at once with QUEUE_UNREACHABLE if Redis is not there; later losses are retried by BullMQ.
  (await connectRedis(o.redis)).disconnect();
  const queues = [new Queue(MATCH_QUEUE, { connection: { url: o.redis } }), new Queue(TOURNAMENT_QUEUE, { connection: { url: o.redis } })];
  for (const q of queues) q.on('error', () => {});
  let metrics: WorkerMetrics | undefined;
  const worker = await startWorker({
    connection: o.redis,
    concurrency,
    ...(o.name !== undefined ? { name: o.name } : {}),
    ...(o.telemetry !== undefined ? { telemetry: o.telemetry } : {}),
    ...(o.botsFile !== undefined ? { botsFile: o.botsFile } : {}),
    ...(o.lockDurationMs !== undefined ? { lockDurationMs: o.lockDurationMs } : {}),
    ...(o.stalledIntervalMs !== undefined ? { stalledIntervalMs: o.stalledIntervalMs } : {}),
    onMatch: (e) => {
      metrics?.record(e);
      if (e.kind === 'completed') {
        for (const x of e.outcomes) log({ level: 'info', msg: 'match done', job: e.jobId, match: x.matchId, result: x.kind, decisions: x.decisions, ms: x.wallMs });
      } else log({ level: e.willRetry ? 'warn' : 'error', msg: 'match job failed', job: e.jobId, matches: e.matches, reason: e.reason, willRetry: e.willRetry });
    },
    onStop: (e) => log({ level: 'info', msg: 'tournament stopped by its stop rule', tournament: e.tournamentId, reason: e.reason, removed: e.removed }),
    onError: (e) => log({ level: 'warn', msg: 'queue error', error: e.message }),
  });
  // The children spool matches the store cannot take, and deliver them when it answers; the worker
  // watches the spool to say so (log, /metrics, /health, and a report in Redis for status). With a
  // server it also delivers what no child will: a spool left by children that died (a worker killed
  // and replaced on this host) or that take no more jobs. Files are claimed, so each match is sent once.
  let reporter: Redis | undefined;
  let deliverer: Promise<Telemetry | undefined> | undefined;
  const orphans = async (snap: SpoolSnapshot): Promise<void> => {
    if (telemetryConfig?.kind !== 'server' || snap.pending === 0 || snap.oldestAt === undefined) return;
    // The children deliver their own as soon as the server answers; step in only for what waits longer.
    if (Date.now() - snap.oldestAt < ORPHAN_AFTER_MS) return;
    deliverer ??= openTelemetry(telemetryConfig, { whenUnreachable: 'spool' }).catch((e: unknown) => {
      log({ level: 'warn', msg: 'cannot open the telemetry store to deliver the spool', error: e instanceof Error ? e.message : String(e) });
      deliverer = undefined;
      return undefined;
    });
    const t = await deliverer;
    if (!t?.link().up) return; // its link probes, and delivers once the server answers
    await t.deliverSpool().catch((e: unknown) => log({ level: 'warn', msg: 'spool delivery failed', error: e instanceof Error ? e.message : String(e) }));
  };
  const spool: SpoolWatch | undefined = telemetryConfig
    ? watchSpool({
        dir: telemetryConfig.spoolDir,
        ...(o.spoolWatchMs !== undefined ? { intervalMs: o.spoolWatchMs } : {}),
        log,
        onLook: async (snap) => {
          await orphans(snap);
          if (snap.pending === 0 && reporter === undefined) return;
          if (!reporter) {
            reporter = new Redis(o.redis, { maxRetriesPerRequest: 1, lazyConnect: false });
            reporter.on('error', () => {}); // reported again at the next look
          }
          await publishSpool(reporter, {
            worker: worker.name,
            pending: snap.pending,
            updatedAt: new Date(snap.at).toISOString(),
            ...(snap.oldestAt !== undefined ? { oldestAt: new Date(snap.oldestAt).toISOString() } : {}),
            ...(snap.since !== undefined ? { since: new Date(snap.since).toISOString() } : {}),
          }).catch(() => {});
        },
      })
    : undefined;
  metrics = workerMetrics(queues, {}, spool ? () => spool.current() : undefined);
  const m = metrics;
  let closing: Promise<void> | undefined;

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/metrics') {
      m.text().then(
        (body) => res.writeHead(200, { 'content-type': m.contentType }).end(body),
        (e: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${String(e)}\n`),
      );
    } else if (req.method === 'GET' && path === '/health') {
      const ok = closing === undefined && worker.matches.isRunning();
      const snap = spool?.current();
      // Spooling is not a reason to restart a worker (it plays on, and delivers when the store is
      // back), so it stays 200; the body says so.
      const telemetry = snap
        ? {
            spooling: snap.pending > 0,
            pending: snap.pending,
            ...(snap.oldestAt !== undefined ? { oldestAgeSeconds: Math.round((Date.now() - snap.oldestAt) / 1000) } : {}),
          }
        : { enabled: false };
      res
        .writeHead(ok ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: ok ? 'ok' : closing ? 'closing' : 'not running', worker: worker.name, running: worker.running(), telemetry }) + '\n');
    } else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try /metrics or /health\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.metricsPort ?? DEFAULT_METRICS_PORT, o.metricsHost, () => resolve());
  });
  const metricsPort = (server.address() as AddressInfo).port;
  log({ level: 'info', msg: 'worker started', worker: worker.name, redis: describeRedis(o.redis), concurrency, metricsPort, processor: worker.processorFile, botsFile: o.botsFile ?? null });

  const graceMs = o.graceMs ?? 30_000;
  let signals: { uninstall(): void } | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      log({ level: 'info', msg: 'worker closing', running: worker.running(), graceMs });
      await worker.close({ graceMs });
      spool?.close();
      await (await deliverer)?.close().catch(() => {});
      if (reporter) {
        // The last word: what is still spooled here (or nothing) as the worker leaves.
        if (spool) await spool.look();
        reporter.disconnect();
      }
      await Promise.all(queues.map((q) => q.close()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      log({ level: 'info', msg: 'worker closed' });
      signals?.uninstall();
    })());

  if (o.handleSignals !== false) {
    // close-with-grace also closes on uncaught errors; its delay backs up our own grace.
    signals = closeWithGrace({ delay: graceMs + 15_000, logger: { error: (msg: unknown) => log({ level: 'error', msg: String(msg) }) } }, async ({ signal, err }) => {
      if (err) log({ level: 'error', msg: 'uncaught error', error: err.stack ?? err.message });
      else log({ level: 'info', msg: 'signal', signal });
      await close();
    });
  }
  return { worker, metrics: m, spool, metricsPort, close };
}
