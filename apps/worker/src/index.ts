/**
 * `@salient/worker`: the process behind `salient worker`: a BullMQ match worker with Prometheus
 * metrics and health on HTTP, closing gracefully on SIGTERM.
 *
 * @packageDocumentation
 */
export { runWorkerProcess, DEFAULT_METRICS_PORT, type WorkerProcess, type WorkerProcessOptions } from './run-worker.ts';
export { workerProcessOptionsFromEnv } from './options.ts';
export { workerMetrics, mergeExpositions, type WorkerMetrics } from './metrics.ts';
