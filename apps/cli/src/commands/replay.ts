/**
 * `salient replay FILE`: re-run a recorded match from its action log and check it reproduces the
 * recorded final state hash.
 */
import type { Command } from 'commander';
import { runReplay, SalientError, type Json, type LoadedPack } from '@salient/engine';
import { Account, headline } from '../account.ts';
import { EXIT } from '../errors.ts';
import { say } from '../output.ts';
import { findGame, loadPack } from '../registry.ts';
import { readReplay } from '../replay-file.ts';

interface ReplayFlags {
  pack?: string;
  turns?: boolean;
  verbose?: boolean;
}

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('Re-run a replay file and check that it reproduces its final state hash (exit 3 if not).')
    .argument('<file>', 'replay JSON written by `salient play --replay`')
    .option('--pack <id|dir>', 'pack to replay with (default: the bundled pack the replay names)')
    .option('-t, --turns', 'print the game turn by turn')
    .option('-v, --verbose', 'print the game turn by turn with every decision and chance draw')
    .action(async (file: string, f: ReplayFlags) => {
      const replay = readReplay(file);
      const game = findGame(replay.game);
      if (replay.rulesVersion !== game.rulesVersion) {
        // Not fatal: a rules change may or may not touch this game; the hash check decides.
        process.stderr.write(
          `salient: note: replay was recorded with ${game.id} rules ${replay.rulesVersion}; this is rules ${game.rulesVersion}.\n`,
        );
      }
      let pack: LoadedPack;
      try {
        pack = await loadPack(game, f.pack ?? replay.pack.id);
      } catch (e) {
        if (e instanceof SalientError && e.code === 'UNKNOWN_PACK' && f.pack === undefined) {
          throw new SalientError('UNKNOWN_PACK', `Replay uses pack '${replay.pack.id}', which is not bundled with ${game.id}; give its directory with --pack DIR.`);
        }
        throw e;
      }
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


/** Name the file in a divergence, so the message stands on its own. */
function rerun<T>(file: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof SalientError && (e.code === 'REPLAY_MISMATCH' || e.code === 'BAD_REPLAY')) {
      const what = e.code === 'REPLAY_MISMATCH' ? 'replay mismatch: ' : '';
      throw new SalientError(e.code, `${what}${file} does not re-run: ${e.message}`, e.issues);
    }
    throw e;
  }
}
