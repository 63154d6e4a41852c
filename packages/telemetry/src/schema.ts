/**
 * Salient's ClickHouse tables, as DDL for migration 1.
 *
 * Written for the oldest ClickHouse we meet (the Debian 18.16 server) as much as the newest (chdb,
 * 26.x): no Map, JSON, LowCardinality or Nullable types; per-power and per-seat values are parallel
 * arrays (`powers` + `scores`), free-form data is JSON text in a String column.
 *
 * Every table is a ReplacingMergeTree whose sorting key is a deterministic id (match id + sequence
 * number), so a row sent twice (a retried insert, a re-run match, a re-delivered spool file)
 * collapses to one. Queries read with `FINAL` (or count with `uniqExact`) to see exactly one copy
 * before background merges have happened.
 */
import { ident } from './sql.ts';

/** Tables the sink writes, in the order a match's rows are written (`matches` last). */
export const ROW_TABLES = ['impulses', 'events', 'decisions', 'matches'] as const;
export type RowTable = (typeof ROW_TABLES)[number];

/**
 * Migration 2: a match's replay log as two parallel arrays, who chose (`replay_by`) and what
 * (`replay_choices`). The rest of a replay is the match row's own columns, so a match whose replay
 * says nothing else (every match the runner plays) stores `replay` empty: the log is written once,
 * without a second layer of JSON escaping. See `replayOf` in records.ts.
 */
export const REPLAY_LOG_COLUMNS = [
  { table: 'matches', name: 'replay_by', type: 'Array(String)' },
  { table: 'matches', name: 'replay_choices', type: 'Array(String)' },
] as const;

/**
 * Migration 2 too: `combat_in_columns` is 1 on a combat whose payload leaves out what the combat
 * columns hold (its target, outcome and each round's name, factors, dice and results), which were
 * written twice before. `eventData` in records.ts puts them back.
 */
export const COMBAT_COLUMNS_FLAG = [{ table: 'events', name: 'combat_in_columns', type: 'UInt8' }] as const;

/**
 * Migration 5: timeout strikes. `decisions.strike` is the seat's strike number on a decision the
 * runner played for a bot out of time (0 on every other; such decisions are always kept, whatever the
 * sample), and each match row has, parallel to `seats`, the strikes each seat took and the time bank
 * it had left (ms). Rows written before read 0 and empty arrays.
 */
export const STRIKE_COLUMNS = [
  { table: 'decisions', name: 'strike', type: 'UInt32' },
  { table: 'matches', name: 'strikes', type: 'Array(UInt32)' },
  { table: 'matches', name: 'bank_ms', type: 'Array(Float64)' },
] as const;

/** Statements creating the first schema in database `db`; each is idempotent (`IF NOT EXISTS`). */
export function initialSchema(db: string): string[] {
  const d = ident(db);
  return [
    // One row per match, written after all its other rows: a match row means the match is complete.
    `CREATE TABLE IF NOT EXISTS ${d}.matches (
      match_id String,
      tournament String,
      worker String,
      game String,
      rules_version String,
      pack_id String,
      pack_version String,
      pack_fidelity String,
      pack_hash String,
      scenario String,
      options String,
      seed Int64,
      seats Array(String),
      bots Array(String),
      seat_specs Array(String),
      think_ms Array(Float64),
      engine_version String,
      started_at DateTime,
      ended_at DateTime,
      wall_ms Float64,
      kind String,
      sides Array(String),
      outcomes Array(String),
      side_bots Array(String),
      powers Array(String),
      scores Array(Float64),
      margin Float64,
      reason String,
      forfeit_seat String,
      forfeit_power String,
      forfeit_reason String,
      detail String,
      decision_cap UInt32,
      turns UInt32,
      end_impulse UInt32,
      end_phase String,
      end_step String,
      impulses UInt32,
      decisions UInt32,
      chance_draws UInt32,
      final_hash String,
      replay String
    ) ENGINE = ReplacingMergeTree
    ORDER BY (game, scenario, pack_hash, rules_version, match_id)`,

    `CREATE TABLE IF NOT EXISTS ${d}.impulses (
      match_id String,
      seq UInt32,
      turn UInt32,
      impulse UInt32,
      phase String,
      step String,
      end_turn UInt32,
      end_impulse UInt32,
      end_phase String,
      end_step String,
      active_powers Array(String),
      choices Array(String),
      decisions UInt32,
      chance_draws UInt32,
      event_powers Array(String),
      event_types Array(String),
      event_counts Array(UInt32),
      powers Array(String),
      scores Array(Float64),
      control Array(Float64),
      supply Array(Float64),
      moves Array(UInt32),
      combats Array(UInt32),
      losses Array(UInt32),
      extra_keys Array(String),
      extra_values Array(Float64),
      think_seats Array(String),
      think_ms Array(Float64),
      state_hash String
    ) ENGINE = ReplacingMergeTree
    ORDER BY (match_id, seq)`,

    `CREATE TABLE IF NOT EXISTS ${d}.events (
      match_id String,
      seq UInt32,
      impulse_seq UInt32,
      turn UInt32,
      impulse UInt32,
      phase String,
      step String,
      type String,
      power String,
      text String,
      payload String,
      combat_target String,
      combat_outcome String,
      combat_rounds Array(String),
      att_factors Array(Float64),
      def_factors Array(Float64),
      att_dice Array(Int32),
      def_dice Array(Int32),
      att_results Array(String),
      def_results Array(String)
    ) ENGINE = ReplacingMergeTree
    ORDER BY (match_id, seq)`,

    `CREATE TABLE IF NOT EXISTS ${d}.decisions (
      match_id String,
      seq UInt32,
      impulse_seq UInt32,
      turn UInt32,
      impulse UInt32,
      phase String,
      step String,
      power String,
      seat String,
      prompt String,
      option_count UInt32,
      choice String,
      think_ms Float64,
      rationale String
    ) ENGINE = ReplacingMergeTree
    ORDER BY (match_id, seq)`,

    // Win counts by side and bot. A match row inserted twice is aggregated twice, so the counts are
    // exact distinct match ids (uniqExact), never sums: duplicates cannot inflate them.
    `CREATE TABLE IF NOT EXISTS ${d}.win_counts_state (
      game String,
      scenario String,
      pack_id String,
      pack_version String,
      pack_fidelity String,
      pack_hash String,
      rules_version String,
      side String,
      bot String,
      games AggregateFunction(uniqExact, String),
      wins AggregateFunction(uniqExactIf, String, UInt8),
      losses AggregateFunction(uniqExactIf, String, UInt8),
      draws AggregateFunction(uniqExactIf, String, UInt8)
    ) ENGINE = AggregatingMergeTree
    ORDER BY (game, scenario, pack_hash, rules_version, side, bot, pack_id, pack_version, pack_fidelity)`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.win_counts_mv TO ${d}.win_counts_state AS
    SELECT
      game, scenario, pack_id, pack_version, pack_fidelity, pack_hash, rules_version, side, bot,
      uniqExactState(match_id) AS games,
      uniqExactIfState(match_id, outcome = 'win') AS wins,
      uniqExactIfState(match_id, outcome = 'loss') AS losses,
      uniqExactIfState(match_id, outcome = 'draw') AS draws
    FROM ${d}.matches
    ARRAY JOIN sides AS side, outcomes AS outcome, side_bots AS bot
    GROUP BY game, scenario, pack_id, pack_version, pack_fidelity, pack_hash, rules_version, side, bot`,

    `CREATE VIEW IF NOT EXISTS ${d}.win_counts AS
    SELECT
      game, scenario, pack_id, pack_version, pack_fidelity, pack_hash, rules_version, side, bot,
      uniqExactMerge(games) AS games,
      uniqExactIfMerge(wins) AS wins,
      uniqExactIfMerge(losses) AS losses,
      uniqExactIfMerge(draws) AS draws
    FROM ${d}.win_counts_state
    GROUP BY game, scenario, pack_id, pack_version, pack_fidelity, pack_hash, rules_version, side, bot`,
  ];
}

/**
 * Migration 3: what is known of each tournament besides its matches (its spec, how many matches it
 * plans, whether it runs), so progress can be shown as recorded / planned. One row per state change;
 * the highest `version` (milliseconds since the epoch when written) wins.
 */
export function tournamentsTable(db: string): string[] {
  const d = ident(db);
  return [
    `CREATE TABLE IF NOT EXISTS ${d}.tournaments (
      tournament String,
      name String,
      game String,
      spec String,
      spec_hash String,
      planned UInt32,
      executor String,
      state String,
      started_at DateTime,
      updated_at DateTime,
      version UInt64
    ) ENGINE = ReplacingMergeTree(version)
    ORDER BY tournament`,
  ];
}

/** Migration 4: each match row's own per-impulse curve (see `CurveColumns` in records.ts). */
export const CURVE_COLUMNS = [
  { table: 'matches', name: 'curve_turns', type: 'Array(UInt32)' },
  { table: 'matches', name: 'curve_impulses', type: 'Array(UInt32)' },
  { table: 'matches', name: 'curve_powers', type: 'Array(String)' },
  { table: 'matches', name: 'curve_scores', type: 'Array(Float64)' },
  { table: 'matches', name: 'curve_losses', type: 'Array(Float64)' },
  { table: 'matches', name: 'curve_control', type: 'Array(Float64)' },
  { table: 'matches', name: 'curve_units', type: 'Array(Float64)' },
] as const;

/** What identifies and filters a match in `curve_points`: the columns the read filters look at. */
const CURVE_MATCH_COLUMNS = 'game, scenario, pack_id, pack_version, pack_hash, rules_version, tournament, ended_at, bots, match_id';

/**
 * Migration 4: `curve_points`, one row per match, impulse and power, sorted by scenario so that the
 * curves of one scenario are one contiguous read of narrow columns, with no join and no JSON. It is
 * filled from each match row as it lands (the match row is written last, so only complete matches
 * get there), keeps the match's bots, tournament and end time for the filters, and collapses a
 * match sent twice to one copy under FINAL, as the other tables do.
 */
export function curvePointsTable(db: string): string[] {
  const d = ident(db);
  return [
    `CREATE TABLE IF NOT EXISTS ${d}.curve_points (
      game String,
      scenario String,
      pack_id String,
      pack_version String,
      pack_hash String,
      rules_version String,
      tournament String,
      ended_at DateTime,
      bots Array(String),
      match_id String,
      turn UInt32,
      impulse UInt32,
      power String,
      score Float64,
      loss Float64,
      ctrl Float64,
      units Float64
    ) ENGINE = ReplacingMergeTree
    ORDER BY (game, scenario, pack_hash, rules_version, match_id, turn, impulse, power)`,
  ];
}

/**
 * Migration 4, after its columns exist: the view that files each new match row's curve, then the
 * curves of matches stored before, taken from their impulse rows as the curve query used to.
 * Running it again adds copies that FINAL collapses.
 */
export function curvePointsFill(db: string): string[] {
  const d = ident(db);
  return [
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.curve_points_mv TO ${d}.curve_points AS
    SELECT ${CURVE_MATCH_COLUMNS}, turn, impulse, power, score, loss, ctrl, units
    FROM ${d}.matches
    ARRAY JOIN curve_turns AS turn, curve_impulses AS impulse, curve_powers AS power,
               curve_scores AS score, curve_losses AS loss, curve_control AS ctrl, curve_units AS units`,

    `INSERT INTO ${d}.curve_points (${CURVE_MATCH_COLUMNS}, turn, impulse, power, score, loss, ctrl, units)
    SELECT ${CURVE_MATCH_COLUMNS}, turn, impulse, power, score, loss, ctrl, units
    FROM (
      SELECT match_id, turn, impulse, power, score, loss, ctrl,
             indexOf(extra_keys, concat(power, '.units')) AS units_at, if(units_at > 0, extra_values[units_at], -1) AS units
      FROM ${d}.impulses
      ARRAY JOIN powers AS power, scores AS score, losses AS loss, control AS ctrl
    ) AS i
    ALL INNER JOIN (
      SELECT ${CURVE_MATCH_COLUMNS}
      FROM ${d}.matches WHERE length(curve_turns) = 0
    ) AS m USING match_id`,
  ];
}

/**
 * Migration 6: what the dashboard reads often, kept up to date by ClickHouse and counted once per match.
 *
 * A materialized view sees every block inserted into its source, so a view on `matches` would count a
 * match sent twice (a retried insert, a re-played match) twice, unless its states were idempotent; the
 * idempotent ones (`uniqExact` of match ids, as `win_counts` keeps) cost a merge of every match's id at
 * each read. Here copies are filtered before the views instead. The views read `match_facts`, a `Null`
 * table (it keeps nothing), which receives a match only through {@link countMatches} (counted.ts): the
 * writer calls it after a batch's match rows landed, and it inserts, in one statement, each copy just
 * landed that is not the one counted, with sign +1, together with the copy counted before (from
 * `counted_matches`), with sign −1. Every aggregate is a sum of `sign`-weighted values, so a
 * re-played match that ended differently moves from its old figures to its new ones, and a retried
 * insert (same copy) changes nothing. All of it works on ClickHouse 18.16 as on chdb's 26.x: `Null`,
 * `sumState`, `SummingMergeTree((sign))`, `LIMIT 1 BY`, `UNION ALL` in `INSERT ... SELECT`.
 */
export const FACT_COLUMNS = [
  ['match_id', 'String'],
  ['tournament', 'String'],
  ['game', 'String'],
  ['rules_version', 'String'],
  ['pack_id', 'String'],
  ['pack_version', 'String'],
  ['pack_fidelity', 'String'],
  ['pack_hash', 'String'],
  ['scenario', 'String'],
  ['seed', 'Int64'],
  ['kind', 'String'],
  ['sides', 'Array(String)'],
  ['outcomes', 'Array(String)'],
  ['side_bots', 'Array(String)'],
  ['bots', 'Array(String)'],
  ['powers', 'Array(String)'],
  ['scores', 'Array(Float64)'],
  ['margin', 'Float64'],
  ['reason', 'String'],
  ['detail', 'String'],
  ['forfeit_seat', 'String'],
  ['forfeit_reason', 'String'],
  ['turns', 'UInt32'],
  ['impulses', 'UInt32'],
  ['decisions', 'UInt32'],
  ['wall_ms', 'Float64'],
  ['started_at', 'DateTime'],
  ['ended_at', 'DateTime'],
  ['worker', 'String'],
  ['final_hash', 'String'],
  ['curve_turns', 'Array(UInt32)'],
  ['curve_impulses', 'Array(UInt32)'],
  ['curve_powers', 'Array(String)'],
  ['curve_scores', 'Array(Float64)'],
  ['curve_losses', 'Array(Float64)'],
  ['curve_control', 'Array(Float64)'],
  ['curve_units', 'Array(Float64)'],
] as const;

/** The fact columns, comma-separated, in table order. */
export const FACT_NAMES = FACT_COLUMNS.map(([n]) => n).join(', ');

/** The columns of the match list (a summary of each match, and what its filters look at). */
const LIST_COLUMNS = FACT_COLUMNS.filter(([n]) => !n.startsWith('curve_'));

/** The columns every aggregate is keyed by besides its own: the filters the dashboard applies to it. */
const AGGREGATE_KEY = 'game, scenario, pack_hash, rules_version, pack_id, tournament';

/** Migration 6's tables and views (see {@link FACT_COLUMNS}). */
export function dashboardAggregates(db: string): string[] {
  const d = ident(db);
  const cols = (list: readonly (readonly [string, string])[]) => list.map(([n, t]) => `${n} ${t}`).join(',\n      ');
  return [
    `CREATE TABLE IF NOT EXISTS ${d}.match_facts (
      ${cols(FACT_COLUMNS)},
      sign Int8,
      ver UInt32
    ) ENGINE = Null`,

    // The copy of each match that the aggregates hold (the highest `ver`: each counting of a match has
    // the next), ordered by match id: what countMatches takes back out when another copy lands, and
    // what a match page reads.
    `CREATE TABLE IF NOT EXISTS ${d}.counted_matches (
      ${cols(FACT_COLUMNS)},
      ver UInt32
    ) ENGINE = ReplacingMergeTree(ver)
    ORDER BY match_id
    SETTINGS index_granularity = 256`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.counted_matches_mv TO ${d}.counted_matches AS
    SELECT ${FACT_NAMES}, ver FROM ${d}.match_facts WHERE sign > 0`,

    // The match list, newest first: `rev_ended` counts down as `ended_at` counts up (18.16 has no
    // descending sorting keys). A copy taken back (sign −1) cancels its row; merges drop the pair.
    `CREATE TABLE IF NOT EXISTS ${d}.match_list (
      rev_ended UInt32,
      ${cols(LIST_COLUMNS)},
      sign Int8
    ) ENGINE = SummingMergeTree((sign))
    ORDER BY (rev_ended, match_id)
    SETTINGS index_granularity = 256`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.match_list_mv TO ${d}.match_list AS
    SELECT toUInt32(4294967295 - toUInt32(ended_at)) AS rev_ended, ${LIST_COLUMNS.map(([n]) => n).join(', ')}, sign FROM ${d}.match_facts`,

    // Win counts by side and bot, per tournament (a read over all tournaments sums them).
    `CREATE TABLE IF NOT EXISTS ${d}.win_totals (
      game String, scenario String, pack_hash String, rules_version String, pack_id String, tournament String,
      pack_version String, pack_fidelity String, side String, bot String,
      games AggregateFunction(sum, Int64),
      wins AggregateFunction(sum, Int64),
      losses AggregateFunction(sum, Int64),
      draws AggregateFunction(sum, Int64)
    ) ENGINE = AggregatingMergeTree
    ORDER BY (${AGGREGATE_KEY}, side, bot, pack_version, pack_fidelity)`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.win_totals_mv TO ${d}.win_totals AS
    SELECT ${AGGREGATE_KEY}, pack_version, pack_fidelity, side, bot,
      sumState(toInt64(sign)) AS games,
      sumState(toInt64(if(outcome = 'win', sign, 0))) AS wins,
      sumState(toInt64(if(outcome = 'loss', sign, 0))) AS losses,
      sumState(toInt64(if(outcome = 'draw', sign, 0))) AS draws
    FROM ${d}.match_facts
    ARRAY JOIN sides AS side, outcomes AS outcome, side_bots AS bot
    GROUP BY ${AGGREGATE_KEY}, pack_version, pack_fidelity, side, bot`,

    // Game lengths: matches by length, per measure, of the matches that ran their course or hit the
    // cap (as gameLengths counts them), keyed by the bots so the bot filter applies here too.
    `CREATE TABLE IF NOT EXISTS ${d}.length_totals (
      game String, scenario String, pack_hash String, rules_version String, pack_id String, tournament String,
      bots Array(String), side_bots Array(String), metric String, value UInt32,
      n AggregateFunction(sum, Int64)
    ) ENGINE = AggregatingMergeTree
    ORDER BY (${AGGREGATE_KEY}, bots, side_bots, metric, value)`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.length_totals_mv TO ${d}.length_totals AS
    SELECT ${AGGREGATE_KEY}, bots, side_bots, metric, value, sumState(toInt64(sign)) AS n
    FROM ${d}.match_facts
    ARRAY JOIN ['turns', 'impulses', 'decisions'] AS metric, [turns, impulses, decisions] AS value
    WHERE kind IN ('completed', 'adjudicated')
    GROUP BY ${AGGREGATE_KEY}, bots, side_bots, metric, value`,

    // Per-impulse curves: sums and counts by power at each (turn, impulse), so a mean is one division.
    `CREATE TABLE IF NOT EXISTS ${d}.curve_totals (
      game String, scenario String, pack_hash String, rules_version String, pack_id String, tournament String,
      bots Array(String), side_bots Array(String), turn UInt32, impulse UInt32, power String,
      matches AggregateFunction(sum, Int64),
      score AggregateFunction(sum, Float64),
      loss AggregateFunction(sum, Float64),
      ctrl AggregateFunction(sum, Float64),
      units AggregateFunction(sum, Float64),
      with_units AggregateFunction(sum, Int64)
    ) ENGINE = AggregatingMergeTree
    ORDER BY (${AGGREGATE_KEY}, bots, side_bots, turn, impulse, power)`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.curve_totals_mv TO ${d}.curve_totals AS
    SELECT ${AGGREGATE_KEY}, bots, side_bots, turn, impulse, power,
      sumState(toInt64(sign)) AS matches,
      sumState(p_score * sign) AS score,
      sumState(p_loss * sign) AS loss,
      sumState(p_ctrl * sign) AS ctrl,
      sumState(if(p_units >= 0, p_units * sign, 0)) AS units,
      sumState(toInt64(if(p_units >= 0, sign, 0))) AS with_units
    FROM ${d}.match_facts
    ARRAY JOIN curve_turns AS turn, curve_impulses AS impulse, curve_powers AS power,
               curve_scores AS p_score, curve_losses AS p_loss, curve_control AS p_ctrl, curve_units AS p_units
    GROUP BY ${AGGREGATE_KEY}, bots, side_bots, turn, impulse, power`,
  ];
}

/**
 * Migration 6, after its tables: count every stored match not counted yet, by the copy a FINAL read
 * shows (the back-fill of a store written before). A match stored before migration 4 has no curve on
 * its row; its curve comes from `curve_points`, where migration 4 filed it from its impulse rows.
 * Running it again adds nothing.
 */
export function dashboardBackfill(db: string): string[] {
  const d = ident(db);
  const curves = [
    ['curve_turns', 'turn'],
    ['curve_impulses', 'impulse'],
    ['curve_powers', 'power'],
    ['curve_scores', 'score'],
    ['curve_losses', 'loss'],
    ['curve_control', 'ctrl'],
    ['curve_units', 'units'],
  ] as const;
  // Values go in by position; the old curves' aliases differ from the columns (an alias named as a
  // column would stand for it everywhere in the query).
  const select = FACT_COLUMNS.map(([n]) => {
    const c = curves.find(([col]) => col === n);
    return c ? `if(length(curve_turns) = 0, old_${c[1]}, ${n})` : n;
  }).join(', ');
  return [
    `INSERT INTO ${d}.match_facts (${FACT_NAMES}, sign, ver)
    SELECT ${select}, toInt8(1), toUInt32(1) FROM (
      SELECT ${FACT_NAMES} FROM ${d}.matches FINAL
      WHERE match_id NOT IN (SELECT match_id FROM ${d}.counted_matches)
    ) AS m
    ALL LEFT JOIN (
      SELECT match_id, ${curves.map(([, p]) => `groupArray(${p}) AS old_${p}`).join(', ')}
      FROM (
        SELECT match_id, turn, impulse, power, score, loss, ctrl, units FROM ${d}.curve_points FINAL
        WHERE match_id IN (SELECT match_id FROM ${d}.matches WHERE length(curve_turns) = 0)
      )
      GROUP BY match_id
    ) AS c USING match_id`,
  ];
}

/** What the tournament list filters and groups its aggregates by (see {@link tournamentAggregates}). */
const TOURNAMENT_KEY = 'tournament, game, scenario, pack_hash, rules_version, pack_id, bots, side_bots';

/**
 * Migration 7: the tournament list without a FINAL read of every match row. Two tables kept from
 * `match_facts` as migration 6's are (each counted copy of a match enters with sign +1, a copy taken
 * back leaves with −1, so a re-sent match changes nothing and a re-played one moves), each holding
 * only matches of a tournament:
 *
 * - `tournament_totals`: matches by tournament, scenario, pack, rules version, bots and termination
 *   kind (a handful of rows a tournament), for its counts, kinds, scenarios and entrants;
 * - `tournament_times`: matches by tournament and start and end time, for its first start and last
 *   end. A minimum or maximum cannot be taken back when a copy leaves, so the times are kept as
 *   counts too and the read takes the extremes of the times whose count is above 0; a
 *   `SummingMergeTree` drops a time whose count merged to 0. The filter columns follow the times in
 *   the key, so the list's filters apply here as well.
 */
export function tournamentAggregates(db: string): string[] {
  const d = ident(db);
  const keyColumns = `tournament String, game String, scenario String, pack_hash String, rules_version String, pack_id String,
      bots Array(String), side_bots Array(String)`;
  return [
    `CREATE TABLE IF NOT EXISTS ${d}.tournament_totals (
      ${keyColumns}, kind String,
      n AggregateFunction(sum, Int64)
    ) ENGINE = AggregatingMergeTree
    ORDER BY (${TOURNAMENT_KEY}, kind)`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.tournament_totals_mv TO ${d}.tournament_totals AS
    SELECT ${TOURNAMENT_KEY}, kind, sumState(toInt64(sign)) AS n
    FROM ${d}.match_facts WHERE tournament != ''
    GROUP BY ${TOURNAMENT_KEY}, kind`,

    `CREATE TABLE IF NOT EXISTS ${d}.tournament_times (
      ended_at DateTime, started_at DateTime, ${keyColumns},
      n Int64
    ) ENGINE = SummingMergeTree((n))
    ORDER BY (tournament, ended_at, started_at, game, scenario, pack_hash, rules_version, pack_id, bots, side_bots)`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.tournament_times_mv TO ${d}.tournament_times AS
    SELECT ended_at, started_at, ${TOURNAMENT_KEY}, toInt64(sign) AS n
    FROM ${d}.match_facts WHERE tournament != ''`,
  ];
}

/**
 * Migration 7, after its tables: the matches counted before it, by the copy `counted_matches` holds for
 * each (its newest version), filed as the views file them. Adding counts cannot be repeated, so each
 * statement adds, with its rows, a marker row (tournament '', which the views never write and the reads
 * leave out) and adds nothing where the marker is already: a migration run again after a partial run
 * fills only what it had not. Not covered: two processes migrating one store to 7 at the same moment
 * (both may find no marker), nor a writer counting matches between the views' creation and the
 * back-fill (such a match is filed by both); migrate with the workers stopped.
 */
export function tournamentBackfill(db: string): string[] {
  const d = ident(db);
  const counted = `(SELECT ${TOURNAMENT_KEY}, kind, ended_at, started_at FROM ${d}.counted_matches FINAL WHERE tournament != '')`;
  const none = (table: string) => `(SELECT count() FROM ${d}.${table} WHERE tournament = '') = 0`;
  const marker = "'', '', '', '', '', '', emptyArrayString(), emptyArrayString()";
  return [
    `INSERT INTO ${d}.tournament_totals (${TOURNAMENT_KEY}, kind, n)
    SELECT ${TOURNAMENT_KEY}, kind, n FROM (
      SELECT ${TOURNAMENT_KEY}, kind, sumState(toInt64(1)) AS n FROM ${counted} GROUP BY ${TOURNAMENT_KEY}, kind
      UNION ALL
      SELECT ${marker}, '', sumState(toInt64(1))
    ) WHERE ${none('tournament_totals')}`,
    `INSERT INTO ${d}.tournament_times (ended_at, started_at, ${TOURNAMENT_KEY}, n)
    SELECT ended_at, started_at, ${TOURNAMENT_KEY}, n FROM (
      SELECT ended_at, started_at, ${TOURNAMENT_KEY}, toInt64(1) AS n FROM ${counted}
      UNION ALL
      SELECT toDateTime(0), toDateTime(0), ${marker}, toInt64(1)
    ) WHERE ${none('tournament_times')}`,
  ];
}

/** What the coarse aggregates of migration 8 are keyed by: a scenario's matches, whatever their tournament and bots. */
const SCENARIO_KEY = 'game, scenario, pack_hash, rules_version, pack_id';

/** Seconds of end time a row of `match_minutes` counts (see {@link scenarioAggregates}). */
export const LIST_BUCKET_SECONDS = 60;

/**
 * Migration 8: what the dashboard reads without a tournament, bot or time filter, kept at the grain
 * it is read at, so a read sums a few rows per scenario instead of one per tournament and pair of
 * bots (migration 6's tables stay for those filters). Kept from `match_facts` as migration 6's are
 * (each counted copy of a match enters with sign +1, a copy taken back leaves with −1):
 *
 * - `win_scenario`, `length_scenario`, `curve_scenario`: win counts by side and bot (the bot filter
 *   applies here as on `win_totals`), matches by length, and curve sums, by scenario;
 * - `match_minutes`: how many matches of each scenario the match list holds by minute of end time
 *   (`rev_minute` is `rev_ended` of `match_list` divided by {@link LIST_BUCKET_SECONDS}, so it counts
 *   down as time goes on, newest first). The list reads these few rows to learn its total and which
 *   minutes a page's rows lie in, then reads those minutes of `match_list` by its sorting key: a page
 *   at any offset costs what a page at the start does. A minute whose count merged to 0 is dropped.
 *   Since migration 12 the list reads the same counts from `list_minutes` ({@link listMinutes}),
 *   summed as each insert lands.
 *
 * - `tournament_span`: the first start and last end of each tournament's counted copies, by what the
 *   tournament list filters on, and how many copies were taken back since. A minimum or maximum
 *   cannot be taken back, so where a copy was (`taken_back` above 0) the read works that tournament's
 *   times out from `tournament_times` as before, reading only its rows (they lead that table's key);
 *   elsewhere the figures kept are its times, and the list reads a few rows per tournament.
 *
 * All of it works on ClickHouse 18.16 as on chdb's 26.x.
 */
export function scenarioAggregates(db: string): string[] {
  const d = ident(db);
  const key = 'game String, scenario String, pack_hash String, rules_version String, pack_id String';
  return [
    `CREATE TABLE IF NOT EXISTS ${d}.win_scenario (
      ${key}, pack_version String, pack_fidelity String, side String, bot String,
      games AggregateFunction(sum, Int64),
      wins AggregateFunction(sum, Int64),
      losses AggregateFunction(sum, Int64),
      draws AggregateFunction(sum, Int64)
    ) ENGINE = AggregatingMergeTree
    ORDER BY (${SCENARIO_KEY}, side, bot, pack_version, pack_fidelity)`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.win_scenario_mv TO ${d}.win_scenario AS
    SELECT ${SCENARIO_KEY}, pack_version, pack_fidelity, side, bot,
      sumState(toInt64(sign)) AS games,
      sumState(toInt64(if(outcome = 'win', sign, 0))) AS wins,
      sumState(toInt64(if(outcome = 'loss', sign, 0))) AS losses,
      sumState(toInt64(if(outcome = 'draw', sign, 0))) AS draws
    FROM ${d}.match_facts
    ARRAY JOIN sides AS side, outcomes AS outcome, side_bots AS bot
    GROUP BY ${SCENARIO_KEY}, pack_version, pack_fidelity, side, bot`,

    `CREATE TABLE IF NOT EXISTS ${d}.length_scenario (
      ${key}, metric String, value UInt32,
      n AggregateFunction(sum, Int64)
    ) ENGINE = AggregatingMergeTree
    ORDER BY (${SCENARIO_KEY}, metric, value)`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.length_scenario_mv TO ${d}.length_scenario AS
    SELECT ${SCENARIO_KEY}, metric, value, sumState(toInt64(sign)) AS n
    FROM ${d}.match_facts
    ARRAY JOIN ['turns', 'impulses', 'decisions'] AS metric, [turns, impulses, decisions] AS value
    WHERE kind IN ('completed', 'adjudicated')
    GROUP BY ${SCENARIO_KEY}, metric, value`,

    `CREATE TABLE IF NOT EXISTS ${d}.curve_scenario (
      ${key}, turn UInt32, impulse UInt32, power String,
      matches AggregateFunction(sum, Int64),
      score AggregateFunction(sum, Float64),
      loss AggregateFunction(sum, Float64),
      ctrl AggregateFunction(sum, Float64),
      units AggregateFunction(sum, Float64),
      with_units AggregateFunction(sum, Int64)
    ) ENGINE = AggregatingMergeTree
    ORDER BY (${SCENARIO_KEY}, turn, impulse, power)`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.curve_scenario_mv TO ${d}.curve_scenario AS
    SELECT ${SCENARIO_KEY}, turn, impulse, power,
      sumState(toInt64(sign)) AS matches,
      sumState(p_score * sign) AS score,
      sumState(p_loss * sign) AS loss,
      sumState(p_ctrl * sign) AS ctrl,
      sumState(if(p_units >= 0, p_units * sign, 0)) AS units,
      sumState(toInt64(if(p_units >= 0, sign, 0))) AS with_units
    FROM ${d}.match_facts
    ARRAY JOIN curve_turns AS turn, curve_impulses AS impulse, curve_powers AS power,
               curve_scores AS p_score, curve_losses AS p_loss, curve_control AS p_ctrl, curve_units AS p_units
    GROUP BY ${SCENARIO_KEY}, turn, impulse, power`,

    `CREATE TABLE IF NOT EXISTS ${d}.match_minutes (
      rev_minute UInt32, ${key},
      n Int64
    ) ENGINE = SummingMergeTree((n))
    ORDER BY (rev_minute, ${SCENARIO_KEY})`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.match_minutes_mv TO ${d}.match_minutes AS
    SELECT intDiv(toUInt32(4294967295 - toUInt32(ended_at)), ${LIST_BUCKET_SECONDS}) AS rev_minute, ${SCENARIO_KEY}, toInt64(sign) AS n
    FROM ${d}.match_facts`,

    `CREATE TABLE IF NOT EXISTS ${d}.tournament_span (
      tournament String, ${key}, bots Array(String), side_bots Array(String),
      first_start AggregateFunction(min, DateTime),
      last_end AggregateFunction(max, DateTime),
      taken_back AggregateFunction(sum, Int64)
    ) ENGINE = AggregatingMergeTree
    ORDER BY (${TOURNAMENT_KEY})`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.tournament_span_mv TO ${d}.tournament_span AS
    SELECT ${TOURNAMENT_KEY},
      minState(if(sign > 0, started_at, toDateTime(4294967295))) AS first_start,
      maxState(if(sign > 0, ended_at, toDateTime(0))) AS last_end,
      sumState(toInt64(sign < 0)) AS taken_back
    FROM ${d}.match_facts WHERE tournament != ''
    GROUP BY ${TOURNAMENT_KEY}`,
  ];
}

/**
 * Migration 8, after its tables: the matches counted before it, summed from migration 6's tables (which
 * hold exactly them) into the coarser ones. As in {@link tournamentBackfill}, each statement adds a
 * marker row with its rows and adds nothing where the marker is already, so a migration run again after
 * a partial run fills only what it had not; the markers (game '', and counts of 0 or minute 0) are
 * never read. The same caveats hold: migrate with the workers stopped.
 */
export function scenarioBackfill(db: string): string[] {
  const d = ident(db);
  const none = (table: string, marker: string) => `(SELECT count() FROM ${d}.${table} WHERE ${marker}) = 0`;
  const blank = "'', '', '', '', ''";
  const zeroI = 'sumState(toInt64(0))';
  const zeroF = 'sumState(toFloat64(0))';
  const winKey = `${SCENARIO_KEY}, pack_version, pack_fidelity, side, bot`;
  const curveKey = `${SCENARIO_KEY}, turn, impulse, power`;
  return [
    `INSERT INTO ${d}.win_scenario (${winKey}, games, wins, losses, draws)
    SELECT ${winKey}, games, wins, losses, draws FROM (
      SELECT ${winKey}, sumState(g) AS games, sumState(w) AS wins, sumState(l) AS losses, sumState(dr) AS draws FROM (
        SELECT ${winKey}, sumMerge(games) AS g, sumMerge(wins) AS w, sumMerge(losses) AS l, sumMerge(draws) AS dr
        FROM ${d}.win_totals GROUP BY ${winKey}
      ) GROUP BY ${winKey}
      UNION ALL
      SELECT ${blank}, '', '', '', '', ${zeroI}, ${zeroI}, ${zeroI}, ${zeroI}
    ) WHERE ${none('win_scenario', "game = ''")}`,

    `INSERT INTO ${d}.length_scenario (${SCENARIO_KEY}, metric, value, n)
    SELECT ${SCENARIO_KEY}, metric, value, n FROM (
      SELECT ${SCENARIO_KEY}, metric, value, sumState(c) AS n FROM (
        SELECT ${SCENARIO_KEY}, metric, value, sumMerge(n) AS c FROM ${d}.length_totals GROUP BY ${SCENARIO_KEY}, metric, value
      ) GROUP BY ${SCENARIO_KEY}, metric, value
      UNION ALL
      SELECT ${blank}, '', toUInt32(0), ${zeroI}
    ) WHERE ${none('length_scenario', "game = ''")}`,

    `INSERT INTO ${d}.curve_scenario (${curveKey}, matches, score, loss, ctrl, units, with_units)
    SELECT ${curveKey}, matches, score, loss, ctrl, units, with_units FROM (
      SELECT ${curveKey}, sumState(m) AS matches, sumState(s) AS score, sumState(l) AS loss, sumState(c) AS ctrl, sumState(u) AS units, sumState(wu) AS with_units FROM (
        SELECT ${curveKey}, sumMerge(matches) AS m, sumMerge(score) AS s, sumMerge(loss) AS l, sumMerge(ctrl) AS c, sumMerge(units) AS u, sumMerge(with_units) AS wu
        FROM ${d}.curve_totals GROUP BY ${curveKey}
      ) GROUP BY ${curveKey}
      UNION ALL
      SELECT ${blank}, toUInt32(0), toUInt32(0), '', ${zeroI}, ${zeroF}, ${zeroF}, ${zeroF}, ${zeroF}, ${zeroI}
    ) WHERE ${none('curve_scenario', "game = ''")}`,

    `INSERT INTO ${d}.match_minutes (rev_minute, ${SCENARIO_KEY}, n)
    SELECT rev_minute, ${SCENARIO_KEY}, n FROM (
      SELECT intDiv(rev_ended, ${LIST_BUCKET_SECONDS}) AS rev_minute, ${SCENARIO_KEY}, sum(toInt64(sign)) AS n
      FROM ${d}.match_list GROUP BY rev_minute, ${SCENARIO_KEY}
      UNION ALL
      SELECT toUInt32(0), ${blank}, toInt64(1)
    ) WHERE ${none('match_minutes', 'rev_minute = 0')}`,

    // The times of each group as migration 7 keeps them, exactly (the times whose counts sum above 0),
    // so nothing is taken back yet.
    `INSERT INTO ${d}.tournament_span (${TOURNAMENT_KEY}, first_start, last_end, taken_back)
    SELECT ${TOURNAMENT_KEY}, first_start, last_end, taken_back FROM (
      SELECT ${TOURNAMENT_KEY}, minState(started_at) AS first_start, maxState(ended_at) AS last_end, ${zeroI} AS taken_back FROM (
        SELECT ${TOURNAMENT_KEY}, ended_at, started_at FROM ${d}.tournament_times WHERE tournament != ''
        GROUP BY ${TOURNAMENT_KEY}, ended_at, started_at HAVING sum(n) > 0
      ) GROUP BY ${TOURNAMENT_KEY}
      UNION ALL
      SELECT '', ${blank}, emptyArrayString(), emptyArrayString(), minState(toDateTime(0)), maxState(toDateTime(0)), ${zeroI}
    ) WHERE ${none('tournament_span', "tournament = ''")}`,
  ];
}

/**
 * Migration 8 too: a match's impulse and event rows again, in tables of small granules
 * (`match_impulses`, `match_events`: 256 rows a granule instead of 8192), filled by views as the rows
 * land. The match page reads one match's rows by the sorting key (match id, then sequence number);
 * ClickHouse reads whole granules, so from `impulses` and `events` it decompressed every column of
 * 8192 rows a part to return the hundred or so of one match. The copies cost the space of those two
 * tables again. They collapse copies of a row as `impulses` and `events` do (read them with FINAL). A
 * migration adding a column to `impulses` or `events` adds it here too, and recreates the view.
 */
export function matchRowCopies(db: string): string[] {
  const d = ident(db);
  return ['impulses', 'events'].flatMap((t) => [
    `CREATE TABLE IF NOT EXISTS ${d}.match_${t} AS ${d}.${t} ENGINE = ReplacingMergeTree ORDER BY (match_id, seq) SETTINGS index_granularity = 256`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.match_${t}_mv TO ${d}.match_${t} AS SELECT * FROM ${d}.${t}`,
  ]);
}

/**
 * Migration 8, after {@link matchRowCopies}: the rows of the matches stored before, for each match not
 * in the copy yet (run again, it copies only matches it had not reached).
 */
export function matchRowBackfill(db: string): string[] {
  const d = ident(db);
  return ['impulses', 'events'].map((t) => `INSERT INTO ${d}.match_${t} SELECT * FROM ${d}.${t} WHERE match_id NOT IN (SELECT match_id FROM ${d}.match_${t})`);
}

/**
 * Migration 9: `win_counts` (migration 1) read from `win_totals` (migration 6) instead of kept by a view
 * of its own on `matches`. Each materialized view costs the store a pipeline and a part at every
 * insert, whatever its size (on chdb about as much as the insert it hangs on), and nothing of Salient
 * reads `win_counts`: it stays for people's own SQL, with the same columns. Its figures now count each
 * match once by the copy counted (as every dashboard figure does), where the old view counted the
 * distinct match ids ever inserted, so a re-played match that ended otherwise showed in both outcomes.
 * Rows whose matches were all taken back are left out. Safe to run again.
 */
export function winCountsFromTotals(db: string): string[] {
  const d = ident(db);
  const key = 'game, scenario, pack_id, pack_version, pack_fidelity, pack_hash, rules_version, side, bot';
  return [
    `DROP TABLE IF EXISTS ${d}.win_counts_mv`,
    `DROP TABLE IF EXISTS ${d}.win_counts`,
    `DROP TABLE IF EXISTS ${d}.win_counts_state`,
    // The sums under names of their own: an alias named as a column would stand for it inside the sum.
    `CREATE VIEW IF NOT EXISTS ${d}.win_counts AS
    SELECT ${key}, toUInt64(g) AS games, toUInt64(w) AS wins, toUInt64(l) AS losses, toUInt64(dr) AS draws
    FROM (
      SELECT ${key}, sumMerge(games) AS g, sumMerge(wins) AS w, sumMerge(losses) AS l, sumMerge(draws) AS dr
      FROM ${d}.win_totals
      GROUP BY ${key}
    )
    WHERE g > 0`,
  ];
}

/**
 * How `match_pages` (migration 10) packs rows into text: fields end with FIELD, rows with ROW, each item
 * of an array starts with ITEM (so `[]` and `['']` differ), and ESCAPE followed by a digit stands for
 * one of these four characters inside a string (ESCAPE itself is `0`). Control characters no game
 * writes, so escaping is rare and reading splits plain text. See `unpackPage` in queries.ts.
 */
export const PAGE_MARKS = { escape: '\x1a', item: '\x1d', row: '\x1e', field: '\x1f' } as const;

/** SQL for `x` (a String expression) with the page marks escaped. */
function pageEscaped(x: string): string {
  const order = [PAGE_MARKS.escape, PAGE_MARKS.item, PAGE_MARKS.row, PAGE_MARKS.field];
  const hex = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  return order.reduce((e, c, i) => `replaceAll(${e}, '${hex(c)}', '\\x1a${i}')`, x);
}

/** SQL for an array column packed as its items, each after an ITEM mark (strings escaped). */
function pageArray(column: string, strings: boolean): string {
  return `arrayStringConcat(arrayMap(x -> concat('\\x1d', ${strings ? pageEscaped('x') : 'toString(x)'}), ${column}))`;
}

/** What a page field is: a number, a string, or an array of either; taken from the column `name`, or from `expr`. */
export type PageField = readonly [name: string, kind: 'n' | 's' | 'ns' | 'ss', expr?: string];

/** The impulse fields a match page keeps, in packed order (what `matchImpulses` returns). */
export const PAGE_IMPULSE_FIELDS: readonly PageField[] = [
  ['seq', 'n'], ['turn', 'n'], ['impulse', 'n'], ['phase', 's'], ['step', 's'], ['active_powers', 'ss'], ['decisions', 'n'],
  ['powers', 'ss'], ['scores', 'ns'], ['losses', 'ns'], ['control', 'ns'], ['extra_keys', 'ss'], ['extra_values', 'ns'], ['state_hash', 's'],
];

/** The event fields a match page keeps, in packed order (what `matchEvents` returns). */
export const PAGE_EVENT_FIELDS: readonly PageField[] = [
  ['seq', 'n'], ['impulse_seq', 'n'], ['turn', 'n'], ['impulse', 'n'], ['phase', 's'], ['step', 's'], ['type', 's'], ['power', 's'], ['text', 's'],
  ['payload', 's'], ['combat_in_columns', 'n'], ['combat_target', 's'], ['combat_outcome', 's'], ['combat_rounds', 'ss'],
  ['att_factors', 'ns'], ['def_factors', 'ns'], ['att_dice', 'ns'], ['def_dice', 'ns'], ['att_results', 'ss'], ['def_results', 'ss'],
];

/** SQL packing one row of `fields` as a page row (fields each followed by FIELD). */
export function pageRow(fields: readonly PageField[]): string {
  const one = ([name, k, expr]: PageField) => {
    const n = expr ?? name;
    return k === 'n' ? `toString(${n})` : k === 's' ? pageEscaped(n) : pageArray(n, k === 'ss');
  };
  return `concat(${fields.map((f) => `${one(f)}, '\\x1f'`).join(', ')})`;
}

/**
 * The summary fields a match page keeps, in packed order (what `matchSummary` reads; `started` and
 * `ended` as ISO text in UTC).
 */
export const PAGE_SUMMARY_FIELDS: readonly PageField[] = [
  ['match_id', 's'], ['tournament', 's'], ['game', 's'], ['scenario', 's'], ['pack_id', 's'], ['pack_hash', 's'], ['rules_version', 's'], ['seed', 'n'],
  ['kind', 's'], ['sides', 'ss'], ['outcomes', 'ss'], ['side_bots', 'ss'], ['powers', 'ss'], ['scores', 'ns'], ['margin', 'n'], ['reason', 's'], ['detail', 's'],
  ['forfeit_seat', 's'], ['forfeit_reason', 's'], ['turns', 'n'], ['impulses', 'n'], ['decisions', 'n'], ['wall_ms', 'n'],
  ['started', 's', "toString(started_at, 'UTC')"], ['ended', 's', "toString(ended_at, 'UTC')"], ['worker', 's'], ['final_hash', 's'],
];

/**
 * Which rows a page row holds: `part` of `match_pages`. A summary row's `first_seq` is the `ver` of the
 * copy it packs (as in `counted_matches`: the highest is the copy counted).
 */
export const PAGE_PARTS = { impulses: 0, events: 1, summary: 2 } as const;

/** SQL of a summary page row of each counted copy in `source` (rows of `match_facts` or `counted_matches`). */
function summaryPageSelect(source: string, where: string): string {
  return `SELECT match_id, toUInt8(${PAGE_PARTS.summary}) AS part, ver AS first_seq, ${pageRow(PAGE_SUMMARY_FIELDS)} AS body FROM ${source} WHERE ${where}`;
}

/** SQL of one page row per match of `source` (a table or subquery of impulse or event rows). */
function pageSelect(source: string, part: 'impulses' | 'events'): string {
  const fields = part === 'impulses' ? PAGE_IMPULSE_FIELDS : PAGE_EVENT_FIELDS;
  return `SELECT match_id, toUInt8(${PAGE_PARTS[part]}) AS part, min(seq) AS first_seq, arrayStringConcat(groupArray(${pageRow(fields)}), '\\x1e') AS body
    FROM ${source} GROUP BY match_id`;
}

/**
 * Migration 10: each match as its page shows it, packed in text (see {@link PAGE_MARKS}), in
 * `match_pages`: a view makes one row per match of each block inserted into `impulses` and `events` (a
 * match written over several batches has several), and another a row of each copy counted (from
 * `match_facts`, as `counted_matches` keeps it) with its summary. One match is then one query of a few
 * rows of one column by the sorting key (`matchDetail` in queries.ts), where migration 8's copies and
 * `counted_matches` cost three queries and every column of each row (on chdb a fixed cost a query and
 * a cost a column, on the Debian server a cost a column). A block delivered twice (a retried insert, the
 * spool) leaves two page rows; the reader keeps one row of each sequence number, and the summary of the
 * highest `ver`, so the table is a plain MergeTree, which never drops a row. It replaces migration 8's
 * copies (their two views and tables), which nothing else read. A migration adding a field to the page
 * recreates the views.
 */
export function matchPages(db: string): string[] {
  const d = ident(db);
  return [
    `CREATE TABLE IF NOT EXISTS ${d}.match_pages (
      match_id String,
      part UInt8,
      first_seq UInt32,
      body String
    ) ENGINE = MergeTree ORDER BY (match_id, part, first_seq) SETTINGS index_granularity = 256`,
    ...(['impulses', 'events'] as const).map((t) => `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.match_page_${t}_mv TO ${d}.match_pages AS ${pageSelect(`${d}.${t}`, t)}`),
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.match_page_summary_mv TO ${d}.match_pages AS ${summaryPageSelect(`${d}.match_facts`, 'sign > 0')}`,
    ...['impulses', 'events'].flatMap((t) => [`DROP TABLE IF EXISTS ${d}.match_${t}_mv`, `DROP TABLE IF EXISTS ${d}.match_${t}`]),
  ];
}

/** How many slices {@link matchPageBackfill} fills a store's pages in (each slice's groups are held in memory at once). */
const PAGE_FILL_SLICES = 8;

/**
 * Migration 10, after {@link matchPages}: the pages of the matches stored before, from `impulses` and
 * `events`, for each match without a page of that part yet (run again, it fills only what it had not),
 * a slice of the matches at a time. As the other back-fills: migrate with the workers stopped.
 */
export function matchPageBackfill(db: string): string[] {
  const d = ident(db);
  const slice = (k: number, part: number) => `cityHash64(match_id) % ${PAGE_FILL_SLICES} = ${k} AND match_id NOT IN (SELECT match_id FROM ${d}.match_pages WHERE part = ${part})`;
  return [
    ...(['impulses', 'events'] as const).flatMap((t) =>
      Array.from({ length: PAGE_FILL_SLICES }, (_, k) => `INSERT INTO ${d}.match_pages (match_id, part, first_seq, body) ${pageSelect(`(SELECT * FROM ${d}.${t} WHERE ${slice(k, PAGE_PARTS[t])})`, t)}`),
    ),
    // Every copy counted_matches holds (the reader takes the highest ver, as matchSummary does).
    `INSERT INTO ${d}.match_pages (match_id, part, first_seq, body) ${summaryPageSelect(`${d}.counted_matches`, `match_id NOT IN (SELECT match_id FROM ${d}.match_pages WHERE part = ${PAGE_PARTS.summary})`)}`,
  ];
}

/**
 * Migration 11: the match list's rows as a page shows them, each match's summary packed in one column
 * (as `match_pages` packs it, see {@link PAGE_MARKS}), in `match_list_packed`, kept from `match_facts`
 * as `match_list` is (same sorting key, same signs; a copy taken back cancels its row). A page of the
 * list finds its keys in `match_list` (which keeps what the filters look at) and reads its rows here:
 * one column of a few granules instead of 27 (on the Debian 18.16 server each column read costs about
 * as much as the rows: a page of 50 read ~10 ms of the server's CPU from `match_list`, ~3 here).
 */
export function packedMatchList(db: string): string[] {
  const d = ident(db);
  return [
    `CREATE TABLE IF NOT EXISTS ${d}.match_list_packed (
      rev_ended UInt32,
      match_id String,
      sign Int8,
      summary String
    ) ENGINE = SummingMergeTree((sign))
    ORDER BY (rev_ended, match_id)
    SETTINGS index_granularity = 256`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.match_list_packed_mv TO ${d}.match_list_packed AS
    SELECT toUInt32(4294967295 - toUInt32(ended_at)) AS rev_ended, match_id, sign, ${pageRow(PAGE_SUMMARY_FIELDS)} AS summary FROM ${d}.match_facts`,
  ];
}

/**
 * Migration 11, after its table: the rows `match_list` held before it, those not there yet (run again,
 * it adds nothing; rows the view wrote meanwhile are there already). As the other back-fills: migrate
 * with the workers stopped.
 */
export function packedMatchListBackfill(db: string): string[] {
  const d = ident(db);
  return [
    `INSERT INTO ${d}.match_list_packed (rev_ended, match_id, sign, summary)
    SELECT rev_ended, match_id, sign, ${pageRow(PAGE_SUMMARY_FIELDS)} FROM ${d}.match_list
    WHERE (rev_ended, match_id, sign) NOT IN (SELECT rev_ended, match_id, sign FROM ${d}.match_list_packed)`,
  ];
}

/**
 * Migration 12: the match list's counts by minute of end time (as `match_minutes` of migration 8 keeps
 * them) summed as each insert lands, in `list_minutes`: the view groups every block it is given, so a
 * part holds one row per minute and scenario whatever the merges have done yet. `match_minutes` takes
 * each match row as it comes and sums only when parts merge, and a part no merge has reached keeps a
 * row per match: a store filled in one large insert (a back-fill, `bench/api.bench.ts`'s 99,000 copies)
 * left 99,005 rows for 101 minutes, and every page at an offset read them all (the minutes' read and
 * page cost the Debian 18.16 server ~7.7 ms of CPU, ~6.3 from 203 rows). The list reads this table
 * instead; `match_minutes` stays, written as before, for a Salient of an older schema.
 */
export function listMinutes(db: string): string[] {
  const d = ident(db);
  return [
    `CREATE TABLE IF NOT EXISTS ${d}.list_minutes (
      rev_minute UInt32, game String, scenario String, pack_hash String, rules_version String, pack_id String,
      n Int64
    ) ENGINE = SummingMergeTree((n))
    ORDER BY (rev_minute, ${SCENARIO_KEY})`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d}.list_minutes_mv TO ${d}.list_minutes AS
    SELECT intDiv(toUInt32(4294967295 - toUInt32(ended_at)), ${LIST_BUCKET_SECONDS}) AS rev_minute, ${SCENARIO_KEY}, sum(toInt64(sign)) AS n
    FROM ${d}.match_facts
    GROUP BY rev_minute, ${SCENARIO_KEY}`,
  ];
}

/**
 * Migration 12, after its table: the counts `match_minutes` holds, summed, with a marker row (minute 0,
 * never read) so that a migration run again after a partial run adds nothing. As the other back-fills:
 * migrate with the workers stopped.
 */
export function listMinutesBackfill(db: string): string[] {
  const d = ident(db);
  return [
    `INSERT INTO ${d}.list_minutes (rev_minute, ${SCENARIO_KEY}, n)
    SELECT rev_minute, ${SCENARIO_KEY}, summed FROM (
      SELECT rev_minute, ${SCENARIO_KEY}, sum(n) AS summed FROM ${d}.match_minutes WHERE rev_minute > 0 GROUP BY rev_minute, ${SCENARIO_KEY}
      UNION ALL
      SELECT toUInt32(0), '', '', '', '', '', toInt64(1)
    ) WHERE (SELECT count() FROM ${d}.list_minutes WHERE rev_minute = 0) = 0`,
  ];
}
