/**
 * Errors a user can act on. Every error carries a stable `code`, a message that says what was wrong,
 * where, and what to do, and optionally the JSON-path issues that caused it. The CLI prints
 * `SalientError`s without a stack trace; anything else is a bug and is reported as one.
 */
import type { PathIssue } from './contract.ts';

export type ErrorCode =
  | 'UNKNOWN_GAME'
  | 'UNKNOWN_SCENARIO'
  | 'UNKNOWN_PACK'
  | 'UNKNOWN_SEAT'
  | 'UNKNOWN_BOT'
  | 'BAD_SEATS'
  | 'BAD_PACK'
  | 'BAD_REPLAY'
  | 'BAD_OPTION'
  | 'BAD_ARGUMENT'
  | 'ILLEGAL_CHOICE'
  | 'NOT_A_DECISION'
  | 'REPLAY_MISMATCH'
  | 'IO'
  | 'BAD_CONFIG'
  | 'BAD_QUERY'
  | 'TELEMETRY_LOCKED'
  | 'TELEMETRY_AUTH'
  | 'TELEMETRY_UNREACHABLE'
  | 'TELEMETRY_SCHEMA'
  | 'BAD_SPEC'
  | 'UNKNOWN_TOURNAMENT'
  | 'QUEUE_UNREACHABLE'
  | 'POOL_THREAD_START'
  | 'BAD_BASELINE';

export class SalientError extends Error {
  override readonly name: string = 'SalientError';
  readonly code: ErrorCode;
  readonly issues: readonly PathIssue[];

  constructor(code: ErrorCode, message: string, issues: readonly PathIssue[] = []) {
    super(message);
    this.code = code;
    this.issues = issues;
  }

  /** Message plus one line per issue, as the CLI prints it. */
  detail(): string {
    if (this.issues.length === 0) return this.message;
    return [this.message, ...this.issues.map((i) => `  ${i.path}: ${i.message}`)].join('\n');
  }
}

/** Thrown by `Game.apply` when given a choice that `pending` did not offer. */
export class IllegalChoiceError extends SalientError {
  override readonly name = 'IllegalChoiceError';
  constructor(message: string) {
    super('ILLEGAL_CHOICE', message);
  }
}

/** An error listing the valid names, for unknown game/scenario/seat/bot/pack names. */
export function unknownName(code: ErrorCode, what: string, given: string, valid: readonly string[]): SalientError {
  const list = valid.length ? valid.join(', ') : '(none)';
  return new SalientError(code, `Unknown ${what} '${given}'. Valid ${what}s: ${list}.`);
}
