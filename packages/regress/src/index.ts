/**
 * @salient/regress: did a change to rules, data or bots change any game, and did it move the balance?
 * A suite (a tournament spec with pinned bots) is played on the current code and compared with a
 * baseline: exactly, game by game and impulse by impulse, and statistically, distribution by
 * distribution. `salient regress` is the command; this is its engine.
 */
export { runSuite, type SuiteRun, type SuiteRunOptions } from './run.ts';
export { recordGame, gameKey, type GameRecord, type ImpulseRecord, type RunFacts } from './record.ts';
export { readBaseline, writeBaseline, toBaseline, BASELINE_FORMAT, BASELINE_VERSION, type Baseline } from './baseline.ts';
export { compareRuns, divergence, resultOf, type RegressReport, type ChangedGame, type Divergence, type ShiftTest, type SampleSummary, type CompareOptions } from './compare.ts';
export { formatReport, type FormatOptions } from './format.ts';
export { baselineFromStore, recordTaggedRun, checkTag } from './tagged.ts';
