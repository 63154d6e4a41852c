/**
 * `@salient/scheduler`: tournaments. A spec (YAML or JSON, validated) is planned into matches with
 * deterministic ids; a local pool of worker threads or BullMQ workers play them; standings are counted
 * from the outcomes.
 *
 * @packageDocumentation
 */
export type * from './types.ts';
export { playPlanned, outcomeOf, resolveGamePack, type PlayOptions } from './play.ts';
export { replayTarget, type ReplayTarget } from './replay.ts';
export {
  parseTournamentSpec,
  loadTournamentSpec,
  checkTournamentSpec,
  resolveTournamentSpec,
  specFormat,
  MAX_MATCHES,
  TOURNAMENT_ID,
  TOURNAMENT_ID_RULE,
  type SpecFormat,
  type SpecFormatReason,
  type ResolvedTournament,
  type SpecOptions,
} from './spec.ts';
/** The operator's bots file, as `SpecOptions.bots` and the executors take it (see @salient/bots). */
export type { ExternalBots } from '@salient/bots';
export { planTournament, pairingsOf } from './plan.ts';
export { sweepLevelName, formerSweepLevelName } from './sweep-level.ts';
export { tournamentRecord } from './record.ts';
export { standings, standingsText, type StandingsRow, type SideRecord } from './standings.ts';
export {
  tournamentResults,
  resultsContextOf,
  problemCounts,
  type TournamentResults,
  type ResultsContext,
  type PairingResult,
  type CrossTable,
  type CrossCell,
  type ScenarioStandings,
} from './results.ts';
export { tournamentState, TOURNAMENT_STATES, type TournamentState, type StateFacts, type StateReport } from './state.ts';
export {
  createStopRule,
  fixedStopRule,
  sprtStopRule,
  stopContextOf,
  replayStopRule,
  sprtText,
  type StopRule,
  type StopDecision,
  type StopContext,
  type StopStatus,
  type SprtStatus,
} from './stop-rule.ts';
