/**
 * Stop rules: when a tournament may end before its plan is played out. An executor feeds every
 * outcome to `observe` in the order it learns of them and stops handing out matches once `decided()`
 * says so. `fixed` stops when every planned match has been observed; `sprt` (a sequential probability
 * ratio test on Elo) is checked in specs already and arrives with the statistics package.
 */
import { SalientError } from '@salient/engine';
import type { MatchOutcome, StopSpec } from './types.ts';

export interface StopDecision {
  stop: boolean;
  /** Why, for logs and status, when `stop` is true. */
  reason?: string;
}

export interface StopRule {
  observe(outcome: MatchOutcome): void;
  decided(): StopDecision;
}

/** What a rule may know of the plan it watches. */
export interface StopContext {
  /** Number of planned matches. */
  matches: number;
}

/** Play the whole plan: stop once every planned match has an outcome (of any kind). */
export function fixedStopRule(ctx: StopContext): StopRule {
  const seen = new Set<string>();
  return {
    observe(o) {
      seen.add(o.matchId);
    },
    decided() {
      return seen.size >= ctx.matches ? { stop: true, reason: `all ${ctx.matches} planned matches played` } : { stop: false };
    },
  };
}

/** The rule a spec asks for. Throws `BAD_SPEC` for `sprt`, which is not available yet. */
export function createStopRule(spec: StopSpec, ctx: StopContext): StopRule {
  switch (spec.rule) {
    case 'fixed':
      return fixedStopRule(ctx);
    case 'sprt':
      throw new SalientError(
        'BAD_SPEC',
        "stop: the 'sprt' rule is not available yet (it comes with the statistics package). Use stop: { rule: fixed } and a fixed gamesPerPairing for now.",
        [{ path: 'stop.rule', message: "'sprt' is not available yet; use 'fixed'." }],
      );
  }
}
