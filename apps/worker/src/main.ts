/**
 * Worker entry without the CLI (containers, tests): `node --import tsx apps/worker/src/main.ts
 * [--redis URL] [--concurrency N] [--metrics-port P] [--lock-ms MS] [--stalled-ms MS] [--grace-ms MS]
 * [--name NAME] [--no-telemetry] [--bots FILE]`,
 * defaults from `SALIENT_REDIS_URL`, `SALIENT_WORKER_CONCURRENCY`, `SALIENT_METRICS_PORT`, `SALIENT_BOTS_FILE`.
 */
import { parseArgs } from 'node:util';
import { redactSecrets, SalientError } from '@salient/engine';
import { runWorkerProcess } from './run-worker.ts';
import { workerProcessOptionsFromEnv } from './options.ts';

const { values } = parseArgs({
  options: {
    redis: { type: 'string' },
    concurrency: { type: 'string' },
    'metrics-port': { type: 'string' },
    'lock-ms': { type: 'string' },
    'stalled-ms': { type: 'string' },
    'grace-ms': { type: 'string' },
    name: { type: 'string' },
    'no-telemetry': { type: 'boolean' },
    bots: { type: 'string' },
  },
});

try {
  const base = workerProcessOptionsFromEnv(process.env, { redis: values.redis, concurrency: values.concurrency, metricsPort: values['metrics-port'], bots: values.bots });
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const lock = num(values['lock-ms']);
  const stalled = num(values['stalled-ms']);
  const grace = num(values['grace-ms']);
  await runWorkerProcess({
    ...base,
    ...(lock !== undefined ? { lockDurationMs: lock } : {}),
    ...(stalled !== undefined ? { stalledIntervalMs: stalled } : {}),
    ...(grace !== undefined ? { graceMs: grace } : {}),
    ...(values.name !== undefined ? { name: values.name } : {}),
    ...(values['no-telemetry'] ? { telemetry: false } : {}),
  });
} catch (e) {
  // A Redis or ClickHouse URL in the message keeps its password to itself.
  process.stderr.write(`salient worker: ${redactSecrets(e instanceof SalientError ? e.detail() : e instanceof Error ? (e.stack ?? e.message) : String(e))}\n`);
  process.exit(e instanceof SalientError ? 2 : 1);
}
