/**
 * The `salient` program: its commands, each module registered only when it is the one being run.
 */
import { readFileSync } from 'node:fs';
import { Command, Help } from 'commander';
import { COMMAND_SUMMARIES, commandDescription, type CommandName } from './commands/summaries.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Each command's module, registered on demand. A command's module brings its packages with it (the
 * API server, the queue client, the scheduler, the games), and under tsx importing all of them cost
 * every `salient` start about 1.5 s of CPU before it did anything; a `salient play` needs none of
 * the API, the queue or the worker. Listed in help order.
 */
const COMMANDS: Record<string, (program: Command, sub: string | undefined) => Promise<unknown>> = {
  games: async (program) => (await import('./commands/games.ts')).registerGames(program),
  play: async (program) => (await import('./commands/play.ts')).registerPlay(program),
  replay: async (program) => (await import('./commands/replay.ts')).registerReplay(program),
  pack: async (program) => (await import('./commands/pack.ts')).registerPack(program),
  report: async (program) => (await import('./commands/report.ts')).registerReport(program),
  rules: async (program) => (await import('./commands/rules.ts')).registerRules(program),
  demo: async (program) => (await import('./commands/demo.ts')).registerDemo(program),
  // Three modules, each loaded only for its own subcommands (`sub`) or for the whole list (help, a typo):
  // `list` and `export` need no local pool, `run` no queue client.
  tournament: async (program, sub) => {
    const tournament = program.command('tournament').description(commandDescription('tournament'));
    const all = sub === undefined || !Object.hasOwn(TOURNAMENT_MODULES, sub);
    if (all || TOURNAMENT_MODULES[sub] === 'run') (await import('./commands/tournament.ts')).addRunCommand(tournament);
    if (all || TOURNAMENT_MODULES[sub] === 'remote') (await import('./commands/tournament-remote.ts')).addRemoteTournamentCommands(tournament);
    if (all || TOURNAMENT_MODULES[sub] === 'store') (await import('./commands/tournament-list.ts')).addStoreTournamentCommands(tournament);
  },
  worker: async (program) => (await import('./commands/worker.ts')).registerWorker(program),
  serve: async (program) => (await import('./commands/serve.ts')).registerServe(program),
  regress: async (program) => (await import('./commands/regress.ts')).registerRegress(program),
};

/** Which of `tournament`'s modules registers each of its subcommands. */
const TOURNAMENT_MODULES: Record<string, 'run' | 'remote' | 'store'> = {
  run: 'run',
  submit: 'remote',
  status: 'remote',
  retry: 'remote',
  cancel: 'remote',
  list: 'store',
  export: 'store',
};

/** Commands registered by another command's module (`query` is `report`'s). */
const REGISTERED_BY: Record<string, string> = { query: 'report' };

/** The module (a key of COMMANDS) that registers the command `name`, if `name` is one. */
function moduleOf(name: string | undefined): string | undefined {
  const first = name !== undefined && Object.hasOwn(REGISTERED_BY, name) ? REGISTERED_BY[name] : name;
  return first !== undefined && Object.hasOwn(COMMANDS, first) ? first : undefined;
}

/**
 * Every command as a placeholder with its name and its line of help (summaries.ts), no module loaded:
 * what `salient`, `--help`, `--version` and a mistyped command (which commander answers with the
 * nearest name) need. Commander derives a command's help term from its options and arguments, which
 * a placeholder does not have, so the terms come from the table too.
 */
function addPlaceholders(program: Command): void {
  const terms = new Map<Command, string>();
  for (const name of Object.keys(COMMAND_SUMMARIES) as CommandName[]) {
    terms.set(program.command(name).description(COMMAND_SUMMARIES[name].description), COMMAND_SUMMARIES[name].term);
  }
  program.configureHelp({ subcommandTerm: (cmd) => terms.get(cmd) ?? new Help().subcommandTerm(cmd) });
}

/**
 * The program: with only the command `argv` names (or `salient help COMMAND` asks about) registered
 * when it names one; with placeholders for every command otherwise (help, the version, an option or a
 * typo commander suggests a command for); with every command's module when `all` is set (tests
 * compare the two).
 */
export async function buildProgram(argv: readonly string[], all = false): Promise<Command> {
  const program = new Command('salient')
    .description('Headless simulation and tournament runner for World-in-Flames-family wargames.')
    .version(version)
    .showHelpAfterError('(run with --help for usage)');
  const asked = argv[2] === 'help' ? argv.slice(3) : argv.slice(2);
  const named = moduleOf(asked[0]);
  if (all) for (const register of Object.values(COMMANDS)) await register(program, undefined);
  else if (named !== undefined) await COMMANDS[named]?.(program, asked[1]);
  else addPlaceholders(program);
  return program;
}
