/**
 * Test helpers: load the bundled approximation pack, set up a scenario, rearrange the board, and
 * drive the game by choice text with dice forced where a test needs them.
 */
import { expect } from 'vitest';
import { RngStreams, type GameEvent, type LoadedPack, type Pending } from '@salient/engine';
import { blitz } from '../src/index.ts';
import { advance } from '../src/rules/flow.ts';
import { packOf } from '../src/rules/pack-index.ts';
import type { BlitzState, UnitState } from '../src/rules/state.ts';
import type { PackFiles } from '../src/pack/schema.ts';

/** Pack files checked like any pack, or an error naming `what` and the first issues. */
export function checkedPack(files: unknown, what: string): LoadedPack<PackFiles> {
  const r = blitz.checkPack(files);
  if (!r.ok) throw new Error(`${what} invalid: ${JSON.stringify(r.issues.slice(0, 5))}`);
  return r.pack;
}

export const pack: LoadedPack<PackFiles> = checkedPack(blitz.bundledPacks.approximation, 'bundled pack');

export const start = (scenario: 'A' | 'B' | 'C' | 'D'): BlitzState => blitz.setup(scenario, pack);

/**
 * Rearrange a state for a test: units (id -> partial unit, `null` removes it from the map), control,
 * then recompute the pending question at the current step.
 */
export function arrange(
  s0: BlitzState,
  edit: { units?: Record<string, Partial<UnitState> | null>; control?: Record<string, string>; atWar?: string[] },
): BlitzState {
  const s = structuredClone(s0);
  for (const [id, u] of Object.entries(edit.units ?? {})) {
    if (u === null) delete s.units[id];
    else s.units[id] = { def: id, power: 'GER', size: 1, at: 'pool', ...s.units[id], ...u } as UnitState;
  }
  Object.assign(s.control, edit.control ?? {});
  if (edit.atWar) s.atWar = edit.atWar;
  s.sel = null;
  advance(packOf(s.pack), s, []);
  return s;
}

export interface Run {
  state: BlitzState;
  events: GameEvent[];
}

/** Apply choices in order; `die N` answers a chance node. Fails with the legal options if one is not offered. */
export function play(s: BlitzState, ...choices: string[]): Run {
  const events: GameEvent[] = [];
  let state = s;
  for (const c of choices) {
    const p = blitz.pending(state);
    if (p.kind === 'decision' && !p.options.includes(c)) {
      throw new Error(`'${c}' not offered at ${p.prompt} (${p.power}); options: ${p.options.join(' | ')}`);
    }
    if (p.kind === 'terminal') throw new Error(`game over before '${c}'`);
    const step = blitz.apply(state, c);
    events.push(...step.events);
    state = step.state;
  }
  return { state, events };
}

/** Keep answering `done`/`stop` until the pending question is one of `prompts` (or the game ends). */
export function skipTo(s: BlitzState, ...prompts: string[]): BlitzState {
  let state = s;
  for (let i = 0; i < 500; i++) {
    const p = blitz.pending(state);
    if (p.kind !== 'decision' || prompts.includes(p.prompt)) return state;
    const pass = p.options.find((o) => o === 'done' || o === 'stop' || o === 'launch') ?? p.options[0]!;
    state = blitz.apply(state, pass).state;
  }
  throw new Error(`never reached ${prompts.join('/')}`);
}

export function options(s: BlitzState): string[] {
  const p = blitz.pending(s);
  return p.kind === 'decision' ? [...p.options] : [];
}

export function prompt(s: BlitzState): string {
  const p = blitz.pending(s);
  return p.kind === 'decision' ? `${p.power}:${p.prompt}` : p.kind === 'chance' ? `chance:${p.prompt}` : 'terminal';
}

export function eventsOf(r: Run, type: string): GameEvent[] {
  return r.events.filter((e) => e.type === type);
}

/** Round records of the combat in progress, or of the last finished one. */
export function combatLog(r: Run): Record<string, unknown>[] {
  if (r.state.combat) return r.state.combat.log;
  const c = eventsOf(r, 'combat');
  expect(c.length).toBeGreaterThan(0);
  return (c[c.length - 1]!.data!.rounds as unknown as Record<string, unknown>[]) ?? [];
}

import { chartResult } from '../src/rules/combat-chart.ts';

/** A die face giving a result that satisfies `want` on the column for `total`, from the pack's own chart. */
export function dieFor(total: number, want: (r: { damage: number; letter: string | null }) => boolean): string {
  for (let d = 1; d <= 6; d++) if (want(chartResult(pack.data['combat-chart'], total, d))) return `die ${d}`;
  throw new Error(`no die gives the wanted result on column ${total}`);
}

/** Pass (done/stop/launch, else the first option) until `power` is asked `question`. */
export function until(s0: BlitzState, power: string, question: string): BlitzState {
  let s = s0;
  for (let i = 0; i < 500; i++) {
    const p = blitz.pending(s);
    if (p.kind !== 'decision') throw new Error(`no ${power}:${question} before ${p.kind}`);
    if (p.power === power && p.prompt === question) return s;
    const pass = p.options.find((o) => o === 'done' || o === 'stop' || o === 'launch') ?? p.options[0]!;
    s = blitz.apply(s, pass).state;
  }
  throw new Error(`never reached ${power}:${question}`);
}

/** The answers a passive player gives by default (the first of them among the options). */
const PASSIVE = ['done', 'stop', 'launch', 'blitz free'];

/**
 * Play on passively across impulses and turns (the first option that is in `passive`, else the first
 * option; every die 3) until `stop(state, pending)` holds, and return that state; null when the game
 * ends or `limit` steps pass first. `onStep` sees each question answered, the events that followed,
 * and the state it was asked in.
 */
export function passUntil(
  s0: BlitzState,
  stop: (s: BlitzState, q: Pending<string>) => boolean,
  opts: { passive?: readonly string[]; limit?: number; onStep?: (q: Pending<string>, events: readonly GameEvent[], before: BlitzState) => void } = {},
): BlitzState | null {
  const passive = opts.passive ?? PASSIVE;
  let s = s0;
  for (let i = 0; i < (opts.limit ?? 5000); i++) {
    const q = blitz.pending(s);
    if (stop(s, q)) return s;
    if (q.kind === 'terminal') return null;
    const step = blitz.apply(s, q.kind === 'chance' ? 'die 3' : (q.options.find((o) => passive.includes(o)) ?? q.options[0]!));
    opts.onStep?.(q, step.events, s);
    s = step.state;
  }
  return null;
}

/** Play on passively (see `passUntil`) until `power` is asked `question`. */
export function reach(s0: BlitzState, power: string, question: string): BlitzState {
  const s = passUntil(s0, (_, q) => q.kind === 'decision' && q.power === power && q.prompt === question);
  if (!s) throw new Error(`never reached ${power}:${question}`);
  return s;
}

/**
 * A whole random game of `scenario` from `seed` (picks and dice from the seed's streams), through
 * `applyOwned` (the runner's path, units moved in place) or `apply` (copies); the final state's JSON.
 */
export function playOut(scenario: string, seed: number, owned: boolean): string {
  const rng = new RngStreams(seed);
  let s: BlitzState = blitz.setup(scenario, pack);
  for (let step = 0; step < 20_000; step++) {
    const p = blitz.pending(s);
    if (p.kind === 'terminal') return JSON.stringify(s);
    const choice = p.kind === 'decision' ? rng.get('pick').pick(p.options) : rng.get(p.stream).sample(p.outcomes);
    s = owned ? blitz.applyOwned!(s, choice).state : blitz.apply(s, choice).state;
  }
  throw new Error(`${scenario} seed ${seed}: no end in 20000 steps`);
}
