/**
 * A stored match as its map shows it, impulse by impulse and step by step: the replay is re-run here
 * (from the store's action log, with the pack the match used) and the game's map view (`Game.board`)
 * is taken at the start, after every step (each decision and each chance outcome of the log) and at
 * the end of every impulse. The impulse frames are whole; a step carries what it changed on the map,
 * its events with their data (where units moved from and to, the odds, die and result of a combat),
 * and where the game stands after it. The re-run is checked as `salient replay --match` checks it
 * (header, seed, every choice, final hash): a board is drawn only for a match this server reproduces.
 */
import { SalientError, runReplay, type BoardFrame, type BoardLayout, type BoardMarker, type BoardUnit, type GameEvent, type JsonObject, type Position, type Replay } from '@salient/engine';
import { replayTarget, type ReplayTarget } from '@salient/scheduler';
import type { Telemetry } from '@salient/telemetry';

export interface BoardFrameReply extends BoardFrame {
  /** The impulse (its `seq` among the match's impulses) this frame ends; -1 for the start. */
  impulse: number;
  position: Position;
  events: { type: string; power: string; text: string }[];
}

/** One step of the log as the map shows it. */
export interface BoardStepReply {
  /** Who chose: a power, or `chance`. */
  by: string;
  choice: string;
  /** The impulse frame the step comes after (its index in `frames`): the map before the step is that frame with the changes of the steps between. */
  frame: number;
  /** Where the game stands after the step. */
  position: Position;
  events: { type: string; power: string; text: string; data?: JsonObject }[];
  /** What changed on the map: the new control, units and markers of each area (hex) that changed; null where there are none any more. */
  control?: Record<string, string | null>;
  units?: Record<string, BoardUnit[] | null>;
  markers?: Record<string, BoardMarker[] | null>;
}

export interface MatchBoard {
  matchId: string;
  game: string;
  scenario: string;
  /** Sides of the scenario and their powers, for a map legend. */
  sides: { id: string; name: string; powers: string[] }[];
  layout: BoardLayout;
  frames: BoardFrameReply[];
  steps: BoardStepReply[];
}

const eventOf = (e: GameEvent) => ({ type: e.type, power: e.power ?? '', text: e.text });
const stepEventOf = (e: GameEvent) => (e.data ? { type: e.type, power: e.power ?? '', text: e.text, data: e.data } : eventOf(e));

/** Whether two JSON values are equal (frames are plain JSON: no cycles, no undefined inside arrays). */
function same(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x)) {
    if (!Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!same(x[i], y[i])) return false;
    return true;
  }
  if (Array.isArray(y)) return false;
  const [a, b] = [x as Record<string, unknown>, y as Record<string, unknown>];
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) if (!(k in b) || !same(a[k], b[k])) return false;
  return true;
}

/** Entries of `after` that differ from `before`, and null for keys `before` had and `after` has not; undefined when nothing changed (a game may hand the same object for an unchanged part). */
function changes<T>(before: Record<string, T> | undefined, after: Record<string, T> | undefined): Record<string, T | null> | undefined {
  if (before === after) return undefined;
  let out: Record<string, T | null> | undefined;
  const b = before ?? {};
  const a = after ?? {};
  for (const k in a) {
    const [x, y] = [a[k]!, b[k]];
    if (y === undefined || !same(x, y)) (out ??= {})[k] = x;
  }
  for (const k in b) if (!(k in a)) (out ??= {})[k] = null;
  return out;
}

/** The map of stored match `matchId`, frame by frame; undefined when no such match is stored. */
export async function matchBoard(telemetry: Telemetry, matchId: string): Promise<MatchBoard | undefined> {
  const replay = await telemetry.replay(matchId);
  return replay && boardOfReplay(matchId, replay);
}

/** The map of a match from its stored `replay` (re-run and checked here). */
export async function boardOfReplay(matchId: string, replay: Replay): Promise<MatchBoard> {
  const { game, pack } = await storedReplayTarget(matchId, replay);
  const board = game.board;
  if (!board) throw new SalientError('BAD_ARGUMENT', `Game '${game.id}' has no map view, so match ${matchId} cannot be drawn; its impulses and events are at /api/matches/${matchId}.`);
  const start = rerun(matchId, () => game.setup(replay.scenario, pack, replay.options));
  let last: BoardFrame = board.frame(start);
  const frames: BoardFrameReply[] = [{ impulse: -1, position: game.position(start), events: [], ...last }];
  const steps: BoardStepReply[] = [];
  let events: BoardFrameReply['events'] = [];
  let open = false;
  const outcome = rerun(matchId, () => runReplay(game, pack, replay, (entry, _i, _before, step) => {
    open = true;
    for (const e of step.events) events.push(eventOf(e));
    const now = board.frame(step.state);
    const position = game.position(step.state);
    const s: BoardStepReply = { by: entry.by, choice: entry.choice, frame: frames.length - 1, position, events: step.events.map(stepEventOf) };
    const [control, units, markers] = [changes(last.control, now.control), changes(last.units, now.units), changes(last.markers, now.markers)];
    if (control) s.control = control;
    if (units) s.units = units;
    if (markers) s.markers = markers;
    steps.push(s);
    last = now;
    if (step.boundary === 'impulse' || step.boundary === 'turn') {
      frames.push({ impulse: frames.length - 1, position, events, ...now });
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
  if (open) frames.push({ impulse: frames.length - 1, position: game.position(outcome.state), events, ...last });
  const scenario = game.scenarios(pack).find((s) => s.id === replay.scenario);
  return {
    matchId,
    game: game.id,
    scenario: replay.scenario,
    sides: (scenario?.sides ?? []).map((s) => ({ id: s.id, name: s.name, powers: [...s.powers] })),
    layout: board.layout(pack, replay.scenario),
    frames,
    steps,
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
