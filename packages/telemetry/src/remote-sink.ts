/**
 * Telemetry from a game thread to the thread that owns the store (see ARCHITECTURE.md, "Telemetry":
 * the process that owns the embedded store owns it alone; worker threads send their rows to it).
 *
 * On the game thread, {@link RemoteSink} keeps the runner's rows as they come and posts them, as one
 * JSON text (by default the rows as arrays of their fields, see packed-rows.ts), at the first `flush`
 * after a match ended (the runner flushes at every impulse boundary and at the end of a match), or
 * after `packRows` rows of unfinished matches piled up. One message per match, and JSON text rather
 * than a structured clone of the row objects, because the game thread pays for the copy: JSON.stringify
 * of a match's rows costs about half of cloning them, and a posted string is copied in one piece. On
 * the store's thread, {@link serveSink} hands each batch to a real sink (a `ClickHouseSink`), row by
 * row in order, then calls its `flush`, and acknowledges the batch. The game side waits in `flush`
 * only while more than `maxUnacked` batches are unacknowledged, so memory stays bounded when the store
 * falls behind. A failure on the store side is reported to the game side by the next `flush`, or by
 * `close`, which also makes the store side drain (write every finished match) and waits for it.
 */
import type { DecisionRow, EventRow, ImpulseRow, MatchRow, TelemetrySink } from '@salient/runner';
import { SalientError, type ErrorCode } from '@salient/engine';
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
import { DEFAULT_DECISION_SAMPLE } from './sink.ts';
import { RowPacker, unpackRows, type PackedBatch } from './packed-rows.ts';

/** What both ends need of a port: a `MessagePort`, `parentPort` or a `Worker`. */
export interface SinkPort {
  postMessage(value: unknown): void;
  on(event: 'message', listener: (value: unknown) => void): unknown;
  off(event: 'message', listener: (value: unknown) => void): unknown;
}

/** One runner call: `i` impulse, `e` event, `d` decision, `m` match. */
type Call = { k: 'i'; r: ImpulseRow } | { k: 'e'; r: EventRow } | { k: 'd'; r: DecisionRow } | { k: 'm'; r: MatchRow };

interface WireError {
  name: string;
  message: string;
  code?: string;
  stack?: string;
}

/** Messages of this protocol carry `salientSink`, so a port may carry other messages too. */
type ToStore =
  | { salientSink: 'rows'; id: number; json: string }
  | { salientSink: 'lines'; id: number; matches: PackedRows[] }
  | { salientSink: 'packed'; id: number; batch: PackedBatch }
  | { salientSink: 'close' };

/**
 * {@link EncodedRows} as posted: each table's lines joined by newlines into one text ('' for none).
 * A JSON line never holds a raw newline, so splitting gives the lines back exactly. The game thread
 * pays for the copy of what it posts, and a few long strings are copied as a few blocks, where
 * hundreds of short ones cost a header and a call each.
 */
interface PackedRows {
  matchId: string;
  impulses: string;
  events: string;
  decisions: string;
  match?: RowLine;
}

const joined = (lines: readonly RowLine[]): string => (lines.length === 0 ? '' : lines.length === 1 ? (lines[0] as RowLine) : lines.join('\n'));
const split = (text: string): RowLine[] => (text === '' ? [] : text.split('\n'));

function pack(rows: EncodedRows): PackedRows {
  const p: PackedRows = { matchId: rows.matchId, impulses: joined(rows.impulses), events: joined(rows.events), decisions: joined(rows.decisions) };
  if (rows.match !== undefined) p.match = rows.match;
  return p;
}

function unpack(p: PackedRows): EncodedRows {
  const rows: EncodedRows = { matchId: p.matchId, impulses: split(p.impulses), events: split(p.events), decisions: split(p.decisions) };
  if (p.match !== undefined) rows.match = p.match;
  return rows;
}
type ToGame = { salientSink: 'ack'; id: number; error?: WireError } | { salientSink: 'closed'; error?: WireError };

const DEFAULT_MAX_UNACKED = 32;
const DEFAULT_PACK_ROWS = 5000;

function toWire(e: unknown): WireError {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return { name: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}), ...(e.stack ? { stack: e.stack } : {}) };
  }
  return { name: 'Error', message: String(e) };
}

function fromWire(w: WireError): Error {
  const e = w.code ? new SalientError(w.code as ErrorCode, w.message) : new Error(w.message);
  if (!w.code && w.name !== 'Error') Object.defineProperty(e, 'name', { value: w.name });
  // Keep the store side's stack: that is where it went wrong.
  if (w.stack) e.stack = `${w.stack}\n    (reported by the store's thread)`;
  return e;
}

function isMessage(v: unknown): v is { salientSink: string } {
  return typeof v === 'object' && v !== null && typeof (v as { salientSink?: unknown }).salientSink === 'string';
}

/** Options of {@link RemoteSink}. */
export interface RemoteSinkOptions {
  /**
   * Batches posted and not yet acknowledged by the store side, at most (default 32); past that,
   * `flush` waits for acknowledgements.
   */
  maxUnacked?: number;
  /**
   * Rows held at most before a `flush` posts them although no match ended (default 5000), so a long
   * match does not pile up on the game thread.
   */
  packRows?: number;
  /**
   * Share of decisions sent, 0..1, chosen like `ClickHouseSink` does (by a hash of match id and
   * sequence number). With `rows` (default 1: all) the store sink samples again, so giving its
   * `decisionSample` sends exactly the decisions it keeps. With `packed` (default 0.1, the store
   * sink's default) the store sink samples again too, at its own rate: give both the same. With
   * `lines` (default 0.1) this is the sampling: the store keeps every decision line it is sent.
   */
  decisionSample?: number;
  /**
   * What is posted (default `packed`): `packed` posts the runner's rows as JSON arrays of their
   * fields (see packed-rows.ts) for any {@link TelemetrySink}: the least work on the game thread, the
   * encoding on the store's (Blitz! A, random bots: game thread +11% against +39% with `lines`, in
   * bench/telemetry-ab.ts; but both threads together about 0.3 ms a game more than `lines`, for the
   * JSON text written and parsed again); `rows` posts the row objects as JSON text, for any sink too; `lines`
   * encodes every row on the game thread as the store writes it (a ClickHouse line), so the store's
   * thread only batches and inserts, and needs a sink that takes encoded rows (`ClickHouseSink`).
   */
  encoding?: 'lines' | 'rows' | 'packed';
  /** With `lines`: sides of a match's scenario, as `ClickHouseSink`'s `sides` option. */
  sides?: SidesLookup;
  /** With `lines`: event classes of impulse rows, as `ClickHouseSink`'s `eventClasses` option. */
  eventClasses?: EventClasses;
}

/** A sink on the store's thread that takes rows a {@link RemoteSink} encoded (see `ClickHouseSink.lines`). */
export interface LinesSink {
  lines(rows: EncodedRows): void;
}

const takesLines = (sink: TelemetrySink): sink is TelemetrySink & LinesSink => typeof (sink as Partial<LinesSink>).lines === 'function';

/** A {@link TelemetrySink} for a game thread: posts the rows to the thread that serves the store ({@link serveSink}). */
export class RemoteSink implements TelemetrySink {
  private calls: Call[] = [];
  /** With `packed`: the rows packed so far. */
  private readonly packer = new RowPacker();
  /** With `lines`: encoded rows by match, and how many rows they hold. */
  private encoded = new Map<string, EncodedRows>();
  private held = 0;
  private readonly encoding: 'lines' | 'rows' | 'packed';
  private readonly classes: EventClasses;
  /** Each unfinished match's curve, for its match row (migration 4). */
  private readonly curves = new CurveTracker();
  private readonly sides: SidesLookup | undefined;
  /** A match ended since the last post. */
  private ended = false;
  private nextId = 0;
  private readonly unacked = new Set<number>();
  /** Resolved at each acknowledgement, for a `flush` waiting on the backlog. */
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private closing: Promise<void> | undefined;
  private onClosed: ((error: Error | undefined) => void) | undefined;
  private readonly maxUnacked: number;
  private readonly packRows: number;
  private readonly sample: number;
  private readonly samplers = new Map<string, (seq: number) => boolean>();
  private readonly listener = (v: unknown): void => this.receive(v);
  /** Most batches unacknowledged at once (for tests and benchmarks). */
  maxOutstanding = 0;
  /** Times `flush` waited for acknowledgements. */
  waits = 0;

  constructor(
    private readonly port: SinkPort,
    options: RemoteSinkOptions = {},
  ) {
    const max = options.maxUnacked ?? DEFAULT_MAX_UNACKED;
    const sample = options.decisionSample ?? (options.encoding === 'rows' ? 1 : DEFAULT_DECISION_SAMPLE);
    const pack = options.packRows ?? DEFAULT_PACK_ROWS;
    if (!Number.isInteger(max) || max < 1) throw new SalientError('BAD_ARGUMENT', `maxUnacked must be a whole number of at least 1; got ${max}.`);
    if (!Number.isInteger(pack) || pack < 1) throw new SalientError('BAD_ARGUMENT', `packRows must be a whole number of at least 1; got ${pack}.`);
    this.packRows = pack;
    if (options.encoding !== undefined && options.encoding !== 'lines' && options.encoding !== 'rows' && options.encoding !== 'packed') {
      throw new SalientError('BAD_ARGUMENT', `encoding must be 'lines', 'rows' or 'packed'; got ${JSON.stringify(options.encoding)}.`);
    }
    this.encoding = options.encoding ?? 'packed';
    this.classes = options.eventClasses ?? DEFAULT_EVENT_CLASSES;
    this.sides = options.sides;
    if (!(sample >= 0 && sample <= 1)) throw new SalientError('BAD_ARGUMENT', `decisionSample must be between 0 and 1; got ${sample}.`);
    this.maxUnacked = max;
    this.sample = sample;
    port.on('message', this.listener);
  }

  impulse(row: ImpulseRow): void {
    if (this.encoding === 'lines') {
      const record = impulseRecord(row, this.classes);
      this.curves.add(record);
      this.keep(row.matchId, 'impulses', JSON.stringify(record));
    } else if (this.encoding === 'packed') this.packer.impulse(row);
    else this.calls.push({ k: 'i', r: row });
  }

  event(row: EventRow): void {
    if (this.encoding === 'lines') this.keep(row.matchId, 'events', eventLine(row));
    else if (this.encoding === 'packed') this.packer.event(row);
    else this.calls.push({ k: 'e', r: row });
  }

  decision(row: DecisionRow): void {
    // A strike is kept whatever the sample says (see DecisionRow.strike).
    if (row.strike === undefined && !this.keepsDecision(row.matchId, row.seq)) return;
    if (this.encoding === 'lines') this.keep(row.matchId, 'decisions', decisionLine(row));
    else if (this.encoding === 'packed') this.packer.decision(row);
    else this.calls.push({ k: 'd', r: row });
  }

  /** Whether decision `seq` of `matchId` is sent (see `decisionSample`); the runner asks before building its row. */
  keepsDecision(matchId: string, seq: number): boolean {
    if (this.sample >= 1) return true;
    let keep = this.samplers.get(matchId);
    if (!keep) this.samplers.set(matchId, (keep = matchSampler(matchId, this.sample)));
    return keep(seq);
  }

  match(row: MatchRow): void {
    this.samplers.delete(row.matchId);
    if (this.encoding === 'lines') {
      this.hold(row.matchId).match = matchLine(row, this.sides, this.curves.take(row.matchId));
    } else if (this.encoding === 'packed') this.packer.match(row);
    else this.calls.push({ k: 'm', r: row });
    this.ended = true;
  }

  /** Hold one encoded row of `matchId` (counted towards `packRows`). */
  private keep(matchId: string, table: 'impulses' | 'events' | 'decisions', line: string): void {
    this.hold(matchId)[table].push(line);
    this.held++;
  }

  /** The encoded rows held for `matchId`. */
  private hold(matchId: string): EncodedRows {
    let e = this.encoded.get(matchId);
    if (!e) this.encoded.set(matchId, (e = { matchId, impulses: [], events: [], decisions: [] }));
    return e;
  }

  /** Batches posted and not yet acknowledged. */
  get outstanding(): number {
    return this.unacked.size;
  }

  /**
   * Post the rows held as one batch if a match ended since the last post or `packRows` rows are
   * held. Returns nothing (the runner then does not wait) unless more than `maxUnacked` batches are
   * unacknowledged; then a promise that resolves when they are not. Throws a failure the store side
   * reported (once).
   */
  flush(): Promise<void> | undefined {
    this.throwFailure();
    if (this.closing) throw new SalientError('BAD_ARGUMENT', 'RemoteSink: flush after close.');
    if (this.ended || this.calls.length + this.held + this.packer.rows >= this.packRows) this.post();
    if (this.unacked.size > this.maxUnacked) return this.backlog();
    return undefined;
  }

  /** Wait until at most `maxUnacked` batches are unacknowledged; throws a failure reported meanwhile. */
  private async backlog(): Promise<void> {
    this.waits++;
    while (this.unacked.size > this.maxUnacked) await new Promise<void>((resolve) => (this.wake = resolve));
    this.throwFailure();
  }

  /**
   * Post what is left, tell the store side to drain (write every finished match), wait for it, and
   * stop listening on the port. Throws the first failure the store side reported and nobody was told
   * of. Idempotent.
   */
  close(): Promise<void> {
    return (this.closing ??= (async () => {
      this.post();
      const closed = new Promise<Error | undefined>((resolve) => (this.onClosed = resolve));
      this.port.postMessage({ salientSink: 'close' } satisfies ToStore);
      const error = await closed;
      this.port.off('message', this.listener);
      this.failure ??= error;
      this.throwFailure();
    })());
  }

  private post(): void {
    this.ended = false;
    let message: ToStore;
    if (this.encoding === 'lines') {
      if (this.encoded.size === 0) return;
      const matches: PackedRows[] = [];
      for (const rows of this.encoded.values()) matches.push(pack(rows));
      message = { salientSink: 'lines', id: this.nextId++, matches };
      this.encoded = new Map();
      this.held = 0;
    } else if (this.encoding === 'packed') {
      const batch = this.packer.take();
      if (batch === undefined) return;
      message = { salientSink: 'packed', id: this.nextId++, batch };
    } else {
      if (this.calls.length === 0) return;
      message = { salientSink: 'rows', id: this.nextId++, json: JSON.stringify(this.calls) };
      this.calls = [];
    }
    const id = message.id;
    this.unacked.add(id);
    if (this.unacked.size > this.maxOutstanding) this.maxOutstanding = this.unacked.size;
    this.port.postMessage(message);
  }

  private throwFailure(): void {
    const e = this.failure;
    if (e === undefined) return;
    this.failure = undefined;
    throw e;
  }

  private receive(v: unknown): void {
    if (!isMessage(v)) return;
    const m = v as ToGame;
    if (m.salientSink === 'ack') {
      this.unacked.delete(m.id);
      if (m.error) this.failure ??= fromWire(m.error);
      const wake = this.wake;
      this.wake = undefined;
      wake?.();
    } else if (m.salientSink === 'closed') {
      this.onClosed?.(m.error ? fromWire(m.error) : undefined);
    }
  }
}

/** The store side of a {@link RemoteSink}: see {@link serveSink}. */
export interface ServedSink {
  /** Resolves when the game side closed and the sink drained (whether or not that failed). */
  readonly closed: Promise<void>;
  /** Batches handled so far. */
  readonly batches: number;
  /** Resolves when every batch received so far has been handled (fed to the sink and flushed). */
  settled(): Promise<void>;
  /** Stop listening without draining (the game side is gone). */
  stop(): void;
}

/** A sink that can also write everything it holds (as `ClickHouseSink.drain`). */
export type DrainableSink = TelemetrySink & { drain?(): Promise<void> };

/**
 * Serve a {@link RemoteSink} on the store's thread: each batch from `port` goes into `sink` in order
 * (its row methods, then its `flush`, so a `ClickHouseSink` batches and writes in the background as
 * usual), and is acknowledged, with the failure if one was thrown. Batches are handled one at a time.
 * On close, `sink.drain()` (else `sink.flush()`) is awaited and its outcome sent back. `onError` is
 * also told of every failure.
 */
export function serveSink(port: SinkPort, sink: DrainableSink, onError?: (e: unknown) => void): ServedSink {
  let chain: Promise<void> = Promise.resolve();
  let batches = 0;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const fail = (e: unknown): WireError => {
    onError?.(e);
    return toWire(e);
  };
  const handle = async (m: ToStore): Promise<void> => {
    if (m.salientSink === 'rows' || m.salientSink === 'lines' || m.salientSink === 'packed') {
      let error: WireError | undefined;
      try {
        if (m.salientSink === 'lines') {
          if (!takesLines(sink)) {
            throw new SalientError(
              'BAD_ARGUMENT',
              "serveSink: the game side posts encoded lines, which only a ClickHouseSink takes; create its RemoteSink with { encoding: 'rows' } to serve another sink.",
            );
          }
          for (const rows of m.matches) sink.lines(unpack(rows));
        } else if (m.salientSink === 'packed') {
          unpackRows(m.batch, sink);
        } else {
          for (const c of JSON.parse(m.json) as Call[]) {
            if (c.k === 'i') sink.impulse(c.r);
            else if (c.k === 'e') sink.event(c.r);
            else if (c.k === 'd') sink.decision?.(c.r);
            else sink.match(c.r);
          }
        }
        await sink.flush?.();
      } catch (e) {
        error = fail(e);
      }
      batches++;
      port.postMessage({ salientSink: 'ack', id: m.id, ...(error ? { error } : {}) } satisfies ToGame);
    } else {
      let error: WireError | undefined;
      try {
        await (sink.drain ? sink.drain() : sink.flush?.());
      } catch (e) {
        error = fail(e);
      }
      port.off('message', listener);
      port.postMessage({ salientSink: 'closed', ...(error ? { error } : {}) } satisfies ToGame);
      resolveClosed();
    }
  };
  const listener = (v: unknown): void => {
    if (!isMessage(v)) return;
    const m = v as ToStore;
    chain = chain.then(() => handle(m));
  };
  port.on('message', listener);
  return {
    closed,
    get batches() {
      return batches;
    },
    settled: () => chain,
    stop: () => {
      port.off('message', listener);
      resolveClosed();
    },
  };
}
