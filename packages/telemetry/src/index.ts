/**
 * `@salient/telemetry`: every match into ClickHouse, impulse by impulse, exactly once, and the
 * queries that read it back. Embedded ClickHouse (chdb) by default, a server when
 * `SALIENT_CLICKHOUSE_URL` is set. Nothing connects at import time.
 *
 * @packageDocumentation
 */
export { telemetryConfigFromEnv, describeConfig, splitCredentials, withoutUrlCredentials, DEFAULT_DATABASE, type TelemetryConfig, type EmbeddedConfig, type ServerConfig } from './config.ts';
export { openStore, lockHolder, type Store, type ReadOnlyAccess } from './client.ts';
export { migrate, appliedMigrations, MIGRATIONS, SCHEMA_VERSION, type Migration, type MigrationReport, type AppliedMigration } from './migrations.ts';
export { ROW_TABLES, type RowTable } from './schema.ts';
export { countMatches, copyOf, type CountReport, type CountingStore, type MatchCopy } from './counted.ts';
export { ClickHouseSink, type SinkOptions } from './sink.ts';
export { RemoteSink, serveSink, type LinesSink, type RemoteSinkOptions, type ServedSink, type SinkPort, type DrainableSink } from './remote-sink.ts';
export { DEFAULT_EVENT_CLASSES, UNKNOWN_BOT, sampled, replayOf, eventData, type StoredReplayColumns, type StoredEventColumns, type EncodedRows, type EventClasses, type SidesLookup } from './records.ts';
export { deliverSpool, pendingSpool, type SpooledMatch, type SpoolDelivery } from './spool.ts';
export { DEFAULT_RETRY, type RetryPolicy } from './insert.ts';
export {
  winRates,
  gameLengths,
  impulseCurves,
  matchResults,
  matchesVersion,
  type MatchResultRow,
  victoryConditions,
  firstMovers,
  type VictoryConditionRow,
  type FirstMoverRow,
  combatResults,
  lengthStats,
  recordedMatches,
  tournamentMatchReplays,
  matchReplay,
  matchEvents,
  listMatches,
  matchSummary,
  matchImpulses,
  matchDetail,
  type MatchDetail,
  tournamentSummaries,
  tournamentSpecs,
  recordTournament,
  type TournamentRecord,
  type MatchList,
  type MatchPage,
  type MatchSummary,
  type StoredImpulse,
  type TournamentSummary,
  type StoredEvent,
  type RecordedMatch,
  type MatchWithReplay,
  type StoreReader,
  type TelemetryFilter,
  type ScenarioKey,
  type WinRateRow,
  type GameLengthRow,
  type LengthBucket,
  type ImpulseCurveRow,
  type CombatResultRow,
} from './queries.ts';
export { adHocQuery, readOnlyStatement, type QueryResult } from './ad-hoc-query.ts';
export { openTelemetry, type Telemetry } from './telemetry.ts';
