/**
 * Versioned schema migrations, recorded in `salient_migrations`.
 *
 * Each migration's statements are idempotent, and a migration is recorded only after all of them
 * succeeded, so a run interrupted halfway (or two processes migrating at once) simply runs again.
 * The record table is a ReplacingMergeTree on `version`, so two processes recording the same
 * migration leave one row.
 */
import { SalientError } from '@salient/engine';
import type { Store } from './client.ts';
import { COMBAT_COLUMNS_FLAG, CURVE_COLUMNS, curvePointsFill, dashboardAggregates, dashboardBackfill, curvePointsTable, initialSchema, listMinutes, listMinutesBackfill, matchPageBackfill, matchPages, matchRowBackfill, matchRowCopies, packedMatchList, packedMatchListBackfill, REPLAY_LOG_COLUMNS, scenarioAggregates, scenarioBackfill, STRIKE_COLUMNS, tournamentAggregates, tournamentBackfill, tournamentsTable, winCountsFromTotals } from './schema.ts';
import { ident, selectRows, str } from './sql.ts';

/** A column a migration adds to a table (added only where it is missing). */
export interface AddedColumn {
  table: string;
  name: string;
  /** ClickHouse type, as in `ALTER TABLE ... ADD COLUMN name type`. */
  type: string;
}

/**
 * One schema change: `statements` (run first) must be safe to run again after a partial run;
 * `columns` are added where missing (the Debian server's ClickHouse has no `ADD COLUMN IF NOT EXISTS`);
 * `after` runs last, for statements that need those columns, and must be safe to run again too.
 */
export interface Migration {
  version: number;
  name: string;
  statements(db: string): string[];
  columns?: readonly AddedColumn[];
  after?(db: string): string[];
}

/** Every migration, in version order. Append only: never edit one that has shipped. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial schema', statements: initialSchema },
  { version: 2, name: 'replay log and combat rounds in columns only', statements: () => [], columns: [...REPLAY_LOG_COLUMNS, ...COMBAT_COLUMNS_FLAG] },
  { version: 3, name: 'tournaments table', statements: tournamentsTable },
  { version: 4, name: 'per-impulse curves filed by scenario', statements: curvePointsTable, columns: CURVE_COLUMNS, after: curvePointsFill },
  { version: 5, name: 'timeout strikes in decisions and matches', statements: () => [], columns: STRIKE_COLUMNS },
  { version: 6, name: 'dashboard aggregates counted once per match, match list by time, matches by id', statements: dashboardAggregates, after: dashboardBackfill },
  { version: 7, name: 'tournament list kept by tournament, scenario, bots, kind and time', statements: tournamentAggregates, after: tournamentBackfill },
  {
    version: 8,
    name: 'win rates, lengths and curves by scenario, match list counted by minute, tournament spans, each match rows in small granules',
    statements: (db) => [...scenarioAggregates(db), ...matchRowCopies(db)],
    after: (db) => [...scenarioBackfill(db), ...matchRowBackfill(db)],
  },
  { version: 9, name: 'win counts read from the dashboard totals, one materialized view less per insert', statements: winCountsFromTotals },
  { version: 10, name: "each match's impulses and events packed in a few rows, read with its summary in one query", statements: matchPages, after: matchPageBackfill },
  { version: 11, name: 'the match list with each summary packed in one column', statements: packedMatchList, after: packedMatchListBackfill },
  { version: 12, name: 'the match list counted by minute, summed as each insert lands', statements: listMinutes, after: listMinutesBackfill },
];

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

/** What {@link migrate} found and did. */
export interface MigrationReport {
  /** Versions applied by this call, in order (empty when the schema was already current). */
  applied: number[];
  /** The schema version after the call. */
  version: number;
}

/** A migration recorded as applied. */
export interface AppliedMigration {
  version: number;
  name: string;
  /** Unix seconds. */
  appliedAt: number;
}

/**
 * Bring the store's schema up to {@link SCHEMA_VERSION}. Running it again is a no-op. Throws
 * `TELEMETRY_SCHEMA` when the database was migrated by a newer Salient than this one.
 */
export async function migrate(store: Store, migrations: readonly Migration[] = MIGRATIONS): Promise<MigrationReport> {
  const db = ident(store.database);
  const run = async (what: string, query: string): Promise<void> => {
    try {
      await store.client.command({ query });
    } catch (e) {
      throw store.fail(what, e);
    }
  };
  await run(
    'creating the migrations table',
    `CREATE TABLE IF NOT EXISTS ${db}.salient_migrations (version UInt32, name String, applied_at DateTime)
     ENGINE = ReplacingMergeTree ORDER BY version`,
  );
  const done = new Set((await appliedMigrations(store)).map((m) => m.version));
  const newest = Math.max(0, ...done);
  const latest = migrations.at(-1)?.version ?? 0;
  if (newest > latest) {
    throw new SalientError(
      'TELEMETRY_SCHEMA',
      `The telemetry database '${store.database}' (${store.where}) is at schema version ${newest}, but this Salient knows versions up to ${latest}. ` +
        'A newer Salient wrote it: upgrade this one, or point SALIENT_CLICKHOUSE_DATABASE / SALIENT_CLICKHOUSE_PATH elsewhere.',
    );
  }
  const applied: number[] = [];
  for (const m of migrations) {
    if (done.has(m.version)) continue;
    for (const statement of m.statements(store.database)) {
      await run(`applying migration ${m.version} (${m.name})`, statement);
    }
    for (const c of m.columns ?? []) {
      if (await hasColumn(store, c)) continue;
      try {
        await store.client.command({ query: `ALTER TABLE ${db}.${ident(c.table)} ADD COLUMN ${ident(c.name)} ${c.type}` });
      } catch (e) {
        // Another process migrating at the same time may have added it first.
        if (!(await hasColumn(store, c))) throw store.fail(`applying migration ${m.version} (${m.name}): adding ${c.table}.${c.name}`, e);
      }
    }
    for (const statement of m.after?.(store.database) ?? []) {
      await run(`applying migration ${m.version} (${m.name})`, statement);
    }
    try {
      await store.client.insert({
        table: `${db}.salient_migrations`,
        values: [{ version: m.version, name: m.name, applied_at: Math.floor(Date.now() / 1000) }],
        format: 'JSONEachRow',
      });
    } catch (e) {
      throw store.fail(`recording migration ${m.version}`, e);
    }
    applied.push(m.version);
  }
  return { applied, version: Math.max(newest, ...applied) };
}

/** Whether the store's `c.table` has the column `c.name`. */
async function hasColumn(store: Store, c: AddedColumn): Promise<boolean> {
  try {
    const rows = await selectRows<{ n: number | string }>(
      store.client,
      `SELECT count() AS n FROM system.columns WHERE database = ${str(store.database)} AND table = ${str(c.table)} AND name = ${str(c.name)}`,
    );
    return Number(rows[0]?.n ?? 0) > 0;
  } catch (e) {
    throw store.fail(`looking up column ${c.table}.${c.name}`, e);
  }
}

/** Migrations recorded in the store, oldest first. */
export async function appliedMigrations(store: Store): Promise<AppliedMigration[]> {
  const db = ident(store.database);
  try {
    const rows = await selectRows<{ version: number | string; name: string; applied_at: number | string }>(
      store.client,
      `SELECT version, name, toUnixTimestamp(applied_at) AS applied_at FROM ${db}.salient_migrations FINAL ORDER BY version`,
    );
    return rows.map((r) => ({ version: Number(r.version), name: r.name, appliedAt: Number(r.applied_at) }));
  } catch (e) {
    throw store.fail('reading the applied migrations', e);
  }
}
