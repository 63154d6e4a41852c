/**
 * Counting each stored match once in the dashboard's aggregates (migration 6, see `FACT_COLUMNS` in
 * schema.ts): the writer calls {@link countMatches} after a batch's match rows landed.
 *
 * The copy counted for a match is its newest stored copy (the latest end time): a retried insert
 * brings the same copy again and changes nothing; a re-played match (a cancelled match played again,
 * a job run a second time) replaces the copy counted before. What is not covered: two writers
 * counting copies of the same match at the same moment (each may find none counted and add its own;
 * a stalled job re-run while its first run still writes could do that), and a server that dies in
 * the middle of the one statement that swaps a match's copies.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import { dashboardBackfill, FACT_NAMES } from './schema.ts';
import { ident, num, selectRows, str } from './sql.ts';

/** What countMatches needs of a store. */
export interface CountingStore {
  client: ClickHouseClient;
  database: string;
}

/** What a call of {@link countMatches} did. */
export interface CountReport {
  /** Matches counted for the first time. */
  added: number;
  /** Matches whose counted copy was replaced by a newer one. */
  replaced: number;
}

/** Ids per statement: `IN` lists stay a few hundred kilobytes at most. */
const CHUNK = 2000;

/**
 * Count the newest stored copy of each match in `matchIds` that is not counted yet (taking back the
 * copy counted before, if any); with no ids, every stored match not counted at all (the back-fill of
 * migration 6, and a store filled by `INSERT ... SELECT`). Safe to repeat: a second call finds
 * nothing to do.
 */
export async function countMatches(store: CountingStore, matchIds?: readonly string[]): Promise<CountReport> {
  const db = ident(store.database);
  if (matchIds === undefined) {
    const [before] = await selectRows<{ n: number | string }>(store.client, `SELECT count() AS n FROM ${db}.counted_matches`);
    for (const query of dashboardBackfill(store.database)) await store.client.command({ query });
    const [after] = await selectRows<{ n: number | string }>(store.client, `SELECT count() AS n FROM ${db}.counted_matches`);
    return { added: Number(after?.n ?? 0) - Number(before?.n ?? 0), replaced: 0 };
  }
  const report: CountReport = { added: 0, replaced: 0 };
  const unique = [...new Set(matchIds)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const ids = unique.slice(i, i + CHUNK);
    const list = ids.map(str).join(', ');
    // The newest stored copy of each (PREWHERE: only the id column is scanned, as in matchReplay), and
    // the copy counted now.
    const newest = await selectRows<{ match_id: string; t: number | string }>(
      store.client,
      `SELECT match_id, max(toUInt32(ended_at)) AS t FROM ${db}.matches PREWHERE match_id IN (${list}) GROUP BY match_id`,
    );
    const counted = new Map(
      (
        await selectRows<{ match_id: string; v: number | string }>(
          store.client,
          `SELECT match_id, max(ver) AS v FROM ${db}.counted_matches WHERE match_id IN (${list}) GROUP BY match_id`,
        )
      ).map((r) => [r.match_id, Number(r.v)]),
    );
    const add: [string, number][] = [];
    const takeBack: [string, number][] = [];
    for (const r of newest) {
      const t = Number(r.t);
      const v = counted.get(r.match_id);
      if (v !== undefined && v >= t) continue;
      add.push([r.match_id, t]);
      if (v !== undefined) takeBack.push([r.match_id, v]);
    }
    if (add.length === 0) continue;
    const pairs = (p: readonly [string, number][]) => p.map(([id, t]) => `(${str(id)}, ${num(t)})`).join(', ');
    // One statement, so the old copy leaves the aggregates as the new one enters them.
    const parts = [
      `SELECT ${FACT_NAMES}, toInt8(1) AS sign FROM ${db}.matches PREWHERE match_id IN (${add.map(([id]) => str(id)).join(', ')})
       WHERE (match_id, toUInt32(ended_at)) IN (${pairs(add)}) LIMIT 1 BY match_id`,
      ...(takeBack.length
        ? [
            `SELECT ${FACT_NAMES}, toInt8(-1) AS sign FROM ${db}.counted_matches
             WHERE match_id IN (${takeBack.map(([id]) => str(id)).join(', ')}) AND (match_id, ver) IN (${pairs(takeBack)}) LIMIT 1 BY match_id`,
          ]
        : []),
    ];
    await store.client.command({ query: `INSERT INTO ${db}.match_facts (${FACT_NAMES}, sign) ${parts.join(' UNION ALL ')}` });
    report.added += add.length - takeBack.length;
    report.replaced += takeBack.length;
  }
  return report;
}
