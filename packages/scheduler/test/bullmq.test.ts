/**
 * The BullMQ executor against a real redis-server: one in-process worker (sandboxed children running
 * the compiled processor), telemetry off (the cluster test writes to ClickHouse).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Job, Queue } from 'bullmq';
import { SalientError } from '@salient/engine';
import { startRedisServer, type TestRedisServer } from '../../../test/support/redis-server.ts';
import { fileURLToPath } from 'node:url';
import { playPlanned } from '../src/play.ts';
import { loadTournamentSpec, parseTournamentSpec } from '../src/spec.ts';
import { planTournament } from '../src/plan.ts';
import { standings } from '../src/standings.ts';
import {
  MATCH_QUEUE,
  TOURNAMENT_QUEUE,
  cancelTournament,
  matchJobId,
  retryTournament,
  startWorker,
  submitTournament,
  tournamentJobId,
  tournamentStatus,
  type MatchEvent,
  type MatchWorker,
  type StopEvent,
} from '../src/bullmq/index.ts';
import { runLocalTournament } from '../src/local/index.ts';
import { blitzPlan, waitFinished, waitFor } from './bullmq-support.ts';

let redis: TestRedisServer;
let worker: MatchWorker;
const events: MatchEvent[] = [];
const stops: StopEvent[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  worker = await startWorker({ connection: redis.url, concurrency: 2, telemetry: false, onMatch: (e) => events.push(e), onStop: (e) => stops.push(e) });
}, 60_000);

afterAll(async () => {
  await worker?.close({ graceMs: 1000 });
  await redis?.dispose();
});

describe('BullMQ executor', () => {
  it('plays every match of a flow once, in batches of side-swapped pairs, with the outcomes the local path gives; resubmitting adds nothing', async () => {
    const plan = blitzPlan('t-basic', [
      ['random', 'greedy', 1],
      ['greedy', 'random', 1],
      ['random', 'random', 2],
      ['random', 'random', 3],
    ]);
    const first = await submitTournament(plan, { connection: redis.url });
    // Seeds 1 (a side-swapped pair), 2 and 3: three jobs.
    // A plan of three pairs makes a job of each, whatever a game takes (MIN_JOBS).
    expect(first).toMatchObject({ tournamentId: 't-basic', matches: 4, jobs: 3, batchPairs: 1, added: 4 });
    const done = await waitFinished('t-basic', redis.url);
    expect(done.counts).toMatchObject({ total: 4, completed: 4, failed: 0, waiting: 0, active: 0 });
    expect(done.outcomes.map((o) => o.matchId)).toEqual(plan.matches.map((m) => m.id));
    expect(done.entrants).toEqual(['random', 'greedy']);
    for (const [i, m] of plan.matches.entries()) {
      const local = (await playPlanned(m)).outcome;
      const remote = done.outcomes[i]!;
      expect({ kind: remote.kind, sides: remote.sides, decisions: remote.decisions, scores: remote.scores }).toEqual({
        kind: local.kind,
        sides: local.sides,
        decisions: local.decisions,
        scores: local.scores,
      });
      expect(remote.worker).toBe(worker.name);
    }
    // The flow parent completes once its matches are done.
    const parents = new Queue(TOURNAMENT_QUEUE, { connection: { url: redis.url } });
    const parent = await waitFor('the flow parent to complete', async () => {
      const p = await Job.fromId(parents, tournamentJobId('t-basic'));
      return p && (await p.getState()) === 'completed' ? p : undefined;
    });
    expect(parent.returnvalue).toMatchObject({ processed: 3 });
    await parents.close();
    const pairJob = events.find((e) => e.kind === 'completed' && e.jobId === matchJobId('t-basic', 0));
    expect(pairJob?.kind === 'completed' && pairJob.outcomes.map((o) => o.matchId)).toEqual([plan.matches[0]!.id, plan.matches[1]!.id]);

    const played = events.filter((e) => e.kind === 'completed').length;
    const again = await submitTournament(plan, { connection: redis.url });
    expect(again.added).toBe(0);
    await new Promise((r) => setTimeout(r, 1500));
    expect(events.filter((e) => e.kind === 'completed').length).toBe(played);
    const queue = new Queue(MATCH_QUEUE, { connection: { url: redis.url } });
    expect(await queue.getJobCounts('wait', 'active', 'delayed', 'completed')).toMatchObject({ wait: 0, active: 0, delayed: 0 });
    await queue.close();
  });

  it('a crashing bot forfeits its match and the rest go on; an unknown bot fails its match at once, without retries', async () => {
    const plan = blitzPlan('t-faults', [
      ['random', 'random', 11],
      ['crash:after=3', 'random', 11],
      ['random', 'genius', 12],
      ['random', 'random', 13],
    ]);
    await submitTournament(plan, { connection: redis.url, attempts: 3, backoffMs: 200 });
    const done = await waitFinished('t-faults', redis.url);
    expect(done.counts).toMatchObject({ total: 4, completed: 3, failed: 1 });
    const crashed = done.outcomes.find((o) => o.index === 1)!;
    expect(crashed.kind).toBe('forfeit');
    expect(crashed.sides).toEqual({ Axis: 'loss', Allies: 'win' });
    expect(crashed.detail).toMatch(/deliberate crash on decision 3/);
    expect(done.outcomes.filter((o) => o.index !== 1).map((o) => o.kind).every((k) => k === 'completed' || k === 'adjudicated')).toBe(true);
    expect(done.failed).toHaveLength(1);
    expect(done.failed[0]).toMatchObject({ matchId: plan.matches[2]!.id, attempts: 1 });
    expect(done.failed[0]!.reason).toMatch(/UNKNOWN_BOT.*'genius'/);
    const queue = new Queue(MATCH_QUEUE, { connection: { url: redis.url } });
    const job = await Job.fromId(queue, matchJobId('t-faults', 1));
    expect(job?.attemptsMade).toBe(1);
    await queue.close();
  });

  it('cancel removes waiting matches, aborts running ones and keeps what finished; unknown ids are refused', async () => {
    const plan = blitzPlan(
      't-cancel',
      Array.from({ length: 8 }, (_, i) => ['crash:after=0,sleep=15', 'random', 100 + i] as [string, string, number]),
    );
    await submitTournament(plan, { connection: redis.url });
    await waitFor('a match to run', async () => ((await tournamentStatus('t-cancel', { connection: redis.url })).counts.active > 0 ? true : undefined));
    const report = await cancelTournament('t-cancel', { connection: redis.url });
    expect(report.removed + report.running).toBeGreaterThan(0);
    const after = await waitFor('running matches to stop', async () => {
      const s = await tournamentStatus('t-cancel', { connection: redis.url });
      return s.counts.active === 0 && s.counts.waiting === 0 ? s : undefined;
    }, 5000, 100);
    expect(after.state).toBe('cancelled');
    expect(after.counts.completed).toBeLessThan(8);
    for (const f of after.failed) expect(f.reason).toMatch(/cancelled/);
    // The running match was aborted, not played to the end.
    expect(after.failed.length).toBeGreaterThanOrEqual(report.running);
    expect(after.counts.completed + after.failed.length + report.removed).toBe(8);
    await expect(submitTournament(plan, { connection: redis.url })).rejects.toThrow(/was cancelled/);
    await expect(tournamentStatus('nope', { connection: redis.url })).rejects.toMatchObject({ code: 'UNKNOWN_TOURNAMENT' });
    await expect(tournamentStatus('nope', { connection: 'redis://127.0.0.1:1' })).rejects.toBeInstanceOf(SalientError);
  });

  it('cancel in the middle of a pair keeps the finished game and reports the other as cancelled', async () => {
    // One job: a quick game, then one of about 2.5 s (25 ms before every decision).
    const plan = blitzPlan('t-cancel-pair', [
      ['random', 'random', 500],
      ['crash:after=0,sleep=25', 'random', 500],
    ]);
    await submitTournament(plan, { connection: redis.url });
    await waitFor('the pair to run', async () => ((await tournamentStatus('t-cancel-pair', { connection: redis.url })).counts.active > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 600));
    const report = await cancelTournament('t-cancel-pair', { connection: redis.url });
    expect(report).toMatchObject({ removed: 0, running: 2 });
    const after = await waitFor('the pair to stop', async () => {
      const s = await tournamentStatus('t-cancel-pair', { connection: redis.url });
      return s.counts.active === 0 ? s : undefined;
    }, 5000, 100);
    expect(after.counts).toMatchObject({ total: 2, completed: 1, failed: 1 });
    expect(after.outcomes.map((o) => [o.matchId, o.kind])).toEqual([[plan.matches[0]!.id, expect.stringMatching(/completed|adjudicated/)]]);
    expect(after.failed).toEqual([expect.objectContaining({ matchId: plan.matches[1]!.id, reason: expect.stringMatching(/cancelled/) })]);
  });

  it('retry puts the cancelled matches back under their own ids and lifts the cancel; the tournament then finishes, each match once', async () => {
    // Runs after the two cancel tests: t-cancel has removed, aborted and finished matches, t-cancel-pair a half-played pair.
    const before = await tournamentStatus('t-cancel', { connection: redis.url });
    expect(before.state).toBe('cancelled');
    const unfinished = 8 - before.counts.completed;
    expect(unfinished).toBeGreaterThan(0);
    const report = await retryTournament('t-cancel', { connection: redis.url });
    expect(report).toEqual({ tournamentId: 't-cancel', requeued: unfinished, failed: 0, cancelled: unfinished, uncancelled: true });
    const done = await waitFinished('t-cancel', redis.url, 60_000);
    expect(done.counts).toMatchObject({ total: 8, completed: 8, failed: 0 });
    expect(done.cancelledAt).toBeUndefined();
    expect(done.outcomes.map((o) => o.matchId)).toEqual(blitzPlan('t-cancel', Array.from({ length: 8 }, (_, i) => ['x', 'x', 100 + i] as [string, string, number])).matches.map((m) => m.id));
    // nothing left to retry; a second call re-queues nothing
    expect(await retryTournament('t-cancel', { connection: redis.url })).toMatchObject({ requeued: 0, uncancelled: false });

    // the game of the pair that finished before the cancel is recorded: only the other one is played again
    const firstGame = (await tournamentStatus('t-cancel-pair', { connection: redis.url })).outcomes[0]!;
    const pair = await retryTournament('t-cancel-pair', { connection: redis.url });
    expect(pair).toMatchObject({ requeued: 1, cancelled: 1, uncancelled: true });
    const pairDone = await waitFinished('t-cancel-pair', redis.url, 30_000);
    expect(pairDone.counts).toMatchObject({ total: 2, completed: 2, failed: 0 });
    expect(pairDone.outcomes[0]).toEqual(firstGame);
    await expect(retryTournament('nope', { connection: redis.url })).rejects.toMatchObject({ code: 'UNKNOWN_TOURNAMENT' });
  }, 90_000);

  it('a worker shutting down past its grace puts its running match back on the queue, where another worker plays it', async () => {
    const other = await startRedisServer();
    try {
      const a = await startWorker({ connection: other.url, telemetry: false });
      const plan = blitzPlan('t-shutdown', [['crash:after=0,sleep=25', 'random', 5]]);
      await submitTournament(plan, { connection: other.url });
      await waitFor('the match to run', async () => (a.running() > 0 ? true : undefined));
      const t0 = Date.now();
      await a.close({ graceMs: 300 });
      expect(Date.now() - t0).toBeLessThan(5000);
      const queue = new Queue(MATCH_QUEUE, { connection: { url: other.url } });
      const jobId = matchJobId('t-shutdown', 0);
      expect(await queue.getJobState(jobId)).toBe('waiting');
      expect((await Job.fromId(queue, jobId))?.attemptsMade).toBe(0);
      await queue.close();
      const b = await startWorker({ connection: other.url, telemetry: false });
      const done = await waitFinished('t-shutdown', other.url);
      await b.close();
      expect(done.counts).toMatchObject({ completed: 1, failed: 0 });
      expect(done.outcomes[0]!.kind).toMatch(/completed|adjudicated/);
    } finally {
      await other.dispose();
    }
  });

  it('stop: sprt — the test decides at the pair the local pool does, the rest is not played, and resubmitting is refused', async () => {
    const plan = await planTournament(await loadTournamentSpec(fileURLToPath(new URL('../../../examples/tournaments/blitz-sprt.yaml', import.meta.url))));
    const local = await runLocalTournament({ plan, threads: 2 });
    expect(local.stopped).toBeDefined();

    await submitTournament(plan, { connection: redis.url });
    const done = await waitFinished(plan.tournamentId, redis.url, 180_000);
    // Jobs enter the test in plan order, so the worker stops it where the local pool did.
    expect(done.stopped?.reason).toBe(local.stopped!.reason);
    // The event comes once the waiting jobs are off the queue, which may be after the workers have
    // ended them all (a batch taken after the stop ends before its first pair).
    await waitFor('the stop event', async () => (stops.length ? true : undefined), 60_000, 100);
    expect(stops).toEqual([{ tournamentId: plan.tournamentId, reason: local.stopped!.reason, removed: expect.any(Number) }]);
    const [stop] = stops;
    // The rest was taken off the queue (or, taken by a worker after the stop, ended before its first
    // pair): only the games up to the decision and those running then were played.
    expect(stop!.removed).toBeLessThanOrEqual(plan.matches.length - done.counts.completed);
    expect(done.counts.completed).toBeLessThan(plan.matches.length / 2);
    expect(done.counts.failed).toBe(0);
    expect(done.stop).toMatchObject({ rule: 'sprt', candidate: 'greedy', baseline: 'random', matchesSeen: done.counts.completed });
    expect(done.stop!.pairs).toBeGreaterThanOrEqual(Number(/after (\d+) pairs/.exec(local.stopped!.reason)![1]));
    await expect(submitTournament(plan, { connection: redis.url })).rejects.toThrow(/was stopped by its stop rule \(SPRT accepted H1/);
  }, 240_000);

  it('plays a strength sweep (each level against itself, one game a seed) with the outcomes the local pool gives', async () => {
    const plan = await planTournament(
      await parseTournamentSpec(
        'id: t-sweep\ngame: dice-race\nscenarios: [standard]\nformat: strength-sweep\nsweep: { bot: "mcts:rollout=0", param: iterations, levels: [1, 8] }\ngamesPerPairing: 3\n',
        'sweep.yaml',
      ),
    );
    expect(await submitTournament(plan, { connection: redis.url })).toMatchObject({ matches: 6, added: 6 });
    const done = await waitFinished(plan.tournamentId, redis.url, 60_000);
    expect(done.counts.completed).toBe(6);
    expect(done.entrants).toEqual(['mcts iterations=1', 'mcts iterations=8']);
    const local = await runLocalTournament({ plan, threads: 1 });
    const played = (os: typeof local.outcomes) => os.map((o) => ({ id: o.matchId, kind: o.kind, sides: o.sides, entrants: o.entrants, decisions: o.decisions }));
    expect(played(done.outcomes)).toEqual(played(local.outcomes));
  });

  it('plays a planned spec (examples/tournaments/blitz-smoke.yaml); the same id with a different spec is refused', async () => {
    const spec = await loadTournamentSpec(fileURLToPath(new URL('../../../examples/tournaments/blitz-smoke.yaml', import.meta.url)));
    const plan = await planTournament(spec);
    expect(plan.spec.sideSwap).toBe(true);
    expect(await submitTournament(plan, { connection: redis.url })).toMatchObject({ matches: plan.matches.length, jobs: plan.matches.length / 2, added: plan.matches.length });
    const done = await waitFinished(plan.tournamentId, redis.url, 60_000);
    expect(done.specHash).toBe(plan.specHash);
    expect(done.counts.completed).toBe(plan.matches.length);
    expect(done.entrants).toEqual(spec.entrants.map((e) => e.name));
    const table = standings(done.outcomes, done.entrants);
    expect(table.reduce((n, r) => n + r.games, 0)).toBe(2 * plan.matches.length);
    const changed = await planTournament({ ...spec, seeds: spec.seeds.map((x) => x + 1000) });
    expect(changed.tournamentId).toBe(plan.tournamentId);
    await expect(submitTournament(changed, { connection: redis.url })).rejects.toThrow(/already on this queue with a different spec/);
  });
});
