/**
 * Telemetry from a game thread to the thread that owns the store (see ARCHITECTURE.md, "Telemetry":
 * the process that owns the embedded store owns it alone; worker threads send their rows to it).
 *
 * On the game thread, {@link RemoteSink} keeps the runner's rows as they come and posts them in one
 * message per `flush` (the runner flushes at every impulse boundary and at the end of a match). On
 * the store's thread, {@link serveSink} hands each batch to a real sink (a `ClickHouseSink`), row by
 * row in order, then calls its `flush`, and acknowledges the batch. The game side waits in `flush`
 * only while more than `maxUnacked` batches are unacknowledged, so memory stays bounded when the store
 * falls behind. A failure on the store side is reported to the game side by the next `flush`, or by
 * `close`, which also makes the store side drain (write every finished match) and waits for it.
 */
import type { DecisionRow, EventRow, ImpulseRow, MatchRow, TelemetrySink } from '@salient/runner';
import { SalientError, type ErrorCode } from '@salient/engine';
import { matchSampler } from './records.ts';

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
type ToStore = { salientSink: 'rows'; id: number; calls: Call[] } | { salientSink: 'close' };
type ToGame = { salientSink: 'ack'; id: number; error?: WireError } | { salientSink: 'closed'; error?: WireError };

const DEFAULT_MAX_UNACKED = 32;

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
   * Share of decisions sent, 0..1 (default 1: all), chosen like `ClickHouseSink` does (by a hash of
   * match id and sequence number). Giving the store sink's `decisionSample` sends exactly the
   * decisions it keeps, and no others.
   */
  decisionSample?: number;
}

/** A {@link TelemetrySink} for a game thread: posts the rows to the thread that serves the store ({@link serveSink}). */
export class RemoteSink implements TelemetrySink {
  private calls: Call[] = [];
  private nextId = 0;
  private readonly unacked = new Set<number>();
  /** Resolved at each acknowledgement, for a `flush` waiting on the backlog. */
  private wake: (() => void) | undefined;
  private failure: Error | undefined;
  private closing: Promise<void> | undefined;
  private onClosed: ((error: Error | undefined) => void) | undefined;
  private readonly maxUnacked: number;
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
    const sample = options.decisionSample ?? 1;
    if (!Number.isInteger(max) || max < 1) throw new SalientError('BAD_ARGUMENT', `maxUnacked must be a whole number of at least 1; got ${max}.`);
    if (!(sample >= 0 && sample <= 1)) throw new SalientError('BAD_ARGUMENT', `decisionSample must be between 0 and 1; got ${sample}.`);
    this.maxUnacked = max;
    this.sample = sample;
    port.on('message', this.listener);
  }

  impulse(row: ImpulseRow): void {
    this.calls.push({ k: 'i', r: row });
  }

  event(row: EventRow): void {
    this.calls.push({ k: 'e', r: row });
  }

  decision(row: DecisionRow): void {
    if (this.sample < 1) {
      let keep = this.samplers.get(row.matchId);
      if (!keep) this.samplers.set(row.matchId, (keep = matchSampler(row.matchId, this.sample)));
      if (!keep(row.seq)) return;
    }
    this.calls.push({ k: 'd', r: row });
  }

  match(row: MatchRow): void {
    this.samplers.delete(row.matchId);
    this.calls.push({ k: 'm', r: row });
  }

  /** Batches posted and not yet acknowledged. */
  get outstanding(): number {
    return this.unacked.size;
  }

  /**
   * Post the rows since the last flush as one batch. Resolves at once unless more than `maxUnacked`
   * batches are unacknowledged; then waits until they are not. Throws a failure the store side
   * reported (once).
   */
  async flush(): Promise<void> {
    this.throwFailure();
    if (this.closing) throw new SalientError('BAD_ARGUMENT', 'RemoteSink: flush after close.');
    this.post();
    if (this.unacked.size > this.maxUnacked) {
      this.waits++;
      while (this.unacked.size > this.maxUnacked) await new Promise<void>((resolve) => (this.wake = resolve));
    }
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
    if (this.calls.length === 0) return;
    const id = this.nextId++;
    const message: ToStore = { salientSink: 'rows', id, calls: this.calls };
    this.calls = [];
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
    if (m.salientSink === 'rows') {
      let error: WireError | undefined;
      try {
        for (const c of m.calls) {
          if (c.k === 'i') sink.impulse(c.r);
          else if (c.k === 'e') sink.event(c.r);
          else if (c.k === 'd') sink.decision?.(c.r);
          else sink.match(c.r);
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
