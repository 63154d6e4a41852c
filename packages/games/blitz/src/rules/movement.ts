/**
 * Moving units: return to base (4.1), move to a sea area with transports (4.2), rebase air and
 * naval units (5.1, A.3, B.3), move land units (5.2, A.4, B.4) and the Scenario A overseas move (A.5).
 */
import { IllegalChoiceError } from '@salient/engine';
import { emit, landName, unitName, type Events } from './events.ts';
import { airDistances, navalDistances } from './geometry.ts';
import { scenarioDef, unitDef, type PackIndex } from './pack-index.ts';
import {
  airBlitzBars,
  canStackAir,
  canStackLand,
  canStackPort,
  controllerSide,
  enemyLand,
  entryCost,
  face,
  friendlyFor,
  friendlyLand,
  isAir,
  isVWeapon,
  isLand,
  isNaval,
  landNeighbours,
  landUnitsIn,
  leaveAnswer,
  ownedBy,
  enterReadOnly,
  leaveReadOnly,
  readOnly,
  sideOf,
  sortStrings,
  typeOf,
  unitsAt,
} from './query.ts';
import { takeControl } from './politics.ts';
import { eliminate } from './combat.ts';
import { awaitsFleetRoll } from './france.ts';
import type { Ask, BlitzState, SideId, UnitState } from './state.ts';
import { fired, tracing } from './sections.ts';
import { chinaBarred } from './specials.ts';
import { hasSeaCombat, returnRoute, seaRoutes, startPassage } from './sea-combat.ts';
import { footBarred, noteFootUse, optionOn } from './optional.ts';
import { areaInSupply, inSupply, unitHome, withSupplyMemo } from './supply.ts';
import { allyAreaBarred, barredFromAlly, inHomeCountry, neutralMajor, unitViewer, type Viewer } from './wars.ts';
import { enterArea, holdForLeave } from './ally-leave.ts';
import { bombAt, mayPickUp, setDownBomb } from './abomb.ts';
import type { DecisionPrompt } from './prompts.ts';
import { moveUnit } from './unit-writes.ts';

const decision = (s: BlitzState, prompt: DecisionPrompt, options: string[]): Ask => ({ kind: 'decision', power: s.power, prompt, options });

/** 9.8: whether naval moves (to sea, 4.2; back to base, 4.1) may force closed straits. */
const forcing = (s: BlitzState): boolean => optionOn(s, '9.8');

/** Free Blitz (2.2): moved units may total Size 4. Other modes have no limit. */
function fitsBudget(s: BlitzState, size: number): boolean {
  return s.mode !== 'free' || size <= s.freeLeft;
}
function spend(s: BlitzState, size: number): void {
  if (s.mode === 'free') s.freeLeft -= size;
}

// ---------------------------------------------------------------- 4.1 Return to base

function returnPorts(p: PackIndex, s: BlitzState, uid: string): string[] {
  const u = s.units[uid]!;
  const side = sideOf(p, s, u.power);
  // 9.8: a closed strait may be forced on the way back too (the crossing is attacked, applyReturn).
  const d = navalDistances(p, s, u.at, face(p, u).move, side, false, unitViewer(p, s, u), forcing(s), typeOf(p, u) === 'SUB');
  return [...d.keys()].filter((n) => !n.startsWith('sea:') && friendlyFor(p, s, u, n) && canStackPort(p, s, n, u.size)).sort();
}

/** Where a unit at sea may return to base: ports in naval range; for air (C.1), land bases in air range. */
function returnBases(p: PackIndex, s: BlitzState, uid: string): string[] {
  return isAir(p, s.units[uid]!) ? airBases(p, s, uid) : returnPorts(p, s, uid);
}

function airBases(p: PackIndex, s: BlitzState, uid: string): string[] {
  const u = s.units[uid]!;
  const r = face(p, u).airMove ?? 0;
  return [...airDistances(p, s, u.at, r, unitViewer(p, s, u)).keys()].filter((l) => !l.startsWith('sea:') && friendlyFor(p, s, u, l) && canStackAir(p, s, l, u.size)).sort();
}

/**
 * 4.1, as the phasing power's return step begins, before it is asked anything: a unit at sea with no
 * friendly land area anywhere it could return to base (in any number of moves, past the straits as they
 * stand) is destroyed, even if it could stay at sea; one with bases, but none in range, must return to
 * the closest (its owner choosing among equals).
 */
export function destroyStranded(p: PackIndex, s: BlitzState, ev: Events): void {
  // The list as the step begins (a copy: units eliminated below keep their places in it).
  const list = ownedBy(s, s.power);
  for (let i = 0; i < list.length; i++) {
    // The search for the next unit to act on only reads the state: worked out with the units indexed and
    // supply remembered (`readOnly`), as a question's options are; what it finds is then applied here.
    const f = readOnly(s, () => withSupplyMemo(() => nextStranded(p, s, list, i)));
    if (!f) return;
    i = f.at;
    const [id, u] = list[i]!;
    fired('4.1', s.scenario);
    if (f.kind === 'cut-off') {
      emit(ev, 'cut-off-base', `${unitName(p, id)} must return to ${landName(p, f.forced[0]!)}, its only base in range, which is cut off from supply`, u.power, { unit: id, at: u.at, to: f.forced[0]! });
      s.sel = { kind: 'return', unit: id, forced: f.forced };
      return;
    }
    if (f.kind === 'stranded') {
      emit(ev, 'stranded', `${unitName(p, id)} has no base left to return to`, u.power, { unit: id, at: u.at });
      eliminate(p, s, id, ev);
      continue;
    }
    s.sel = { kind: 'return', unit: id, forced: f.forced };
    return; // asked (or applied) one unit at a time
  }
}

/**
 * 4.1: the first unit of `list` from `from` on that `destroyStranded` acts on, and how: one whose only
 * base in range is cut off from supply returns there; one with no base at all is destroyed; one with
 * bases but none in range returns to the closest. Null when none is left. Reads the state only.
 */
function nextStranded(p: PackIndex, s: BlitzState, list: readonly [string, UnitState][], from: number): { at: number; kind: 'cut-off' | 'stranded' | 'closest'; forced: string[] } | null {
  const FAR = 99;
  for (let i = from; i < list.length; i++) {
    const [id, u] = list[i]!;
    if (!u.at.startsWith('sea:') || u.moved) continue;
    const air = isAir(p, u);
    if (!isNaval(p, u) && !(air && hasSeaCombat(p, s))) continue;
    const reach = air ? airDistances(p, s, u.at, FAR, unitViewer(p, s, u)) : navalDistances(p, s, u.at, FAR, sideOf(p, s, u.power), false, unitViewer(p, s, u), forcing(s), typeOf(p, u) === 'SUB');
    const bases = [...reach.entries()].filter(([l]) => !l.startsWith('sea:') && friendlyFor(p, s, u, l) && (air ? canStackAir(p, s, l, u.size) : canStackPort(p, s, l, u.size)));
    const inRange = bases.length ? returnBases(p, s, id) : [];
    if (inRange.length) {
      // 4.1: when the one base in range cannot trace supply (1.7), the unit must return to it now.
      const only = inRange.length === 1 ? inRange[0]! : null;
      if (only === null || areaInSupply(p, s, u.power, unitHome(p, s, u.def), only, 'unit')) continue;
      return { at: i, kind: 'cut-off', forced: [only] };
    }
    if (!bases.length) return { at: i, kind: 'stranded', forced: [] };
    const nearest = Math.min(...bases.map(([, d]) => d));
    return { at: i, kind: 'closest', forced: bases.filter(([, d]) => d === nearest).map(([l]) => l).sort() };
  }
  return null;
}

export function askReturn(p: PackIndex, s: BlitzState): Ask | null {
  const sel = s.sel;
  if (sel?.kind === 'return') {
    // 1.3: a forced return's closest bases leave out an ally's area whose holder refused (ally-leave.ts).
    const u = s.units[sel.unit]!;
    const to = sel.forced ? sel.forced.filter((l) => friendlyFor(p, s, u, l)) : returnBases(p, s, sel.unit);
    return decision(s, 'return-to', to.map((l) => `to ${l}`));
  }
  // 2.2: in a Free Blitz a return to base counts its Size against the 4; in an Air Blitz only air units return.
  const units = ownedBy(s, s.power).filter(([id, u]) => u.at.startsWith('sea:') && !airBlitzBars(p, s, u) && (isNaval(p, u) || (isAir(p, u) && hasSeaCombat(p, s))) && !u.moved && fitsBudget(s, u.size) && returnBases(p, s, id).length > 0);
  if (!units.length) return null;
  return decision(s, 'return-pick', [...units.map(([id]) => `return ${id}`), 'done']);
}

export function applyReturn(p: PackIndex, s: BlitzState, c: string, ev: Events): boolean {
  if (c === 'done') return true;
  const [verb, arg] = c.split(' ') as [string, string];
  if (verb === 'return') {
    s.sel = { kind: 'return', unit: arg };
    return false;
  }
  const uid = (s.sel as { unit: string }).unit;
  const u = s.units[uid]!;
  if (holdForLeave(p, s, uid, arg, c)) return false; // 1.3: into an ally's area only with its leave
  emit(ev, 'return-to-base', `${unitName(p, uid)} returns to base at ${landName(p, arg)}`, u.power, { unit: uid, from: u.at, to: arg });
  // 2.2: a Free Blitz pays the unit's Size for the return, and the unit may still move to a sea area
  // (paying its Size again: double in all); otherwise 4.2's one move per unit stands.
  const made = (s.sel as { forced?: string[] }).forced !== undefined; // a return 4.1 forces is not a Free Blitz move
  if (!made) spend(s, u.size);
  if (s.mode !== 'free' || made) u.moved = true;
  const forced = forcing(s) && isNaval(p, u) ? returnRoute(p, s, uid, arg) : null;
  if (forced) {
    // 9.8: its way home forces a closed strait: the crossing is attacked before it gets there.
    s.sel = null;
    startPassage(p, s, uid, forced, { back: true });
    return false;
  }
  moveUnit(s, u, arg);
  for (const [, c2] of unitsAt(s, `trs:${uid}`)) moveUnit(s, c2, arg); // 4.1: carried land units come ashore in the port
  enterArea(p, s, uid, arg); // 1.3
  s.sel = null;
  return false;
}

// ---------------------------------------------------------------- 4.2 Move to a sea area (naval units)

function cargoSize(s: BlitzState, trs: string): number {
  let size = 0;
  for (const [, u] of unitsAt(s, `trs:${trs}`)) size += u.size;
  return size;
}

/**
 * 4.2: a TRS carries land units of total Size up to twice its own: its own power's, and where the AFA
 * and the USA are separate powers each other's once the USA is no longer neutral; Chinese land units
 * never, whoever runs them.
 */
function canCarry(p: PackIndex, s: BlitzState, trs: string, uid: string): boolean {
  const t = s.units[trs]!;
  const u = s.units[uid]!;
  if (!isLand(p, u) || typeOf(p, u) === 'FORT' || unitDef(p, u.def).home === 'china') return false;
  const allied = [t.power, u.power].sort().join() === 'AFA,USA' && !(s.neutral ?? []).includes('USA');
  if (u.power !== t.power && !allied) return false;
  return cargoSize(s, trs) + u.size <= 2 * t.size;
}

/** Land units in `land` that the TRS could take aboard now (4.2, 5.1: up to twice its Size). */
function loadable(p: PackIndex, s: BlitzState, trs: string, land: string): string[] {
  if (!inSupply(p, s, trs)) return []; // 1.7: a TRS out of supply carries and embarks nothing
  return landUnitsIn(p, s, land)
    .filter(([id, u]) => !u.moved && canCarry(p, s, trs, id) && londonRule(p, s, id))
    .map(([id]) => id);
}

function seaDestinations(p: PackIndex, s: BlitzState, uid: string): string[] {
  const u = s.units[uid]!;
  // 4.2: a neutral major power's air, BB, CV and SUB units never go to sea.
  if (neutralMajor(s, u.power) && ['AIR', 'BB', 'CV', 'SUB'].includes(typeOf(p, u))) return [];
  const v = unitViewer(p, s, u);
  if (isAir(p, u)) {
    // 1.2/6.1: a V-Weapon has no Naval or Air Factor and fights only in the Strategic Round: it never goes to sea (our reading).
    if (isVWeapon(p, u)) return [];
    // C.2: a sea costs an air unit 2; range-1 air units never end a move at sea; 1.7: nor one out of supply.
    const r = face(p, u).airMove ?? 0;
    if (r < 2 || !inSupply(p, s, uid)) return [];
    return [...airDistances(p, s, u.at, r, v).keys()].filter((n) => n.startsWith('sea:')).sort();
  }
  // 1.7: a naval unit out of supply moves only 1. 9.8: closed straits may be forced. 4.2: SUBs pass the straits the map opens to them.
  const d = navalDistances(p, s, u.at, inSupply(p, s, uid) ? face(p, u).move : 1, sideOf(p, s, u.power), false, v, forcing(s), typeOf(p, u) === 'SUB');
  return [...d.keys()].filter((n) => n.startsWith('sea:')).sort();
}

/**
 * 4.2: a move to sea may instead end by entering a Port (the Port counts as one more area moved
 * into): a friendly one other than where the move began, where the ship can stack (1.3: a Small Port
 * takes naval Size 2 at most) and where whatever it carries can stand ashore. A neutral major
 * power's ships keep to its home country, as they do when rebasing (5.1).
 */
function portDestinations(p: PackIndex, s: BlitzState, uid: string): string[] {
  const u = s.units[uid]!;
  if (!isNaval(p, u) || (neutralMajor(s, u.power) && ['BB', 'CV', 'SUB'].includes(typeOf(p, u)))) return [];
  const home = neutralMajor(s, u.power);
  const side = sideOf(p, s, u.power);
  const load = cargoSize(s, uid);
  const d = navalDistances(p, s, u.at, inSupply(p, s, uid) ? face(p, u).move : 1, side, false, unitViewer(p, s, u), forcing(s), typeOf(p, u) === 'SUB');
  return [...d.keys()]
    .filter((n) => !n.startsWith('sea:') && n !== u.at && friendlyFor(p, s, u, n) && canStackPort(p, s, n, u.size) && (!home || inHomeCountry(p, u, n)) && (load === 0 || canStackLand(p, s, n, side, load)))
    .sort();
}

export function askToSea(p: PackIndex, s: BlitzState): Ask | null {
  const sel = s.sel;
  if (sel?.kind === 'sea') {
    const t = s.units[sel.unit]!;
    if (sel.stage === 'load') {
      return decision(s, 'sea-load', [...loadable(p, s, sel.unit, t.at).map((id) => `load ${id}`), 'sail']);
    }
    // 4.3, 9.8: routes to the chosen destination whose risks differ (seaRoutes).
    if (sel.stage === 'route') return decision(s, 'sea-route', (sel.routes ?? []).map((r) => `via ${r}`));
    if (sel.stage === 'dest') return decision(s, 'sea-destination', [...seaDestinations(p, s, sel.unit).map((x) => `to ${x.slice(4)}`), ...portDestinations(p, s, sel.unit).map((l) => `into ${l}`)]);
    const sea = t.at.slice(4);
    const shore = [...(p.coastOf.get(sea) ?? [])].sort().flatMap((l) => loadable(p, s, sel.unit, l));
    return decision(s, 'sea-embark', [...shore.map((id) => `embark ${id}`), 'done']);
  }
  // 2.2: in an Air Blitz only air units move to sea.
  const ships = ownedBy(s, s.power).filter(([id, u]) => !airBlitzBars(p, s, u) && (isNaval(p, u) || (isAir(p, u) && hasSeaCombat(p, s))) && !u.at.startsWith('sea:') && !u.at.startsWith('trs:') && !u.moved && !u.toSea && fitsBudget(s, u.size) && seaDestinations(p, s, id).length > 0);
  if (!ships.length) return null;
  return decision(s, 'sea-pick', [...ships.map(([id]) => `sail ${id}`), 'done']);
}

type SeaSel = Extract<NonNullable<BlitzState['sel']>, { kind: 'sea' }>;

/**
 * 4.3, 9.8: the route of a naval move to `dest` (a sea; `into`, a port) in a scenario with sea combat:
 * the one route worth taking, or 'ask' when several differ in their risks (seaRoutes), the selection
 * then waiting on the player's pick.
 */
function pickRoute(p: PackIndex, s: BlitzState, sel: SeaSel, dest: string, into: boolean): string[] | 'ask' {
  const u = s.units[sel.unit]!;
  // 1.7: a naval unit out of supply moves only 1.
  const routes = seaRoutes(p, s, sel.unit, dest, inSupply(p, s, sel.unit) ? face(p, u).move : 1);
  if (routes.length === 1) return routes[0]!;
  fired('4.3', s.scenario);
  s.sel = { ...sel, stage: 'route', dest, into, routes: routes.map((r) => (into ? r.slice(0, -1) : r).join(' ')) };
  return 'ask';
}

/** 4.2: the move to sea `sea` goes ahead along `route` (null: no sea combat, nothing to meet on the way). */
function sailToSea(p: PackIndex, s: BlitzState, sel: SeaSel, sea: string, route: string[] | null): void {
  const t = s.units[sel.unit]!;
  if (route) startPassage(p, s, sel.unit, route, forcing(s) ? { from: t.at } : {}); // 4.3: it may be blocked on the way
  else moveUnit(s, t, `sea:${sea}`);
  t.toSea = true;
  t.moved = true;
  if (typeOf(p, t) === 'TRS') {
    sel.stage = 'embark';
  } else s.sel = null;
}

/** 4.2: the move into the port `land` goes ahead along `route` (null: no sea combat). */
function sailIntoPort(p: PackIndex, s: BlitzState, sel: SeaSel, land: string, route: string[] | null): void {
  const t = s.units[sel.unit]!;
  s.sel = null;
  if (route) {
    // 4.3: it may be blocked in a sea on the way, and ends its move there; a TRS so stopped may still embark (4.2).
    if (typeOf(p, t) === 'TRS') s.sel = { kind: 'sea', unit: sel.unit, stage: 'embark', cargo: sel.cargo };
    startPassage(p, s, sel.unit, route, forcing(s) ? { from: t.at } : {});
  } else {
    moveUnit(s, t, land);
    for (const x of sel.cargo) moveUnit(s, s.units[x]!, land);
    enterArea(p, s, sel.unit, land); // 1.3
  }
}

export function applyToSea(p: PackIndex, s: BlitzState, c: string, ev: Events): boolean {
  const [verb, arg] = c.split(' ') as [string, string | undefined];
  const sel = s.sel;
  if (!sel) {
    if (verb === 'done') return true;
    const u = s.units[arg!]!;
    spend(s, u.size);
    const isTrs = typeOf(p, u) === 'TRS';
    s.sel = { kind: 'sea', unit: arg!, stage: isTrs ? 'load' : 'dest', cargo: [] };
    return false;
  }
  if (sel.kind !== 'sea') throw new IllegalChoiceError(`unexpected '${c}'`);
  const t = s.units[sel.unit]!;
  if (verb === 'load' || verb === 'embark') {
    // Carried, not moved: it may still go ashore from the TRS in step E (5.2, B.4).
    moveUnit(s, s.units[arg!]!, `trs:${sel.unit}`);
    sel.cargo.push(arg!);
    return false;
  }
  if (verb === 'sail') {
    sel.stage = 'dest';
    return false;
  }
  if (verb === 'to') {
    emit(ev, 'move-to-sea', `${unitName(p, sel.unit)} puts to sea in the ${landName(p, `sea:${arg}`)}${sel.cargo.length ? ` carrying ${sel.cargo.map((x) => unitName(p, x)).join(', ')}` : ''}`, t.power, { unit: sel.unit, from: t.at, to: `sea:${arg}`, cargo: sel.cargo });
    const route = hasSeaCombat(p, s) && isNaval(p, t) ? pickRoute(p, s, sel, arg!, false) : null;
    if (route === 'ask') {
      t.toSea = true;
      t.moved = true;
      return false;
    }
    sailToSea(p, s, sel, arg!, route);
    return false;
  }
  if (verb === 'into') {
    // 4.2: the move ends in the Port; what the TRS carries comes ashore there (as on a return to base, 4.1).
    const land = arg!;
    if (!portDestinations(p, s, sel.unit).includes(land)) throw new IllegalChoiceError(`${sel.unit} cannot sail into ${land}`);
    if (holdForLeave(p, s, sel.unit, land, c)) return false; // 1.3: into an ally's Port only with its leave
    emit(ev, 'move-to-sea', `${unitName(p, sel.unit)} sails from ${landName(p, t.at)} into the port of ${landName(p, land)}${sel.cargo.length ? ` carrying ${sel.cargo.map((x) => unitName(p, x)).join(', ')}` : ''}`, t.power, { unit: sel.unit, from: t.at, to: land, cargo: [...sel.cargo] });
    t.toSea = true;
    t.moved = true;
    const route = hasSeaCombat(p, s) ? pickRoute(p, s, sel, land, true) : null;
    if (route !== 'ask') sailIntoPort(p, s, sel, land, route);
    return false;
  }
  if (verb === 'via' && sel.stage === 'route' && sel.dest !== undefined) {
    // 4.3, 9.8: the player's route among those whose risks differ.
    // `via SEA SEA ...`: the seas in order, space-separated (a choice is words of letters, digits, ':' and '-').
    const route = c.slice('via '.length);
    if (!(sel.routes ?? []).includes(route)) throw new IllegalChoiceError(`'${c}' is not a route on offer`);
    const path = route.split(' ');
    const { dest, into } = sel;
    const base = { kind: 'sea' as const, unit: sel.unit, stage: 'dest' as const, cargo: sel.cargo };
    s.sel = base;
    if (into) sailIntoPort(p, s, base, dest, [...path, dest]);
    else sailToSea(p, s, base, dest, path);
    return false;
  }
  if (verb === 'done') {
    const embarked = sel.cargo.filter((x) => s.units[x]!.at === `trs:${sel.unit}`);
    if (embarked.length) emit(ev, 'embark', `${unitName(p, sel.unit)} has aboard ${embarked.map((x) => unitName(p, x)).join(', ')}`, t.power, { unit: sel.unit, cargo: embarked });
    s.sel = null;
    return false;
  }
  throw new IllegalChoiceError(`unexpected '${c}'`);
}

// ---------------------------------------------------------------- 5.1 Rebase

/**
 * 5.1: the friendly ports a naval unit rebasing from `from` may reach with `left` movement (three
 * times its naval movement in all), never through seas with armed enemies, with the moves each costs.
 */
function rebasePorts(p: PackIndex, s: BlitzState, uid: string, from: string, left: number): Map<string, number> {
  const u = s.units[uid]!;
  const home = neutralMajor(s, u.power); // 5.1: a neutral major power's units keep to its home country
  const d = navalDistances(p, s, from, left, sideOf(p, s, u.power), true, unitViewer(p, s, u), false, typeOf(p, u) === 'SUB');
  const out = new Map<string, number>();
  for (const [n, cost] of d) {
    if (!n.startsWith('sea:') && n !== from && friendlyFor(p, s, u, n) && (!home || inHomeCountry(p, u, n)) && canStackPort(p, s, n, u.size)) out.set(n, cost);
  }
  return out;
}

/**
 * 5.1: where a rebase from `from` with `left` movement may end carrying land units of Size `load`: the
 * cargo goes ashore there, so it must be able to stand there (1.3: an Island holds land Size 2).
 * Loads and stops are offered only while such an end remains, so a rebase is never left with nowhere to go.
 */
function rebaseEnds(p: PackIndex, s: BlitzState, uid: string, from: string, left: number, load: number): string[] {
  const side = sideOf(p, s, s.units[uid]!.power);
  return [...rebasePorts(p, s, uid, from, left).keys()].filter((n) => load === 0 || canStackLand(p, s, n, side, load)).sort();
}

/**
 * 7.8: the land area where a rebasing air unit may stop to pick up its power's A-Bomb (offered as
 * `via <area>`): the bomb lies there, within the rebase's reach, the unit may carry it and may be there
 * (friendly, room to stack), and a rebase can still end somewhere from there. None once it carries it.
 */
function bombStops(p: PackIndex, s: BlitzState, uid: string): string[] {
  const u = s.units[uid]!;
  const sel = s.sel;
  if (!isAir(p, u) || sel?.kind !== 'rebase' || sel.bomb || neutralMajor(s, u.power)) return [];
  const at = bombAt(p, s, u.power);
  if (!at || at === u.at || !mayPickUp(p, s, uid, at) || !friendlyFor(p, s, u, at) || !canStackAir(p, s, at, u.size)) return [];
  const v = unitViewer(p, s, u);
  const cost = airDistances(p, s, u.at, rebaseLeft(p, s, uid), v).get(at);
  if (cost === undefined) return [];
  const onward = [...airDistances(p, s, at, rebaseLeft(p, s, uid) - cost, v).keys()].some((n) => !n.startsWith('sea:') && n !== at && friendlyFor(p, s, u, n) && canStackAir(p, s, n, u.size));
  return onward ? [at] : [];
}

/** 5.1: a whole rebase's movement: three times the unit's naval movement for a ship, its air movement for air and PARA. */
function fullRebase(p: PackIndex, u: UnitState): number {
  const f = face(p, u);
  return 3 * (isNaval(p, u) ? f.move : (f.airMove ?? 0));
}

/**
 * Movement a rebase has left: what a TRS making it in legs, or an air unit stopping for its A-Bomb
 * (7.8), has not spent, else the whole rebase (5.1).
 */
function rebaseLeft(p: PackIndex, s: BlitzState, uid: string): number {
  const sel = s.sel;
  return sel?.kind === 'rebase' && sel.unit === uid && sel.left !== undefined ? sel.left : fullRebase(p, s.units[uid]!);
}

function rebaseTargets(p: PackIndex, s: BlitzState, uid: string): string[] {
  const u = s.units[uid]!;
  const side = sideOf(p, s, u.power);
  const v = unitViewer(p, s, u);
  // 5.1: a neutral major power's units rebase from and to its home country only.
  const home = neutralMajor(s, u.power);
  if (home && !inHomeCountry(p, u, u.at)) return [];
  if (isNaval(p, u)) return rebaseEnds(p, s, uid, u.at, rebaseLeft(p, s, uid), cargoSize(s, uid));
  const d = airDistances(p, s, u.at, rebaseLeft(p, s, uid), v);
  const air = isAir(p, u);
  const out: string[] = [];
  for (const n of d.keys()) if (rebaseEnd(p, s, u, home, n) && (air ? canStackAir(p, s, n, u.size) : canStackLand(p, s, n, side, u.size))) out.push(n);
  return sortStrings(out);
}

/** Whether a unit rebasing by air (`u`; `home`: kept to its home country, 5.1) may end in `n` as far as who holds it goes. */
function rebaseEnd(p: PackIndex, s: BlitzState, u: UnitState, home: boolean, n: string): boolean {
  return !n.startsWith('sea:') && n !== u.at && friendlyFor(p, s, u, n) && (!home || inHomeCountry(p, u, n));
}

/**
 * 5.1: the ports where a rebasing TRS may stop on its way, to put land units ashore or take more aboard
 * (it may do so in a Port, never at sea), and then sail on: those in reach where it has something to do
 * and from which a friendly port is still within the movement left. Offered as `via <port>`; `to
 * <port>` ends the rebase there.
 */
function rebaseStops(p: PackIndex, s: BlitzState, uid: string): string[] {
  const u = s.units[uid]!;
  const sel = s.sel;
  if (isAir(p, u)) return bombStops(p, s, uid);
  if (typeOf(p, u) !== 'TRS' || sel?.kind !== 'rebase') return [];
  const side = sideOf(p, s, u.power);
  const left = rebaseLeft(p, s, uid);
  const out: string[] = [];
  for (const [port, cost] of rebasePorts(p, s, uid, u.at, left - 2)) {
    const ashore = sel.cargo.some((x) => canStackLand(p, s, port, side, s.units[x]!.size));
    const aboard = loadable(p, s, uid, port).some((x) => !(sel.dropped ?? []).includes(x));
    if ((ashore || aboard) && rebaseEnds(p, s, uid, port, left - cost, cargoSize(s, uid)).length > 0) out.push(port);
  }
  return out.sort();
}

function canRebase(p: PackIndex, s: BlitzState, uid: string): boolean {
  const u = s.units[uid]!;
  if (u.rebased || u.toSea || u.at.startsWith('sea:') || u.at.startsWith('trs:')) return false;
  const t = typeOf(p, u);
  if ((s.mode === 'free' || s.mode === 'air') && t !== 'AIR') return false; // 2.2: in a Free or an Air Blitz only air units rebase
  if (t === 'PARA' && u.moved) return false; // 5.1: a PARA that moved this phase may not rebase
  if (t !== 'AIR' && t !== 'PARA' && !isNaval(p, u)) return false;
  if (!fitsBudget(s, u.size)) return false;
  if (t === 'PARA' && !londonRule(p, s, uid)) return false;
  return anyRebaseTarget(p, s, uid);
}

/**
 * Whether `rebaseTargets` would list anything for `uid`, without the list: an air rebase's first end
 * allowed ends the search. Naval units, and every unit while rule firings are traced (so the counts are
 * those of the full list), ask `rebaseTargets` itself.
 */
function anyRebaseTarget(p: PackIndex, s: BlitzState, uid: string): boolean {
  const u = s.units[uid]!;
  if (tracing() || isNaval(p, u)) return rebaseTargets(p, s, uid).length > 0;
  const home = neutralMajor(s, u.power);
  if (home && !inHomeCountry(p, u, u.at)) return false;
  const side = sideOf(p, s, u.power);
  const d = airDistances(p, s, u.at, rebaseLeft(p, s, uid), unitViewer(p, s, u));
  const air = isAir(p, u);
  for (const n of d.keys()) if (rebaseEnd(p, s, u, home, n) && (air ? canStackAir(p, s, n, u.size) : canStackLand(p, s, n, side, u.size))) return true;
  return false;
}


export function askRebase(p: PackIndex, s: BlitzState): Ask | null {
  const sel = s.sel;
  if (sel?.kind === 'rebase') {
    if (sel.stage === 'load') {
      // 5.1: in a Port a TRS may put ashore what it brought (not what it took aboard here) and take aboard more.
      const u = s.units[sel.unit]!;
      const off = sel.cargo.filter((x) => !(sel.boarded ?? []).includes(x) && canStackLand(p, s, u.at, sideOf(p, s, u.power), s.units[x]!.size));
      const load = cargoSize(s, sel.unit);
      const left = rebaseLeft(p, s, sel.unit);
      const on = loadable(p, s, sel.unit, u.at).filter((x) => !(sel.dropped ?? []).includes(x) && rebaseEnds(p, s, sel.unit, u.at, left, load + s.units[x]!.size).length > 0);
      if (off.length || on.length) return decision(s, 'rebase-load', [...off.map((id) => `unload ${id}`), ...on.map((id) => `load ${id}`), 'go']);
    }
    // 7.8: an air unit may pick up its power's A-Bomb where it is, at the start of its rebase or at a stop.
    const pickUp = !sel.bomb && mayPickUp(p, s, sel.unit) ? ['carry a-bomb'] : [];
    return decision(s, 'rebase-to', [...rebaseTargets(p, s, sel.unit).map((l) => `to ${l}`), ...rebaseStops(p, s, sel.unit).map((l) => `via ${l}`), ...pickUp]);
  }
  const options: string[] = [];
  for (const [id] of ownedBy(s, s.power)) if (canRebase(p, s, id)) options.push(`rebase ${id}`);
  if (!options.length) return null;
  options.push('done');
  return decision(s, 'rebase-pick', options);
}

export function applyRebase(p: PackIndex, s: BlitzState, c: string, ev: Events): boolean {
  const [verb, arg] = c.split(' ') as [string, string | undefined];
  const sel = s.sel;
  if (!sel) {
    if (verb === 'done') return true;
    const u = s.units[arg!]!;
    spend(s, u.size);
    // 5.1/B.3: a rebasing TRS may first take land units from its starting area.
    const trs = typeOf(p, u) === 'TRS';
    const stage = trs && loadable(p, s, arg!, u.at).length ? 'load' : 'dest';
    s.sel = { kind: 'rebase', unit: arg!, cargo: [], stage, ...(trs ? { left: fullRebase(p, u), boarded: [], dropped: [] } : {}) };
    return false;
  }
  if (sel.kind !== 'rebase') throw new IllegalChoiceError(`unexpected '${c}'`);
  const u = s.units[sel.unit]!;
  if (verb === 'load') {
    moveUnit(s, s.units[arg!]!, `trs:${sel.unit}`);
    sel.cargo.push(arg!);
    sel.boarded?.push(arg!);
    return false;
  }
  if (verb === 'unload') {
    // 5.1: ashore in the Port where the TRS is; B.4: it may still move this phase, but not rebase again.
    moveUnit(s, s.units[arg!]!, u.at);
    s.units[arg!]!.rebased = true;
    sel.cargo = sel.cargo.filter((x) => x !== arg);
    sel.dropped?.push(arg!);
    emit(ev, 'disembark', `${unitName(p, arg!)} goes ashore from ${unitName(p, sel.unit)} at ${landName(p, u.at)}`, u.power, { unit: arg!, trs: sel.unit, at: u.at });
    return false;
  }
  if (verb === 'go') {
    sel.stage = 'dest';
    if (sel.boarded) sel.boarded = [];
    return false;
  }
  if (verb === 'carry') {
    if (sel.bomb || !mayPickUp(p, s, sel.unit)) throw new IllegalChoiceError(`${sel.unit} cannot pick up an A-Bomb here`);
    sel.bomb = true;
    fired('7.8', s.scenario);
    emit(ev, 'a-bomb', `${unitName(p, sel.unit)} picks up ${u.power}'s A-Bomb in ${landName(p, u.at)}`, u.power, { step: 'pick-up', unit: sel.unit, at: u.at });
    return false;
  }
  if (verb === 'via' && isAir(p, u)) {
    // 7.8: a stop on the way where the A-Bomb lies, to pick it up, then on with the movement left.
    const cost = airDistances(p, s, u.at, rebaseLeft(p, s, sel.unit), unitViewer(p, s, u)).get(arg!);
    if (cost === undefined || !bombStops(p, s, sel.unit).includes(arg!)) throw new IllegalChoiceError(`${sel.unit} cannot stop at ${arg}`);
    if (holdForLeave(p, s, sel.unit, arg!, c)) return false; // 1.3
    sel.left = rebaseLeft(p, s, sel.unit) - cost;
    emit(ev, 'rebase', `${unitName(p, sel.unit)} rebases from ${landName(p, u.at)} to ${landName(p, arg!)}, to fly on`, u.power, { unit: sel.unit, from: u.at, to: arg!, cargo: [], stop: true });
    moveUnit(s, u, arg!);
    enterArea(p, s, sel.unit, arg!); // 1.3
    return false;
  }
  if (verb === 'via') {
    // 5.1: one leg of a TRS's rebase, to a Port where it stops before sailing on.
    const cost = rebasePorts(p, s, sel.unit, u.at, rebaseLeft(p, s, sel.unit)).get(arg!);
    if (cost === undefined || !rebaseStops(p, s, sel.unit).includes(arg!)) throw new IllegalChoiceError(`${sel.unit} cannot stop at ${arg}`);
    if (holdForLeave(p, s, sel.unit, arg!, c)) return false; // 1.3: a stop in an ally's Port takes its leave too
    emit(ev, 'rebase', `${unitName(p, sel.unit)} rebases from ${landName(p, u.at)} to ${landName(p, arg!)}, to sail on${sel.cargo.length ? `, carrying ${sel.cargo.map((x) => unitName(p, x)).join(', ')}` : ''}`, u.power, { unit: sel.unit, from: u.at, to: arg!, cargo: [...sel.cargo], stop: true });
    moveUnit(s, u, arg!);
    enterArea(p, s, sel.unit, arg!); // 1.3
    sel.left = rebaseLeft(p, s, sel.unit) - cost;
    sel.stage = 'load';
    sel.boarded = [];
    return false;
  }
  if (holdForLeave(p, s, sel.unit, arg!, c)) return false; // 1.3: into an ally's area only with its leave
  emit(ev, 'rebase', `${unitName(p, sel.unit)} rebases from ${landName(p, u.at)} to ${landName(p, arg!)}${sel.cargo.length ? ` carrying ${sel.cargo.map((x) => unitName(p, x)).join(', ')}` : ''}`, u.power, { unit: sel.unit, from: u.at, to: arg!, cargo: sel.cargo });
  moveUnit(s, u, arg!);
  u.rebased = true;
  // 5.1: the cargo goes ashore at the destination; B.4: it may still move this phase. Having rebased
  // by TRS, a PARA may not also rebase by air (5.1).
  for (const x of sel.cargo) {
    moveUnit(s, s.units[x]!, arg!);
    s.units[x]!.rebased = true;
  }
  enterArea(p, s, sel.unit, arg!); // 1.3
  if (sel.bomb) setDownBomb(p, s, sel.unit, arg!, ev); // 7.8: the A-Bomb it picked up lies where it ends
  s.sel = null;
  return false;
}

// ---------------------------------------------------------------- 5.2 Move land units

/** A.5: in Scenario A the AFA must always keep a land unit in London. */
export function londonRule(p: PackIndex, s: BlitzState, uid: string): boolean {
  const u = s.units[uid]!;
  if (s.scenario !== 'A' || u.at !== 'london' || u.power !== 'AFA' || !isLand(p, u)) return true;
  for (const [id, x] of landUnitsIn(p, s, 'london')) if (id !== uid && x.power === 'AFA') return true;
  return false;
}

interface Step {
  to: string;
  cost: number;
  /** The move must stop after this step (Land Route 5.2, overseas move A.5, disembarking B.4). */
  stop: boolean;
}

/** 1.6: no entering neutral land (noted for rule coverage when it bars a step); in the full game, neutral as the unit sees it (3.2). */
function notNeutral(p: PackIndex, s: BlitzState, to: string, v: Viewer): boolean {
  if (controllerSide(p, s, to, v) !== 'neutral') return true;
  fired('1.6', s.scenario);
  return false;
}

function moveSteps(p: PackIndex, s: BlitzState, uid: string, mp: number): Step[] {
  const u = s.units[uid]!;
  const side = sideOf(p, s, u.power);
  const v = unitViewer(p, s, u);
  // 5.2: a neutral major power's land units other than GARs stay in their home country.
  const home = neutralMajor(s, u.power) && typeOf(p, u) !== 'GAR';
  if (u.at.startsWith('trs:')) {
    // B.4: from a TRS at sea, to a friendly land area touching that sea; the move ends there.
    const trs = s.units[u.at.slice(4)]!;
    if (!trs.at.startsWith('sea:')) return [];
    return [...(p.coastOf.get(trs.at.slice(4)) ?? [])].sort().filter((l) => friendlyLand(p, s, l, side) && stepOk(p, s, uid, u, v, side, home, l)).map((to) => ({ to, cost: mp, stop: true }));
  }
  const steps: Step[] = [];
  let paris = false;
  for (const n of landNeighbours(p, s, u.at)) {
    const cost = entryCost(p, n.to);
    if (cost <= mp && stepOk(p, s, uid, u, v, side, home, n.to)) {
      steps.push({ to: n.to, cost, stop: n.route });
      if (n.to === 'paris') paris = true;
    }
  }
  // A.5: an AFA land unit in London may cross directly to Paris, and stops there.
  if (overseasToParis(p, s, u, mp) && stepOk(p, s, uid, u, v, side, home, 'paris') && !paris) steps.push({ to: 'paris', cost: mp, stop: true });
  return londonRule(p, s, uid) ? steps : [];
}

/** A.5: whether `u`, with `mp` left, is an AFA land unit in London that has not moved yet (it may cross to Paris). */
function overseasToParis(p: PackIndex, s: BlitzState, u: UnitState, mp: number): boolean {
  return s.scenario === 'A' && u.at === 'london' && u.power === 'AFA' && mp === face(p, u).move;
}

/**
 * Whether `moveSteps` would offer land unit `uid` any step (its London rule already checked), without
 * listing them: the first step allowed ends the search. When rule firings are traced, every test is
 * made as `moveSteps` makes them, so the counts are those of the full list.
 */
function anyMoveStep(p: PackIndex, s: BlitzState, uid: string, mp: number): boolean {
  const u = s.units[uid]!;
  if (tracing() || u.at.startsWith('trs:')) return moveSteps(p, s, uid, mp).length > 0;
  const side = sideOf(p, s, u.power);
  const v = unitViewer(p, s, u);
  const home = neutralMajor(s, u.power) && typeOf(p, u) !== 'GAR';
  for (const n of landNeighbours(p, s, u.at)) if (entryCost(p, n.to) <= mp && stepOk(p, s, uid, u, v, side, home, n.to)) return true;
  return overseasToParis(p, s, u, mp) && stepOk(p, s, uid, u, v, side, home, 'paris');
}

/**
 * Whether land unit `uid` (`u`, of `side`, seen as `v`; `home`: kept to its home country, 5.2) may step
 * into `to`. A function of its own, not a closure made per call: the rules run under tsx, whose
 * name-keeping wraps every named closure in a property definition each time it is made.
 */
function stepOk(p: PackIndex, s: BlitzState, uid: string, u: UnitState, v: Viewer, side: SideId, home: boolean, to: string): boolean {
  return (
    notNeutral(p, s, to, v) && // 1.6
    !chinaBarred(p, s, uid, to) && // 5.2/E.1
    !(home && !inHomeCountry(p, u, to)) &&
    !barredFromAlly(p, s, u, to) && // 3.2
    !allyAreaBarred(p, s, u.power, to) && // 1.3
    leaveAnswer(s, u.power, to) !== false && // 1.3: the holder refused its leave this impulse
    canStackLand(p, s, to, side, u.size) && // enemy land units bar entry (5.2), Islands (1.3)
    !((s.mode === 'free' || scenarioDef(p, s.scenario).frozenControl) && enemyLand(p, s, to, side, v)) // 2.2: a Free Blitz never enters enemy land; C: control never changes
  );
}

function canMove(p: PackIndex, s: BlitzState, uid: string): boolean {
  const u = s.units[uid]!;
  if (!isLand(p, u) || u.moved || typeOf(p, u) === 'FORT') return false; // 5.2: a FORT never moves
  if (airBlitzBars(p, s, u)) return false; // 2.2: no land unit moves in an Air Blitz
  const mp = face(p, u).move;
  if (mp <= 0 || !fitsBudget(s, u.size) || !londonRule(p, s, uid)) return false;
  if (footBarred(p, s, uid)) return false; // 9.7: one ARM only in a non-motorized Land Blitz
  if (!inSupply(p, s, uid)) return false; // 1.7: a land unit out of supply cannot move
  return anyMoveStep(p, s, uid, mp);
}

export function askLandMove(p: PackIndex, s: BlitzState, extra: readonly string[]): Ask | null {
  const sel = s.sel;
  if (sel?.kind === 'move') {
    const options: string[] = [];
    for (const x of moveSteps(p, s, sel.unit, sel.mp)) options.push(`to ${x.to}`);
    options.push('stop');
    return decision(s, 'move-step', options);
  }
  const options: string[] = [];
  for (const [id] of ownedBy(s, s.power)) if (canMove(p, s, id)) options.push(`move ${id}`);
  if (!options.length && !extra.length) return null;
  for (const x of extra) options.push(x);
  options.push('done');
  return decision(s, 'move-pick', options);
}

export function applyLandMove(p: PackIndex, s: BlitzState, c: string, ev: Events): boolean {
  const [verb, arg] = c.split(' ') as [string, string | undefined];
  const sel = s.sel;
  if (!sel) {
    if (verb === 'done') return true;
    const u = s.units[arg!]!;
    spend(s, u.size);
    u.moved = true;
    noteFootUse(p, s, arg!); // 9.7
    s.sel = { kind: 'move', unit: arg!, mp: face(p, u).move, path: [u.at] };
    return false;
  }
  if (sel.kind !== 'move') throw new IllegalChoiceError(`unexpected '${c}'`);
  const u = s.units[sel.unit]!;
  if (verb === 'stop') {
    finishMove(p, s, ev);
    return false;
  }
  const step = readOnlySteps(p, s, sel.unit, sel.mp).find((x) => x.to === arg);
  if (!step) throw new IllegalChoiceError(`${sel.unit} cannot move to ${arg}`);
  // 1.3: entering an area another major power of the side holds needs that power's leave, asked once
  // an impulse (a refused area is no longer offered; see moveSteps).
  if (holdForLeave(p, s, sel.unit, arg!, c)) return false;
  if (s.scenario === 'A' && sel.path.length === 1 && sel.path[0] === 'london' && arg === 'paris') fired('A.5', s.scenario);
  if (step.cost > 1 && !step.stop) fired('1.4', s.scenario);
  moveUnit(s, u, arg!);
  sel.mp -= step.cost;
  sel.path.push(arg!);
  // 5.2: entering an enemy area with no land unit takes control of it (6.6).
  if (enemyLand(p, s, arg!, sideOf(p, s, u.power), unitViewer(p, s, u))) {
    takeControl(p, s, arg!, u.power, ev, `${unitName(p, sel.unit)} walks in`);
    // 6.6: enemy air and naval units in an area you take are overrun at once.
    // 3.4: French warships in Vichy France are rolled for instead.
    s.overruns.push(...unitsAt(s, arg!).filter(([id, x]) => !isLand(p, x) && sideOf(p, s, x.power) !== sideOf(p, s, u.power) && !awaitsFleetRoll(s, id)).map(([id]) => id));
  } else enterArea(p, s, sel.unit, arg!); // 1.3: the holder's air and naval units there rebase out
  if (step.stop || sel.mp <= 0 || readOnlySteps(p, s, sel.unit, sel.mp).length === 0 || s.winner) finishMove(p, s, ev);
  return false;
}

/** `readOnly(s, () => moveSteps(p, s, uid, mp))` without a closure made per call (see query.ts `enterReadOnly`). */
function readOnlySteps(p: PackIndex, s: BlitzState, uid: string, mp: number): Step[] {
  const opened = enterReadOnly(s);
  try {
    return moveSteps(p, s, uid, mp);
  } finally {
    leaveReadOnly(opened);
  }
}

/**
 * 1.3: the holder refused its leave (ally-leave.ts) and the move under way is asked again without that
 * area. Where nothing is left to offer: a land unit ends its move where it is (5.2); a rebase ends
 * where the unit now is, its cargo going ashore (a rebase not yet begun is simply not made); a return
 * to base forced on the unit (4.1) is worked out again from the bases that remain.
 */
export function afterRefusal(p: PackIndex, s: BlitzState, uid: string, ev: Events): void {
  const sel = s.sel;
  if (!sel || !('unit' in sel) || sel.unit !== uid) return; // a retreat or an overrun move: asked again as it stands
  if (sel?.kind === 'move' && moveSteps(p, s, sel.unit, sel.mp).length === 0) finishMove(p, s, ev);
  if (sel?.kind === 'rebase' && rebaseTargets(p, s, sel.unit).length === 0 && rebaseStops(p, s, sel.unit).length === 0) {
    const u = s.units[sel.unit]!;
    const moved = sel.left !== undefined && sel.left !== fullRebase(p, u);
    for (const x of sel.cargo) moveUnit(s, s.units[x]!, u.at);
    if (sel.bomb) setDownBomb(p, s, sel.unit, u.at, ev); // 7.8
    if (moved) {
      u.rebased = true;
      emit(ev, 'rebase', `${unitName(p, sel.unit)} ends its rebase at ${landName(p, u.at)}`, u.power, { unit: sel.unit, to: u.at, cargo: sel.cargo });
    }
    s.sel = null;
  }
  if (sel?.kind === 'return') {
    const left = sel.forced ? sel.forced.filter((l) => friendlyFor(p, s, s.units[sel.unit]!, l)) : returnBases(p, s, sel.unit);
    if (!left.length) s.sel = null; // a free return is not made; a forced one destroyStranded works out again
  }
}

function finishMove(p: PackIndex, s: BlitzState, ev: Events): void {
  const sel = s.sel as { unit: string; path: string[] };
  const u = s.units[sel.unit]!;
  if (sel.path.length > 1) {
    const from = sel.path[0]!;
    const fromName = from.startsWith('trs:') ? `aboard ${unitName(p, from.slice(4))}` : landName(p, from);
    emit(ev, 'move', `${unitName(p, sel.unit)} moves ${fromName} → ${sel.path.slice(1).map((x) => landName(p, x)).join(' → ')}`, u.power, { unit: sel.unit, path: sel.path });
  }
  s.sel = null;
}

