/**
 * `@salient/runner`: plays one match of any game with one bot per seat, under decision budgets, and
 * emits telemetry rows to a sink. Depends on `@salient/engine` only.
 *
 * @packageDocumentation
 */
export type * from './types.ts';
export { runMatch, defaultMatchId } from './run-match.ts';
export { InMemorySink } from './memory-sink.ts';
export { parseBotSpec, isExternalBotSpec, entrantIdentity, type BotSpec } from './bot-spec.ts';
export { BotFault } from './ask-bot.ts';
export { resolveSeats, findScenario, type Seating } from './seats.ts';
