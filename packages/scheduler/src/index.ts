/**
 * `@salient/scheduler`: tournaments. A spec (YAML or JSON, validated) is planned into matches with
 * deterministic ids; a local pool of worker threads or BullMQ workers play them; standings are counted
 * from the outcomes.
 *
 * @packageDocumentation
 */
export type * from './types.ts';
export { playPlanned, outcomeOf, resolveGamePack, type PlayOptions } from './play.ts';
