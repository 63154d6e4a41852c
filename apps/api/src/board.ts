/**
 * A stored match as its map shows it, impulse by impulse: the replay is re-run here (from the store's
 * action log, with the pack the match used) and the game's map view (`Game.board`) is taken at the
 * start and at the end of every impulse, with the events of each impulse. The re-run is checked as
 * `salient replay --match` checks it (header, seed, every choice, final hash): a board is drawn only
 * for a match this server reproduces.
 */
import { SalientError, runReplay, type BoardFrame, type BoardLayout, type GameEvent, type Position, type Replay } from '@salient/engine';
import { replayTarget, type ReplayTarget } from '@salient/scheduler';
import type { Telemetry } from '@salient/telemetry';

export interface BoardFrameReply extends BoardFrame {
  /** The impulse (its `seq` among the match's impulses) this frame ends; -1 for the start. */
  impulse: number;
  position: Position;
  events: { type: string; power: string; text: string }[];
}

export interface MatchBoard {
  matchId: string;
  game: string;
  scenario: string;
  /** Sides of the scenario and their powers, for a map legend. */
  sides: { id: string; name: string; powers: string[] }[];
  layout: BoardLayout;
  frames: BoardFrameReply[];
}

const eventOf = (e: GameEvent) => ({ type: e.type, power: e.power ?? '', text: e.text });

/** The map of stored match `matchId`, frame by frame; undefined when no such match is stored. */
export async function matchBoard(telemetry: Telemetry, matchId: string): Promise<MatchBoard | undefined> {
  const replay = await telemetry.replay(matchId);
  if (!replay) return undefined;
  const { game, pack } = await storedReplayTarget(matchId, replay);
  const board = game.board;
  if (!board) throw new SalientError('BAD_ARGUMENT', `Game '${game.id}' has no map view, so match ${matchId} cannot be drawn; its impulses and events are at /api/matches/${matchId}.`);
  const start = rerun(matchId, () => game.setup(replay.scenario, pack, replay.options));
  const frames: BoardFrameReply[] = [{ impulse: -1, position: game.position(start), events: [], ...board.frame(start) }];
  let events: BoardFrameReply['events'] = [];
  let open = false;
  const outcome = rerun(matchId, () => runReplay(game, pack, replay, (_entry, _i, _before, step) => {
    open = true;
    for (const e of step.events) events.push(eventOf(e));
    if (step.boundary === 'impulse' || step.boundary === 'turn') {
      frames.push({ impulse: frames.length - 1, position: game.position(step.state), events, ...board.frame(step.state) });
      events = [];
      open = false;
    }
  }));
  if (!outcome.matches) {
    throw new SalientError(
      'REPLAY_MISMATCH',
      `Match ${matchId} cannot be replayed on this server: re-running its log gives final state hash ${outcome.hash}, but the match recorded ${replay.finalHash}. The log, the pack or the rules code differ from the recorded match.`,
    );
  }
  if (open) frames.push({ impulse: frames.length - 1, position: game.position(outcome.state), events, ...board.frame(outcome.state) });
  const scenario = game.scenarios(pack).find((s) => s.id === replay.scenario);
  return {
    matchId,
    game: game.id,
    scenario: replay.scenario,
    sides: (scenario?.sides ?? []).map((s) => ({ id: s.id, name: s.name, powers: [...s.powers] })),
    layout: board.layout(pack, replay.scenario),
    frames,
  };
}

/**
 * The game and pack of a stored replay, its header checked as `salient replay --match` checks it. What
 * is wrong with a stored replay is a conflict between the store and this server (409), not a mistake
 * in the request, so the catalog's own codes (unknown bot, pack, ...) become `BAD_REPLAY`.
 */
async function storedReplayTarget(matchId: string, replay: Replay): Promise<ReplayTarget> {
  try {
    return await replayTarget(replay);
  } catch (e) {
    throw storedReplayError(matchId, e);
  }
}

function rerun<T>(matchId: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw storedReplayError(matchId, e);
  }
}

function storedReplayError(matchId: string, e: unknown): unknown {
  if (!(e instanceof SalientError)) return e;
  const code = e.code === 'REPLAY_MISMATCH' ? 'REPLAY_MISMATCH' : 'BAD_REPLAY';
  return new SalientError(code, `Match ${matchId} cannot be replayed on this server: ${e.message}`, e.issues);
}
