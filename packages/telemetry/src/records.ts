/**
 * The runner's telemetry rows as ClickHouse rows (snake_case, parallel arrays, JSON text). Pure
 * functions of their input, with keys in sorted order, so the same match always gives the same rows
 * and a re-sent row is an exact duplicate. An event's payload keeps the key order the game gave it
 * (`JSON.stringify`, three times cheaper than canonical JSON on the game's thread): a game builds
 * its events the same way every time it plays a match, so the text repeats too.
 */
import { canonicalJson, hashString, INPUT_LIMITS, parseJsonText, parseReplay, REPLAY_FORMAT, SalientError } from '@salient/engine';
import type { GameEvent, Json, JsonObject, Position, Replay, SideInfo } from '@salient/engine';
import { entrantIdentity, type DecisionRow, type EventRow, type ImpulseRow, type MatchResult, type MatchRow } from '@salient/runner';

/** A row as inserted with JSONEachRow. */
export type ChRow = Record<string, Json>;

/**
 * A row already encoded as one JSONEachRow line (a JSON object, no newline): what the sink buffers,
 * so a row is encoded once, on its way in, and never held as an object tree.
 */
export type RowLine = string;

/**
 * Rows of one match encoded as lines (see {@link RowLine}) where the runner produced them (a game
 * thread), for a sink elsewhere to batch and insert. `match` is present once the match ended.
 */
export interface EncodedRows {
  matchId: string;
  impulses: RowLine[];
  events: RowLine[];
  decisions: RowLine[];
  match?: RowLine;
}

/**
 * The sides of the scenario a match was played in, for matches whose seats are powers rather than
 * sides: it tells which bots played each side. Return `undefined` when unknown.
 */
export type SidesLookup = (match: MatchRow) => readonly SideInfo[] | undefined;

/** Event types counted in the `moves`, `combats` and `losses` columns of an impulse row. */
export interface EventClasses {
  moves: readonly string[];
  combats: readonly string[];
  losses: readonly string[];
}

/** Blitz!'s names; other games name their events the same way where they can. */
export const DEFAULT_EVENT_CLASSES: EventClasses = { moves: ['move'], combats: ['combat'], losses: ['loss'] };

/** The bot label of a side played by seats that cannot be told apart (power seats, no lookup). */
export const UNKNOWN_BOT = '(unknown)';

const seconds = (ms: number): number => Math.floor(ms / 1000);
/**
 * A duration in ms as stored: to the microsecond (think times measured to the nanosecond are noise
 * there, and their 17 digits were a tenth of an impulse row). Non-finite values pass as they are.
 */
const micros = (ms: number): number => (Number.isFinite(ms) ? Math.round(ms * 1000) / 1000 : ms);
/** Lists up to this long are sorted by insertion (see {@link sortStrings}). */
const INSERTION_SORT_MAX = 16;

/**
 * `list.sort()`, in place. A row's lists of keys and powers hold a handful of strings, and
 * `Array.prototype.sort` allocates its work arrays on every call (some 0.7 KB: a fifth of what
 * encoding an impulse row allocated): short lists are sorted by insertion instead, comparing with
 * `<`, which orders strings by code units as `sort()` does. The strings are distinct (keys of one
 * object), so stability is moot.
 */
function sortStrings(list: string[]): string[] {
  const n = list.length;
  if (n > INSERTION_SORT_MAX) return list.sort();
  for (let i = 1; i < n; i++) {
    const k = list[i] as string;
    let j = i - 1;
    while (j >= 0 && k < (list[j] as string)) {
      list[j + 1] = list[j] as string;
      j--;
    }
    list[j + 1] = k;
  }
  return list;
}

const sortedKeys = (o: Readonly<Record<string, unknown>>): string[] => sortStrings(Object.keys(o));

function position(p: Position, prefix = ''): ChRow {
  return { [`${prefix}turn`]: p.turn, [`${prefix}impulse`]: p.impulse, [`${prefix}phase`]: p.phase, [`${prefix}step`]: p.step };
}

/**
 * Migration 4: a match row carries its own per-impulse curve (each impulse's score, losses, control
 * and units by power, flattened into parallel arrays), so the `curve_points` view can file it under
 * its scenario, bots and tournament when the match row lands. Impulse rows do not know their
 * scenario, and a match row means the match is complete, so this is where the curve can be taken
 * from without a join at read time. `curve_units` is -1 where the game reports no units for a power.
 */
export interface CurveColumns {
  curve_turns: number[];
  curve_impulses: number[];
  curve_powers: string[];
  curve_scores: number[];
  curve_losses: number[];
  curve_control: number[];
  curve_units: number[];
}

const emptyCurve = (): CurveColumns => ({ curve_turns: [], curve_impulses: [], curve_powers: [], curve_scores: [], curve_losses: [], curve_control: [], curve_units: [] });

/**
 * Collects each match's curve from its impulse records until its match row is built. A sink holds
 * one and feeds it every impulse record it encodes; `take` hands the curve over and forgets the match.
 */
export class CurveTracker {
  private readonly curves = new Map<string, CurveColumns>();

  /** Add one impulse (as `impulseRecord` built it) to its match's curve. */
  add(record: ChRow): void {
    const id = record.match_id as string;
    let c = this.curves.get(id);
    if (!c) this.curves.set(id, (c = emptyCurve()));
    const powers = record.powers as string[];
    const scores = record.scores as number[];
    const losses = record.losses as number[];
    const control = record.control as number[];
    const keys = record.extra_keys as string[];
    const values = record.extra_values as number[];
    for (let i = 0; i < powers.length; i++) {
      const power = powers[i] as string;
      const u = keys.length ? keys.indexOf(`${power}.units`) : -1;
      c.curve_turns.push(record.turn as number);
      c.curve_impulses.push(record.impulse as number);
      c.curve_powers.push(power);
      c.curve_scores.push(scores[i] ?? 0);
      c.curve_losses.push(losses[i] ?? 0);
      c.curve_control.push(control[i] ?? 0);
      c.curve_units.push(u >= 0 ? (values[u] ?? 0) : -1);
    }
  }

  /** The curve of `matchId` (empty if none of its impulses came through here), forgotten after. */
  take(matchId: string): CurveColumns {
    const c = this.curves.get(matchId) ?? emptyCurve();
    this.curves.delete(matchId);
    return c;
  }

  /** Matches with a curve being collected. */
  get size(): number {
    return this.curves.size;
  }
}

/** `matches` row; `curve` is what a {@link CurveTracker} collected from its impulses (none: empty). */
export function matchRecord(row: MatchRow, sidesOf?: SidesLookup, curve: CurveColumns = emptyCurve()): ChRow {
  const r = row.result;
  const seats = sortedKeys(r.bots);
  const outcome = 'result' in r ? r.result : undefined;
  const sides = outcome ? sortedKeys(outcome.sides) : [];
  const powers = outcome ? sortedKeys(outcome.scores) : [];
  // Results are kept by entrant: the bot with its parameters and version (`greedy:chance=0@1`), so two
  // settings of one bot are never merged; without parameters it is `name@version`, as always.
  const entrants = Object.fromEntries(seats.map((s) => [s, entrantIdentity(row.seatSpecs[s], r.bots[s] ?? '')]));
  const sideBots = sides.map((side) => botsOfSide(side, entrants, row, sidesOf));
  const options = canonicalJson(row.options);
  const inColumns = replayInColumns(r, row, options, seats);
  // The log as two arrays, in one pass.
  const log = r.replay.log;
  const by: string[] = inColumns ? new Array(log.length) : [];
  const choices: string[] = inColumns ? new Array(log.length) : [];
  if (inColumns) {
    for (let i = 0; i < log.length; i++) {
      const entry = log[i] as (typeof log)[number];
      by[i] = entry.by;
      choices[i] = entry.choice;
    }
  }
  return {
    match_id: row.matchId,
    tournament: row.tags.tournament ?? '',
    worker: row.tags.worker ?? '',
    game: r.game,
    rules_version: r.rulesVersion,
    pack_id: r.pack.id,
    pack_version: r.pack.version,
    pack_fidelity: r.pack.fidelity,
    pack_hash: r.pack.hash,
    scenario: r.scenario,
    options,
    seed: r.seed,
    seats,
    bots: seats.map((s) => r.bots[s] ?? ''),
    seat_specs: seats.map((s) => row.seatSpecs[s] ?? ''),
    think_ms: seats.map((s) => micros(r.thinkMsBySeat[s] ?? 0)),
    // Migration 5. A result from before (a stored or posted one) has neither: no strikes, no bank told.
    strikes: seats.map((s) => r.strikesBySeat?.[s] ?? 0),
    bank_ms: seats.map((s) => micros(r.bankMsBySeat?.[s] ?? 0)),
    engine_version: row.engineVersion,
    started_at: seconds(row.startedAt),
    ended_at: seconds(row.endedAt),
    wall_ms: micros(r.wallMs),
    kind: r.kind,
    sides,
    outcomes: sides.map((s) => outcome?.sides[s] ?? ''),
    side_bots: sideBots,
    powers,
    scores: powers.map((p) => outcome?.scores[p] ?? 0),
    margin: outcome?.margin ?? 0,
    reason: outcome?.reason ?? '',
    forfeit_seat: r.kind === 'forfeit' ? r.seat : '',
    forfeit_power: r.kind === 'forfeit' ? r.power : '',
    forfeit_reason: r.kind === 'forfeit' ? r.reason : '',
    detail: r.kind === 'forfeit' || r.kind === 'error' ? r.detail : '',
    decision_cap: r.kind === 'adjudicated' ? r.cap : 0,
    turns: r.position.turn,
    end_impulse: r.position.impulse,
    end_phase: r.position.phase,
    end_step: r.position.step,
    impulses: r.impulses,
    decisions: r.decisions,
    chance_draws: r.chanceDraws,
    final_hash: r.finalHash,
    replay: inColumns ? '' : JSON.stringify(r.replay),
    replay_by: by,
    replay_choices: choices,
    ...curve,
  };
}

/**
 * Whether the match row's own columns say everything `r.replay` says but its log (so the row stores
 * the log alone, in `replay_by` and `replay_choices`): true for every match the runner plays; a
 * replay with anything else in it is stored whole, as JSON in `replay`.
 */
function replayInColumns(r: MatchResult, row: MatchRow, options: string, seats: readonly string[]): boolean {
  const x = r.replay;
  const seatsOf = x.seats;
  const seatIds = Object.keys(seatsOf);
  return (
    Object.keys(x).length === 10 &&
    x.format === REPLAY_FORMAT &&
    x.game === r.game &&
    x.rulesVersion === r.rulesVersion &&
    Object.keys(x.pack).length === 4 &&
    x.pack.id === r.pack.id &&
    x.pack.version === r.pack.version &&
    x.pack.fidelity === r.pack.fidelity &&
    x.pack.hash === r.pack.hash &&
    x.scenario === r.scenario &&
    x.seed === r.seed &&
    x.finalHash === r.finalHash &&
    seatIds.length === seats.length &&
    seats.every((s) => seatsOf[s] !== undefined && seatsOf[s] === row.seatSpecs[s]) &&
    x.log.every(twoKeys) &&
    (x.options === row.options || canonicalJson(x.options) === options)
  );
}

/** Whether `o` has exactly two own enumerable string keys (`Object.keys(o).length === 2`, without the array). */
function twoKeys(o: object): boolean {
  let n = 0;
  for (const k in o) if (Object.hasOwn(o, k) && ++n > 2) return false;
  return n === 2;
}

/** The columns of a stored `matches` row that {@link replayOf} reads (64-bit numbers may come as text). */
export interface StoredReplayColumns {
  match_id: string;
  game: string;
  rules_version: string;
  pack_id: string;
  pack_version: string;
  pack_fidelity: string;
  pack_hash: string;
  scenario: string;
  options: string;
  seed: number | string;
  seats: string[];
  seat_specs: string[];
  final_hash: string;
  replay: string;
  replay_by?: string[];
  replay_choices?: string[];
}

/** The names of {@link StoredReplayColumns}, for a SELECT. */
export const REPLAY_SOURCE_COLUMNS = [
  'match_id', 'game', 'rules_version', 'pack_id', 'pack_version', 'pack_fidelity', 'pack_hash', 'scenario', 'options',
  'seed', 'seats', 'seat_specs', 'final_hash', 'replay', 'replay_by', 'replay_choices',
] as const;

/**
 * A match's replay from its stored row: the JSON in `replay` when the row has it (a replay stored
 * whole, or a row written before schema version 2), else the row's columns and its log arrays.
 * Checked like a replay file; a row whose log arrays disagree in length is reported, not guessed at.
 */
export function replayOf(m: StoredReplayColumns): Replay {
  const where = `the replay of match ${m.match_id}`;
  // A stored row is input like a file: the same parser, limits and strict shape.
  if (m.replay !== '') return parseReplay(parseJsonText(m.replay, where, 'BAD_REPLAY', INPUT_LIMITS.replay), where);
  const by = m.replay_by ?? [];
  const choices = m.replay_choices ?? [];
  if (by.length !== choices.length) {
    throw new SalientError('BAD_REPLAY', `${where} is damaged: ${by.length} actor(s) for ${choices.length} choice(s) in replay_by / replay_choices.`);
  }
  return parseReplay(
    {
      format: REPLAY_FORMAT,
      game: m.game,
      rulesVersion: m.rules_version,
      pack: { id: m.pack_id, version: m.pack_version, fidelity: m.pack_fidelity, hash: m.pack_hash },
      scenario: m.scenario,
      options: parseJsonText(m.options, `${where} (options)`, 'BAD_REPLAY', INPUT_LIMITS.replay) as Json,
      seed: Number(m.seed),
      seats: Object.fromEntries(m.seats.map((s, i) => [s, m.seat_specs[i] ?? ''])),
      log: by.map((b, i) => ({ by: b, choice: choices[i] as string })),
      finalHash: m.final_hash,
    },
    where,
  );
}

/** Who played `side`: the seat of that name, else the seats of its powers (several joined by `+`). */
function botsOfSide(side: string, bots: Readonly<Record<string, string>>, row: MatchRow, sidesOf?: SidesLookup): string {
  const own = bots[side];
  if (own !== undefined) return own;
  const powers = sidesOf?.(row)?.find((s) => s.id === side)?.powers ?? [];
  const names = [...new Set(powers.flatMap((p) => (bots[p] === undefined ? [] : [bots[p]])))].sort();
  return names.length ? names.join('+') : UNKNOWN_BOT;
}

const str = JSON.stringify as (s: string) => string;
/** A number as JSON.stringify writes it (non-finite numbers as null). */
const num = (n: number): string => (Number.isFinite(n) ? '' + n : 'null');

/*
 * The event and impulse lines build a plain object with the columns in order and hand it to
 * JSON.stringify: measured on Blitz! rows, that is about twice as fast as concatenating the text by
 * hand, and these run on the game's thread for every row.
 */

/**
 * {@link eventRecord} as a JSONEachRow line: the same values as `JSON.stringify(eventRecord(row))`,
 * except that an event other than a combat leaves out the combat columns and `combat_in_columns`,
 * whose values would all be the column defaults ('', [] and 0) that ClickHouse gives an omitted field anyway.
 */
export function eventLine(row: EventRow): RowLine {
  const e = row.event;
  const p = row.position;
  const r: ChRow = {
    match_id: row.matchId,
    seq: row.seq,
    impulse_seq: row.impulseSeq,
    turn: p.turn,
    impulse: p.impulse,
    phase: p.phase,
    step: p.step,
    type: e.type,
    power: e.power ?? '',
    text: e.text,
    payload: '',
  };
  const data = e.data;
  if (e.type !== 'combat') {
    if (data !== undefined) r.payload = JSON.stringify(data);
    return JSON.stringify(r);
  }
  // A combat of the shape the columns hold: its rest and its columns in one pass over its rounds.
  if (data !== undefined && combatInColumns(data, r)) return JSON.stringify(r);
  r.payload = data === undefined ? '' : JSON.stringify(data);
  Object.assign(r, combatColumns(e));
  r.combat_in_columns = 0;
  return JSON.stringify(r);
}

/** The keys of a combat round that its columns hold (see {@link combatRest}). */
const ROUND_COLUMN_KEYS: ReadonlySet<string> = new Set(['round', 'attFactors', 'defFactors', 'attDie', 'defDie', 'attResult', 'defResult']);
/** The keys of a combat's data that its columns hold. */
const COMBAT_COLUMN_KEYS: ReadonlySet<string> = new Set(['target', 'outcome', 'rounds']);

/**
 * `data`'s own properties but `skip`'s, in their order: what `const { a, b, ...rest } = data` gives
 * as JSON (the properties JSON writes: own, enumerable, string-keyed), without object rest's runtime call.
 */
function without(data: JsonObject, skip: ReadonlySet<string>): JsonObject {
  const out: JsonObject = {};
  for (const k in data) if (!skip.has(k) && Object.hasOwn(data, k)) out[k] = data[k] as Json;
  return out;
}

/**
 * For a combat whose data {@link combatRest} accepts: set `r`'s payload (the rest), combat columns
 * (as {@link combatColumns} gives them) and `combat_in_columns` (1), in that order, and return true;
 * else leave `r` alone and return false. Walks the rounds once, checking and splitting each.
 */
function combatInColumns(data: JsonObject, r: ChRow): boolean {
  const target = data.target;
  const outcome = data.outcome;
  const list = data.rounds;
  if (typeof target !== 'string' || typeof outcome !== 'string' || !Array.isArray(list)) return false;
  const n = list.length;
  const rounds: JsonObject[] = new Array(n);
  const names: string[] = new Array(n);
  const attFactors: number[] = new Array(n);
  const defFactors: number[] = new Array(n);
  const attDice: number[] = new Array(n);
  const defDice: number[] = new Array(n);
  const attResults: string[] = new Array(n);
  const defResults: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = list[i];
    if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
    const round = x.round;
    const attResult = x.attResult;
    const defResult = x.defResult;
    const af = x.attFactors;
    const df = x.defFactors;
    const ad = x.attDie;
    const dd = x.defDie;
    if (typeof round !== 'string' || typeof attResult !== 'string' || typeof defResult !== 'string') return false;
    if (!isFiniteNumber(af) || !isFiniteNumber(df) || !isInt32(ad) || !isInt32(dd)) return false;
    rounds[i] = without(x, ROUND_COLUMN_KEYS);
    names[i] = round;
    attFactors[i] = af as number;
    defFactors[i] = df as number;
    attDice[i] = Math.trunc(ad as number);
    defDice[i] = Math.trunc(dd as number);
    attResults[i] = attResult;
    defResults[i] = defResult;
  }
  const rest = without(data, COMBAT_COLUMN_KEYS);
  rest.rounds = rounds;
  r.payload = JSON.stringify(rest);
  r.combat_target = target;
  r.combat_outcome = outcome;
  r.combat_rounds = names;
  r.att_factors = attFactors;
  r.def_factors = defFactors;
  r.att_dice = attDice;
  r.def_dice = defDice;
  r.att_results = attResults;
  r.def_results = defResults;
  r.combat_in_columns = 1;
  return true;
}

/** The sum, per power, of the counts of `types` in `byPower`. */
function classCounts(byPower: ImpulseRow['eventCountsByPower'], powers: readonly string[], types: readonly string[]): number[] {
  const out = new Array<number>(powers.length);
  for (let i = 0; i < powers.length; i++) {
    const counts = byPower[powers[i] as string];
    let n = 0;
    if (counts) for (const t of types) n += counts[t] ?? 0;
    out[i] = n;
  }
  return out;
}

/** The values of `o` at `keys`, 0 where absent. */
function at(o: Readonly<Record<string, number>> | undefined, keys: readonly string[]): number[] {
  const out = new Array<number>(keys.length);
  for (let i = 0; i < keys.length; i++) out[i] = o?.[keys[i] as string] ?? 0;
  return out;
}

/** Add the keys of `o` (for-in order, '' left out) to `keys` that are not in it yet. */
function addKeys(keys: string[], o: Readonly<Record<string, unknown>> | undefined): void {
  if (o) for (const k in o) if (k !== '' && !keys.includes(k)) keys.push(k);
}

/** `impulses` row. */
export function impulseRecord(row: ImpulseRow, classes: EventClasses = DEFAULT_EVENT_CLASSES): ChRow {
  const byPower = row.eventCountsByPower;
  const eventPowers: string[] = [];
  const eventTypes: string[] = [];
  const eventCounts: number[] = [];
  for (const p of sortedKeys(byPower)) {
    const types = byPower[p] ?? {};
    for (const t of sortedKeys(types)) {
      eventPowers.push(p);
      eventTypes.push(t);
      eventCounts.push(types[t] ?? 0);
    }
  }
  const s = row.summary;
  // Every power named anywhere, sorted: a handful, so a list rather than a Set.
  const powers: string[] = [];
  addKeys(powers, s?.scores);
  addKeys(powers, s?.control);
  addKeys(powers, s?.supply);
  addKeys(powers, byPower);
  sortStrings(powers);
  const extra = s?.extra;
  const extraKeys = extra ? sortedKeys(extra) : [];
  const seats = sortedKeys(row.thinkMsBySeat);
  const thinkMs = at(row.thinkMsBySeat, seats);
  for (let i = 0; i < thinkMs.length; i++) thinkMs[i] = micros(thinkMs[i] as number);
  const p = row.position;
  const e = row.end;
  return {
    match_id: row.matchId,
    seq: row.seq,
    turn: p.turn,
    impulse: p.impulse,
    phase: p.phase,
    step: p.step,
    end_turn: e.turn,
    end_impulse: e.impulse,
    end_phase: e.phase,
    end_step: e.step,
    active_powers: row.activePowers,
    choices: row.choices,
    decisions: row.decisions,
    chance_draws: row.chanceDraws,
    event_powers: eventPowers,
    event_types: eventTypes,
    event_counts: eventCounts,
    powers,
    scores: at(s?.scores, powers),
    control: at(s?.control, powers),
    supply: at(s?.supply, powers),
    moves: classCounts(byPower, powers, classes.moves),
    combats: classCounts(byPower, powers, classes.combats),
    losses: classCounts(byPower, powers, classes.losses),
    extra_keys: extraKeys,
    extra_values: at(extra, extraKeys),
    think_seats: seats,
    think_ms: thinkMs,
    state_hash: row.stateHash,
  };
}

/** {@link impulseRecord} as a JSONEachRow line. */
export function impulseLine(row: ImpulseRow, classes: EventClasses = DEFAULT_EVENT_CLASSES): RowLine {
  return JSON.stringify(impulseRecord(row, classes));
}

/** {@link decisionRecord} as a JSONEachRow line. */
export function decisionLine(row: DecisionRow): RowLine {
  const p = row.position;
  return (
    `{"match_id":${str(row.matchId)},"seq":${num(row.seq)},"impulse_seq":${num(row.impulseSeq)},` +
    `"turn":${num(p.turn)},"impulse":${num(p.impulse)},"phase":${str(p.phase)},"step":${str(p.step)},` +
    `"power":${str(row.power)},"seat":${str(row.seat)},"prompt":${str(row.prompt)},"option_count":${num(row.optionCount)},` +
    `"choice":${str(row.choice)},"think_ms":${num(micros(row.thinkMs))},"rationale":${str(row.rationale ?? '')},"strike":${num(row.strike ?? 0)}}`
  );
}

/** {@link matchRecord} as a JSONEachRow line. */
export function matchLine(row: MatchRow, sidesOf?: SidesLookup, curve?: CurveColumns): RowLine {
  return JSON.stringify(matchRecord(row, sidesOf, curve));
}

/** `events` row, with a combat's rounds flattened into parallel arrays. */
export function eventRecord(row: EventRow): ChRow {
  const e = row.event;
  const stored = storedPayload(e);
  return {
    match_id: row.matchId,
    seq: row.seq,
    impulse_seq: row.impulseSeq,
    ...position(row.position),
    type: e.type,
    power: e.power ?? '',
    text: e.text,
    payload: stored.payload,
    ...combatColumns(e),
    combat_in_columns: stored.inColumns,
  };
}

/** An event's `payload` as stored, and its `combat_in_columns`: a combat's data less its columns where {@link combatRest} allows, else the data whole. */
function storedPayload(e: GameEvent): { payload: string; inColumns: 0 | 1 } {
  const rest = e.type === 'combat' && e.data !== undefined ? combatRest(e.data) : undefined;
  if (rest) return { payload: JSON.stringify(rest), inColumns: 1 };
  return { payload: e.data === undefined ? '' : JSON.stringify(e.data), inColumns: 0 };
}

/** The values a combat round gives its columns, which a payload of a combat in columns leaves out. */
const INT32 = 2 ** 31;
const isInt32 = (v: Json | undefined): boolean => Number.isInteger(v) && (v as number) >= -INT32 && (v as number) < INT32;
const isFiniteNumber = (v: Json | undefined): boolean => typeof v === 'number' && Number.isFinite(v);

/**
 * A combat's data less what its columns hold (`target`, `outcome`, and each round's `round`,
 * factors, dice and results), when the columns give those back exactly (see {@link eventData}):
 * Blitz!'s combats, whose rounds would otherwise be written twice. Undefined for data of any other
 * shape, which is stored whole.
 */
function combatRest(data: JsonObject): JsonObject | undefined {
  if (typeof data.target !== 'string' || typeof data.outcome !== 'string' || !Array.isArray(data.rounds)) return undefined;
  const rounds: JsonObject[] = [];
  for (const r of data.rounds) {
    if (typeof r !== 'object' || r === null || Array.isArray(r)) return undefined;
    if (typeof r.round !== 'string' || typeof r.attResult !== 'string' || typeof r.defResult !== 'string') return undefined;
    if (!isFiniteNumber(r.attFactors) || !isFiniteNumber(r.defFactors) || !isInt32(r.attDie) || !isInt32(r.defDie)) return undefined;
    const { round: _r, attFactors: _af, defFactors: _df, attDie: _ad, defDie: _dd, attResult: _ar, defResult: _dr, ...rest } = r;
    rounds.push(rest);
  }
  const { target: _t, outcome: _o, rounds: _rounds, ...rest } = data;
  return { ...rest, rounds };
}

/** The columns of a stored `events` row that {@link eventData} reads (numbers may come as text). */
export interface StoredEventColumns {
  match_id: string;
  seq: number | string;
  payload: string;
  /** Absent or 0 in rows written before schema version 2. */
  combat_in_columns?: number | string;
  combat_target: string;
  combat_outcome: string;
  combat_rounds: string[];
  att_factors: (number | string)[];
  def_factors: (number | string)[];
  att_dice: (number | string)[];
  def_dice: (number | string)[];
  att_results: string[];
  def_results: string[];
}

/**
 * An event's data from its stored row: the payload, with a combat's target, outcome and rounds put
 * back from their columns where the row keeps them there. Equal to the data the game gave (as JSON:
 * the order of keys may differ); undefined for an event without data.
 */
export function eventData(row: StoredEventColumns): JsonObject | undefined {
  if (row.payload === '') return undefined;
  const data = JSON.parse(row.payload) as JsonObject;
  if (Number(row.combat_in_columns ?? 0) !== 1) return data;
  const rounds = Array.isArray(data.rounds) ? (data.rounds as JsonObject[]) : [];
  const n = row.combat_rounds.length;
  const columns = [row.att_factors, row.def_factors, row.att_dice, row.def_dice, row.att_results, row.def_results];
  if (rounds.length !== n || columns.some((c) => c.length !== n)) {
    throw new SalientError('BAD_ARGUMENT', `event ${row.seq} of match ${row.match_id} is damaged: its payload has ${rounds.length} combat round(s), but its round columns hold ${[n, ...columns.map((c) => c.length)].join('/')} value(s).`);
  }
  return {
    target: row.combat_target,
    outcome: row.combat_outcome,
    ...data,
    rounds: rounds.map((r, i) => ({
      round: row.combat_rounds[i] as string,
      ...r,
      attFactors: Number(row.att_factors[i]),
      defFactors: Number(row.def_factors[i]),
      attDie: Number(row.att_dice[i]),
      defDie: Number(row.def_dice[i]),
      attResult: row.att_results[i] as string,
      defResult: row.def_results[i] as string,
    })),
  };
}

/**
 * A combat's target, outcome and per-round factors, dice and results. Blitz! reports rounds as
 * `data.rounds[]`; a combat without rounds but with factors at top level counts as one round.
 */
export function combatColumns(e: GameEvent): ChRow {
  const data = e.data ?? {};
  const list = Array.isArray(data.rounds) ? data.rounds : 'attFactors' in data ? [data] : [];
  const rounds = e.type === 'combat' ? list.filter((r): r is JsonObject => typeof r === 'object' && r !== null && !Array.isArray(r)) : [];
  const text = (v: Json | undefined): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
  const number = (v: Json | undefined): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    combat_target: e.type === 'combat' ? text(data.target) : '',
    combat_outcome: e.type === 'combat' ? text(data.outcome) : '',
    combat_rounds: rounds.map((r, i) => (r.round === undefined ? String(i + 1) : text(r.round))),
    att_factors: rounds.map((r) => number(r.attFactors)),
    def_factors: rounds.map((r) => number(r.defFactors)),
    att_dice: rounds.map((r) => Math.trunc(number(r.attDie))),
    def_dice: rounds.map((r) => Math.trunc(number(r.defDie))),
    att_results: rounds.map((r) => text(r.attResult)),
    def_results: rounds.map((r) => text(r.defResult)),
  };
}

/** `decisions` row. */
export function decisionRecord(row: DecisionRow): ChRow {
  return {
    match_id: row.matchId,
    seq: row.seq,
    impulse_seq: row.impulseSeq,
    ...position(row.position),
    power: row.power,
    seat: row.seat,
    prompt: row.prompt,
    option_count: row.optionCount,
    choice: row.choice,
    think_ms: micros(row.thinkMs),
    rationale: row.rationale ?? '',
    strike: row.strike ?? 0,
  };
}

/**
 * {@link sampled} for one match, with the hash of `<match id>#` computed once: the first half of
 * `hashString` (the lane {@link sampled} reads) runs over the characters one by one, so it can carry
 * on from there with the digits of `seq`. Exactly the same answers as `sampled(matchId, seq, rate)`.
 */
export function matchSampler(matchId: string, rate: number): (seq: number) => boolean {
  if (rate >= 1) return () => true;
  if (rate <= 0) return () => false;
  const prefix = `${matchId}#`;
  let start = 0x811c9dc5 | 0;
  for (let i = 0; i < prefix.length; i++) start = Math.imul(start ^ prefix.charCodeAt(i), 0x01000193);
  return (seq) => {
    const digits = `${seq}`;
    let h = start;
    for (let i = 0; i < digits.length; i++) h = Math.imul(h ^ digits.charCodeAt(i), 0x01000193);
    h ^= prefix.length + digits.length;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    h ^= h >>> 16;
    return (h >>> 0) / 0x1_0000_0000 < rate;
  };
}

/**
 * Whether decision `seq` of `matchId` is kept at sampling rate `rate` (0..1). Decided by a hash of the
 * two, not a random draw, so a re-run of the match keeps exactly the same decisions.
 */
export function sampled(matchId: string, seq: number, rate: number): boolean {
  if (rate >= 1) return true;
  if (rate <= 0) return false;
  return parseInt(hashString(`${matchId}#${seq}`).slice(0, 8), 16) / 0x1_0000_0000 < rate;
}
