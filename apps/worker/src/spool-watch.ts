/**
 * The worker's eye on its telemetry spool. Its match children write finished matches to the spool
 * when the ClickHouse server cannot be reached, and deliver them once it answers; this watcher, in
 * the worker process, looks at the spool directory every `intervalMs` and tells people: a log line
 * when spooling starts (with how much is pending), one every `remindMs` while it lasts, one when the
 * spool is empty again; the figures for /metrics and /health; and a report in Redis for
 * `salient tournament status` and the API.
 */
import { pendingSpool } from '@salient/telemetry';

/** What the spool holds now. */
export interface SpoolSnapshot {
  pending: number;
  /** ms since the epoch of the oldest spooled match. */
  oldestAt?: number;
  /** When the spool last went from empty to not empty. */
  since?: number;
  /** When it was last looked at. */
  at: number;
}

export interface SpoolWatchOptions {
  dir: string;
  /** How often to look (default 1000 ms). */
  intervalMs?: number;
  /** How often to repeat "still spooling" (default 30 000 ms). */
  remindMs?: number;
  log: (line: Record<string, unknown>) => void;
  /** Called after every look (publish the report; errors are the caller's to swallow). */
  onLook?: (s: SpoolSnapshot) => void | Promise<void>;
}

export interface SpoolWatch {
  current(): SpoolSnapshot;
  /** Look now (also what the timer does). */
  look(): Promise<SpoolSnapshot>;
  close(): void;
}

export function watchSpool(o: SpoolWatchOptions): SpoolWatch {
  let snap: SpoolSnapshot = { pending: 0, at: Date.now() };
  let most = 0;
  let reminded = 0;
  let looking: Promise<SpoolSnapshot> | undefined;
  const look = (): Promise<SpoolSnapshot> =>
    (looking ??= (async () => {
      try {
        const pending = await pendingSpool(o.dir);
        const now = Date.now();
        const oldestAt = pending.reduce<number | undefined>((m, p) => (m === undefined || p.spooledAt < m ? p.spooledAt : m), undefined);
        const was = snap.pending;
        const next: SpoolSnapshot = { pending: pending.length, at: now, ...(oldestAt !== undefined ? { oldestAt } : {}) };
        if (pending.length > 0) {
          next.since = was > 0 && snap.since !== undefined ? snap.since : now;
          most = Math.max(most, pending.length);
          if (was === 0) {
            reminded = now;
            o.log({ level: 'warn', msg: 'telemetry spooling: finished matches wait for the ClickHouse server', pending: pending.length, dir: o.dir });
          } else if (now - reminded >= (o.remindMs ?? 30_000)) {
            reminded = now;
            o.log({ level: 'warn', msg: 'telemetry still spooling', pending: pending.length, oldestAgeSeconds: Math.round((now - (oldestAt ?? now)) / 1000), dir: o.dir });
          }
        } else if (was > 0) {
          o.log({ level: 'info', msg: 'telemetry spool delivered: nothing waiting', delivered: most, spooledForSeconds: Math.round((now - (snap.since ?? now)) / 1000) });
          most = 0;
        }
        snap = next;
        await o.onLook?.(snap);
      } catch (e) {
        o.log({ level: 'warn', msg: 'cannot read the telemetry spool', dir: o.dir, error: e instanceof Error ? e.message : String(e) });
      } finally {
        looking = undefined;
      }
      return snap;
    })());
  const timer = setInterval(() => void look(), o.intervalMs ?? 1000);
  timer.unref();
  void look();
  return { current: () => snap, look, close: () => clearInterval(timer) };
}
