/**
 * Match jobs as batches of side-swapped pairs, against a real redis-server: the batch size changes
 * how the plan is cut into jobs and nothing else (same match ids, same games, the SPRT stopping at
 * the same pair); games are recorded one by one, so status moves within a batch, a batch put back
 * after its worker was killed plays only what it had not recorded, and a cancel or a stop ends a
 * running batch between pairs.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startRedisServer, type TestRedisServer } from '../../../test/support/redis-server.ts';
import { parseTournamentSpec } from '../src/spec.ts';
import { planTournament } from '../src/plan.ts';
import { standings } from '../src/standings.ts';
import { replayStopRule } from '../src/stop-rule.ts';
import type { MatchOutcome, PlannedMatch, TournamentPlan } from '../src/types.ts';
import {
  MATCH_QUEUE,
  batchPairsFor,
  cancelTournament,
  matchJobId,
  matchJobs,
  probeGameMs,
  recordedKey,
  startWorker,
  submitTournament,
  tournamentStatus,
  type StopEvent,
} from '../src/bullmq/index.ts';
import { blitzPlan, waitFinished, waitFor } from './bullmq-support.ts';

let redis: TestRedisServer;

beforeAll(async () => {
  redis = await startRedisServer();
}, 60_000);

afterAll(async () => {
  await redis?.dispose();
});

/** Side-swapped pairs of `seat` against random on seeds from `seed0`. */
function pairs(id: string, n: number, seat: string, seed0: number) {
  return blitzPlan(
    id,
    Array.from({ length: 2 * n }, (_, i) => [i % 2 === 0 ? seat : 'random', i % 2 === 0 ? 'random' : seat, seed0 + Math.floor(i / 2)] as [string, string, number]),
  );
}

/** What decides a game's result, without who played it or how long it took. */
const played = (o: MatchOutcome) => ({ matchId: o.matchId, kind: o.kind, sides: o.sides, scores: o.scores, decisions: o.decisions, impulses: o.impulses });

describe('batches of pairs', () => {
  it('cuts the plan into batches of whole pairs in plan order; the size follows the game rate, within the spread cap', () => {
    const plan = pairs('t-cut', 7, 'random', 1);
    const jobs = matchJobs(plan.matches, 3);
    expect(jobs.map((j) => [j.batch, j.matches.map((m) => m.index)])).toEqual([
      [0, [0, 1, 2, 3, 4, 5]],
      [1, [6, 7, 8, 9, 10, 11]],
      [2, [12, 13]],
    ]);
    expect(matchJobs(plan.matches, 1)).toHaveLength(7);
    // 1 s of 5 ms games is 100 pairs, but 7000 pairs must still make 32 jobs; 7 pairs make 7.
    const big: PlannedMatch[] = pairs('t-big', 7000, 'random', 1).matches;
    expect(batchPairsFor(5, 1, big)).toBe(100);
    expect(batchPairsFor(5, 1, big.slice(0, 2 * 640))).toBe(20);
    expect(batchPairsFor(5, 1, plan.matches)).toBe(1);
    expect(batchPairsFor(900, 1, big)).toBe(1);
    expect(batchPairsFor(50, 2, big)).toBe(20);
  });

  it('probes the game rate with built-in bots only, and a fractional time budget', async () => {
    // (The first game here runs cold, and the machine may be busy: a generous budget, not a whole number of ms.)
    const ms = await probeGameMs(pairs('t-probe', 4, 'random', 1).matches, 4999.5);
    expect(ms).toBeGreaterThan(0);
    expect(ms).toBeLessThan(4999.5);
    // A seat that would run a program here is never played by the submitter.
    expect(await probeGameMs(pairs('t-probe-cmd', 1, 'cmd:touch /tmp/salient-probe', 1).matches, 1000)).toBeUndefined();
  });

  it('plays the same games whatever the batch size, recording each once; status moves game by game within a running batch', async () => {
    const worker = await startWorker({ connection: redis.url, concurrency: 2, telemetry: false });
    try {
      // Quick games in batches of 4 and of 1 (two tournaments, the same seeds).
      const a = pairs('t-k4', 6, 'greedy', 20);
      const b = pairs('t-k1', 6, 'greedy', 20);
      expect(await submitTournament(a, { connection: redis.url, batchPairs: 4 })).toMatchObject({ jobs: 2, batchPairs: 4, added: 12 });
      expect(await submitTournament(b, { connection: redis.url, batchPairs: 1 })).toMatchObject({ jobs: 6, batchPairs: 1, added: 12 });
      // Submitting again adds nothing, even asking for another size: the stored one names the jobs.
      expect(await submitTournament(a, { connection: redis.url, batchPairs: 2 })).toMatchObject({ jobs: 2, batchPairs: 4, added: 0 });
      const [da, db] = [await waitFinished('t-k4', redis.url, 120_000), await waitFinished('t-k1', redis.url, 120_000)];
      expect(da.counts).toMatchObject({ total: 12, completed: 12, failed: 0 });
      expect(da.batchPairs).toBe(4);
      const strip = (o: MatchOutcome) => ({ ...played(o), matchId: o.matchId.replace(/^t-k\d:/, '') });
      expect(da.outcomes.map(strip)).toEqual(db.outcomes.map(strip));
      const queue = new Queue(MATCH_QUEUE, { connection: { url: redis.url } });
      const job = await Job.fromId<unknown, MatchOutcome[]>(queue, matchJobId('t-k4', 1));
      expect(job?.returnvalue.map((o) => o.matchId)).toEqual(a.matches.slice(8).map((m) => m.id));
      await queue.close();

      // One batch of 3 slow pairs (about half a second a game): completed rises while it is active.
      const slow = pairs('t-progress', 3, 'crash:after=0,sleep=5', 40);
      await submitTournament(slow, { connection: redis.url, batchPairs: 3 });
      const seen = new Set<number>();
      const done = await waitFor('the batch to finish', async () => {
        const s = await tournamentStatus('t-progress', { connection: redis.url });
        if (s.counts.active > 0) seen.add(s.counts.completed);
        return s.state === 'finished' ? s : undefined;
      }, 120_000, 100);
      expect(done.counts.completed).toBe(6);
      // Seen part-way through the one job: at least one state with games done and others still running.
      expect([...seen].some((n) => n > 0 && n < 6)).toBe(true);
    } finally {
      await worker.close({ graceMs: 1000 });
    }
  }, 240_000);

  it('a batch whose worker is killed mid-way is taken up by another worker, which plays only the games not recorded', async () => {
    const plan = pairs('t-kill', 4, 'crash:after=0,sleep=5', 60);
    await submitTournament(plan, { connection: redis.url, batchPairs: 4 });
    // A worker in a process of its own (with its sandboxed child), to be killed outright.
    const entry = fileURLToPath(new URL('../src/bullmq/index.ts', import.meta.url));
    const code = `const { startWorker } = await import(${JSON.stringify(entry)}); await startWorker({ connection: ${JSON.stringify(redis.url)}, name: 'doomed', telemetry: false, lockDurationMs: 1500, stalledIntervalMs: 500 });`;
    const doomed = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { detached: true, stdio: 'ignore' });
    const gone = new Promise((r) => doomed.once('exit', r));
    const admin = new Redis(redis.url);
    try {
      await waitFor('three games to be recorded', async () => ((await admin.hlen(recordedKey('t-kill'))) >= 3 ? true : undefined), 120_000, 50);
      process.kill(-doomed.pid!, 'SIGKILL');
      await gone;
      const before = new Map(Object.entries(await admin.hgetall(recordedKey('t-kill'))).map(([k, v]) => [k, JSON.parse(v) as MatchOutcome]));
      expect(before.size).toBeGreaterThanOrEqual(3);
      expect(before.size).toBeLessThan(8);
      for (const o of before.values()) expect(o.worker).toBe('doomed');

      const heir = await startWorker({ connection: redis.url, name: 'heir', telemetry: false, lockDurationMs: 1500, stalledIntervalMs: 500 });
      try {
        const done = await waitFinished('t-kill', redis.url, 120_000);
        expect(done.counts).toMatchObject({ total: 8, completed: 8, failed: 0 });
        expect(done.outcomes.map((o) => o.matchId)).toEqual(plan.matches.map((m) => m.id));
        // What the killed worker recorded stands; the heir played the rest and nothing else.
        const queue = new Queue(MATCH_QUEUE, { connection: { url: redis.url } });
        const job = await Job.fromId<unknown, MatchOutcome[]>(queue, matchJobId('t-kill', 0));
        await queue.close();
        expect(job?.attemptsMade).toBe(1);
        expect(job?.returnvalue.map((o) => o.matchId)).toEqual(plan.matches.map((m) => m.id));
        for (const o of job!.returnvalue) {
          if (before.has(o.matchId)) expect(o).toEqual(before.get(o.matchId));
          else expect(o.worker).toBe('heir');
        }
        expect(done.outcomes.filter((o) => o.worker === 'heir')).toHaveLength(8 - before.size);
      } finally {
        await heir.close({ graceMs: 1000 });
      }
    } finally {
      if (doomed.exitCode === null && doomed.signalCode === null) process.kill(-doomed.pid!, 'SIGKILL');
      admin.disconnect();
    }
  }, 240_000);

  it('a cancel ends a running batch at its next pair, even with the worker not watching the flag', async () => {
    // The worker's own flag watch (which aborts the game being played) is off: only the processor's
    // look at the flag between pairs can end the batch.
    const worker = await startWorker({ connection: redis.url, telemetry: false, cancelPollMs: 3_600_000 });
    try {
      const plan = pairs('t-cancel-batch', 5, 'crash:after=0,sleep=5', 80);
      await submitTournament(plan, { connection: redis.url, batchPairs: 5 });
      const admin = new Redis(redis.url);
      await waitFor('a game to be recorded', async () => ((await admin.hlen(recordedKey('t-cancel-batch'))) >= 1 ? true : undefined), 120_000, 50);
      admin.disconnect();
      const report = await cancelTournament('t-cancel-batch', { connection: redis.url });
      expect(report).toEqual({ tournamentId: 't-cancel-batch', removed: 0, running: 10 });
      const after = await waitFor('the batch to end', async () => {
        const s = await tournamentStatus('t-cancel-batch', { connection: redis.url });
        return s.counts.active === 0 ? s : undefined;
      }, 120_000, 100);
      // Ended at the end of the pair it was playing (or the next): whole pairs played, the rest cancelled.
      expect(after.counts.completed % 2).toBe(0);
      expect(after.counts.completed).toBeGreaterThanOrEqual(2);
      expect(after.counts.completed).toBeLessThanOrEqual(4);
      expect(after.counts.failed).toBe(10 - after.counts.completed);
      for (const f of after.failed) expect(f).toMatchObject({ fault: 'cancelled' });
    } finally {
      await worker.close({ graceMs: 1000 });
    }
  }, 240_000);

  it('stop: sprt — batches of 5 pairs stop the test at the pair batches of 1 do, with the same standings at the decision', async () => {
    const specOf = (id: string) =>
      parseTournamentSpec(
        `id: ${id}\ngame: blitz\nscenarios: [A]\nentrants:\n  - { name: random, bot: random }\n  - { name: greedy, bot: greedy }\n` +
          `format: gauntlet\nreference: random\ngamesPerPairing: 400\ndecisionCap: 2000\nstop: { rule: sprt, elo0: 0, elo1: 100, alpha: 0.2, beta: 0.2 }\n`,
        'test.yaml',
      );
    const stops: StopEvent[] = [];
    const worker = await startWorker({ connection: redis.url, concurrency: 2, telemetry: false, onStop: (e) => stops.push(e) });
    const results: { plan: TournamentPlan; done: Awaited<ReturnType<typeof tournamentStatus>> }[] = [];
    try {
      for (const [id, k] of [['sprt-k1', 1], ['sprt-k5', 5]] as const) {
        const plan = await planTournament(await specOf(id));
        await submitTournament(plan, { connection: redis.url, batchPairs: k });
        const done = await waitFinished(id, redis.url, 180_000);
        results.push({ plan, done });
      }
    } finally {
      await worker.close({ graceMs: 1000 });
    }
    const [one, five] = results as [(typeof results)[0], (typeof results)[0]];
    expect(one.done.batchPairs).toBe(1);
    expect(five.done.batchPairs).toBe(5);
    const pairsAt = (r: (typeof results)[0]) => r.done.stopDecision?.pairs;
    expect(one.done.stopped?.reason).toMatch(/^SPRT accepted H[01] .* after \d+ pairs$/);
    expect(five.done.stopped?.reason).toBe(one.done.stopped?.reason);
    expect(pairsAt(five)).toBe(pairsAt(one));
    expect(stops.map((s) => s.tournamentId)).toEqual(['sprt-k1', 'sprt-k5']);
    // The decision rests on the plan's first games up to the deciding pair: the same games, the same standings.
    const upTo = (r: (typeof results)[0]) => {
      const n = Number(/after (\d+) pairs/.exec(r.done.stopped!.reason)![1]);
      const ids = new Set(r.plan.matches.slice(0, 2 * n).map((m) => m.id));
      const mine = r.done.outcomes.filter((o) => ids.has(o.matchId));
      expect(mine).toHaveLength(2 * n);
      expect(replayStopRule(r.plan, mine).decision.reason).toBe(r.done.stopped!.reason);
      return standings(mine, r.done.entrants);
    };
    expect(upTo(five)).toEqual(upTo(one));
    // Games past the decision: only what was running when it came (the two slots' batches, which end at
    // their next record), and a batch a slot took in the moment between the deciding record and the stop
    // being written (a clean clone's run once played 22 past it, over the two batches' 20); the rest of
    // the plan (400 games) was not played, and nothing failed.
    for (const r of [one, five]) {
      expect(r.done.counts.failed).toBe(0);
      expect(r.done.counts.completed - 2 * pairsAt(r)!, `${r.done.tournamentId}: ${r.done.counts.completed} games, decided after ${pairsAt(r)} pairs`).toBeLessThanOrEqual(3 * 2 * 5);
    }
  }, 400_000);
});
