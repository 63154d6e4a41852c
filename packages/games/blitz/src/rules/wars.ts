/**
 * Who is at war with whom (3.1, 3.2, 7.2) in a scenario that keeps a war matrix: the full game, where
 * the wars start as pairs (Germany and the AFA; Japan and China) and spread by declarations and by the
 * neutral powers' entry. A belligerent is a power, or a minor country at war on its own account
 * (China, whose units the neutral USA runs while Japan and the USA are at peace; a minor declared on
 * by a power its aligner is not at war with).
 *
 * Scenarios A-F keep no matrix: there every power is at war with every power of the other side that
 * is not a neutral major, and these functions answer exactly that way.
 *
 * A land area's belligerents are its controller and, when its country is a belligerent minor, that
 * country; a unit's are its power and, likewise, its home country. Two lists are hostile when some pair
 * across them is at war. Seen from a belligerent, a land area of the other side that is not hostile to
 * it is neutral territory (1.6: no entering or flying over it), and units that are not hostile to it
 * are no enemies of it (they neither block it nor fight it).
 */
import { landDef, scenarioDef, scenarioIndex, unitDef, type PackIndex } from './pack-index.ts';
import type { BlitzState, UnitState } from './state.ts';
import { landUnitsIn } from './query.ts';

/** Belligerents a point of view speaks for: a unit's (its power, its minor home at war) or a power's. */
export type Viewer = readonly string[];

const pairKey = (a: string, b: string): string => (a < b ? `${a}~${b}` : `${b}~${a}`);

/** Whether the scenario keeps a war matrix (the full game). */
export const hasWarMatrix = (s: BlitzState): boolean => s.wars !== undefined;

function sideOfPower(p: PackIndex, s: BlitzState, power: string): string | undefined {
  return scenarioIndex(p, s.scenario).sideOf.get(power);
}

/**
 * The war matrix as a lookup: each belligerent's foes, in the order of the sorted `a~b` keys. Built from
 * `s.wars` and kept with that array while it keeps its length (the matrix only grows, by `makeWar`,
 * which also drops the array's index; a state built or copied afresh brings an array of its own). The
 * check is the length alone: asked on every war test, a pass over the keys each time was ~2% of a full
 * game.
 */
interface WarIndex {
  n: number;
  foes: Map<string, string[]>;
}
const warIndexes = new WeakMap<string[], WarIndex>();

function warIndex(wars: string[]): WarIndex {
  const hit = warIndexes.get(wars);
  if (hit && hit.n === wars.length) return hit;
  const foes = new Map<string, string[]>();
  const add = (x: string, y: string) => {
    const l = foes.get(x);
    if (l) l.push(y);
    else foes.set(x, [y]);
  };
  for (const k of wars) {
    const [a, b] = k.split('~') as [string, string];
    add(a, b);
    add(b, a);
  }
  const x = { n: wars.length, foes };
  warIndexes.set(wars, x);
  return x;
}

/** Whether belligerents `a` and `b` are at war now. */
export function atWar(p: PackIndex, s: BlitzState, a: string, b: string): boolean {
  if (a === b) return false;
  if (s.wars) return warIndex(s.wars).foes.get(a)?.includes(b) ?? false;
  const sa = sideOfPower(p, s, a);
  const sb = sideOfPower(p, s, b);
  if (!sa || !sb || sa === sb) return false;
  return !(s.neutral?.includes(a) ?? false) && !(s.neutral?.includes(b) ?? false);
}

/** Put `a` and `b` at war (matrix scenarios only); true if they were not already. */
export function makeWar(s: BlitzState, a: string, b: string): boolean {
  if (!s.wars || a === b) return false;
  const k = pairKey(a, b);
  if (s.wars.includes(k)) return false;
  s.wars.push(k);
  s.wars.sort();
  warIndexes.delete(s.wars);
  return true;
}

/** The belligerents `x` is at war with (matrix scenarios). */
export function foesOf(s: BlitzState, x: string): string[] {
  if (!s.wars) return [];
  const l = warIndex(s.wars).foes.get(x);
  return l ? [...l] : [];
}

/** Whether `x` is at war with anyone at all (7.2, 5.2: a neutral major power at war with no one). */
export const atWarWithAnyone = (p: PackIndex, s: BlitzState, x: string): boolean =>
  s.wars ? warIndex(s.wars).foes.has(x) : !(s.neutral?.includes(x) ?? false) && scenarioDef(p, s.scenario).powers.some((o) => atWar(p, s, x, o.id));

/** A minor country at war on its own account (it appears in the matrix). */
const belligerentMinor = (s: BlitzState, country: string): boolean => (s.wars ? warIndex(s.wars).foes.has(country) : false);

/**
 * Viewers of one or two belligerents, made once each and frozen: a unit's or an area's viewer is asked
 * for at nearly every test of a move or an attack, and callers only read it.
 */
const NO_VIEWER: Viewer = Object.freeze([]);
const viewers1 = new Map<string, Viewer>();
const viewers2 = new Map<string, Map<string, Viewer>>();

function viewerOf(a: string, b?: string): Viewer {
  if (b === undefined) {
    let v = viewers1.get(a);
    if (!v) viewers1.set(a, (v = Object.freeze([a])));
    return v;
  }
  let m = viewers2.get(a);
  if (!m) viewers2.set(a, (m = new Map()));
  let v = m.get(b);
  if (!v) m.set(b, (v = Object.freeze([a, b])));
  return v;
}

export function unitViewer(p: PackIndex, s: BlitzState, u: UnitState): Viewer {
  if (!s.wars) return viewerOf(u.power);
  const home = unitDef(p, u.def).home;
  return belligerentMinor(s, home) ? viewerOf(u.power, home) : viewerOf(u.power);
}

export function landViewer(p: PackIndex, s: BlitzState, land: string): Viewer {
  const c = s.control[land];
  const holder = c && c !== 'neutral' ? c : undefined;
  if (s.wars) {
    const country = landDef(p, land).country;
    if (belligerentMinor(s, country)) return holder === undefined ? viewerOf(country) : viewerOf(holder, country);
  }
  return holder === undefined ? NO_VIEWER : viewerOf(holder);
}

/** Whether some belligerent of `a` is at war with some belligerent of `b`. */
export function hostile(p: PackIndex, s: BlitzState, a: Viewer, b: Viewer): boolean {
  for (const x of a) for (const y of b) if (atWar(p, s, x, y)) return true;
  return false;
}

/** Whether unit `u` is an enemy to `v` (matrix scenarios; elsewhere the side decides). */
export const hostileUnit = (p: PackIndex, s: BlitzState, v: Viewer, u: UnitState): boolean => hostile(p, s, v, unitViewer(p, s, u));

/** Whether the land area is held by an enemy of `v`. */
export const hostileLand = (p: PackIndex, s: BlitzState, v: Viewer, land: string): boolean => hostile(p, s, v, landViewer(p, s, land));

/** The belligerents a power speaks for when it picks targets: itself and the minors at war whose units it runs (the USA and China). */
export function powerViewer(p: PackIndex, s: BlitzState, power: string): Viewer {
  if (!s.wars) return [power];
  const out = [power];
  for (const id in s.units) {
    const u = s.units[id]!;
    if (u.power !== power || u.at === 'pool' || u.at === 'gone') continue;
    const home = unitDef(p, u.def).home;
    if (!out.includes(home) && belligerentMinor(s, home)) out.push(home);
  }
  return out;
}

/**
 * 4.2, 5.1, 5.2: a neutral major power at war with no one at all (the full game; in Scenario F neutral
 * powers sit out the activities instead). Its land units other than GARs end their moves and attack
 * only in their home country, its air and naval units rebase only within it and never go to sea.
 */
export const neutralMajor = (s: BlitzState, power: string): boolean => !!s.wars && (s.neutral?.includes(power) ?? false) && foesOf(s, power).length === 0;

/** Whether `land` lies in unit `u`'s home country, or a home country of its nation (1.1), where a neutral major power's units must stay. */
export function inHomeCountry(p: PackIndex, u: UnitState, land: string): boolean {
  const country = landDef(p, land).country;
  const d = unitDef(p, u.def);
  return country === d.home || (d.nation !== undefined && p.country.get(country)?.homeOf === d.nation);
}

/**
 * 3.2: a power that aligned a minor declared on by an enemy it is not at war with may not enter that
 * minor's land areas (the minor's own units may) until it is at war with that enemy.
 */
export function barredFromAlly(p: PackIndex, s: BlitzState, u: UnitState, land: string): boolean {
  if (!s.wars) return false;
  const country = landDef(p, land).country;
  if (unitDef(p, u.def).home === country || !belligerentMinor(s, country)) return false;
  const holder = s.control[land];
  if (!holder || holder === 'neutral' || sideOfPower(p, s, holder) !== sideOfPower(p, s, u.power)) return false; // an enemy's area: hostility decides
  return foesOf(s, country).some((f) => f !== u.power && !atWar(p, s, u.power, f));
}

/** The AFA and the USA once the USA is at war with an Axis major power: they share areas freely (1.3) and may attack together (5.3). */
export function partners(p: PackIndex, s: BlitzState, a: string, b: string): boolean {
  if (!((a === 'AFA' && b === 'USA') || (a === 'USA' && b === 'AFA'))) return false;
  return scenarioDef(p, s.scenario).powers.some((x) => x.side !== sideOfPower(p, s, 'USA') && atWar(p, s, 'USA', x.id));
}

/**
 * 1.3 in the full game: may a unit of `power` enter and stack in `land`, held by another major power of
 * its side? Not in that power's home country (1.1); elsewhere only while the two share an enemy major
 * power they are both at war with and the holder has no land unit there. Where these allow it, a land
 * move still needs the holder's leave (`leaveHolder`, asked in movement.ts). The AFA and the USA, once
 * the USA is at war with an Axis power, go anywhere in each other's areas. The short scenarios' sides
 * act as one: never barred.
 */
export function allyAreaBarred(p: PackIndex, s: BlitzState, power: string, land: string): boolean {
  if (!s.wars) return false;
  const holder = s.control[land];
  if (!holder || holder === 'neutral' || holder === power) return false;
  const side = sideOfPower(p, s, power);
  if (sideOfPower(p, s, holder) !== side || partners(p, s, power, holder)) return false;
  if (nationHomes(p, s, holder).has(landDef(p, land).country)) return true;
  let shared = false;
  for (const x of scenarioDef(p, s.scenario).powers) {
    if (x.side !== side && atWar(p, s, power, x.id) && atWar(p, s, holder, x.id)) {
      shared = true;
      break;
    }
  }
  if (!shared) return true;
  for (const [, u] of landUnitsIn(p, s, land)) if (u.power === holder) return true;
  return false;
}

/** Countries that are home to one of `power`'s nations (1.1), per pack and scenario (built once). */
const nationHomesCache = new WeakMap<PackIndex, Map<string, Map<string, ReadonlySet<string>>>>();
function nationHomes(p: PackIndex, s: BlitzState, power: string): ReadonlySet<string> {
  // By scenario, then power (no key string built per ask: asked at every test of an ally's area).
  let byScenario = nationHomesCache.get(p);
  if (!byScenario) nationHomesCache.set(p, (byScenario = new Map()));
  let byPower = byScenario.get(s.scenario);
  if (!byPower) byScenario.set(s.scenario, (byPower = new Map()));
  const key = power;
  let homes = byPower.get(key);
  if (!homes) {
    const nations = scenarioDef(p, s.scenario).powers.find((x) => x.id === power)?.nations ?? [];
    homes = new Set(p.files.map.countries.filter((c) => c.homeOf !== undefined && nations.includes(c.homeOf)).map((c) => c.id));
    byPower.set(key, homes);
  }
  return homes;
}

/**
 * 1.3: the major power whose leave a unit of `power` needs to enter `land` (one its side holds through
 * another power, not a partner of it), or null when no leave is needed. Call it only for an area
 * `allyAreaBarred` leaves open.
 */
export function leaveHolder(p: PackIndex, s: BlitzState, power: string, land: string): string | null {
  if (!s.wars) return null;
  const holder = s.control[land];
  if (!holder || holder === 'neutral' || holder === power) return null;
  if (sideOfPower(p, s, holder) !== sideOfPower(p, s, power) || partners(p, s, power, holder)) return null;
  return holder;
}

/**
 * 5.3: may powers `a` and `b` (of one side) attack `land` together, in one attack or in attacks of
 * different kinds on it? Only the AFA and the USA, once the USA is at war with an Axis major power,
 * and only where both are at war with the major power that holds the area. Any other two powers of a
 * side may not attack the same area at the same time.
 */
export function jointAttackers(p: PackIndex, s: BlitzState, a: string, b: string, land: string): boolean {
  if (a === b) return true;
  if (!partners(p, s, a, b)) return false;
  const holder = s.control[land];
  return !s.wars || (holder !== undefined && atWar(p, s, a, holder) && atWar(p, s, b, holder));
}
