/**
 * The local pool against the real embedded store (chdb in a temporary directory; one per process, so
 * every test here shares it and tells its tournaments apart by id): determinism across thread counts,
 * resuming, cancel, and a thread that dies.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTelemetry, type Telemetry } from '@salient/telemetry';
import { parseTournamentSpec, planTournament, standings, type MatchOutcome, type TournamentPlan } from '../src/index.ts';
import { runLocalTournament, threadExecArgv } from '../src/local/index.ts';

let root = '';
let telemetry: Telemetry;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'salient-local-pool-'));
  telemetry = await openTelemetry({ kind: 'embedded', path: join(root, 'clickhouse'), spoolDir: join(root, 'spool') });
});
afterAll(async () => {
  await telemetry?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function plan(id: string, games = 4, scenarios = '[A, B]'): Promise<TournamentPlan> {
  return planTournament(
    await parseTournamentSpec(`id: ${id}\ngame: blitz\nscenarios: ${scenarios}\nentrants: [random, greedy]\ngamesPerPairing: ${games}\nsideSwap: true\n`, 'test.yaml'),
  );
}

/** What must not depend on the thread count or on whether a match was replayed or read back. */
const stable = (os: readonly MatchOutcome[]) => os.map(({ wallMs: _w, worker: _k, ...rest }) => rest);
const names = (p: TournamentPlan) => p.spec.entrants.map((e) => e.name);

async function recordedIds(tournament: string): Promise<string[]> {
  const r = await telemetry.query(`SELECT match_id FROM salient.matches FINAL WHERE tournament = '${tournament}' ORDER BY match_id`);
  return r.rows.map((x) => String(x.match_id));
}

describe('runLocalTournament', () => {
  it('gives the same outcomes, in plan order, on 1 and 2 threads (no store)', async () => {
    const p = await plan('pool-determinism');
    const one = await runLocalTournament({ plan: p, threads: 1 });
    const two = await runLocalTournament({ plan: p, threads: 2 });
    expect(one.played).toBe(p.matches.length);
    expect(two.threads).toBe(2);
    expect(one.outcomes.map((o) => o.index)).toEqual(p.matches.map((m) => m.index));
    expect(one.outcomes.every((o) => o.kind === 'completed' || o.kind === 'adjudicated')).toBe(true);
    expect(stable(two.outcomes)).toEqual(stable(one.outcomes));
    // Both threads played.
    expect(new Set(two.outcomes.map((o) => o.worker)).size).toBe(2);
  });

  it('plays a strength sweep: each level against itself on the same seeds, the same outcomes on 1 and 2 threads, recorded under the level', async () => {
    const p = await planTournament(
      await parseTournamentSpec(
        'id: pool-sweep\ngame: dice-race\nscenarios: [standard]\nformat: strength-sweep\nsweep: { bot: "mcts:rollout=0", param: iterations, levels: [1, 8] }\ngamesPerPairing: 3\n',
        'sweep.yaml',
      ),
    );
    const one = await runLocalTournament({ plan: p, threads: 1 });
    const two = await runLocalTournament({ plan: p, threads: 2, telemetry });
    expect(stable(two.outcomes)).toEqual(stable(one.outcomes));
    expect(one.outcomes.map((o) => Object.values(o.entrants))).toEqual(p.matches.map((m) => [m.entrants['A'], m.entrants['A']]));
    expect(one.outcomes.every((o) => o.kind === 'completed')).toBe(true);
    // Each level's games are kept under its own bot (on both sides), so the report can tell levels apart.
    const r = await telemetry.query(`SELECT side_bots FROM salient.matches FINAL WHERE tournament = 'pool-sweep' ORDER BY match_id`);
    const levels = r.rows.map((x) => [...new Set(x.side_bots as string[])]);
    expect(levels.every((l) => l.length === 1)).toBe(true);
    expect(new Set(levels.map((l) => l[0]))).toEqual(new Set(['mcts:iterations=1,rollout=0@2', 'mcts:iterations=8,rollout=0@2']));
  });

  it('records every match in the store, and running again plays none and gives the same standings', async () => {
    const p = await plan('pool-resume-all');
    const progress: number[] = [];
    const first = await runLocalTournament({ plan: p, threads: 2, telemetry, onProgress: (x) => progress.push(x.done) });
    expect(first.played).toBe(p.matches.length);
    expect(progress.at(-1)).toBe(p.matches.length);
    expect(await recordedIds(p.tournamentId)).toEqual(p.matches.map((m) => m.id).sort());
    const again = await runLocalTournament({ plan: p, threads: 2, telemetry });
    expect(again.played).toBe(0);
    expect(again.skipped).toBe(p.matches.length);
    expect(stable(again.outcomes)).toEqual(stable(first.outcomes));
    expect(standings(again.outcomes, names(p))).toEqual(standings(first.outcomes, names(p)));
  });

  it('renews its running record while it plays (so a killed run can be told apart), and ends with finished', async () => {
    const p = await plan('pool-heartbeat', 8);
    const states: string[] = [];
    // The real store, with its record writes noted on the way.
    const noting: Telemetry = { ...telemetry, recordTournament: (r) => (states.push(r.state), telemetry.recordTournament(r)) };
    const r = await runLocalTournament({ plan: p, threads: 1, telemetry: noting, heartbeatMs: 20 });
    const beats = Math.floor(r.wallMs / 20);
    expect(beats).toBeGreaterThan(3);
    expect(states.at(-1)).toBe('finished');
    expect(states.slice(0, -1).every((s) => s === 'running')).toBe(true);
    // One record at the start and about one per interval after (timers may slip on a busy machine).
    expect(states.length - 1).toBeGreaterThan(2);
    const [t] = await telemetry.tournaments({ tournament: p.tournamentId });
    expect(t?.state).toBe('finished');
  });

  it('after part of the plan, the full plan plays only the rest', async () => {
    const p = await plan('pool-resume-part');
    const half = { ...p, matches: p.matches.slice(0, 3) };
    const part = await runLocalTournament({ plan: half, threads: 2, telemetry });
    expect(part.played).toBe(3);
    const rest = await runLocalTournament({ plan: p, threads: 2, telemetry });
    expect(rest.skipped).toBe(3);
    expect(rest.played).toBe(p.matches.length - 3);
    const whole = await runLocalTournament({ plan: p, threads: 1 });
    expect(stable(rest.outcomes)).toEqual(stable(whole.outcomes));
  });

  it('stops on cancel: no more matches handed out, the store drained, and a rerun plays the rest', async () => {
    const p = await plan('pool-cancel', 8, '[A]');
    const ac = new AbortController();
    const r = await runLocalTournament({
      plan: p,
      threads: 1,
      telemetry,
      signal: ac.signal,
      onProgress: (x) => {
        if (x.played === 2) ac.abort();
      },
    });
    expect(r.cancelled).toBe(true);
    expect(r.played).toBeLessThan(p.matches.length);
    const finished = r.outcomes.filter((o) => o.kind !== 'cancelled').map((o) => o.matchId);
    expect(finished.length).toBeGreaterThanOrEqual(2);
    expect(await recordedIds(p.tournamentId)).toEqual(expect.arrayContaining(finished));
    const rest = await runLocalTournament({ plan: p, threads: 2, telemetry });
    expect(rest.skipped).toBe(finished.length);
    expect(rest.played).toBe(p.matches.length - finished.length);
    expect(rest.outcomes).toHaveLength(p.matches.length);
  });

  it('replaces a thread that died, hands its match out once more, and records an error if it kills a thread again', async () => {
    const p = await plan('pool-deaths', 4, '[A]');
    const victim = p.matches[1]!.id;
    const r = await runLocalTournament({ plan: p, threads: 2, dieOn: [victim] });
    expect(r.threadDeaths).toBe(2);
    expect(r.outcomes).toHaveLength(p.matches.length);
    const bad = r.outcomes.find((o) => o.matchId === victim);
    expect(bad).toMatchObject({ kind: 'error', detail: expect.stringContaining('died twice') });
    expect(r.outcomes.filter((o) => o.kind === 'error')).toHaveLength(1);
  });

  it('gives up with a clear error when threads die before they are ready, instead of starting them forever', async () => {
    const p = await plan('pool-start-fails', 2, '[A]');
    const run = runLocalTournament({ plan: p, threads: 2, telemetry, resourceLimits: { maxOldGenerationSizeMb: 2, maxYoungGenerationSizeMb: 1 } });
    await expect(run).rejects.toMatchObject({ code: 'POOL_THREAD_START', message: expect.stringMatching(/3 game threads in a row died before they were ready \(last: .*memory limit/) });
    expect(await recordedIds('pool-start-fails')).toEqual([]);
  });
});

describe('threadExecArgv', () => {
  it("drops this process's entry flags (eval code, input type) and keeps the rest", () => {
    expect(threadExecArgv(['--import', 'tsx', '--input-type=module', '-e', 'code()', '--max-old-space-size=512'])).toEqual(['--import', 'tsx', '--max-old-space-size=512']);
    expect(threadExecArgv(['--input-type', 'module', '--eval=x', '-p', 'y', '--print=z', '--enable-source-maps'])).toEqual(['--enable-source-maps']);
    expect(threadExecArgv(['-pe', '1 + 1', '--trace-warnings'])).toEqual(['--trace-warnings']);
    // Nothing to drop: inherited as Node does (flags such as --expose-gc are refused when given explicitly).
    expect(threadExecArgv(['--import', 'tsx', '--expose-gc'])).toBeUndefined();
    expect(threadExecArgv([])).toBeUndefined();
  });
});
