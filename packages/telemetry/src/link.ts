/**
 * Whether a ClickHouse server is there, as the writers of one process see it.
 *
 * A writer that finds the server away (refused, reset, or no answer within its deadline) says so
 * with {@link StoreLink.down}; from then on every writer of the process spools at once instead of
 * waiting on the server match after match, and the link probes the server in the background (a
 * cheap query, every `probeMs`, backing off to `maxProbeMs`). The first probe that succeeds brings
 * the link up and tells its listeners, which deliver the spool: so the process that spooled the
 * matches delivers them as soon as the server answers, whether or not it has more to write.
 */
import { reason } from './failures.ts';

export type LinkState =
  | { up: true; since: number }
  | { up: false; since: number; error: string };

export interface StoreLinkOptions {
  /** First delay between probes while the server is away (default 1000 ms). */
  probeMs?: number;
  /** Longest delay between probes (default 10 000 ms). */
  maxProbeMs?: number;
}

export class StoreLink {
  private current: LinkState;
  private timer: NodeJS.Timeout | undefined;
  private delay: number;
  private probing: Promise<boolean> | undefined;
  private closed = false;
  private readonly listeners = new Set<(state: LinkState) => void>();
  private readonly probeMs: number;
  private readonly maxProbeMs: number;

  /**
   * `check` resolves when the server answers and is ready for writes (it may also prepare it: create
   * the database, run migrations), and rejects otherwise. `initial`: the error that kept the first
   * attempt from reaching it, or undefined when it is up.
   */
  constructor(
    private readonly check: () => Promise<void>,
    initial?: unknown,
    o: StoreLinkOptions = {},
  ) {
    this.probeMs = o.probeMs ?? 1000;
    this.maxProbeMs = Math.max(this.probeMs, o.maxProbeMs ?? 10_000);
    this.delay = this.probeMs;
    this.current = initial === undefined ? { up: true, since: Date.now() } : { up: false, since: Date.now(), error: reason(initial) };
    if (!this.current.up) this.schedule();
  }

  /** A link to a store that is always there (the embedded engine). */
  static always(): StoreLink {
    return new StoreLink(() => Promise.resolve());
  }

  /** True unless a writer found the server away and no probe has found it back since. */
  get up(): boolean {
    return this.current.up;
  }

  get state(): LinkState {
    return this.current;
  }

  /** Be told whenever the link goes down or comes back up. Returns the unsubscribe function. */
  onChange(listener: (state: LinkState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A writer could not reach the server (`e` says why): spool from now on, and probe until it answers. */
  down(e: unknown): void {
    if (this.closed || !this.current.up) return;
    this.current = { up: false, since: Date.now(), error: reason(e) };
    this.delay = this.probeMs;
    this.emit();
    this.schedule();
  }

  /** Probe now (when down): resolves true once the server answers. */
  probe(): Promise<boolean> {
    if (this.current.up) return Promise.resolve(true);
    return (this.probing ??= (async () => {
      try {
        await this.check();
        if (this.closed) return false;
        clearTimeout(this.timer);
        this.timer = undefined;
        this.current = { up: true, since: Date.now() };
        this.emit();
        return true;
      } catch (e) {
        if (!this.current.up) this.current = { ...this.current, error: reason(e) };
        return false;
      } finally {
        this.probing = undefined;
      }
    })());
  }

  /** Stop probing. Idempotent. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.closed || this.timer) return;
    // Unref'd: a process with nothing else to do exits rather than wait for a server that may never
    // come back; whatever it spooled is delivered by the next process that opens the store.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.probe().then((ok) => {
        if (ok || this.closed) return;
        this.delay = Math.min(this.delay * 2, this.maxProbeMs);
        this.schedule();
      });
    }, this.delay).unref();
  }

  private emit(): void {
    for (const l of this.listeners) {
      try {
        l(this.current);
      } catch {
        // A listener's failure is its own business; the link goes on.
      }
    }
  }
}
