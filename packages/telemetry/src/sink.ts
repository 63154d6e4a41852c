/**
 * `ClickHouseSink`: the runner's telemetry rows into ClickHouse, per match, exactly once.
 *
 * Each row is encoded (a JSONEachRow line) as it arrives and buffered with its match. At the
 * runner's `flush` (every impulse boundary and the end of a match) a finished match, or an
 * unfinished one whose buffer reached `batchRows`, moves into the pending batch. By default the
 * batch is written in the background, when it holds `batchRows` rows or its oldest match has waited
 * `lingerMs` and the store has rested since the last write (`writeShare`), one batch at a time, and
 * `flush` does not wait for ClickHouse: the game goes on while
 * the previous batch is written. Only when a full batch is waiting behind the one being written
 * does `flush` wait (backpressure), so at most about two batches are held in memory. With
 * `lingerMs: 0` every `flush` writes what is due before it resolves, as the runner sees it.
 *
 * Guarantees: a batch inserts its rows table by table and the match rows last, and batches go one
 * after another, so a `matches` row always means every other row of that match is in; rows carry
 * deterministic keys (ReplacingMergeTree, read with FINAL), so a re-sent row is one copy. If the
 * server cannot be reached, the matches of that batch (and any match that lost a part) go whole to
 * the spool, to be delivered later; from then on, until the store's link finds the server back, every
 * finished match goes straight to the spool without waiting on the server (an insert waits at most
 * `retry.timeoutMs`, so a hung server holds a writer for that long once, not per match). Any other failure (credentials, schema) spools the finished
 * matches of the batch and is thrown: from the `flush` that wrote it with `lingerMs: 0`, else from
 * the next `flush` or `drain`. `drain` (and `Telemetry.close`) writes every finished match and
 * waits for it; a process that dies before that loses the matches still waiting.
 */
import type { DecisionRow, EventRow, ImpulseRow, MatchRow, TelemetrySink } from '@salient/runner';
import { SalientError } from '@salient/engine';
import type { Store } from './client.ts';
import { copyOf } from './counted.ts';
import { countLanded, DEFAULT_RETRY, insertRows, type RetryPolicy } from './insert.ts';
import {
  decisionLine,
  DEFAULT_EVENT_CLASSES,
  eventLine,
  CurveTracker,
  impulseRecord,
  matchLine,
  matchSampler,
  type EncodedRows,
  type EventClasses,
  type RowLine,
  type SidesLookup,
} from './records.ts';
import { deliverSpool, writeSpool, type SpooledMatch } from './spool.ts';

/** Options of {@link ClickHouseSink}. */
export interface SinkOptions {
  /** Where undeliverable matches are spooled. */
  spoolDir: string;
  /**
   * Rows per batch (default 20000): the pending batch is written once it holds this many, and an
   * unfinished match whose buffer reaches this many sends what it has at its next impulse boundary.
   */
  batchRows?: number;
  /** Share of decisions kept, 0..1 (default 0.1); chosen by a hash of match id and sequence number. */
  decisionSample?: number;
  /**
   * How long a finished match may wait, at most, for more to be written with it (default 1000: a
   * running tournament shows on the dashboard within about a second). Each write costs the store a
   * fixed part (on chdb and the Debian server some 0.2–0.4 s of CPU for a part per table and per view,
   * whatever the rows) besides its rows, so a store fed faster than it needs can be given a longer
   * linger to write fast games in batches of up to `batchRows`: the captured rows of 1000 Blitz! A
   * games written 200 games a write cost chdb 2.1–3.3 ms of CPU per game and 600 a write 1.5–2.1 (the
   * Debian server 2.2–2.3 and 1.3–2.2), on a loaded machine. The
   * write runs in the background; call {@link ClickHouseSink.drain} (or `Telemetry.close()`) before
   * exiting, since rows still waiting in a process that dies are lost. `0`: no background writes;
   * every `flush` writes what is due before it resolves (a match is in the store when `runMatch`
   * resolves, and a failure is thrown into that match).
   */
  lingerMs?: number;
  /**
   * The share of the time the store may spend writing this sink's batches, 0 < share <= 1 (default
   * 0.1). A write costs the store much the same for a few rows as for thousands (a part per table and
   * per view, each written out and later merged: measured on chdb about 0.4 s a batch, of which 0.15 s
   * for the dashboard's counting, for anything from 1 to 150 Blitz! A games), so writing every
   * `lingerMs` whatever that cost made the store's CPU per game grow as games got faster. After a
   * background write that took W ms the next one waits until W × (1 − share) / share ms have passed
   * (9 W at 0.1): matches wait longer to land only while writes are slow, and the store's work per game
   * falls as batches grow. A full batch (`batchRows`), `drain` and `lingerMs: 0` do not wait.
   */
  writeShare?: number;
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

type Lines = Record<RowsTable, RowLine[]>;
const noLines = (): Lines => ({ impulses: [], events: [], decisions: [] });

interface MatchBuffer {
  matchId: string;
  /** Rows not yet handed to a batch (and, once the match is offline, every row not landed). */
  rows: Lines;
  count: number;
  match?: RowLine;
  /** A part of this match could not be delivered: keep everything for the spool. */
  offline: boolean;
  /** Whether a decision of this match is kept (see `sampled`). */
  keep?: (seq: number) => boolean;
}

/** What one match contributes to a batch: some of its rows, and with `final` its match row. */
interface Part {
  buf: MatchBuffer;
  rows: Lines;
  count: number;
  final: boolean;
}

interface Batch {
  parts: Part[];
  rows: number;
}

const DEFAULT_BATCH_ROWS = 20_000;
const DEFAULT_LINGER_MS = 1000;
const DEFAULT_WRITE_SHARE = 0.1;
export const DEFAULT_DECISION_SAMPLE = 0.1;

/** A {@link TelemetrySink} writing to ClickHouse. Several matches (also concurrent ones) may share one. */
export class ClickHouseSink implements TelemetrySink {
  /** Matches this sink wrote to the spool. */
  readonly spooled: SpooledMatch[] = [];
  private readonly open = new Map<string, MatchBuffer>();
  /** The batch being filled, and when its first part came. */
  private pending: Batch = { parts: [], rows: 0 };
  private pendingSince = 0;
  /** The batch being written, if any (one at a time, so a later batch never overtakes an earlier one). */
  private writing: Promise<void> | undefined;
  private writingRows = 0;
  private timer: NodeJS.Timeout | undefined;
  /** A failure of a background write, reported by the next `flush` or `drain`. */
  private deferred: unknown;
  private readonly batchRows: number;
  private readonly sample: number;
  private readonly lingerMs: number;
  /** Rest after a background write, per ms it took (see `writeShare`). */
  private readonly restPerMs: number;
  /** When the store has rested enough since the last write (epoch ms). */
  private restedAt = 0;
  private readonly retry: RetryPolicy;
  private readonly classes: EventClasses;
  /** Each unfinished match's curve, for its match row (migration 4). */
  private readonly curves = new CurveTracker();
  private awaitingRedelivery = false;

  constructor(
    private readonly store: Store,
    private readonly options: SinkOptions,
  ) {
    const batch = options.batchRows ?? DEFAULT_BATCH_ROWS;
    const sample = options.decisionSample ?? DEFAULT_DECISION_SAMPLE;
    const linger = options.lingerMs ?? DEFAULT_LINGER_MS;
    if (!Number.isInteger(batch) || batch < 1) throw new SalientError('BAD_ARGUMENT', `batchRows must be a whole number of at least 1; got ${batch}.`);
    if (!(sample >= 0 && sample <= 1)) throw new SalientError('BAD_ARGUMENT', `decisionSample must be between 0 and 1; got ${sample}.`);
    if (!(linger >= 0 && Number.isFinite(linger))) throw new SalientError('BAD_ARGUMENT', `lingerMs must be a number of milliseconds, 0 or more; got ${linger}.`);
    const share = options.writeShare ?? DEFAULT_WRITE_SHARE;
    if (!(share > 0 && share <= 1)) throw new SalientError('BAD_ARGUMENT', `writeShare must be a share of the time above 0 and at most 1; got ${share}.`);
    this.restPerMs = (1 - share) / share;
    this.batchRows = batch;
    this.sample = sample;
    this.lingerMs = linger;
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.classes = options.eventClasses ?? DEFAULT_EVENT_CLASSES;
  }

  impulse(row: ImpulseRow): void {
    const record = impulseRecord(row, this.classes);
    this.curves.add(record);
    this.add(row.matchId, 'impulses', JSON.stringify(record));
  }

  event(row: EventRow): void {
    this.add(row.matchId, 'events', eventLine(row));
  }

  decision(row: DecisionRow): void {
    // A strike is kept whatever the sample says (see DecisionRow.strike).
    if (row.strike !== undefined || this.keepsDecision(row.matchId, row.seq)) {
      const buf = this.buffer(row.matchId);
      buf.rows.decisions.push(decisionLine(row));
      buf.count++;
    }
  }

  /** Whether decision `seq` of `matchId` is in the sample kept (see `sampled`); the runner asks before building its row. */
  keepsDecision(matchId: string, seq: number): boolean {
    const buf = this.buffer(matchId);
    return (buf.keep ??= matchSampler(matchId, this.sample))(seq);
  }

  match(row: MatchRow): void {
    this.buffer(row.matchId).match = matchLine(row, this.options.sides, this.curves.take(row.matchId));
  }

  /**
   * Rows of one match encoded elsewhere (a `RemoteSink` on a game thread), added as they are: the
   * decisions were sampled there, so every decision line is kept. Call `flush` after, as the runner
   * would.
   */
  lines(rows: EncodedRows): void {
    const buf = this.buffer(rows.matchId);
    for (const table of ROWS_TABLES) {
      const lines = rows[table];
      if (lines.length === 0) continue;
      const held = buf.rows[table];
      for (let i = 0; i < lines.length; i++) held.push(lines[i] as RowLine);
      buf.count += lines.length;
    }
    if (rows.match !== undefined) buf.match = rows.match;
  }

  /**
   * Move what is due into the pending batch: finished matches, and unfinished ones whose buffer
   * reached `batchRows`. With `lingerMs: 0`, write it and return the write to wait for. Otherwise
   * start a background write if one is due, and return a promise only while a full batch is queued
   * behind the one being written (nothing to wait for otherwise, so the runner does not).
   * Throws the failure of an earlier background write.
   */
  flush(): Promise<void> | undefined {
    this.throwDeferred();
    this.collect();
    if (this.lingerMs === 0) return this.writeAll();
    this.pump();
    if (this.writing && this.pending.rows >= this.batchRows) return this.backpressure();
    return undefined;
  }

  /** Wait while a full batch is queued behind the one being written; throws a failure reported meanwhile. */
  private async backpressure(): Promise<void> {
    while (this.writing && this.pending.rows >= this.batchRows) {
      await this.writing;
      this.pump();
    }
    this.throwDeferred();
  }

  /** Write every finished match now and wait for it (and for what was being written). Unfinished matches keep buffering. */
  async drain(): Promise<void> {
    this.collect();
    await this.writeAll();
  }

  /** Matches with rows not yet written, finished or not (for progress displays and tests). */
  get buffered(): number {
    const ids = new Set(this.open.keys());
    for (const p of this.pending.parts) ids.add(p.buf.matchId);
    return ids.size + (this.writing ? this.writingMatches : 0);
  }

  /** Rows held in memory and not yet written: the pending batch and the one being written. */
  get backlogRows(): number {
    return this.pending.rows + this.writingRows;
  }

  private writingMatches = 0;

  private throwDeferred(): void {
    const failed = this.deferred;
    if (failed === undefined) return;
    this.deferred = undefined;
    throw failed;
  }

  private buffer(matchId: string): MatchBuffer {
    let buf = this.open.get(matchId);
    if (!buf) {
      buf = { matchId, rows: noLines(), count: 0, offline: false };
      this.open.set(matchId, buf);
    }
    return buf;
  }

  private add(matchId: string, table: RowsTable, line: RowLine): void {
    const buf = this.buffer(matchId);
    buf.rows[table].push(line);
    buf.count++;
  }

  /** Hand finished matches, and unfinished ones over `batchRows`, to the pending batch. */
  private collect(): void {
    for (const [matchId, buf] of this.open) {
      const final = buf.match !== undefined;
      if (!final && (buf.offline || buf.count < this.batchRows)) continue;
      if (final) this.open.delete(matchId);
      const part: Part = { buf, rows: buf.rows, count: buf.count, final };
      buf.rows = noLines();
      buf.count = 0;
      if (this.pending.parts.length === 0) this.pendingSince = Date.now();
      this.pending.parts.push(part);
      this.pending.rows += part.count + (final ? 1 : 0);
    }
  }

  /**
   * Start writing the pending batch if nothing is being written and it is due (full, or its oldest
   * match waited `lingerMs` and the store rested since the last write); else make sure a timer will.
   */
  private pump(force = false): void {
    if (this.writing || this.pending.parts.length === 0) return;
    const now = Date.now();
    const wait = Math.max(this.lingerMs - (now - this.pendingSince), this.restedAt - now);
    if (!force && this.pending.rows < this.batchRows && wait > 0) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.pump(true);
      }, wait).unref();
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = { parts: [], rows: 0 };
    this.writingRows = batch.rows;
    this.writingMatches = new Set(batch.parts.map((p) => p.buf.matchId)).size;
    const began = Date.now();
    const run = this.write(batch)
      .catch((e: unknown) => {
        // Nobody awaits a background write: keep the first failure for the next flush or drain.
        this.deferred ??= e;
      })
      .finally(() => {
        const ended = Date.now();
        this.restedAt = ended + (ended - began) * this.restPerMs;
        this.writing = undefined;
        this.writingRows = 0;
        this.writingMatches = 0;
        // What came in meanwhile may be due already.
        this.pump();
      });
    this.writing = run;
  }

  /** Write everything pending, wait for the writes, and throw the first failure. */
  private async writeAll(): Promise<void> {
    while (this.writing || this.pending.parts.length > 0) {
      if (this.writing) await this.writing;
      else this.pump(true);
    }
    this.throwDeferred();
  }

  /**
   * Write one batch, table by table and the match rows last. Parts of matches already offline are
   * not sent. If the store is unreachable, every match of the batch goes offline; an offline match
   * keeps all its unlanded rows and goes whole to the spool when its match row comes.
   */
  private async write(batch: Batch): Promise<void> {
    const send = batch.parts.filter((p) => !p.buf.offline);
    let failure: unknown;
    // The server is known to be away (this or another writer of the process found it so, and no
    // probe has found it back): spool at once rather than wait on it match after match.
    if (!this.store.link.up) {
      for (const p of send) p.buf.offline = true;
    } else {
      try {
        for (const table of ROWS_TABLES) await insertRows(this.store, table, send.flatMap((p) => p.rows[table]), this.retry);
        await insertRows(
          this.store,
          'matches',
          send.flatMap((p) => (p.final ? [p.buf.match as RowLine] : [])),
          this.retry,
        );
        // The dashboard's aggregates count each match once (migration 6): the copy now landed.
        await countLanded(this.store, send.flatMap((p) => (p.final && p.buf.match !== undefined ? [copyOf(p.buf.match)] : [])), this.retry);
      } catch (e) {
        // Whatever went wrong, nobody will send these rows again: keep them (the finished matches go to
        // the spool), and report anything but an outage.
        for (const p of send) p.buf.offline = true;
        if (this.store.unreachable(e)) this.store.link.down(e);
        else failure = e;
      }
    }
    for (const p of batch.parts) {
      if (!p.buf.offline) continue;
      const rows = p.buf.rows;
      for (const table of ROWS_TABLES) if (p.rows[table].length) rows[table] = p.rows[table].concat(rows[table]);
      p.buf.count += p.count;
      if (p.final) await this.spool(p.buf);
    }
    if (failure !== undefined) throw failure;
    if (send.some((p) => p.final && !p.buf.offline) && this.awaitingRedelivery && this.options.redeliver !== false) {
      const { pending } = await deliverSpool(this.store, this.options.spoolDir, this.retry);
      this.awaitingRedelivery = pending.length > 0;
    }
  }

  private async spool(b: MatchBuffer): Promise<void> {
    const lines = ROWS_TABLES.flatMap((table) => b.rows[table].map((row) => ({ table, row })));
    const spooled = await writeSpool(this.options.spoolDir, b.matchId, [...lines, { table: 'matches', row: b.match as RowLine }]);
    this.spooled.push(spooled);
    this.awaitingRedelivery = true;
    this.options.onSpool?.(spooled);
  }
}
