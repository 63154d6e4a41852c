#!/usr/bin/env node
/**
 * `salient`: the command line. Parses arguments, runs one command, and turns errors into exit codes
 * (see errors.ts): user mistakes print one line and exit 2, bugs print a stack and exit 1.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerDemo } from './commands/demo.ts';
import { registerGames } from './commands/games.ts';
import { registerPack } from './commands/pack.ts';
import { registerPlay } from './commands/play.ts';
import { registerReplay } from './commands/replay.ts';
import { registerReport } from './commands/report.ts';
import { registerRules } from './commands/rules.ts';
import { registerTournament } from './commands/tournament.ts';
import { addRemoteTournamentCommands } from './commands/tournament-remote.ts';
import { addStoreTournamentCommands } from './commands/tournament-list.ts';
import { registerWorker } from './commands/worker.ts';
import { registerServe } from './commands/serve.ts';
import { registerRegress } from './commands/regress.ts';
import { reportError } from './errors.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

/** The program with every command registered. */
function buildProgram(): Command {
  const program = new Command('salient')
    .description('Headless simulation and tournament runner for World-in-Flames-family wargames.')
    .version(version)
    .showHelpAfterError('(run with --help for usage)');
  registerGames(program);
  registerPlay(program);
  registerReplay(program);
  registerPack(program);
  registerReport(program);
  registerRules(program);
  registerDemo(program);
  const tournament = registerTournament(program);
  addRemoteTournamentCommands(tournament);
  addStoreTournamentCommands(tournament);
  registerWorker(program);
  registerServe(program);
  registerRegress(program);
  return program;
}

// A closed pipe (`salient play | head`) is not an error worth a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

try {
  await buildProgram().parseAsync(process.argv);
} catch (e) {
  process.exitCode = reportError(e);
}
