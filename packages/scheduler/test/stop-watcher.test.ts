/**
 * The queue's stop rule when Redis refuses a write for a moment: a real redis-server whose ACL denies
 * HSET for a while (the write fails with NOPERM, as it would with the server away), fed the outcomes a
 * local run of the SPRT example gave, job by job in plan order, as workers would.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { startRedisServer, type TestRedisServer } from '../../../test/support/redis-server.ts';
import { loadTournamentSpec } from '../src/spec.ts';
import { planTournament } from '../src/plan.ts';
import { planKey, resultsKey, stopWatcher, type StopEvent } from '../src/bullmq/index.ts';
import { matchJobs } from '../src/bullmq/submit.ts';
import { runLocalTournament } from '../src/local/index.ts';

let server: TestRedisServer;
beforeAll(async () => {
  server = await startRedisServer();
}, 60_000);
afterAll(async () => {
  await server?.dispose();
});

it('a results write Redis refuses for a while is retried, and the test still stops at the pair the local pool does', async () => {
  const plan = await planTournament(await loadTournamentSpec(fileURLToPath(new URL('../../../examples/tournaments/blitz-sprt.yaml', import.meta.url))));
  const local = await runLocalTournament({ plan, threads: 2 });
  expect(local.stopped).toBeDefined();
  const byId = new Map(local.outcomes.map((o) => [o.matchId, o]));

  const admin = new Redis(server.url);
  const flags = new Redis(server.url, { maxRetriesPerRequest: 1 });
  const watcher = stopWatcher(flags, server.url);
  try {
    await admin.set(planKey(plan.tournamentId), JSON.stringify(plan));
    const jobs = matchJobs(plan.matches);
    let event: StopEvent | undefined;
    let refused = false;
    for (const [k, job] of jobs.entries()) {
      const outcomes = job.matches.map((m) => byId.get(m.id));
      if (outcomes.some((o) => o === undefined)) break; // after the local stop: never played there
      if (k === 5) {
        // Writes of results fail from now for 700 ms: this job's outcomes must still reach the test.
        await admin.call('ACL', 'SETUSER', 'default', '-hset');
        refused = await flags.hset(resultsKey('probe'), 'x', '1').then(
          () => false,
          (e: Error) => /NOPERM/.test(e.message),
        );
        setTimeout(() => void admin.call('ACL', 'SETUSER', 'default', '+hset'), 700);
      }
      // A worker logs a failed update and goes on; so does this loop.
      event = await watcher.jobEnded(job, { outcomes: outcomes as NonNullable<(typeof outcomes)[number]>[] }).catch(() => undefined);
      if (event) break;
    }
    expect(refused, 'the ACL should have made HSET fail').toBe(true);
    expect(event?.reason).toBe(local.stopped!.reason);
    expect(await admin.hexists(resultsKey(plan.tournamentId), jobs[5]!.matches[0]!.id)).toBe(1);
  } finally {
    await admin.call('ACL', 'SETUSER', 'default', '+hset').catch(() => undefined);
    await watcher.close();
    flags.disconnect();
    admin.disconnect();
  }
}, 120_000);
