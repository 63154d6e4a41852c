/**
 * Requests/s and latency of the dashboard API's main reads over a store of BENCH_MATCHES stored
 * matches (default 100 000), on the embedded store (chdb) and on a ClickHouse server (the Debian
 * clickhouse-server, started here on free ports in a temporary directory).
 *
 * The store is filled with real games: BENCH_SEED_MATCHES (default 1000) Blitz! random-vs-greedy
 * matches of Scenarios A and B played by the local pool, then copied inside ClickHouse under new match
 * ids (and spread over 50 tournaments and earlier end times) until BENCH_MATCHES are stored, with
 * their impulses and events, about 10 000 matches a statement, and then counted in the dashboard
 * aggregates in one statement (`countMatches`, as migration 6 back-fills a store). The API listens on
 * a free port; a load generator in a worker thread keeps BENCH_CONNECTIONS requests in flight
 * (default 8) for BENCH_SECONDS per endpoint (default 5, after 1 s of warm-up) and times each request.
 *
 * One match is read two ways: the same match again and again (a page polling one match; the embedded
 * store's answer cache serves it between writes), and the seed matches one after another in a fixed
 * shuffled order (every answer read from the store); `/before8/match` and `/before10/match` (schema 9's
 * three queries, from copies of the rows made here as migration 8 kept them) are read the second way too.
 * `/before11/matches` reads a page of 50 of the match list as schema 10 did (every summary column of
 * `match_list`, before migration 11 packed the rows), at offset 0 and 50 000; `/before12/matches` as
 * schema 11 did before a server read the first page and a cursor's page in one statement, and its reads
 * without `@clickhouse/client` (two queries through the client), at offset 0 and 50 000 and after the
 * cursor of offset 50 000; `/before13/matches` (a server only) as schema 11 did before the cursor's bound
 * left the cursor's id out and an unfiltered offset page took its keys from `match_list_packed`, through
 * the store's bare HTTP reads as the API's are, at offset 50 000 and after the cursor of offset 50 000;
 * `/before14/matches` (a server only) a page at offset 50 000 as schema 11 read it before the minutes were
 * kept between reads (the minutes, then the page: two statements).
 *
 * Side by side in the same run, `before:` rows time the reads as they were before migration 6 (the
 * same SQL, served by extra routes of the bench's own app, so the HTTP part is the same): win rates
 * merging `uniqExact` states, lengths and the match list with FINAL over the matches, curves averaged
 * over `curve_points` FINAL, one match read from the matches table, and (before migration 7) the
 * tournament list from the matches under FINAL with a spec query a tournament; `before8:` rows the
 * reads of schema 7 that migration 8 replaced (win rates, lengths and curves summed over every
 * tournament and pair of bots, a deep page grouping every key of the list, one match's impulses and
 * events from the sink's tables, the tournament list's times from every match's). BENCH_BEFORE=0 leaves
 * them out.
 *
 *   npm run bench:api
 *   BENCH_SEED_MATCHES=200 BENCH_SECONDS=3 BENCH_STORES=embedded BENCH_RESULTS=none npm run bench:api   # quicker
 *
 * The embedded store keeps the answers of plain SELECTs until the next write (ReadCache in
 * embedded-link.ts); SALIENT_EMBEDDED_READ_CACHE=0 turns that off, to time the engine itself.
 *
 * Environment: BENCH_STORES (`embedded,server`), BENCH_COPY_MATCHES (matches copied a statement, default 10 000), BENCH_RESULTS (markdown file to update, default
 * bench/RESULTS.md; `none` to skip), BENCH_OUT_DIR (default bench/out), BENCH_ONLY (comma-separated
 * parts of the endpoints to time, e.g. `in turn`; default all), BENCH_ROUNDS (times through the
 * endpoints, one after another, for A/B figures taken in alternation; default 1).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '@salient/api';
import { hashString } from '@salient/engine';
import { parseTournamentSpec, planTournament } from '@salient/scheduler';
import { runLocalTournament } from '@salient/scheduler/local';
import { countMatches, openTelemetry, type CountingStore, type Telemetry } from '@salient/telemetry';
import { leanReader } from '../packages/telemetry/src/client.ts';
import { envInt, machine, updateResultsBlock } from './support.ts';

const here = dirname(fileURLToPath(import.meta.url));

/** An endpoint asked at several paths in turn (one request a path, round and round), shown under `label`. */
interface Endpoint {
  label: string;
  paths: string[];
}

interface EndpointFigure {
  endpoint: string;
  requests: number;
  errors: number;
  perSec: number;
  p50: number;
  p95: number;
  p99: number;
  bytes: number;
}

/** Keeps `connections` requests to `urls` (in turn, from `start`) in flight for `ms`; answers with each request's latency, and where it stopped. */
const LOAD = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { urls, connections, ms, start } = workerData;
  let next = start;
  const latencies = [];
  let errors = 0, bytes = 0, firstError;
  const end = performance.now() + ms;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        const r = await fetch(urls[next++ % urls.length]);
        const b = await r.arrayBuffer();
        if (r.status !== 200) { errors++; firstError ??= r.status + ' ' + Buffer.from(b).toString('utf8').slice(0, 300); }
        bytes = b.byteLength;
      } catch (e) { errors++; firstError ??= String(e); }
      latencies.push(performance.now() - t);
    }
  }));
  parentPort.postMessage({ latencies, errors, bytes, firstError, next });
})();
`;

function load(urls: readonly string[], connections: number, ms: number, start = 0): Promise<{ latencies: number[]; errors: number; bytes: number; firstError?: string; next: number }> {
  return new Promise((resolve, reject) => {
    const w = new Worker(LOAD, { eval: true, workerData: { urls, connections, ms, start } });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

/** The reads as they were before migrations 6 and 7 (SQL of queries.ts then), by the endpoint they served. */
const BEFORE: { path: string; sql: (db: string, matchId: string) => string[]; perTournament?: (db: string, id: string) => string }[] = [
  {
    path: '/before/win-rates',
    sql: (db) => [
      `SELECT game, scenario, pack_id, pack_hash, rules_version, side, bot, sum(games) AS games, sum(wins) AS wins, sum(losses) AS losses, sum(draws) AS draws
       FROM ${db}.win_counts GROUP BY game, scenario, pack_id, pack_hash, rules_version, side, bot ORDER BY game, scenario, pack_id, pack_hash, rules_version, side, bot`,
    ],
  },
  {
    path: '/before/lengths',
    sql: (db) => [
      `SELECT game, scenario, pack_id, pack_hash, rules_version, metric, value, count() AS n FROM ${db}.matches FINAL
       ARRAY JOIN ['turns', 'impulses', 'decisions'] AS metric, [turns, impulses, decisions] AS value WHERE kind IN ('completed', 'adjudicated')
       GROUP BY game, scenario, pack_id, pack_hash, rules_version, metric, value ORDER BY game, scenario, pack_id, pack_hash, rules_version, metric, value`,
    ],
  },
  {
    path: '/before/curves?scenario=A',
    sql: (db) => [
      `SELECT game, scenario, pack_id, pack_hash, rules_version, turn, impulse, power, count() AS matches, avg(score), avg(loss), avg(ctrl), avgIf(units, units >= 0), countIf(units >= 0)
       FROM ${db}.curve_points FINAL WHERE scenario = 'A'
       GROUP BY game, scenario, pack_id, pack_hash, rules_version, turn, impulse, power ORDER BY game, scenario, pack_id, pack_hash, rules_version, turn, impulse, power`,
    ],
  },
  {
    path: '/before/matches?limit=50',
    sql: (db) => [
      `SELECT count() AS n FROM ${db}.matches FINAL`,
      `SELECT match_id, tournament, game, scenario, pack_id, pack_hash, rules_version, seed, kind, sides, outcomes, side_bots, powers, scores, margin, reason, detail, forfeit_seat, forfeit_reason,
              turns, impulses, decisions, wall_ms, toString(started_at, 'UTC') AS started, toString(ended_at, 'UTC') AS ended, worker, final_hash, toUnixTimestamp(ended_at) AS ended_s
       FROM ${db}.matches FINAL ORDER BY ended_at DESC, match_id LIMIT 50`,
    ],
  },
  {
    path: '/before/match',
    sql: (db, id) => [
      `SELECT match_id, tournament, game, scenario, pack_id, pack_hash, rules_version, seed, kind, sides, outcomes, side_bots, powers, scores, margin, reason, detail, forfeit_seat, forfeit_reason,
              turns, impulses, decisions, wall_ms, toString(started_at, 'UTC') AS started, toString(ended_at, 'UTC') AS ended, worker, final_hash
       FROM ${db}.matches PREWHERE match_id = '${id}' LIMIT 1`,
      `SELECT seq, turn, impulse, phase, step, active_powers, decisions, powers, scores, losses, control, extra_keys, extra_values, state_hash FROM ${db}.impulses FINAL WHERE match_id = '${id}' ORDER BY seq`,
      `SELECT match_id, seq, impulse_seq, turn, impulse, phase, step, type, power, text, payload, combat_in_columns, combat_target, combat_outcome,
              combat_rounds, att_factors, def_factors, att_dice, def_dice, att_results, def_results FROM ${db}.events FINAL WHERE match_id = '${id}' ORDER BY seq`,
    ],
  },
  {
    // Before migration 7: the tournament list from the match rows under FINAL, then the runners'
    // records, then each tournament's spec, one query a tournament, 8 at a time.
    path: '/before/tournaments',
    sql: (db) => [
      `SELECT tournament, any(game) AS t_game, groupUniqArray(scenario) AS t_scenarios, groupUniqArrayArray(side_bots) AS t_bots, count() AS n,
              countIf(kind = 'completed') AS n_completed, countIf(kind = 'adjudicated') AS n_adjudicated, countIf(kind = 'forfeit') AS n_forfeit,
              countIf(kind = 'error') AS n_error, countIf(kind = 'cancelled') AS n_cancelled, toString(min(started_at), 'UTC') AS first, toString(max(ended_at), 'UTC') AS last
       FROM ${db}.matches FINAL WHERE tournament != '' GROUP BY tournament ORDER BY max(ended_at) DESC, tournament LIMIT 100`,
      `SELECT tournament, name, game, spec, planned, executor, state, toString(updated_at, 'UTC') AS updated, toString(started_at, 'UTC') AS started
       FROM ${db}.tournaments FINAL ORDER BY updated_at DESC LIMIT 100`,
    ],
    perTournament: (db, id) => `SELECT spec, spec_hash FROM ${db}.tournaments FINAL WHERE tournament = '${id}' ORDER BY updated_at DESC LIMIT 1`,
  },
  // As they were at schema 7, before migration 8 (the same SQL as queries.ts then).
  {
    path: '/before8/win-rates',
    sql: (db) => [
      `SELECT game, scenario, pack_id, pack_hash, rules_version, side, bot, sumMerge(games) AS n_games, sumMerge(wins) AS n_wins, sumMerge(losses) AS n_losses, sumMerge(draws) AS n_draws
       FROM ${db}.win_totals GROUP BY game, scenario, pack_id, pack_hash, rules_version, side, bot HAVING n_games > 0 ORDER BY game, scenario, pack_id, pack_hash, rules_version, side, bot`,
    ],
  },
  {
    path: '/before8/lengths',
    sql: (db) => [
      `SELECT game, scenario, pack_id, pack_hash, rules_version, metric, value, sumMerge(n) AS n_matches FROM ${db}.length_totals
       GROUP BY game, scenario, pack_id, pack_hash, rules_version, metric, value HAVING n_matches > 0 ORDER BY game, scenario, pack_id, pack_hash, rules_version, metric, value`,
    ],
  },
  {
    path: '/before8/curves?scenario=A',
    sql: (db) => [
      `SELECT game, scenario, pack_id, pack_hash, rules_version, turn, impulse, power, sumMerge(matches) AS n_matches, sumMerge(score) / n_matches AS mean_score,
              sumMerge(loss) / n_matches AS mean_losses, sumMerge(ctrl) / n_matches AS mean_control, sumMerge(with_units) AS n_units, if(n_units > 0, sumMerge(units) / n_units, 0) AS mean_units
       FROM ${db}.curve_totals WHERE scenario = 'A' GROUP BY game, scenario, pack_id, pack_hash, rules_version, turn, impulse, power HAVING n_matches > 0
       ORDER BY game, scenario, pack_id, pack_hash, rules_version, turn, impulse, power`,
    ],
  },
  {
    path: '/before8/matches?limit=50&offset=50000',
    sql: (db) => [
      `SELECT rev_ended, match_id FROM ${db}.match_list GROUP BY rev_ended, match_id HAVING sum(sign) > 0 ORDER BY rev_ended, match_id LIMIT 50 OFFSET 50000`,
      `SELECT (SELECT sum(sign) FROM ${db}.match_list) AS n`,
    ],
  },
  {
    path: '/before8/match',
    sql: (db, id) => [
      `SELECT match_id, tournament, game, scenario, pack_id, pack_hash, rules_version, seed, kind, sides, outcomes, side_bots, powers, scores, margin, reason, detail, forfeit_seat, forfeit_reason,
              turns, impulses, decisions, wall_ms, toString(started_at, 'UTC') AS started, toString(ended_at, 'UTC') AS ended, worker, final_hash
       FROM ${db}.counted_matches PREWHERE match_id = '${id}' ORDER BY ver DESC LIMIT 1`,
      `SELECT seq, turn, impulse, phase, step, active_powers, decisions, powers, scores, losses, control, extra_keys, extra_values, state_hash FROM ${db}.impulses FINAL PREWHERE match_id = '${id}' ORDER BY seq`,
      `SELECT match_id, seq, impulse_seq, turn, impulse, phase, step, type, power, text, payload, combat_in_columns, combat_target, combat_outcome,
              combat_rounds, att_factors, def_factors, att_dice, def_dice, att_results, def_results FROM ${db}.events FINAL PREWHERE match_id = '${id}' ORDER BY seq`,
    ],
  },
  {
    // The figures of the list (its runners' records and specs are read as now): every match's times summed, twice.
    path: '/before8/tournaments',
    sql: (db) => [
      `SELECT DISTINCT tournament, toUInt32(ended_at) AS e, toUInt32(started_at) AS s FROM ${db}.tournament_times PREWHERE n < 0 WHERE tournament != ''`,
      `SELECT tournament, t_game, t_scenarios, t_bots, n, toString(t_first, 'UTC') AS first, toString(t_last, 'UTC') AS last
       FROM (
         SELECT tournament, any(game) AS t_game, groupUniqArray(scenario) AS t_scenarios, groupUniqArrayArray(side_bots) AS t_bots, sum(c) AS n
         FROM (SELECT tournament, game, scenario, side_bots, kind, sumMerge(n) AS c FROM ${db}.tournament_totals WHERE tournament != ''
               GROUP BY tournament, game, scenario, pack_hash, rules_version, pack_id, bots, side_bots, kind HAVING c > 0)
         GROUP BY tournament
       ) AS t
       ALL INNER JOIN (SELECT tournament, min(started_at) AS t_first, max(ended_at) AS t_last FROM ${db}.tournament_times WHERE tournament != '' AND n > 0 GROUP BY tournament) AS s USING tournament
       ORDER BY t_last DESC, tournament LIMIT 100`,
    ],
  },
];

/** Routes of the bench's app serving the reads as they were before migration 6 (their rows, unshaped). */
function beforeRoutes(app: FastifyInstance, t: Telemetry, matchId: string): void {
  for (const b of BEFORE) {
    app.get(b.path.split('?')[0]!, async (req) => {
      const out = [];
      // `?id=`: another match than the bench's own (the rows of `/before8/match?id=` spread over many matches).
      const id = (req.query as { id?: string }).id;
      if (id !== undefined && !/^[0-9a-f]{16}$/.test(id)) throw new Error(`bench: bad match id ${id}`);
      // Straight to the client, as queries.ts reads (t.query checks ad hoc SQL first).
      // A leading comment: the embedded store keeps no answer of these (only of plain SELECTs), so each is run as it was.
      for (const query of b.sql(t.database, id ?? matchId).map((q) => `/* before */ ${q}`)) out.push(await (await t.client.query({ query, format: 'JSONEachRow' })).json());
      const each = b.perTournament;
      if (each) {
        const ids = (out[0] as { tournament: string }[]).map((r) => r.tournament);
        for (let i = 0; i < ids.length; i += 8) {
          out.push(await Promise.all(ids.slice(i, i + 8).map(async (id) => (await t.client.query({ query: `/* before */ ${each(t.database, id)}`, format: 'JSONEachRow' })).json())));
        }
      }
      return out;
    });
  }
}

/**
 * One match as schema 9 read it (before migration 10's pages): its summary, impulses and events in three
 * queries at once, the rows from copies of `impulses` and `events` in small granules as migration 8 kept
 * them (made here by {@link schema9Copies}: migration 10 drops those tables).
 */
function schema9MatchRoute(app: FastifyInstance, t: Telemetry): void {
  app.get('/before10/match', async (req) => {
    const id = (req.query as { id?: string }).id ?? '';
    if (!/^[0-9a-f]{16}$/.test(id)) throw new Error(`bench: bad match id ${id}`);
    const db = t.database;
    const sql = [
      `SELECT match_id, tournament, game, scenario, pack_id, pack_hash, rules_version, seed, kind, sides, outcomes, side_bots, powers, scores, margin, reason, detail, forfeit_seat, forfeit_reason,
              turns, impulses, decisions, wall_ms, toString(started_at, 'UTC') AS started, toString(ended_at, 'UTC') AS ended, worker, final_hash
       FROM ${db}.counted_matches PREWHERE match_id = '${id}' ORDER BY ver DESC LIMIT 1`,
      `SELECT seq, turn, impulse, phase, step, active_powers, decisions, powers, scores, losses, control, extra_keys, extra_values, state_hash
       FROM ${db}.bench_match_impulses FINAL PREWHERE match_id = '${id}' ORDER BY seq`,
      `SELECT match_id, seq, impulse_seq, turn, impulse, phase, step, type, power, text, payload, combat_in_columns, combat_target, combat_outcome,
              combat_rounds, att_factors, def_factors, att_dice, def_dice, att_results, def_results
       FROM ${db}.bench_match_events FINAL PREWHERE match_id = '${id}' ORDER BY seq`,
    ];
    return Promise.all(sql.map(async (q) => (await t.client.query({ query: `/* before */ ${q}`, format: 'JSONEachRow' })).json()));
  });
}

/** The minutes of `match_minutes` with matches in them, and how many, as the frozen list routes read them. */
async function liveMinutes(q: (sql: string) => Promise<Record<string, unknown>[]>, db: string): Promise<{ minute: number; live: number }[]> {
  return (await q(`SELECT rev_minute, sum(n) AS live FROM ${db}.match_minutes WHERE rev_minute > 0 GROUP BY rev_minute HAVING live != 0 ORDER BY rev_minute`)).map((r) => ({
    minute: Number(r.rev_minute),
    live: Number(r.live),
  }));
}

/** The end-time span holding a page of 50 at `offset`, and the rows to skip in it; undefined past the end. */
function offsetSpan(minutes: readonly { minute: number; live: number }[], offset: number): { span: string; skip: number } | undefined {
  let first = 0;
  let skip = offset;
  for (; first < minutes.length && skip >= minutes[first]!.live; first++) skip -= minutes[first]!.live;
  if (first >= minutes.length) return undefined;
  let last = first;
  let known = minutes[first]!.live;
  while (known < skip + 50 && last + 1 < minutes.length) known += minutes[++last]!.live;
  return { span: `rev_ended >= ${minutes[first]!.minute * 60} AND rev_ended <= ${minutes[last]!.minute * 60 + 59}`, skip };
}

/**
 * A page of 50 of the match list as schema 10 read it (before migration 11 packed its rows): the minutes
 * of `match_minutes`, then the page's rows with every summary column of `match_list` (`?offset=`: from there).
 */
function schema10ListRoute(app: FastifyInstance, t: Telemetry): void {
  app.get('/before11/matches', async (req) => {
    const offset = Number((req.query as { offset?: string }).offset ?? 0);
    if (!Number.isSafeInteger(offset) || offset < 0) throw new Error(`bench: bad offset ${offset}`);
    const db = t.database;
    const q = async (sql: string) => (await t.client.query({ query: `/* before */ ${sql}`, format: 'JSONEachRow' })).json<Record<string, unknown>>();
    const page = offsetSpan(await liveMinutes(q, db), offset);
    if (page === undefined) return [];
    const { span, skip } = page;
    return q(
      `SELECT match_id, tournament, game, scenario, pack_id, pack_hash, rules_version, seed, kind, sides, outcomes, side_bots, powers, scores, margin, reason, detail, forfeit_seat, forfeit_reason,
              turns, impulses, decisions, wall_ms, toString(started_at, 'UTC') AS started, toString(ended_at, 'UTC') AS ended, worker, final_hash, rev_ended FROM ${db}.match_list
       PREWHERE ${span} AND (rev_ended, match_id) IN (
         SELECT rev_ended, match_id FROM ${db}.match_list WHERE ${span} GROUP BY rev_ended, match_id HAVING sum(sign) > 0 ORDER BY rev_ended, match_id LIMIT 50 OFFSET ${skip}
       ) AND sign > 0
       LIMIT 1 BY rev_ended, match_id`,
    );
  });
}

/**
 * A page of 50 of the match list as schema 11 read it before a server's first page became one statement: the
 * minutes of `match_minutes`, then the page's keys from `match_list` and rows from `match_list_packed`,
 * two queries through `@clickhouse/client` (`?offset=`, or `?after=` a cursor of the API's, as
 * `/api/matches` takes them). The rows come back as the server gave them (the API's answer is theirs, unpacked).
 */
function schema11ListRoute(app: FastifyInstance, t: Telemetry): void {
  app.get('/before12/matches', async (req) => {
    const query = req.query as { offset?: string; after?: string };
    const offset = Number(query.offset ?? 0);
    if (!Number.isSafeInteger(offset) || offset < 0) throw new Error(`bench: bad offset ${offset}`);
    const db = t.database;
    const q = async (sql: string) => (await t.client.query({ query: `/* before */ ${sql}`, format: 'JSONEachRow' })).json<Record<string, unknown>>();
    const minutes = await liveMinutes(q, db);
    let first = 0;
    let skip = offset;
    let known: number;
    let range = '';
    if (query.after !== undefined) {
      const [endedAt, matchId] = JSON.parse(Buffer.from(query.after, 'base64url').toString('utf8')) as [number, string];
      const rev = 4294967295 - endedAt;
      if (!Number.isSafeInteger(rev) || !/^[0-9a-f]{16}(~[0-9]+)?$/.test(matchId)) throw new Error(`bench: bad cursor ${query.after}`);
      range = ` AND rev_ended >= ${rev} AND (rev_ended > ${rev} OR match_id > '${matchId}')`;
      const cursorMinute = Math.floor(rev / 60);
      while (first < minutes.length && minutes[first]!.minute < cursorMinute) first++;
      if (first >= minutes.length) return [];
      known = minutes[first]!.minute === cursorMinute ? 0 : minutes[first]!.live;
      skip = 0;
    } else {
      for (; first < minutes.length && skip >= minutes[first]!.live; first++) skip -= minutes[first]!.live;
      if (first >= minutes.length) return [];
      known = minutes[first]!.live;
    }
    let last = first;
    while (known < skip + 50 && last + 1 < minutes.length) known += minutes[++last]!.live;
    const span = `rev_ended >= ${minutes[first]!.minute * 60} AND rev_ended <= ${minutes[last]!.minute * 60 + 59}`;
    return q(
      `SELECT rev_ended, match_id, summary FROM ${db}.match_list_packed
       PREWHERE ${span} AND (rev_ended, match_id) IN (
         SELECT rev_ended, match_id FROM ${db}.match_list WHERE ${span}${range} GROUP BY rev_ended, match_id HAVING sum(sign) > 0 ORDER BY rev_ended, match_id LIMIT 50 OFFSET ${skip}
       ) AND sign > 0
       LIMIT 1 BY rev_ended, match_id`,
    );
  });
}

/**
 * A page of 50 of the match list as a server read it at schema 11 before this session's change: the
 * first page and the page after a cursor in one statement of `match_list_packed` whose bound on the end
 * time came from the rows after the cursor's key (its id compared on every row from there on), a page
 * at an offset in two queries (the minutes of `match_minutes`, then the page), all through the store's
 * bare HTTP reads (`leanReader`) as the API's are. The rows come back as the server gave them (the API's
 * answer is theirs, unpacked).
 */
function schema11LeanListRoute(app: FastifyInstance, db: string, select: <T>(query: string) => Promise<T[]>): void {
  app.get('/before13/matches', async (req) => {
    const query = req.query as { offset?: string; after?: string };
    const offset = Number(query.offset ?? 0);
    if (!Number.isSafeInteger(offset) || offset < 0) throw new Error(`bench: bad offset ${offset}`);
    const q = (sql: string) => select<Record<string, unknown>>(`/* before */ ${sql}`);
    if (offset === 0) {
      let c = '';
      if (query.after !== undefined) {
        const [endedAt, matchId] = JSON.parse(Buffer.from(query.after, 'base64url').toString('utf8')) as [number, string];
        const rev = 4294967295 - endedAt;
        if (!Number.isSafeInteger(rev) || !/^[0-9a-f]{16}(~[0-9]+)?$/.test(matchId)) throw new Error(`bench: bad cursor ${query.after}`);
        c = `rev_ended >= ${rev} AND (rev_ended > ${rev} OR match_id > '${matchId}')`;
      }
      const upTo = `(SELECT max(r) FROM (SELECT rev_ended AS r FROM ${db}.match_list_packed ${c ? `WHERE ${c}` : ''} ORDER BY rev_ended LIMIT 58))`;
      return q(
        `SELECT rev_ended, match_id, sign, summary, (SELECT sum(sign) FROM ${db}.match_list) AS total FROM ${db}.match_list_packed
         PREWHERE ${[...(c ? [c] : []), `rev_ended <= ${upTo}`].join(' AND ')} ORDER BY rev_ended, match_id LIMIT 58`,
      );
    }
    return offsetPageInTwo(q, db, offset);
  });
}

/** A page of 50 of the whole list at `offset` in two statements: the live minutes, then the page, its keys from `keysFrom`. */
async function offsetPageInTwo(q: (sql: string) => Promise<Record<string, unknown>[]>, db: string, offset: number, keysFrom = 'match_list'): Promise<Record<string, unknown>[]> {
  const page = offsetSpan(await liveMinutes(q, db), offset);
  if (page === undefined) return [];
  const { span, skip } = page;
  return q(
    `SELECT rev_ended, match_id, summary FROM ${db}.match_list_packed
     PREWHERE ${span} AND (rev_ended, match_id) IN (
       SELECT rev_ended, match_id FROM ${db}.${keysFrom} WHERE ${span} GROUP BY rev_ended, match_id HAVING sum(sign) > 0 ORDER BY rev_ended, match_id LIMIT 50 OFFSET ${skip}
     ) AND sign > 0
     LIMIT 1 BY rev_ended, match_id`,
  );
}

/**
 * A page of 50 of the whole list at an offset as a server read it at schema 11 before the minutes were
 * kept between reads (`?offset=`): the minutes of `match_minutes`, then the page with its keys from
 * `match_list_packed`, two statements through the store's bare HTTP reads as the API's are. The rows
 * come back as the server gave them (the API's answer is theirs, unpacked).
 */
function keptMinutesListRoute(app: FastifyInstance, db: string, select: <T>(query: string) => Promise<T[]>): void {
  app.get('/before14/matches', async (req) => {
    const offset = Number((req.query as { offset?: string }).offset ?? 0);
    if (!Number.isSafeInteger(offset) || offset < 0) throw new Error(`bench: bad offset ${offset}`);
    return offsetPageInTwo((sql) => select<Record<string, unknown>>(`/* before */ ${sql}`), db, offset, 'match_list_packed');
  });
}

/** The row copies of migration 8 (small granules, one copy of each row under FINAL), as schema 9 kept them. */
async function schema9Copies(t: Telemetry): Promise<void> {
  for (const table of ['impulses', 'events']) {
    await t.client.command({ query: `CREATE TABLE ${t.database}.bench_match_${table} AS ${t.database}.${table} ENGINE = ReplacingMergeTree ORDER BY (match_id, seq) SETTINGS index_granularity = 256` });
    await t.client.command({ query: `INSERT INTO ${t.database}.bench_match_${table} SELECT * FROM ${t.database}.${table}` });
  }
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/**
 * Copy the seed matches (ids without `~`) under new ids until `target` matches are stored, and count
 * the copies in the dashboard's aggregates. `filler` runs the copying and counting statements: on a
 * server, a client of its own with a longer request timeout than the store's 30 s, which counting
 * ~100,000 copies at once outlasts there.
 */
async function multiply(t: Telemetry, target: number, filler: CountingStore): Promise<number> {
  const db = t.database;
  const seeds = Number((await t.query(`SELECT count() AS n FROM ${db}.matches WHERE match_id NOT LIKE '%~%'`)).rows[0]?.n ?? 0);
  const copies = Math.ceil(target / seeds) - 1;
  if (copies < 1) return seeds;
  for (const table of ['matches', 'impulses', 'events']) {
    const cols = (await t.query(`DESCRIBE TABLE ${db}.${table}`)).rows.map((r) => String(r.name));
    const exprs = cols.map((c) => {
      // No aliases: in ClickHouse an alias named as a column stands for it everywhere, WHERE included.
      // INSERT takes the values by position.
      if (c === 'match_id') return `concat(match_id, '~', toString(k))`;
      if (c === 'tournament') return `concat(tournament, '-', toString(k % 50))`;
      if (c === 'ended_at' || c === 'started_at') return `${c} - k * 60`;
      return c;
    });
    process.stderr.write(`bench: copying the seed rows of ${table} ${copies} times\n`);
    // About 10 000 matches a statement (BENCH_COPY_MATCHES): one statement for all of them outlasts the
    // client's request timeout on the Debian server, as the match rows feed the curve view too (and
    // 10 000 do on a loaded machine: give fewer there).
    const step = Math.max(1, Math.floor(envInt('BENCH_COPY_MATCHES', 10_000) / seeds));
    for (let from = 0; from < copies; from += step) {
      const n = Math.min(step, copies - from);
      await filler.client.command({
        query: `INSERT INTO ${db}.${table} (${cols.join(', ')}) SELECT ${exprs.join(', ')} FROM ${db}.${table} ARRAY JOIN arrayMap(i -> i + ${from + 1}, range(${n})) AS k WHERE match_id NOT LIKE '%~%'`,
      });
    }
  }
  const counting = performance.now();
  const counted = await countMatches(filler);
  process.stderr.write(`bench: ${counted.added} copies counted in the dashboard aggregates in ${((performance.now() - counting) / 1000).toFixed(1)} s\n`);
  const stored = Number((await t.query(`SELECT count() AS n FROM ${db}.matches`)).rows[0]?.n ?? 0);
  if (stored < target) throw new Error(`bench: ${stored} matches stored after copying, fewer than ${target}`);
  return stored;
}

async function fill(t: Telemetry, seedMatches: number, target: number, filler: CountingStore): Promise<{ stored: number; matchId: string; matchIds: string[]; tournament: string }> {
  const spec = await parseTournamentSpec(
    `id: bench-api\ngame: blitz\nscenarios: [A, B]\nentrants: [random, greedy]\ngamesPerPairing: ${Math.max(2, Math.ceil(seedMatches / 4) * 2)}\nsideSwap: true\n`,
    'bench-api.yaml',
  );
  const plan = await planTournament(spec);
  const started = performance.now();
  const r = await runLocalTournament({ plan, threads: 2, telemetry: t });
  process.stderr.write(`bench: ${r.played} seed matches played and stored in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  const copying = performance.now();
  const stored = await multiply(t, target, filler);
  process.stderr.write(`bench: ${stored} matches stored in ${((performance.now() - copying) / 1000).toFixed(1)} s\n`);
  // The seed matches, in an order of their own (not by end time nor by id): what a reader asking for
  // one match after another would read. The copies' ids (\`~\`) are not ones the API takes.
  const key = new Map(plan.matches.map((m) => [m.id, hashString(m.id)]));
  const matchIds = plan.matches.map((m) => m.id).sort((a, b) => (key.get(a)! < key.get(b)! ? -1 : 1));
  return { stored, matchId: plan.matches.find((m) => m.scenario === 'B')!.id, matchIds, tournament: 'bench-api-7' };
}

async function benchStore(kind: 'embedded' | 'server', o: { seedMatches: number; target: number; seconds: number; connections: number; before: boolean; only?: string[]; rounds: number }, tmp: string) {
  let stop = async () => {};
  let t: Telemetry;
  let filler: CountingStore;
  let lean: ReturnType<typeof leanReader> | undefined;
  if (kind === 'embedded') {
    t = await openTelemetry({ kind: 'embedded', path: join(tmp, 'chdb'), spoolDir: join(tmp, 'spool-e') });
    filler = t;
  } else {
    const { SALIENT_PASSWORD, startClickHouseServer } = await import('../packages/telemetry/test/support/clickhouse-server.ts');
    const server = await startClickHouseServer();
    stop = () => server.dispose();
    t = await openTelemetry({ kind: 'server', url: server.url, username: 'salient', password: SALIENT_PASSWORD, database: 'salient_bench', spoolDir: join(tmp, 'spool-s') });
    const { createClient } = await import('@clickhouse/client');
    const client = createClient({ url: server.url, username: 'salient', password: SALIENT_PASSWORD, database: 'salient_bench', request_timeout: 30 * 60_000 });
    filler = { client, database: 'salient_bench' };
    lean = leanReader({ url: server.url, username: 'salient', password: SALIENT_PASSWORD, database: 'salient_bench' });
    stop = async () => {
      lean?.close();
      await client.close();
      await server.dispose();
    };
  }
  try {
    const { stored, matchId, matchIds, tournament } = await fill(t, o.seedMatches, o.target, filler);
    const app = await buildApp({ telemetry: t, processMetrics: false });
    if (o.before) {
      beforeRoutes(app, t, matchId);
      await schema9Copies(t);
      schema9MatchRoute(app, t);
      schema10ListRoute(app, t);
      schema11ListRoute(app, t);
      if (lean) schema11LeanListRoute(app, t.database, lean.select);
      if (lean) keptMinutesListRoute(app, t.database, lean.select);
    }
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    // A cursor that starts where offset 50000 does, for the keyset page.
    const deep = (await (await fetch(`${base}/api/matches?limit=1&offset=49999`)).json()) as { next?: string };
    // One match asked again and again (what a page polling one match reads; the embedded store's answer
    // cache serves it between writes), and one match after another over the seed matches (a reader
    // going through matches: every answer read from the store).
    const spread = (label: string, path: (id: string) => string): Endpoint => ({ label, paths: matchIds.map(path) });
    const endpoints: (string | Endpoint)[] = [
      '/api/win-rates',
      '/api/ratings',
      '/api/balance',
      '/api/win-rates?scenario=A&bot=greedy',
      `/api/win-rates?tournament=${tournament}`,
      '/api/lengths',
      '/api/curves?scenario=A',
      '/api/matches?limit=50',
      '/api/matches?limit=50&offset=50000',
      ...(deep.next ? [`/api/matches?limit=50&after=${deep.next}`] : []),
      `/api/matches/${matchId}`,
      spread(`/api/matches/:id, ${matchIds.length} matches in turn`, (id) => `/api/matches/${id}`),
      ...(o.before ? BEFORE.map((b) => b.path) : []),
      ...(o.before ? [spread(`/before8/match, ${matchIds.length} matches in turn`, (id) => `/before8/match?id=${id}`)] : []),
      ...(o.before ? [spread(`/before10/match, ${matchIds.length} matches in turn`, (id) => `/before10/match?id=${id}`)] : []),
      ...(o.before ? ['/before11/matches?offset=0', '/before11/matches?offset=50000'] : []),
      ...(o.before ? ['/before12/matches?offset=0', '/before12/matches?offset=50000', ...(deep.next ? [`/before12/matches?after=${deep.next}`] : [])] : []),
      ...(o.before && lean ? ['/before13/matches?offset=50000', ...(deep.next ? [`/before13/matches?after=${deep.next}`] : [])] : []),
      ...(o.before && lean ? ['/before14/matches?offset=50000'] : []),
      `/api/matches/${matchId}/board`,
      '/api/tournaments',
      `/api/tournaments/${tournament}`,
      '/health',
    ];
    const figures: EndpointFigure[] = [];
    const chosen = endpoints.filter((item) => !o.only || o.only.some((x) => (typeof item === 'string' ? item : item.label).includes(x)));
    try {
      // Where each endpoint's paths were left, so the timed requests (and the next round's) go on from
      // there: a path asked again may be answered from the embedded store's cache.
      const at = new Map<string, number>();
      for (let round = 1; round <= o.rounds; round++) {
        for (const item of chosen) {
          const { label: named, paths } = typeof item === 'string' ? { label: item, paths: [item] } : item;
          const e = o.rounds > 1 ? `${named} (round ${round})` : named;
          const urls = paths.map((path) => base + path);
          const warm = await load(urls, o.connections, 1000, at.get(named) ?? 0);
          const r = await load(urls, o.connections, o.seconds * 1000, warm.next);
          at.set(named, r.next);
          const sorted = [...r.latencies].sort((a, b) => a - b);
          figures.push({ endpoint: e, requests: sorted.length, errors: r.errors, perSec: sorted.length / o.seconds, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), p99: quantile(sorted, 0.99), bytes: r.bytes });
          process.stderr.write(`bench: ${kind} ${e}: ${(sorted.length / o.seconds).toFixed(1)} req/s, p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p95 ${quantile(sorted, 0.95).toFixed(1)} ms${r.errors ? `, ${r.errors} errors, the first: ${r.firstError}` : ''}\n`);
        }
      }
    } finally {
      await app.close();
    }
    return { kind, stored, figures };
  } finally {
    await t.close();
    await stop();
  }
}

async function main(): Promise<void> {
  const target = envInt('BENCH_MATCHES', 100_000);
  const seedMatches = envInt('BENCH_SEED_MATCHES', 1000);
  const seconds = envInt('BENCH_SECONDS', 5);
  const connections = envInt('BENCH_CONNECTIONS', 8);
  const before = process.env.BENCH_BEFORE !== '0';
  const only = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',').map((x) => x.trim()) : undefined;
  const rounds = envInt('BENCH_ROUNDS', 1);
  const stores = (process.env.BENCH_STORES ?? 'embedded,server').split(',').map((s) => s.trim()) as ('embedded' | 'server')[];
  for (const s of stores) if (s !== 'embedded' && s !== 'server') throw new Error(`BENCH_STORES: '${s}' is neither embedded nor server`);
  const tmp = mkdtempSync(join(tmpdir(), 'salient-bench-api-'));
  const results = [];
  try {
    for (const kind of stores) results.push(await benchStore(kind, { seedMatches, target, seconds, connections, before, rounds, ...(only ? { only } : {}) }, join(tmp, kind)));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const meta = machine();
  const fmt = (x: number) => x.toFixed(1);
  const block = [
    `<!-- bench-api:${meta.date}|${meta.node}|${meta.cpu} -->`,
    `### Dashboard API reads · ${meta.date} · Node ${meta.node} · ${meta.cpu} (nproc ${meta.nproc}, ${meta.memGB} GB)`,
    '',
    `bench/api.bench.ts: ${seedMatches} real Blitz A/B matches (random vs greedy) copied to ${target} stored matches with their impulses and events; ` +
      `${connections} requests in flight from a worker thread of the same process for ${seconds} s per endpoint after 1 s of warm-up; latencies in ms. ` +
      '`/before/...`: the same reads as they were before migrations 6 and 7, `/before8/...` before migration 8, in the same run. ' +
      '`/api/matches/:id` asks for one match every time (the embedded store answers it from its cache of answers between writes); ' +
      '`…, N matches in turn` asks for the seed matches one after another in a fixed shuffled order, so every answer is read from the store (response bytes: the last one).',
    '',
    ...results.flatMap((r) => [
      `**${r.kind === 'embedded' ? 'Embedded store (chdb)' : 'ClickHouse server (Debian clickhouse-server)'}**, ${r.stored} matches:`,
      '',
      '| endpoint | requests/s | p50 | p95 | p99 | errors | response bytes |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...r.figures.map((f) => `| \`${f.endpoint.replace(/[0-9a-f]{16}/, ':id')}\` | ${fmt(f.perSec)} | ${fmt(f.p50)} | ${fmt(f.p95)} | ${fmt(f.p99)} | ${f.errors} | ${f.bytes} |`),
      '',
    ]),
    '<!-- bench-api:end -->',
  ].join('\n');
  process.stdout.write(block + '\n');
  const outDir = process.env.BENCH_OUT_DIR || join(here, 'out');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'api-latest.json'), JSON.stringify({ ...meta, target, seedMatches, seconds, connections, results }, null, 2) + '\n');
  const resultsFile = process.env.BENCH_RESULTS || join(here, 'RESULTS.md');
  if (resultsFile !== 'none') updateResultsBlock(resultsFile, 'bench-api', `${meta.date}|${meta.node}|${meta.cpu}`, block, '# Benchmark results\n');
  const errors = results.flatMap((r) => r.figures).reduce((a, f) => a + f.errors, 0);
  if (errors) {
    process.stderr.write(`bench: ${errors} request(s) failed; see the block above.\n`);
    process.exitCode = 1;
  }
}

await main();
