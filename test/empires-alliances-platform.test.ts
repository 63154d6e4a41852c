/**
 * Empires & Alliances, Scenario 3 "1918: Over There", through the whole platform as Blitz goes through
 * it, with no special case for a hex game: `salient play`/`replay` in separate processes (byte-identical
 * replays, same final hash), `pack validate` on the bundled directory and on broken copies, `rules
 * coverage --check`, a tournament on the local pool with telemetry in embedded ClickHouse and the same
 * plan on BullMQ workers over a real redis-server, the dashboard API's win rates, curves and balance,
 * `report balance`, `tournament status/list/export` and `replay` of the export, and
 * `regress` seeing a changed rule. Small numbers: random games take half a second, a greedy or MCTS
 * side about ten, so the search bots play under a decision cap (adjudicated by 3.71/3.72). About 80 s of
 * CPU in all; the time limits are generous because the CLI processes share the cores with the rest of
 * `npm test`.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { openTelemetry, type Telemetry } from '@salient/telemetry';
import { parseTournamentSpec, planTournament, type MatchOutcome, type TournamentPlan } from '@salient/scheduler';
import { runLocalTournament } from '@salient/scheduler/local';
import { startWorker, submitTournament, type MatchWorker } from '@salient/scheduler/bullmq';
import { buildApp } from '../apps/api/src/index.ts';
import { checkPackDir } from '../apps/cli/src/pack-files.ts';
import { findGame } from '../apps/cli/src/registry.ts';
import { waitFinished } from '../packages/scheduler/test/bullmq-support.ts';
import { startRedisServer, type TestRedisServer } from './support/redis-server.ts';
import { salientEntry } from './support/salient-cli.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PACK = join(ROOT, 'packages/games/empires-alliances/packs/approximation');
const GAME = 'empires-alliances';
const game = findGame(GAME);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `salient ...` in its own process (as a user runs it), in the repository, with `env` added. */
function salient(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...salientEntry(), ...args], { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

let root = '';
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'salient-ea-platform-'));
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

/** A copy of the bundled pack directory with `edit` applied to one file's parsed JSON (or its text). */
function brokenCopy(name: string, file: string, edit: (json: any) => unknown, raw?: (text: string) => string): string {
  const dir = join(root, name);
  cpSync(PACK, dir, { recursive: true });
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  writeFileSync(path, raw ? raw(text) : JSON.stringify(edit(JSON.parse(text))));
  return dir;
}

describe.concurrent('the CLI alone: play, replay, pack validate, rules coverage', () => {
  it('two processes, same seed, pack and seats: byte-identical replays and final hash; replay -v reproduces it and tells the combats', async () => {
    const [a, b] = [join(root, 'a.replay.json'), join(root, 'b.replay.json')];
    const args = ['play', '-g', GAME, '--seed', '7', '--seat', 'CP=random', '--seat', 'AL=random', '--json'];
    const [ra, rb] = await Promise.all([salient([...args, '--replay', a]), salient([...args, '--replay', b])]);
    expect(ra.code, ra.stderr).toBe(0);
    expect(rb.code, rb.stderr).toBe(0);
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
    const [ja, jb] = [JSON.parse(ra.stdout), JSON.parse(rb.stdout)];
    expect(ja.finalHash).toBe(jb.finalHash);
    expect(ja).toMatchObject({ game: GAME, scenario: '1918', kind: 'completed', pack: { id: 'approximation', fidelity: 'approximation' } });
    // Nine monthly turns, ended by the victory rules (3.71, 3.72), not by a cap.
    expect(ja.position.turn).toBe(9);
    expect(ja.result.reason).toMatch(/Victory|Draw|draw/);
    expect(ja.result.reason).toMatch(/3\.71/);

    const r = await salient(['replay', a, '-v']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`recorded ${ja.finalHash}`);
    expect(r.stdout).toMatch(/OK: the replay reproduces the recorded final state/);
    // The readable account: combats with the odds column, the DRM and the die, and every decision (-v).
    expect(r.stdout).toMatch(/\d{4}: \d+ attack on \d+ defense at \d+-\d+, DRM [+-]\d+, die \d+ -> \d+: [A-Z]{2}/);
    expect(r.stdout).toMatch(/^\s+CP: /m);
    expect(r.stdout).toMatch(/combat-die: die \d/);
  }, 180_000);

  it('pack validate: the bundled directory is valid; a unit placed off the map exits 1, naming the file, the JSON path and what to do', async () => {
    const dir = brokenCopy('off-map', 'scenarios.json', (s) => {
      s.scenarios[0].sectors[0].hexes[1] = '7070';
      return s;
    });
    const [ok, r] = await Promise.all([salient(['pack', 'validate', PACK]), salient(['pack', 'validate', dir])]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/valid empires-alliances pack/);
    expect(ok.stdout).toMatch(/1 scenario \(1918\)/);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^scenarios\.json \$\.scenarios\[0\]\.sectors\[0\]\.hexes\[1\]: hex 7070 is not on the map \(map\.json\)\. Use a hex of the map or a city name\.$/m);
    expect(r.stdout).toMatch(/1 problem in a empires-alliances pack/);
    expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  }, 180_000);

  it('pack validate: a bad hex id, a malformed map.json, an unknown terrain: one line each with file, JSON path and the fix', () => {
    const lines = (dir: string): string[] => {
      const r = checkPackDir(game, dir);
      expect(r.ok).toBe(false);
      return r.ok ? [] : r.lines;
    };
    expect(
      lines(
        brokenCopy('bad-hex', 'scenarios.json', (s) => {
          s.scenarios[0].sectors[1].hexes[0] = '23X2';
          return s;
        }),
      ),
    ).toEqual(['scenarios.json $.scenarios[0].sectors[1].hexes[0]: a hex is four digits RRCC, e.g. 2453']);
    const truncated = lines(brokenCopy('truncated-map', 'map.json', (m) => m, (t) => t.slice(0, 5000)));
    expect(truncated).toHaveLength(1);
    expect(truncated[0]).toMatch(/^map\.json:\d+:\d+: invalid JSON: .*\. Fix the JSON at that line and column; the file is checked against the pack schema once it parses\.$/);
    expect(
      lines(
        brokenCopy('bad-terrain', 'map.json', (m) => {
          m.hexes[3].terrain = 'lava';
          m.hexes[5].id = '10x6';
          return m;
        }),
      ),
    ).toEqual([
      `map.json $.hexes[3].terrain: unknown terrain 'lava'; the map's "terrains" are clear, forest, mountain, swamp, sea, lake`,
      `map.json $.hexes[5].id: '10x6' is not a hex id: rrcc-offset-even ids are four digits RRCC (two-digit row, then two-digit column), e.g. 2453`,
    ]);
  });

  it('rules coverage --check passes: every implemented or partial section is cited by a test', async () => {
    const r = await salient(['rules', 'coverage', '--game', GAME, '--check', '--games', '3', '--json', '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { game: string; sections: { section: { id: string; status: string }; tests: unknown[] }[] };
    expect(report.game).toBe(GAME);
    expect(report.sections.length).toBeGreaterThan(30);
    expect(report.sections.map((s) => s.section.id)).toEqual(expect.arrayContaining(['5', 'S3 3.7']));
    for (const s of report.sections) if (s.section.status === 'implemented' || s.section.status === 'partial') expect(s.tests.length, s.section.id).toBeGreaterThan(0);
  }, 180_000);
});

describe('tournaments, telemetry, API, reports, export and regress', () => {
  const store = (): string => join(root, 'clickhouse');
  let telemetry: Telemetry;
  let redis: TestRedisServer;
  let worker: MatchWorker | undefined;
  let bots: TournamentPlan;
  let randoms: TournamentPlan;
  let local: MatchOutcome[] = [];
  let localRandoms: MatchOutcome[] = [];
  let app: FastifyInstance;

  beforeAll(async () => {
    telemetry = await openTelemetry({ kind: 'embedded', path: store(), spoolDir: join(root, 'spool') });
    // The three bots of examples/tournaments/ea-1918.yaml, side-swapped, under a decision cap so a
    // greedy or MCTS side costs a second, not ten: these games end adjudicated by 3.71/3.72.
    bots = await planTournament(
      await parseTournamentSpec(
        `id: ea-platform-bots\ngame: ${GAME}\nscenarios: ['1918']\nentrants:\n  - random\n  - greedy\n  - { name: mcts, bot: mcts, params: { iterations: 2, rollout: 0 } }\ngamesPerPairing: 2\nsideSwap: true\nbaseSeed: 1918\ndecisionCap: 150\n`,
        'ea-platform-bots.yaml',
      ),
    );
    // Whole games between random bots: every one ends by the victory rules.
    randoms = await planTournament(
      await parseTournamentSpec(
        `id: ea-platform-random\ngame: ${GAME}\nscenarios: ['1918']\nentrants: [random, { name: random-b, bot: random }]\ngamesPerPairing: 4\nsideSwap: true\nbaseSeed: 7\n`,
        'ea-platform-random.yaml',
      ),
    );
    local = (await runLocalTournament({ plan: bots, threads: 2, telemetry })).outcomes;
    localRandoms = (await runLocalTournament({ plan: randoms, threads: 2, telemetry })).outcomes;
    app = await buildApp({ telemetry, processMetrics: false });
  }, 240_000);

  afterAll(async () => {
    await app?.close();
    await telemetry?.close();
    await worker?.close();
    await redis?.dispose();
  }, 60_000);

  it('examples/tournaments/ea-1918.yaml plans random, greedy and MCTS on 1918, each seed from both sides', async () => {
    const plan = await planTournament(await parseTournamentSpec(readFileSync(join(ROOT, 'examples/tournaments/ea-1918.yaml'), 'utf8'), 'ea-1918.yaml'));
    expect(plan.matches).toHaveLength(12);
    expect(new Set(plan.matches.map((m) => m.game))).toEqual(new Set([GAME]));
    const pairs = new Map<string, string[]>();
    for (const m of plan.matches) pairs.set(m.pairId, [...(pairs.get(m.pairId) ?? []), `${m.entrants.CP}/${m.entrants.AL}`]);
    for (const p of pairs.values()) {
      expect(p).toHaveLength(2);
      const [x, y] = p.map((s) => s.split('/'));
      expect([x![0], x![1]]).toEqual([y![1], y![0]]);
    }
    expect(new Set(plan.matches.flatMap((m) => Object.values(m.entrants)))).toEqual(new Set(['random', 'greedy', 'mcts']));
  });

  it('the local pool plays both plans: the bots adjudicated at the cap, the random games to the end of November 1918', () => {
    expect(local).toHaveLength(6);
    for (const o of local) {
      expect(o.kind, o.detail).toBe('adjudicated');
      expect(Object.keys(o.sides).sort()).toEqual(['AL', 'CP']);
    }
    expect(localRandoms).toHaveLength(4);
    for (const o of localRandoms) {
      expect(o.kind, o.detail).toBe('completed');
      expect(o.impulses).toBeGreaterThanOrEqual(18);
    }
  });

  it('telemetry: one impulse row per segment the game marks, each with its active side; every match row once', async () => {
    const all = [...local, ...localRandoms];
    const ids = all.map((o) => `'${o.matchId}'`).join(',');
    const matches = await telemetry.query(`SELECT match_id, count() AS n FROM matches FINAL WHERE match_id IN (${ids}) GROUP BY match_id`);
    expect(matches.rows).toHaveLength(all.length);
    const rows = (await telemetry.query(
      `SELECT match_id, seq, turn, impulse, phase, active_powers, decisions FROM impulses FINAL WHERE match_id IN (${ids}) ORDER BY match_id, seq`,
    )).rows as unknown as { match_id: string; seq: number; turn: number; impulse: number; phase: string; active_powers: string[]; decisions: number }[];
    for (const o of all) expect(rows.filter((r) => r.match_id === o.matchId), o.matchId).toHaveLength(o.impulses);
    // The Central Powers' segment, then the Allies' (7.0): the segment's side acts in it (the other
    // side may too: a defender's choices in its combats).
    for (const r of rows.filter((x) => x.phase.endsWith('-move'))) expect(r.active_powers).toContain(r.phase.startsWith('cp-') ? 'CP' : 'AL');
    const sum = (id: string) => rows.filter((r) => r.match_id === id).reduce((a, r) => a + Number(r.decisions), 0);
    for (const o of localRandoms) expect(sum(o.matchId)).toBe(o.decisions);
  });

  // A turn's weather (7.1) opens it: impulse 1 with the Central Powers' segment, never after it.
  it('telemetry: impulse rows run in game order by (turn, impulse)', async () => {
    const ids = localRandoms.map((o) => `'${o.matchId}'`).join(',');
    const rows = (await telemetry.query(`SELECT match_id, seq, turn, impulse FROM impulses FINAL WHERE match_id IN (${ids}) ORDER BY match_id, seq`)).rows as unknown as {
      match_id: string;
      turn: number;
      impulse: number;
    }[];
    for (let i = 1; i < rows.length; i++) {
      const [p, r] = [rows[i - 1]!, rows[i]!];
      if (p.match_id !== r.match_id) continue;
      expect(r.turn > p.turn || (r.turn === p.turn && r.impulse >= p.impulse), `${r.match_id} ${p.turn}.${p.impulse} then ${r.turn}.${r.impulse}`).toBe(true);
    }
  });

  it('the API: win rates by side and bot, per-impulse curves and balance for E&A', async () => {
    const get = async (url: string) => (await app.inject({ method: 'GET', url })).json();
    const rates = await get(`/api/win-rates?game=${GAME}&tournament=ea-platform-random`);
    expect(rates.sides.map((s: { side: string }) => s.side).sort()).toEqual(['AL', 'CP']);
    for (const s of rates.sides) {
      expect(s.scenario).toBe('1918');
      expect(s.games).toBe(localRandoms.length);
      expect(s.wins).toBe(localRandoms.filter((o) => o.sides[s.side] === 'win').length);
    }
    const curves = await get(`/api/curves?game=${GAME}&tournament=ea-platform-random`);
    expect(new Set(curves.curves.map((c: { power: string }) => c.power))).toEqual(new Set(['CP', 'AL']));
    // The S3 3.4 set-up is turn 0 (before March 1918), so it no longer shares (1, 1) with the CP's first segment.
    expect([curves.curves[0].turn, curves.curves[0].impulse]).toEqual([0, 1]);
    expect(curves.curves.some((c: { turn: number; impulse: number }) => c.turn === 1 && c.impulse === 1)).toBe(true);
    const last = curves.curves.at(-1);
    expect(last.turn).toBe(9);
    const balance = await get(`/api/balance?game=${GAME}`);
    const s = balance.scenarios.find((x: { scenario: string }) => x.scenario === '1918');
    expect(s.matches).toBe(local.length + localRandoms.length);
    expect(s.sides.map((x: { side: string }) => x.side).sort()).toEqual(['AL', 'CP']);
    expect(s.victoryConditions.every((v: { reason: string }) => /3\.71/.test(v.reason))).toBe(true);
  });

  it('BullMQ workers over a real redis-server play the same plan to the same results as the local pool', async () => {
    redis = await startRedisServer();
    worker = await startWorker({ connection: redis.url, concurrency: 2, telemetry: false });
    await submitTournament(randoms, { connection: redis.url });
    const done = await waitFinished(randoms.tournamentId, redis.url, 150_000);
    const key = (o: MatchOutcome) => ({ matchId: o.matchId, kind: o.kind, sides: o.sides, scores: o.scores, decisions: o.decisions, impulses: o.impulses });
    const byId = (xs: MatchOutcome[]) => xs.map(key).sort((a, b) => a.matchId.localeCompare(b.matchId));
    expect(byId(done.outcomes)).toEqual(byId(localRandoms));
    // The queue has it, so status reads the queue (an empty store of its own: this process holds the test's).
    const r = await salient(['tournament', 'status', randoms.tournamentId, '--redis', redis.url, '--json'], { SALIENT_CLICKHOUSE_PATH: join(root, 'clickhouse-status') });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ state: 'finished' });
  }, 180_000);

  it('the CLI on the store: report balance, tournament status, list and export, and replay of the export', async () => {
    await app.close();
    await telemetry.close();
    const env = { SALIENT_CLICKHOUSE_PATH: store() };
    // `report balance` gives each side's win rate and the game lengths (as `report` does, from the same queries the API answers above).
    const balance = await salient(['report', 'balance', '--game', GAME], env);
    expect(balance.code, balance.stderr).toBe(0);
    expect(balance.stdout).toMatch(/empires-alliances · Scenario 1918/);
    expect(balance.stdout).toMatch(/^ {2}CP \(CP\): won \d+ of 10/m);
    expect(balance.stdout).toMatch(/length: last turn mean/);
    const status = await salient(['tournament', 'status', bots.tournamentId], env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/finished: all 6 matches played/);
    const file = join(root, 'bots.jsonl');
    const ex = await salient(['tournament', 'export', bots.tournamentId, '--out', file], env);
    expect(ex.code, ex.stderr).toBe(0);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(6);
    // The replay needs no store, so it runs beside `list`.
    const [replay, list] = await Promise.all([salient(['replay', file]), salient(['tournament', 'list', '--json'], env)]);
    expect(replay.code, replay.stdout + replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(/6 of 6 match\(es\) in .* reproduce their recorded final state/);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).tournaments.map((t: { id: string; game: string }) => [t.id, t.game]).sort()).toEqual([
      ['ea-platform-bots', GAME],
      ['ea-platform-random', GAME],
    ]);
  }, 240_000);

  // That an unchanged suite replays to its baseline is test/regress-example.test.ts's (the committed E&A suite).
  it('regress: a changed CRT moves the games of a recorded baseline', async () => {
    const suite = join(root, 'ea-suite.yaml');
    writeFileSync(suite, `id: ea-platform-regress\ngame: ${GAME}\npack: approximation\nscenarios: ['1918']\nentrants:\n  - { name: random, bot: random, version: '1' }\n  - { name: random-b, bot: random, version: '1' }\ngamesPerPairing: 4\nsideSwap: true\nbaseSeed: 40\n`);
    const rec = await salient(['regress', suite, '--update-baseline', '--quiet']);
    expect(rec.code, rec.stderr).toBe(0);
    const crt = brokenCopy('crt-changed', 'charts.json', (c) => {
      // A rule change: every "no decision" on the CRT becomes an exchange.
      c.crt.results = c.crt.results.map((row: string[]) => row.map((x) => (x === 'ND' ? 'EX' : x)));
      return c;
    });
    const moved = await salient(['regress', suite, '--pack', crt, '--quiet', '--json']);
    expect(moved.code, moved.stderr).toBe(1);
    expect(JSON.parse(moved.stdout)).toMatchObject({ games: 2, moved: true });
    expect(moved.stdout).toMatch(/ND|EX/);
  }, 180_000);
});
