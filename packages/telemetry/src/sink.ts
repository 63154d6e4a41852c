/**
 * `ClickHouseSink`: the runner's telemetry rows into ClickHouse, per match, exactly once.
 *
 * Rows are buffered per match. At an impulse boundary (the runner's `flush`) a match whose buffer has
 * reached `batchRows` is inserted; at the end of a match the rest is inserted and then the match row,
 * so a `matches` row always means every other row of that match is in. If the server cannot be
 * reached, the match carries on: its rows stay in memory and at its end the whole remainder goes to
 * the spool, to be delivered later. Any other failure (credentials, schema) is thrown.
 */
import type { DecisionRow, EventRow, ImpulseRow, MatchRow, TelemetrySink } from '@salient/runner';
import { SalientError } from '@salient/engine';
import type { Store } from './client.ts';
import { DEFAULT_RETRY, insertRows, type RetryPolicy } from './insert.ts';
import {
  decisionRecord,
  DEFAULT_EVENT_CLASSES,
  eventRecord,
  impulseRecord,
  matchRecord,
  sampled,
  type ChRow,
  type EventClasses,
  type SidesLookup,
} from './records.ts';
import type { RowTable } from './schema.ts';
import { deliverSpool, writeSpool, type SpooledMatch } from './spool.ts';

/** Options of {@link ClickHouseSink}. */
export interface SinkOptions {
  /** Where undeliverable matches are spooled. */
  spoolDir: string;
  /** Insert a match's buffered rows at an impulse boundary once there are this many (default 5000). */
  batchRows?: number;
  /** Share of decisions kept, 0..1 (default 0.1); chosen by a hash of match id and sequence number. */
  decisionSample?: number;
  /** Sides of a match's scenario, to name the bots of sides played by power seats. */
  sides?: SidesLookup;
  /** Event types counted as moves, combats and losses in impulse rows (default Blitz!'s names). */
  eventClasses?: EventClasses;
  /** Retries while the server is unreachable, before spooling. */
  retry?: RetryPolicy;
  /**
   * After a match lands, deliver the matches this sink spooled earlier (default true), so a long
   * run heals itself once the server is back.
   */
  redeliver?: boolean;
  /** Told about each match written to the spool, so the user can be told. */
  onSpool?: (match: SpooledMatch) => void;
}

interface MatchBuffer {
  rows: Record<Exclude<RowTable, 'matches'>, ChRow[]>;
  count: number;
  match?: ChRow;
  /** The server was unreachable during this match: keep everything for the spool. */
  offline: boolean;
}

const DEFAULT_BATCH_ROWS = 5000;
const DEFAULT_DECISION_SAMPLE = 0.1;

/** A {@link TelemetrySink} writing to ClickHouse. Several matches may share one sink. */
export class ClickHouseSink implements TelemetrySink {
  /** Matches this sink wrote to the spool. */
  readonly spooled: SpooledMatch[] = [];
  private readonly buffers = new Map<string, MatchBuffer>();
  private readonly batchRows: number;
  private readonly sample: number;
  private readonly retry: RetryPolicy;
  private readonly classes: EventClasses;
  private queue: Promise<void> = Promise.resolve();
  private awaitingRedelivery = false;

  constructor(
    private readonly store: Store,
    private readonly options: SinkOptions,
  ) {
    const batch = options.batchRows ?? DEFAULT_BATCH_ROWS;
    const sample = options.decisionSample ?? DEFAULT_DECISION_SAMPLE;
    if (!Number.isInteger(batch) || batch < 1) throw new SalientError('BAD_ARGUMENT', `batchRows must be a whole number of at least 1; got ${batch}.`);
    if (!(sample >= 0 && sample <= 1)) throw new SalientError('BAD_ARGUMENT', `decisionSample must be between 0 and 1; got ${sample}.`);
    this.batchRows = batch;
    this.sample = sample;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.classes = options.eventClasses ?? DEFAULT_EVENT_CLASSES;
  }

  impulse(row: ImpulseRow): void {
    this.add(row.matchId, 'impulses', impulseRecord(row, this.classes));
  }

  event(row: EventRow): void {
    this.add(row.matchId, 'events', eventRecord(row));
  }

  decision(row: DecisionRow): void {
    if (sampled(row.matchId, row.seq, this.sample)) this.add(row.matchId, 'decisions', decisionRecord(row));
  }

  match(row: MatchRow): void {
    this.buffer(row.matchId).match = matchRecord(row, this.options.sides);
  }

  /**
   * Insert what is due: every finished match (its rows, then its match row, or to the spool), and the
   * buffers of unfinished matches that reached `batchRows`. Flushes run one at a time.
   */
  flush(): Promise<void> {
    const run = this.queue.then(() => this.flushNow());
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Matches with rows not yet written (for progress displays and tests). */
  get buffered(): number {
    return this.buffers.size;
  }

  private async flushNow(): Promise<void> {
    for (const [matchId, buf] of [...this.buffers]) {
      if (buf.match) await this.finish(matchId, buf);
      else if (!buf.offline && buf.count >= this.batchRows) await this.send(buf);
    }
  }

  private buffer(matchId: string): MatchBuffer {
    let buf = this.buffers.get(matchId);
    if (!buf) {
      buf = { rows: { impulses: [], events: [], decisions: [] }, count: 0, offline: false };
      this.buffers.set(matchId, buf);
    }
    return buf;
  }

  private add(matchId: string, table: Exclude<RowTable, 'matches'>, row: ChRow): void {
    const buf = this.buffer(matchId);
    buf.rows[table].push(row);
    buf.count++;
  }

  /** Insert a match's buffered rows; on an unreachable server, mark the match offline instead. */
  private async send(buf: MatchBuffer): Promise<void> {
    try {
      for (const table of ['impulses', 'events', 'decisions'] as const) {
        const rows = buf.rows[table];
        await insertRows(this.store, table, rows, this.retry);
        buf.rows[table] = [];
        buf.count -= rows.length;
      }
    } catch (e) {
      if (!this.store.unreachable(e)) throw e;
      buf.offline = true;
    }
  }

  private async finish(matchId: string, buf: MatchBuffer): Promise<void> {
    const match = buf.match as ChRow;
    if (!buf.offline) await this.send(buf);
    if (!buf.offline) {
      try {
        await insertRows(this.store, 'matches', [match], this.retry);
      } catch (e) {
        if (!this.store.unreachable(e)) throw e;
        buf.offline = true;
      }
    }
    this.buffers.delete(matchId);
    if (buf.offline) {
      const lines = (['impulses', 'events', 'decisions'] as const).flatMap((table) => buf.rows[table].map((row) => ({ table, row })));
      const spooled = await writeSpool(this.options.spoolDir, matchId, [...lines, { table: 'matches', row: match }]);
      this.spooled.push(spooled);
      this.awaitingRedelivery = true;
      this.options.onSpool?.(spooled);
      return;
    }
    if (this.awaitingRedelivery && this.options.redeliver !== false) {
      const { pending } = await deliverSpool(this.store, this.options.spoolDir, this.retry);
      this.awaitingRedelivery = pending.length > 0;
    }
  }
}
