/**
 * JSON text with located errors and input limits. The parser lives in `@salient/engine` so that every
 * reader (packs here, replays, specs, baselines, stored rows, API bodies) shares one; re-exported here
 * for the catalog's users.
 */
export { lineColumn, locateJsonError, parseJsonText } from '@salient/engine';
