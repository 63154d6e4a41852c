/**
 * `@salient/game-empires-alliances`: Empires & Alliances (Compass Games, 2018), Scenario 3
 * "1918: Over There". This first part holds the data pack (schema, checks, the bundled approximation)
 * and the rules as pure functions, each citing its section; the Game itself follows once the hex layer
 * (@salient/hexmap) provides movement and supply (see PLAN.md).
 */
export * as schema from './pack/schema.ts';
export { checkEaPack } from './pack/check.ts';
export { approximationPack } from './pack/bundled.ts';
export { RULINGS, DEFAULT_RULINGS, parseRulings, type Ruling, type RulingChoice } from './rules/rulings.ts';
export { EA_SECTIONS } from './rules/sections.ts';
