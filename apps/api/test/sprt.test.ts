/**
 * The SPRT of a `stop: sprt` tournament through the API, from what the store holds at each moment: after
 * a run cancelled part way (the test undecided, its pairs those recorded), during the resumed run (a
 * request made mid-run sees at least what had been counted when it went out), and once stopped the
 * same decision, counts and estimates the run itself reported, with the unplayed rest of the plan told
 * apart from matches waiting. Real runs into a real embedded store (its own: one per process).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openTelemetry, type Telemetry } from '@salient/telemetry';
import { parseTournamentSpec, planTournament, type MatchOutcome, type TournamentPlan } from '@salient/scheduler';
import { runLocalTournament, type LocalRunResult } from '@salient/scheduler/local';
import { buildApp } from '../src/index.ts';

const EXAMPLE = new URL('../../../examples/tournaments/blitz-sprt.yaml', import.meta.url);
let root = '';
let telemetry: Telemetry;
let app: FastifyInstance;
let plan: TournamentPlan;
let run: LocalRunResult;
/** What the first, cancelled run recorded, and the API's answer then. */
let partial: LocalRunResult;
let afterCancel: Record<string, any>;
/** The API's answer to a request made while the run was under way, and the run's own figures then. */
let midway: Promise<{ body: Record<string, any>; pairsThen: number }> | undefined;

/** Complete pairs among `outcomes` (both games recorded). */
function completePairs(outcomes: readonly MatchOutcome[]): number {
  const n = new Map<string, number>();
  for (const o of outcomes) if (o.kind !== 'cancelled') n.set(o.pairId, (n.get(o.pairId) ?? 0) + 1);
  return [...n.values()].filter((k) => k === 2).length;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'salient-api-sprt-'));
  telemetry = await openTelemetry({ kind: 'embedded', path: join(root, 'clickhouse'), spoolDir: join(root, 'spool') });
  app = await buildApp({ telemetry, processMetrics: false });
  plan = await planTournament(await parseTournamentSpec(readFileSync(EXAMPLE, 'utf8'), 'blitz-sprt.yaml'));
  // Cancelled after some 40 matches: far from a decision (about 270 matches).
  const ctrl = new AbortController();
  partial = await runLocalTournament({ plan, threads: 2, telemetry, signal: ctrl.signal, onProgress: (p) => p.done >= 40 && ctrl.abort() });
  afterCancel = (await app.inject({ method: 'GET', url: '/api/tournaments/blitz-sprt' })).json();
  run = await runLocalTournament({
    plan,
    threads: 2,
    telemetry,
    onProgress: (p) => {
      if (midway || p.played < 20) return;
      const pairsThen = p.stop!.pairs;
      midway = app.inject({ method: 'GET', url: '/api/tournaments/blitz-sprt' }).then((r) => ({ body: r.json() as Record<string, any>, pairsThen }));
    },
  });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await telemetry?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('GET /api/tournaments/:id of a stop: sprt tournament', () => {
  it('after a cancelled part: the test undecided over the pairs recorded, the rest of the plan unplayed', () => {
    expect(partial.cancelled).toBe(true);
    const recorded = partial.outcomes.filter((o) => o.kind !== 'cancelled');
    expect(afterCancel.progress).toMatchObject({ source: 'store', state: 'stopped', total: 1000, waiting: 0, completed: recorded.length, unplayed: 1000 - recorded.length });
    expect(afterCancel.reason).toBe(`stopped: cancelled after ${recorded.length} of 1000 matches`);
    expect(afterCancel.sprt).toMatchObject({ rule: 'sprt', candidate: 'greedy', baseline: 'random', elo0: 0, elo1: 50, state: 'continue', pairs: completePairs(recorded), matchesSeen: recorded.length, matches: 1000 });
    expect(afterCancel.sprt.accepted).toBeUndefined();
    expect(afterCancel.sprt.reason).toBeUndefined();
  });

  it('while the resumed run plays: at least what the run had counted when the request went out', async () => {
    expect(midway).toBeDefined();
    const { body, pairsThen } = await midway!;
    expect(body.sprt).toMatchObject({ rule: 'sprt', candidate: 'greedy', baseline: 'random' });
    expect(body.sprt.pairs).toBeGreaterThanOrEqual(pairsThen);
    expect(body.sprt.pairs).toBeLessThanOrEqual(run.stop!.pairs);
    // Undecided then, or (on a slow machine, the request answered late) the decision the run made.
    if (body.sprt.accepted !== undefined) expect(body.sprt.accepted).toBe('H1');
    else expect(body.progress.state).toBe('running');
  });

  it('once stopped: the decision, counts and estimates the run reported; the rest of the plan unplayed, not waiting', async () => {
    const r = await app.inject({ method: 'GET', url: '/api/tournaments/blitz-sprt' });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(run.stopped).toBeDefined();
    expect(body.sprt).toEqual({ ...run.stop, accepted: 'H1', reason: run.stopped!.reason });
    expect(body.sprt.pentanomial.reduce((a: number, n: number) => a + n, 0)).toBe(body.sprt.pairs);
    expect(run.skipped).toBe(partial.outcomes.filter((o) => o.kind !== 'cancelled').length);
    expect(body.state).toBe('stopped');
    expect(body.reason).toBe(`stopped: SPRT accepted H1 after ${run.decision!.pairs} pairs`);
    expect(run.stopped!.reason).toContain(`after ${run.decision!.pairs} pairs`);
    expect(body.progress).toEqual({
      source: 'store',
      state: 'stopped',
      total: 1000,
      waiting: 0,
      active: 0,
      completed: run.outcomes.length,
      failed: 0,
      unplayed: run.stopped!.unplayed,
    });
    // Standings count the games played, no more.
    expect(body.standings.reduce((a: number, s: { games: number }) => a + s.games, 0)).toBe(2 * run.outcomes.length);
  });

  it('a tournament without stop: sprt has no sprt block', async () => {
    await telemetry.recordTournament({ id: 'plain', game: 'blitz', spec: { ...plan.spec, id: 'plain', stop: { rule: 'fixed' } }, planned: 4, executor: 'local', state: 'running', startedAt: new Date() });
    const body = (await app.inject({ method: 'GET', url: '/api/tournaments/plain' })).json();
    expect(body.progress).toMatchObject({ state: 'running', waiting: 4 });
    expect(body.sprt).toBeUndefined();
  });
});
