/** `salient rules coverage`: every rule section, its status, the tests citing it, and how often it fired. */
import type { Command } from 'commander';
import { EXIT } from '../errors.ts';
import type { JsonObject } from '@salient/engine';
import { collect, integer, scenarioOptions } from '../args.ts';
import { say, table } from '../output.ts';
// The lazy catalog: the coverage of one game imports no other.
import { loadGame, loadPack } from '@salient/catalog/lazy';
import { barOrLines, duration, type BarOrLinesOptions } from '@salient/scheduler/local';
import { rulesCoverage, type RulesCoverage } from '../rules-coverage.ts';
import { commandDescription } from './summaries.ts';

interface CoverageFlags {
  game?: string;
  pack?: string;
  games: number;
  seed: number;
  scenario?: string[];
  option: string[];
  json?: boolean;
  check?: boolean;
  quiet?: boolean;
}

/** Progress of the coverage games as `tournament run` shows it: a bar on a terminal, a line every few seconds otherwise. */
export function coverageProgress(
  scenarios: readonly string[],
  games: number,
  o: Pick<BarOrLinesOptions<unknown>, 'stream' | 'everyMs' | 'plain'> = {},
): { onGame: (done: number, total: number, scenario: string) => void; stop: () => void } {
  const started = performance.now();
  const byScenario = new Map(scenarios.map((id) => [id, 0]));
  const perScenario = () => [...byScenario].map(([id, n]) => `${id} ${n}/${games}`).join(', ');
  const rate = (done: number) => done / Math.max(1e-3, (performance.now() - started) / 1000);
  const eta = (p: { done: number; total: number }) => (p.done ? duration(((p.total - p.done) / rate(p.done)) * 1000) : '?');
  const view = barOrLines<{ done: number; total: number }>({
    ...o,
    format: '{bar} {value}/{total} games | {rate} games/s | ETA {left} | {scenarios}',
    payload: (p) => ({ rate: rate(p.done).toFixed(2), left: eta(p), scenarios: perScenario() }),
    line: (p) => `rules coverage: ${p.done}/${p.total} games, ${rate(p.done).toFixed(2)} games/s, ETA ${eta(p)}; by scenario ${perScenario()}\n`,
  });
  return {
    onGame: (done, total, scenario) => {
      byScenario.set(scenario, (byScenario.get(scenario) ?? 0) + 1);
      view.onProgress({ done, total });
    },
    stop: view.stop,
  };
}

/**
 * `--option [SCENARIO:]KEY=VALUE` as set-up options by scenario: with a scenario prefix for that
 * scenario's games, without one for every scenario played.
 */
export function coverageOptions(pairs: readonly string[], scenarios: readonly string[]): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  const everywhere: string[] = [];
  const only = new Map<string, string[]>();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const colon = pair.indexOf(':');
    if (colon > 0 && (eq < 0 || colon < eq)) only.set(pair.slice(0, colon), [...(only.get(pair.slice(0, colon)) ?? []), pair.slice(colon + 1)]);
    else everywhere.push(pair);
  }
  for (const id of new Set([...(everywhere.length ? scenarios : []), ...only.keys()])) {
    out[id] = { ...scenarioOptions(everywhere), ...scenarioOptions(only.get(id) ?? []) };
  }
  return out;
}

const STATUS: Record<string, string> = { implemented: 'done', partial: 'partial', 'not-implemented': '-', definitions: 'terms' };

/** The report as text lines: one row per section, then what is untested or never fired. */
export function coverageLines(r: RulesCoverage): string[] {
  const rows = r.sections.map(({ section: s, tests, fired }) => [
    s.id,
    STATUS[s.status] ?? s.status,
    String(tests.length),
    s.status === 'not-implemented' || s.status === 'definitions' ? '' : String(fired),
    s.note ? `${s.title} (${s.note})` : s.title,
  ]);
  const count = (st: string) => r.sections.filter((x) => x.section.status === st).length;
  const withOptions = Object.entries(r.options ?? {}).map(([id, o]) => `${id}: ${Object.entries(o).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(' ')}`);
  const out = [
    `Rule coverage of ${r.game} (pack ${r.pack}): ${r.gamesPerScenario} random-bot game${r.gamesPerScenario === 1 ? '' : 's'} on each of scenarios ${r.scenarios.join(', ')}, seeds from ${r.seed}${withOptions.length ? `; set-up options ${withOptions.join('; ')}` : ''}.`,
    table(['section', 'status', 'tests', 'fired', 'rule'], rows, [null, null, null, null, 70]),
    `${r.sections.length} sections: ${count('implemented')} done, ${count('partial')} partial, ${count('not-implemented')} not implemented, ${count('definitions')} definitions only.`,
  ];
  if (!r.testsFound) out.push(`No tests found${r.testsDir ? ` in ${r.testsDir}` : ''} (the game was installed without them): the tests column is empty.`);
  else out.push(r.untested.length ? `Implemented but cited by no test: ${r.untested.join(', ')}.` : 'Every implemented or partial section is cited by at least one test.');
  out.push(
    r.neverFired.length
      ? `Implemented but never fired in these games: ${r.neverFired.join(', ')} (random bots may not reach them; more games or other scenarios may).`
      : 'Every implemented or partial section fired at least once.',
  );
  return out;
}

export function registerRules(program: Command): void {
  const rules = program.command('rules').description(commandDescription('rules'));
  rules
    .command('coverage')
    .description('List every rule section with its status, the tests that cite it, and how often it fired in random games.')
    .option('-g, --game <id>', 'game (default: the default game)')
    .option('--pack <id|dir>', "bundled pack id or pack directory (default: the game's first bundled pack)")
    .option('--games <n>', 'random-bot games per scenario', integer(0, 1_000_000), 100)
    .option('--seed <n>', 'first seed', integer(0), 1)
    .option('-s, --scenario <id...>', 'only these scenarios (default: all); sections other scenarios exercise then show as never fired')
    .option('-o, --option <[scenario:]key=value>', "set-up option for the games of one scenario (full:optional=9.4,9.7) or, without a scenario, of every scenario played (repeatable)", collect, [])
    .option('--json', 'print the report as one JSON object')
    .option('--check', 'exit 1 if an implemented or partial section is cited by no test')
    .option('--quiet', 'no progress on stderr')
    .action(async (f: CoverageFlags) => {
      const game = await loadGame(f.game);
      const pack = await loadPack(game, f.pack);
      const scenarios = f.scenario ? f.scenario.flatMap((x) => x.split(',')).filter(Boolean) : undefined;
      const played = scenarios ?? game.scenarios(pack).map((s) => s.id);
      const options = coverageOptions(f.option, played);
      const progress = f.quiet ? undefined : coverageProgress(played, f.games);
      let r: RulesCoverage;
      try {
        r = await rulesCoverage(game, pack, {
          games: f.games,
          seed: f.seed,
          ...(scenarios ? { scenarios } : {}),
          ...(Object.keys(options).length ? { options } : {}),
          ...(progress ? { onGame: progress.onGame } : {}),
        });
      } finally {
        progress?.stop();
      }
      if (f.json) say(JSON.stringify(r));
      else for (const l of coverageLines(r)) say(l);
      if (f.check && r.untested.length) process.exitCode = EXIT.bug;
    });
}
