/**
 * Why a match job failed, in the terms an operator acts on: the match as planned cannot be played
 * anywhere (`match`: bad input, fix the spec), the tournament was cancelled (`cancelled`), or the
 * infrastructure let it down (`infrastructure`: the worker playing it died more often than the stall
 * limit allows, a crash on every attempt) — for the last two, `salient tournament retry` plays it again.
 */
import type { ErrorCode } from '@salient/engine';

/** Errors that no retry can mend: the match as planned cannot be played anywhere. */
export const BAD_INPUT: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'UNKNOWN_GAME',
  'UNKNOWN_SCENARIO',
  'UNKNOWN_PACK',
  'UNKNOWN_SEAT',
  'UNKNOWN_BOT',
  'BAD_SEATS',
  'BAD_PACK',
  'BAD_OPTION',
  'BAD_ARGUMENT',
  'BAD_SPEC',
]);

export type JobFault = 'match' | 'cancelled' | 'infrastructure';

/** The fault behind a failed job's reason (as the processor and BullMQ word it). */
export function faultOf(reason: string | undefined): JobFault {
  const text = reason ?? '';
  if (/^cancelled:/.test(text)) return 'cancelled';
  const code = /^([A-Z_]+):/.exec(text)?.[1];
  // BOT_NOT_ALLOWED, PACK_NOT_ALLOWED: the worker's bots file refuses the job (job-bots.ts): the spec must change.
  if (code !== undefined && (BAD_INPUT.has(code as ErrorCode) || code === 'BOT_NOT_ALLOWED' || code === 'PACK_NOT_ALLOWED')) return 'match';
  return 'infrastructure';
}

/** A failed job's reason as people read it: BullMQ's stall message says what happened and what to do. */
export function explainFailure(reason: string | undefined, tournamentId: string): string {
  const text = reason ?? 'no reason recorded';
  if (/stalled more than allowable limit/i.test(text)) {
    return `infrastructure fault: the worker playing it died or lost its lock too many times (${text}); \`salient tournament retry ${tournamentId}\` plays it again`;
  }
  if (faultOf(text) === 'infrastructure') return `infrastructure fault: ${text}; \`salient tournament retry ${tournamentId}\` plays it again`;
  return text;
}
