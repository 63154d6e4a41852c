/**
 * Sea area activities from Scenario C on: Convoys (3.5, 6.3, 6.5), blocking ships that try to leave a
 * sea with enemy units in it (4.3, C.3), and sea area combat (4.4, C.4): the phasing side picks the
 * order of the seas; in each, the other side may fly Naval-primary air in and let its SUBs slip back
 * to base; then an Air Round (6.1) if both sides have air or CVs, and a Naval Round (6.3) if either
 * side can fire at the other's ships or Convoy. Results follow 6.5: numbers before letters, the
 * phasing side's first; owner and enemy pick alternately; a letter sends units back to base (a
 * Convoy takes a point of damage instead). Units that survive stay at sea.
 */
import { IllegalChoiceError, type JsonObject } from '@salient/engine';
import type { ConvoyDef } from '../pack/schema.ts';
import { chartResult, letterFraction, roundHalfUp } from './combat-chart.ts';
import { airRoundTotals, damage, eliminate, finalFactor, triangles } from './combat.ts';
import { fightFace } from './commanders.ts';
import { emit, landName, unitName, type Events } from './events.ts';
import { airDistances, forcedCrossing, navalDistances, seaNeighbours } from './geometry.ts';
import { optionOn } from './optional.ts';
import { scenarioDef, type PackIndex } from './pack-index.ts';
import { answeringPower, mostFactorsPower, canStackAir, canStackPort, enemy, face, friendlyFor, heldBySide, inactive, isAir, isNaval, isOneShot, onMap, powerOfSide, sideOf, sidePowers, turnedBattleship, typeOf, readOnly, unitsAt } from './query.ts';
import { fired } from './sections.ts';
import { askLeave, enterArea, holdForLeave } from './ally-leave.ts';
import type { Ask, BlitzState, SeaCombatState, SeaPassage, SeaTask, SideId, UnitState } from './state.ts';
import { hostile, hostileUnit, neutralMajor, unitViewer, type Viewer } from './wars.ts';
import { snowAtSea } from './weather.ts';
import { minorTrading, tradesOf } from './income.ts';
import type { DecisionPrompt } from './prompts.ts';
import { moveUnit } from './unit-writes.ts';

const sortIds = (ids: readonly string[]) => [...ids].sort();
/** Any distance: how far the closest base may be (4.1). */
const FAR = 99;

/** Whether this scenario has sea area activities at all. */
export const hasSeaCombat = (p: PackIndex, s: BlitzState): boolean => scenarioDef(p, s.scenario).seaCombat === true;

// ---------------------------------------------------------------- Convoys (3.5)

/** The side a Convoy belongs to in this scenario, or null when its nation plays no part. */
function convoySide(p: PackIndex, s: BlitzState, c: ConvoyDef): SideId | null {
  for (const pw of scenarioDef(p, s.scenario).powers) {
    // 7.2: a neutral major power's Convoys are out of the war too.
    if (pw.nations.includes(c.nation)) return !inactive(s, pw.id) ? pw.side : null;
  }
  return null;
}

/** 3.5: whether a Convoy carries a Destroyed marker now. */
export function convoyDestroyed(p: PackIndex, s: BlitzState, c: ConvoyDef): boolean {
  const side = convoySide(p, s, c);
  if (!side) return true;
  if (scenarioDef(p, s.scenario).destroyedConvoys?.includes(c.id)) return true;
  // (Loops, not closures and filtered lists: asked for every Convoy at every supply question of the full game.)
  if (c.id === 'japan-south-china-convoy') {
    // E.3/3.5: it counts only while Japan holds an Oil or Resource area on its sea (the South China Sea).
    for (const l of p.coastOf.get(c.sea) ?? []) {
      if (s.control[l] !== undefined && p.land.get(l)!.oil + p.land.get(l)!.resources > 0 && heldBySide(p, s, l, side)) return false;
    }
    return true;
  }
  if (c.fedBy) return !fedBy(p, s, c, c.fedBy);
  if (c.home === 'australia') return heldBySide(p, s, 'canberra', enemy(side));
  if (c.home === 'india') return heldBySide(p, s, 'hyderabad', enemy(side));
  if (c.home === 'france' || c.home === 'japan' || c.home === 'usa') {
    // Destroyed once no land area of the home country touching the Convoy's sea is friendly.
    const coast = p.coastOf.get(c.sea);
    for (const l of p.countryLands.get(c.home) ?? []) if (coast !== undefined && coast.has(l) && s.control[l] !== undefined && heldBySide(p, s, l, side)) return false;
    return true;
  }
  return s.conquered.includes(c.home);
}

/**
 * 3.5 (Ger-Swe): whether any of `countries` provides a Resource to the Convoy's power: a trade of a
 * neutral minor (7.5) or a Resource area of it the power holds. Our reading: holding the area is enough;
 * whether it could trace supply is not asked (supply itself depends on which Convoys are Destroyed).
 */
function fedBy(p: PackIndex, s: BlitzState, c: ConvoyDef, countries: readonly string[]): boolean {
  const power = scenarioDef(p, s.scenario).powers.find((x) => x.nations.includes(c.nation))!.id;
  const trades = tradesOf(p, s).filter((t) => t.to === power && !t.giver && t.resources > 0);
  return countries.some(
    (country) =>
      trades.some((t) => t.from === country && minorTrading(p, s, country)) ||
      (p.countryLands.get(country) ?? []).some((l) => s.control[l] === power && p.land.get(l)!.resources > 0),
  );
}

/** A Convoy as the map labels it, by its home country (3.5): "Great Britain Convoy". */
const convoyName = (c: ConvoyDef): string => `${c.name} Convoy`;

/** Convoys in `sea` that take part in combat now: in play, not Destroyed. */
function liveConvoys(p: PackIndex, s: BlitzState, sea: string): ConvoyDef[] {
  if (!s.convoys) return [];
  return (p.files.map.convoys ?? []).filter((c) => {
    if (c.sea !== sea || !(c.id in s.convoys!)) return false;
    if (!convoyDestroyed(p, s, c)) return true;
    fired('3.5', s.scenario);
    return false;
  });
}

/** A Convoy that can still take damage this turn (6.5: at most its Convoy Factor). */
function convoyOpen(s: BlitzState, c: ConvoyDef): boolean {
  return (s.convoys?.[c.id] ?? 0) < c.factor;
}

/** The Convoys in play in a scenario with sea combat, all undamaged (the state's `convoys`). */
/** 1.7: seas where `side` has a Convoy that still counts as a unit (not Destroyed, not at maximum damage). */
export function convoySeas(p: PackIndex, s: BlitzState, side: SideId): Set<string> {
  const out = new Set<string>();
  if (!s.convoys) return out;
  for (const c of p.files.map.convoys ?? []) {
    if (!(c.id in s.convoys) || convoySide(p, s, c) !== side || (s.convoys[c.id] ?? 0) >= c.factor) continue;
    if (!convoyDestroyed(p, s, c)) out.add(c.sea);
  }
  return out;
}

export function initialConvoys(p: PackIndex, scenario: string): Record<string, number> {
  const sc = scenarioDef(p, scenario);
  const out: Record<string, number> = {};
  for (const c of p.files.map.convoys ?? []) if (sc.seas.includes(c.sea) && sc.powers.some((x) => x.nations.includes(c.nation))) out[c.id] = 0;
  return out;
}

/** End of turn: Convoy damage is cleared (6.5: the maximum is per turn; C: after the VPs are counted). */
export function clearConvoyDamage(s: BlitzState): void {
  if (s.convoys) for (const id in s.convoys) s.convoys[id] = 0;
}

// ---------------------------------------------------------------- who is at sea

const seaUnits = (s: BlitzState, sea: string): [string, UnitState][] => unitsAt(s, `sea:${sea}`);

function sideUnits(p: PackIndex, s: BlitzState, sea: string, side: SideId): string[] {
  const out = s.sea?.sea === sea ? (s.sea.out ?? []) : [];
  const all = seaUnits(s, sea).filter(([id]) => !out.includes(id)); // 9.8: turned back on its way out of this combat
  const ours = all.filter(([, u]) => sideOf(p, s, u.power) === side && !inactive(s, u.power)); // 7.2: a neutral major power's ships are out of the war
  if (!s.wars) return ours.map(([id]) => id);
  // 4.4 in the full game: a unit fights if it is at war with at least one enemy unit or Convoy there.
  const foes: Viewer[] = all.filter(([, u]) => sideOf(p, s, u.power) !== side).map(([, u]) => unitViewer(p, s, u));
  for (const c of liveConvoys(p, s, sea)) if (convoySide(p, s, c) !== side) foes.push([powerOfNation(p, s, c) ?? '']);
  return ours.filter(([, u]) => foes.some((f) => hostile(p, s, unitViewer(p, s, u), f))).map(([id]) => id);
}

/** Naval Factor a unit fires with (6.3): ships and CVs their Naval Factor; air units theirs, or half their primary bombing factor. */
export function navalFactor(p: PackIndex, s: BlitzState, id: string): number {
  const u = s.units[id]!;
  const f = fightFace(p, s, id); // 9.5: with its commander's factors
  if (isNaval(p, u)) return f.naval ?? 0;
  if (!isAir(p, u)) return 0;
  if (f.naval !== undefined) return f.naval;
  const primary = p.unit.get(u.def)?.primary;
  return primary && primary !== 'naval' ? (f[primary] ?? 0) / 2 : 0;
}

const isAirLike = (p: PackIndex, s: BlitzState, id: string) => isAir(p, s.units[id]!) || typeOf(p, s.units[id]!) === 'CV';

/**
 * Seas where units of the two sides meet (or one side's units meet the other's Convoy). In a Free
 * Blitz only the seas the phasing side sailed into this phase, and only if the other side wants it (2.2).
 */
export function seasWithCombat(p: PackIndex, s: BlitzState): string[] {
  // A pass over every sea of the scenario, each asking who is there: read-only, with the units indexed once.
  return readOnly(s, () => scanSeasWithCombat(p, s));
}

function scanSeasWithCombat(p: PackIndex, s: BlitzState): string[] {
  const sc = scenarioDef(p, s.scenario);
  const done = new Set(s.seaDone ?? []);
  const entered = (sea: string) => seaUnits(s, sea).some(([, u]) => u.toSea && sideOf(p, s, u.power) === s.side);
  return [...sc.seas]
    .sort()
    .filter((sea) => !done.has(sea) && (s.mode !== 'free' || entered(sea)))
    .filter((sea) => {
      const has = (side: SideId) => sideUnits(p, s, sea, side).length > 0;
      const convoy = (side: SideId) => liveConvoys(p, s, sea).some((c) => convoySide(p, s, c) === side);
      if (s.wars) return has('Axis') || has('Allies'); // units there only when at war with something of the other side's
      return (has('Axis') && (has('Allies') || convoy('Allies'))) || (has('Allies') && convoy('Axis'));
    });
}

// ---------------------------------------------------------------- blocking (4.3)

/** Blockade Value of the enemy units in `sea` against a ship of `side` leaving it (in the full game, enemies of `viewer` only). */
export function blockadeAgainst(p: PackIndex, s: BlitzState, sea: string, side: SideId, viewer?: Viewer): number {
  return seaUnits(s, sea)
    .filter(([, u]) => sideOf(p, s, u.power) !== side && !inactive(s, u.power) && (!viewer || !s.wars || hostileUnit(p, s, viewer, u)))
    .reduce((t, [, u]) => t + (face(p, u).blockade ?? 0), 0);
}

/**
 * 4.3, 9.8: the tests a ship meets along `path` (from the sea it enters first; a port last), in order:
 * a blockade roll on leaving each sea with enemy units in it (`b:<sea>:<value>`: where it stays if
 * blocked, and the value to beat; never for a SUB, 4.3), and a 7-factor attack at each closed strait
 * it forces (`f`: every such crossing has the same odds and the same outcome, an L sending it back to
 * where its move began, so which strait it is does not matter).
 */
function routeTests(p: PackIndex, s: BlitzState, uid: string, path: readonly string[]): string[] {
  const u = s.units[uid]!;
  const side = sideOf(p, s, u.power);
  const v = unitViewer(p, s, u);
  const sub = typeOf(p, u) === 'SUB';
  const forcing = optionOn(s, '9.8');
  const out: string[] = [];
  for (let i = 0; i + 1 < path.length; i++) {
    const [a, b] = [path[i]!, path[i + 1]!];
    const total = sub ? 0 : blockadeAgainst(p, s, a, side, v);
    if (total > 0) out.push(`b:${a}:${total}`);
    if (forcing && p.sea.has(b) && forcedCrossing(p, s, a, b, side, v, sub)) out.push('f');
  }
  return out;
}

/** Whether `a` is a subsequence of `b` (b meets every test a does, in the same order, and perhaps more). */
function within(a: readonly string[], b: readonly string[]): boolean {
  let i = 0;
  for (const x of b) if (i < a.length && a[i] === x) i++;
  return i === a.length;
}

/**
 * The routes worth a choice for a ship sailing from its port to `dest` (4.2) with `move` movement:
 * `dest` is a sea, or a port (a land id) the move enters last, costing one more (4.2), the path then
 * ending with the port. Routes are told apart by the tests they meet (routeTests): routes meeting the
 * same tests are one route (the shortest, then the first by code points), and a route meeting every
 * test another meets and more is dropped (4.3: a route clear of blockaders, or 9.8 of closed straits,
 * is always taken when the movement allows). What is left, ordered by code points, is one route (taken
 * without asking) or several whose risks differ, between which the player chooses.
 */
export function seaRoutes(p: PackIndex, s: BlitzState, uid: string, dest: string, move: number): string[][] {
  const u = s.units[uid]!;
  const side = sideOf(p, s, u.power);
  const v = unitViewer(p, s, u);
  const sc = scenarioDef(p, s.scenario);
  const forcing = optionOn(s, '9.8');
  const sub = typeOf(p, u) === 'SUB'; // 4.2: SUBs pass the straits the map opens to them
  const port = !p.sea.has(dest);
  const found: string[][] = [];
  const walk = (path: string[]): void => {
    const here = path[path.length - 1]!;
    if (port ? path.length < move && (p.portSeas.get(dest)?.has(here) ?? false) : here === dest) {
      found.push(port ? [...path, dest] : path);
      if (!port) return;
    }
    if (path.length >= move) return;
    for (const n of seaNeighbours(p, s, here, side, v, forcing, sub).sort()) if (sc.seas.includes(n) && !path.includes(n)) walk([...path, n]);
  };
  for (const first of [...(p.portSeas.get(u.at) ?? [])].sort()) if (sc.seas.includes(first)) walk([first]);
  if (!found.length) return [[dest]];
  const shorter = (a: string[], b: string[]) => a.length < b.length || (a.length === b.length && a.join() < b.join());
  const classes = new Map<string, { tests: string[]; path: string[] }>();
  for (const path of found) {
    const tests = routeTests(p, s, uid, path);
    const key = tests.join(' ');
    const had = classes.get(key);
    if (!had || shorter(path, had.path)) classes.set(key, { tests, path });
  }
  const all = [...classes.values()];
  const kept = all.filter((c) => !all.some((o) => o !== c && o.tests.length < c.tests.length && within(o.tests, c.tests)));
  return kept.map((c) => c.path).sort((a, b) => (a.join() < b.join() ? -1 : a.join() > b.join() ? 1 : 0));
}

/**
 * Move the ship into the first sea of `path` and queue the rest as a passage that may be blocked. With
 * 9.8 the passage knows where the move began (`from`), or that it is a return to base (`back`: its
 * path ends in the port, and it is never blocked, 4.3).
 */
export function startPassage(p: PackIndex, s: BlitzState, uid: string, path: string[], o: { from?: string; back?: boolean } = {}): void {
  const u = s.units[uid]!;
  if (o.back) {
    s.passage = { unit: uid, path, total: 0, from: u.at, back: true };
  } else {
    moveUnit(s, u, `sea:${path[0]!}`);
    s.passage = { unit: uid, path: path.slice(1), total: 0, ...(o.from ? { from: o.from } : {}) };
  }
  continuePassage(p, s);
}

/** Sail on while nothing blocks: stop at the destination, or when leaving a sea needs a roll (4.3, 9.8). */
function continuePassage(p: PackIndex, s: BlitzState): void {
  const g = s.passage!;
  const u = s.units[g.unit]!;
  // 4.3: SUBs are never blocked, nor are units returning to base.
  const sub = typeOf(p, u) === 'SUB' || g.back === true;
  while (g.path.length) {
    const total = sub ? 0 : blockadeAgainst(p, s, u.at.slice(4), sideOf(p, s, u.power), unitViewer(p, s, u));
    if (total > 0) {
      g.total = total;
      return;
    }
    if (forcedNext(p, s, g)) return;
    sailOn(p, s, g);
  }
  s.passage = null;
}

/** One step along the passage: into the next sea, or (the last step home, 9.8) into the port, cargo going ashore. */
function sailOn(p: PackIndex, s: BlitzState, g: SeaPassage): void {
  const u = s.units[g.unit]!;
  const next = g.path.shift()!;
  if (p.sea.has(next)) {
    moveUnit(s, u, `sea:${next}`);
    return;
  }
  moveUnit(s, u, next);
  for (const [, c] of unitsAt(s, `trs:${g.unit}`)) moveUnit(s, c, next); // 4.1, 4.2: carried land units come ashore in the port
  enterArea(p, s, g.unit, next); // 1.3: into an ally's Port (its leave was asked as the move was chosen)
  if (s.sel?.kind === 'sea' && s.sel.unit === g.unit) s.sel = null; // 4.2: a move ending in a port embarks nothing
}

/** 9.8: the next step forces a closed strait: the crossing's attack is rolled first. */
function forcedNext(p: PackIndex, s: BlitzState, g: SeaPassage): boolean {
  if (!optionOn(s, '9.8')) return false;
  const u = s.units[g.unit]!;
  const next = g.path[0]!;
  if (!u.at.startsWith('sea:') || !p.sea.has(next) || !forcedCrossing(p, s, u.at.slice(4), next, sideOf(p, s, u.power), unitViewer(p, s, u), typeOf(p, u) === 'SUB')) return false;
  g.force = true;
  return true;
}

/** 9.8: a forced passage is a 7-factor attack on the Combat Chart. */
export const FORCED_PASSAGE_FACTORS = 7;

/** The blockade die is in: beat the total to sail on, else stay in this sea (4.3). */
export function applyPassageDie(p: PackIndex, s: BlitzState, die: number, ev: Events): void {
  const g = s.passage!;
  if (g.force) return forcedPassage(p, s, die, ev);
  const u = s.units[g.unit]!;
  const sea = u.at.slice(4);
  fired('4.3', s.scenario);
  if (die > g.total) {
    emit(ev, 'blockade-passed', `${unitName(p, g.unit)} slips out of the ${landName(p, u.at)} (rolled ${die} against a Blockade Value of ${g.total})`, u.power, { unit: g.unit, sea, die, total: g.total });
    if (forcedNext(p, s, g)) return;
    sailOn(p, s, g);
    continuePassage(p, s);
  } else {
    emit(ev, 'blocked', `${unitName(p, g.unit)} is blocked in the ${landName(p, u.at)} (rolled ${die} against a Blockade Value of ${g.total})`, u.power, { unit: g.unit, sea, die, total: g.total });
    s.passage = null;
  }
}

/**
 * 9.8: the crossing's 7-factor attack is rolled. Its number is damage to the ship; an L sends it back
 * to where its move began, to move no more this phase (it has moved); otherwise it sails on. A TRS
 * reduced below its cargo first loses land units aboard, its owner choosing (6.5).
 */
function forcedPassage(p: PackIndex, s: BlitzState, die: number, ev: Events): void {
  const g = s.passage!;
  const u = s.units[g.unit]!;
  const [a, b] = [u.at.slice(4), g.path[0]!];
  const r = chartResult(p.chart, FORCED_PASSAGE_FACTORS, die);
  delete g.force;
  fired('9.8', s.scenario);
  emit(ev, 'forced-passage', `${unitName(p, g.unit)} forces the passage from the ${landName(p, `sea:${a}`)} to the ${landName(p, `sea:${b}`)}: a ${FORCED_PASSAGE_FACTORS}-factor attack rolls ${die} (${r.text})`, u.power, { unit: g.unit, from: a, to: b, die, result: r.text });
  for (let i = 0; i < r.damage && u.at !== 'pool' && u.at !== 'gone'; i++) damage(p, s, g.unit, ev, 'forced passage');
  if (u.at === 'pool' || u.at === 'gone') return endPassage(s);
  if (r.letter === 'L') g.bounce = true;
  if (typeOf(p, u) === 'TRS' && cargoSize(s, g.unit) > 2 * u.size) {
    g.shed = true;
    return;
  }
  afterForcing(p, s, ev);
}

/** After the attack (and any cargo lost): back where it began on an L, else on its way. */
function afterForcing(p: PackIndex, s: BlitzState, ev: Events): void {
  const g = s.passage!;
  const u = s.units[g.unit]!;
  if (!g.bounce) {
    sailOn(p, s, g);
    continuePassage(p, s);
    return;
  }
  const back = g.from ?? u.at;
  emit(ev, 'return-to-base', `${unitName(p, g.unit)} is turned back to ${landName(p, back)} (forced passage)`, u.power, { unit: g.unit, from: u.at, to: back, forced: true });
  moveUnit(s, u, back);
  if (!back.startsWith('sea:')) for (const [, c] of unitsAt(s, `trs:${g.unit}`)) moveUnit(s, c, back); // cargo ashore where it was loaded
  // 6.5, 4.4: it was sent out of the combat (a letter result, or a SUB avoiding it): back at sea, it stays out.
  if (s.sea && back === `sea:${s.sea.sea}`) s.sea.out = [...(s.sea.out ?? []), g.unit];
  endPassage(s);
}

/** The passage is over short of its end (sunk or turned back): a TRS's embarking stage goes with it. */
function endPassage(s: BlitzState): void {
  const g = s.passage!;
  if (s.sel && 'unit' in s.sel && s.sel.unit === g.unit) s.sel = null;
  s.passage = null;
}

/** 9.8: the owner of a TRS hit in a forced passage picks the land units aboard that are lost. */
export function applyPassagePick(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const g = s.passage!;
  const [verb, arg] = choice.split(' ') as [string, string];
  if (!g.shed || verb !== 'lose' || s.units[arg]?.at !== `trs:${g.unit}`) throw new IllegalChoiceError(`'${choice}' does not answer the forced passage`);
  emit(ev, 'overloaded', `${unitName(p, arg)} is lost: its damaged transport can no longer carry it`, s.units[arg]!.power, { unit: arg });
  eliminate(p, s, arg, ev);
  if (cargoSize(s, g.unit) > 2 * s.units[g.unit]!.size) return;
  delete g.shed;
  afterForcing(p, s, ev);
}

/**
 * 9.8: the seas a ship at sea passes through to return to base in `port` (4.1), when its way forces a
 * closed strait; null when it can get there without. Among the ways its movement allows (or, for a
 * unit that must go to the closest base beyond its range, 4.1, as far as that base is), the fewest
 * forced crossings, then the shortest, then by name. The path ends with the port. No choice of route
 * is offered: a return is never blocked (4.3), and every forced crossing has the same odds and the
 * same outcome (an L sends the ship back to the sea it started from), so fewer is always better.
 */
export function returnRoute(p: PackIndex, s: BlitzState, uid: string, port: string): string[] | null {
  const u = s.units[uid]!;
  const side = sideOf(p, s, u.power);
  const v = unitViewer(p, s, u);
  const sub = typeOf(p, u) === 'SUB';
  const move = Math.max(face(p, u).move, navalDistances(p, s, u.at, FAR, side, false, v, true, sub).get(port) ?? 0);
  if (navalDistances(p, s, u.at, move, side, false, v, false, sub).has(port)) return null;
  const start = u.at.slice(4);
  let best: { forced: number; path: string[] } | null = null;
  const walk = (path: string[], forced: number): void => {
    const here = path[path.length - 1]!;
    // Each sea entered costs 1 and the port 1 (4.2, in reverse for 4.1).
    if ((p.portSeas.get(port) ?? new Set()).has(here) && path.length <= move) {
      const cand = { forced, path: [...path.slice(1), port] };
      const b = best as { forced: number; path: string[] } | null;
      if (!b || forced < b.forced || (forced === b.forced && (cand.path.length < b.path.length || (cand.path.length === b.path.length && cand.path.join() < b.path.join())))) best = cand;
    }
    if (path.length >= move) return;
    for (const n of seaNeighbours(p, s, here, side, v, true, sub).sort()) {
      if (path.includes(n) || !scenarioDef(p, s.scenario).seas.includes(n)) continue;
      walk([...path, n], forced + (forcedCrossing(p, s, here, n, side, v, sub) ? 1 : 0));
    }
  };
  walk([start], 0);
  const found = best as { forced: number; path: string[] } | null;
  return found ? found.path : null;
}

export function askPassage(s: BlitzState): Ask | null {
  const g = s.passage;
  if (!g) return null;
  if (g.shed) return decision(s.units[g.unit]!.power, 'transport-overloaded', cargoOf(s, g.unit).map((x) => `lose ${x}`));
  return { kind: 'chance', prompt: g.force ? 'forced-passage-die' : 'blockade-die', stream: 'combat', faces: 6 };
}

// ---------------------------------------------------------------- bases for units leaving a sea

/**
 * Where a unit at sea may go back to base (4.1): friendly areas in range where it can stack (ports
 * for ships); with none in range, the closest such area; with none at all, nowhere (it is destroyed).
 */
export function basesFor(p: PackIndex, s: BlitzState, uid: string): string[] {
  const u = s.units[uid]!;
  const side = sideOf(p, s, u.power);
  const naval = isNaval(p, u);
  const f = face(p, u);
  const ok = (l: string) => !l.startsWith('sea:') && friendlyFor(p, s, u, l) && (naval ? canStackPort(p, s, l, u.size) : canStackAir(p, s, l, u.size));
  const v = unitViewer(p, s, u);
  // 9.8: a return to base sent by a letter result (6.5) or made by a SUB avoiding combat (4.4) is a
  // return to base (4.1) like any other: a ship may force a closed strait on the way (toBase).
  const reach = (limit: number) => (naval ? navalDistances(p, s, u.at, limit, side, false, v, optionOn(s, '9.8'), typeOf(p, u) === 'SUB') : airDistances(p, s, u.at, limit, v));
  const inRange = [...reach(naval ? f.move : (f.airMove ?? 0)).keys()].filter(ok).sort();
  if (inRange.length) return inRange;
  const far = [...reach(FAR).entries()].filter(([l]) => ok(l));
  if (!far.length) return [];
  const d = Math.min(...far.map(([, v]) => v));
  return far.filter(([, v]) => v === d).map(([l]) => l).sort();
}

/**
 * Send a unit back to `land` (4.1), carrying what it carries. 9.8: when a ship's way there forces a
 * closed strait, it sails as a passage (never blocked, 4.3) and the crossing is attacked first: an L
 * turns it back to the combat's sea, where it takes no further part in this combat (afterForcing).
 */
function toBase(p: PackIndex, s: BlitzState, uid: string, land: string, ev: Events, why: string): void {
  const u = s.units[uid]!;
  emit(ev, 'return-to-base', `${unitName(p, uid)} returns to base at ${landName(p, land)} (${why})`, u.power, { unit: uid, from: u.at, to: land, forced: true });
  const forced = optionOn(s, '9.8') && isNaval(p, u) ? returnRoute(p, s, uid, land) : null;
  if (forced) {
    startPassage(p, s, uid, forced, { back: true });
    return;
  }
  moveUnit(s, u, land);
  for (const [, c] of unitsAt(s, `trs:${uid}`)) moveUnit(s, c, land);
  enterArea(p, s, uid, land); // 1.3
}

// ---------------------------------------------------------------- the combat

const decision = (power: string, prompt: DecisionPrompt, options: string[]): Ask => ({ kind: 'decision', power, prompt, options });
/** The power answering for `side` in the sea combat: the phasing power, else the first of the side with units there. */
const seaPower = (p: PackIndex, s: BlitzState, side: SideId): string => answeringPower(p, s, side, s.sea ? sideUnits(p, s, s.sea.sea, side) : [], side === s.side ? s.power : undefined);
/** 6.5: the power making `side`'s picks in the current round: the one with the most Factors in it (`notePickers`). */
const roundPower = (p: PackIndex, s: BlitzState, side: SideId): string => s.sea?.pickers?.[side] ?? seaPower(p, s, side);
const pickerOf = (p: PackIndex, s: BlitzState, victims: SideId, ownerNext: boolean) => roundPower(p, s, ownerNext ? victims : enemy(victims));

/**
 * 6.5: note who makes each side's picks in the round now set up: the power whose units there bring
 * the most Factors to it (`factor`; a unit that does not fire counts 0, so its power is still a
 * candidate), kept only where it is not `seaPower`'s answer. Ties: see `mostFactorsPower`.
 */
function notePickers(p: PackIndex, s: BlitzState, c: SeaCombatState, factor: (id: string) => number): void {
  const out: Partial<Record<SideId, string>> = {};
  for (const side of [s.side, enemy(s.side)]) {
    const usual = seaPower(p, s, side);
    const pw = mostFactorsPower(p, s, side, sideUnits(p, s, c.sea, side).map((x) => [x, factor(x)] as const), usual);
    if (pw !== usual) out[side] = pw;
  }
  if (Object.keys(out).length) {
    c.pickers = out;
    fired('6.5', s.scenario);
  } else delete c.pickers;
}

/**
 * The power of the other side to answer a `fly`/`evade` stage: the first, in side order, with
 * candidate units that has not yet said it is done (a side of several powers answers power by power).
 */
function stagePower(p: PackIndex, s: BlitzState, c: SeaCombatState, units: string[]): string | undefined {
  return sidePowers(p, s, enemy(s.side)).find((pw) => !c.passed?.includes(pw) && units.some((x) => s.units[x]!.power === pw));
}

/** Begin the combat in `sea`. */
function startSeaCombat(p: PackIndex, s: BlitzState, sea: string, ev: Events): void {
  s.sea = { sea, stage: 'fly', round: 'air', att: 0, def: 0, attDie: 0, defDie: 0, tasks: [], log: [] };
  const names = (side: SideId) => [...sideUnits(p, s, sea, side).map((x) => unitName(p, x)), ...liveConvoys(p, s, sea).filter((c) => convoySide(p, s, c) === side).map((c) => convoyName(c))];
  emit(ev, 'combat-start', `Sea combat in the ${landName(p, `sea:${sea}`)}: ${names(s.side).join(', ')} against ${names(enemy(s.side)).join(', ')}`, s.power, {
    target: sea,
    kind: 'sea',
    attackers: sideUnits(p, s, sea, s.side),
    defenders: sideUnits(p, s, sea, enemy(s.side)),
  });
}

/** Air units of the other side that may fly to the combat: Naval primary, at a land base, the sea in range (4.4, C.2: not range 1). */
function flyers(p: PackIndex, s: BlitzState, sea: string): string[] {
  if (snowAtSea(p, s, sea)) return []; // 1.4: no air unit flies into a sea combat in Snow (estimated)
  const other = enemy(s.side);
  return onMap(s)
    .filter(([, u]) => isAir(p, u) && sideOf(p, s, u.power) === other && p.unit.get(u.def)?.primary === 'naval')
    .filter(([, u]) => !u.at.startsWith('sea:') && !u.at.startsWith('trs:') && u.committed === undefined)
    .filter(([, u]) => {
      const r = face(p, u).airMove ?? 0;
      return r >= 2 && !neutralMajor(s, u.power) && (airDistances(p, s, u.at, r, unitViewer(p, s, u)).get(`sea:${sea}`) ?? Infinity) <= r;
    })
    .map(([id]) => id)
    .sort();
}

function subsOf(p: PackIndex, s: BlitzState, sea: string, side: SideId): string[] {
  return sideUnits(p, s, sea, side).filter((x) => typeOf(p, s.units[x]!) === 'SUB');
}

/**
 * Units of `side` eligible for the current round's results (6.5), Convoys as `convoy:<id>`. `returns`:
 * for an Air Round's returns to base, where a CV turned BB by this round's losses still counts as air.
 */
function eligible(p: PackIndex, s: BlitzState, c: SeaCombatState, side: SideId, returns = false): string[] {
  const units = sideUnits(p, s, c.sea, side);
  if (c.round === 'air') return units.filter((x) => isAirLike(p, s, x) || (returns && turnedBattleship(p, s, x, c.log)));
  const ships = units.filter((x) => isNaval(p, s.units[x]!));
  const convoys = liveConvoys(p, s, c.sea).filter((cv) => convoySide(p, s, cv) === side && convoyOpen(s, cv)).map((cv) => `convoy:${cv.id}`);
  return [...ships, ...convoys];
}

function setupAirRound(p: PackIndex, s: BlitzState, c: SeaCombatState): void {
  const att = sideUnits(p, s, c.sea, s.side).filter((x) => isAirLike(p, s, x));
  const def = sideUnits(p, s, c.sea, enemy(s.side)).filter((x) => isAirLike(p, s, x));
  c.round = 'air';
  Object.assign(c, airRoundTotals(p, s, att, def));
  const inAir = new Set([...att, ...def]);
  notePickers(p, s, c, (x) => (inAir.has(x) ? (fightFace(p, s, x).air ?? 0) : 0));
  c.attDie = c.att > 0 ? null : 0;
  c.defDie = c.def > 0 ? null : 0;
  c.log.push({ round: 'air', target: c.sea, attackers: att, defenders: def, attFactors: c.att, defFactors: c.def });
  if (c.attDie !== null && c.defDie !== null) queueResults(p, s, c);
}

/** 6.3: whether `side` fires in a Naval Round (something with a Naval Factor, and enemy ships or a Convoy to hit). */
function navalFirers(p: PackIndex, s: BlitzState, c: SeaCombatState, side: SideId): string[] {
  const snow = snowAtSea(p, s, c.sea); // 1.4: air units add nothing in Snow (estimated)
  const mine = sideUnits(p, s, c.sea, side).filter((x) => navalFactor(p, s, x) > 0 && !(snow && isAir(p, s.units[x]!)));
  const saved = c.round;
  c.round = 'naval';
  const targets = eligible(p, s, c, enemy(side)).length > 0;
  c.round = saved;
  return targets ? mine : [];
}

/** Set up the Naval Round; false when neither side can fire. */
function setupNavalRound(p: PackIndex, s: BlitzState, c: SeaCombatState): boolean {
  const attF = navalFirers(p, s, c, s.side);
  const defF = navalFirers(p, s, c, enemy(s.side));
  if (!attF.length && !defF.length) return false;
  c.round = 'naval';
  fired('6.3', s.scenario);
  const firing = new Set([...attF, ...defF]);
  notePickers(p, s, c, (x) => (firing.has(x) ? navalFactor(p, s, x) : 0));
  const ships = (side: SideId) => sideUnits(p, s, c.sea, side).filter((x) => isNaval(p, s.units[x]!));
  // Enemy Convoys count as white triangles: their Convoy Factor less this turn's damage (6.3).
  const convoyBonus = (side: SideId) =>
    liveConvoys(p, s, c.sea)
      .filter((cv) => convoySide(p, s, cv) === enemy(side))
      .reduce((t, cv) => t + Math.max(0, cv.factor - (s.convoys?.[cv.id] ?? 0)), 0);
  const total = (firers: string[], side: SideId) => {
    if (!firers.length) return 0;
    const raw = firers.reduce((t, x) => t + navalFactor(p, s, x), 0) + triangles(p, s, ships(enemy(side)), 'naval') + convoyBonus(side);
    return finalFactor(raw, firers.some((x) => navalFactor(p, s, x) >= 1));
  };
  c.att = total(attF, s.side);
  c.def = total(defF, enemy(s.side));
  c.attDie = c.att > 0 ? null : 0;
  c.defDie = c.def > 0 ? null : 0;
  c.log.push({ round: 'naval', target: c.sea, attackers: attF, defenders: defF, attFactors: c.att, defFactors: c.def });
  if (c.attDie !== null && c.defDie !== null) queueResults(p, s, c);
  return true;
}

/** Both dice are in: queue the results in 6.5's order. */
function queueResults(p: PackIndex, s: BlitzState, c: SeaCombatState): void {
  const none = { damage: 0, letter: null, text: '-' };
  const ar = c.attDie ? chartResult(p.chart, c.att, c.attDie) : none;
  const dr = c.defDie ? chartResult(p.chart, c.def, c.defDie) : none;
  const round = c.log[c.log.length - 1]!;
  Object.assign(round, { attDie: c.attDie, defDie: c.defDie, attResult: ar.text, defResult: dr.text });
  const side = s.side;
  const other = enemy(side);
  const tasks: SeaTask[] = [];
  // 6: before any result of the round applies, its one-shot ('*') air units are destroyed.
  const spent = [...(round.attackers as string[]), ...(round.defenders as string[])].filter((x) => {
    const u = s.units[x];
    return !!u && u.at !== 'pool' && u.at !== 'gone' && isOneShot(p, u);
  });
  if (spent.length) tasks.push({ kind: 'spend', units: [...spent].sort() });
  if (ar.damage) tasks.push({ kind: 'damage', victims: other, left: ar.damage, ownerNext: true });
  if (dr.damage) tasks.push({ kind: 'damage', victims: side, left: dr.damage, ownerNext: true });
  if (ar.letter) tasks.push({ kind: 'letter', victims: other, letter: ar.letter });
  if (dr.letter) tasks.push({ kind: 'letter', victims: side, letter: dr.letter });
  tasks.push(c.round === 'air' ? { kind: 'naval-round' } : { kind: 'finish' });
  c.tasks.push(...tasks);
}

function hit(p: PackIndex, s: BlitzState, c: SeaCombatState, target: string, ev: Events, why: string): void {
  if (target.startsWith('convoy:')) {
    const id = target.slice(7);
    const cv = p.files.map.convoys!.find((x) => x.id === id)!;
    s.convoys![id] = (s.convoys![id] ?? 0) + 1;
    emit(ev, 'convoy-damage', `${convoyName(cv)} takes a point of damage (${why}), ${s.convoys![id]} of ${cv.factor} this turn`, powerOfNation(p, s, cv), { convoy: id, sea: c.sea, damage: s.convoys![id]!, why });
    return;
  }
  damage(p, s, target, ev, why);
  const u = s.units[target]!;
  if (typeOf(p, u) === 'TRS' && u.at !== 'pool' && cargoSize(s, target) > 2 * u.size) c.tasks.unshift({ kind: 'shed', trs: target });
}

const cargoOf = (s: BlitzState, trs: string) => unitsAt(s, `trs:${trs}`).map(([id]) => id).sort();
const cargoSize = (s: BlitzState, trs: string) => unitsAt(s, `trs:${trs}`).reduce((t, [, u]) => t + u.size, 0);

function powerOfNation(p: PackIndex, s: BlitzState, cv: ConvoyDef): string | undefined {
  return scenarioDef(p, s.scenario).powers.find((x) => x.nations.includes(cv.nation))?.id;
}

/** The next question of the sea combat step, or null when every sea has been fought. */
export function askSeaCombat(p: PackIndex, s: BlitzState, ev: Events): Ask | null {
  for (;;) {
    if (s.winner) return null;
    if (s.passage) return askPassage(s); // 9.8: a ship forcing a strait on its way back to base (toBase)
    const c = s.sea;
    if (!c) {
      const seas = seasWithCombat(p, s);
      if (!seas.length) return null;
      // 2.2: after a Free Blitz move to sea the other side says whether it fights, sea by sea.
      if (s.mode === 'free') return decision(answeringPower(p, s, enemy(s.side), sideUnits(p, s, seas[0]!, enemy(s.side))), 'free-blitz-sea-combat', [`fight ${seas[0]!}`, `decline ${seas[0]!}`]);
      if (seas.length > 1) return decision(s.power, 'sea-combat-order', seas.map((x) => `fight ${x}`));
      startSeaCombat(p, s, seas[0]!, ev);
      continue;
    }
    const first = c.tasks[0];
    if (c.stage !== 'rounds' && first?.kind === 'base') {
      const q = askBase(p, s, c, first.unit, ev);
      if (q) return q;
      continue;
    }
    if (c.stage === 'fly') {
      const f = flyers(p, s, c.sea);
      const pw = stagePower(p, s, c, f);
      if (pw) return decision(pw, 'fly-to-sea-combat', [...f.filter((x) => s.units[x]!.power === pw).map((x) => `fly ${x}`), 'done']);
      c.stage = 'evade';
      delete c.passed;
      continue;
    }
    if (c.stage === 'evade') {
      const subs = subsOf(p, s, c.sea, enemy(s.side)).filter((x) => basesFor(p, s, x).length > 0);
      const pw = stagePower(p, s, c, subs);
      if (pw) return decision(pw, 'sub-evasion', [...subs.filter((x) => s.units[x]!.power === pw).map((x) => `evade ${x}`), 'done']);
      delete c.passed;
      startRounds(p, s, c);
      continue;
    }
    if (c.attDie === null) return { kind: 'chance', prompt: `${c.round}-round-attacker-die`, stream: 'combat', faces: 6 };
    if (c.defDie === null) return { kind: 'chance', prompt: `${c.round}-round-defender-die`, stream: 'combat', faces: 6 };
    const t = c.tasks[0];
    if (!t) {
      finishSeaCombat(p, s, ev);
      continue;
    }
    switch (t.kind) {
      case 'spend': {
        // 6: one-shot air units were built to be used once: gone before the round's results apply.
        c.tasks.shift();
        fired('6', s.scenario);
        for (const x of t.units) {
          const u = s.units[x];
          if (!u || u.at === 'pool' || u.at === 'gone') continue;
          emit(ev, 'one-shot', `${unitName(p, x)} is used up (a one-shot unit)`, u.power, { unit: x });
          eliminate(p, s, x, ev, true);
        }
        continue;
      }
      case 'damage': {
        const el = eligible(p, s, c, t.victims);
        if (t.left <= 0 || !el.length) {
          c.tasks.shift();
          continue;
        }
        if (el.length === 1) {
          applySeaPick(p, s, `hit ${el[0]}`, ev);
          continue;
        }
        return decision(pickerOf(p, s, t.victims, t.ownerNext), 'assign-damage', sortIds(el).map((x) => `hit ${x}`));
      }
      case 'letter': {
        const el = eligible(p, s, c, t.victims, true);
        c.tasks[0] = { kind: 'rtb', victims: t.victims, left: roundHalfUp(el.length * letterFraction(t.letter)), ownerNext: true };
        continue;
      }
      case 'rtb': {
        const el = eligible(p, s, c, t.victims, true);
        if (t.left <= 0 || !el.length) {
          c.tasks.shift();
          continue;
        }
        if (el.length <= t.left) {
          // Everyone eligible goes: no choice to make, in id order.
          applySeaPick(p, s, `rtb ${sortIds(el)[0]}`, ev);
          continue;
        }
        return decision(pickerOf(p, s, t.victims, t.ownerNext), 'return-to-base', sortIds(el).map((x) => `rtb ${x}`));
      }
      case 'base': {
        const q = askBase(p, s, c, t.unit, ev);
        if (q) return q;
        continue;
      }
      case 'shed': {
        const trs = s.units[t.trs]!;
        if (trs.at === 'pool' || cargoSize(s, t.trs) <= 2 * trs.size) {
          c.tasks.shift();
          continue;
        }
        return decision(trs.power, 'transport-overloaded', cargoOf(s, t.trs).map((x) => `lose ${x}`));
      }
      case 'naval-round': {
        c.tasks.shift();
        if (!setupNavalRound(p, s, c)) c.tasks.push({ kind: 'finish' });
        continue;
      }
      case 'finish': {
        c.tasks.shift();
        finishSeaCombat(p, s, ev);
        continue;
      }
    }
  }
}

/** Where a unit sent back goes: asked of its owner when there is a choice; destroyed with nowhere to go (4.1). */
function askBase(p: PackIndex, s: BlitzState, c: SeaCombatState, unit: string, ev: Events): Ask | null {
  const bases = basesFor(p, s, unit);
  if (!bases.length) {
    c.tasks.shift();
    emit(ev, 'stranded', `${unitName(p, unit)} has no base to return to`, s.units[unit]!.power, { unit });
    eliminate(p, s, unit, ev);
    return null;
  }
  if (bases.length === 1) {
    applySeaPick(p, s, `base ${bases[0]}`, ev);
    return s.leaveAsk ? askLeave(s) : null; // 1.3: the one base is an ally's, whose leave is asked first
  }
  return decision(s.units[unit]!.power, 'return-to-base-where', bases.map((x) => `base ${x}`));
}

/** The other side has had its say: an Air Round if both sides have air or CVs, then the Naval Round. */
function startRounds(p: PackIndex, s: BlitzState, c: SeaCombatState): void {
  c.stage = 'rounds';
  fired('4.4', s.scenario);
  const airOn = (side: SideId) => sideUnits(p, s, c.sea, side).some((x) => isAirLike(p, s, x));
  // 1.4: no Air Round in a sea with Snow on a Snow turn (estimated; see snowAtSea).
  if (airOn(s.side) && airOn(enemy(s.side)) && !snowAtSea(p, s, c.sea)) setupAirRound(p, s, c);
  else c.tasks.push({ kind: 'naval-round' });
}

function finishSeaCombat(p: PackIndex, s: BlitzState, ev: Events): void {
  const c = s.sea!;
  const r = c.log.map((l) => `${String(l.round)} ${String(l.attFactors)}:${String(l.defFactors)} dice ${String(l.attDie ?? '-')}/${String(l.defDie ?? '-')} → ${String(l.attResult ?? '-')}/${String(l.defResult ?? '-')}`).join('; ');
  const summary: JsonObject = { target: c.sea, kind: 'sea', outcome: 'fought', rounds: c.log as unknown as JsonObject[] };
  emit(ev, 'combat', `Sea combat in the ${landName(p, `sea:${c.sea}`)}: ${r || 'no rounds'}`, s.power, summary);
  s.seaDone = [...(s.seaDone ?? []), c.sea];
  s.sea = null;
}

/** Apply a choice or die roll inside the sea combat step. */
export function applySeaPick(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const [verb, arg] = choice.split(' ') as [string, string];
  const c = s.sea;
  if (!c) {
    if (verb === 'decline') {
      const who = s.ask.kind === 'decision' ? s.ask.power : powerOfSide(p, s, enemy(s.side));
      emit(ev, 'sea-combat-declined', `${who} lets the Free Blitz into the ${landName(p, `sea:${arg}`)} pass without a fight`, who, { sea: arg });
      s.seaDone = [...(s.seaDone ?? []), arg];
      return;
    }
    if (verb !== 'fight') throw new IllegalChoiceError(`'${choice}' does not pick a sea to fight in`);
    startSeaCombat(p, s, arg, ev);
    return;
  }
  if (verb === 'die') {
    if (c.attDie === null) c.attDie = Number(arg);
    else c.defDie = Number(arg);
    if (c.attDie !== null && c.defDie !== null) queueResults(p, s, c);
    return;
  }
  if (verb === 'done' && (c.stage === 'fly' || c.stage === 'evade')) {
    // This power is done; the next power of its side with candidates answers, else the stage ends (askSeaCombat).
    c.passed = [...(c.passed ?? []), s.ask.kind === 'decision' ? s.ask.power : ''];
    return;
  }
  if (verb === 'fly' && c.stage === 'fly') {
    const u = s.units[arg]!;
    emit(ev, 'move-to-sea', `${unitName(p, arg)} flies to the sea combat in the ${landName(p, `sea:${c.sea}`)}`, u.power, { unit: arg, from: u.at, to: `sea:${c.sea}` });
    moveUnit(s, u, `sea:${c.sea}`);
    u.toSea = true;
    return;
  }
  if (verb === 'evade' && c.stage === 'evade') {
    c.tasks.unshift({ kind: 'base', unit: arg });
    return;
  }
  const t = c.tasks[0];
  if (!t) throw new IllegalChoiceError(`no pick pending for '${choice}'`);
  if (verb === 'hit' && t.kind === 'damage') {
    hit(p, s, c, arg, ev, c.round === 'air' ? 'Air Round at sea' : 'Naval Round');
    t.left -= 1;
    t.ownerNext = !t.ownerNext;
    return;
  }
  if (verb === 'rtb' && t.kind === 'rtb') {
    t.left -= 1;
    t.ownerNext = !t.ownerNext;
    if (arg.startsWith('convoy:')) hit(p, s, c, arg, ev, 'a Convoy cannot return to base'); // 6.5
    else c.tasks.unshift({ kind: 'base', unit: arg });
    return;
  }
  if (verb === 'lose' && t.kind === 'shed') {
    emit(ev, 'overloaded', `${unitName(p, arg)} is lost: its damaged transport can no longer carry it`, s.units[arg]!.power, { unit: arg });
    eliminate(p, s, arg, ev);
    return;
  }
  if (verb === 'base' && t.kind === 'base') {
    if (holdForLeave(p, s, t.unit, arg, choice)) return; // 1.3: into an ally's area only with its leave
    toBase(p, s, t.unit, arg, ev, c.stage === 'evade' ? 'a SUB avoiding combat' : 'a combat letter result');
    c.tasks.shift();
    return;
  }
  throw new IllegalChoiceError(`'${choice}' does not answer the pending sea combat step (${t.kind})`);
}
