/**
 * `ClickHouseSink`: the runner's telemetry rows into ClickHouse, per match, exactly once.
 *
 * Rows are buffered per match. At an impulse boundary (the runner's `flush`) a match whose buffer has
 * reached `batchRows` is inserted, which bounds memory in long games. When a match ends, its remaining
 * rows are inserted and then its match row, so a `matches` row always means every other row of that
 * match is in. If the server cannot be reached, the match carries on: its rows stay in memory and at
 * its end the whole remainder goes to the spool, to be delivered later. Any other failure
 * (credentials, schema) is thrown.
 *
 * Each insert makes a new part in every table it touches, which costs a few milliseconds on the
 * embedded engine and tens of milliseconds on a server, against ten or twenty for a whole Blitz!
 * match; `lingerMs` lets finished matches wait and go in together.
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
import { deliverSpool, writeSpool, type SpooledMatch } from './spool.ts';

/** Options of {@link ClickHouseSink}. */
export interface SinkOptions {
  /** Where undeliverable matches are spooled. */
  spoolDir: string;
  /**
   * Insert a match's buffered rows at an impulse boundary once there are this many (default 5000);
   * with `lingerMs`, also write the waiting finished matches once they hold this many rows.
   */
  batchRows?: number;
  /** Share of decisions kept, 0..1 (default 0.1); chosen by a hash of match id and sequence number. */
  decisionSample?: number;
  /**
   * How long a finished match may wait to be written together with the next ones (default 0: written
   * at its end, before the runner's last `flush` resolves). With a wait, call {@link ClickHouseSink.drain}
   * (or `Telemetry.close()`) before exiting; rows still waiting in a process that dies are lost.
   */
  lingerMs?: number;
  /** Sides of a match's scenario, to name the bots of sides played by power seats. */
  sides?: SidesLookup;
  /** Event types counted as moves, combats and losses in impulse rows (default Blitz!'s names). */
  eventClasses?: EventClasses;
  /** Retries while the server is unreachable, before spooling. */
  retry?: RetryPolicy;
  /**
   * After matches land, deliver the matches this sink spooled earlier (default true), so a long run
   * heals itself once the server is back.
   */
  redeliver?: boolean;
  /** Told about each match written to the spool, so the user can be told. */
  onSpool?: (match: SpooledMatch) => void;
}

type RowsTable = 'impulses' | 'events' | 'decisions';
const ROWS_TABLES: readonly RowsTable[] = ['impulses', 'events', 'decisions'];

interface MatchBuffer {
  matchId: string;
  rows: Record<RowsTable, ChRow[]>;
  count: number;
  match?: ChRow;
  /** The server was unreachable during this match: keep everything for the spool. */
  offline: boolean;
}

const DEFAULT_BATCH_ROWS = 5000;
const DEFAULT_DECISION_SAMPLE = 0.1;

/** A {@link TelemetrySink} writing to ClickHouse. Several matches (also concurrent ones) may share one. */
export class ClickHouseSink implements TelemetrySink {
  /** Matches this sink wrote to the spool. */
  readonly spooled: SpooledMatch[] = [];
  private readonly open = new Map<string, MatchBuffer>();
  /** Finished matches waiting to be written (only with `lingerMs`). */
  private ready: MatchBuffer[] = [];
  private readyRows = 0;
  private readySince = 0;
  private timer: NodeJS.Timeout | undefined;
  /** A failure of a write the timer started, reported by the next `flush` or `drain`. */
  private deferred: unknown;
  private readonly batchRows: number;
  private readonly sample: number;
  private readonly lingerMs: number;
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
    const linger = options.lingerMs ?? 0;
    if (!Number.isInteger(batch) || batch < 1) throw new SalientError('BAD_ARGUMENT', `batchRows must be a whole number of at least 1; got ${batch}.`);
    if (!(sample >= 0 && sample <= 1)) throw new SalientError('BAD_ARGUMENT', `decisionSample must be between 0 and 1; got ${sample}.`);
    if (!(linger >= 0 && Number.isFinite(linger))) throw new SalientError('BAD_ARGUMENT', `lingerMs must be a number of milliseconds, 0 or more; got ${linger}.`);
    this.batchRows = batch;
    this.sample = sample;
    this.lingerMs = linger;
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
   * Insert what is due: finished matches (their rows, then their match rows; or to the spool), and
   * the buffers of unfinished matches that reached `batchRows`. Writes run one at a time.
   */
  flush(): Promise<void> {
    return this.enqueue(() => this.flushNow(false));
  }

  /** Write every finished match now, waiting or not. Unfinished matches keep buffering. */
  drain(): Promise<void> {
    return this.enqueue(() => this.flushNow(true));
  }

  /** Matches with rows not yet written, finished or not (for progress displays and tests). */
  get buffered(): number {
    return this.open.size + this.ready.length;
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    const run = this.queue.then(async () => {
      const failed = this.deferred;
      this.deferred = undefined;
      if (failed !== undefined) throw failed;
      await work();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async flushNow(force: boolean): Promise<void> {
    for (const [matchId, buf] of [...this.open]) {
      if (buf.match) {
        this.open.delete(matchId);
        if (this.ready.length === 0) this.readySince = Date.now();
        this.ready.push(buf);
        this.readyRows += buf.count + 1;
      } else if (!buf.offline && buf.count >= this.batchRows) {
        await this.send(buf);
      }
    }
    if (this.ready.length === 0) return;
    if (force || this.lingerMs === 0 || this.readyRows >= this.batchRows || Date.now() - this.readySince >= this.lingerMs) {
      await this.writeReady();
    } else {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        // Nobody awaits this write; a failure is kept for the next flush or drain to report.
        void this.enqueue(() => this.flushNow(true)).catch((e: unknown) => (this.deferred ??= e));
      }, this.lingerMs - (Date.now() - this.readySince)).unref();
    }
  }

  private buffer(matchId: string): MatchBuffer {
    let buf = this.open.get(matchId);
    if (!buf) {
      buf = { matchId, rows: { impulses: [], events: [], decisions: [] }, count: 0, offline: false };
      this.open.set(matchId, buf);
    }
    return buf;
  }

  private add(matchId: string, table: RowsTable, row: ChRow): void {
    const buf = this.buffer(matchId);
    buf.rows[table].push(row);
    buf.count++;
  }

  /** Insert an unfinished match's buffered rows; on an unreachable server, mark the match offline instead. */
  private async send(buf: MatchBuffer): Promise<void> {
    try {
      for (const table of ROWS_TABLES) {
        const rows = buf.rows[table];
        await insertRows(this.store, table, rows, this.retry);
        buf.rows[table] = [];
        buf.count -= rows.length;
      }
    } catch (e) {
      if (!this.store.unreachable(e)) {
        // The error ends this match in the runner; nothing will finish its buffer.
        this.open.delete(buf.matchId);
        throw e;
      }
      buf.offline = true;
    }
  }

  /** Write the finished matches together, the match rows last; spool them all if the server is unreachable. */
  private async writeReady(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.ready;
    this.ready = [];
    this.readyRows = 0;
    const online = batch.filter((b) => !b.offline);
    try {
      for (const table of ROWS_TABLES) await insertRows(this.store, table, online.flatMap((b) => b.rows[table]), this.retry);
      await insertRows(this.store, 'matches', online.map((b) => b.match as ChRow), this.retry);
    } catch (e) {
      // These matches are over and nobody will send their rows again: keep them in the spool whatever
      // went wrong, and report anything but an outage.
      for (const b of online) b.offline = true;
      for (const b of batch) await this.spool(b);
      if (!this.store.unreachable(e)) throw e;
      return;
    }
    for (const b of batch) if (b.offline) await this.spool(b);
    if (online.length > 0 && this.awaitingRedelivery && this.options.redeliver !== false) {
      const { pending } = await deliverSpool(this.store, this.options.spoolDir, this.retry);
      this.awaitingRedelivery = pending.length > 0;
    }
  }

  private async spool(b: MatchBuffer): Promise<void> {
    const lines = ROWS_TABLES.flatMap((table) => b.rows[table].map((row) => ({ table, row })));
    const spooled = await writeSpool(this.options.spoolDir, b.matchId, [...lines, { table: 'matches', row: b.match as ChRow }]);
    this.spooled.push(spooled);
    this.awaitingRedelivery = true;
    this.options.onSpool?.(spooled);
  }
}
