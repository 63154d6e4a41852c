/**
 * The distributed executor: tournaments as BullMQ flows on Redis, played by any number of workers.
 * Submit a plan, start workers anywhere (same Redis, same ClickHouse server), ask for status,
 * cancel. Queue and key names are in `names.ts`.
 */
export { submitTournament, batchPairsFor, probeGameMs, matchJobs, planJobs, DEFAULT_JOB_SECONDS, MIN_JOBS, MAX_BATCH_PAIRS, type SubmittablePlan, type StoredPlan, type SubmitOptions, type SubmitReport, type MatchJobData } from './submit.ts';
export { tournamentStatus, cancelTournament, entrantNames, queuedTournamentIds, type TournamentStatus, type FailedMatch, type StatusOptions, type CancelReport } from './status.ts';
export { retryTournament, type RetryOptions, type RetryReport } from './retry.ts';
export { faultOf, explainFailure, type JobFault } from './faults.ts';
export { startWorker, type StartWorkerOptions, type MatchWorker, type MatchEvent } from './worker.ts';
export { stopWatcher, readStop, type StopWatcher, type StopEvent, type StopRecord } from './stop.ts';
export { buildProcessor, defaultProcessorCacheDir } from './build-processor.ts';
export { connectRedis, describeRedis } from './connection.ts';
export { publishSpool, readSpools, SPOOL_REPORT_TTL_S, type WorkerSpool } from './spool-state.ts';
export { MATCH_QUEUE, TOURNAMENT_QUEUE, matchJobId, tournamentJobId, planKey, PLAN_PATTERN, cancelKey, stopKey, resultsKey, recordedKey, QUEUE_URL_ENV, workerSpoolKey } from './names.ts';
