/**
 * Inserting rows, retrying while the server cannot be reached. A retry may repeat an insert that in
 * fact landed (the connection can drop after the server committed); that is safe because every row
 * has a deterministic key in a ReplacingMergeTree, and reads use FINAL or the aggregates of migration 6,
 * which count each match once whatever number of copies landed (see counted.ts).
 */
import type { Store } from './client.ts';
import type { ChRow, RowLine } from './records.ts';
import type { RowTable } from './schema.ts';
import { ident } from './sql.ts';
import { countMatches, type MatchCopy } from './counted.ts';

/** How hard to try before calling the store unreachable. */
export interface RetryPolicy {
  /** Further attempts after the first (default 2). */
  retries: number;
  /** Delay before the first retry, doubled for each further one (default 100 ms). */
  delayMs: number;
  /**
   * Longest wait for one insert into a server (default 10 000 ms). A server that accepts the
   * connection and never answers (stopped, overloaded, a half-open network) would otherwise hold
   * the writer for the client's whole request timeout; past this the insert is abandoned and the
   * store counted unreachable, without further attempts (a hung server does not mend in 100 ms).
   */
  timeoutMs?: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, delayMs: 100, timeoutMs: 10_000 };

/** An insert abandoned after `timeoutMs`: counted as unreachable (`code` ETIMEDOUT). */
export class StoreTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(what: string, ms: number) {
    super(`no answer from the ClickHouse server within ${ms} ms while ${what}`);
    this.name = 'StoreTimeoutError';
  }
}

/**
 * Insert `rows` (objects, or lines already encoded as JSONEachRow, which the store's client passes
 * through as they are) into `table`. Rejects with the last error when the store stayed unreachable
 * (`store.unreachable(e)` is then true), or at once with a `SalientError` for any other failure.
 */
export async function insertRows(store: Store, table: RowTable, rows: readonly (ChRow | RowLine)[], retry: RetryPolicy = DEFAULT_RETRY): Promise<void> {
  if (rows.length === 0) return;
  // The embedded engine runs in this process: nothing to wait for but the work itself.
  const timeoutMs = store.mode === 'server' ? (retry.timeoutMs ?? DEFAULT_RETRY.timeoutMs) : undefined;
  for (let attempt = 0; ; attempt++) {
    const deadline = timeoutMs !== undefined ? AbortSignal.timeout(timeoutMs) : undefined;
    try {
      await store.client.insert({
        table: `${ident(store.database)}.${ident(table)}`,
        values: rows as (ChRow | RowLine)[],
        format: 'JSONEachRow',
        ...(deadline ? { abort_signal: deadline } : {}),
      });
      return;
    } catch (e) {
      if (deadline?.aborted) throw new StoreTimeoutError(`inserting ${rows.length} row(s) into ${store.database}.${table}`, timeoutMs!);
      if (!store.unreachable(e)) throw store.fail(`inserting ${rows.length} row(s) into ${store.database}.${table}`, e);
      if (attempt >= retry.retries) throw e;
      await new Promise((resolve) => setTimeout(resolve, retry.delayMs * 2 ** attempt));
    }
  }
}

/**
 * After match rows landed: count those matches in the dashboard's aggregates ({@link countMatches}),
 * retried as an insert is. Counting is safe to repeat, so a retry after an answer lost on the way
 * counts nothing twice.
 */
export async function countLanded(store: Store, landed: readonly MatchCopy[], retry: RetryPolicy = DEFAULT_RETRY): Promise<void> {
  if (landed.length === 0) return;
  for (let attempt = 0; ; attempt++) {
    try {
      await countMatches(store, landed);
      return;
    } catch (e) {
      if (!store.unreachable(e)) throw store.fail(`counting ${landed.length} match(es) in the dashboard aggregates`, e);
      if (attempt >= retry.retries) throw e;
      await new Promise((resolve) => setTimeout(resolve, retry.delayMs * 2 ** attempt));
    }
  }
}
