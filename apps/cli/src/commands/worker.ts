/**
 * `salient worker`: take matches from a Redis queue and play them until told to stop (SIGTERM or
 * Ctrl-C: running matches finish, or go back to the queue after the grace period). Telemetry goes
 * where `SALIENT_CLICKHOUSE_*` say; several workers need a ClickHouse server (an embedded store
 * belongs to one process).
 */
import type { Command } from 'commander';
import { runWorkerProcess, workerProcessOptionsFromEnv } from '@salient/worker';
import { commandDescription } from './summaries.ts';

interface WorkerFlags {
  redis?: string;
  concurrency?: string;
  metricsPort?: string;
  graceMs?: string;
  telemetry: boolean;
  bots?: string;
}

export function registerWorker(program: Command): void {
  program
    .command('worker')
    .description(commandDescription('worker'))
    .option('--redis <url>', 'Redis to take matches from (default: SALIENT_REDIS_URL)')
    .option('--concurrency <n>', 'match jobs (side-swapped pairs) at once, each in its own process (default: SALIENT_WORKER_CONCURRENCY or 1)')
    .option('--metrics-port <port>', 'port of /metrics and /health (default: SALIENT_METRICS_PORT or 9466)')
    .option('--grace-ms <ms>', 'on SIGTERM, how long running matches may finish before going back to the queue', '30000')
    .option('--no-telemetry', 'do not write telemetry')
    .option('--bots <file>', 'the bots file: registered ext:<name> bots and the cmd:/http: bots allowed here; without one only built-in bots play (default: SALIENT_BOTS_FILE)')
    .action(async (f: WorkerFlags) => {
      const o = workerProcessOptionsFromEnv(process.env, { redis: f.redis, concurrency: f.concurrency, metricsPort: f.metricsPort, bots: f.bots });
      const grace = Number(f.graceMs);
      await runWorkerProcess({ ...o, telemetry: f.telemetry, ...(Number.isFinite(grace) && grace >= 0 ? { graceMs: grace } : {}) });
      // The process now lives until close-with-grace ends it on a signal.
    });
}
