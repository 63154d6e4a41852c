/**
 * Inserting rows, retrying while the server cannot be reached. A retry may repeat an insert that in
 * fact landed (the connection can drop after the server committed); that is safe because every row
 * has a deterministic key in a ReplacingMergeTree, and reads use FINAL.
 */
import type { Store } from './client.ts';
import type { ChRow, RowLine } from './records.ts';
import type { RowTable } from './schema.ts';
import { ident } from './sql.ts';

/** How hard to try before calling the store unreachable. */
export interface RetryPolicy {
  /** Further attempts after the first (default 2). */
  retries: number;
  /** Delay before the first retry, doubled for each further one (default 100 ms). */
  delayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 2, delayMs: 100 };

/**
 * Insert `rows` (objects, or lines already encoded as JSONEachRow, which the store's client passes
 * through as they are) into `table`. Rejects with the last error when the store stayed unreachable
 * (`store.unreachable(e)` is then true), or at once with a `SalientError` for any other failure.
 */
export async function insertRows(store: Store, table: RowTable, rows: readonly (ChRow | RowLine)[], retry: RetryPolicy = DEFAULT_RETRY): Promise<void> {
  if (rows.length === 0) return;
  for (let attempt = 0; ; attempt++) {
    try {
      await store.client.insert({ table: `${ident(store.database)}.${ident(table)}`, values: rows as (ChRow | RowLine)[], format: 'JSONEachRow' });
      return;
    } catch (e) {
      if (!store.unreachable(e)) throw store.fail(`inserting ${rows.length} row(s) into ${store.database}.${table}`, e);
      if (attempt >= retry.retries) throw e;
      await new Promise((resolve) => setTimeout(resolve, retry.delayMs * 2 ** attempt));
    }
  }
}
