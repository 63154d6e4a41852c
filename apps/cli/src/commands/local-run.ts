/**
 * Playing a tournament plan in the local pool from the command line, for `tournament run` and
 * `report balance --sweep`: a heading on stderr (what is already recorded and what is left), progress,
 * and Ctrl-C to cancel (what finished is kept; a second Ctrl-C quits at once).
 */
import type { ExternalBots } from '@salient/bots';
import type { TournamentPlan } from '@salient/scheduler';
import { progressRenderer, recordedOutcomes, runLocalTournament, type LocalRunResult } from '@salient/scheduler/local';
import type { Telemetry } from '@salient/telemetry';
import { EXIT } from '../errors.ts';

export interface LocalRunOptions {
  threads?: number | undefined;
  quiet?: boolean | undefined;
  telemetry?: Telemetry | undefined;
  bots?: ExternalBots | undefined;
  /** What is played, for the Ctrl-C message (`tournament`, `sweep`). */
  noun: string;
  /** The heading's start, before `: N matches, …` (such as `Tournament t-…`). */
  heading: string;
  /** Said after the counts, inside the heading's sentence. */
  note?: string;
}

/** Matches of `plan` already recorded in `t`. */
export async function recordedCount(t: Telemetry, plan: TournamentPlan): Promise<number> {
  return (await recordedOutcomes(t, plan)).length;
}

/** Play `plan` in the local pool as `o` says; Ctrl-C cancels. */
export async function playLocal(plan: TournamentPlan, o: LocalRunOptions): Promise<LocalRunResult> {
  const ctrl = new AbortController();
  const onSigint = () => {
    if (ctrl.signal.aborted) process.exit(EXIT.cancelled);
    process.stderr.write(`\nsalient: cancelling the ${o.noun}; finished matches are kept (Ctrl-C again to quit at once)\n`);
    ctrl.abort(new Error('cancelled by Ctrl-C'));
  };
  const renderer = o.quiet ? undefined : progressRenderer();
  if (!o.quiet) {
    const before = o.telemetry ? await recordedCount(o.telemetry, plan) : 0;
    process.stderr.write(`${o.heading}: ${plan.matches.length} matches, ${before} already recorded, ${plan.matches.length - before} to play${o.note ?? ''}.\n`);
  }
  process.on('SIGINT', onSigint);
  try {
    return await runLocalTournament({
      plan,
      signal: ctrl.signal,
      ...(o.bots ? { bots: o.bots } : {}),
      ...(o.threads !== undefined ? { threads: o.threads } : {}),
      ...(o.telemetry ? { telemetry: o.telemetry } : {}),
      ...(renderer ? { onProgress: renderer.onProgress } : {}),
    });
  } finally {
    renderer?.stop();
    process.off('SIGINT', onSigint);
  }
}
