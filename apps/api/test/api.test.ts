/**
 * The dashboard API through `inject`, against an embedded ClickHouse store holding a real small
 * tournament (played here by the local pool), and a real redis-server for the writes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { findGame } from '@salient/catalog';
import { parseReplay, runReplay } from '@salient/engine';
import { openTelemetry, type Telemetry } from '@salient/telemetry';
import { createBot } from '@salient/bots';
import { runMatch, type MatchRow, type TelemetrySink } from '@salient/runner';
import { formerSweepLevelName, parseTournamentSpec, planTournament, resolveGamePack, resultsContextOf, tournamentResults, type MatchOutcome, type TournamentPlan } from '@salient/scheduler';
import { recordedOutcomes, runLocalTournament } from '@salient/scheduler/local';
import { connectRedis, publishSpool, tournamentStatus } from '@salient/scheduler/bullmq';
import { loadHexMap, type HexMap } from '@salient/hexmap';
import type { EaState } from '@salient/game-empires-alliances';
import { startRedisServer, type TestRedisServer } from '../../../test/support/redis-server.ts';
import { buildApp, createLogger, wilson } from '../src/index.ts';
import { boardReply } from '../src/schemas.ts';
import { matchBoard } from '../src/board.ts';
import { PLOT_EXPORTS } from '../src/vendor.ts';

const TOKEN = 'test-token-0123456789';
let root = '';
let telemetry: Telemetry;
let plan: TournamentPlan;
let outcomes: MatchOutcome[];
let app: FastifyInstance;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'salient-api-'));
  telemetry = await openTelemetry({ kind: 'embedded', path: join(root, 'clickhouse'), spoolDir: join(root, 'spool') });
  plan = await planTournament(
    await parseTournamentSpec('id: api-test\ngame: blitz\nscenarios: [A, B]\nentrants: [random, greedy]\ngamesPerPairing: 4\nsideSwap: true\nbaseSeed: 11\n', 'api-test.yaml'),
  );
  outcomes = (await runLocalTournament({ plan, threads: 2, telemetry })).outcomes;
  app = await buildApp({ telemetry, processMetrics: false });
}, 120_000);

afterAll(async () => {
  await app?.close();
  await telemetry?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const get = async (url: string, a: FastifyInstance = app) => {
  const r = await a.inject({ method: 'GET', url });
  return { status: r.statusCode, body: r.headers['content-type']?.toString().includes('json') ? r.json() : r.body, headers: r.headers };
};

/** Wins, losses and draws by scenario and side, counted from the outcomes the pool returned. */
function expectedBySide(): Map<string, { games: number; wins: number; losses: number; draws: number }> {
  const m = new Map<string, { games: number; wins: number; losses: number; draws: number }>();
  for (const o of outcomes) {
    for (const [side, result] of Object.entries(o.sides)) {
      const k = `${o.scenario}/${side}`;
      const e = m.get(k) ?? { games: 0, wins: 0, losses: 0, draws: 0 };
      e.games++;
      if (result === 'win') e.wins++;
      else if (result === 'loss') e.losses++;
      else e.draws++;
      m.set(k, e);
    }
  }
  return m;
}

describe('reads', () => {
  it('win rates by scenario and side are the tournament\'s own counts, with Wilson intervals around them', async () => {
    const { status, body } = await get('/api/win-rates?game=blitz');
    expect(status).toBe(200);
    const expected = expectedBySide();
    expect(body.sides).toHaveLength(expected.size);
    for (const s of body.sides) {
      expect({ games: s.games, wins: s.wins, losses: s.losses, draws: s.draws }).toEqual(expected.get(`${s.scenario}/${s.side}`));
      expect(s.interval).toEqual(wilson(s.wins, s.games));
      expect(s.interval.low).toBeLessThanOrEqual(s.winRate);
      expect(s.interval.high).toBeGreaterThanOrEqual(s.winRate);
    }
    // By bot: every (scenario, side) split between the two entrants, adding up to the side's games.
    const bots = body.bots as { scenario: string; side: string; bot: string; games: number }[];
    expect(new Set(bots.map((b) => b.bot.split('@')[0]))).toEqual(new Set(['random', 'greedy']));
    for (const [k, e] of expected) expect(bots.filter((b) => `${b.scenario}/${b.side}` === k).reduce((a, b) => a + b.games, 0)).toBe(e.games);
  });

  it('filters: one scenario, one bot, a time range', async () => {
    const a = await get('/api/win-rates?scenario=A');
    expect(new Set(a.body.sides.map((s: { scenario: string }) => s.scenario))).toEqual(new Set(['A']));
    const greedy = await get('/api/win-rates?bot=greedy');
    expect(greedy.body.bots.every((b: { bot: string }) => b.bot.startsWith('greedy@'))).toBe(true);
    const future = await get('/api/win-rates?from=2999-01-01T00:00:00Z');
    expect(future.body).toEqual({ sides: [], bots: [] });
    const past = await get('/api/matches?to=2000-01-01T00:00:00Z');
    expect(past.body.total).toBe(0);
    const all = await get('/api/matches?from=2000-01-01T00:00:00Z&to=2999-01-01T00:00:00Z');
    expect(all.body.total).toBe(outcomes.length);
  });

  it('game lengths count every match of each scenario', async () => {
    const { status, body } = await get('/api/lengths');
    expect(status).toBe(200);
    for (const scenario of ['A', 'B']) {
      const turns = body.lengths.find((l: { scenario: string; metric: string }) => l.scenario === scenario && l.metric === 'turns');
      expect(turns.matches).toBe(outcomes.filter((o) => o.scenario === scenario).length);
      expect(turns.buckets.reduce((a: number, b: { count: number }) => a + b.count, 0)).toBe(turns.matches);
    }
  });

  it("games: what each game's scores and margins count, as the game itself says (Blitz!: not victory points)", async () => {
    const { status, body } = await get('/api/games');
    expect(status).toBe(200);
    const blitz = body.games.find((g: { id: string }) => g.id === 'blitz');
    expect(blitz.measures).toEqual(findGame('blitz').measures);
    expect(blitz.measures.score.description).toMatch(/not victory points/);
    // Every stored match carries its game's margin, which those words explain.
    const { body: page } = await get('/api/matches?scenario=A');
    expect(page.matches.length).toBeGreaterThan(0);
    for (const m of page.matches) expect(m.margin, m.matchId).toBeGreaterThanOrEqual(0);
  });

  it('per-impulse curves have a point per power and impulse, from turn 1 of Scenario A', async () => {
    const { body } = await get('/api/curves?scenario=A');
    expect(body.curves.length).toBeGreaterThan(0);
    expect(new Set(body.curves.map((c: { power: string }) => c.power)).size).toBeGreaterThan(1);
    const first = body.curves[0];
    expect([first.turn, first.impulse]).toEqual([1, 1]);
    expect(first.matches).toBe(outcomes.filter((o) => o.scenario === 'A').length);
    // The pool's threads filed each match's curve with its match row; it must say what the impulse
    // rows themselves say.
    const fromImpulses = await telemetry.query(
      `SELECT turn, impulse, power, count() AS n, avg(s) AS mean_score, avg(l) AS mean_losses, avg(c) AS mean_control,
              avg(extra_values[indexOf(extra_keys, concat(power, '.units'))]) AS mean_units
       FROM impulses FINAL ARRAY JOIN powers AS power, scores AS s, losses AS l, control AS c
       WHERE match_id IN (SELECT match_id FROM matches WHERE scenario = 'A')
       GROUP BY turn, impulse, power ORDER BY turn, impulse, power`,
    );
    const round = (x: unknown) => Number(x).toFixed(9);
    expect(body.curves.map((c: Record<string, number>) => [c.turn, c.impulse, c.power, c.matches, round(c.meanScore), round(c.meanLosses), round(c.meanControl), round(c.meanUnits)])).toEqual(
      fromImpulses.rows.map((r) => [Number(r.turn), Number(r.impulse), r.power, Number(r.n), round(r.mean_score), round(r.mean_losses), round(r.mean_control), round(r.mean_units)]),
    );
  });

  it("ratings: Bradley–Terry and openskill over the tournament's own results, the same figures the stats package gives", async () => {
    const { status, body } = await get('/api/ratings');
    expect(status).toBe(200);
    const decided = outcomes.filter((o) => Object.keys(o.sides).length > 0);
    expect(body.matches).toBe(decided.length);
    const bots = new Set(decided.flatMap((o) => Object.values(o.entrants)));
    expect(body.bradleyTerry.bots).toHaveLength(bots.size);
    // strengths are relative to the average bot; each bot's games are its matches
    expect(body.bradleyTerry.bots.reduce((a: number, b: { elo: number }) => a + b.elo, 0)).toBeCloseTo(0, 6);
    for (const b of body.bradleyTerry.bots) {
      expect(b.games).toBe(decided.filter((o) => Object.values(o.entrants).some((e) => b.bot.startsWith(`${e}@`))).length);
      expect(b.interval.low).toBeLessThan(b.elo);
      expect(b.interval.high).toBeGreaterThan(b.elo);
    }
    // every side of every scenario, with its win probability between equal bots inside its interval
    expect(body.bradleyTerry.sides.map((s: { scenario: string; side: string }) => `${s.scenario}/${s.side}`).sort()).toEqual(
      [...new Set(decided.flatMap((o) => Object.keys(o.sides).map((side) => `${o.scenario}/${side}`)))].sort(),
    );
    for (const s of body.bradleyTerry.sides) expect(s.interval.low <= s.winProbabilityEven && s.winProbabilityEven <= s.interval.high).toBe(true);
    expect(body.openskill.bots.map((b: { bot: string }) => b.bot).sort()).toEqual(body.bradleyTerry.bots.map((b: { bot: string }) => b.bot).sort());
    // the filter applies: one bot's matches only
    const one = await get('/api/ratings?scenario=A');
    expect(one.body.matches).toBe(decided.filter((o) => o.scenario === 'A').length);
    const none = await get('/api/ratings?scenario=Z');
    expect(none.body).toEqual({ matches: 0 });
  });

  it('balance: each side as played and net of bot strength, lengths, who moves first, the victory conditions adding up', async () => {
    const { status, body } = await get('/api/balance');
    expect(status).toBe(200);
    expect(body.scenarios.map((s: { scenario: string }) => s.scenario).sort()).toEqual(['A', 'B']);
    for (const s of body.scenarios) {
      const mine = outcomes.filter((o) => o.scenario === s.scenario);
      expect(s.matches).toBe(mine.length);
      for (const side of s.sides) {
        expect(side.wins).toBe(mine.filter((o) => o.sides[side.side] === 'win').length);
        expect(side.powers.length).toBeGreaterThan(0);
        expect(side.net.matches).toBe(mine.length);
      }
      const decided = mine.filter((o) => Object.keys(o.sides).length);
      expect(s.victoryConditions.reduce((a: number, v: { matches: number }) => a + v.matches, 0)).toBe(decided.length);
      // by winner, the conditions' matches add up to the matches that winner took
      const winners = (o: MatchOutcome) => JSON.stringify(Object.keys(o.sides).sort().filter((x) => o.sides[x] === 'win'));
      const byWinner = new Map<string, number>();
      for (const v of s.victoryConditions) byWinner.set(JSON.stringify(v.winners), (byWinner.get(JSON.stringify(v.winners)) ?? 0) + v.matches);
      for (const [w, n] of byWinner) expect(n, w).toBe(decided.filter((o) => winners(o) === w).length);
      expect(s.sides.map((x: { side: string }) => x.side)).toContain(s.firstMove.side);
      expect(s.firstMove.matches).toBe(mine.length);
      expect(s.lengths.map((l: { metric: string }) => l.metric).sort()).toEqual(['decisions', 'impulses', 'turns']);
    }
    const none = await get('/api/balance?scenario=Z');
    expect(none.body.scenarios).toEqual([]);
  });

  it('matches come a page at a time, newest first, with the total', async () => {
    const p1 = await get('/api/matches?limit=3');
    const p2 = await get('/api/matches?limit=3&offset=3');
    expect(p1.body.total).toBe(outcomes.length);
    expect(p1.body.matches).toHaveLength(3);
    expect(p2.body.matches).toHaveLength(3);
    const ids = [...p1.body.matches, ...p2.body.matches].map((m: { matchId: string }) => m.matchId);
    expect(new Set(ids).size).toBe(6);
    for (const m of p1.body.matches) expect(outcomes.map((o) => o.matchId)).toContain(m.matchId);
  });

  it('a cursor walks every match once, in the same order as offsets, and a bad cursor is a 400 that says so', async () => {
    const byOffset: string[] = [];
    for (let offset = 0; offset < outcomes.length; offset += 5) byOffset.push(...(await get(`/api/matches?limit=5&offset=${offset}`)).body.matches.map((m: { matchId: string }) => m.matchId));
    const byCursor: string[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const { status, body } = await get(`/api/matches?limit=5${after ? `&after=${after}` : ''}`);
      expect(status).toBe(200);
      byCursor.push(...body.matches.map((m: { matchId: string }) => m.matchId));
      after = body.next;
      pages++;
    } while (after && pages < 20);
    expect(byCursor).toEqual(byOffset);
    expect(new Set(byCursor)).toEqual(new Set(outcomes.map((o) => o.matchId)));
    // with a filter, the cursor pages stay inside it
    const first = await get('/api/matches?limit=3&scenario=B');
    const second = await get(`/api/matches?limit=3&scenario=B&after=${first.body.next}`);
    expect([...first.body.matches, ...second.body.matches].every((m: { scenario: string }) => m.scenario === 'B')).toBe(true);
    for (const bad of ['not-a-cursor', Buffer.from('[1,2]').toString('base64url'), 'a%27%20OR%201%3D1']) {
      const r = await get(`/api/matches?after=${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.message).toMatch(/after|cursor/);
    }
  });

  it('one match: its impulses and events; its replay re-runs to the stored final hash', async () => {
    const o = outcomes.find((x) => x.scenario === 'B') as MatchOutcome;
    const { status, body } = await get(`/api/matches/${o.matchId}`);
    expect(status).toBe(200);
    expect(body.match.matchId).toBe(o.matchId);
    expect(body.match.impulses).toBe(o.impulses);
    expect(body.impulses).toHaveLength(o.impulses);
    expect(body.impulses.map((i: { seq: number }) => i.seq)).toEqual([...body.impulses.map((i: { seq: number }) => i.seq)].sort((a, b) => a - b));
    expect(body.events.length).toBeGreaterThan(0);
    const replay = await get(`/api/matches/${o.matchId}/replay`);
    expect(replay.status).toBe(200);
    const { game, pack } = await resolveGamePack('blitz', 'approximation');
    const rerun = runReplay(game, pack, parseReplay(replay.body));
    expect(rerun.matches).toBe(true);
    expect(rerun.hash).toBe(body.match.finalHash);
  });

  it("one match on its map: a frame for the start and one per impulse, each impulse's stored events in its frame", async () => {
    const o = outcomes.find((x) => x.scenario === 'A') as MatchOutcome;
    const [{ body: board }, { body: detail }] = await Promise.all([get(`/api/matches/${o.matchId}/board`), get(`/api/matches/${o.matchId}`)]);
    expect(board.frames).toHaveLength(o.impulses + 1);
    expect(board.frames.map((f: { impulse: number }) => f.impulse)).toEqual([-1, ...Array.from({ length: o.impulses }, (_, i) => i)]);
    const areas = new Map<string, { kind: string; lon: number; lat: number }>(board.layout.areas.map((a: { id: string }) => [a.id, a]));
    expect(areas.get('london')).toMatchObject({ kind: 'land', lon: -1.2, lat: 52 });
    for (const [a, b] of board.layout.links) expect(areas.has(a) && areas.has(b), `${a}-${b}`).toBe(true);
    for (const f of board.frames) for (const area of Object.keys(f.units)) expect(areas.has(area), area).toBe(true);
    expect(Object.values(board.frames[0].units).flat().length).toBeGreaterThan(0);
    expect(board.sides.map((s: { id: string }) => s.id).sort()).toEqual(Object.keys(o.sides).sort());
    // Every stored event sits in the frame of its impulse.
    for (const e of detail.events as { impulseSeq: number; type: string; text: string }[]) {
      expect(board.frames[e.impulseSeq + 1].events, e.text).toContainEqual(expect.objectContaining({ type: e.type, text: e.text }));
    }
    // The frames' positions follow the impulses' (the first frame is where the first impulse starts).
    expect(board.frames[0].position).toEqual(detail.impulses[0].position);

    // Step by step: one step per log entry; the start with every step's changes applied gives each
    // impulse frame in turn and the last one at the end; the steps' events are the frames' events.
    const { body: replay } = await get(`/api/matches/${o.matchId}/replay`);
    type Delta = Record<string, unknown>;
    type Step = { by: string; choice: string; frame: number; events: { type: string; text: string; data?: Record<string, unknown> }[]; control?: Delta; units?: Delta; markers?: Delta };
    const steps = board.steps as Step[];
    expect(steps.map((s) => [s.by, s.choice])).toEqual(replay.log.map((e: { by: string; choice: string }) => [e.by, e.choice]));
    const map = { control: { ...board.frames[0].control }, units: { ...board.frames[0].units }, markers: { ...(board.frames[0].markers ?? {}) } } as Record<'control' | 'units' | 'markers', Delta>;
    const apply = (d: Delta | undefined, into: Delta) => {
      for (const [k, v] of Object.entries(d ?? {})) if (v === null) delete into[k];
      else into[k] = v;
    };
    let frame = 0;
    let evs: { type: string; text: string }[] = [];
    for (const s of steps) {
      expect(s.frame).toBe(frame);
      apply(s.control, map.control);
      apply(s.units, map.units);
      apply(s.markers, map.markers);
      evs.push(...s.events.map((e) => ({ type: e.type, text: e.text })));
      const next = board.frames[frame + 1];
      if (next && s === steps[steps.findLastIndex((x) => x.frame === frame)]) {
        expect(map.control, `control after impulse ${frame}`).toEqual(next.control);
        expect(map.units, `units after impulse ${frame}`).toEqual(next.units);
        expect(evs).toEqual(next.events.map((e: { type: string; text: string }) => ({ type: e.type, text: e.text })));
        evs = [];
        frame++;
      }
    }
    expect(frame).toBe(board.frames.length - 1);
    // Events carry their data: a move its path, a combat its target.
    const all = steps.flatMap((s) => s.events);
    expect(all.find((e) => e.type === 'move')?.data).toMatchObject({ path: expect.any(Array) });
    expect(steps.some((s) => s.units !== undefined)).toBe(true);
  });

  it('an unknown match is a 404 that says where to look', async () => {
    for (const url of ['/api/matches/nope', '/api/matches/nope/replay', '/api/matches/nope/board']) {
      const r = await get(url);
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ error: 'UNKNOWN_MATCH' });
      expect(r.body.message).toContain('/api/matches');
    }
  });

  it('a board is drawn once and kept: the same text again, a 304 for its ETag, a schema-true reply, and the cache counted in /metrics', async () => {
    const o = outcomes.filter((x) => x.scenario === 'B').at(-1) as MatchOutcome;
    const a = await buildApp({ telemetry, processMetrics: false });
    try {
      const url = `/api/matches/${o.matchId}/board`;
      // Two at once: one draws it, the other waits for that drawing.
      const [first, second] = await Promise.all([a.inject({ method: 'GET', url }), a.inject({ method: 'GET', url })]);
      const third = await a.inject({ method: 'GET', url });
      for (const r of [first, second, third]) {
        expect(r.statusCode).toBe(200);
        expect(r.headers['content-type']).toMatch(/^application\/json/);
      }
      expect(second.body).toBe(first.body);
      expect(third.body).toBe(first.body);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"b-[\w-]{27}"$/);
      expect(third.headers.etag).toBe(etag);
      // Sent as text, so fastify's serializer is not between it and the schema: the schema is checked here.
      expect(boardReply.safeParse(JSON.parse(first.body)).success).toBe(true);
      // The text is the board itself, as drawn from the stored replay.
      expect(JSON.parse(first.body)).toEqual(JSON.parse(JSON.stringify(await matchBoard(telemetry, o.matchId))));
      const again = await a.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      const stale = await a.inject({ method: 'GET', url, headers: { 'if-none-match': '"b-something-else"' } });
      expect(stale.statusCode).toBe(200);
      const metrics = (await a.inject({ method: 'GET', url: '/metrics' })).body;
      const count = (result: string) => Number(metrics.match(new RegExp(`^salient_api_board_lookups_total\\{result="${result}"\\} (\\d+)$`, 'm'))?.[1] ?? 0);
      expect(count('drawn')).toBe(1);
      expect(count('waited') + count('kept')).toBe(4);
      // Gzipped for a client that takes it: the same text, a fraction of the bytes.
      const zipped = await a.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate' } });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toBe('accept-encoding');
      expect(gunzipSync(zipped.rawPayload).toString()).toBe(first.body);
      expect(zipped.rawPayload.length).toBeLessThan(first.body.length / 4);
      expect(first.headers['content-encoding']).toBeUndefined();
      expect(Number(metrics.match(/^salient_api_board_cache_bytes (\d+)$/m)?.[1])).toBe(first.body.length + zipped.rawPayload.length);
    } finally {
      await a.close();
    }
    // A cache of 0 bytes keeps nothing: each request draws the board again, to the same text.
    const none = await buildApp({ telemetry, processMetrics: false, boardCacheBytes: 0 });
    try {
      const url = `/api/matches/${o.matchId}/board`;
      const [x, y] = [await none.inject({ method: 'GET', url }), await none.inject({ method: 'GET', url })];
      expect(y.body).toBe(x.body);
      const metrics = (await none.inject({ method: 'GET', url: '/metrics' })).body;
      expect(metrics).toMatch(/^salient_api_board_lookups_total\{result="drawn"\} 2$/m);
      expect(metrics).toMatch(/^salient_api_board_cache_bytes 0$/m);
    } finally {
      await none.close();
    }
  });

  it('tournaments: the list, and one with standings that add up to its matches', async () => {
    const list = await get('/api/tournaments');
    expect(list.body.tournaments.map((t: { id: string }) => t.id)).toContain('api-test');
    const one = await get('/api/tournaments/api-test');
    expect(one.status).toBe(200);
    expect(one.body.tournament.matches).toBe(outcomes.length);
    expect(one.body.tournament.scenarios).toEqual(['A', 'B']);
    const games = one.body.standings.reduce((a: number, s: { games: number }) => a + s.games, 0);
    expect(games).toBe(outcomes.reduce((a, o) => a + Object.keys(o.sides).length, 0));
    for (const s of one.body.standings) expect(s.score).toBe(s.wins + s.draws / 2);
    // The pool recorded its plan, so progress comes from the store: every planned match recorded.
    expect(one.body.tournament).toMatchObject({ planned: outcomes.length, executor: 'local', state: 'finished' });
    expect(one.body.progress).toEqual({ source: 'store', state: 'finished', total: outcomes.length, waiting: 0, active: 0, completed: outcomes.length, failed: 0 });
    expect(one.body).toMatchObject({ state: 'finished', reason: `finished: all ${outcomes.length} matches played` });
    // Results by entrant, from the recorded matches against the stored spec: the run's own outcomes give the same.
    expect(one.body.results).toEqual(JSON.parse(JSON.stringify(tournamentResults(outcomes, resultsContextOf(plan.spec)))));
    const [pairing] = one.body.results.pairings;
    expect(pairing).toMatchObject({ games: outcomes.length, model: 'pentanomial', pairs: outcomes.length / 2 });
    expect(pairing.elo.ci.low).toBeLessThan(pairing.elo.ci.high);
    expect(one.body.results.byScenario.map((b: { scenario: string }) => b.scenario)).toEqual(['A', 'B']);
    expect((await get('/api/tournaments/unknown-one')).status).toBe(404);
  });

  it('a tournament that has started but recorded no match yet is listed, with its progress', async () => {
    await telemetry.recordTournament({ id: 'api-starting', game: 'blitz', spec: { scenarios: ['C'] }, planned: 12, executor: 'local', state: 'running', startedAt: new Date() });
    const list = await get('/api/tournaments');
    expect(list.body.tournaments[0]).toMatchObject({ id: 'api-starting', matches: 0, planned: 12, state: 'running', scenarios: ['C'] });
    const one = await get('/api/tournaments/api-starting');
    expect(one.body.progress).toEqual({ source: 'store', state: 'running', total: 12, waiting: 12, active: 0, completed: 0, failed: 0 });
    // Three minutes on with no renewal of its record and no match: its runner is gone, and the API says so.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 180_000 });
    try {
      const page = (await get('/api/tournaments/api-starting')).body;
      expect(page.progress).toMatchObject({ state: 'failed', waiting: 0, unplayed: 12 });
      expect(page.reason).toMatch(/^failed: its runner has not been heard of since .* \(killed or hung\), after 0 of 12 matches; run it again to resume$/);
      const listed = (await get('/api/tournaments')).body.tournaments.find((t: { id: string }) => t.id === 'api-starting');
      // One state wherever it is read: the list says what the page says.
      expect(listed).toMatchObject({ state: 'failed', reason: page.reason, recordedState: 'running' });
    } finally {
      vi.useRealTimers();
    }
    // A later record of the same id wins.
    await telemetry.recordTournament({ id: 'api-starting', game: 'blitz', planned: 12, executor: 'local', state: 'cancelled', startedAt: new Date() });
    const cancelled = (await get('/api/tournaments/api-starting')).body;
    expect(cancelled.progress.state).toBe('stopped');
    expect(cancelled.reason).toBe('stopped: cancelled after 0 of 12 matches');
    // Filters on matches leave out tournaments without such matches.
    expect((await get('/api/tournaments?scenario=A')).body.tournaments.map((t: { id: string }) => t.id)).not.toContain('api-starting');
  });
});

describe('service endpoints', () => {
  it('/health says the store answers and no queue is configured', async () => {
    const { status, body } = await get('/health');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', clickhouse: { ok: true }, redis: { configured: false } });
  });

  it('/health is 503 when the configured Redis does not answer', async () => {
    const a = await buildApp({ telemetry, redis: 'redis://127.0.0.1:1', processMetrics: false });
    try {
      const { status, body } = await get('/health', a);
      expect(status).toBe(503);
      expect(body).toMatchObject({ status: 'degraded', clickhouse: { ok: true }, redis: { configured: true, ok: false } });
    } finally {
      await a.close();
    }
  });

  it('/metrics counts requests by route pattern and status', async () => {
    const count = async (route: string, status: number): Promise<number> => {
      const text = String((await get('/metrics')).body);
      const m = new RegExp(`salient_api_http_requests_total\\{method="GET",route="${route}",status_code="${status}"\\} (\\d+)`).exec(text);
      return m ? Number(m[1]) : 0;
    };
    const ok = await count('/api/matches', 200);
    const missing = await count('/api/matches/:id', 404);
    await get('/api/matches?limit=1');
    await get('/api/matches?limit=2');
    await get('/api/matches/nope');
    expect(await count('/api/matches', 200)).toBe(ok + 2);
    expect(await count('/api/matches/:id', 404)).toBe(missing + 1);
    const { status, body } = await get('/metrics');
    expect(status).toBe(200);
    expect(body).toContain('salient_api_http_request_duration_seconds_bucket{le="0.001",method="GET",route="/api/matches",status_code="200"}');
  });

  it("/vendor serves the dashboard's map libraries and Natural Earth land from this server, with an ETag", async () => {
    const js = await get('/vendor/viz.js');
    expect(js.status).toBe(200);
    expect(String(js.headers['content-type'])).toMatch(/javascript/);
    // An ES module exporting what the maps import.
    for (const name of ['zoom', 'zoomIdentity', 'select', 'geoPath', 'feature']) expect(String(js.body)).toMatch(new RegExp(`\\b${name}\\b`));
    const again = await app.inject({ method: 'GET', url: '/vendor/viz.js', headers: { 'if-none-match': String(js.headers.etag) } });
    expect(again.statusCode).toBe(304);
    const land = await get('/vendor/land-50m.json');
    expect((await get('/vendor/land-110m.json')).status).toBe(200);
    expect(land.status).toBe(200);
    expect((land.body as { type: string; objects: Record<string, unknown> }).type).toBe('Topology');
    expect(Object.keys((land.body as { objects: Record<string, unknown> }).objects)).toContain('land');
  });

  it('/vendor/viz.js bundles Observable Plot for the charts too, /vendor/plot.js re-exports it, gzipped for a client that takes it', async () => {
    const names = (js: string, tail = '') => new RegExp(`export\\s*\\{([^}]*)\\}${tail}\\s*;?\\s*$`).exec(js)?.[1]?.split(',').map((e) => e.trim().split(/\s+as\s+/).at(-1));
    const viz = await app.inject({ method: 'GET', url: '/vendor/viz.js' });
    expect(viz.headers['content-encoding']).toBeUndefined();
    // One ES module: the maps' libraries and the marks the charts draw with.
    expect(names(viz.body)).toEqual(expect.arrayContaining([...PLOT_EXPORTS, 'zoom', 'geoPath', 'Delaunay', 'feature']));
    const plot = await app.inject({ method: 'GET', url: '/vendor/plot.js' });
    expect(plot.statusCode).toBe(200);
    expect(String(plot.headers['content-type'])).toMatch(/javascript/);
    expect(names(plot.body, `\\s*from\\s*'\\./viz\\.js'`)?.sort()).toEqual([...PLOT_EXPORTS].sort());
    const zipped = await app.inject({ method: 'GET', url: '/vendor/viz.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toMatch(/accept-encoding/i);
    expect(zipped.rawPayload.length).toBeLessThan(viz.rawPayload.length / 2);
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(viz.body);
    expect(zipped.headers.etag).toBe(viz.headers.etag);
  });

  it('/docs serves the OpenAPI document and its UI from this server', async () => {
    const spec = await get('/docs/json');
    expect(spec.status).toBe(200);
    expect(Object.keys(spec.body.paths)).toEqual(expect.arrayContaining(['/api/win-rates', '/api/matches/{id}', '/api/tournaments', '/api/tournaments/{id}/cancel']));
    // The board's reply documents the hex layout and the frames' markers.
    const board = spec.body.paths['/api/matches/{id}/board'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(board.properties.layout.properties)).toEqual(['areas', 'links', 'hex', 'focus']);
    expect(Object.keys(board.properties.layout.properties.hex.properties)).toEqual(['scheme', 'orientation', 'terrains', 'hexes', 'hexsides', 'cities', 'rail']);
    expect(board.properties.frames.items.properties.markers).toBeDefined();
    const ui = await get('/docs/');
    expect(ui.status).toBe(200);
    expect(String(ui.body)).not.toMatch(/https?:\/\/(?!localhost)[a-z]/i);
  });

  it('every answer carries a request id, the one given when it looks like one', async () => {
    const r = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } });
    expect(r.headers['x-request-id']).toBe('abc-123');
    const own = await app.inject({ method: 'GET', url: '/health' });
    expect(String(own.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
    const odd = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'a b<script>' } });
    expect(String(odd.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('bad input', () => {
  it('malformed parameters are a 400 that names the parameter', async () => {
    for (const [url, param] of [
      ['/api/matches?limit=abc', 'limit'],
      ['/api/matches?limit=0', 'limit'],
      ['/api/matches?offset=-1', 'offset'],
      ['/api/win-rates?from=yesterday', 'from'],
      ['/api/lengths?scenario=', 'scenario'],
    ] as const) {
      const r = await get(url);
      expect(r.status, url).toBe(400);
      expect(r.body.error).toBe('BAD_REQUEST');
      expect(r.body.issues.map((i: { path: string }) => i.path)).toContain(`querystring.${param}`);
      expect(r.body.message).toContain(param);
    }
  });

  it('injection attempts in every filter have no effect: refused, or matched as plain text', async () => {
    const before = (await get('/api/matches')).body.total;
    const attempts = ["A' OR '1'='1", "blitz'; DROP TABLE salient.matches; --", 'x\\', 'A) OR (1=1', "random@1' OR 1=1 --", 'A OR 1=1', 'random@1 OR 1=1'];
    for (const field of ['game', 'scenario', 'pack', 'rulesVersion', 'bot', 'tournament']) {
      for (const attempt of attempts) {
        for (const path of ['/api/win-rates', '/api/ratings', '/api/balance', '/api/matches', '/api/lengths', '/api/curves', '/api/tournaments']) {
          const r = await get(`${path}?${field}=${encodeURIComponent(attempt)}`);
          expect([200, 400], `${path} ${field}=${attempt}`).toContain(r.status);
          if (r.status === 200) {
            // Taken as a value that matches nothing.
            const rows = path === '/api/ratings' ? (r.body.matches === 0 ? [] : r.body) : (r.body.sides ?? r.body.scenarios ?? r.body.matches ?? r.body.lengths ?? r.body.curves ?? r.body.tournaments);
            expect(rows, `${path} ${field}=${attempt}`).toEqual([]);
          }
        }
      }
    }
    expect((await get('/api/matches')).body.total).toBe(before);
    for (const attempt of attempts) {
      const r = await get(`/api/matches/${encodeURIComponent(attempt)}`);
      expect([400, 404]).toContain(r.status);
    }
  });
});

describe('writes', () => {
  let redis: TestRedisServer;
  let writer: FastifyInstance;
  const spec = 'id: api-submitted\ngame: blitz\nscenarios: [A]\nentrants: [random, greedy]\ngamesPerPairing: 4\nsideSwap: true\n';
  const post = (a: FastifyInstance, url: string, body: unknown, token?: string) =>
    a.inject({ method: 'POST', url, payload: body as object, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    redis = await startRedisServer();
    writer = await buildApp({ telemetry, tokens: [TOKEN], redis: redis.url, processMetrics: false, writeRateLimit: { max: 5, timeWindowMs: 60_000 } });
  }, 30_000);
  afterAll(async () => {
    await writer?.close();
    await redis?.dispose();
  });

  it('are off when no token is configured: 403 saying how to turn them on', async () => {
    const r = await post(app, '/api/tournaments', { spec }, TOKEN);
    expect(r.statusCode).toBe(403);
    expect(r.json()).toMatchObject({ error: 'WRITES_DISABLED' });
    expect(r.json().message).toContain('SALIENT_API_TOKENS');
  });

  it('a missing or wrong token is a 401, and nothing is queued', async () => {
    expect((await post(writer, '/api/tournaments', { spec })).statusCode).toBe(401);
    expect((await post(writer, '/api/tournaments', { spec }, 'wrong-token')).statusCode).toBe(401);
    expect((await post(writer, '/api/tournaments/api-submitted/cancel', {}, 'wrong-token')).statusCode).toBe(401);
    await expect(tournamentStatus('api-submitted', { connection: redis.url })).rejects.toMatchObject({ code: 'UNKNOWN_TOURNAMENT' });
  });

  it('a bad spec is a 400 with the problems by path', async () => {
    const r = await post(writer, '/api/tournaments', { spec: 'id: x\ngame: blitz\nscenarios: [Z]\nentrants: [random]\n' }, TOKEN);
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toBe('BAD_SPEC');
    expect(r.json().issues.length).toBeGreaterThan(0);
    expect((await post(writer, '/api/tournaments', { nope: 1 }, TOKEN)).statusCode).toBe(400);
  });

  it('the request log has request ids and never a token', async () => {
    const lines: string[] = [];
    const sinkStream = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const logger = createLogger('info', sinkStream);
    const logged = await buildApp({ telemetry, tokens: [TOKEN], redis: redis.url, processMetrics: false, logger });
    try {
      await post(logged, '/api/tournaments/unknown-one/cancel', {}, TOKEN);
      await post(logged, '/api/tournaments/unknown-one/cancel', {}, 'a-wrong-token-value');
      logger.info({ req: { headers: { authorization: `Bearer ${TOKEN}` } } }, 'headers logged by mistake');
    } finally {
      await logged.close();
    }
    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.filter((l) => JSON.parse(l).reqId).length).toBeGreaterThan(1);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('a-wrong-token-value');
    expect(text).toContain('[redacted]');
  });

  it('an oversize body is refused before it is read', async () => {
    const small = await buildApp({ telemetry, tokens: [TOKEN], redis: redis.url, processMetrics: false, bodyLimit: 1024 });
    try {
      const r = await post(small, '/api/tournaments', { spec: `# ${'x'.repeat(4096)}\n${spec}` }, TOKEN);
      expect(r.statusCode).toBe(413);
      expect(r.json().error).toBe('FST_ERR_CTP_BODY_TOO_LARGE');
    } finally {
      await small.close();
    }
  });

  it('submit queues the tournament; its page then shows live progress; cancel takes it off the queue', async () => {
    const r = await post(writer, '/api/tournaments', { spec }, TOKEN);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ tournamentId: 'api-submitted', matches: 4, jobs: 2, batchPairs: 1, added: 4 });
    const page = await writer.inject({ method: 'GET', url: '/api/tournaments/api-submitted' });
    expect(page.statusCode).toBe(200);
    // No worker has taken a match yet: submitted, on the page and in the list alike.
    expect(page.json().progress).toMatchObject({ source: 'queue', state: 'submitted', total: 4, completed: 0 });
    expect(page.json().reason).toBe('submitted: 4 matches waiting for a worker');
    const listed = await writer.inject({ method: 'GET', url: '/api/tournaments' });
    expect(listed.json().tournaments).toContainEqual(
      expect.objectContaining({ id: 'api-submitted', matches: 0, planned: 4, executor: 'queue', state: 'submitted', reason: page.json().reason, recordedState: 'submitted', source: 'queue' }),
    );
    const c = await post(writer, '/api/tournaments/api-submitted/cancel', {}, TOKEN);
    expect(c.statusCode).toBe(200);
    expect(c.json()).toMatchObject({ tournamentId: 'api-submitted', removed: 4, running: 0 });
    expect((await tournamentStatus('api-submitted', { connection: redis.url })).state).toBe('cancelled');
  });

  it('retry puts the cancelled tournament back on the queue and lifts the cancel; /health shows the matches workers hold in their spools', async () => {
    const own = await buildApp({ telemetry, tokens: [TOKEN], redis: redis.url, processMetrics: false });
    try {
      expect((await post(own, '/api/tournaments/api-submitted/retry', {}, 'wrong-token')).statusCode).toBe(401);
      const r = await post(own, '/api/tournaments/api-submitted/retry', {}, TOKEN);
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toEqual({ tournamentId: 'api-submitted', requeued: 4, failed: 0, cancelled: 4, uncancelled: true });
      const s = await tournamentStatus('api-submitted', { connection: redis.url });
      expect(s.state).toBe('running');
      expect(s.counts.waiting).toBe(4);
      const unknown = await post(own, '/api/tournaments/nope/retry', {}, TOKEN);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toBe('UNKNOWN_TOURNAMENT');

      // A worker reports its spool in Redis while it holds matches the store has not taken.
      const client = await connectRedis(redis.url);
      try {
        await publishSpool(client, { worker: 'w-spooling', pending: 7, updatedAt: new Date().toISOString(), since: '2026-11-28T10:00:00.000Z' });
        const h = await own.inject({ method: 'GET', url: '/health' });
        expect(h.json()).toMatchObject({ status: 'ok', spool: { pending: 7, workers: [{ worker: 'w-spooling', pending: 7 }] } });
        await publishSpool(client, { worker: 'w-spooling', pending: 0, updatedAt: new Date().toISOString() });
        expect((await own.inject({ method: 'GET', url: '/health' })).json()).toMatchObject({ spool: { pending: 0, workers: [] } });
      } finally {
        client.disconnect();
      }
    } finally {
      await own.close();
    }
  });

  it('writes are rate-limited per client: 429 past the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await post(writer, '/api/tournaments/unknown-one/cancel', {}, TOKEN)).statusCode);
    expect(statuses).toContain(404);
    expect(statuses.at(-1)).toBe(429);
  });

  it('failed logins are limited per client: past 10 a minute every write is a 429 with Retry-After, even with the right token; other clients are not', async () => {
    const guarded = await buildApp({ telemetry, tokens: [TOKEN], redis: redis.url, processMetrics: false });
    const from = (remoteAddress: string, token?: string) =>
      guarded.inject({ method: 'POST', url: '/api/tournaments/unknown-one/cancel', remoteAddress, payload: {}, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
    try {
      const replies = [];
      for (let i = 0; i < 30; i++) replies.push(await from('10.0.0.1', `wrong-${i}`));
      const statuses = replies.map((r) => r.statusCode);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual(Array(20).fill(429));
      const retryAfter = Number(replies.at(-1)!.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(replies.at(-1)!.json()).toMatchObject({ error: 'TOO_MANY_FAILED_LOGINS', message: expect.stringContaining('Retry-After') });
      // The right token does not lift it for that client...
      expect((await from('10.0.0.1', TOKEN)).statusCode).toBe(429);
      // ...and another client, right token or wrong, is not affected.
      expect((await from('10.0.0.2', TOKEN)).statusCode).toBe(404);
      expect((await from('10.0.0.2', 'wrong')).statusCode).toBe(401);
      expect((await from('10.0.0.2', TOKEN)).statusCode).toBe(404);
    } finally {
      await guarded.close();
    }
  });

  it('the failed-login limit is configurable, and a login without any token counts as failed', async () => {
    const guarded = await buildApp({ telemetry, tokens: [TOKEN], redis: redis.url, processMetrics: false, failedLoginLimit: { max: 2, timeWindowMs: 1000 } });
    const post3 = async () => {
      const s: number[] = [];
      for (let i = 0; i < 3; i++) s.push((await guarded.inject({ method: 'POST', url: '/api/tournaments/unknown-one/cancel', remoteAddress: '10.0.0.3', payload: {} })).statusCode);
      return s;
    };
    try {
      expect(await post3()).toEqual([401, 401, 429]);
      // The window passes: the client may try again.
      await new Promise((r) => setTimeout(r, 1100));
      expect(await post3()).toEqual([401, 401, 429]);
    } finally {
      await guarded.close();
    }
  });
});

describe('ratings and balance are remembered only while their matches stay the same', () => {
  it('a tournament recorded after a first read shows up in the next one', async () => {
    const before = await get('/api/ratings?tournament=late');
    expect(before.body).toEqual({ matches: 0 });
    expect((await get('/api/balance?tournament=late')).body.scenarios).toEqual([]);
    const late = await planTournament(await parseTournamentSpec('id: late\ngame: blitz\nscenarios: [A]\nentrants: [random, greedy]\ngamesPerPairing: 2\nsideSwap: true\nbaseSeed: 5\n', 'late.yaml'));
    await runLocalTournament({ plan: late, threads: 1, telemetry });
    const after = await get('/api/ratings?tournament=late');
    expect(after.body.matches).toBe(2);
    expect(after.body.bradleyTerry.bots).toHaveLength(2);
    // and the same question again is the same answer
    expect((await get('/api/ratings?tournament=late')).body).toEqual(after.body);
    const balance = await get('/api/balance?tournament=late');
    expect(balance.body.scenarios.map((x: { scenario: string; matches: number }) => [x.scenario, x.matches])).toEqual([['A', 2]]);
    expect((await get('/api/balance?tournament=late')).body).toEqual(balance.body);
  }, 60_000);
});

describe('balance under rising strength: GET /api/balance/sweep', () => {
  it("a strength sweep's levels, each side's wins as played, and the verdict; other tournaments are not sweeps; a bad margin is a 400", async () => {
    const sweep = await planTournament(
      await parseTournamentSpec('id: api-sweep\ngame: dice-race\nscenarios: [standard]\nformat: strength-sweep\nsweep: { bot: "mcts:rollout=0", param: iterations, levels: [1, 8] }\ngamesPerPairing: 4\n', 'sweep.yaml'),
    );
    const played = (await runLocalTournament({ plan: sweep, threads: 1, telemetry })).outcomes;
    const { status, body } = await get('/api/balance/sweep?tournament=api-sweep');
    expect(status).toBe(200);
    expect(body.scenarios).toHaveLength(1);
    const s = body.scenarios[0];
    expect([s.tournament, s.game, s.scenario, s.bot, s.param]).toEqual(['api-sweep', 'dice-race', 'standard', 'mcts:rollout=0', 'iterations']);
    expect(s.levels.map((l: { level: number; factor: number; entrant: string; games: number }) => [l.level, l.factor, l.entrant, l.games])).toEqual([
      [1, 1, 'mcts iterations=1', 4],
      [8, 8, 'mcts iterations=8', 4],
    ]);
    for (const l of s.levels) {
      const mine = played.filter((o) => o.entrants['A'] === l.entrant);
      for (const side of l.sides) expect(side.wins, `${l.entrant} ${side.side}`).toBe(mine.filter((o) => o.sides[side.side] === 'win').length);
    }
    expect(s.levels[1].step).toMatchObject({ from: 1, to: 8, verdict: expect.stringMatching(/^(moved|held|unclear)$/) });
    expect(s.verdict.status).toBe('not enough games');
    expect(s.levels.map((l: { forfeits: number }) => l.forfeits)).toEqual([0, 0]);
    // Without a tournament: every sweep recorded, and the round robins of this store are none.
    expect((await get('/api/balance/sweep')).body.scenarios.map((x: { tournament: string }) => x.tournament)).toEqual(['api-sweep']);
    const notSweep = await get('/api/balance/sweep?tournament=api-test');
    expect([notSweep.status, notSweep.body.message]).toEqual([400, expect.stringMatching(/'api-test' is a round-robin, not a strength sweep/)]);
    const margin = await get('/api/balance/sweep?margin=2');
    expect(margin.status).toBe(400);
    expect(margin.body.message).toMatch(/margin/);
  }, 60_000);

  it('a sweep recorded when its levels were named mcts@1, mcts@8 is still read, level by level, under those names', async () => {
    const now = await planTournament(
      await parseTournamentSpec('id: api-old-sweep\ngame: dice-race\nscenarios: [standard]\nformat: strength-sweep\nsweep: { bot: "mcts:rollout=0", param: iterations, levels: [1, 8] }\ngamesPerPairing: 2\nbaseSeed: 40\n', 'old.yaml'),
    );
    // The spec as it was stored then: the same, but for its entrants' names.
    const sweep = now.spec.sweep!;
    const old = await planTournament({ ...now.spec, entrants: now.spec.entrants.map((e, i) => ({ ...e, name: formerSweepLevelName(sweep, sweep.levels[i]!) })) });
    const played = (await runLocalTournament({ plan: old, threads: 1, telemetry })).outcomes;
    const s = (await get('/api/balance/sweep?tournament=api-old-sweep')).body.scenarios[0];
    expect(s.levels.map((l: { level: number; entrant: string; bot: string; games: number }) => [l.level, l.entrant, l.bot, l.games])).toEqual([
      [1, 'mcts@1', 'mcts:iterations=1,rollout=0', 2],
      [8, 'mcts@8', 'mcts:iterations=8,rollout=0', 2],
    ]);
    for (const l of s.levels) {
      const mine = played.filter((o) => o.entrants['A'] === l.entrant);
      expect(mine).toHaveLength(2);
      for (const side of l.sides) expect(side.wins, `${l.entrant} ${side.side}`).toBe(mine.filter((o) => o.sides[side.side] === 'win').length);
    }
    // Its stored spec still plans, so the tournament view has its results by entrant, under the old names.
    const one = (await get('/api/tournaments/api-old-sweep')).body;
    expect(one.results.standings.map((x: { name: string; games: number }) => [x.name, x.games])).toEqual([
      ['mcts@1', 4],
      ['mcts@8', 4],
    ]);
    // The same sweep planned today, levels named the new way, has the same match ids: run again, it
    // finds every match recorded and plays none twice.
    expect((await recordedOutcomes(telemetry, now)).map((o) => o.matchId).sort()).toEqual(played.map((o) => o.matchId).sort());
  }, 60_000);
});

describe('inputs: one parser per format, strict bodies, limits', () => {
  let submitter: FastifyInstance;
  // No queue: a spec that parses gets as far as QUEUE_UNREACHABLE (503), one that does not is a 400.
  beforeAll(async () => {
    submitter = await buildApp({ telemetry, tokens: [TOKEN], processMetrics: false });
  });
  afterAll(async () => {
    await submitter?.close();
  });
  const submit = (payload: unknown) =>
    submitter.inject({ method: 'POST', url: '/api/tournaments', payload: typeof payload === 'string' ? payload : (payload as object), headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } });
  const JSON_SPEC = '{\n  "game": "blitz",\n  "scenarios": ["A"],\n  "entrants": ["random", "greedy"]\n}';

  it('reads a JSON spec as JSON, as the CLI does: a trailing comma is a 400 by line and column', async () => {
    const bad = await submit({ spec: JSON_SPEC.replace('"greedy"]', '"greedy"],') });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'BAD_SPEC', message: expect.stringMatching(/^the request body spec:5:1: invalid JSON: trailing comma before \}.*send format: 'yaml'/) });
    expect((await submit({ spec: JSON_SPEC })).json()).toMatchObject({ error: 'QUEUE_UNREACHABLE' });
  });

  it('takes format: yaml for a YAML spec in flow style, and refuses unknown formats and fields', async () => {
    const flow = '{game: blitz, scenarios: [A], entrants: [random, greedy]}';
    expect((await submit({ spec: flow })).statusCode).toBe(400);
    expect((await submit({ spec: flow, format: 'yaml' })).json()).toMatchObject({ error: 'QUEUE_UNREACHABLE' });
    const toml = await submit({ spec: flow, format: 'toml' });
    expect(toml.statusCode).toBe(400);
    expect(toml.json().message).toMatch(/body\.format/);
    const extra = await submit({ spec: JSON_SPEC, priority: 1 });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toMatch(/priority/);
  });

  it('refuses a body that is not strict JSON, by line and column', async () => {
    const r = await submit(`{"spec": ${JSON.stringify(JSON_SPEC)},\n "spec": "x"}`);
    expect(r.statusCode).toBe(400);
    expect(r.json()).toMatchObject({ error: 'BAD_ARGUMENT', message: 'the request body:2:2: property "spec" is given twice in this object: keep one' });
    expect((await submit('{"spec": "x",}')).json().message).toMatch(/^the request body:1:14: invalid JSON: trailing comma/);
  });

  it('refuses 50,000 levels of nesting at once, in the body or in the spec', async () => {
    const deep = '['.repeat(50_000) + ']'.repeat(50_000);
    const started = performance.now();
    const body = await submit(`{"spec": "x", "deep": ${deep}}`);
    expect(body.statusCode).toBe(400);
    expect(body.json().message).toMatch(/^the request body:1:86: nested deeper than 64 levels at \$\.deep\[0\]/);
    const spec = await submit({ spec: `{"game": "blitz", "options": {"x": ${deep}}}` });
    expect(spec.statusCode).toBe(400);
    expect(spec.json()).toMatchObject({ error: 'BAD_SPEC', message: expect.stringMatching(/^the request body spec:1:\d+: nested deeper than 64 levels at \$\.options\.x/) });
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('documents the format field in the OpenAPI document', async () => {
    const doc = (await get('/docs/json')).body;
    const body = doc.paths['/api/tournaments'].post.requestBody.content['application/json'].schema;
    expect(body.properties.format.enum).toEqual(['yaml', 'json']);
    expect(body.properties.format.description).toMatch(/first non-blank character is `\{` or `\[`/);
    expect(body.additionalProperties).toBe(false);
  });
});

describe('the board re-runs a stored match with every check salient replay makes', () => {
  /** Play Blitz! A into the store, with `tamper` applied to the match row on its way there. */
  async function stored(matchId: string, tamper: (row: MatchRow) => MatchRow, seatSpecs = { Axis: 'random', Allies: 'greedy' }) {
    const { game, pack } = await resolveGamePack('blitz', 'approximation');
    const inner = telemetry.sink();
    const sink: TelemetrySink = { impulse: (r) => inner.impulse(r), event: (r) => inner.event(r), match: (r) => inner.match(tamper(r)), flush: async () => inner.flush?.() };
    // The store's queries wait for its sinks' finished matches, so the board sees this one.
    await runMatch({ game, pack, scenario: 'A', seed: 3, seats: { Axis: createBot('random'), Allies: createBot('greedy') }, seatSpecs, matchId, tags: { tournament: 'tampered' }, sink });
  }

  it('a stored replay whose seed was changed is a 409 naming the die it contradicts', async () => {
    await stored('tampered-seed', (r) => ({ ...r, result: { ...r.result, replay: { ...r.result.replay, seed: r.result.replay.seed + 1 } } }));
    const r = await get('/api/matches/tampered-seed/board');
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ error: 'REPLAY_MISMATCH', message: expect.stringMatching(/^Match tampered-seed cannot be replayed on this server: \$\.log\[\d+\]: the logged chance outcome '.+' \(.*stream '\w+'\) is not what seed 4 gives there/) });
  }, 60_000);

  it('a stored replay naming a bot no parser understands is a 409 naming the seat', async () => {
    await stored('unknown-bot', (r) => r, { Axis: 'alphazero', Allies: 'greedy' });
    const r = await get('/api/matches/unknown-bot/board');
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ error: 'BAD_REPLAY', issues: [{ path: '$.seats.Axis', message: expect.stringMatching(/^Unknown bot 'alphazero'/) }] });
  }, 60_000);
});

describe('an Empires & Alliances match on its hex map', () => {
  /** The drawn part, worked out here by brute force: every map hex within 2 of a hex of the countries at war in S3 (Britain is not on the map). */
  function scenarioHexes(map: HexMap): Set<string> {
    const home = map.hexes.filter((h) => ['GE', 'LU', 'AH', 'FR', 'BE', 'GB'].includes(map.countryCode(h) ?? ''));
    return new Set([...map.hexes].filter((h) => home.some((x) => map.grid.distance(h, x) <= 2)).map((h) => map.id(h)));
  }

  it('answers 200 with a hex layout of the scenario map area, and frames whose units, control and forts are the replayed states', async () => {
    const { game, pack } = await resolveGamePack('empires-alliances', 'approximation');
    await runMatch({ game, pack, scenario: '1918', seed: 7, seats: { CP: createBot('random'), AL: createBot('random') }, seatSpecs: { CP: 'random', AL: 'random' }, matchId: 'ea-board', tags: { tournament: 'ea-board' }, sink: telemetry.sink() });
    const [r, { body: detail }, { body: replay }] = await Promise.all([get('/api/matches/ea-board/board'), get('/api/matches/ea-board'), get('/api/matches/ea-board/replay')]);
    expect(r.status).toBe(200);
    const board = r.body;
    expect(board).toMatchObject({ game: 'empires-alliances', scenario: '1918', layout: { areas: [], links: [] } });
    const hex = board.layout.hex;
    const map = loadHexMap((pack.data as { map: unknown }).map);
    const expected = scenarioHexes(map);
    expect(hex.hexes).toHaveLength(expected.size);
    expect(new Set(hex.hexes.map((h: { id: string }) => h.id))).toEqual(expected);
    expect(hex.orientation).toBe('pointy');
    expect(hex.terrains.filter((t: { water: boolean }) => t.water).map((t: { id: string }) => t.id).sort()).toEqual(['lake', 'sea']);
    // Centres are the grid's own: neighbours one unit apart.
    const at = new Map<string, { x: number; y: number }>(hex.hexes.map((h: { id: string; x: number; y: number }) => [h.id, h]));
    const paris = at.get('2756') as { x: number; y: number };
    const east = at.get(map.id(map.grid.neighbour(map.hex('2756'), 0))) as { x: number; y: number };
    expect(Math.hypot(east.x - paris.x, east.y - paris.y)).toBeCloseTo(1, 3);
    expect(hex.cities).toContainEqual({ hex: '2756', name: 'Paris', kind: 'major', capital: true });
    expect(hex.hexsides.some((s: { features: string[] }) => s.features.includes('border'))).toBe(true);
    expect(hex.hexsides.some((s: { features: string[] }) => s.features.includes('major-river'))).toBe(true);
    for (const s of hex.hexsides) expect(at.has(s.a) && at.has(s.b), `${s.a}|${s.b}`).toBe(true);
    for (const id of board.layout.focus) expect(at.has(id), id).toBe(true);
    expect(board.layout.focus).toContain('2453');

    // At the start: Germany and Luxembourg are the Central Powers', France west of the line the Allies'; neutrals nobody's.
    const start = board.frames[0].control as Record<string, string>;
    expect(start['2437']).toBe('CP'); // Berlin
    expect(start['2849']).toBe('CP'); // Metz
    expect(start['2756']).toBe('AL'); // Paris
    expect(start['1948']).toBeUndefined(); // Amsterdam
    // A frame for the start and one per impulse, as for Blitz!, each unit on a drawn hex.
    expect(board.frames).toHaveLength(detail.impulses.length + 1);
    for (const f of board.frames) for (const id of Object.keys(f.units)) expect(at.has(id), id).toBe(true);
    // The same frames from the replayed states: the start, then the state at each impulse's end.
    const states: EaState[] = [game.setup('1918', pack, {}) as unknown as EaState];
    runReplay(game, pack, parseReplay(replay), (_e, _i, _b, step) => {
      if (step.boundary === 'impulse' || step.boundary === 'turn') states.push(structuredClone(step.state) as unknown as EaState);
    });
    const ends = states.length;
    for (const i of [0, 1, Math.floor(ends / 2), ends - 1]) {
      const s = states[i] as EaState;
      const f = board.frames[i];
      const where: Record<string, string> = {};
      for (const [h, us] of Object.entries(f.units as Record<string, { id: string; power: string; label: string; type: string; status?: string[] }[]>)) {
        for (const u of us) {
          where[u.id] = h;
          const n = Number(u.id);
          expect(u.label, `frame ${i} unit ${n}`).toMatch(/^(GE|AH|FR|GB|BE|US|CA|AU) \d+-\d+-\d+( XX)?$/);
          expect(u.status?.includes('demoralized') ?? false).toBe(s.mor[n]! > 0);
          expect(u.status?.includes(`unsupplied ${s.sup[n]}`) ?? false).toBe(s.sup[n]! > 0);
        }
      }
      const onMap = Object.fromEntries(s.hex.flatMap((h, u) => (h >= 0 ? [[String(u), map.id(h)]] : [])));
      expect(where, `units at frame ${i}`).toEqual(onMap);
      // Control: the start's, with the hexes in the state's `flip` (4.2) in the other side's hands.
      const flipped = new Set(s.flip.map((h) => map.id(h)));
      const start = board.frames[0].control as Record<string, string>;
      expect(Object.keys(f.control).sort()).toEqual(Object.keys(start).sort());
      for (const [id, side] of Object.entries(start)) expect(f.control[id], id).toBe(flipped.has(id) ? (side === 'CP' ? 'AL' : 'CP') : side);
      // One fort marker per live fort.
      const forts = Object.values(f.markers as Record<string, { kind: string }[]>).flat().filter((m) => m.kind === 'fort');
      expect(forts).toHaveLength(s.forts.length / 3);
    }
    // Units move over the game.
    expect(board.frames[ends - 1].units).not.toEqual(board.frames[0].units);
  }, 60_000);
});
