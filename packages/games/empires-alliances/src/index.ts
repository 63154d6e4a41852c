/**
 * `@salient/game-empires-alliances`: Empires & Alliances (Compass Games, 2018), Scenario 3
 * "1918: Over There": the Game, the data-pack schema and checks, the bundled approximation pack, and
 * the named rulings (see README.md and PLAN.md).
 */
export { empiresAlliances, RULES_VERSION } from './game.ts';
export type { EaState } from './rules/state.ts';
export * as schema from './pack/schema.ts';
export { checkEaPack } from './pack/check.ts';
export { approximationPack } from './pack/bundled.ts';
export { RULINGS, DEFAULT_RULINGS, parseRulings, type Ruling, type RulingChoice } from './rules/rulings.ts';
export { EA_SECTIONS } from './rules/sections.ts';
