/**
 * The action log and replays. A replay holds only what is needed to re-run a game exactly: game,
 * rules version, pack provenance, scenario, options, seed, and every choice in order (chance outcomes
 * included), plus the final state hash to check against. It holds no timings, so the same seed,
 * pack and seats give a byte-identical replay file.
 *
 * Re-running a replay checks every field that determines the game: the game and its rules version,
 * the pack (id, version, fidelity and content hash), the scenario and options (the game's `setup`
 * refuses unknown ones), every logged choice (offered, by the recorded actor), every chance outcome
 * against the one the replay's seed gives on its stream, and the final state hash. Fields nobody
 * reads are refused when the replay is parsed, so nothing in a verified replay goes unchecked.
 */
import { z } from 'zod';
import type { AnyGame, JsonObject, LoadedPack, PathIssue } from './contract.ts';
import { SalientError } from './errors.ts';
import { hashJson } from './hash.ts';
import { checkDepth, INPUT_LIMITS } from './input-limits.ts';
import { jsonPath } from './json-path.ts';
import { RngStreams } from './rng.ts';

export { jsonPath } from './json-path.ts';

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
  /** Seat id -> bot spec. A re-run does not need the bots; the seats are checked where replays come in. */
  seats: Record<string, string>;
  log: LogEntry[];
  /** Hash of the final state. */
  finalHash: string;
}

/**
 * A match seed: a whole number from 0 to 2^53 - 1, as `salient play --seed` and tournament specs take
 * it. The RNG streams would take a negative one, but no match is ever played with it, so a replay
 * naming one was not written by Salient.
 */
export const seedSchema = z
  .number()
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(Number.MAX_SAFE_INTEGER, `must be at most ${Number.MAX_SAFE_INTEGER}`);

const jsonObject = z.record(z.string(), z.json());

// Strict objects: a field no code reads would otherwise pass as if checked.
export const replaySchema = z.strictObject({
  format: z.literal(REPLAY_FORMAT),
  game: z.string().min(1),
  rulesVersion: z.string().min(1),
  pack: z.strictObject({ id: z.string().min(1), version: z.string().min(1), fidelity: z.string().min(1), hash: z.string().min(1) }),
  scenario: z.string().min(1),
  options: jsonObject,
  seed: seedSchema,
  seats: z.record(z.string().min(1), z.string().min(1)),
  log: z.array(z.strictObject({ by: z.string().min(1), choice: z.string() })),
  finalHash: z.string().regex(/^[0-9a-f]{16}$/, 'expected 16 hex digits'),
});

/** zod issues as JSON-path issues (`$.log[3].choice`). */
export function zodIssues(error: z.ZodError, root = '$'): PathIssue[] {
  return error.issues.map((i) => ({ path: jsonPath(i.path, root), message: i.message }));
}

/**
 * Parse and check a replay's shape; throws `SalientError('BAD_REPLAY')` listing every problem by JSON
 * path (unknown fields included). Nesting deeper than the replay limit is refused before the schema
 * walks it.
 */
export function parseReplay(raw: unknown, where = 'replay'): Replay {
  checkDepth(raw, INPUT_LIMITS.replay, where, 'BAD_REPLAY');
  const r = replaySchema.safeParse(raw);
  if (!r.success) {
    throw new SalientError('BAD_REPLAY', `${where} is not a valid Salient replay (${REPLAY_FORMAT}).`, zodIssues(r.error));
  }
  return r.data as Replay;
}

/**
 * Check that `replay` was recorded with `game` at this rules version and with `pack` (every field of
 * its pack record). A different rules version is refused outright rather than left to the final hash:
 * a rules change that happens not to touch this game would let an old replay "verify" against rules
 * it was never played under.
 */
export function checkReplayProvenance(game: AnyGame, pack: LoadedPack, replay: Replay): void {
  if (replay.game !== game.id) throw new SalientError('BAD_REPLAY', `$.game: the replay is for game '${replay.game}', not '${game.id}'.`);
  if (replay.rulesVersion !== game.rulesVersion) {
    throw new SalientError(
      'BAD_REPLAY',
      `$.rulesVersion: the replay was recorded under ${game.id} rules ${replay.rulesVersion}, and this code has rules ${game.rulesVersion}, so it cannot check it. ` +
        `Re-run it with the Salient version that has rules ${replay.rulesVersion}, or play the match again with this one.`,
    );
  }
  const got = pack.info;
  const want = replay.pack;
  if (want.hash !== got.hash || want.id !== got.id || want.version !== got.version || want.fidelity !== got.fidelity) {
    throw new SalientError(
      'REPLAY_MISMATCH',
      `$.pack: the replay was recorded with pack ${want.id}@${want.version} (${want.fidelity}, hash ${want.hash}), but the pack given is ${got.id}@${got.version} (${got.fidelity}, hash ${got.hash}). Use the same pack.`,
    );
  }
}

export interface ReplayOutcome<S> {
  state: S;
  hash: string;
  /** True when the recomputed final hash equals the recorded one. */
  matches: boolean;
  steps: number;
}

/**
 * Re-run a replay. Checks its provenance first ({@link checkReplayProvenance}), then every entry: it
 * must be offered by the game at that point and by the recorded actor, and a chance outcome must be
 * the one the runner draws there: the replay's seed, the stream the chance node names, sampled as
 * `runMatch` samples it. A divergence throws `SalientError('REPLAY_MISMATCH')` saying at which entry.
 * `onStep` sees each applied step (for turn-by-turn printing).
 *
 * Bots draw from streams of their own (`bot:<seat>`), which never feed chance nodes, so what they
 * drew is not in the replay and not checked here.
 */
export function runReplay<S = import('./contract.ts').Json>(
  game: AnyGame,
  pack: LoadedPack,
  replay: Replay,
  onStep?: (entry: LogEntry, index: number, before: S, step: import('./contract.ts').Step<S>) => void,
): ReplayOutcome<S> {
  checkReplayProvenance(game, pack, replay);
  const seed = seedSchema.safeParse(replay.seed);
  if (!seed.success) throw new SalientError('BAD_REPLAY', `$.seed: ${replay.seed} is not a match seed (${seed.error.issues[0]?.message}).`);
  const streams = new RngStreams(seed.data);
  let state = game.setup(replay.scenario, pack, replay.options) as S;
  replay.log.forEach((entry, i) => {
    const p = game.pending(state);
    const where = `$.log[${i}]`;
    if (p.kind === 'terminal') throw new SalientError('REPLAY_MISMATCH', `${where}: the game already ended, but the replay goes on.`);
    const actor = p.kind === 'chance' ? 'chance' : p.power;
    if (actor !== entry.by) {
      throw new SalientError('REPLAY_MISMATCH', `${where}: the replay says '${entry.by}' chose here, but the game asks '${actor}' (${p.prompt}).`);
    }
    if (p.kind === 'chance') {
      // Sampled exactly as runMatch samples, so the stream advances as it did in the match.
      const expected = game.encode(streams.get(p.stream).sample(p.outcomes));
      if (expected !== entry.choice) {
        throw new SalientError(
          'REPLAY_MISMATCH',
          `${where}: the logged chance outcome '${entry.choice}' (${p.prompt}, stream '${p.stream}') is not what seed ${replay.seed} gives there: '${expected}'. ` +
            `The seed or the log was changed after the match.`,
        );
      }
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
