/**
 * Re-running a recorded match, with the same checks on every path that does it (`salient replay FILE`,
 * `salient replay --match ID`, the API's board). The engine's `runReplay` checks what it can know
 * (rules version, pack, scenario, options, every choice and every die against the seed); what only
 * this installation knows is checked here: the game, and each seat's bot spec and seat name.
 */
import { checkReplayProvenance, jsonPath, SalientError, type AnyGame, type LoadedPack, type PathIssue, type Replay } from '@salient/engine';
import { findScenario, loadGame, loadPack } from '@salient/catalog/lazy';
import { createBot } from '@salient/bots';
import { resolveSeats } from '@salient/runner';
import { resolveGamePack } from './play.ts';

export interface ReplayTarget {
  game: AnyGame;
  pack: LoadedPack;
}

/**
 * The game and pack to re-run `replay` with (`pack`: a bundled pack id or a directory instead of the
 * pack the replay names), after checking every field of its header that the engine cannot: the game
 * is installed, its rules version and the pack are the ones recorded, the scenario exists, each seat is a seat of it and each seat's bot spec is one a bot
 * parser understands (a registered bot with valid parameters, or an external `cmd:`/`http(s):` bot,
 * which is accepted as recorded: it is not started). Throws `BAD_REPLAY` listing every problem by
 * JSON path, or the catalog's error for an unknown game or pack.
 */
export async function replayTarget(replay: Replay, o: { pack?: string } = {}): Promise<ReplayTarget> {
  let game: AnyGame;
  try {
    game = await loadGame(replay.game);
  } catch (e) {
    throw located(e, '$.game');
  }
  const { pack } = o.pack === undefined ? await resolveGamePack(game.id, replay.pack.id) : { pack: await loadPack(game, o.pack) };
  // Rules version and pack first: when they differ, nothing else in the replay can be judged here.
  checkReplayProvenance(game, pack, replay);
  const issues: PathIssue[] = [];
  const note = (path: string, e: unknown): void => {
    if (!(e instanceof SalientError)) throw e;
    issues.push({ path, message: e.message });
  };
  let scenario;
  try {
    scenario = findScenario(game, pack, replay.scenario);
  } catch (e) {
    note('$.scenario', e);
  }
  if (scenario) {
    try {
      resolveSeats(scenario, Object.keys(replay.seats));
    } catch (e) {
      note('$.seats', e);
    }
  }
  for (const [seat, spec] of Object.entries(replay.seats)) {
    try {
      // Only binds the spec to its parser: no bot is created, no process started, no URL fetched.
      createBot(spec);
    } catch (e) {
      note(jsonPath(['seats', seat]), e);
    }
  }
  if (issues.length) {
    const n = issues.length;
    throw new SalientError('BAD_REPLAY', `The replay's header names what this installation does not have (${n} problem${n === 1 ? '' : 's'}):`, issues);
  }
  return { game, pack };
}

function located(e: unknown, path: string): unknown {
  if (!(e instanceof SalientError)) return e;
  return new SalientError(e.code, `${path}: ${e.message}`, e.issues);
}
