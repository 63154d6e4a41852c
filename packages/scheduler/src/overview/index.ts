/**
 * Tournaments as every reader shows them: one state with its reason, counts, the SPRT and the results,
 * from the queue or the store (see `overview.ts`). Needs both executors' modules, hence its own entry.
 */
export {
  tournamentOverview,
  overviewOfQueueStatus,
  listTournaments,
  planCache,
  STALLED_AFTER_MS,
  type TournamentOverview,
  type OverviewOptions,
  type OverviewCounts,
  type SprtReport,
  type PlanCache,
} from './overview.ts';
