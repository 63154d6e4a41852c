/**
 * Tournaments under real faults (short versions of `npm run bench:faults`): a ClickHouse server that
 * is down when the workers start, killed mid-run with a worker replaced meanwhile, and hung; a pair
 * whose worker dies more often than the stall limit allows, then retried (the bench adds worker kills,
 * Redis restarts and a local run killed and resumed, which other tests cover in short). Real
 * redis-server, clickhouse-server and worker processes. In every run each planned match
 * ends up in the store exactly once, and no job fails for the store's sake.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from './support/cluster.ts';
import { stallThenRetry, storeDownAtStart, storeOutage } from './support/fault-runs.ts';

let c: Cluster;

beforeAll(async () => {
  // No schema yet: the workers' children create it once the server answers.
  c = await startCluster({ database: 'salient_faults', migrate: false });
}, 90_000);

afterAll(async () => {
  await c?.dispose();
}, 60_000);

describe('tournaments under faults', () => {
  it('ClickHouse down when the workers start: every match is played and spooled, none fails; the workers report it, then migrate and deliver when it answers', async () => {
    const { figures, workers, during, health } = await storeDownAtStart(c, 20);
    expect(figures).toMatchObject({ planned: 20, failedJobs: 0, recorded: 20, doubled: 0, lost: 0 });
    // What the operator saw while the store was away: status, /health, metrics and log lines.
    expect(during.counts).toMatchObject({ completed: 20, failed: 0 });
    expect(during.spool.map((w) => w.worker)).toEqual(['down-1']);
    expect(health).toMatchObject({ status: 'ok', telemetry: { spooling: true, pending: 20 } });
    const w = workers[0]!;
    expect(w.log.some((l) => l.msg === 'telemetry spooling: finished matches wait for the ClickHouse server')).toBe(true);
    expect(w.log.some((l) => l.msg === 'telemetry spool delivered: nothing waiting' && l.delivered === 20)).toBe(true);
    expect(await (await w.get('/metrics')).text()).toMatch(/^salient_spool_pending_matches 0$/m);
    expect(await (await w.get('/health')).json()).toMatchObject({ telemetry: { spooling: false, pending: 0 } });
    for (const x of workers) x.killGroup('SIGTERM');
    await Promise.all(workers.map((x) => x.exited));
  }, 180_000);

  it('ClickHouse killed mid-run (a worker replaced while it is down), then hung: no job fails, every match once', async () => {
    const figures = await storeOutage(c, 160, { killAtMs: 1000, downMs: 2500, hangAtMs: 5000, hangMs: 2500, writeTimeoutMs: 1000 });
    expect(figures).toMatchObject({ planned: 160, failedJobs: 0, recorded: 160, doubled: 0, lost: 0 });
    expect(figures.spooledPeak).toBeGreaterThan(0);
  }, 300_000);

  it('a pair whose worker is killed every time it plays it is given up as an infrastructure fault, and tournament retry plays it', async () => {
    const { figures, failed } = await stallThenRetry(c, 3);
    expect(failed).toHaveLength(2);
    for (const f of failed) {
      expect(f.fault).toBe('infrastructure');
      expect(f.reason).toMatch(/stalled more than allowable limit.*salient tournament retry f-stall/);
    }
    expect(figures).toMatchObject({ planned: 2, failedJobs: 2, recorded: 2, doubled: 0, lost: 0 });
  }, 180_000);
});
