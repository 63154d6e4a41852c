/**
 * `salient report` and `salient query`: what the telemetry store knows, as tables.
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { Telemetry, TelemetryFilter } from '@salient/telemetry';
import { SalientError } from '@salient/engine';
import { say, table } from '../output.ts';
import { withTelemetry } from '../telemetry.ts';
import { commandDescription } from './summaries.ts';
import type { SweepFlags } from './report-sweep.ts';
import { integer } from '../args.ts';

interface ReportFlags extends SweepFlags {
  sweep?: boolean;
}

/** `--levels 25,100,400`: two or more numbers. */
export function levelList(value: string): number[] {
  const parts = value.split(',').map((x) => x.trim());
  const out = parts.map(Number);
  if (parts.length < 2 || parts.some((x) => x === '') || out.some((x) => !Number.isFinite(x))) {
    throw new InvalidArgumentError(`expected two or more numbers separated by commas, rising (such as 25,100,400); got '${value}'.`);
  }
  return out;
}

/** `--margin 0.1`: a fraction in (0, 1). */
export function margin(value: string): number {
  const n = Number(value);
  if (!(value.trim() !== '' && n > 0 && n < 1)) throw new InvalidArgumentError(`expected a fraction between 0 and 1 (0.1 is ten percentage points); got '${value}'.`);
  return n;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const fix = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

/** The report's lines: win rates by scenario, side and bot, then game lengths. */
export async function reportLines(t: Telemetry, filter: TelemetryFilter): Promise<string[]> {
  const wins = await t.winRates(filter);
  const lengths = await t.gameLengths(filter);
  if (!wins.length) {
    return [`No matches recorded${describe(filter)} in ${t.where}.`, 'Record some with `salient play --telemetry` (or `npm start`).'];
  }
  const out: string[] = [`Win rates${describe(filter)} (matches that ended; forfeits count for the side that did not forfeit)`];
  out.push(
    table(
      ['game', 'scenario', 'pack', 'rules', 'side', 'bot', 'games', 'wins', 'losses', 'draws', 'win rate'],
      wins.map((w) => [w.game, w.scenario, w.packId, w.rulesVersion, w.side, w.bot, String(w.games), String(w.wins), String(w.losses), String(w.draws), pct(w.winRate)]),
    ),
  );
  const byTurns = lengths.filter((l) => l.metric === 'turns' || l.metric === 'decisions');
  if (byTurns.length) {
    out.push('', 'Game lengths');
    out.push(
      table(
        ['game', 'scenario', 'pack', 'measure', 'matches', 'mean', 'median', 'p90', 'min', 'max'],
        byTurns.map((l) => [l.game, l.scenario, l.packId, l.metric === 'turns' ? 'last turn' : l.metric, String(l.matches), fix(l.mean), fix(l.p50), fix(l.p90), String(l.min), String(l.max)]),
      ),
    );
  }
  return out;
}

function describe(f: TelemetryFilter): string {
  const parts = Object.entries(f)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} ${v}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

function filterOf(f: ReportFlags): TelemetryFilter {
  const out: TelemetryFilter = {};
  if (f.game) out.game = f.game;
  if (f.scenario) out.scenario = f.scenario;
  if (f.bot) out.bot = f.bot;
  if (f.pack) out.pack = f.pack;
  if (f.tournament) out.tournament = f.tournament;
  return out;
}

export function registerReport(program: Command): void {
  program
    .command('report')
    .description(commandDescription('report'))
    .argument('[kind]', "'balance' for the balance report; nothing for the summary")
    .option('-g, --game <id>', 'only this game')
    .option('-s, --scenario <id>', 'only this scenario')
    .option('-b, --bot <name>', 'only matches this bot played (name, or name@version)')
    .option('--pack <id|hash>', 'only this pack (id or content hash)')
    .option('--tournament <id>', 'only this tournament')
    .option('--json', 'print the rows as JSON')
    .option('--sweep', 'with balance: the strength-sweep report (each side\'s win rate as the bots get stronger, and where it stops moving)')
    .option('--param <name>', 'with --sweep: play a sweep of --bot over this parameter (such as iterations)')
    .option('--levels <a,b,c>', 'with --sweep: the parameter\'s levels, rising (such as 25,100,400)', levelList)
    .option('--games <n>', 'with --sweep: games per level per scenario (default 20)', integer(1, 100_000))
    .option('--seed <n>', 'with --sweep: first seed (default 1); every level plays the same seeds', integer(0))
    .option('--cap <n>', 'with --sweep: decision cap per match (adjudicated there)', integer(1))
    .option('--timeout <ms>', "with --sweep: per-decision time limit in ms (default the runner's 10 s); a planner's first decision of an impulse can take longer on a slow or loaded machine", integer(1))
    .option('--threads <n>', 'with --sweep: game threads (default: one per core)', integer(1, 1024))
    .option('--margin <fraction>', 'with --sweep: a change in a side\'s win rate below this counts as none (default 0.1)', margin)
    .option('--quiet', 'with --sweep: no progress on stderr')
    .addHelpText(
      'after',
      `
Strength sweeps (report balance --sweep):
  salient report balance --sweep --tournament <id>      a recorded strength-sweep tournament
  salient report balance --sweep --game blitz --scenario A   every recorded sweep of that scenario
  salient report balance --sweep --scenario A,B --bot mcts:rollout=0 --param iterations \\
      --levels 25,100,400 --games 20                    play the sweep here first, then report it
Each level plays itself on the same seeds; the report gives each side's win rate per level with 95%
intervals, and whether the figure has stopped moving (see docs/balance-sweep.md for the rule).`,
    )
    .action(async (kind: string | undefined, f: ReportFlags) => {
      if (kind !== undefined && kind !== 'balance') {
        throw new SalientError('BAD_ARGUMENT', `report: unknown report '${kind}'. Use \`salient report\` for the summary or \`salient report balance\` for the balance report.`);
      }
      const sweepOnly = (['param', 'levels', 'games', 'seed', 'cap', 'timeout', 'threads', 'margin', 'quiet'] as const).filter((k) => f[k] !== undefined).map((k) => `--${k}`);
      if (!f.sweep && sweepOnly.length) {
        throw new SalientError('BAD_ARGUMENT', `report: ${sweepOnly.join(', ')} only go with \`salient report balance --sweep\`; add --sweep or drop them.`);
      }
      if (f.sweep && kind !== 'balance') throw new SalientError('BAD_ARGUMENT', 'report: --sweep is a balance report; use `salient report balance --sweep`.');
      if (f.sweep) {
        const { sweepCommand } = await import('./report-sweep.ts');
        return sweepCommand(f, withTelemetry);
      }
      await withTelemetry(async (t) => {
        const filter = filterOf(f);
        if (kind === 'balance') {
          // The balance report lives with the API (the dashboard shows it too); importing the API
          // package brings fastify and its plugins, which the summary and `query` do without.
          const { balanceLines, balanceReport } = await import('@salient/api');
          const r = await balanceReport(t, filter);
          if (f.json) say(JSON.stringify(r, null, 2));
          else for (const l of balanceLines(r)) say(l);
          return;
        }
        if (f.json) {
          say(JSON.stringify({ winRates: await t.winRates(filter), gameLengths: await t.gameLengths(filter) }, null, 2));
          return;
        }
        for (const l of await reportLines(t, filter)) say(l);
      });
    });

  program
    .command('query')
    .description(commandDescription('query'))
    .argument('<sql>', 'the statement, e.g. "SELECT scenario, count() FROM matches FINAL GROUP BY scenario"')
    .option('--json', 'print the rows as JSON')
    .action(async (sql: string, f: { json?: boolean }) => {
      if (!sql.trim()) throw new SalientError('BAD_QUERY', 'The query is empty. Give one SQL statement in quotes.');
      await withTelemetry(async (t) => {
        const r = await t.query(sql);
        if (f.json) {
          say(JSON.stringify(r.rows, null, 2));
          return;
        }
        if (!r.rows.length) {
          say(`(no rows; columns: ${r.columns.map((c) => c.name).join(', ') || 'none'})`);
          return;
        }
        const cell = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
        say(table(r.columns.map((c) => c.name), r.rows.map((row) => r.columns.map((c) => cell(row[c.name])))));
        say(`${r.rows.length} row(s).`);
      });
    });
}
