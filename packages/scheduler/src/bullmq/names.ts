/**
 * Names shared by everything that talks to the queue (submitters, workers, infra, dashboards): queue
 * names, the Redis keys Salient keeps beside BullMQ's, and the deterministic job ids.
 */

/** Match jobs, one per side-swapped pair (both games of the pair, in plan order), or per match without side swap. */
export const MATCH_QUEUE = 'salient-matches';
/** Flow parents, one per tournament; completed once every match has finished (or failed). */
export const TOURNAMENT_QUEUE = 'salient-tournaments';

/** The submitted plan (JSON), so status can show standings without the spec file. */
export const planKey = (tournamentId: string): string => `salient:tournament:${tournamentId}:plan`;
/** SCAN pattern of every tournament's plan key. */
export const PLAN_PATTERN = 'salient:tournament:*:plan';
/** Set when a tournament is cancelled (value: ISO time); workers abort its running matches. */
export const cancelKey = (tournamentId: string): string => `salient:tournament:${tournamentId}:cancelled`;
/** Set when a tournament's stop rule decided (value: JSON `{ at, reason }`); its waiting matches are taken off the queue. */
export const stopKey = (tournamentId: string): string => `salient:tournament:${tournamentId}:stopped`;
/** Hash of the outcomes of a stop: sprt tournament's ended jobs (field: plan index of the job's first match; value: JSON outcomes). */
export const resultsKey = (tournamentId: string): string => `salient:tournament:${tournamentId}:results`;

/** A worker's report of its telemetry spool (JSON, see `spool-state.ts`), while it holds matches. */
export const workerSpoolKey = (worker: string): string => `salient:worker:${worker}:spool`;
/** SCAN pattern of every worker's spool report. */
export const WORKER_SPOOL_PATTERN = 'salient:worker:*:spool';

// BullMQ refuses custom ids that are integers or contain ':' (its key separator). A prefix rules out
// integers; ':' and '%' are percent-encoded, so the mapping stays one-to-one and readable.
const safe = (s: string): string => s.replace(/[%:]/g, (c) => (c === '%' ? '%25' : '%3A'));

/**
 * Job id of a match job in {@link MATCH_QUEUE}: derived from the pair id the job's matches share (the
 * match id itself without side swap), so re-submitting adds nothing.
 */
export const matchJobId = (pairId: string): string => `p-${safe(pairId)}`;
/** Job id of a tournament's flow parent in {@link TOURNAMENT_QUEUE}. */
export const tournamentJobId = (tournamentId: string): string => `t-${safe(tournamentId)}`;
