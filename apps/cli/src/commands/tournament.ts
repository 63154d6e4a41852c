/**
 * `salient tournament`: the command the tournament subcommands hang from, and `run`, which plays a
 * spec on this machine (a pool of worker threads; see @salient/scheduler's local executor). Matches
 * go to the telemetry store, and running the same tournament again skips those it holds. Progress goes
 * to stderr (a bar on a terminal, a line every few seconds otherwise); the standings and results to
 * stdout. Ctrl-C cancels cleanly (running matches stop, what finished is kept); a second Ctrl-C quits
 * at once. Exit codes a CI job can act on: see `EXIT` and `runExitCode`.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { Telemetry } from '@salient/telemetry';
import { SalientError } from '@salient/engine';
import { loadConfiguredBots, type ExternalBots } from '@salient/bots';
import {
  loadTournamentSpec,
  planTournament,
  problemCounts,
  resultsContextOf,
  sprtText,
  tournamentResults,
  tournamentState,
  type TournamentPlan,
} from '@salient/scheduler';
import type { LocalRunResult } from '@salient/scheduler/local';
import { playLocal } from './local-run.ts';
import { exceeds, integer, threshold, thresholdText, type Threshold } from '../args.ts';
import { EXIT } from '../errors.ts';
import { say } from '../output.ts';
import { storeNotes, withTelemetry } from '../telemetry.ts';
import { resultsLines, standingsTable } from './tournament-results.ts';

export { standingsTable } from './tournament-results.ts';

interface RunFlags {
  threads?: number;
  quiet?: boolean;
  json?: boolean;
  telemetry: boolean;
  bots?: string;
  failOn?: SprtVerdict[];
  maxForfeits?: Threshold;
  maxErrors?: Threshold;
}

/** What an SPRT can come to: a hypothesis accepted, or the plan ran out first. */
type SprtVerdict = 'h0' | 'h1' | 'undecided';
const VERDICTS: readonly SprtVerdict[] = ['h0', 'h1', 'undecided'];

function verdicts(value: string): SprtVerdict[] {
  const out = value.split(',').map((v) => v.trim().toLowerCase());
  const bad = out.filter((v) => !VERDICTS.includes(v as SprtVerdict));
  if (bad.length || out.length === 0) {
    throw new InvalidArgumentError(`expected h0, h1 or undecided (several separated by commas, such as h0,undecided); got '${value}'.`);
  }
  return out as SprtVerdict[];
}

/** Play `plan` with the options of `run`; Ctrl-C cancels. */
function play(plan: TournamentPlan, f: RunFlags, telemetry: Telemetry | undefined, bots: ExternalBots): Promise<LocalRunResult> {
  return playLocal(plan, {
    threads: f.threads,
    quiet: f.quiet,
    telemetry,
    bots,
    noun: 'tournament',
    heading: `Tournament ${plan.tournamentId}`,
    note: telemetry ? '' : ' (no telemetry: nothing is recorded or skipped)',
  });
}

/** The state the run left the tournament in, worded as `tournament list` and `status` word it. */
function runState(plan: TournamentPlan, r: LocalRunResult) {
  const counts = problemCounts(r.outcomes);
  const d = r.decision;
  return tournamentState({
    planned: plan.matches.length,
    done: counts.finished,
    running: 0,
    waiting: 0,
    failed: { infrastructure: 0, input: 0 },
    forfeits: counts.forfeits,
    errors: counts.errors,
    open: false,
    started: true,
    cancelled: r.cancelled,
    ...(r.stop ? { sprt: { pairs: d?.pairs ?? r.stop.pairs, ...(d?.accepted ? { accepted: d.accepted } : {}) } } : {}),
  });
}

/**
 * The exit code of a run and why it is not 0, checked in this order: a cancelled run (130); forfeits or
 * engine errors over `--max-forfeits` / `--max-errors` (5: the results are not to be trusted as they
 * stand, whatever they say); an SPRT verdict `--fail-on` names (4); else 0.
 */
export function runExitCode(r: LocalRunResult, f: Pick<RunFlags, 'failOn' | 'maxForfeits' | 'maxErrors'>): { code: number; why: string[] } {
  if (r.cancelled) return { code: EXIT.cancelled, why: ['the tournament was cancelled'] };
  const c = problemCounts(r.outcomes);
  const over: string[] = [];
  if (f.maxForfeits && exceeds(f.maxForfeits, c.forfeits, c.finished)) over.push(`${c.forfeits} forfeit(s) in ${c.finished} finished matches is over --max-forfeits ${thresholdText(f.maxForfeits)}`);
  if (f.maxErrors && exceeds(f.maxErrors, c.errors, c.finished)) over.push(`${c.errors} engine error(s) in ${c.finished} finished matches is over --max-errors ${thresholdText(f.maxErrors)}`);
  if (over.length) return { code: EXIT.threshold, why: over };
  const d = r.decision;
  const verdict: SprtVerdict | undefined = d?.accepted === 'H0' ? 'h0' : d?.accepted === 'H1' ? 'h1' : d?.stop ? 'undecided' : undefined;
  if (verdict && f.failOn?.includes(verdict)) {
    return { code: EXIT.sprt, why: [`the SPRT ${verdict === 'undecided' ? 'ran out of plan undecided' : `accepted ${verdict.toUpperCase()}`} (--fail-on ${f.failOn.join(',')})`] };
  }
  return { code: EXIT.ok, why: [] };
}

function report(plan: TournamentPlan, r: LocalRunResult, f: RunFlags, notes: string[]): { code: number; why: string[] } {
  const results = tournamentResults(r.outcomes, resultsContextOf(plan.spec));
  const { state, reason } = runState(plan, r);
  const exit = runExitCode(r, f);
  if (f.json) {
    say(
      JSON.stringify(
        {
          tournamentId: plan.tournamentId,
          specHash: plan.specHash,
          matches: plan.matches.length,
          played: r.played,
          /** Matches with a result (played now or before), cancelled ones left out. */
          finished: r.outcomes.filter((o) => o.kind !== 'cancelled').length,
          skipped: r.skipped,
          cancelled: r.cancelled,
          threads: r.threads,
          threadDeaths: r.threadDeaths,
          wallMs: Math.round(r.wallMs),
          state,
          reason,
          standings: results.standings,
          pairings: results.pairings,
          crossTable: results.crossTable,
          byScenario: results.byScenario,
          ...(r.stop ? { stop: r.stop } : {}),
          ...(r.decision?.accepted ? { accepted: r.decision.accepted } : {}),
          ...(r.stopped ? { stopped: r.stopped } : {}),
          exitCode: exit.code,
          ...(exit.why.length ? { exitReasons: exit.why } : {}),
        },
        null,
        2,
      ),
    );
    return exit;
  }
  say(
    `Tournament ${plan.tournamentId}${r.cancelled ? ' (cancelled)' : ''}: ${r.outcomes.filter((o) => o.kind !== 'cancelled').length}/${plan.matches.length} matches ` +
      `(${r.played} played now on ${r.threads} thread(s) in ${(r.wallMs / 1000).toFixed(1)} s, ${r.skipped} recorded before).`,
  );
  say(standingsTable(results.standings));
  if (r.stop) for (const line of sprtText(r.stop)) say(line);
  if (r.stopped) say(`Stopped early: ${r.stopped.reason}; ${r.stopped.unplayed} of ${plan.matches.length} planned matches left unplayed.`);
  else if (r.stop && !r.cancelled && r.decision?.stop && !r.decision.accepted) say(`The plan ran out before the SPRT decided; give the spec more seeds (gamesPerPairing) to let it finish.`);
  for (const line of resultsLines(results, plan.spec.format)) say(line);
  say();
  say(`State: ${reason}.`);
  for (const n of notes) say(n);
  return exit;
}

/** Add `run` to `salient tournament` (program.ts makes the parent command). */
export function addRunCommand(tournament: Command): void {
  tournament
    .command('run <spec>')
    .description('Play a tournament spec (YAML or JSON) on this machine, on worker threads; running it again skips the matches already recorded.')
    .option('--threads <n>', 'game threads (default: one per core)', integer(1, 1024))
    .option('--quiet', 'no progress on stderr')
    .option('--json', 'print the result and standings as JSON')
    .option('--no-telemetry', 'record nothing (and so skip nothing)')
    .option('--bots <file>', 'the bots file: its registered bots play as ext:<name> (default: SALIENT_BOTS_FILE)')
    .option('--fail-on <verdicts>', `exit ${EXIT.sprt} when the SPRT (stop: sprt) comes to one of these: h0, h1, undecided (comma-separated, e.g. h0,undecided)`, verdicts)
    .option('--max-forfeits <n|p%>', `exit ${EXIT.threshold} when more than N matches (or P% of the finished ones) end in a forfeit`, threshold)
    .option('--max-errors <n|p%>', `exit ${EXIT.threshold} when more than N matches (or P% of the finished ones) end in an engine error`, threshold)
    .addHelpText(
      'after',
      `
Exit codes (for CI jobs):
  0    done: the plan played out, or a stop rule ended it (and no check below failed)
  1    a bug in Salient (stack trace printed)
  2    a mistake in what was asked (a bad spec, flag or bots file), one line on stderr
  ${EXIT.sprt}    the SPRT's verdict is one --fail-on names (h0: the candidate is not stronger;
       h1: it is; undecided: the plan ran out first)
  ${EXIT.threshold}    forfeits or engine errors over --max-forfeits / --max-errors
       (checked before --fail-on: a verdict resting on too many bad games is not one to act on)
  130  cancelled with Ctrl-C (finished matches are kept; run it again to resume)
A resumed run that plays nothing reports (and exits on) the verdict and counts it finds recorded.`,
    )
    .action(async (specPath: string, f: RunFlags) => {
      // A local run: the user is the operator, so cmd: and http: entrants play as given.
      const bots = await loadConfiguredBots(f.bots);
      const plan = await planTournament(await loadTournamentSpec(specPath, { bots }));
      if (f.failOn && plan.spec.stop.rule !== 'sprt') {
        throw new SalientError('BAD_ARGUMENT', `--fail-on checks an SPRT's verdict, but ${specPath} has no stop: sprt; drop --fail-on or add an SPRT to the spec.`);
      }
      let exit: { code: number; why: string[] };
      if (f.telemetry) {
        exit = await withTelemetry(async (t) => {
          const result = await play(plan, f, t, bots);
          return report(plan, result, f, f.json ? [] : await storeNotes(t));
        });
      } else {
        exit = report(plan, await play(plan, f, undefined, bots), f, []);
      }
      if (exit.code !== EXIT.ok && exit.code !== EXIT.cancelled) process.stderr.write(`salient: exit ${exit.code}: ${exit.why.join('; ')}.\n`);
      process.exitCode = exit.code;
    });
}
