export type * from './contract.ts';
export { SalientError, IllegalChoiceError, unknownName, type ErrorCode } from './errors.ts';
export { redactSecrets, redactDeep, isSecretName, REDACTED } from './redact.ts';
export { canonicalJson, hashString, hashJson } from './hash.ts';
export { RngStream, RngStreams, streamSeed } from './rng.ts';
export {
  REPLAY_FORMAT,
  replaySchema,
  seedSchema,
  parseReplay,
  runReplay,
  checkReplayProvenance,
  zodIssues,
  jsonPath,
  type LogEntry,
  type Replay,
  type ReplayOutcome,
} from './action-log.ts';
export { choose, legal } from './util.ts';
export { fidelitySchema, provenanceFields } from './pack-fields.ts';
export { lineColumn, locateJsonError, parseJsonText } from './json-text.ts';
export { parseStructuredText, textFormat, type StructuredText, type TextFormat, type TextFormatReason } from './structured-text.ts';
export { INPUT_LIMITS, MAX_INPUT_DEPTH, checkDepth, checkSize, formatSize, shortPath, tooDeepMessage, type InputLimit } from './input-limits.ts';

/** Version of the engine package, recorded with every match. */
export const ENGINE_VERSION = '0.1.0';
