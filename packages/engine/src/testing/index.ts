/** `@salient/engine/testing`: the conformance kit and a synthetic test game. */
export { checkConformance, conformancePlayout, ConformanceError, type ConformanceOptions, type ConformanceReport, type PlayoutSummary } from './conformance.ts';
export { diceRace, diceRacePack, type DiceRaceState, type DiceRaceChoice } from './dice-race.ts';
export { testCitations, leadingSections, type Citation } from './citations.ts';
