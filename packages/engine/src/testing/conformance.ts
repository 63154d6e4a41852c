/**
 * The conformance kit every game must pass (OpenSpiel's random-simulation test, plus Pokémon
 * Showdown's two-copies check). For each seed it plays uniformly random choices to the end and
 * checks, at every step:
 *
 * - a pending decision offers at least one option, and options encode to distinct texts that decode back;
 * - its prompt is one the game lists in `prompts` (where it lists them: the bot protocol's reference);
 * - chance outcomes have positive probabilities summing to 1;
 * - `apply` does not mutate its input, and `applyOwned` (where the game has it) gives the same step;
 * - the state survives a JSON round-trip, and a second copy fed the same choice from the round-tripped
 *   state stays identical (same hash, same pending node);
 * - `observe` answers for every power with JSON;
 *
 * and at the end that replaying the action log reproduces the final state hash.
 */
import type { AnyGame, Json, JsonObject, LoadedPack } from '../contract.ts';
import { canonicalJson, hashJson } from '../hash.ts';
import { RngStreams } from '../rng.ts';
import { REPLAY_FORMAT, runReplay, type LogEntry, type Replay } from '../action-log.ts';

export interface ConformanceOptions {
  pack: LoadedPack;
  scenario: string;
  seeds: Iterable<number>;
  options?: JsonObject;
  /** A playout longer than this many steps fails as non-terminating. */
  maxSteps?: number;
  /** Powers to `observe` at every step (default: every power of the scenario). */
  powers?: readonly string[];
  /**
   * Run the expensive per-step checks (round-trip, two copies, no mutation) on every n-th step only;
   * 1 checks every step. The cheap checks always run.
   */
  deepEvery?: number;
}

export interface PlayoutSummary {
  seed: number;
  steps: number;
  decisions: number;
  chances: number;
  finalHash: string;
  /** Winning side(s). */
  winners: string[];
}

export interface ConformanceReport {
  playouts: PlayoutSummary[];
  totalSteps: number;
}

export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
}

function fail(game: AnyGame, seed: number, step: number, msg: string): never {
  throw new ConformanceError(`[${game.id} seed ${seed} step ${step}] ${msg}`);
}

/** Play one seed and check every invariant; returns the summary or throws `ConformanceError`. */
export function conformancePlayout(game: AnyGame, o: ConformanceOptions, seed: number): PlayoutSummary {
  const maxSteps = o.maxSteps ?? 100_000;
  const deepEvery = Math.max(1, o.deepEvery ?? 1);
  const rng = new RngStreams(seed);
  const pick = rng.get('conformance');
  const powers = o.powers ?? game.scenarios(o.pack).find((s) => s.id === o.scenario)?.sides.flatMap((s) => [...s.powers]) ?? [];
  let state: Json = game.setup(o.scenario, o.pack, o.options ?? {});
  const log: LogEntry[] = [];
  let decisions = 0;
  let chances = 0;
  for (let step = 0; ; step++) {
    if (step > maxSteps) fail(game, seed, step, `no terminal state after ${maxSteps} steps`);
    const p = game.pending(state);
    if (p.kind === 'terminal') {
      const result = game.result(state);
      const replay: Replay = {
        format: REPLAY_FORMAT,
        game: game.id,
        rulesVersion: game.rulesVersion,
        pack: { id: o.pack.info.id, version: o.pack.info.version, fidelity: o.pack.info.fidelity, hash: o.pack.info.hash },
        scenario: o.scenario,
        options: o.options ?? {},
        seed,
        seats: {},
        log,
        finalHash: hashJson(state),
      };
      const again = runReplay(game, o.pack, JSON.parse(JSON.stringify(replay)) as Replay);
      if (!again.matches) fail(game, seed, step, `replay reached hash ${again.hash}, expected ${replay.finalHash}`);
      const winners = Object.entries(result.sides).filter(([, v]) => v === 'win').map(([k]) => k);
      return { seed, steps: step, decisions, chances, finalHash: replay.finalHash, winners };
    }
    let choice: unknown;
    let by: string;
    if (p.kind === 'decision') {
      decisions++;
      if (p.options.length === 0) fail(game, seed, step, `${p.power} must act (${p.prompt}) but has no legal option`);
      if (game.prompts && !Object.hasOwn(game.prompts, p.prompt)) {
        fail(game, seed, step, `prompt '${p.prompt}' is not listed in the game's prompts (which bots are told of in docs/bot-protocol.md); add it there`);
      }
      const texts = p.options.map((c) => game.encode(c));
      if (new Set(texts).size !== texts.length) fail(game, seed, step, `duplicate options for ${p.prompt}: ${texts.join(' | ')}`);
      for (const t of texts) {
        if (game.encode(game.decode(t)) !== t) fail(game, seed, step, `option '${t}' does not survive encode/decode`);
      }
      choice = pick.pick(p.options);
      by = p.power;
    } else {
      chances++;
      if (p.outcomes.length === 0) fail(game, seed, step, `chance node ${p.prompt} has no outcomes`);
      let sum = 0;
      for (const oc of p.outcomes) {
        if (!(oc.p > 0 && oc.p <= 1)) fail(game, seed, step, `chance node ${p.prompt} has probability ${oc.p}`);
        sum += oc.p;
      }
      if (Math.abs(sum - 1) > 1e-9) fail(game, seed, step, `chance node ${p.prompt} probabilities sum to ${sum}`);
      choice = rng.get(p.stream).sample(p.outcomes);
      by = 'chance';
    }
    const text = game.encode(choice);
    log.push({ by, choice: text });

    const deep = step % deepEvery === 0;
    // Plain JSON.stringify is enough to compare copies built the same way (key order is preserved);
    // canonicalJson is used once per deep step to prove the state is plain JSON.
    const before = deep ? JSON.stringify(state) : '';
    const next = game.apply(state, choice);
    if (deep) {
      if (JSON.stringify(state) !== before) fail(game, seed, step, `apply mutated its input state (choice ${text})`);
      try {
        canonicalJson(state);
      } catch (e) {
        fail(game, seed, step, `state is not plain JSON: ${(e as Error).message}`);
      }
      const copy = JSON.parse(before) as Json;
      if (JSON.stringify(copy) !== before) fail(game, seed, step, `state does not survive a JSON round-trip`);
      const twin = game.apply(copy, game.decode(text));
      if (JSON.stringify(twin.state) !== JSON.stringify(next.state)) fail(game, seed, step, `two copies fed '${text}' diverged`);
      if (JSON.stringify(twin.events) !== JSON.stringify(next.events)) fail(game, seed, step, `two copies fed '${text}' emitted different events`);
      if (game.applyOwned) {
        const owned = game.applyOwned(JSON.parse(before) as Json, game.decode(text));
        if (JSON.stringify(owned.state) !== JSON.stringify(next.state)) fail(game, seed, step, `applyOwned and apply fed '${text}' gave different states`);
        if (JSON.stringify(owned.events) !== JSON.stringify(next.events)) fail(game, seed, step, `applyOwned and apply fed '${text}' emitted different events`);
        if (owned.boundary !== next.boundary) fail(game, seed, step, `applyOwned and apply fed '${text}' crossed different boundaries (${owned.boundary} / ${next.boundary})`);
      }
      for (const pw of powers) {
        const obs = game.observe(next.state, pw);
        try {
          canonicalJson(obs);
        } catch (e) {
          fail(game, seed, step, `observe(${pw}) is not plain JSON: ${(e as Error).message}`);
        }
      }
      game.position(next.state);
    }
    state = next.state;
  }
}

/** Run the kit over every seed; throws on the first violation, naming game, seed and step. */
export function checkConformance(game: AnyGame, o: ConformanceOptions): ConformanceReport {
  const playouts: PlayoutSummary[] = [];
  for (const seed of o.seeds) playouts.push(conformancePlayout(game, o, seed));
  return { playouts, totalSteps: playouts.reduce((a, p) => a + p.steps, 0) };
}
