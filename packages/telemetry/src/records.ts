/**
 * The runner's telemetry rows as ClickHouse rows (snake_case, parallel arrays, JSON text). Pure
 * functions of their input, with keys in sorted order, so the same match always gives the same rows
 * and a re-sent row is an exact duplicate. An event's payload keeps the key order the game gave it
 * (`JSON.stringify`, three times cheaper than canonical JSON on the game's thread): a game builds
 * its events the same way every time it plays a match, so the text repeats too.
 */
import { canonicalJson, hashString } from '@salient/engine';
import type { GameEvent, Json, JsonObject, Position, SideInfo } from '@salient/engine';
import type { DecisionRow, EventRow, ImpulseRow, MatchRow } from '@salient/runner';

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
const sortedKeys = (o: Readonly<Record<string, unknown>>): string[] => Object.keys(o).sort();

function position(p: Position, prefix = ''): ChRow {
  return { [`${prefix}turn`]: p.turn, [`${prefix}impulse`]: p.impulse, [`${prefix}phase`]: p.phase, [`${prefix}step`]: p.step };
}

/** `matches` row. */
export function matchRecord(row: MatchRow, sidesOf?: SidesLookup): ChRow {
  const r = row.result;
  const seats = sortedKeys(r.bots);
  const outcome = 'result' in r ? r.result : undefined;
  const sides = outcome ? sortedKeys(outcome.sides) : [];
  const powers = outcome ? sortedKeys(outcome.scores) : [];
  const sideBots = sides.map((side) => botsOfSide(side, r.bots, row, sidesOf));
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
    options: canonicalJson(row.options),
    seed: r.seed,
    seats,
    bots: seats.map((s) => r.bots[s] ?? ''),
    seat_specs: seats.map((s) => row.seatSpecs[s] ?? ''),
    think_ms: seats.map((s) => r.thinkMsBySeat[s] ?? 0),
    engine_version: row.engineVersion,
    started_at: seconds(row.startedAt),
    ended_at: seconds(row.endedAt),
    wall_ms: r.wallMs,
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
    replay: JSON.stringify(r.replay),
  };
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
 * except that an event other than a combat leaves out the combat columns, whose values would all be
 * the column defaults ('' and []) that ClickHouse gives an omitted field anyway.
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
    payload: e.data === undefined ? '' : JSON.stringify(e.data),
  };
  return JSON.stringify(e.type === 'combat' ? Object.assign(r, combatColumns(e)) : r);
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
  const seen = new Set<string>();
  for (const o of [s?.scores, s?.control, s?.supply, byPower]) if (o) for (const k in o) if (k !== '') seen.add(k);
  const powers = [...seen].sort();
  const extra = s?.extra;
  const extraKeys = extra ? sortedKeys(extra) : [];
  const seats = sortedKeys(row.thinkMsBySeat);
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
    think_ms: at(row.thinkMsBySeat, seats),
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
    `"choice":${str(row.choice)},"think_ms":${num(row.thinkMs)},"rationale":${str(row.rationale ?? '')}}`
  );
}

/** {@link matchRecord} as a JSONEachRow line. */
export function matchLine(row: MatchRow, sidesOf?: SidesLookup): RowLine {
  return JSON.stringify(matchRecord(row, sidesOf));
}

/** `events` row, with a combat's rounds flattened into parallel arrays. */
export function eventRecord(row: EventRow): ChRow {
  const e = row.event;
  return {
    match_id: row.matchId,
    seq: row.seq,
    impulse_seq: row.impulseSeq,
    ...position(row.position),
    type: e.type,
    power: e.power ?? '',
    text: e.text,
    payload: e.data === undefined ? '' : JSON.stringify(e.data),
    ...combatColumns(e),
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
    think_ms: row.thinkMs,
    rationale: row.rationale ?? '',
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
