/**
 * Supply lines (1.7, from Scenario D on; switched on per scenario with `supply`). A unit is in supply
 * when a line runs from its area to a source: a friendly land area of one of its power's home
 * countries or of its own home country, over friendly land areas (across borders and Land Routes, not
 * Air Routes) and friendly seas (a sea is friendly unless an enemy air unit, BB, CV or SUB is there and
 * none of your side's units are; a live Convoy of yours counts as yours). Units at sea are always in
 * supply. Supply is judged when a unit starts to move.
 *
 * Out of supply (1.7): a land unit cannot move; no unit joins a land combat; an air unit cannot move to
 * sea; a TRS carries and embarks nothing; a naval unit moves only 1; nothing is built there; each
 * defending land unit out of supply gives the attackers two white triangles (6.2). Rebasing is allowed.
 */
import { scenarioDef, unitDef, type PackIndex } from './pack-index.ts';
import { controllerSide, inactive, isLand, sideOf, typeOf } from './query.ts';
import { seaNeighbours } from './geometry.ts';
import { convoySeas } from './sea-combat.ts';
import type { BlitzState, SideId } from './state.ts';
import { fired } from './sections.ts';

/** Whether this scenario uses supply lines. */
export const usesSupply = (p: PackIndex, s: BlitzState): boolean => scenarioDef(p, s.scenario).supply === true;

/** Armed units (1.5, 1.7): at sea they make a sea unfriendly to the other side. */
const ARMED = new Set(['AIR', 'BB', 'CV', 'SUB']);

/** 1.5: a sea is friendly to `side` unless armed enemy units hold it alone (a live Convoy of `side` counts as its unit). */
export function friendlySea(p: PackIndex, s: BlitzState, sea: string, side: SideId): boolean {
  return seaOccupancy(p, s, side)(sea);
}

/** The 1.5 friendly-sea test for `side` over the current position, from one pass over the units at sea. */
function seaOccupancy(p: PackIndex, s: BlitzState, side: SideId): (sea: string) => boolean {
  const armedEnemy = new Set<string>();
  const ours = convoySeas(p, s, side);
  for (const id in s.units) {
    const u = s.units[id]!;
    if (!u.at.startsWith('sea:')) continue;
    if (inactive(s, u.power)) continue; // 7.2: out of the war
    const sea = u.at.slice(4);
    if (sideOf(p, s, u.power) === side) ours.add(sea);
    else if (ARMED.has(typeOf(p, u))) armedEnemy.add(sea);
  }
  return (sea) => !armedEnemy.has(sea) || ours.has(sea);
}

/** Home countries of a power: those of its nations (1.1). */
export function homeCountries(p: PackIndex, s: BlitzState, power: string): Set<string> {
  const nations = scenarioDef(p, s.scenario).powers.find((x) => x.id === power)?.nations ?? [];
  return new Set(p.files.map.countries.filter((c) => c.homeOf && nations.includes(c.homeOf)).map((c) => c.id));
}

/**
 * Land areas in play that `power`'s units of home country `home` can trace supply from: every area
 * connected to a source by friendly land and sea. Computed afresh each time: states change inside an
 * apply (a move can restore another unit's supply), and the maps are small.
 */
export function suppliedAreas(p: PackIndex, s: BlitzState, power: string, home: string): ReadonlySet<string> {
  return supplyReach(p, s, power, home).lands;
}

/** Sea areas in play a supply line of `power` reaches (7.4: from a Lend Lease unit's home country to its sea). */
export function suppliedSeas(p: PackIndex, s: BlitzState, power: string, home: string): ReadonlySet<string> {
  return supplyReach(p, s, power, home).seas;
}

/**
 * Supply reach depends only on which side controls each land area and which sides (armed or not) have
 * units at which seas, so results are remembered under that fingerprint: the same position asked
 * again (every unit, every target a bot's options probe) costs one pass over control and units.
 */
interface Reach {
  lands: Set<string>;
  seas: Set<string>;
}
const reachCache = new Map<string, Reach>();

function fingerprint(p: PackIndex, s: BlitzState): string {
  // Power ids stand for their sides here: within one scenario a power's side never changes.
  let fp = `${s.pack}/${s.scenario}/`;
  for (const land in s.control) fp += `${s.control[land]},`;
  if (s.neutral) fp += `${s.impulse === 5 ? '' : s.neutral.join('+')}/`;
  for (const c in s.convoys ?? {}) fp += `${s.convoys![c]}.`;
  for (const id in s.units) {
    const u = s.units[id]!;
    if (u.at.charCodeAt(0) === 115 /* s */ && u.at.startsWith('sea:')) fp += `|${u.at}${u.power}${ARMED.has(p.unit.get(u.def)!.type) ? '!' : ''}`;
  }
  return fp;
}

/** Reach per power and home while a read-only question is being worked out (`withSupplyMemo`), and that position's fingerprint. */
let memo: Map<string, Reach> | null = null;
let memoFp: string | null = null;

/**
 * Run `f`, which must not change the state, remembering supply reach by power alone: listing the
 * options of a step asks about supply for every unit and target of the same position.
 */
export function withSupplyMemo<T>(f: () => T): T {
  if (memo) return f();
  memo = new Map();
  memoFp = null;
  try {
    return f();
  } finally {
    memo = null;
    memoFp = null;
  }
}

/** Home countries by power, per scenario (they never change in a game). */
const homesCache = new Map<string, Set<string>>();

/** Lands and seas a supply line of `power` from its home countries (and `home`) reaches, remembered by position. */
function supplyReach(p: PackIndex, s: BlitzState, power: string, home: string): Reach {
  // A unit from one of its power's home countries traces exactly as the power does.
  const hk = `${p.hash}/${s.scenario}/${power}`;
  let homes = homesCache.get(hk);
  if (!homes) homesCache.set(hk, (homes = homeCountries(p, s, power)));
  const h = homes.has(home) ? '' : home;
  const short = memo && `${power}/${h}`;
  const known = short ? memo!.get(short) : undefined;
  if (known) return known;
  const fp = memo ? (memoFp ??= fingerprint(p, s)) : fingerprint(p, s);
  const key = `${power}/${h}/${fp}`;
  const hit = reachCache.get(key);
  if (hit) {
    if (short) memo!.set(short, hit);
    return hit;
  }
  const all = computeReach(p, s, power, new Set([...homeCountries(p, s, power), home]));
  const out: Reach = { lands: new Set(), seas: new Set() };
  for (const x of all) {
    if (x.startsWith('sea:')) out.seas.add(x.slice(4));
    else out.lands.add(x);
  }
  if (reachCache.size >= 512) reachCache.clear();
  reachCache.set(key, out);
  if (short) memo!.set(short, out);
  return out;
}

/**
 * 7.6: the land areas a supply line of `power` reaches from `countries` alone (and its off-map sources),
 * not from all its home countries: where the turn end's income asks what its main home countries reach
 * and what an isolated ally reaches. Not remembered (asked a few times a turn end).
 */
export function landsReachedFrom(p: PackIndex, s: BlitzState, power: string, countries: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const x of computeReach(p, s, power, countries)) if (!x.startsWith('sea:')) out.add(x);
  return out;
}

function computeReach(p: PackIndex, s: BlitzState, power: string, homes: ReadonlySet<string>): Set<string> {
  const sc = scenarioDef(p, s.scenario);
  const side = sideOf(p, s, power);
  const friendly = (land: string) => controllerSide(p, s, land) === side;
  const passable = seaOccupancy(p, s, side);
  // E: off-map sources, and out-of-play seas and flagged out-of-play land areas to trace through.
  const off = sc.offMapSupply?.[power];
  const nations: readonly string[] = sc.powers.find((x) => x.id === power)?.nations ?? [];
  const landOk = (l: string) => (l in s.control ? friendly(l) : off !== undefined && nations.includes(p.land.get(l)?.control ?? ''));
  const inPlaySeas = new Set(sc.seas);
  const seaOk = (sea: string) => (inPlaySeas.has(sea) ? passable(sea) : off !== undefined);
  const seen = new Set<string>();
  const queue: string[] = [];
  const visit = (x: string) => {
    if (!seen.has(x)) {
      seen.add(x);
      queue.push(x);
    }
  };
  for (const land in s.control) if (friendly(land) && homes.has(p.land.get(land)!.country)) visit(land);
  if (off) for (const c of off.countries) for (const l of p.countryLands.get(c) ?? []) if (!(l in s.control) || friendly(l)) visit(l);
  for (let i = 0; i < queue.length; i++) {
    const n = queue[i]!;
    if (n.startsWith('sea:')) {
      const sea = n.slice(4);
      for (const l of p.coastOf.get(sea) ?? []) if (landOk(l)) visit(l);
      const next = off ? [...(p.seaBorders.get(sea) ?? [])].filter((t) => !inPlaySeas.has(t)).concat(seaNeighbours(p, s, sea, side)) : seaNeighbours(p, s, sea, side);
      for (const t of next) if (seaOk(t)) visit(`sea:${t}`);
    } else {
      for (const b of p.borders.get(n) ?? []) if (landOk(b)) visit(b);
      for (const b of p.landRoutes.get(n) ?? []) if (landOk(b)) visit(b);
      for (const sea of p.land.get(n)!.coast) if (seaOk(sea) && (inPlaySeas.has(sea) || off)) visit(`sea:${sea}`);
    }
  }
  return seen;
}

/**
 * 1.7, 3.4: the home country a supply line of a unit with counter `def` may start from: its own, or,
 * once that country is conquered, the new home its power chose for its units (`homeFor`, liberation.ts).
 */
export function unitHome(p: PackIndex, s: BlitzState, def: string): string {
  const home = unitDef(p, def).home;
  return s.homeFor?.[home] ?? home;
}

/** Whether unit `id` is in supply now (always, where the scenario has no supply rule). */
export function inSupply(p: PackIndex, s: BlitzState, id: string): boolean {
  if (!usesSupply(p, s)) return true;
  const u = s.units[id]!;
  if (u.at.startsWith('sea:')) return true;
  const at = u.at.startsWith('trs:') ? s.units[u.at.slice(4)]!.at : u.at;
  if (at.startsWith('sea:')) return true;
  if (suppliedAreas(p, s, u.power, unitHome(p, s, u.def)).has(at)) return true;
  fired('1.7', s.scenario);
  return false;
}

/** Whether a unit could be built or placed in `land` by `power` (1.7: not where supply cannot reach). */
export function areaInSupply(p: PackIndex, s: BlitzState, power: string, home: string, land: string): boolean {
  return !usesSupply(p, s) || suppliedAreas(p, s, power, home).has(land);
}

/** 6.2: two white triangles for the attackers per defending land unit out of supply. */
export function outOfSupplyDefenders(p: PackIndex, s: BlitzState, ids: readonly string[]): number {
  if (!usesSupply(p, s)) return 0;
  return ids.filter((x) => isLand(p, s.units[x]!) && !inSupply(p, s, x)).length;
}
