/**
 * One match as the API read it before migration 10: its summary (`matchSummary`, unchanged; passed in), and its
 * impulses and events in three queries from the rows the sink writes, one copy of each row (FINAL),
 * shaped as the readers shaped them then. What `matchDetail` must still give.
 */
import { eventData, type MatchDetail, type MatchSummary, type StoredEvent, type StoredEventColumns, type StoredImpulse, type Telemetry } from '../../src/index.ts';
import { rowsOf } from './matches.ts';

type Row = Record<string, unknown>;

const record = (keys: unknown, values: unknown): Record<string, number> => {
  const out: Record<string, number> = {};
  (keys as unknown[]).forEach((k, i) => (out[String(k)] = Number((values as unknown[])[i])));
  return out;
};

/** `summaryOf`: the summary read (`matchSummary`, or `Telemetry.match`). */
export async function referenceMatchDetail(
  s: Pick<Telemetry, 'client' | 'database'>,
  summaryOf: (matchId: string) => Promise<MatchSummary | undefined>,
  matchId: string,
): Promise<MatchDetail | undefined> {
  const id = matchId.replace(/'/g, "\\'");
  const [match, impulses, events] = await Promise.all([
    summaryOf(matchId),
    rowsOf(
      s,
      `SELECT ${REFERENCE_IMPULSE_COLUMNS} FROM ${s.database}.impulses FINAL WHERE match_id = '${id}' ORDER BY seq`,
    ),
    rowsOf(
      s,
      `SELECT ${REFERENCE_EVENT_COLUMNS} FROM ${s.database}.events FINAL WHERE match_id = '${id}' ORDER BY seq`,
    ),
  ]);
  if (!match) return undefined;
  return { match, impulses: impulses.map(referenceImpulse), events: events.map(referenceEvent) };
}

/** The columns of an impulse row the page shows (from `impulses`), and of an event row (from `events`). */
export const REFERENCE_IMPULSE_COLUMNS = 'seq, turn, impulse, phase, step, active_powers, decisions, powers, scores, losses, control, extra_keys, extra_values, state_hash';
export const REFERENCE_EVENT_COLUMNS = `match_id, seq, impulse_seq, turn, impulse, phase, step, type, power, text, payload, combat_in_columns, combat_target, combat_outcome,
  combat_rounds, att_factors, def_factors, att_dice, def_dice, att_results, def_results`;

/** An impulse row shaped as the match page shows it. */
export function referenceImpulse(r: Row): StoredImpulse {
  return {
    seq: Number(r.seq),
    position: { turn: Number(r.turn), impulse: Number(r.impulse), phase: String(r.phase), step: String(r.step) },
    activePowers: (r.active_powers as unknown[]).map(String),
    decisions: Number(r.decisions),
    scores: record(r.powers, r.scores),
    losses: record(r.powers, r.losses),
    control: record(r.powers, r.control),
    extra: record(r.extra_keys, r.extra_values),
    stateHash: String(r.state_hash),
  };
}

/** An event row shaped as the match page shows it. */
export function referenceEvent(r: Row): StoredEvent {
  const data = eventData(r as unknown as StoredEventColumns);
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
