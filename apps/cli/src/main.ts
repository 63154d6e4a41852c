#!/usr/bin/env node
/**
 * `salient`: the command line. Parses arguments, runs one command, and turns errors into exit codes
 * (see errors.ts): user mistakes print one line and exit 2, bugs print a stack and exit 1.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { reportError } from './errors.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Each command's module, registered on demand. A command's module brings its packages with it (the
 * API server, the queue client, the scheduler, the games), and under tsx importing all of them cost
 * every `salient` start about 1.5 s of CPU before it did anything; a `salient play` needs none of
 * the API, the queue or the worker. Listed in help order.
 */
const COMMANDS: Record<string, (program: Command) => Promise<unknown>> = {
  games: async (program) => (await import('./commands/games.ts')).registerGames(program),
  play: async (program) => (await import('./commands/play.ts')).registerPlay(program),
  replay: async (program) => (await import('./commands/replay.ts')).registerReplay(program),
  pack: async (program) => (await import('./commands/pack.ts')).registerPack(program),
  report: async (program) => (await import('./commands/report.ts')).registerReport(program),
  rules: async (program) => (await import('./commands/rules.ts')).registerRules(program),
  demo: async (program) => (await import('./commands/demo.ts')).registerDemo(program),
  tournament: async (program) => {
    const tournament = (await import('./commands/tournament.ts')).registerTournament(program);
    (await import('./commands/tournament-remote.ts')).addRemoteTournamentCommands(tournament);
    (await import('./commands/tournament-list.ts')).addStoreTournamentCommands(tournament);
  },
  worker: async (program) => (await import('./commands/worker.ts')).registerWorker(program),
  serve: async (program) => (await import('./commands/serve.ts')).registerServe(program),
  regress: async (program) => (await import('./commands/regress.ts')).registerRegress(program),
};

/** Commands registered by another command's module (`query` is `report`'s). */
const REGISTERED_BY: Record<string, string> = { query: 'report' };

/**
 * The program, with only the command `argv` names registered when it names one, else (help, an
 * option, a typo commander suggests a command for) with every command.
 */
async function buildProgram(argv: readonly string[]): Promise<Command> {
  const program = new Command('salient')
    .description('Headless simulation and tournament runner for World-in-Flames-family wargames.')
    .version(version)
    .showHelpAfterError('(run with --help for usage)');
  const named = argv[2];
  const first = named !== undefined && Object.hasOwn(REGISTERED_BY, named) ? REGISTERED_BY[named] : named;
  const names = first !== undefined && Object.hasOwn(COMMANDS, first) ? [first] : Object.keys(COMMANDS);
  for (const name of names) await COMMANDS[name]?.(program);
  return program;
}

// A closed pipe (`salient play | head`) is not an error worth a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

try {
  const program = await buildProgram(process.argv);
  await program.parseAsync(process.argv);
} catch (e) {
  process.exitCode = reportError(e);
}
