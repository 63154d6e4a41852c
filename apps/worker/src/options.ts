/** Worker settings from the environment (the names infra and docs use), checked. */
import { SalientError } from '@salient/engine';
import { DEFAULT_METRICS_PORT, type WorkerProcessOptions } from './run-worker.ts';

function whole(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min) throw new SalientError('BAD_CONFIG', `${name}=${raw} must be a whole number >= ${min}.`);
  return v;
}

/**
 * `SALIENT_REDIS_URL` (required unless `redis` is given), `SALIENT_WORKER_CONCURRENCY` (default 1),
 * `SALIENT_METRICS_PORT` (default 9466), `SALIENT_BOTS_FILE` (default none). Values given in `over`
 * (command-line flags) win.
 */
export function workerProcessOptionsFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
  over: { redis?: string | undefined; concurrency?: string | undefined; metricsPort?: string | undefined; bots?: string | undefined } = {},
): WorkerProcessOptions {
  const redis = over.redis ?? env.SALIENT_REDIS_URL;
  if (!redis) throw new SalientError('BAD_CONFIG', 'No Redis to take matches from: pass --redis redis://host:6379 or set SALIENT_REDIS_URL.');
  const botsFile = over.bots ?? env.SALIENT_BOTS_FILE;
  return {
    ...(botsFile !== undefined && botsFile.trim() !== '' ? { botsFile } : {}),
    redis,
    concurrency: whole(over.concurrency !== undefined ? '--concurrency' : 'SALIENT_WORKER_CONCURRENCY', over.concurrency ?? env.SALIENT_WORKER_CONCURRENCY, 1, 1),
    metricsPort: whole(over.metricsPort !== undefined ? '--metrics-port' : 'SALIENT_METRICS_PORT', over.metricsPort ?? env.SALIENT_METRICS_PORT, DEFAULT_METRICS_PORT, 0),
  };
}
