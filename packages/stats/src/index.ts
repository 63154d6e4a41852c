/**
 * @salient/stats: the statistics Salient reports, each checked against published or hand-computed
 * values in test/. Intervals on win rates, bot ratings, SPRT on side-swapped pairs, and tests for a
 * shift between two samples with false-discovery control.
 */
export { wilson, jeffreys, differenceInterval, type Interval } from './intervals.ts';
export { chiSquaredHomogeneity, ksTwoSample, andersonDarlingKSample, type ChiSquaredResult, type KsResult, type AndersonDarlingResult } from './shift.ts';
export { benjaminiHochberg, significant } from './multiple.ts';
export * from './sprt.ts';
export {
  openskillRatings,
  validateMatches,
  type RatedMatch,
  type RatedSide,
  type MatchResult,
  type OpenSkillOptions,
  type OpenSkillRating,
  type OpenSkillResult,
} from './ratings.ts';
export {
  bradleyTerry,
  eloDifference,
  ELO_PER_LOGIT,
  type BradleyTerryOptions,
  type BradleyTerryResult,
  type BotStrength,
  type SideAdvantage,
  type EloDifference,
} from './bradley-terry.ts';
