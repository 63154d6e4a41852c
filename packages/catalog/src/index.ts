/**
 * `@salient/catalog`: the games this installation knows, their bundled packs, pack directories on disk
 * and JSON text with located syntax errors. The CLI, the scheduler, the worker and the API all find
 * games, scenarios and packs here, so an unknown name gets the same error everywhere.
 *
 * @packageDocumentation
 */
export * from './registry.ts';
export * from './pack-files.ts';
export * from './json-text.ts';
