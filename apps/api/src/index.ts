export { buildApp, type ApiOptions } from './app.ts';
export { wilson, type Interval } from '@salient/stats';
export { REQUEST_DURATION, REQUESTS_TOTAL } from './metrics.ts';
export { serve, createLogger, REDACT, type Served } from './server.ts';
export { balanceReport, balanceLines, type BalanceReport, type BalanceScenario, type BalanceSide } from './balance.ts';
