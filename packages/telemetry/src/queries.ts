/**
 * The questions designers ask of the telemetry, as typed queries for the CLI now and the API later
 * (read-only ad hoc SQL is in `ad-hoc-query.ts`).
 *
 * Results are never mixed across packs or rules versions: every aggregate is grouped by pack hash and
 * rules version as well as by game and scenario. What the dashboard reads often (win rates, lengths,
 * curves, the match list, a match's own row, the tournament list) comes from the tables of migrations
 * 6 and 7, which ClickHouse keeps as matches land and which count each match once (see `countMatches`
 * in counted.ts); the rest,
 * and those under a time filter, read rows with FINAL, so a row sent twice counts once. Only complete
 * matches count: a match's other rows are taken through its `matches` row, which is written last.
 *
 * Literal values are escaped (see `sql.ts`) because ClickHouse 18.16 has no query parameters, and the
 * join is `ALL INNER JOIN ... USING` with aliased subqueries, the form both 18.16 and 26.x read the
 * same way (`ANY INNER JOIN` deduplicates the left side on newer versions).
 */
import { SalientError, type JsonObject, type Replay } from '@salient/engine';
import type { Store } from './client.ts';
import { LIST_BUCKET_SECONDS, PAGE_EVENT_FIELDS, PAGE_IMPULSE_FIELDS, PAGE_MARKS, PAGE_PARTS, PAGE_SUMMARY_FIELDS, type PageField } from './schema.ts';
import { eventData, REPLAY_SOURCE_COLUMNS, replayOf, type StoredEventColumns, type StoredReplayColumns } from './records.ts';
import { DEFAULT_RETRY, StoreTimeoutError } from './insert.ts';
import { ident, num, selectRows, str } from './sql.ts';

/** Which matches a query looks at. Every field is optional; absent means all. */
export interface TelemetryFilter {
  game?: string;
  scenario?: string;
  /** A bot as recorded (`random@1`) or by name (`random`, any version). */
  bot?: string;
  /** Pack id (`approximation`) or content hash. */
  pack?: string;
  rulesVersion?: string;
  /** Matches tagged with this tournament id. */
  tournament?: string;
  /** Matches that ended at or after this time. */
  from?: Date;
  /** Matches that ended before this time. */
  to?: Date;
}

/** What identifies a set of comparable matches. */
export interface ScenarioKey {
  game: string;
  scenario: string;
  packId: string;
  packHash: string;
  rulesVersion: string;
}

/** Win counts of one bot on one side of a scenario. */
export interface WinRateRow extends ScenarioKey {
  side: string;
  bot: string;
  games: number;
  wins: number;
  losses: number;
  draws: number;
  /** wins / games. */
  winRate: number;
}

/** A histogram bucket, bounds inclusive. */
export interface LengthBucket {
  from: number;
  to: number;
  count: number;
}

/** How long the matches of a scenario ran, by one measure. */
export interface GameLengthRow extends ScenarioKey {
  metric: 'turns' | 'impulses' | 'decisions';
  matches: number;
  mean: number;
  p50: number;
  p90: number;
  min: number;
  max: number;
  buckets: LengthBucket[];
}

/** Mean position of one power at one point of the game. */
export interface ImpulseCurveRow extends ScenarioKey {
  turn: number;
  impulse: number;
  power: string;
  /** Matches that reached this impulse. */
  matches: number;
  meanScore: number;
  meanLosses: number;
  meanControl: number;
  /** Mean units on the map, where the game reports them (a `<power>.units` figure in its summary). */
  meanUnits?: number;
}

/** One combat result at one column (round and factors), with how often it came up there. */
export interface CombatResultRow {
  game: string;
  packHash: string;
  rulesVersion: string;
  round: string;
  attFactors: number;
  defFactors: number;
  /** `attFactors:defFactors`. */
  odds: string;
  attResult: string;
  defResult: string;
  count: number;
  /** Combats fought at this column, any result. */
  columnTotal: number;
  /** count / columnTotal. */
  share: number;
}

/** Game lengths are taken from matches that ran their course or hit the decision cap. */
const LENGTH_KINDS = ['completed', 'adjudicated'];

/** Buckets in a length histogram when the values spread wider than this. */
const MAX_BUCKETS = 20;

/**
 * WHERE conditions on `matches` (or the win-count view) for `f`. `seatsOnly`: a table that keeps the
 * seats' bots but not the sides' entrants (`curve_points`) names the database to look the matches up in.
 */
function conditions(f: TelemetryFilter, botColumn: 'bots' | 'bot', seatsOnly?: string): string[] {
  const c: string[] = [];
  if (f.game !== undefined) c.push(`game = ${str(f.game)}`);
  if (f.scenario !== undefined) c.push(`scenario = ${str(f.scenario)}`);
  if (f.rulesVersion !== undefined) c.push(`rules_version = ${str(f.rulesVersion)}`);
  if (f.tournament !== undefined) c.push(`tournament = ${str(f.tournament)}`);
  if (f.pack !== undefined) c.push(`(pack_id = ${str(f.pack)} OR pack_hash = ${str(f.pack)})`);
  if (f.from !== undefined) c.push(`ended_at >= toDateTime(${num(epochSeconds(f.from, 'from'))})`);
  if (f.to !== undefined) c.push(`ended_at < toDateTime(${num(epochSeconds(f.to, 'to'))})`);
  if (f.bot !== undefined) {
    // `greedy` selects every entrant of that bot (`greedy@1`, `greedy:chance=0@1`); `greedy:chance=0`
    // that one setting; `greedy@1` that version without parameters; a full identity itself.
    const prefixes = [`${f.bot}@`, ...(f.bot.includes(':') || f.bot.includes('@') ? [] : [`${f.bot}:`])];
    const match = (x: string) =>
      `(${[`${x} = ${str(f.bot as string)}`, ...prefixes.map((p) => `substring(${x}, 1, ${num(Buffer.byteLength(p))}) = ${str(p)}`)].join(' OR ')})`;
    // Seats keep the bot's `name@version`; sides keep the entrant (`greedy:chance=0@1`, or `name@version`
    // in rows written before entrants were kept): a match is selected by either.
    const either = `(arrayExists(b -> ${match('b')}, bots) OR arrayExists(b -> ${match('b')}, side_bots))`;
    c.push(botColumn === 'bot' ? match('bot') : seatsOnly ? `match_id IN (SELECT match_id FROM ${seatsOnly}.matches WHERE ${either})` : either);
  }
  return c;
}

function epochSeconds(d: Date, name: string): number {
  const ms = d.getTime();
  if (!Number.isFinite(ms)) throw new SalientError('BAD_ARGUMENT', `${name} is not a valid time; give an ISO 8601 time such as 2026-11-01T00:00:00Z.`);
  return Math.floor(ms / 1000);
}

/** Whether a filter needs the match rows themselves (the aggregates of migration 6 keep no times). */
const needsMatchRows = (f: TelemetryFilter): boolean => f.from !== undefined || f.to !== undefined;

/**
 * Whether a filter looks at nothing but the scenario key (game, scenario, pack, rules version), so the
 * aggregates of migration 8, which keep no tournament, bots or times, answer it.
 */
const byScenario = (f: TelemetryFilter): boolean => f.tournament === undefined && f.bot === undefined && !needsMatchRows(f);

const where = (c: readonly string[]): string => (c.length ? `WHERE ${c.join(' AND ')}` : '');

async function rows<T>(store: Store, what: string, sql: string): Promise<T[]> {
  try {
    return await readRows<T>(store, sql);
  } catch (e) {
    throw store.fail(what, e);
  }
}

/** Rows of a plain SELECT by the store's leaner way where it has one (a server store's bare HTTP reads), else through its client. */
const readRows = <T>(store: Pick<StoreReader, 'client' | 'select'>, sql: string): Promise<T[]> => (store.select ? store.select<T>(sql) : selectRows<T>(store.client, sql));

type Raw = Record<string, string | number>;
const key = (r: Raw): ScenarioKey => ({
  game: String(r.game),
  scenario: String(r.scenario),
  packId: String(r.pack_id),
  packHash: String(r.pack_hash),
  rulesVersion: String(r.rules_version),
});
/**
 * A row's scenario key with `rest` after it. Not `{ ...key(r), ...rest }`: V8 (Node 20) adds each
 * property a leading spread did not have on a slow path, ~3-4 µs a property (a match summary cost
 * ~130 µs, about half of the match list's CPU in the API), where assigning onto the fresh key object
 * costs ~0.3 µs.
 */
const withKey = <T extends object>(r: Raw, rest: T): ScenarioKey & T => Object.assign(key(r), rest);
const SCENARIO_COLUMNS = 'game, scenario, pack_id, pack_hash, rules_version';

/**
 * Games, wins, losses and draws by scenario, side and bot: from `win_scenario` (migration 8: each match
 * counted once, by scenario, side and bot, kept by ClickHouse as matches land), or for one tournament
 * from `win_totals` (migration 6, the same by tournament too), or, for a time range (which the
 * aggregates do not keep), from the match rows themselves.
 */
export async function winRates(store: Store, filter: TelemetryFilter = {}): Promise<WinRateRow[]> {
  const db = ident(store.database);
  const source =
    !needsMatchRows(filter)
      ? `SELECT ${SCENARIO_COLUMNS}, side, bot, sumMerge(games) AS n_games, sumMerge(wins) AS n_wins, sumMerge(losses) AS n_losses, sumMerge(draws) AS n_draws
         FROM ${db}.${filter.tournament === undefined ? 'win_scenario' : 'win_totals'} ${where(conditions(filter, 'bot'))}`
      : `SELECT ${SCENARIO_COLUMNS}, side, bot, count() AS n_games,
                countIf(outcome = 'win') AS n_wins, countIf(outcome = 'loss') AS n_losses, countIf(outcome = 'draw') AS n_draws
         FROM ${db}.matches FINAL ARRAY JOIN sides AS side, outcomes AS outcome, side_bots AS bot
         ${where(conditions(filter, 'bot'))}`;
  // A group whose matches were all re-counted elsewhere (a re-played match that changed hands) sums to 0.
  const raw = await rows<Raw>(store, 'reading win rates', `${source} GROUP BY ${SCENARIO_COLUMNS}, side, bot HAVING n_games > 0 ORDER BY ${SCENARIO_COLUMNS}, side, bot`);
  return raw.map((r) => {
    const games = Number(r.n_games);
    const wins = Number(r.n_wins);
    return withKey(r, { side: String(r.side), bot: String(r.bot), games, wins, losses: Number(r.n_losses), draws: Number(r.n_draws), winRate: games ? wins / games : 0 });
  });
}

/** How one decided match came out, side by side: what ratings are fitted to. */
export interface MatchResultRow extends ScenarioKey {
  sides: { side: string; bot: string; result: 'win' | 'loss' | 'draw' }[];
}

/**
 * Every decided match (completed, adjudicated or forfeit) with each side's bot and result, in the order
 * the matches ended (then by id): sequential ratings such as openskill depend on the order.
 */
export async function matchResults(store: Store, filter: TelemetryFilter = {}): Promise<MatchResultRow[]> {
  const db = ident(store.database);
  const c = [...conditions(filter, 'bots'), `kind IN ('completed', 'adjudicated', 'forfeit')`, 'length(sides) >= 2'];
  const raw = await rows<Raw & { sides: string[]; outcomes: string[]; side_bots: string[] }>(
    store,
    'reading match results',
    `SELECT ${SCENARIO_COLUMNS}, sides, outcomes, side_bots FROM ${db}.matches FINAL ${where(c)} ORDER BY ended_at, match_id`,
  );
  return raw.map((r) =>
    withKey(r, {
      sides: r.sides.map((side, i) => ({ side, bot: r.side_bots[i] ?? '', result: (r.outcomes[i] ?? 'draw') as 'win' | 'loss' | 'draw' })),
    }),
  );
}

/**
 * A stamp that changes when the matches a filter selects do: how many match rows there are (copies
 * included: no FINAL, so it costs a count) and the latest end time. For caching what is computed
 * from them, not for display.
 */
export async function matchesVersion(store: Store, filter: TelemetryFilter = {}): Promise<string> {
  const db = ident(store.database);
  const [r] = await rows<Raw>(store, 'reading the matches version', `SELECT count() AS n, toUnixTimestamp(max(ended_at)) AS t FROM ${db}.matches ${where(conditions(filter, 'bots'))}`);
  return `${r?.n ?? 0}@${r?.t ?? 0}`;
}

/** How often each victory condition decided a scenario's matches, and for which side. */
export interface VictoryConditionRow extends ScenarioKey {
  /** The game's account of why the match ended as it did. */
  reason: string;
  /** The winning sides (empty for a draw). */
  winners: string[];
  matches: number;
}

/** Decided matches by scenario, victory condition and winner, most common first within a scenario. */
export async function victoryConditions(store: Store, filter: TelemetryFilter = {}): Promise<VictoryConditionRow[]> {
  const db = ident(store.database);
  const c = [...conditions(filter, 'bots'), `kind IN ('completed', 'adjudicated', 'forfeit')`];
  const raw = await rows<Raw & { winners: string[] }>(
    store,
    'reading victory conditions',
    `SELECT ${SCENARIO_COLUMNS}, if(kind = 'forfeit', concat('forfeit (', forfeit_reason, ')'), reason) AS why,
            arrayFilter((s, o) -> o = 'win', sides, outcomes) AS winners, count() AS n
     FROM ${db}.matches FINAL ${where(c)}
     GROUP BY ${SCENARIO_COLUMNS}, why, winners
     ORDER BY ${SCENARIO_COLUMNS}, n DESC, why`,
  );
  return raw.map((r) => withKey(r, { reason: String(r.why), winners: r.winners.map(String), matches: Number(r.n) }));
}

/** Who made a scenario's first decision (its seat: a side, or a power where powers are seated), by scenario. */
export interface FirstMoverRow extends ScenarioKey {
  seat: string;
  /** Matches whose first decision was this seat's. */
  matches: number;
}

/** Who decides first in each scenario's matches, from the replay logs (chance draws skipped), most common first. */
export async function firstMovers(store: Store, filter: TelemetryFilter = {}): Promise<FirstMoverRow[]> {
  const db = ident(store.database);
  const raw = await rows<Raw>(
    store,
    'reading who moves first',
    `SELECT ${SCENARIO_COLUMNS}, arrayFirst(x -> x != 'chance', replay_by) AS first_seat, count() AS n
     FROM ${db}.matches FINAL ${where(conditions(filter, 'bots'))}
     GROUP BY ${SCENARIO_COLUMNS}, first_seat
     HAVING first_seat != ''
     ORDER BY ${SCENARIO_COLUMNS}, n DESC, first_seat`,
  );
  return raw.map((r) => withKey(r, { seat: String(r.first_seat), matches: Number(r.n) }));
}

/** The distribution of turns, impulses and decisions per match, by scenario. */
export async function gameLengths(store: Store, filter: TelemetryFilter = {}): Promise<GameLengthRow[]> {
  const db = ident(store.database);
  const c = [...conditions(filter, 'bots'), `kind IN (${LENGTH_KINDS.map(str).join(', ')})`];
  // From `length_scenario` (migration 8: each match counted once by scenario, kept by ClickHouse), or
  // under a tournament or bot filter from `length_totals` (migration 6: the same by tournament and bots
  // too), unless the filter names a time range, which only the match rows keep.
  const sql = !needsMatchRows(filter)
    ? `SELECT ${SCENARIO_COLUMNS}, metric, value, sumMerge(n) AS n_matches
       FROM ${db}.${byScenario(filter) ? 'length_scenario' : 'length_totals'} ${where(conditions(filter, 'bots'))}
       GROUP BY ${SCENARIO_COLUMNS}, metric, value HAVING n_matches > 0`
    : `SELECT ${SCENARIO_COLUMNS}, metric, value, count() AS n_matches
       FROM ${db}.matches FINAL
       ARRAY JOIN ['turns', 'impulses', 'decisions'] AS metric, [turns, impulses, decisions] AS value
       ${where(c)}
       GROUP BY ${SCENARIO_COLUMNS}, metric, value`;
  const raw = await rows<Raw>(store, 'reading game lengths', `${sql} ORDER BY ${SCENARIO_COLUMNS}, metric, value`);
  // Distinct lengths are few, so exact statistics come from (value, count) pairs without shipping every match.
  const groups = new Map<string, { key: ScenarioKey; metric: GameLengthRow['metric']; values: [number, number][] }>();
  for (const r of raw) {
    const k = key(r);
    const metric = String(r.metric) as GameLengthRow['metric'];
    const id = JSON.stringify([k, metric]);
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { key: k, metric, values: [] }));
    g.values.push([Number(r.value), Number(r.n_matches)]);
  }
  return [...groups.values()].map(({ key: k, metric, values }) => ({ ...k, metric, ...lengthStats(values) }));
}

/** Count, mean, quantiles and histogram from (value, count) pairs sorted by value. */
export function lengthStats(values: readonly (readonly [number, number])[]): Omit<GameLengthRow, keyof ScenarioKey | 'metric'> {
  const matches = values.reduce((a, [, n]) => a + n, 0);
  const mean = matches ? values.reduce((a, [v, n]) => a + v * n, 0) / matches : 0;
  // Nearest-rank quantile: the smallest value with at least q of the matches at or below it.
  const quantile = (q: number): number => {
    const rank = Math.max(1, Math.ceil(q * matches));
    let seen = 0;
    for (const [v, n] of values) if ((seen += n) >= rank) return v;
    return values.at(-1)?.[0] ?? 0;
  };
  const min = values[0]?.[0] ?? 0;
  const max = values.at(-1)?.[0] ?? 0;
  const width = values.length <= MAX_BUCKETS ? 1 : Math.ceil((max - min + 1) / MAX_BUCKETS);
  const buckets: LengthBucket[] = [];
  for (const [v, n] of values) {
    const from = width === 1 ? v : min + Math.floor((v - min) / width) * width;
    const last = buckets.at(-1);
    if (last && last.from === from) last.count += n;
    else buckets.push({ from, to: from + width - 1, count: n });
  }
  return { matches, mean, p50: quantile(0.5), p90: quantile(0.9), min, max, buckets };
}

/**
 * Mean score, losses and control by power at each (turn, impulse), by scenario: from `curve_scenario`
 * (migration 8: sums over each match counted once, by scenario, kept by ClickHouse as matches land), or
 * under a tournament or bot filter from `curve_totals` (migration 6: the same by tournament and bots
 * too), or, for a time
 * range, from `curve_points` (migration 4), where each complete match's curve is filed under its
 * scenario with its bots, tournament and end time.
 */
export async function impulseCurves(store: Store, filter: TelemetryFilter = {}): Promise<ImpulseCurveRow[]> {
  const db = ident(store.database);
  const sql = !needsMatchRows(filter)
    ? `SELECT ${SCENARIO_COLUMNS}, turn, impulse, power, sumMerge(matches) AS n_matches,
              sumMerge(score) / n_matches AS mean_score, sumMerge(loss) / n_matches AS mean_losses, sumMerge(ctrl) / n_matches AS mean_control,
              sumMerge(with_units) AS n_units, if(n_units > 0, sumMerge(units) / n_units, 0) AS mean_units
       FROM ${db}.${byScenario(filter) ? 'curve_scenario' : 'curve_totals'}
       ${where(conditions(filter, 'bots'))}
       GROUP BY ${SCENARIO_COLUMNS}, turn, impulse, power
       HAVING n_matches > 0`
    : // FINAL leaves one row per match, impulse and power, so count() counts matches.
      `SELECT ${SCENARIO_COLUMNS}, turn, impulse, power, count() AS n_matches,
              avg(score) AS mean_score, avg(loss) AS mean_losses, avg(ctrl) AS mean_control,
              avgIf(units, units >= 0) AS mean_units, countIf(units >= 0) AS n_units
       FROM ${db}.curve_points FINAL
       ${where(conditions(filter, 'bots', db))}
       GROUP BY ${SCENARIO_COLUMNS}, turn, impulse, power`;
  const raw = await rows<Raw>(store, 'reading impulse curves', `${sql} ORDER BY ${SCENARIO_COLUMNS}, turn, impulse, power`);
  return raw.map((r) =>
    withKey(r, {
      turn: Number(r.turn),
      impulse: Number(r.impulse),
      power: String(r.power),
      matches: Number(r.n_matches),
      meanScore: Number(r.mean_score),
      meanLosses: Number(r.mean_losses),
      meanControl: Number(r.mean_control),
      ...(Number(r.n_units) > 0 ? { meanUnits: Number(r.mean_units) } : {}),
    }),
  );
}

/**
 * The `limit` most common combat results (default 20), by round and attacker/defender factors, with
 * each result's share of its column.
 */
export async function combatResults(store: Store, filter: TelemetryFilter = {}, limit = 20): Promise<CombatResultRow[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new SalientError('BAD_ARGUMENT', `limit must be a whole number of at least 1; got ${limit}.`);
  const db = ident(store.database);
  const matches = `SELECT match_id, game, pack_hash, rules_version FROM ${db}.matches FINAL ${where(conditions(filter, 'bots'))}`;
  const raw = await rows<Raw>(
    store,
    'reading combat results',
    `SELECT game, pack_hash, rules_version, round, att, def, att_result, def_result, count() AS n
     FROM (
       SELECT match_id, round, att, def, att_result, def_result
       FROM ${db}.events FINAL
       ARRAY JOIN combat_rounds AS round, att_factors AS att, def_factors AS def, att_results AS att_result, def_results AS def_result
       WHERE type = 'combat' AND match_id IN (SELECT match_id FROM (${matches}))
     ) AS e
     ALL INNER JOIN (${matches}) AS m USING match_id
     GROUP BY game, pack_hash, rules_version, round, att, def, att_result, def_result`,
  );
  const column = (r: Raw): string => JSON.stringify([r.game, r.pack_hash, r.rules_version, r.round, Number(r.att), Number(r.def)]);
  const totals = new Map<string, number>();
  for (const r of raw) totals.set(column(r), (totals.get(column(r)) ?? 0) + Number(r.n));
  return raw
    .map((r) => {
      const count = Number(r.n);
      const columnTotal = totals.get(column(r)) ?? count;
      const attFactors = Number(r.att);
      const defFactors = Number(r.def);
      return {
        game: String(r.game),
        packHash: String(r.pack_hash),
        rulesVersion: String(r.rules_version),
        round: String(r.round),
        attFactors,
        defFactors,
        odds: `${attFactors}:${defFactors}`,
        attResult: String(r.att_result),
        defResult: String(r.def_result),
        count,
        columnTotal,
        share: count / columnTotal,
      };
    })
    .sort((a, b) => b.count - a.count || cmp(a.round, b.round) || a.attFactors - b.attFactors || a.defFactors - b.defFactors || cmp(a.attResult, b.attResult) || cmp(a.defResult, b.defResult))
    .slice(0, limit);
}

/** Byte order, as ClickHouse sorts strings, independent of the locale. */
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A match of a tournament as the store recorded it (enough to count it in standings again). */
export interface RecordedMatch {
  matchId: string;
  scenario: string;
  seed: number;
  /** Runner termination kind (`completed`, `adjudicated`, `forfeit`, `error`). */
  kind: string;
  /** Side id -> outcome (`win`, `loss`, `draw`). */
  sides: Record<string, string>;
  /** Power -> score. */
  scores: Record<string, number>;
  decisions: number;
  impulses: number;
  wallMs: number;
  /** Why a forfeit or error happened, worded as `MatchOutcome.detail` (empty otherwise). */
  detail: string;
  worker: string;
}

/** What {@link recordedMatches} needs of a store: an open `Store` or a `Telemetry`. */
export type StoreReader = Pick<Store, 'client' | 'database'> & Partial<Pick<Store, 'fail' | 'select'>>;

/**
 * The matches recorded for `tournamentId`, by match id, so a tournament run again skips them and still
 * counts them. Cancelled matches are left out: they were not played to an end and are to be played again.
 */
export async function recordedMatches(store: StoreReader, tournamentId: string): Promise<RecordedMatch[]> {
  const db = ident(store.database);
  let raw: Raw[];
  try {
    raw = await readRows<Raw>(
      store,
      `SELECT match_id, scenario, seed, kind, sides, outcomes, powers, scores, decisions, impulses, wall_ms, detail, forfeit_seat, forfeit_reason, worker
       FROM ${db}.matches FINAL WHERE tournament = ${str(tournamentId)} AND kind != 'cancelled' ORDER BY match_id`,
    );
  } catch (e) {
    if (store.fail) throw store.fail(`reading the matches of tournament ${tournamentId}`, e);
    throw e;
  }
  return raw.map((r) => {
    const sides = r.sides as unknown as string[];
    const outcomes = r.outcomes as unknown as string[];
    const powers = r.powers as unknown as string[];
    const scores = r.scores as unknown as number[];
    return {
      matchId: String(r.match_id),
      scenario: String(r.scenario),
      seed: Number(r.seed),
      kind: String(r.kind),
      sides: Object.fromEntries(sides.map((s, i) => [s, String(outcomes[i])])),
      scores: Object.fromEntries(powers.map((p, i) => [p, Number(scores[i])])),
      decisions: Number(r.decisions),
      impulses: Number(r.impulses),
      wallMs: Number(r.wall_ms),
      detail: r.kind === 'forfeit' ? `${String(r.forfeit_seat)} forfeits (${String(r.forfeit_reason)}): ${String(r.detail)}` : String(r.detail),
      worker: String(r.worker),
    };
  });
}

/**
 * The replay of a stored match, to re-run or to step through (`runReplay`); undefined when no match
 * of that id is stored.
 */
export async function matchReplay(store: Store, matchId: string): Promise<Replay | undefined> {
  const [m] = await rows<StoredReplayColumns>(
    store,
    `reading the replay of match ${matchId}`,
    // No FINAL: the matches table is not ordered by match id, so FINAL would merge the whole table to
    // find one row; copies of a match row (a match sent again) hold the same replay. PREWHERE: only the
    // id column is scanned, the (large) replay columns read for the granule that holds the match (an
    // older server, such as 18.16, does not move the condition there by itself).
    `SELECT ${REPLAY_SOURCE_COLUMNS.join(', ')} FROM ${ident(store.database)}.matches PREWHERE match_id = ${str(matchId)} LIMIT 1`,
  );
  return m ? replayOf(m) : undefined;
}

/** A stored match with its replay (see {@link tournamentMatchReplays}). */
export interface MatchWithReplay {
  match: MatchSummary;
  replay: Replay;
}

/**
 * A page of the matches recorded for `tournamentId` (cancelled ones included: an export says what
 * became of every match), with their replays, by match id: `limit` rows (default 200) after the match
 * id `after`. One query a page, rather than one a match.
 */
export async function tournamentMatchReplays(store: StoreReader, tournamentId: string, page: { after?: string; limit?: number } = {}): Promise<MatchWithReplay[]> {
  const limit = page.limit ?? 200;
  if (!Number.isInteger(limit) || limit < 1) throw new SalientError('BAD_ARGUMENT', `limit must be a whole number of at least 1; got ${limit}.`);
  const inSummary = new Set(['match_id', 'game', 'scenario', 'pack_id', 'pack_hash', 'rules_version', 'seed', 'final_hash']);
  const extra = REPLAY_SOURCE_COLUMNS.filter((c) => !inSummary.has(c));
  const c = [`tournament = ${str(tournamentId)}`, ...(page.after !== undefined ? [`match_id > ${str(page.after)}`] : [])];
  const sql = `SELECT ${SUMMARY_COLUMNS}, ${extra.join(', ')} FROM ${ident(store.database)}.matches FINAL ${where(c)} ORDER BY match_id LIMIT ${num(limit)}`;
  let raw: Raw[];
  try {
    raw = await readRows<Raw>(store, sql);
  } catch (e) {
    if (store.fail) throw store.fail(`reading the matches of tournament ${tournamentId}`, e);
    throw e;
  }
  return raw.map((r) => ({ match: summary(r), replay: replayOf(r as unknown as StoredReplayColumns) }));
}

/** An event of a stored match, its data as the game gave it (see `eventData`). */
export interface StoredEvent {
  seq: number;
  impulseSeq: number;
  position: { turn: number; impulse: number; phase: string; step: string };
  type: string;
  /** '' for an event of no power. */
  power: string;
  text: string;
  data?: JsonObject;
}

/** The event rows of a stored match, in order (empty when there are none), from its page rows (migration 10). */
export async function matchEvents(store: Store, matchId: string): Promise<StoredEvent[]> {
  const raw = await rows<Raw>(store, `reading the events of match ${matchId}`, `SELECT part, body FROM ${ident(store.database)}.match_pages PREWHERE match_id = ${str(matchId)} WHERE part = ${PAGE_PARTS.events}`);
  return pageRows(raw, PAGE_PARTS.events, PAGE_EVENT_FIELDS).map((r) => storedEvent(matchId, r));
}

function storedEvent(matchId: string, r: Raw): StoredEvent {
  const data = eventData({ ...(r as unknown as StoredEventColumns), match_id: matchId });
  return {
    seq: Number(r.seq),
    impulseSeq: Number(r.impulse_seq),
    position: { turn: Number(r.turn), impulse: Number(r.impulse), phase: String(r.phase), step: String(r.step) },
    type: String(r.type),
    power: String(r.power),
    text: String(r.text),
    ...(data === undefined ? {} : { data }),
  };
}

/** A stored match as lists and pages show it. */
export interface MatchSummary extends ScenarioKey {
  matchId: string;
  tournament: string;
  seed: number;
  /** Runner termination kind (`completed`, `adjudicated`, `forfeit`, `error`, `cancelled`). */
  kind: string;
  /** Side id -> outcome (`win`, `loss`, `draw`; empty when the match was not decided). */
  sides: Record<string, string>;
  /** Side id -> the bot that played it (`random@1`). */
  sideBots: Record<string, string>;
  /** Power -> final score. */
  scores: Record<string, number>;
  /** The game's own margin of the result (`GameResult.margin`; 0 without a result). */
  margin: number;
  reason: string;
  detail: string;
  turns: number;
  impulses: number;
  decisions: number;
  wallMs: number;
  startedAt: string;
  endedAt: string;
  worker: string;
  finalHash: string;
}

const SUMMARY_COLUMNS = `match_id, tournament, ${SCENARIO_COLUMNS}, seed, kind, sides, outcomes, side_bots, powers, scores, margin, reason, detail, forfeit_seat, forfeit_reason,
  turns, impulses, decisions, wall_ms, toString(started_at, 'UTC') AS started, toString(ended_at, 'UTC') AS ended, worker, final_hash`;

/** `keys[i]` -> `f(values[i])` (a loop: `Object.fromEntries` of mapped pairs cost several times more a row). */
function zip<T>(keys: unknown, values: unknown, f: (v: unknown) => T): Record<string, T> {
  const k = keys as unknown[];
  const v = values as unknown[];
  const out: Record<string, T> = {};
  for (let i = 0; i < k.length; i++) out[String(k[i])] = f(v[i]);
  return out;
}

/** ClickHouse's `toString(DateTime, 'UTC')` as ISO 8601 (always asked for in UTC: the server's own time zone may be any). */
const isoTime = (v: unknown): string => `${String(v).replace(' ', 'T')}Z`;

function summary(r: Raw): MatchSummary {
  const decided = r.kind === 'completed' || r.kind === 'adjudicated' || r.kind === 'forfeit';
  return withKey(r, {
    matchId: String(r.match_id),
    tournament: String(r.tournament),
    seed: Number(r.seed),
    kind: String(r.kind),
    sides: decided ? zip(r.sides, r.outcomes, String) : {},
    sideBots: zip(r.sides, r.side_bots, String),
    scores: zip(r.powers, r.scores, Number),
    margin: decided ? Number(r.margin) : 0,
    reason: String(r.reason),
    detail: r.kind === 'forfeit' ? `${String(r.forfeit_seat)} forfeits (${String(r.forfeit_reason)}): ${String(r.detail)}` : String(r.detail),
    turns: Number(r.turns),
    impulses: Number(r.impulses),
    decisions: Number(r.decisions),
    wallMs: Number(r.wall_ms),
    startedAt: isoTime(r.started),
    endedAt: isoTime(r.ended),
    worker: String(r.worker),
    finalHash: String(r.final_hash),
  });
}

/**
 * A page of stored matches, newest first, with how many match the filter in all: from `match_list`
 * (migration 6), which holds each counted match once, sorted newest first, so a page is a read of the
 * sort key from the cursor on and of the granules that hold its rows, never a FINAL merge of the table.
 * The rows themselves come packed from `match_list_packed` (migration 11, the same keys). A re-played
 * match shows once, at its newest copy's end time.
 */
export async function listMatches(store: Store, filter: TelemetryFilter = {}, page: MatchPage = {}): Promise<MatchList> {
  const limit = page.limit ?? 50;
  const offset = page.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1) throw new SalientError('BAD_ARGUMENT', `limit must be a whole number of at least 1; got ${limit}.`);
  if (!Number.isInteger(offset) || offset < 0) throw new SalientError('BAD_ARGUMENT', `offset must be a whole number of at least 0; got ${offset}.`);
  if (store.mode === 'server' && offset === 0 && Object.values(filter).every((v) => v === undefined)) return listPacked(store, limit, page.after);
  if (byScenario(filter)) return listByMinutes(store, filter, limit, offset, page.after);
  const db = ident(store.database);
  const c = conditions(filter, 'bots');
  // A copy taken back (sign -1) cancels its row, so the count is a sum of signs.
  const totalOf = `(SELECT sum(sign) FROM ${db}.match_list ${where(c)})`;
  if (page.after !== undefined) {
    // Keyset paging: the rows after the cursor's, in the list's order (newest first, then by id).
    const { endedAt, matchId } = decodeCursor(page.after);
    const rev = num(REV - endedAt);
    c.push(`rev_ended >= ${rev} AND (rev_ended > ${rev} OR match_id > ${str(matchId)})`);
  }
  const { keys, total } = offset > 0 ? await listKeysAfterSkip(store, c, limit, offset, totalOf) : await listKeys(store, c, limit, totalOf);
  if (keys.length === 0) return { total, matches: [] };
  const revs = keys.map((k) => k.rev);
  const raw = await rows<Raw>(
    store,
    'listing matches',
    `SELECT rev_ended, match_id, summary FROM ${db}.match_list_packed
     PREWHERE rev_ended >= ${num(Math.min(...revs))} AND rev_ended <= ${num(Math.max(...revs))} AND match_id IN (${keys.map((k) => str(k.id)).join(', ')}) AND sign > 0
     LIMIT 1 BY rev_ended, match_id`,
  );
  const byKey = new Map(raw.map((r) => [`${Number(r.rev_ended)} ${String(r.match_id)}`, r]));
  const found = keys.flatMap((k): Raw[] => {
    const r = byKey.get(`${k.rev} ${k.id}`);
    return r ? [r] : [];
  });
  const last = keys.at(-1);
  const next = keys.length === limit && last ? encodeCursor(REV - last.rev, last.id) : undefined;
  return { total, matches: found.map(packedSummary), ...(next ? { next } : {}) };
}

/**
 * The whole list's first page, or the page after a cursor, on a server: one statement of
 * `match_list_packed` alone (it holds the list's keys and signs as `match_list` does), the rows up to
 * the end time of the `fetch`-th from the narrow sort column (18.16 sorts every row selected to take
 * the first few), with their summaries and the count of the list; the signs are added up here as
 * {@link listKeys} does, asking for more while cancelled pairs leave the page short. The minutes'
 * walk of {@link listByMinutes} cost a query more, and the keys then the rows two: each query costs
 * the API's CPU and the server's set-up on top of its few milliseconds of reading.
 */
async function listPacked(store: Store, limit: number, after: string | undefined): Promise<MatchList> {
  const db = ident(store.database);
  const c: string[] = [];
  // Where the bound on the end time is taken from: the rows after the cursor's second, from the narrow
  // sort column alone (the cursor's own id condition made 18.16 read and compare every id from there
  // on, half the table for a page half-way down). Those rows are no more than the page's (the rows of
  // the cursor's second past its id come on top), so the `fetch`-th of them bounds the first `fetch`
  // after the cursor from above; with fewer, their last (or the cursor's second) bounds them all.
  // The page after the cursor of offset 50,000 of 100,000 matches cost the 18.16 server 12.6-13.2 ms
  // of CPU with the id condition there, 8.3-9.2 without (100 reads one after another, bench/api.bench.ts's store).
  let from = '';
  let floor = '0';
  if (after !== undefined) {
    const { endedAt, matchId } = decodeCursor(after);
    const rev = num(REV - endedAt);
    c.push(`rev_ended >= ${rev} AND (rev_ended > ${rev} OR match_id > ${str(matchId)})`);
    from = `WHERE rev_ended > ${rev}`;
    floor = rev;
  }
  const totalOf = `(SELECT sum(sign) FROM ${db}.match_list)`;
  for (let fetch = limit + 8; ; fetch *= 4) {
    const upTo = `(SELECT greatest(${floor}, max(r)) FROM (SELECT rev_ended AS r FROM ${db}.match_list_packed ${from} ORDER BY rev_ended LIMIT ${num(fetch)}))`;
    const raw = await rows<Raw>(
      store,
      'listing matches',
      `SELECT rev_ended, match_id, sign, summary, ${totalOf} AS total FROM ${db}.match_list_packed
       PREWHERE ${[...c, `rev_ended <= ${upTo}`].join(' AND ')} ORDER BY rev_ended, match_id LIMIT ${num(fetch)}`,
    );
    const keys: (ListKey & { sign: number; row?: Raw })[] = [];
    for (const r of raw) {
      const k = { rev: Number(r.rev_ended), id: String(r.match_id), sign: Number(r.sign) };
      let at = keys.at(-1);
      if (at && at.rev === k.rev && at.id === k.id) at.sign += k.sign;
      else keys.push((at = k));
      if (k.sign > 0) at.row ??= r;
    }
    const complete = raw.length < fetch;
    const settled = keys.slice(0, complete ? keys.length : -1).filter((k) => k.sign > 0 && k.row);
    if (settled.length >= limit || complete) {
      const page = settled.slice(0, limit);
      const total = raw[0] ? Number(raw[0].total) : await listTotal(store, totalOf);
      const last = page.at(-1);
      const next = page.length === limit && last ? encodeCursor(REV - last.rev, last.id) : undefined;
      return { total, matches: page.map((k) => packedSummary(k.row!)), ...(next ? { next } : {}) };
    }
  }
}

/** A row of `match_list_packed` (migration 11) as a match summary. */
const packedSummary = (r: Raw): MatchSummary => summary(unpackPage(String(r.summary), PAGE_SUMMARY_FIELDS)[0]!);

/**
 * The match list under a filter on the scenario key alone (migration 8): the matches counted by minute
 * of end time (`list_minutes` of migration 12, a row per minute and scenario a part) give the total and the
 * minutes that hold rows `offset` to `offset + limit` (after the cursor, if any); one more query reads
 * those minutes of `match_list` by its sorting key, sums each key's signs (a copy taken back cancels
 * its row), skips what lies before the page in its first minute, and takes the page's rows. A page at
 * any offset costs about what the first does.
 */
async function listByMinutes(store: Store, filter: TelemetryFilter, limit: number, offset: number, after: string | undefined): Promise<MatchList> {
  const db = ident(store.database);
  const c = conditions(filter, 'bots');
  const minutes = (
    await rows<Raw>(store, 'listing matches', `SELECT rev_minute, sum(n) AS live FROM ${db}.list_minutes ${where(['rev_minute > 0', ...c])} GROUP BY rev_minute HAVING live != 0 ORDER BY rev_minute`)
  ).map((r) => ({ minute: Number(r.rev_minute), live: Number(r.live) }));
  const total = minutes.reduce((a, m) => a + m.live, 0);
  // The first minute to read, and the live rows of the range before the page.
  let first = 0;
  let skip = offset;
  const range = [...c];
  // Live rows of the range known to lie after the cursor (all of them, without one).
  let known: number;
  if (after !== undefined) {
    const { endedAt, matchId } = decodeCursor(after);
    const rev = REV - endedAt;
    range.push(`rev_ended >= ${num(rev)} AND (rev_ended > ${num(rev)} OR match_id > ${str(matchId)})`);
    const cursorMinute = Math.floor(rev / LIST_BUCKET_SECONDS);
    while (first < minutes.length && minutes[first]!.minute < cursorMinute) first++;
    if (first >= minutes.length) return { total, matches: [] };
    // How many rows of the cursor's own minute come after it is not known: that minute is read whole and counts for none.
    known = minutes[first]!.minute === cursorMinute ? 0 : minutes[first]!.live;
  } else {
    for (; first < minutes.length && skip >= minutes[first]!.live; first++) skip -= minutes[first]!.live;
    if (first >= minutes.length) return { total, matches: [] };
    known = minutes[first]!.live;
  }
  let last = first;
  while (known < skip + limit && last + 1 < minutes.length) known += minutes[++last]!.live;
  const lo = (minutes[first]?.minute ?? 0) * LIST_BUCKET_SECONDS;
  const hi = (minutes[last]?.minute ?? 0) * LIST_BUCKET_SECONDS + LIST_BUCKET_SECONDS - 1;
  const span = `rev_ended >= ${num(lo)} AND rev_ended <= ${num(hi)}`;
  // The keys from `match_list` (which keeps the columns the filter looks at), the rows packed (migration 11).
  // Without a filter, the keys from `match_list_packed` too, which holds them with the same signs: on the
  // Debian 18.16 server a page at offset 50,000 of 100,000 matches cost ~1.5 ms less of its CPU so
  // (8.2 -> 6.7 ms; its CPU over 100 reads one after another, bench/api.bench.ts's store).
  const keysFrom = c.length === 0 ? 'match_list_packed' : 'match_list';
  const raw = await rows<Raw>(
    store,
    'listing matches',
    `SELECT rev_ended, match_id, summary FROM ${db}.match_list_packed
     PREWHERE ${span} AND (rev_ended, match_id) IN (
       SELECT rev_ended, match_id FROM ${db}.${keysFrom} ${where([span, ...range])}
       GROUP BY rev_ended, match_id HAVING sum(sign) > 0 ORDER BY rev_ended, match_id LIMIT ${num(limit)} OFFSET ${num(skip)}
     ) AND sign > 0
     LIMIT 1 BY rev_ended, match_id`,
  );
  const page = raw.sort((a, b) => Number(a.rev_ended) - Number(b.rev_ended) || cmp(String(a.match_id), String(b.match_id)));
  const end = page.at(-1);
  const next = page.length === limit && end ? encodeCursor(REV - Number(end.rev_ended), String(end.match_id)) : undefined;
  return { total, matches: page.map(packedSummary), ...(next ? { next } : {}) };
}

/** `rev_ended` is this minus the end time (see `match_list` in schema.ts). */
const REV = 4294967295;

interface ListKey {
  rev: number;
  id: string;
}

/**
 * The first `limit` keys of the list under conditions `c`: the sort key alone, in order, with the signs
 * added up here (a cancelled pair sits side by side), asking for more while cancelled pairs leave the
 * page short; and the count of the whole list (`totalOf`), asked in the same query.
 */
async function listKeys(store: Store, c: readonly string[], limit: number, totalOf: string): Promise<{ keys: ListKey[]; total: number }> {
  const db = ident(store.database);
  for (let fetch = limit + 8; ; fetch *= 4) {
    // On a server, the end time of the `fetch`-th row first, from the narrow sort column alone: the
    // rows up to it are a range of the sorting key, so only its granules are read for the ids (18.16
    // sorts every row selected to take the first few, whatever the table's order). The embedded
    // engine reads a sorted table in order by itself, and the extra step only costs it time.
    const upTo = `(SELECT max(r) FROM (SELECT rev_ended AS r FROM ${db}.match_list ${where(c)} ORDER BY rev_ended LIMIT ${num(fetch)}))`;
    const bounded = store.mode === 'server' ? [...c, `rev_ended <= ${upTo}`] : c;
    const raw = await rows<Raw>(
      store,
      'listing matches',
      `SELECT rev_ended, match_id, sign, ${totalOf} AS total FROM ${db}.match_list ${where(bounded)} ORDER BY rev_ended, match_id LIMIT ${num(fetch)}`,
    );
    const keys: (ListKey & { sign: number })[] = [];
    for (const r of raw) {
      const k = { rev: Number(r.rev_ended), id: String(r.match_id), sign: Number(r.sign) };
      const prev = keys.at(-1);
      if (prev && prev.rev === k.rev && prev.id === k.id) prev.sign += k.sign;
      else keys.push(k);
    }
    // The last key may have more rows past the fetch: only keys before it are settled, unless all came.
    const complete = raw.length < fetch;
    const settled = keys.slice(0, complete ? keys.length : -1).filter((k) => k.sign > 0);
    if (settled.length >= limit || complete) {
      const total = raw[0] ? Number(raw[0].total) : await listTotal(store, totalOf);
      return { keys: settled.slice(0, limit).map(({ rev, id }) => ({ rev, id })), total };
    }
  }
}

/** Keys `offset` to `offset + limit` of the list: every key up to there is summed (an offset costs what it skips). */
async function listKeysAfterSkip(store: Store, c: readonly string[], limit: number, offset: number, totalOf: string): Promise<{ keys: ListKey[]; total: number }> {
  const raw = await rows<Raw>(
    store,
    'listing matches',
    `SELECT rev_ended, match_id FROM ${ident(store.database)}.match_list ${where(c)}
     GROUP BY rev_ended, match_id HAVING sum(sign) > 0 ORDER BY rev_ended, match_id LIMIT ${num(limit)} OFFSET ${num(offset)}`,
  );
  return { keys: raw.map((r) => ({ rev: Number(r.rev_ended), id: String(r.match_id) })), total: await listTotal(store, totalOf) };
}

async function listTotal(store: Store, totalOf: string): Promise<number> {
  const [r] = await rows<Raw>(store, 'counting matches', `SELECT ${totalOf} AS n`);
  return Number(r?.n ?? 0);
}

/** A page of the match list: `limit` rows (default 50), after skipping `offset`, after the row `after` names. */
export interface MatchPage {
  limit?: number;
  offset?: number;
  /** A cursor from an earlier page's `next`: the page starts after that page's last row. */
  after?: string;
}

export interface MatchList {
  /** Matches the filter selects, all pages together. */
  total: number;
  matches: MatchSummary[];
  /** Cursor of the next page (pass it as `after`), when this page was full. */
  next?: string;
}

/**
 * A cursor names the last row of a page by its sort key, so the next page is read from there
 * (without sorting and skipping every row before it, as an offset does). It is opaque to callers:
 * base64url of `[endedAtSeconds, matchId]`.
 */
function encodeCursor(endedAt: number, matchId: string): string {
  return Buffer.from(JSON.stringify([endedAt, matchId])).toString('base64url');
}

function decodeCursor(cursor: string): { endedAt: number; matchId: string } {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    v = undefined;
  }
  if (!Array.isArray(v) || v.length !== 2 || !Number.isSafeInteger(v[0]) || (v[0] as number) < 0 || typeof v[1] !== 'string') {
    throw new SalientError('BAD_ARGUMENT', `after: '${cursor.slice(0, 80)}' is not a page cursor; pass the \`next\` value of an earlier page unchanged, or leave it out to start from the newest match.`);
  }
  return { endedAt: v[0] as number, matchId: v[1] as string };
}

/** One stored match's summary; undefined when no match of that id is stored. */
export async function matchSummary(store: Store, matchId: string): Promise<MatchSummary | undefined> {
  const db = ident(store.database);
  // The copy counted in the aggregates, from `counted_matches`, ordered by match id (migration 6).
  // PREWHERE: ClickHouse 18.16 otherwise reads every column of the granules the key selects before
  // filtering (a tenth of a second on the impulses of 100 000 matches under FINAL).
  const [c] = await rows<Raw>(store, `reading match ${matchId}`, `SELECT ${SUMMARY_COLUMNS} FROM ${db}.counted_matches PREWHERE match_id = ${str(matchId)} ORDER BY ver DESC LIMIT 1`);
  if (c) return summary(c);
  // A match not counted (yet): no FINAL, as in matchReplay: copies of a match row agree on everything but where and when it was played.
  const [r] = await rows<Raw>(store, `reading match ${matchId}`, `SELECT ${SUMMARY_COLUMNS} FROM ${db}.matches PREWHERE match_id = ${str(matchId)} LIMIT 1`);
  return r ? summary(r) : undefined;
}

/**
 * The final state hash of a stored match (the copy {@link matchSummary} reads), undefined when no match
 * of that id is stored: what a cache of things drawn from its log keys on. The hash column alone: the
 * summary's 27 columns cost a point read most of its time on the 18.16 server.
 */
export async function matchFinalHash(store: Store, matchId: string): Promise<string | undefined> {
  const db = ident(store.database);
  const [c] = await rows<Raw>(store, `reading match ${matchId}`, `SELECT final_hash FROM ${db}.counted_matches PREWHERE match_id = ${str(matchId)} ORDER BY ver DESC LIMIT 1`);
  if (c) return String(c.final_hash);
  const [r] = await rows<Raw>(store, `reading match ${matchId}`, `SELECT final_hash FROM ${db}.matches PREWHERE match_id = ${str(matchId)} LIMIT 1`);
  return r ? String(r.final_hash) : undefined;
}

/** An impulse of a stored match: where it was, who acted, and each power's standing after it. */
export interface StoredImpulse {
  seq: number;
  position: { turn: number; impulse: number; phase: string; step: string };
  activePowers: string[];
  decisions: number;
  /** Power -> value after the impulse. */
  scores: Record<string, number>;
  losses: Record<string, number>;
  control: Record<string, number>;
  /** The game's other figures by name (Blitz: `<power>.units`, `<power>.size`, `<power>.objectives`). */
  extra: Record<string, number>;
  stateHash: string;
}

/** The impulse rows of a stored match, in order (empty when there are none), from its page rows (migration 10). */
export async function matchImpulses(store: Store, matchId: string): Promise<StoredImpulse[]> {
  const raw = await rows<Raw>(store, `reading the impulses of match ${matchId}`, `SELECT part, body FROM ${ident(store.database)}.match_pages PREWHERE match_id = ${str(matchId)} WHERE part = ${PAGE_PARTS.impulses}`);
  return pageRows(raw, PAGE_PARTS.impulses, PAGE_IMPULSE_FIELDS).map(storedImpulse);
}

function storedImpulse(r: Raw): StoredImpulse {
  return {
    seq: Number(r.seq),
    position: { turn: Number(r.turn), impulse: Number(r.impulse), phase: String(r.phase), step: String(r.step) },
    activePowers: (r.active_powers as unknown as unknown[]).map(String),
    decisions: Number(r.decisions),
    scores: zip(r.powers, r.scores, Number),
    losses: zip(r.powers, r.losses, Number),
    control: zip(r.powers, r.control, Number),
    extra: zip(r.extra_keys, r.extra_values, Number),
    stateHash: String(r.state_hash),
  };
}

/** One stored match as its page shows it: its summary, impulses and events. */
export interface MatchDetail {
  match: MatchSummary;
  impulses: StoredImpulse[];
  events: StoredEvent[];
}

/**
 * One stored match with its impulses and events (undefined when no match of that id is stored), in
 * one query of its page rows (migration 10): the summary of the copy counted (the highest `ver`, as
 * {@link matchSummary} reads it), and its impulse and event rows. Equal to {@link matchSummary},
 * {@link matchImpulses} and {@link matchEvents} together, which cost three queries.
 */
export async function matchDetail(store: Store, matchId: string): Promise<MatchDetail | undefined> {
  const raw = await rows<Raw>(store, `reading match ${matchId}`, `SELECT part, first_seq, body FROM ${ident(store.database)}.match_pages PREWHERE match_id = ${str(matchId)}`);
  let head: Raw | undefined;
  for (const r of raw) if (Number(r.part) === PAGE_PARTS.summary && (!head || Number(r.first_seq) > Number(head.first_seq))) head = r;
  // A match not counted (yet): its summary as matchSummary reads it.
  const match = head ? summary(unpackPage(String(head.body), PAGE_SUMMARY_FIELDS)[0]!) : await matchSummary(store, matchId);
  if (!match) return undefined;
  return {
    match,
    impulses: pageRows(raw, PAGE_PARTS.impulses, PAGE_IMPULSE_FIELDS).map(storedImpulse),
    events: pageRows(raw, PAGE_PARTS.events, PAGE_EVENT_FIELDS).map((r) => storedEvent(matchId, r)),
  };
}

const MARKS = [PAGE_MARKS.escape, PAGE_MARKS.item, PAGE_MARKS.row, PAGE_MARKS.field];
const ESCAPED = new RegExp(`${PAGE_MARKS.escape}([0-3])`, 'g');
const unescapePage = (s: string): string => (s.includes(PAGE_MARKS.escape) ? s.replace(ESCAPED, (_, i: string) => MARKS[Number(i)]!) : s);
/** ClickHouse's text of a float that JSON has no number for; JSON answers give null for these, which reads as 0. */
const numberText = (s: string): string => (s === 'nan' || s === 'inf' || s === '-inf' || s === '-nan' || s === '+inf' ? '0' : s);

/** The rows packed in one page body (see `PAGE_MARKS` in schema.ts), by field name. */
function unpackPage(body: string, fields: readonly PageField[]): Raw[] {
  const out: Raw[] = [];
  for (const line of body.split(PAGE_MARKS.row)) {
    const values = line.split(PAGE_MARKS.field);
    const r: Record<string, unknown> = {};
    for (let i = 0; i < fields.length; i++) {
      const [name, kind] = fields[i]!;
      const v = values[i] ?? '';
      if (kind === 'n') r[name] = numberText(v);
      else if (kind === 's') r[name] = unescapePage(v);
      else {
        const items = v === '' ? [] : v.split(PAGE_MARKS.item).slice(1);
        r[name] = kind === 'ss' ? items.map(unescapePage) : items.map(numberText);
      }
    }
    out.push(r as Raw);
  }
  return out;
}

/**
 * The rows of one part of a match's page rows, one of each sequence number, in order. A match written
 * over several batches has a page row per batch, and a batch delivered twice two copies of its rows;
 * copies of a row agree (a match's rows are determined by its seed and choices), so any one is kept.
 */
function pageRows(raw: readonly Raw[], part: number, fields: readonly PageField[]): Raw[] {
  const pages = raw.filter((r) => Number(r.part) === part);
  const all = pages.flatMap((p) => unpackPage(String(p.body), fields));
  if (pages.length > 1) all.sort((a, b) => Number(a.seq) - Number(b.seq));
  const out: Raw[] = [];
  let last = -1;
  for (const r of all) {
    const seq = Number(r.seq);
    if (seq === last) continue;
    // One page's rows come in the order written, which is by sequence number; another order is sorted here.
    if (seq < last) return pageRowsSorted(all);
    out.push(r);
    last = seq;
  }
  return out;
}

function pageRowsSorted(all: Raw[]): Raw[] {
  const bySeq = new Map<number, Raw>();
  for (const r of all) if (!bySeq.has(Number(r.seq))) bySeq.set(Number(r.seq), r);
  return [...bySeq.keys()].sort((a, b) => a - b).map((k) => bySeq.get(k)!);
}

/** A tournament as the store knows it: its recorded matches, and what its runner recorded of it. */
export interface TournamentSummary {
  id: string;
  game: string;
  scenarios: string[];
  bots: string[];
  matches: number;
  /** Matches by termination kind. */
  kinds: Record<string, number>;
  /** '' when no match is recorded yet. */
  firstStartedAt: string;
  lastEndedAt: string;
  /** From the runner's record ({@link recordTournament}), where there is one. */
  name?: string;
  planned?: number;
  executor?: string;
  state?: string;
  updatedAt?: string;
}

/** What a runner records of a tournament when it starts, and when it ends or stops. */
export interface TournamentRecord {
  id: string;
  name?: string;
  game: string;
  /** The spec as run (stored as JSON). */
  spec?: unknown;
  specHash?: string;
  /** Matches in the plan. */
  planned: number;
  /** `local` (a pool on one machine) or `queue` (BullMQ workers). */
  executor: 'local' | 'queue';
  /** `submitted`: put on the queue (its page asks the queue how far it got). */
  state: 'submitted' | 'running' | 'finished' | 'cancelled' | 'failed';
  startedAt: Date;
}

/** Record a tournament's state; the latest record of an id is the one read back. */
export async function recordTournament(store: Store, r: TournamentRecord): Promise<void> {
  const now = Date.now();
  // Bounded like a match's rows: a hung server must not hold up the run that records itself.
  const deadline = store.mode === 'server' ? AbortSignal.timeout(DEFAULT_RETRY.timeoutMs ?? 10_000) : undefined;
  try {
    await store.client.insert({
      ...(deadline ? { abort_signal: deadline } : {}),
      table: `${ident(store.database)}.tournaments`,
      values: [
        {
          tournament: r.id,
          name: r.name ?? '',
          game: r.game,
          spec: r.spec === undefined ? '' : JSON.stringify(r.spec),
          spec_hash: r.specHash ?? '',
          planned: r.planned,
          executor: r.executor,
          state: r.state,
          started_at: Math.floor(r.startedAt.getTime() / 1000),
          updated_at: Math.floor(now / 1000),
          version: now,
        },
      ],
      format: 'JSONEachRow',
    });
  } catch (e) {
    const cause = deadline?.aborted ? new StoreTimeoutError(`recording tournament ${r.id}`, DEFAULT_RETRY.timeoutMs ?? 10_000) : e;
    if (store.unreachable(cause)) store.link.down(cause);
    throw store.fail(`recording tournament ${r.id}`, cause);
  }
}

/** How a match can end (`MatchOutcome.kind`). */
const MATCH_KINDS = ['completed', 'adjudicated', 'forfeit', 'error', 'cancelled'] as const;

/**
 * Tournaments with recorded matches or a runner's record (matches played outside a tournament are
 * left out), latest first. Filters on scenario, bot, pack, rules version or time list only
 * tournaments with such matches. The figures come from the aggregates of migration 7, or, for a time
 * range, from the match rows.
 */
export async function tournamentSummaries(store: Store, filter: TelemetryFilter = {}, limit = 100): Promise<TournamentSummary[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new SalientError('BAD_ARGUMENT', `limit must be a whole number of at least 1; got ${limit}.`);
  const db = ident(store.database);
  const raw = needsMatchRows(filter) ? await rows<Raw>(store, 'listing tournaments', tournamentsFromMatches(db, filter, limit)) : await tournamentsFromTotals(store, filter, limit);
  const onlyMatches = ['scenario', 'bot', 'pack', 'rulesVersion', 'from', 'to'].some((k) => filter[k as keyof TelemetryFilter] !== undefined);
  const metaWhere = [
    ...(filter.game !== undefined ? [`game = ${str(filter.game)}`] : []),
    ...(filter.tournament !== undefined ? [`tournament = ${str(filter.tournament)}`] : []),
    ...(onlyMatches ? [`tournament IN (${raw.length ? raw.map((r) => str(String(r.tournament))).join(', ') : "''"})`] : []),
  ];
  const meta = await rows<Raw>(
    store,
    'reading tournament records',
    `SELECT tournament, name, game, spec, planned, executor, state, toString(updated_at, 'UTC') AS updated, toString(started_at, 'UTC') AS started
     FROM ${db}.tournaments FINAL ${where(metaWhere)} ORDER BY updated_at DESC LIMIT ${num(limit)}`,
  );
  const byId = new Map<string, TournamentSummary>();
  for (const r of raw) {
    const kinds = Object.fromEntries(MATCH_KINDS.map((k) => [k, Number(r[`n_${k}`])]).filter(([, n]) => n));
    byId.set(String(r.tournament), {
      id: String(r.tournament),
      game: String(r.t_game),
      scenarios: (r.t_scenarios as unknown as string[]).map(String).sort(),
      bots: (r.t_bots as unknown as string[]).map(String).sort(),
      matches: Number(r.n),
      kinds,
      firstStartedAt: isoTime(r.first),
      lastEndedAt: isoTime(r.last),
    });
  }
  for (const m of meta) {
    const id = String(m.tournament);
    const t: TournamentSummary = byId.get(id) ?? { id, game: String(m.game), scenarios: specScenarios(String(m.spec)), bots: [], matches: 0, kinds: {}, firstStartedAt: '', lastEndedAt: '' };
    Object.assign(t, { name: String(m.name), planned: Number(m.planned), executor: String(m.executor), state: String(m.state), updatedAt: isoTime(m.updated) });
    byId.set(id, t);
  }
  const latest = (t: TournamentSummary) => [t.lastEndedAt, t.updatedAt ?? ''].sort().at(-1) as string;
  return [...byId.values()].sort((a, b) => latest(b).localeCompare(latest(a)) || a.id.localeCompare(b.id)).slice(0, limit);
}

/** The figures of each tournament, by its matches' rows: for a time range, which the aggregates of migration 7 do not keep. */
function tournamentsFromMatches(db: string, filter: TelemetryFilter, limit: number): string {
  // Aliases differ from the columns: an alias named as a column would replace it in WHERE.
  return `SELECT tournament, any(game) AS t_game, groupUniqArray(scenario) AS t_scenarios, groupUniqArrayArray(side_bots) AS t_bots, count() AS n,
            ${MATCH_KINDS.map((k) => `countIf(kind = ${str(k)}) AS ${ident(`n_${k}`)}`).join(', ')}, toString(min(started_at), 'UTC') AS first, toString(max(ended_at), 'UTC') AS last
     FROM ${db}.matches FINAL ${where([...conditions(filter, 'bots'), "tournament != ''"])}
     GROUP BY tournament ORDER BY max(ended_at) DESC, tournament LIMIT ${num(limit)}`;
}

/**
 * The tournament list from the aggregates: counts, kinds, scenarios and entrants from
 * `tournament_totals` (migration 7), first start and last end from `tournament_span` (migration 8),
 * both a few rows per tournament. A tournament with a copy taken back since migration 8 has its times
 * worked out from `tournament_times` instead ({@link tournamentsFromTimes}, for those tournaments only).
 */
async function tournamentsFromTotals(store: Store, filter: TelemetryFilter, limit: number): Promise<Raw[]> {
  const db = ident(store.database);
  const c = [...conditions(filter, 'bots'), "tournament != ''"];
  const [totals, spans] = await Promise.all([
    rows<Raw>(
      store,
      'listing tournaments',
      `SELECT tournament, any(game) AS t_game, groupUniqArray(scenario) AS t_scenarios, groupUniqArrayArray(side_bots) AS t_bots, sum(c) AS n,
              ${MATCH_KINDS.map((k) => `sumIf(c, kind = ${str(k)}) AS ${ident(`n_${k}`)}`).join(', ')}
       FROM (
         SELECT tournament, game, scenario, side_bots, kind, sumMerge(n) AS c FROM ${db}.tournament_totals ${where(c)}
         GROUP BY tournament, game, scenario, pack_hash, rules_version, pack_id, bots, side_bots, kind HAVING c > 0
       )
       GROUP BY tournament`,
    ),
    rows<Raw>(
      store,
      'listing tournaments',
      `SELECT tournament, toString(minMerge(first_start), 'UTC') AS first, toString(maxMerge(last_end), 'UTC') AS last, sumMerge(taken_back) AS back
       FROM ${db}.tournament_span ${where(c)} GROUP BY tournament`,
    ),
  ]);
  const span = new Map(spans.map((r) => [String(r.tournament), r]));
  const redo = totals.map((t) => String(t.tournament)).filter((id) => Number(span.get(id)?.back ?? 1) > 0);
  // A kept span stands for the tournament's times only where no copy was taken back since it was kept.
  for (const id of redo) span.delete(id);
  if (redo.length) for (const r of await tournamentsFromTimes(store, filter, redo.length, redo)) span.set(String(r.tournament), r);
  const out: Raw[] = [];
  for (const t of totals) {
    const s = span.get(String(t.tournament));
    if (s?.first !== undefined && s.last !== undefined) out.push({ ...t, first: s.first, last: s.last });
  }
  return out.sort((a, b) => cmp(String(b.last), String(a.last)) || cmp(String(a.tournament), String(b.tournament))).slice(0, limit);
}

/**
 * The same figures, for the tournaments `only`, from `tournament_totals` and `tournament_times`
 * (migration 7: each counted match once, kept by ClickHouse as matches land). A group whose count is 0 holds only copies taken back. So
 * may a time, but summing every time's rows to find those costs a grouping of all of them; instead the
 * times with a row taken back (−1; none once merges summed them) are summed first, those that come to
 * 0 are left out, and the first start and last end are taken over the rows above 0: the same times, as
 * a time counted above 0 has a row above 0.
 */
async function tournamentsFromTimes(store: Store, filter: TelemetryFilter, limit: number, only: readonly string[]): Promise<Raw[]> {
  const db = ident(store.database);
  const c = [...conditions(filter, 'bots'), "tournament != ''", `tournament IN (${only.map(str).join(', ')})`];
  const time = '(tournament, toUInt32(ended_at), toUInt32(started_at))';
  const keyOf = (r: Raw) => `(${str(String(r.tournament))}, ${num(Number(r.e))}, ${num(Number(r.s))})`;
  // Times with a row taken back: none at all once merges have summed them (the common case, one narrow read).
  const takenBack = await rows<Raw>(store, 'listing tournaments', `SELECT DISTINCT tournament, toUInt32(ended_at) AS e, toUInt32(started_at) AS s FROM ${db}.tournament_times PREWHERE n < 0 ${where(c)}`);
  const gone = takenBack.length
    ? await rows<Raw>(
        store,
        'listing tournaments',
        `SELECT tournament, toUInt32(ended_at) AS e, toUInt32(started_at) AS s FROM ${db}.tournament_times
         PREWHERE tournament IN (${[...new Set(takenBack.map((r) => str(String(r.tournament))))].join(', ')}) ${where([...c, `${time} IN (${takenBack.map(keyOf).join(', ')})`])}
         GROUP BY tournament, ended_at, started_at HAVING sum(n) <= 0`,
      )
    : [];
  const live = [...c, 'n > 0', ...(gone.length ? [`${time} NOT IN (${gone.map(keyOf).join(', ')})`] : [])];
  return rows<Raw>(store, 'listing tournaments', `SELECT tournament, t_game, t_scenarios, t_bots, n, ${MATCH_KINDS.map((k) => ident(`n_${k}`)).join(', ')}, toString(t_first, 'UTC') AS first, toString(t_last, 'UTC') AS last
     FROM (
       SELECT tournament, any(game) AS t_game, groupUniqArray(scenario) AS t_scenarios, groupUniqArrayArray(side_bots) AS t_bots, sum(c) AS n,
              ${MATCH_KINDS.map((k) => `sumIf(c, kind = ${str(k)}) AS ${ident(`n_${k}`)}`).join(', ')}
       FROM (
         SELECT tournament, game, scenario, side_bots, kind, sumMerge(n) AS c FROM ${db}.tournament_totals ${where(c)}
         GROUP BY tournament, game, scenario, pack_hash, rules_version, pack_id, bots, side_bots, kind HAVING c > 0
       )
       GROUP BY tournament
     ) AS t
     ALL INNER JOIN (
       SELECT tournament, min(started_at) AS t_first, max(ended_at) AS t_last FROM ${db}.tournament_times ${where(live)} GROUP BY tournament
     ) AS s USING tournament
     ORDER BY t_last DESC, tournament LIMIT ${num(limit)}`);
}

/** The spec a tournament's latest record carries (parsed JSON) and its hash; undefined when there is no record or it has no spec. */
export async function tournamentSpec(store: Store, id: string): Promise<{ spec: unknown; specHash: string } | undefined> {
  const [r] = await rows<Raw>(
    store,
    `reading the spec of tournament ${id}`,
    `SELECT spec, spec_hash FROM ${ident(store.database)}.tournaments FINAL WHERE tournament = ${str(id)} ORDER BY updated_at DESC LIMIT 1`,
  );
  if (!r || String(r.spec) === '') return undefined;
  try {
    return { spec: JSON.parse(String(r.spec)) as unknown, specHash: String(r.spec_hash) };
  } catch {
    return undefined;
  }
}

/** The specs of tournaments `ids` (as {@link tournamentSpec} reads one), in one query: the tournament list reads them all. */
export async function tournamentSpecs(store: Store, ids: readonly string[]): Promise<Map<string, { spec: unknown; specHash: string }>> {
  const out = new Map<string, { spec: unknown; specHash: string }>();
  if (ids.length === 0) return out;
  const raw = await rows<Raw>(
    store,
    'reading the specs of tournaments',
    `SELECT tournament, spec, spec_hash FROM ${ident(store.database)}.tournaments FINAL WHERE tournament IN (${ids.map(str).join(', ')})
     ORDER BY tournament, updated_at DESC LIMIT 1 BY tournament`,
  );
  for (const r of raw) {
    if (String(r.spec) === '') continue;
    try {
      out.set(String(r.tournament), { spec: JSON.parse(String(r.spec)) as unknown, specHash: String(r.spec_hash) });
    } catch {
      // unreadable: as tournamentSpec, none
    }
  }
  return out;
}

/** Scenario ids of a stored spec (JSON), or none. */
function specScenarios(spec: string): string[] {
  try {
    const s = JSON.parse(spec) as { scenarios?: unknown };
    return Array.isArray(s.scenarios) ? s.scenarios.map(String).sort() : [];
  } catch {
    return [];
  }
}
