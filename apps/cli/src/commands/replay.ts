/**
 * `salient replay FILE` / `salient replay --match ID`: re-run a recorded match from its action log (a
 * replay file, or a match stored in the telemetry store) and check it reproduces the recorded final
 * state hash. FILE may also be a tournament export (`salient tournament export`, JSON lines): then one
 * of its matches (`--line N`, `--match ID`) is re-run as a replay file would be, or by default every
 * one of them is, one line of verdict each.
 */
import type { Command } from 'commander';
import { runReplay, SalientError, type Json, type Replay } from '@salient/engine';
// Its own entry: the scheduler's index (queue, plans, statistics) is not needed to re-run a match.
import { replayTarget, type ReplayTarget } from '@salient/scheduler/replay';
import { Account, headline } from '../account.ts';
import { integer } from '../args.ts';
import { EXIT } from '../errors.ts';
import { say } from '../output.ts';
import { isExportFile, readExport, readReplay, writeReplay, type ExportedMatch } from '../replay-file.ts';
import { withTelemetry } from '../telemetry.ts';
import { commandDescription } from './summaries.ts';

interface ReplayFlags {
  match?: string;
  line?: number;
  save?: string;
  pack?: string;
  turns?: boolean;
  verbose?: boolean;
}

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description(commandDescription('replay'))
    .argument('[file]', 'replay JSON written by `salient play --replay`, or a tournament export (JSON lines) written by `salient tournament export`')
    .option('--match <id>', 'the match of this id in the telemetry store instead of a file (see `salient query`); with an export FILE, the match of this id in it')
    .option('--line <n>', 'with an export FILE: the match on line N (1-based)', integer(1))
    .option('--save <file>', 'with --match (or --line): also write that replay to FILE')
    .option('--pack <id|dir>', 'pack to replay with (default: the bundled pack the replay names)')
    .option('-t, --turns', 'print the game turn by turn')
    .option('-v, --verbose', 'print the game turn by turn with every decision and chance draw')
    .addHelpText(
      'after',
      `
An export FILE without --line or --match: every match in it is re-run, one line each (OK, MISMATCH or
BAD with why); exit 0 when all reproduce, 3 when any does not, else 2 when any line cannot be read.`,
    )
    .action(async (path: string | undefined, f: ReplayFlags) => {
      if (path !== undefined && isExportFile(path)) {
        if (f.line === undefined && f.match === undefined) return verifyExport(path, f);
        const found = await exportedMatch(path, f);
        if (f.save !== undefined) {
          writeReplay(f.save, found.replay);
          say(`Replay of match ${found.matchId} (${path} line ${found.line}) written to ${f.save}.`);
        }
        return rerunOne(found.replay, `${path} line ${found.line} (match ${found.matchId})`, f);
      }
      if (f.line !== undefined) throw new SalientError('BAD_ARGUMENT', `--line picks a match of a tournament export (JSON lines); ${path ?? 'no file'} is not one.`);
      const { replay, file } = await replaySource(path, f);
      return rerunOne(replay, file, f);
    });
}

/** Re-run one replay with every check, print it as asked, and set exit 3 when it does not reproduce. */
async function rerunOne(replay: Replay, file: string, f: ReplayFlags): Promise<void> {
  const { game, pack } = await targetOf(replay, f, file);
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
}

/** The match of an export that `--line` or `--match` picks. */
async function exportedMatch(path: string, f: ReplayFlags): Promise<ExportedMatch> {
  if (f.line !== undefined && f.match !== undefined) throw new SalientError('BAD_ARGUMENT', `Pick a match of ${path} by --line or by --match, not both.`);
  let lines = 0;
  for await (const x of readExport(path)) {
    lines = x.line;
    const hit = f.line !== undefined ? x.line === f.line : x.match?.matchId === f.match;
    if (!hit) continue;
    if (x.error) throw x.error;
    return x.match!;
  }
  throw new SalientError(
    'BAD_ARGUMENT',
    f.line !== undefined ? `${path} has ${lines} line(s); there is no line ${f.line}.` : `No match '${f.match}' in ${path}; its lines name their match in "matchId".`,
  );
}

/** Re-run every match of an export, one verdict line each, and a summary; exit as the help says. */
async function verifyExport(path: string, f: ReplayFlags): Promise<void> {
  if (f.save !== undefined) throw new SalientError('BAD_ARGUMENT', `--save writes one replay: pick it with --line N or --match ID.`);
  let ok = 0;
  let mismatched = 0;
  let bad = 0;
  for await (const x of readExport(path)) {
    const head = `line ${x.line}${x.match ? ` ${x.match.matchId} (scenario ${x.match.replay.scenario}, seed ${x.match.replay.seed}${x.match.kind ? `, ${x.match.kind}` : ''})` : ''}`;
    if (x.error) {
      bad++;
      say(`${head}: BAD: ${x.error.detail()}`);
      continue;
    }
    const m = x.match!;
    try {
      const { game, pack } = await targetOf(m.replay, f, `${path} line ${m.line}`);
      const out = runReplay<Json>(game, pack, m.replay);
      if (out.matches) {
        ok++;
        say(`${head}: OK`);
      } else {
        mismatched++;
        say(`${head}: MISMATCH: final state hash ${out.hash}, recorded ${m.replay.finalHash}`);
      }
    } catch (e) {
      if (!(e instanceof SalientError)) throw e;
      if (e.code === 'REPLAY_MISMATCH') mismatched++;
      else bad++;
      say(`${head}: ${e.code === 'REPLAY_MISMATCH' ? 'MISMATCH' : 'BAD'}: ${e.detail()}`);
    }
  }
  const total = ok + mismatched + bad;
  if (total === 0) throw new SalientError('BAD_REPLAY', `${path} holds no match: write one with \`salient tournament export ID --out ${path}\`.`);
  say(`${ok} of ${total} match(es) in ${path} reproduce their recorded final state${mismatched ? `; ${mismatched} do not` : ''}${bad ? `; ${bad} could not be checked` : ''}.`);
  if (mismatched) process.exitCode = EXIT.mismatch;
  else if (bad) process.exitCode = EXIT.usage;
}

/** The game and pack to re-run `replay` with, errors naming `file`. */
async function targetOf(replay: Replay, f: ReplayFlags, file: string): Promise<ReplayTarget> {
  try {
    return await replayTarget(replay, f.pack === undefined ? {} : { pack: f.pack });
  } catch (e) {
    if (e instanceof SalientError && e.code === 'UNKNOWN_PACK' && f.pack === undefined) {
      throw new SalientError('UNKNOWN_PACK', `Replay uses pack '${replay.pack.id}', which is not bundled with ${replay.game}; give its directory with --pack DIR.`);
    }
    throw named(file, e);
  }
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
