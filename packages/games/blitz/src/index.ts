/** `@salient/game-blitz`: Blitz! A World in Conflict, short Scenarios A and B. */
export { blitz, RULES_VERSION } from './game.ts';
export type { BlitzState } from './rules/state.ts';
export * as schema from './pack/schema.ts';
export { checkBlitzPack } from './pack/check.ts';
export { approximationPack } from './pack/bundled.ts';
