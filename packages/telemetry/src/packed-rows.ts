/**
 * The runner's rows packed for the trip from a game thread to the store's thread (`RemoteSink`'s
 * `packed` encoding). Each row is a JSON array of its fields in a fixed order, not an object: the
 * JSON text of a batch then holds no keys, no match id in every row (a batch names its matches once,
 * and a row their index) and no position objects, and a match row's log is a flat list of its actors
 * and choices. JSON.stringify writes that text in about half the time it wrote the row objects, and the
 * game thread's part ends there; the store's thread parses it and rebuilds the rows as a JSON round
 * trip of them would have given them, so what it encodes and stores is what it was.
 *
 * A batch is `[matchIds, ...rows]`; a row starts with its kind (see {@link ROW_KIND}) and the index
 * of its match id, then the fields in the order {@link RowPacker} writes them.
 *
 * (Packing into a Float64Array with interned strings, walking the rows in JavaScript, was tried and
 * was slower than JSON.stringify's native walk, before counting a new typed array per batch.)
 */
import { SalientError } from '@salient/engine';
import type { GameEvent, LogEntry, Position, Summary } from '@salient/engine';
import type { DecisionRow, EventRow, ImpulseRow, MatchRow } from '@salient/runner';

/** The kind of each packed row: which of the sink's row methods the runner called. */
export const ROW_KIND = { impulse: 0, event: 1, decision: 2, match: 3 } as const;

/** A batch of packed rows as posted: its JSON text. */
export interface PackedBatch {
  json: string;
}

/** The calls a batch holds, as a sink takes them. */
export interface RowCalls {
  impulse(row: ImpulseRow): void;
  event(row: EventRow): void;
  decision?(row: DecisionRow): void;
  match(row: MatchRow): void;
}

/** Packs rows as they come; {@link take} hands the batch over and starts the next one. */
export class RowPacker {
  private ids: string[] = [];
  private rowsOut: unknown[] = [this.ids];
  private lastId: string | undefined;
  private lastIndex = -1;
  /** Rows packed since the last {@link take}. */
  rows = 0;

  impulse(r: ImpulseRow): void {
    const p = r.position;
    const e = r.end;
    const row: unknown[] = [
      ROW_KIND.impulse,
      this.index(r.matchId),
      r.seq,
      p.turn,
      p.impulse,
      p.phase,
      p.step,
      r.activePowers,
      r.choices,
      r.decisions,
      r.chanceDraws,
      r.eventCounts,
      r.eventCountsByPower,
      r.thinkMsBySeat,
      e.turn,
      e.impulse,
      e.phase,
      e.step,
      r.stateHash,
    ];
    if (r.summary !== undefined) row.push(r.summary);
    this.push(row);
  }

  event(r: EventRow): void {
    const p = r.position;
    this.push([ROW_KIND.event, this.index(r.matchId), r.seq, r.impulseSeq, p.turn, p.impulse, p.phase, p.step, r.event]);
  }

  decision(r: DecisionRow): void {
    const p = r.position;
    const row: unknown[] = [ROW_KIND.decision, this.index(r.matchId), r.seq, r.impulseSeq, p.turn, p.impulse, p.phase, p.step, r.power, r.seat, r.prompt, r.optionCount, r.choice, r.thinkMs];
    // The optional fields as an object: JSON leaves out the one that is undefined, as it did.
    if (r.rationale !== undefined || r.strike !== undefined) row.push({ rationale: r.rationale, strike: r.strike });
    this.push(row);
  }

  /** The match row as it is, but its replay's log as one flat list (actor, choice, actor, ...). */
  match(r: MatchRow): void {
    const log = r.result.replay.log;
    const flat: string[] = new Array(log.length * 2);
    for (let i = 0; i < log.length; i++) {
      const entry = log[i] as LogEntry;
      flat[2 * i] = entry.by;
      flat[2 * i + 1] = entry.choice;
    }
    // Shallow copies down to the log: the row's objects are the match result the runner returns.
    const result = { ...r.result, replay: { ...r.result.replay, log: [] } };
    this.push([ROW_KIND.match, this.index(r.matchId), { ...r, result }, flat]);
  }

  /** The batch so far as JSON text, or undefined if empty; the packer starts afresh. */
  take(): PackedBatch | undefined {
    if (this.rows === 0) return undefined;
    const batch: PackedBatch = { json: JSON.stringify(this.rowsOut) };
    this.ids = [];
    this.rowsOut = [this.ids];
    this.lastId = undefined;
    this.lastIndex = -1;
    this.rows = 0;
    return batch;
  }

  private push(row: unknown[]): void {
    this.rowsOut.push(row);
    this.rows++;
  }

  /** The index of `matchId` in the batch's list of match ids (a batch holds one match or a few). */
  private index(matchId: string): number {
    if (matchId === this.lastId) return this.lastIndex;
    let i = this.ids.indexOf(matchId);
    if (i < 0) i = this.ids.push(matchId) - 1;
    this.lastId = matchId;
    this.lastIndex = i;
    return i;
  }
}

const position = (row: readonly unknown[], at: number): Position => ({
  turn: row[at] as number,
  impulse: row[at + 1] as number,
  phase: row[at + 2] as string,
  step: row[at + 3] as string,
});

/** Hand every row of a {@link PackedBatch} to `sink`, in order, as the runner handed them to the RemoteSink. */
export function unpackRows(batch: PackedBatch, sink: RowCalls): void {
  const text = (batch as Partial<PackedBatch> | undefined)?.json;
  if (typeof text !== 'string') {
    throw new SalientError('BAD_ARGUMENT', 'unpackRows: a packed batch is { json: string }; was it posted by a RemoteSink of another version?');
  }
  const all = JSON.parse(text) as unknown[];
  const ids = all[0] as string[];
  for (let k = 1; k < all.length; k++) {
    const r = all[k] as unknown[];
    const matchId = ids[r[1] as number] as string;
    switch (r[0]) {
      case ROW_KIND.impulse: {
        const row: ImpulseRow = {
          matchId,
          seq: r[2] as number,
          position: position(r, 3),
          activePowers: r[7] as string[],
          choices: r[8] as string[],
          decisions: r[9] as number,
          chanceDraws: r[10] as number,
          eventCounts: r[11] as Record<string, number>,
          eventCountsByPower: r[12] as Record<string, Record<string, number>>,
          thinkMsBySeat: r[13] as Record<string, number>,
          end: position(r, 14),
          stateHash: r[18] as string,
        };
        if (r.length > 19) row.summary = r[19] as Summary;
        sink.impulse(row);
        break;
      }
      case ROW_KIND.event:
        sink.event({ matchId, seq: r[2] as number, impulseSeq: r[3] as number, position: position(r, 4), event: r[8] as GameEvent });
        break;
      case ROW_KIND.decision: {
        const row: DecisionRow = {
          matchId,
          seq: r[2] as number,
          impulseSeq: r[3] as number,
          position: position(r, 4),
          power: r[8] as string,
          seat: r[9] as string,
          prompt: r[10] as string,
          optionCount: r[11] as number,
          choice: r[12] as string,
          thinkMs: r[13] as number,
        };
        if (r.length > 14) {
          const { rationale, strike } = r[14] as { rationale?: string; strike?: number };
          if (rationale !== undefined) row.rationale = rationale;
          if (strike !== undefined) row.strike = strike;
        }
        sink.decision?.(row);
        break;
      }
      case ROW_KIND.match: {
        const row = r[2] as MatchRow;
        const flat = r[3] as string[];
        const log: LogEntry[] = new Array(flat.length / 2);
        for (let i = 0; i < log.length; i++) log[i] = { by: flat[2 * i] as string, choice: flat[2 * i + 1] as string };
        row.result.replay.log = log;
        sink.match(row);
        break;
      }
      default:
        throw new SalientError('BAD_ARGUMENT', `unpackRows: row ${k} has unknown kind ${JSON.stringify(r[0])}; the batch is damaged or from another version.`);
    }
  }
}
