/**
 * The API's Prometheus metrics: request latency and counts by route and status, plus prom-client's
 * default process metrics, in a registry of the app's own (two apps in one process never clash).
 * The names are fixed: dashboards/salient-operations.json reads them.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const REQUEST_DURATION = 'salient_api_http_request_duration_seconds';
export const REQUESTS_TOTAL = 'salient_api_http_requests_total';
export const BOARD_LOOKUPS = 'salient_api_board_lookups_total';
export const BOARD_CACHE_SIZE = 'salient_api_board_cache_bytes';

export interface ApiMetrics {
  readonly registry: Registry;
  /** Count a board request by how it was answered (board-cache.ts). */
  boardLookup(result: 'kept' | 'waited' | 'drawn'): void;
}

/** Register the metrics hooks on `app` (the root instance, so every route is counted). */
export function apiMetrics(app: FastifyInstance, defaultMetrics = true, boardBytes: () => number = () => 0): ApiMetrics {
  const registry = new Registry();
  if (defaultMetrics) collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status_code'] as const;
  const duration = new Histogram({
    name: REQUEST_DURATION,
    help: 'Time from a request arriving to its response being sent, by method, route pattern and status',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const total = new Counter({ name: REQUESTS_TOTAL, help: 'Requests answered, by method, route pattern and status', labelNames, registers: [registry] });
  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, not the URL: ids and query strings would make a label per request.
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) };
    duration.observe(labels, reply.elapsedTime / 1000);
    total.inc(labels);
  });
  const lookups = new Counter({ name: BOARD_LOOKUPS, help: 'Match boards (replays on the map) answered: kept (from the cache), waited (for a drawing under way), drawn (the replay re-run)', labelNames: ['result'], registers: [registry] });
  new Gauge({ name: BOARD_CACHE_SIZE, help: 'Bytes of board JSON kept in memory', registers: [registry], collect() { this.set(boardBytes()); } });
  return { registry, boardLookup: (result) => lookups.inc({ result }) };
}
