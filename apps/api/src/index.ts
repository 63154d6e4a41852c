export { buildApp, type ApiOptions } from './app.ts';
export { wilson, type Interval } from '@salient/stats';
export { REQUEST_DURATION, REQUESTS_TOTAL, BOARD_LOOKUPS, BOARD_CACHE_SIZE } from './metrics.ts';
export { boardCache, BOARD_CACHE_BYTES, type BoardCache, type BoardLookup, type SentBoard } from './board-cache.ts';
export { serve, createLogger, REDACT, type Served } from './server.ts';
export { balanceReport, balanceLines, type BalanceReport, type BalanceScenario, type BalanceSide } from './balance.ts';
export {
  sweepReport,
  sweepLines,
  sweepScenario,
  sweepStep,
  sweepVerdict,
  factorText,
  SWEEP_MARGIN,
  SWEEP_ALPHA,
  type SweepReport,
  type SweepScenario,
  type SweepLevel,
  type SweepStep,
  type SweepVerdict,
  type SweepTally,
  type SweepQuery,
} from './sweep.ts';
