/**
 * The worker's Prometheus metrics: matches by result, match duration, decisions played, prom-client's
 * default process metrics, and BullMQ's own queue metrics (jobs by state, completed and failed
 * totals) for both Salient queues, merged into one exposition.
 */
import { Queue } from 'bullmq';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { MatchEvent } from '@salient/scheduler/bullmq';

export interface WorkerMetrics {
  readonly registry: Registry;
  /** Count the matches of one match job that ended on this worker. */
  record(event: MatchEvent): void;
  /** The exposition text for `/metrics`. */
  text(): Promise<string>;
  readonly contentType: string;
}

/** The telemetry spool as the worker last saw it (see `spool-watch.ts`). */
export type SpoolReading = () => { pending: number; oldestAt?: number };

/**
 * `queues`: the BullMQ queues whose counts are exported (the caller closes them); `spool`: the
 * telemetry spool's figures, when the worker writes telemetry.
 */
export function workerMetrics(queues: readonly Queue[], labels: Record<string, string> = {}, spool?: SpoolReading): WorkerMetrics {
  const registry = new Registry();
  registry.setDefaultLabels(labels);
  collectDefaultMetrics({ register: registry });
  const matches = new Counter({
    name: 'salient_matches_total',
    help: 'Matches ended on this worker, by result (completed, adjudicated, forfeit, error, cancelled; failed when their job was given up, retry when it will be tried again)',
    labelNames: ['result'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'salient_match_duration_seconds',
    help: 'Wall time of a match on this worker, as its runner timed it (a job plays a side-swapped pair: two matches)',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    registers: [registry],
  });
  const decisions = new Counter({
    name: 'salient_decisions_total',
    help: 'Bot decisions in matches played on this worker',
    registers: [registry],
  });
  if (spool) {
    new Gauge({
      name: 'salient_spool_pending_matches',
      help: 'Finished matches waiting in this worker\'s telemetry spool for the ClickHouse server (0 when it takes them)',
      registers: [registry],
      collect() {
        this.set(spool().pending);
      },
    });
    new Gauge({
      name: 'salient_spool_oldest_age_seconds',
      help: 'Age of the oldest match waiting in this worker\'s telemetry spool (0 when none)',
      registers: [registry],
      collect() {
        const { oldestAt } = spool();
        this.set(oldestAt === undefined ? 0 : Math.max(0, (Date.now() - oldestAt) / 1000));
      },
    });
  }
  return {
    registry,
    contentType: registry.contentType,
    record: (e) => {
      if (e.kind === 'completed') {
        for (const o of e.outcomes) {
          matches.inc({ result: o.kind });
          decisions.inc(o.decisions);
          duration.observe(o.wallMs / 1000);
        }
      } else matches.inc({ result: e.willRetry ? 'retry' : 'failed' }, e.matches);
    },
    text: async () => {
      const own = await registry.metrics();
      const queueTexts = await Promise.all(queues.map((q) => q.exportPrometheusMetrics().catch(() => '')));
      return `${own.trimEnd()}\n${mergeExpositions(queueTexts)}\n`;
    },
  };
}

/** One HELP and TYPE per metric name, samples of every text under it (queues export the same names). */
export function mergeExpositions(texts: readonly string[]): string {
  const byName = new Map<string, { meta: string[]; samples: string[] }>();
  const entry = (name: string) => {
    let e = byName.get(name);
    if (!e) byName.set(name, (e = { meta: [], samples: [] }));
    return e;
  };
  for (const text of texts) {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const meta = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (meta) {
        const e = entry(meta[2]!);
        if (!e.meta.some((m) => m.startsWith(`# ${meta[1]} `))) e.meta.push(line);
      } else {
        const name = /^[^{\s]+/.exec(line)?.[0] ?? line;
        entry(name).samples.push(line);
      }
    }
  }
  return [...byName.values()].flatMap((e) => [...e.meta, ...e.samples]).join('\n');
}
