/**
 * `openTelemetry`: one handle on the telemetry store for a process: the client, the schema brought
 * up to date, spooled matches delivered, sinks for matches and the queries the CLI and API ask.
 */
import type { ClickHouseClient } from '@clickhouse/client';
import type { Replay } from '@salient/engine';
import { openStore, type Store } from './client.ts';
import type { LinkState, StoreLinkOptions } from './link.ts';
import { telemetryConfigFromEnv, withoutUrlCredentials, type TelemetryConfig } from './config.ts';
import { migrate, type MigrationReport } from './migrations.ts';
import {
  combatResults,
  gameLengths,
  impulseCurves,
  matchEvents,
  matchReplay,
  winRates,
  matchResults,
  matchesVersion,
  type MatchResultRow,
  victoryConditions,
  firstMovers,
  type VictoryConditionRow,
  type FirstMoverRow,
  listMatches,
  matchSummary,
  matchFinalHash,
  matchImpulses,
  matchDetail,
  type MatchDetail,
  tournamentSummaries,
  recordTournament,
  tournamentSpec,
  tournamentSpecs,
  type TournamentRecord,
  type MatchList,
  type MatchPage,
  type MatchSummary,
  type StoredImpulse,
  type TournamentSummary,
  type CombatResultRow,
  type GameLengthRow,
  type ImpulseCurveRow,
  type StoredEvent,
  type TelemetryFilter,
  type WinRateRow,
} from './queries.ts';
import { adHocQuery, type QueryResult } from './ad-hoc-query.ts';
import { ClickHouseSink, type SinkOptions } from './sink.ts';
import { DEFAULT_RETRY } from './insert.ts';
import { deliverSpool, pendingSpool, type SpoolDelivery, type SpooledMatch } from './spool.ts';
import { selectRows } from './sql.ts';

/** An open telemetry store. */
export interface Telemetry {
  /** `embedded` (chdb in this process) or `server`. */
  readonly mode: 'embedded' | 'server';
  /** Where the data is, in words (never shows a password). */
  readonly where: string;
  readonly config: TelemetryConfig;
  /** The underlying client, for what this package does not offer. Tables live in {@link database}. */
  readonly client: ClickHouseClient;
  readonly database: string;
  /** Rows of a plain SELECT by the store's leaner way where it has one (see `Store.select`); absent, reads go through {@link client}. */
  readonly select?: <T>(query: string) => Promise<T[]>;
  /** What opening did to the schema. */
  readonly migrations: MigrationReport;
  /** What opening delivered from the spool, and what is still waiting. */
  readonly spoolAtOpen: SpoolDelivery;
  /**
   * Whether the server answers, as this process's writers last found it: while it is down, sinks
   * made here spool finished matches at once and the store is probed until it answers; then the
   * spool is delivered (see {@link TelemetryOpenOptions.whenUnreachable}). Always up when embedded.
   */
  link(): LinkState;
  /** A sink for `runMatch`; spools to `config.spoolDir`. Several matches may share one. */
  sink(options?: Omit<SinkOptions, 'spoolDir'>): ClickHouseSink;
  /** Insert spooled matches now; see {@link deliverSpool}. */
  deliverSpool(): Promise<SpoolDelivery>;
  /** Matches waiting in the spool (after the sinks made here wrote their finished matches). */
  pendingSpool(): Promise<SpooledMatch[]>;
  /** Games, wins, losses and draws by scenario, pack, rules version, side and bot. */
  winRates(filter?: TelemetryFilter): Promise<WinRateRow[]>;
  /** Every decided match's sides, bots and results, in the order they ended: for ratings. */
  results(filter?: TelemetryFilter): Promise<MatchResultRow[]>;
  /** A stamp that changes when the matches the filter selects do (for caches). */
  matchesVersion(filter?: TelemetryFilter): Promise<string>;
  /** Decided matches by scenario, victory condition and winner. */
  victoryConditions(filter?: TelemetryFilter): Promise<VictoryConditionRow[]>;
  /** Who makes the first decision in each scenario's matches. */
  firstMovers(filter?: TelemetryFilter): Promise<FirstMoverRow[]>;
  /** Distribution of turns, impulses and decisions per match, by scenario. */
  gameLengths(filter?: TelemetryFilter): Promise<GameLengthRow[]>;
  /** Mean score, losses and control by power at each (turn, impulse), by scenario. */
  impulseCurves(filter?: TelemetryFilter): Promise<ImpulseCurveRow[]>;
  /** The `limit` (default 20) most common combat results by round and factors. */
  combatResults(filter?: TelemetryFilter, limit?: number): Promise<CombatResultRow[]>;
  /** The replay of a stored match (undefined when there is none), to re-run with `runReplay`. */
  replay(matchId: string): Promise<Replay | undefined>;
  /** The event rows of a stored match, in order, each with its data as the game gave it. */
  events(matchId: string): Promise<StoredEvent[]>;
  /** A page of stored matches (default 50 from the newest), and how many match the filter. */
  matches(filter?: TelemetryFilter, page?: MatchPage): Promise<MatchList>;
  /** One stored match's summary, or undefined. */
  match(matchId: string): Promise<MatchSummary | undefined>;
  /** One stored match's final state hash (its summary's `finalHash`, read alone), or undefined when there is no such match. */
  finalHash(matchId: string): Promise<string | undefined>;
  /** The impulse rows of a stored match, in order. */
  impulses(matchId: string): Promise<StoredImpulse[]>;
  /** One stored match's summary, impulses and events in one read (what `match`, `impulses` and `events` give), or undefined. */
  matchDetail(matchId: string): Promise<MatchDetail | undefined>;
  /** Tournaments with recorded matches, latest first (at most `limit`, default 100). */
  tournaments(filter?: TelemetryFilter, limit?: number): Promise<TournamentSummary[]>;
  /** The spec of a tournament's latest record, and its hash (undefined: no record, or one without a spec). */
  tournamentSpec(id: string): Promise<{ spec: unknown; specHash: string } | undefined>;
  /** The specs of several tournaments at once, by id (those with none are left out). */
  tournamentSpecs(ids: readonly string[]): Promise<Map<string, { spec: unknown; specHash: string }>>;
  /** Record a tournament's state (its runner does, when it starts and when it ends). */
  recordTournament(r: TournamentRecord): Promise<void>;
  /** Resolves when the store answers a query; throws (the client's error) when it does not. */
  ping(): Promise<void>;
  /**
   * One read-only SQL statement; anything else is refused with `BAD_QUERY`. Like the other queries
   * here, it first waits for the sinks made here to write their finished matches.
   */
  query(sql: string): Promise<QueryResult>;
  /**
   * Write what the sinks made here still hold (finished matches waiting or being written in the
   * background), then release the client. Idempotent.
   */
  close(): Promise<void>;
}

/** Options of {@link openTelemetry}. */
export interface TelemetryOpenOptions {
  /**
   * A server that cannot be reached when opening (refused, or no answer within `openTimeoutMs`):
   * `fail` (default) throws `TELEMETRY_UNREACHABLE`, right for commands that read; `spool` opens
   * anyway, for processes that write matches (workers): their sinks spool every finished match
   * while the server is away, the store is probed in the background, and once it answers the schema
   * is brought up to date and the spool delivered, by this process. Queries fail meanwhile.
   */
  whenUnreachable?: 'fail' | 'spool';
  /** Longest wait for each query of the opening checks (default 10 000 ms). */
  openTimeoutMs?: number;
  /** Probing while the server is away (default every 1 s, backing off to 10 s). */
  probe?: StoreLinkOptions;
  /**
   * Told when the server goes away or comes back, and of each delivery of the spool the link's
   * return set off (and of its failure).
   */
  onLink?: (event: LinkEvent) => void;
}

/** What {@link TelemetryOpenOptions.onLink} is told. */
export type LinkEvent =
  | { kind: 'down'; error: string }
  | { kind: 'up' }
  | { kind: 'delivered'; delivered: number; pending: number }
  | { kind: 'delivery-failed'; error: string };

/**
 * Open the store named by `config` (default: {@link telemetryConfigFromEnv}), run pending migrations
 * and deliver any spooled matches (those stay spooled if the server is still unreachable).
 *
 * Throws a `SalientError`: `TELEMETRY_LOCKED` (embedded store held by another process),
 * `TELEMETRY_UNREACHABLE` (unless `whenUnreachable: 'spool'`), `TELEMETRY_AUTH`, `TELEMETRY_SCHEMA`
 * (database newer than this code).
 */
export async function openTelemetry(given: TelemetryConfig = telemetryConfigFromEnv(), o: TelemetryOpenOptions = {}): Promise<Telemetry> {
  const config = withoutUrlCredentials(given);
  let migrations: MigrationReport = { applied: [], version: 0 };
  const store = await openStore(config, {
    ...(o.whenUnreachable ? { whenUnreachable: o.whenUnreachable } : {}),
    ...(o.openTimeoutMs !== undefined ? { openTimeoutMs: o.openTimeoutMs } : {}),
    ...(o.probe ? { probe: o.probe } : {}),
    prepare: async (s) => {
      migrations = await migrate(s);
    },
  });
  try {
    // Embedded stores are migrated here; a server's open ran the migrations (or will, once it answers).
    if (store.mode === 'embedded') migrations = await migrate(store);
    const spoolAtOpen = store.link.up ? await deliverSpool(store, config.spoolDir) : { delivered: [], pending: await pendingSpool(config.spoolDir) };
    return telemetryOf(store, config, () => migrations, spoolAtOpen, o.onLink);
  } catch (e) {
    await store.close();
    throw e;
  }
}

function telemetryOf(store: Store, config: TelemetryConfig, migrations: () => MigrationReport, spoolAtOpen: SpoolDelivery, onLink?: (e: LinkEvent) => void): Telemetry {
  const sinks = new Set<ClickHouseSink>();
  let closing: Promise<void> | undefined;
  // Sinks write finished matches in the background; a question asked here sees every match that
  // finished before it (and a failed write is thrown here).
  // The server is back: deliver what this process (or any other, before it) spooled meanwhile.
  let delivering: Promise<void> | undefined;
  const written = async (): Promise<void> => {
    await Promise.all([...sinks].map((s) => s.drain()));
    await delivering;
  };
  const redeliver = (): Promise<void> =>
    (delivering ??= (async () => {
      try {
        const r = await deliverSpool(store, config.spoolDir, config.writeTimeoutMs !== undefined ? { ...DEFAULT_RETRY, timeoutMs: config.writeTimeoutMs } : undefined);
        onLink?.({ kind: 'delivered', delivered: r.delivered.length, pending: r.pending.length });
      } catch (e) {
        onLink?.({ kind: 'delivery-failed', error: e instanceof Error ? e.message : String(e) });
      } finally {
        delivering = undefined;
      }
    })());
  const unsubscribe = store.link.onChange((state) => {
    if (state.up) {
      onLink?.({ kind: 'up' });
      void redeliver();
    } else onLink?.({ kind: 'down', error: state.error });
  });
  return {
    mode: store.mode,
    // Live: an embedded store reached through another process says so, until this one takes it over.
    get where() {
      return store.where;
    },
    config,
    client: store.client,
    database: store.database,
    ...(store.select ? { select: store.select } : {}),
    get migrations() {
      return migrations();
    },
    spoolAtOpen,
    link: () => store.link.state,
    sink: (options = {}) => {
      const retry = options.retry ?? (config.writeTimeoutMs !== undefined ? { ...DEFAULT_RETRY, timeoutMs: config.writeTimeoutMs } : undefined);
      const sink = new ClickHouseSink(store, { ...options, ...(retry ? { retry } : {}), spoolDir: config.spoolDir });
      sinks.add(sink);
      return sink;
    },
    deliverSpool: () => deliverSpool(store, config.spoolDir, config.writeTimeoutMs !== undefined ? { ...DEFAULT_RETRY, timeoutMs: config.writeTimeoutMs } : undefined),
    pendingSpool: async () => (await written(), pendingSpool(config.spoolDir)),
    winRates: async (filter) => (await written(), winRates(store, filter)),
    results: async (filter) => (await written(), matchResults(store, filter)),
    matchesVersion: async (filter) => (await written(), matchesVersion(store, filter)),
    victoryConditions: async (filter) => (await written(), victoryConditions(store, filter)),
    firstMovers: async (filter) => (await written(), firstMovers(store, filter)),
    gameLengths: async (filter) => (await written(), gameLengths(store, filter)),
    impulseCurves: async (filter) => (await written(), impulseCurves(store, filter)),
    combatResults: async (filter, limit) => (await written(), combatResults(store, filter, limit)),
    replay: async (matchId) => (await written(), matchReplay(store, matchId)),
    events: async (matchId) => (await written(), matchEvents(store, matchId)),
    matches: async (filter, page) => (await written(), listMatches(store, filter, page)),
    match: async (matchId) => (await written(), matchSummary(store, matchId)),
    finalHash: async (matchId) => (await written(), matchFinalHash(store, matchId)),
    impulses: async (matchId) => (await written(), matchImpulses(store, matchId)),
    matchDetail: async (matchId) => (await written(), matchDetail(store, matchId)),
    tournaments: async (filter, limit) => (await written(), tournamentSummaries(store, filter, limit)),
    tournamentSpec: (id) => tournamentSpec(store, id),
    tournamentSpecs: (ids) => tournamentSpecs(store, ids),
    recordTournament: (r) => recordTournament(store, r),
    ping: async () => {
      await selectRows(store.client, 'SELECT 1 AS ok');
    },
    query: async (sql) => (await written(), adHocQuery(store, sql)),
    close: () =>
      (closing ??= (async () => {
        const drained = await Promise.allSettled([...sinks].map((s) => s.drain()));
        await delivering;
        unsubscribe();
        await store.close();
        const failed = drained.find((d) => d.status === 'rejected');
        if (failed) throw failed.reason;
      })()),
  };
}
