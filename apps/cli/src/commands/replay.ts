/**
 * `salient replay FILE` / `salient replay --match ID`: re-run a recorded match from its action log (a
 * replay file, or a match stored in the telemetry store) and check it reproduces the recorded final
 * state hash.
 */
import type { Command } from 'commander';
import { runReplay, SalientError, type Json, type Replay } from '@salient/engine';
import { replayTarget, type ReplayTarget } from '@salient/scheduler';
import { Account, headline } from '../account.ts';
import { EXIT } from '../errors.ts';
import { say } from '../output.ts';
import { readReplay, writeReplay } from '../replay-file.ts';
import { withTelemetry } from '../telemetry.ts';

interface ReplayFlags {
  match?: string;
  save?: string;
  pack?: string;
  turns?: boolean;
  verbose?: boolean;
}

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('Re-run a replay file, or a match from the telemetry store, and check that it reproduces its final state hash (exit 3 if not).')
    .argument('[file]', 'replay JSON written by `salient play --replay`')
    .option('--match <id>', 'the match of this id in the telemetry store instead of a file (see `salient query`)')
    .option('--save <file>', 'with --match: also write the stored replay to FILE')
    .option('--pack <id|dir>', 'pack to replay with (default: the bundled pack the replay names)')
    .option('-t, --turns', 'print the game turn by turn')
    .option('-v, --verbose', 'print the game turn by turn with every decision and chance draw')
    .action(async (path: string | undefined, f: ReplayFlags) => {
      const { replay, file } = await replaySource(path, f);
      let target: ReplayTarget;
      try {
        target = await replayTarget(replay, f.pack === undefined ? {} : { pack: f.pack });
      } catch (e) {
        if (e instanceof SalientError && e.code === 'UNKNOWN_PACK' && f.pack === undefined) {
          throw new SalientError('UNKNOWN_PACK', `Replay uses pack '${replay.pack.id}', which is not bundled with ${replay.game}; give its directory with --pack DIR.`);
        }
        throw named(file, e);
      }
      const { game, pack } = target;
      const scenario = game.scenarios(pack).find((s) => s.id === replay.scenario);
      say(`${game.name} · scenario ${replay.scenario}${scenario ? ` (${scenario.name})` : ''} · seed ${replay.seed} · ${replay.log.length} log entries`);
      const printing = Boolean(f.turns || f.verbose);
      const account = new Account({ verbose: Boolean(f.verbose), write: say });
      const out = rerun(file, () => runReplay<Json>(game, pack, replay, (entry, _i, before, step) => {
        if (!printing) return;
        let label = entry.choice;
        if (game.describe) label = game.describe(before, game.decode(entry.choice));
        const p = game.pending(before);
        account.step({
          actor: entry.by,
          prompt: p.kind === 'terminal' ? '' : p.prompt,
          label,
          position: game.position(before),
          events: step.events,
        });
      }));
      if (printing) say();
      const pending = game.pending(out.state);
      if (pending.kind === 'terminal') say(`${headline(pending.result, scenario)}. ${pending.result.reason}`);
      else say(`The log stops before the end of the game (the match was adjudicated, forfeited, cancelled or failed).`);
      say(`Replayed ${out.steps} entries. Final state hash ${out.hash}; recorded ${replay.finalHash}.`);
      if (out.matches) {
        say('OK: the replay reproduces the recorded final state.');
      } else {
        process.stderr.write(
          `salient: replay mismatch: re-running ${file} gives final state hash ${out.hash}, but the replay records ${replay.finalHash}. ` +
            `The log, the pack or the rules code differ from the recorded match.\n`,
        );
        process.exitCode = EXIT.mismatch;
      }
    });
}


/** The replay to re-run, from the file or the store, and how to name it in messages. */
async function replaySource(path: string | undefined, f: ReplayFlags): Promise<{ replay: Replay; file: string }> {
  if (f.match === undefined) {
    if (path === undefined) throw new SalientError('BAD_ARGUMENT', 'replay needs a replay file, or --match ID for a match in the telemetry store.');
    if (f.save !== undefined) throw new SalientError('BAD_ARGUMENT', '--save writes the replay of a stored match; it goes with --match ID.');
    return { replay: readReplay(path), file: path };
  }
  if (path !== undefined) throw new SalientError('BAD_ARGUMENT', `replay takes a file or --match ID, not both (got '${path}' and --match ${f.match}).`);
  const id = f.match;
  const found = await withTelemetry(async (t) => ({ replay: await t.replay(id), where: t.where }));
  if (!found.replay) {
    throw new SalientError(
      'BAD_ARGUMENT',
      `No match '${id}' in the telemetry store (${found.where}). List some with: salient query "SELECT match_id, scenario, seed, kind FROM matches FINAL LIMIT 20"`,
    );
  }
  if (f.save !== undefined) {
    writeReplay(f.save, found.replay);
    say(`Replay of match ${id} written to ${f.save}.`);
  }
  return { replay: found.replay, file: `match ${id}` };
}

/** Name the file in a divergence, so the message stands on its own. */
function rerun<T>(file: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw named(file, e);
  }
}

function named(file: string, e: unknown): unknown {
  if (e instanceof SalientError && (e.code === 'REPLAY_MISMATCH' || e.code === 'BAD_REPLAY')) {
    const what = e.code === 'REPLAY_MISMATCH' ? 'replay mismatch: ' : '';
    return new SalientError(e.code, `${what}${file} does not re-run: ${e.message}`, e.issues);
  }
  return e;
}
