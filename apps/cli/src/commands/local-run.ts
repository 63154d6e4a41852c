/**
 * Playing a tournament plan in the local pool from the command line, for `tournament run` and
 * `report balance --sweep`: a heading on stderr (what is already recorded and what is left), progress,
 * and Ctrl-C to cancel (what finished is kept; a second Ctrl-C quits at once).
 */
import type { ExternalBots } from '@salient/bots';
import { SalientError, hashJson } from '@salient/engine';
import type { TournamentPlan, TournamentSpec } from '@salient/scheduler';
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

/** What is left of a spec (as recorded: plain JSON) without its id, name, games and seeds. */
function specShape(spec: unknown): Record<string, unknown> {
  const { id: _id, name: _name, gamesPerPairing: _games, seeds: _seeds, ...rest } = JSON.parse(JSON.stringify(spec)) as TournamentSpec;
  return rest;
}

/** Whether two specs differ only in how many games they play: the same shape, the seeds of one the first of the other's. */
export function samePlayBut(games: unknown, other: unknown): boolean {
  const a = games as Partial<TournamentSpec> | null;
  const b = other as Partial<TournamentSpec> | null;
  if (!a || !b || !Array.isArray(a.seeds) || !Array.isArray(b.seeds)) return false;
  const [few, many] = a.seeds.length <= b.seeds.length ? [a.seeds, b.seeds] : [b.seeds, a.seeds];
  return few.every((x, i) => many[i] === x) && hashJson(specShape(a)) === hashJson(specShape(b));
}

/**
 * Refuse to play `plan` into a store that holds its tournament id under another spec (`BAD_ARGUMENT`),
 * as the queue refuses it: the new matches would be counted with the old ones in every report of that
 * tournament. More or fewer games of the same spec are fine (a run grows or resumes).
 */
async function checkSameTournament(t: Telemetry, plan: TournamentPlan): Promise<void> {
  const stored = await t.tournamentSpec(plan.tournamentId);
  if (!stored || stored.specHash === plan.specHash || samePlayBut(stored.spec, plan.spec)) return;
  const was = specShape(stored.spec);
  const now = specShape(plan.spec);
  const differ = [...new Set([...Object.keys(was), ...Object.keys(now)])].filter((k) => hashJson(was[k] ?? null) !== hashJson(now[k] ?? null));
  throw new SalientError(
    'BAD_ARGUMENT',
    `Tournament id '${plan.tournamentId}' is already recorded in ${t.where} with a different spec (${differ.length ? `it differs in ${differ.join(', ')}` : 'its seeds differ'}). ` +
      `Give the changed spec a new id, or none (one is made from the spec); the recorded results stay under '${plan.tournamentId}'.`,
  );
}

/** Play `plan` in the local pool as `o` says; Ctrl-C cancels. */
export async function playLocal(plan: TournamentPlan, o: LocalRunOptions): Promise<LocalRunResult> {
  if (o.telemetry) await checkSameTournament(o.telemetry, plan);
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
