/**
 * Names shared by everything that talks to the queue (submitters, workers, infra, dashboards): queue
 * names, the Redis keys Salient keeps beside BullMQ's, and the deterministic job ids.
 */

/** Match jobs, each a batch of side-swapped pairs (both games of each pair, in plan order), or of matches without side swap. */
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
/**
 * Hash of what the workers feed a `stop: sprt` tournament's test (field: match id; value: JSON
 * outcome): every game played, a cancelled game as `cancelled`, a game whose job failed for good as
 * an `error`. Read in plan order (see `stop.ts`).
 */
export const resultsKey = (tournamentId: string): string => `salient:tournament:${tournamentId}:results`;
/**
 * Hash of the games recorded as played (field: match id; value: JSON `MatchOutcome`), written by the
 * processor with HSETNX as the games of a batch end. A batch played again (its worker died, a
 * retry) skips what is here, so each game is recorded once; status counts progress from it.
 */
export const recordedKey = (tournamentId: string): string => `salient:tournament:${tournamentId}:recorded`;

/** A worker's report of its telemetry spool (JSON, see `spool-state.ts`), while it holds matches. */
export const workerSpoolKey = (worker: string): string => `salient:worker:${worker}:spool`;
/** SCAN pattern of every worker's spool report. */
export const WORKER_SPOOL_PATTERN = 'salient:worker:*:spool';

// BullMQ refuses custom ids that are integers or contain ':' (its key separator). A prefix rules out
// integers; ':' and '%' are percent-encoded, so the mapping stays one-to-one and readable.
const safe = (s: string): string => s.replace(/[%:]/g, (c) => (c === '%' ? '%25' : '%3A'));

/**
 * Job id of a match job in {@link MATCH_QUEUE}: the tournament and the batch's position among the
 * plan's batches (0-based), so re-submitting adds nothing. The batch size is stored with the plan
 * (`batchPairs`), so a batch index names the same matches whoever submits again.
 */
export const matchJobId = (tournamentId: string, batch: number): string => `b-${safe(tournamentId)}-${batch}`;
/** Job id of a tournament's flow parent in {@link TOURNAMENT_QUEUE}. */
export const tournamentJobId = (tournamentId: string): string => `t-${safe(tournamentId)}`;

/** The queue's Redis URL as a worker passes it to its processor children (they record games there). */
export const QUEUE_URL_ENV = 'SALIENT_QUEUE_REDIS_URL';
