/**
 * How the CLI ends on an error. A `SalientError` is a user mistake or bad input (unknown name, bad
 * pack, bad replay): one clear message, no stack, exit 2; a replay that does not reproduce exits 3.
 * Anything else is a bug in Salient and is reported as one, with its stack, exit 1.
 */
import { redactSecrets, SalientError } from '@salient/engine';

/**
 * Exit codes. `sprt` and `threshold` are `tournament run`'s, for CI jobs: `sprt` when the SPRT's result
 * is one `--fail-on` names (`h0`, `h1`, `undecided`), `threshold` when forfeits or engine errors are
 * over `--max-forfeits` / `--max-errors`.
 */
export const EXIT = { ok: 0, bug: 1, usage: 2, mismatch: 3, sprt: 4, threshold: 5, cancelled: 130 } as const;

/**
 * Print `e` to stderr as described above and return the exit code. Credentials a URL in the message
 * may carry (a library's error quoting a Redis or ClickHouse URL) are masked: terminals are logged.
 */
export function reportError(e: unknown): number {
  if (e instanceof SalientError) {
    process.stderr.write(`salient: ${redactSecrets(e.detail())}\n`);
    return e.code === 'REPLAY_MISMATCH' ? EXIT.mismatch : EXIT.usage;
  }
  const text = e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e);
  process.stderr.write(`salient: internal error (a bug in Salient; please report it with the command you ran):\n${redactSecrets(text)}\n`);
  return EXIT.bug;
}
