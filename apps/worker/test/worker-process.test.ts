/** `runWorkerProcess` in this process against a real redis-server: HTTP endpoints, metrics, options. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type TestRedisServer } from '../../../test/support/redis-server.ts';
import { submitTournament } from '@salient/scheduler/bullmq';
import { blitzPlan, waitFinished } from '../../../packages/scheduler/test/bullmq-support.ts';
import { mergeExpositions, runWorkerProcess, workerProcessOptionsFromEnv, type WorkerProcess } from '../src/index.ts';

let redis: TestRedisServer;
let wp: WorkerProcess;
const log: Record<string, unknown>[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  wp = await runWorkerProcess({ redis: redis.url, metricsPort: 0, telemetry: false, handleSignals: false, name: 'wp', log: (l) => log.push(l) });
}, 60_000);

afterAll(async () => {
  await wp?.close();
  await redis?.dispose();
});

describe('worker process', () => {
  it('counts matches, decisions and durations in /metrics, with the queue metrics; /health answers', async () => {
    await submitTournament(blitzPlan('t-metrics', [['random', 'random', 1], ['random', 'random', 2], ['crash:after=2', 'random', 3]]), { connection: redis.url });
    const done = await waitFinished('t-metrics', redis.url);
    const base = `http://127.0.0.1:${wp.metricsPort}`;
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', worker: 'wp', running: 0 });
    const text = await (await fetch(`${base}/metrics`)).text();
    const value = (re: RegExp) => Number(re.exec(text)?.[1]);
    const kinds = done.outcomes.map((o) => o.kind);
    expect(value(/^salient_matches_total\{result="forfeit"\} (\d+)/m)).toBe(1);
    expect(value(/^salient_matches_total\{result="completed"\} (\d+)/m) + (value(/^salient_matches_total\{result="adjudicated"\} (\d+)/m) || 0)).toBe(
      kinds.filter((k) => k !== 'forfeit').length,
    );
    expect(value(/^salient_decisions_total (\d+)/m)).toBe(done.outcomes.reduce((n, o) => n + o.decisions, 0));
    expect(value(/^salient_match_duration_seconds_count (\d+)/m)).toBe(3);
    expect(text).toMatch(/^bullmq_job_count\{queue="salient-matches", state="completed"\} 3$/m);
    expect(text).toMatch(/^bullmq_job_count\{queue="salient-tournaments", state="completed"\} 1$/m);
    expect(text).toMatch(/^process_resident_memory_bytes /m);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    expect(log.filter((l) => l.msg === 'match done')).toHaveLength(3);
  });

  it('refuses to start with no shared store (the embedded store is one machine\'s), and Redis that is not there', async () => {
    const saved = process.env.SALIENT_CLICKHOUSE_URL;
    delete process.env.SALIENT_CLICKHOUSE_URL;
    try {
      for (const concurrency of [1, 2]) {
        await expect(runWorkerProcess({ redis: redis.url, concurrency, metricsPort: 0, handleSignals: false })).rejects.toMatchObject({
          code: 'BAD_CONFIG',
          message: expect.stringMatching(/none is configured .*Set SALIENT_CLICKHOUSE_URL .*--no-telemetry/),
        });
      }
    } finally {
      if (saved !== undefined) process.env.SALIENT_CLICKHOUSE_URL = saved;
    }
    await expect(runWorkerProcess({ redis: 'redis://127.0.0.1:1', metricsPort: 0, telemetry: false, handleSignals: false })).rejects.toMatchObject({ code: 'QUEUE_UNREACHABLE' });
  });

  it('reads its settings from the environment, flags first, and names a bad one', () => {
    expect(workerProcessOptionsFromEnv({ SALIENT_REDIS_URL: 'redis://r:6379' })).toEqual({ redis: 'redis://r:6379', concurrency: 1, metricsPort: 9466 });
    expect(workerProcessOptionsFromEnv({ SALIENT_REDIS_URL: 'redis://r', SALIENT_WORKER_CONCURRENCY: '4' }, { redis: 'redis://x', metricsPort: '9000' })).toEqual({
      redis: 'redis://x',
      concurrency: 4,
      metricsPort: 9000,
    });
    expect(() => workerProcessOptionsFromEnv({})).toThrow(/SALIENT_REDIS_URL/);
    expect(() => workerProcessOptionsFromEnv({ SALIENT_REDIS_URL: 'redis://r', SALIENT_WORKER_CONCURRENCY: '0' })).toThrow(/SALIENT_WORKER_CONCURRENCY=0/);
  });

  it('merges queue expositions under one HELP and TYPE per metric', () => {
    const a = '# HELP m x\n# TYPE m gauge\nm{queue="a"} 1';
    const b = '# HELP m x\n# TYPE m gauge\nm{queue="b"} 2';
    expect(mergeExpositions([a, b])).toBe('# HELP m x\n# TYPE m gauge\nm{queue="a"} 1\nm{queue="b"} 2');
  });
});
