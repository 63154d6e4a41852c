/**
 * Counting each stored match once in the dashboard's aggregates (migration 6, see `FACT_COLUMNS` in
 * schema.ts): the writer calls {@link countMatches} with the match rows it has just landed.
 *
 * The copy counted for a match is the one landed last, as the `matches` table keeps it (a
 * ReplacingMergeTree keeps the last inserted of rows with one key, which is what a FINAL read shows):
 * a retried insert lands the same copy again and changes nothing; a re-played match (a cancelled match
 * played again, a job run a second time) replaces the copy counted before, whose figures are taken
 * back in the same statement. A copy is told apart from another by its end and start times and its
 * worker (copies of one game agree on everything else). What is not covered: two writers landing copies
 * of one match at the same moment (each may find the other's not counted yet; a stalled job re-run
 * while its first run still writes could do that), and a server that dies in the middle of the one
 * statement that swaps a match's copies.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import type { ChRow, RowLine } from './records.ts';
import { dashboardBackfill, FACT_NAMES } from './schema.ts';
import { ident, num, selectRows, str } from './sql.ts';

/** What countMatches needs of a store. */
export interface CountingStore {
  client: ClickHouseClient;
  database: string;
}

/** Which copy of a match row was landed: its id, and what tells its copies apart. */
export interface MatchCopy {
  matchId: string;
  /** `ended_at`, `started_at` in Unix seconds, as stored. */
  endedAt: number;
  startedAt: number;
  worker: string;
}

/** The copy a match row (as the sink or the spool inserts it) is. */
export function copyOf(row: ChRow | RowLine): MatchCopy {
  const r = (typeof row === 'string' ? JSON.parse(row) : row) as Record<string, unknown>;
  return { matchId: String(r.match_id), endedAt: Number(r.ended_at), startedAt: Number(r.started_at), worker: String(r.worker ?? '') };
}

/** What a call of {@link countMatches} did. */
export interface CountReport {
  /** Matches counted for the first time. */
  added: number;
  /** Matches whose counted copy was replaced by the one landed since. */
  replaced: number;
}

/** Copies per statement: `IN` lists stay a few hundred kilobytes at most. */
const CHUNK = 2000;

/**
 * Count the copies just landed (`landed`, in the order they were inserted) in place of the copies
 * counted before; with no list, every stored match not counted at all, by the copy a FINAL read shows
 * (the back-fill of migration 6, and a store filled by `INSERT ... SELECT`). Safe to repeat: a second
 * call with the same copies finds nothing to do.
 */
export async function countMatches(store: CountingStore, landed?: readonly MatchCopy[]): Promise<CountReport> {
  const db = ident(store.database);
  if (landed === undefined) {
    const count = async () => Number((await selectRows<{ n: number | string }>(store.client, `SELECT uniqExact(match_id) AS n FROM ${db}.counted_matches`))[0]?.n ?? 0);
    const before = await count();
    for (const query of dashboardBackfill(store.database)) await store.client.command({ query });
    return { added: (await count()) - before, replaced: 0 };
  }
  const report: CountReport = { added: 0, replaced: 0 };
  // The last copy of a match in one batch is the one its table keeps.
  const last = [...new Map(landed.map((c) => [c.matchId, c])).values()];
  for (let i = 0; i < last.length; i += CHUNK) {
    const copies = last.slice(i, i + CHUNK);
    const ids = copies.map((c) => str(c.matchId)).join(', ');
    const counted = new Map<string, { ver: number; same: string }>();
    for (const r of await selectRows<Record<string, string | number>>(
      store.client,
      `SELECT match_id, toUInt32(ended_at) AS e, toUInt32(started_at) AS s, worker, ver FROM ${db}.counted_matches WHERE match_id IN (${ids})`,
    )) {
      const prev = counted.get(String(r.match_id));
      if (!prev || Number(r.ver) > prev.ver) counted.set(String(r.match_id), { ver: Number(r.ver), same: identity(String(r.match_id), Number(r.e), Number(r.s), String(r.worker)) });
    }
    const add = copies.filter((c) => counted.get(c.matchId)?.same !== identity(c.matchId, c.endedAt, c.startedAt, c.worker));
    if (add.length === 0) continue;
    const takeBack = add.flatMap((c) => {
      const k = counted.get(c.matchId);
      return k ? [{ id: c.matchId, ver: k.ver }] : [];
    });
    const addIds = add.map((c) => str(c.matchId)).join(', ');
    const landedCopy = `PREWHERE match_id IN (${addIds})
       WHERE (match_id, toUInt32(ended_at), toUInt32(started_at), worker) IN (${add.map((c) => `(${str(c.matchId)}, ${num(c.endedAt)}, ${num(c.startedAt)}, ${str(c.worker)})`).join(', ')})`;
    // Each counting of a match has the next version, so `counted_matches` keeps the latest.
    const vers = `transform(match_id, [${addIds}], [${add.map((c) => num((counted.get(c.matchId)?.ver ?? 0) + 1)).join(', ')}], 0)`;
    // One statement, so the old copy leaves the aggregates as the new one enters them. The old copy is
    // taken back only where the new one is found.
    const parts = [
      `SELECT ${FACT_NAMES}, toInt8(1) AS sign, toUInt32(${vers}) AS ver FROM ${db}.matches ${landedCopy} LIMIT 1 BY match_id`,
      ...(takeBack.length
        ? [
            `SELECT ${FACT_NAMES}, toInt8(-1) AS sign, ver FROM ${db}.counted_matches
             WHERE (match_id, ver) IN (${takeBack.map((t) => `(${str(t.id)}, ${num(t.ver)})`).join(', ')})
               AND match_id IN (SELECT match_id FROM ${db}.matches ${landedCopy})
             LIMIT 1 BY match_id`,
          ]
        : []),
    ];
    await store.client.command({ query: `INSERT INTO ${db}.match_facts (${FACT_NAMES}, sign, ver) ${parts.join(' UNION ALL ')}` });
    report.added += add.length - takeBack.length;
    report.replaced += takeBack.length;
  }
  return report;
}

const identity = (id: string, ended: number, started: number, worker: string): string => JSON.stringify([id, ended, started, worker]);
