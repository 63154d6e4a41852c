/**
 * Optional rule 9.5, Commanders. Each major power has two Big two-sided Commander counters (the
 * pack's `commanders`, estimated: the counters are not in the rulebook text). A commander has factors
 * like a unit and a letter saying what it may command: A an air unit, L a land unit, N a naval unit.
 *
 *  - At its builds (7.8) a power at war with an enemy major power may bring one counter a turn from
 *    its Force Pool, free, into a land area of the counter's home country, either face up, and may
 *    put it in command of a unit there (`commander FACE LAND`, then `command UNIT` or `command none`).
 *  - At the start of its Activities and of its Blitz phase, a commander its power cannot trace supply
 *    to (1.7) goes back to the Force Pool; then, as the phase's first action, the power may show either
 *    face of each of its commanders and move it to any land area it can trace supply to (or a sea where
 *    it has a unit of the right kind), with no range, and name the unit there it commands.
 *  - A commanded unit fights with the commander's factors and triangles added (`fightFace`); the
 *    commander goes where the unit goes.
 *  - Each point of damage on a commanded unit costs a die (a chance node); a 6 sends the commander
 *    back to the Force Pool. So does the unit's destruction, and, for a commander commanding nothing,
 *    the other side taking the land area it is in.
 *
 * Nothing here runs unless the game was set up with 9.5: `s.commanders` exists only then, and every
 * entry point returns at once without it.
 */
import { IllegalChoiceError, SalientError } from '@salient/engine';
import type { CommanderDef, CommanderSide, UnitSide } from '../pack/schema.ts';
import { emit, landName, unitName, type Events } from './events.ts';
import { scenarioDef, type PackIndex } from './pack-index.ts';
import { enemy, face, heldBySide, isAir, isLand, isNaval, sideOf, sidePowers, unitsAt } from './query.ts';
import { fired } from './sections.ts';
import type { Ask, BlitzState, CommanderState, UnitState } from './state.ts';
import { suppliedAreas, suppliedSeas, usesSupply } from './supply.ts';
import { atWar } from './wars.ts';

// ---------------------------------------------------------------- the counters

function counters(p: PackIndex): readonly CommanderDef[] {
  return p.files.units.commanders ?? [];
}

function counterDef(p: PackIndex, counter: string): CommanderDef {
  const c = counters(p).find((x) => x.id === counter);
  if (!c) throw new Error(`unknown Commander counter '${counter}'`);
  return c;
}

/** The counter and face of commander `name` (a face id, `manstein`), or undefined. */
function faceOf(p: PackIndex, name: string): { counter: CommanderDef; side: CommanderSide } | undefined {
  for (const counter of counters(p)) for (const side of counter.sides) if (side.id === name) return { counter, side };
  return undefined;
}

const sideShowing = (p: PackIndex, c: CommanderState): CommanderSide => faceOf(p, c.face)!.side;

/** 9.5: the unit types each letter commands. */
export function letterFits(p: PackIndex, u: UnitState, letter: CommanderSide['letter']): boolean {
  return letter === 'A' ? isAir(p, u) : letter === 'L' ? isLand(p, u) : isNaval(p, u);
}

/**
 * Set-up with 9.5: every Commander counter of a nation in play starts in its power's Force Pool, its
 * first face up. A pack without Commander counters cannot play the rule.
 */
export function initCommanders(p: PackIndex, s: BlitzState): void {
  if (!s.optional?.includes('9.5')) return;
  const list = counters(p);
  if (!list.length) throw new SalientError('BAD_OPTION', "option 'optional': 9.5 (Commanders) needs the pack's Commander counters (units.json `commanders`), and this pack has none.");
  const powers = scenarioDef(p, s.scenario).powers;
  const out: Record<string, CommanderState> = {};
  for (const c of [...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const power = powers.find((x) => x.nations.includes(c.nation));
    if (power) out[c.id] = { power: power.id, face: c.sides[0].id, at: 'pool' };
  }
  s.commanders = out;
}

/** Counter ids in canonical (code point) order. */
const ids = (s: BlitzState): string[] => Object.keys(s.commanders ?? {}).sort();

/** Where a commander is: the land or sea area of the unit it commands (aboard a TRS, the TRS's), else its own. */
export function commanderAt(s: BlitzState, c: CommanderState): string {
  if (!c.unit) return c.at;
  const u = s.units[c.unit];
  if (!u) return 'pool';
  return u.at.startsWith('trs:') ? (s.units[u.at.slice(4)]?.at ?? u.at) : u.at;
}

/** The counter commanding unit `id`, if any. */
export function commanderOf(s: BlitzState, id: string): string | undefined {
  if (!s.commanders) return undefined;
  for (const k in s.commanders) if (s.commanders[k]!.unit === id) return k;
  return undefined;
}

// ---------------------------------------------------------------- factors

const plus = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));

/**
 * The factors unit `id` fights with (9.5): its counter's side, plus its commander's factors and
 * triangles (red and white kept apart: 6.2 ignores an attacking land unit's red triangles, the
 * commander's included, so Manstein commanding the 1st Para still attacks with its white triangle).
 * A unit commanded by a Land Commander has at least 1 Land Factor, and so may attack. Without a
 * commander, exactly `face`.
 */
export function fightFace(p: PackIndex, s: BlitzState, id: string): UnitSide {
  const u = s.units[id]!;
  const f = face(p, u);
  if (!s.commanders) return f;
  const k = commanderOf(s, id);
  if (!k) return f;
  const c = sideShowing(p, s.commanders[k]!);
  const out: UnitSide = { ...f };
  for (const key of ['air', 'land', 'naval', 'strategic'] as const) {
    const v = plus(f[key], c[key]);
    if (v !== undefined) out[key] = v;
  }
  if (c.letter === 'L') out.land = Math.max(1, out.land ?? 0);
  if (c.triangles) {
    const tri: NonNullable<UnitSide['triangles']> = { ...f.triangles };
    for (const box of ['air', 'land', 'naval'] as const) {
      const a = f.triangles?.[box];
      const b = c.triangles[box];
      if (a || b) tri[box] = { white: (a?.white ?? 0) + (b?.white ?? 0), red: (a?.red ?? 0) + (b?.red ?? 0) };
    }
    out.triangles = tri;
  }
  fired('9.5', s.scenario);
  return out;
}

/**
 * 9.5 example (Novikov and the LRA): in a Strategic Round a commanded unit that has Strategic Factors
 * also brings half its Land Factors (the LRA's 4 Strategic and Novikov's 2 Land attack a Factory with 5).
 */
export function commandedStrategicExtra(p: PackIndex, s: BlitzState, id: string): number {
  if (!commanderOf(s, id)) return 0;
  const f = fightFace(p, s, id);
  return f.strategic !== undefined && f.land !== undefined ? f.land / 2 : 0;
}

// ---------------------------------------------------------------- back to the Force Pool

function toPool(p: PackIndex, s: BlitzState, k: string, ev: Events, why: string): void {
  const c = s.commanders![k]!;
  const was = commanderAt(s, c);
  const name = sideShowing(p, c).name;
  s.commanders![k] = { power: c.power, face: c.face, at: 'pool', ...(c.placed !== undefined ? { placed: c.placed } : {}) };
  if (s.cmdLoss) {
    s.cmdLoss = s.cmdLoss.filter((x) => x !== k);
    if (!s.cmdLoss.length) delete s.cmdLoss;
  }
  if (s.cmdAssign?.counter === k) delete s.cmdAssign;
  fired('9.5', s.scenario);
  emit(ev, 'commander-lost', `${c.power}'s commander ${name} returns to the Force Pool (${why})`, c.power, { commander: c.face, counter: k, from: was, why });
}

/** 6.5/9.5: unit `id` is destroyed; the commander commanding it goes back to the Force Pool. */
export function commandedUnitLost(p: PackIndex, s: BlitzState, id: string, ev: Events): void {
  const k = commanderOf(s, id);
  if (k) toPool(p, s, k, ev, `${unitName(p, id)} is destroyed`);
}

/** 9.5: a point of damage on a commanded unit that survives it: its opponent owes a die for the commander. */
export function commandedUnitHit(s: BlitzState, id: string): void {
  const k = commanderOf(s, id);
  if (k) (s.cmdLoss ??= []).push(k);
}

export const askLossDie = (): Ask => ({ kind: 'chance', prompt: 'commander-loss-die', stream: 'combat', faces: 6 });

/** 9.5: the die for a point of damage on a commanded unit: a 6 sends the commander back to the Force Pool. */
export function applyLossDie(p: PackIndex, s: BlitzState, die: number, ev: Events): void {
  const k = s.cmdLoss!.shift()!;
  if (!s.cmdLoss!.length) delete s.cmdLoss;
  const c = s.commanders![k]!;
  fired('9.5', s.scenario);
  if (die === 6) {
    toPool(p, s, k, ev, 'a 6 on the loss die');
    return;
  }
  emit(ev, 'commander-loss-roll', `${c.power}'s commander ${sideShowing(p, c).name} survives the damage to ${unitName(p, c.unit!)} (die ${die})`, c.power, { commander: c.face, counter: k, die });
}

/**
 * 9.5, checked whenever play pauses: a commander whose unit has left the map (destroyed, set aside,
 * disbanded) or changed hands goes back to the Force Pool, and so does one commanding nothing in a
 * land area the other side now holds.
 */
export function sweepCommanders(p: PackIndex, s: BlitzState, ev: Events): void {
  for (const k of ids(s)) {
    const c = s.commanders![k]!;
    if (c.at === 'pool') continue;
    if (c.unit) {
      const u = s.units[c.unit];
      if (!u || u.at === 'pool' || u.at === 'gone') toPool(p, s, k, ev, `${unitName(p, c.unit)} has left the map`);
      else if (u.power !== c.power) toPool(p, s, k, ev, `${unitName(p, c.unit)} passed to ${u.power}`);
      continue;
    }
    if (!c.at.startsWith('sea:') && heldBySide(p, s, c.at, enemy(sideOf(p, s, c.power)))) toPool(p, s, k, ev, `${landName(p, c.at)} is enemy-controlled`);
  }
}

// ---------------------------------------------------------------- commanding a unit

/** Units of the commander's power in its area that its face's letter fits and no other commander commands. */
function commandable(p: PackIndex, s: BlitzState, k: string): string[] {
  const c = s.commanders![k]!;
  const letter = sideShowing(p, c).letter;
  return unitsAt(s, c.at)
    .filter(([id, u]) => u.power === c.power && letterFits(p, u, letter) && !commanderOf(s, id))
    .map(([id]) => id);
}

/** After placing or moving a commander: name its unit, if one fits. */
function offerCommand(p: PackIndex, s: BlitzState, k: string): void {
  if (commandable(p, s, k).length) s.cmdAssign = { counter: k };
}

export function askAssign(p: PackIndex, s: BlitzState): Ask {
  const k = s.cmdAssign!.counter;
  const c = s.commanders![k]!;
  // A commander at sea is there only to command a unit there.
  const none = c.at.startsWith('sea:') ? [] : ['command none'];
  return { kind: 'decision', power: c.power, prompt: 'commander-command', options: [...commandable(p, s, k).map((x) => `command ${x}`), ...none] };
}

export function applyAssign(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const k = s.cmdAssign!.counter;
  const c = s.commanders![k]!;
  delete s.cmdAssign;
  const arg = choice.slice('command '.length);
  if (arg === 'none') return;
  if (!commandable(p, s, k).includes(arg)) throw new IllegalChoiceError(`${sideShowing(p, c).name} cannot command ${arg}`);
  c.unit = arg;
  fired('9.5', s.scenario);
  emit(ev, 'commander-command', `${sideShowing(p, c).name} takes command of ${unitName(p, arg)}`, c.power, { commander: c.face, counter: k, unit: arg });
}

// ---------------------------------------------------------------- placement at the builds (7.8)

/**
 * 9.5 at `power`'s builds: `commander FACE LAND` for each counter in its Force Pool, either face, each
 * land area of the counter's home country it controls; only while it is at war with an enemy major
 * power, and one a turn.
 */
export function placementOptions(p: PackIndex, s: BlitzState, power: string): string[] {
  if (!s.commanders) return [];
  const mine = ids(s).filter((k) => s.commanders![k]!.power === power);
  if (mine.some((k) => s.commanders![k]!.placed === s.turn)) return [];
  const side = sideOf(p, s, power);
  if (!scenarioDef(p, s.scenario).powers.some((x) => x.side !== side && atWar(p, s, power, x.id))) return [];
  const out: string[] = [];
  for (const k of mine) {
    if (s.commanders![k]!.at !== 'pool') continue;
    const def = counterDef(p, k);
    const lands = (p.countryLands.get(def.home) ?? []).filter((l) => s.control[l] === power).sort();
    for (const f of def.sides) for (const l of lands) out.push(`commander ${f.id} ${l}`);
  }
  return out;
}

export function placeCommander(p: PackIndex, s: BlitzState, power: string, choice: string, ev: Events): void {
  if (!placementOptions(p, s, power).includes(choice)) throw new IllegalChoiceError(`'${choice}' is not a Commander ${power} may place now`);
  const [, name, land] = choice.split(' ') as [string, string, string];
  const k = faceOf(p, name)!.counter.id;
  s.commanders![k] = { power, face: name, at: land, placed: s.turn };
  fired('9.5', s.scenario);
  emit(ev, 'commander-placed', `${power} places its commander ${faceOf(p, name)!.side.name} in ${landName(p, land)}`, power, { commander: name, counter: k, at: land });
  offerCommand(p, s, k);
}

// ---------------------------------------------------------------- the start of a phase

/** At the start of impulses 1-4 with 9.5: the phasing side's commanders are checked, then moved. */
export function startCommanderPhase(p: PackIndex, s: BlitzState): void {
  if (!s.commanders || s.impulse > 4) return;
  s.cmdPhase = { queue: sidePowers(p, s, s.side), moved: [], checked: false };
}

/** Whether `power` can trace supply (1.7) to `at` for commander counter `k` (at sea: always, as for units). */
function suppliedAt(p: PackIndex, s: BlitzState, power: string, k: string, at: string): boolean {
  if (!usesSupply(p, s) || at.startsWith('sea:')) return true;
  return suppliedAreas(p, s, power, counterDef(p, k).home, 'unit').has(at);
}

/** Where `power` may move commander counter `k`: land areas it can trace supply to; seas only where a unit of its own fits a face. */
function destinations(p: PackIndex, s: BlitzState, power: string, k: string): { land: string[]; seas: Map<string, Set<string>> } {
  const def = counterDef(p, k);
  const side = sideOf(p, s, power);
  const land = usesSupply(p, s)
    ? [...suppliedAreas(p, s, power, def.home, 'unit')].filter((l) => s.control[l] !== undefined && heldBySide(p, s, l, side))
    : scenarioDef(p, s.scenario).lands.filter((l) => heldBySide(p, s, l, side));
  const seas = new Map<string, Set<string>>();
  const reach = usesSupply(p, s) ? suppliedSeas(p, s, power, def.home, 'unit') : null;
  for (const id of Object.keys(s.units).sort()) {
    const u = s.units[id]!;
    if (u.power !== power || !u.at.startsWith('sea:') || (reach && !reach.has(u.at.slice(4)))) continue;
    for (const f of def.sides) if (letterFits(p, u, f.letter)) (seas.get(u.at) ?? seas.set(u.at, new Set()).get(u.at)!).add(f.id);
  }
  return { land: land.sort(), seas };
}

function moveOptions(p: PackIndex, s: BlitzState, power: string): string[] {
  const ph = s.cmdPhase!;
  const out: string[] = [];
  for (const k of ids(s)) {
    const c = s.commanders![k]!;
    if (c.power !== power || c.at === 'pool' || ph.moved.includes(k)) continue;
    const d = destinations(p, s, power, k);
    for (const f of counterDef(p, k).sides) {
      for (const l of d.land) out.push(`commander ${f.id} ${l}`);
      for (const [sea, faces] of [...d.seas].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (faces.has(f.id)) out.push(`commander ${f.id} ${sea}`);
    }
  }
  return out;
}

/** The next question of the commander step, or null once every power of the side is done. */
export function askCommanderPhase(p: PackIndex, s: BlitzState, ev: Events): Ask | null {
  const ph = s.cmdPhase!;
  if (!ph.checked) {
    // 9.5: a commander its power cannot trace supply to goes back at once.
    for (const k of ids(s)) {
      const c = s.commanders![k]!;
      if (c.at === 'pool' || !ph.queue.includes(c.power)) continue;
      if (!suppliedAt(p, s, c.power, k, commanderAt(s, c))) toPool(p, s, k, ev, 'no supply line reaches it');
    }
    ph.checked = true;
  }
  while (ph.queue.length) {
    const power = ph.queue[0]!;
    const options = moveOptions(p, s, power);
    if (options.length) return { kind: 'decision', power, prompt: 'commander-move', options: [...options, 'commanders done'] };
    ph.queue.shift();
  }
  delete s.cmdPhase;
  return null;
}

/** `commander FACE AREA`: show that face and move there (its command ends; it names a new one); `commanders done`: the power is done. */
export function applyCommanderPhase(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const ph = s.cmdPhase!;
  if (choice === 'commanders done') {
    ph.queue.shift();
    return;
  }
  const power = ph.queue[0]!;
  const [, name, to] = choice.split(' ') as [string, string, string];
  const k = faceOf(p, name)!.counter.id;
  const c = s.commanders![k]!;
  const from = commanderAt(s, c);
  s.commanders![k] = { power, face: name, at: to, ...(c.placed !== undefined ? { placed: c.placed } : {}) };
  ph.moved.push(k);
  fired('9.5', s.scenario);
  emit(ev, 'commander-move', `${power} moves its commander ${faceOf(p, name)!.side.name} to ${landName(p, to)}`, power, { commander: name, counter: k, from, to });
  offerCommand(p, s, k);
}
