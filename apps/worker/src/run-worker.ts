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
import { redactDeep, SalientError } from '@salient/engine';
import { telemetryConfigFromEnv } from '@salient/telemetry';
import {
  MATCH_QUEUE,
  TOURNAMENT_QUEUE,
  connectRedis,
  describeRedis,
  startWorker,
  type MatchWorker,
} from '@salient/scheduler/bullmq';
import { workerMetrics, type WorkerMetrics } from './metrics.ts';

export const DEFAULT_METRICS_PORT = 9466;

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
  /** How long running matches may finish after SIGTERM before they are handed back (default 30 s). */
  graceMs?: number;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Close on SIGTERM/SIGINT (default true; tests running in-process turn it off). */
  handleSignals?: boolean;
  /** Where log lines go (default: JSON lines on stderr). */
  log?: (line: Record<string, unknown>) => void;
}

export interface WorkerProcess {
  readonly worker: MatchWorker;
  readonly metrics: WorkerMetrics;
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
  if (o.telemetry !== false && concurrency > 1 && telemetryConfigFromEnv().kind === 'embedded') {
    // Each concurrent match runs in its own process, and an embedded store belongs to one process.
    throw new SalientError(
      'BAD_CONFIG',
      `A worker with --concurrency ${concurrency} needs a ClickHouse server for telemetry: the embedded store can be opened by one process only. ` +
        'Set SALIENT_CLICKHOUSE_URL (and _USER, _PASSWORD), or use --concurrency 1, or --no-telemetry.',
    );
  }
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
  metrics = workerMetrics(queues);
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
      res
        .writeHead(ok ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: ok ? 'ok' : closing ? 'closing' : 'not running', worker: worker.name, running: worker.running() }) + '\n');
    } else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try /metrics or /health\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.metricsPort ?? DEFAULT_METRICS_PORT, o.metricsHost, () => resolve());
  });
  const metricsPort = (server.address() as AddressInfo).port;
  log({ level: 'info', msg: 'worker started', worker: worker.name, redis: describeRedis(o.redis), concurrency, metricsPort, processor: worker.processorFile });

  const graceMs = o.graceMs ?? 30_000;
  let signals: { uninstall(): void } | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      log({ level: 'info', msg: 'worker closing', running: worker.running(), graceMs });
      await worker.close({ graceMs });
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
  return { worker, metrics: m, metricsPort, close };
}
