/**
 * `salient tournament`: the command the tournament subcommands hang from, and `run`, which plays a
 * spec on this machine (a pool of worker threads; see @salient/scheduler's local executor). Matches
 * go to the telemetry store, and running the same tournament again skips those it holds. Progress goes
 * to stderr (a bar on a terminal, a line every few seconds otherwise); the standings to stdout.
 * Ctrl-C cancels cleanly (running matches stop, what finished is kept); a second Ctrl-C quits at once.
 */
import type { Command } from 'commander';
import type { Telemetry } from '@salient/telemetry';
import { loadConfiguredBots, type ExternalBots } from '@salient/bots';
import { loadTournamentSpec, planTournament, sprtText, standings, type StandingsRow, type TournamentPlan } from '@salient/scheduler';
import { progressRenderer, recordedOutcomes, runLocalTournament, type LocalRunResult } from '@salient/scheduler/local';
import { integer } from '../args.ts';
import { EXIT } from '../errors.ts';
import { say, table } from '../output.ts';
import { storeNotes, withTelemetry } from '../telemetry.ts';

interface RunFlags {
  threads?: number;
  quiet?: boolean;
  json?: boolean;
  telemetry: boolean;
  bots?: string;
}

/** Matches of `plan` the store already holds (they will be skipped). */
async function recordedCount(t: Telemetry, plan: TournamentPlan): Promise<number> {
  return (await recordedOutcomes(t, plan)).length;
}

const pct = (x: number | null) => (x === null ? '-' : `${x.toFixed(1)}%`);
const wld = (r: { wins: number; losses: number; draws: number }) => `${r.wins}/${r.losses}/${r.draws}`;

/** The standings as a table: entrant, games, W/L/D, score %, W/L/D by side, forfeits, errors. */
export function standingsTable(rows: readonly StandingsRow[]): string {
  const sides = [...new Set(rows.flatMap((r) => Object.keys(r.bySide)))].sort();
  return table(
    ['#', 'entrant', 'games', 'W/L/D', 'score %', ...sides.map((s) => `${s} W/L/D`), 'forfeits', 'errors'],
    rows.map((r, i) => [
      String(i + 1),
      r.name,
      String(r.games),
      wld(r),
      pct(r.scorePct),
      ...sides.map((s) => (r.bySide[s] ? wld(r.bySide[s]) : '-')),
      String(r.forfeits),
      String(r.errors),
    ]),
  );
}

/** Play `plan` with the options of `run`; Ctrl-C cancels. */
async function play(plan: TournamentPlan, f: RunFlags, telemetry: Telemetry | undefined, bots: ExternalBots): Promise<LocalRunResult> {
  const ctrl = new AbortController();
  const onSigint = () => {
    if (ctrl.signal.aborted) process.exit(EXIT.cancelled);
    process.stderr.write('\nsalient: cancelling the tournament; finished matches are kept (Ctrl-C again to quit at once)\n');
    ctrl.abort(new Error('cancelled by Ctrl-C'));
  };
  const renderer = f.quiet ? undefined : progressRenderer();
  if (!f.quiet) {
    const before = telemetry ? await recordedCount(telemetry, plan) : 0;
    process.stderr.write(
      `Tournament ${plan.tournamentId}: ${plan.matches.length} matches, ${before} already recorded, ${plan.matches.length - before} to play` +
        `${telemetry ? '' : ' (no telemetry: nothing is recorded or skipped)'}.\n`,
    );
  }
  process.on('SIGINT', onSigint);
  try {
    return await runLocalTournament({
      plan,
      bots,
      signal: ctrl.signal,
      ...(f.threads !== undefined ? { threads: f.threads } : {}),
      ...(telemetry ? { telemetry } : {}),
      ...(renderer ? { onProgress: renderer.onProgress } : {}),
    });
  } finally {
    renderer?.stop();
    process.off('SIGINT', onSigint);
  }
}

function report(plan: TournamentPlan, r: LocalRunResult, f: RunFlags, notes: string[]): void {
  const rows = standings(r.outcomes, plan.spec.entrants.map((e) => e.name));
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
          standings: rows,
          ...(r.stop ? { stop: r.stop } : {}),
          ...(r.stopped ? { stopped: r.stopped } : {}),
        },
        null,
        2,
      ),
    );
    return;
  }
  say(
    `Tournament ${plan.tournamentId}${r.cancelled ? ' (cancelled)' : ''}: ${r.outcomes.filter((o) => o.kind !== 'cancelled').length}/${plan.matches.length} matches ` +
      `(${r.played} played now on ${r.threads} thread(s) in ${(r.wallMs / 1000).toFixed(1)} s, ${r.skipped} recorded before).`,
  );
  say(standingsTable(rows));
  if (r.stop) for (const line of sprtText(r.stop)) say(line);
  if (r.stopped) say(`Stopped early: ${r.stopped.reason}; ${r.stopped.unplayed} of ${plan.matches.length} planned matches left unplayed.`);
  else if (r.stop && !r.cancelled && r.stop.state === 'continue') say(`The plan ran out before the SPRT decided; give the spec more seeds (gamesPerPairing) to let it finish.`);
  for (const n of notes) say(n);
}

/** Register `salient tournament` and its `run` subcommand; returns `tournament` for other subcommands. */
export function registerTournament(program: Command): Command {
  const tournament = program.command('tournament').description('Run tournaments: play a spec here (run), or on a queue of workers.');
  tournament
    .command('run <spec>')
    .description('Play a tournament spec (YAML or JSON) on this machine, on worker threads; running it again skips the matches already recorded.')
    .option('--threads <n>', 'game threads (default: one per core)', integer(1, 1024))
    .option('--quiet', 'no progress on stderr')
    .option('--json', 'print the result and standings as JSON')
    .option('--no-telemetry', 'record nothing (and so skip nothing)')
    .option('--bots <file>', 'the bots file: its registered bots play as ext:<name> (default: SALIENT_BOTS_FILE)')
    .action(async (specPath: string, f: RunFlags) => {
      // A local run: the user is the operator, so cmd: and http: entrants play as given.
      const bots = await loadConfiguredBots(f.bots);
      const plan = await planTournament(await loadTournamentSpec(specPath, { bots }));
      let result: LocalRunResult;
      if (f.telemetry) {
        await withTelemetry(async (t) => {
          result = await play(plan, f, t, bots);
          report(plan, result, f, f.json ? [] : await storeNotes(t));
        });
      } else {
        result = await play(plan, f, undefined, bots);
        report(plan, result, f, []);
      }
      if (result!.cancelled) process.exitCode = EXIT.cancelled;
    });
  return tournament;
}
