/** The local executor: a pool of worker threads on this machine. */
export { runLocalTournament, outcomeFromRecord, recordedOutcomes, threadExecArgv, HEARTBEAT_MS, type LocalRunOptions, type LocalRunResult, type LocalProgress } from './local-pool.ts';
export { barOrLines, duration, leaders, progressRenderer, stopPart, type BarOrLinesOptions, type ProgressRendererOptions } from './progress.ts';
