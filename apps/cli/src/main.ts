#!/usr/bin/env node
/**
 * `salient`: the command line. Parses arguments, runs one command, and turns errors into exit codes
 * (see errors.ts): user mistakes print one line and exit 2, bugs print a stack and exit 1.
 */
import { buildProgram } from './program.ts';

// A closed pipe (`salient play | head`) is not an error worth a stack trace.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

try {
  const program = await buildProgram(process.argv);
  await program.parseAsync(process.argv);
} catch (e) {
  // Loaded only now: errors.ts brings the engine (zod, yaml), which `--version` and `--help` need not load.
  const { reportError } = await import('./errors.ts');
  process.exitCode = reportError(e);
}
