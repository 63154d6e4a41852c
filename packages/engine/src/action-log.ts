/**
 * The action log and replays. A replay holds only what is needed to re-run a game exactly: game,
 * rules version, pack provenance, scenario, options, and every choice in order (chance outcomes
 * included), plus the final state hash to check against. It holds no timings, so the same seed,
 * pack and seats give a byte-identical replay file.
 */
import { z } from 'zod';
import type { AnyGame, JsonObject, LoadedPack, PathIssue } from './contract.ts';
import { SalientError } from './errors.ts';
import { hashJson } from './hash.ts';

/** Who made a logged choice: a power, or `chance`. */
export interface LogEntry {
  by: string;
  /** The choice as `Game.encode` wrote it. */
  choice: string;
}

export const REPLAY_FORMAT = 'salient-replay/1';

export interface Replay {
  format: typeof REPLAY_FORMAT;
  game: string;
  rulesVersion: string;
  pack: { id: string; version: string; fidelity: string; hash: string };
  scenario: string;
  options: JsonObject;
  seed: number;
  /** Seat id -> bot spec, for the record; a replay does not need the bots. */
  seats: Record<string, string>;
  log: LogEntry[];
  /** Hash of the final state. */
  finalHash: string;
}

const jsonObject = z.record(z.string(), z.json());

export const replaySchema = z.object({
  format: z.literal(REPLAY_FORMAT),
  game: z.string().min(1),
  rulesVersion: z.string().min(1),
  pack: z.object({ id: z.string(), version: z.string(), fidelity: z.string(), hash: z.string() }),
  scenario: z.string().min(1),
  options: jsonObject,
  seed: z.number().int(),
  seats: z.record(z.string(), z.string()),
  log: z.array(z.object({ by: z.string().min(1), choice: z.string() })),
  finalHash: z.string().regex(/^[0-9a-f]{16}$/, 'expected 16 hex digits'),
});

/** zod issues as JSON-path issues (`$.log[3].choice`). */
export function zodIssues(error: z.ZodError, root = '$'): PathIssue[] {
  return error.issues.map((i) => ({ path: jsonPath(i.path, root), message: i.message }));
}

export function jsonPath(path: readonly PropertyKey[], root = '$'): string {
  let s = root;
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : /^[A-Za-z_$][\w$]*$/.test(String(p)) ? `.${String(p)}` : `[${JSON.stringify(String(p))}]`;
  return s;
}

/** Parse and check a replay's shape; throws `SalientError('BAD_REPLAY')` listing every problem by JSON path. */
export function parseReplay(raw: unknown, where = 'replay'): Replay {
  const r = replaySchema.safeParse(raw);
  if (!r.success) {
    throw new SalientError('BAD_REPLAY', `${where} is not a valid Salient replay (${REPLAY_FORMAT}).`, zodIssues(r.error));
  }
  return r.data as Replay;
}

export interface ReplayOutcome<S> {
  state: S;
  hash: string;
  /** True when the recomputed final hash equals the recorded one. */
  matches: boolean;
  steps: number;
}

/**
 * Re-run a replay. Every entry must be offered by the game at that point and by the recorded actor;
 * a divergence throws `SalientError('REPLAY_MISMATCH')` saying at which entry. `onStep` sees each
 * applied step (for turn-by-turn printing).
 */
export function runReplay<S = import('./contract.ts').Json>(
  game: AnyGame,
  pack: LoadedPack,
  replay: Replay,
  onStep?: (entry: LogEntry, index: number, before: S, step: import('./contract.ts').Step<S>) => void,
): ReplayOutcome<S> {
  if (replay.game !== game.id) throw new SalientError('BAD_REPLAY', `Replay is for game '${replay.game}', not '${game.id}'.`);
  if (replay.pack.hash !== pack.info.hash) {
    throw new SalientError(
      'REPLAY_MISMATCH',
      `Replay was recorded with pack ${replay.pack.id}@${replay.pack.version} (hash ${replay.pack.hash}) but pack ${pack.info.id}@${pack.info.version} has hash ${pack.info.hash}. Use the same pack.`,
    );
  }
  let state = game.setup(replay.scenario, pack, replay.options) as S;
  replay.log.forEach((entry, i) => {
    const p = game.pending(state);
    const where = `$.log[${i}]`;
    if (p.kind === 'terminal') throw new SalientError('REPLAY_MISMATCH', `${where}: the game already ended, but the replay goes on.`);
    const actor = p.kind === 'chance' ? 'chance' : p.power;
    if (actor !== entry.by) {
      throw new SalientError('REPLAY_MISMATCH', `${where}: the replay says '${entry.by}' chose here, but the game asks '${actor}' (${p.prompt}).`);
    }
    let choice: unknown;
    try {
      choice = game.decode(entry.choice);
    } catch (e) {
      throw new SalientError('BAD_REPLAY', `${where}.choice: cannot decode '${entry.choice}': ${(e as Error).message}`);
    }
    let step;
    try {
      step = game.apply(state, choice);
    } catch (e) {
      throw new SalientError('REPLAY_MISMATCH', `${where}: '${entry.choice}' is not legal here (${p.prompt}): ${(e as Error).message}`);
    }
    onStep?.(entry, i, state, step as import('./contract.ts').Step<S>);
    state = step.state as S;
  });
  const hash = hashJson(state);
  return { state, hash, matches: hash === replay.finalHash, steps: replay.log.length };
}
