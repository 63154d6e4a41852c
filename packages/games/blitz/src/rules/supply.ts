/**
 * Supply lines (1.7, from Scenario D on; switched on per scenario with `supply`). A unit is in supply
 * when a line runs from its area to a source: a friendly land area of one of its power's home
 * countries or of its own home country, over friendly land areas (across borders and Land Routes, not
 * Air Routes) and friendly seas (1.5). Units at sea are always in supply. Supply is judged when a unit
 * starts to move.
 *
 * What the line is traced for changes where it may start and what it may cross (`SupplyUse`):
 *  - a unit's line (`unit`): while the USA is at war, AFA and USA units may also start it in any home
 *    country of the other power (1.7; the short scenarios' Western Allies are one power already);
 *  - a power's own line (`power`): 7.8's builds and placements (the AFA and the USA never use each
 *    other's home countries there, at war or not), 3.3's supplied areas, a Lend Lease unit's line to
 *    its sea (7.4);
 *  - a line to Oil and Resources (`income`: 7.6, 7.4's last leg, 9.3): as a power's own, but it may
 *    also cross land areas held by a neutral country (1.7).
 *
 * Out of supply (1.7): a land unit cannot move; no unit joins a land combat; an air unit cannot move to
 * sea; a TRS carries and embarks nothing; a naval unit moves only 1; nothing is built there; each
 * defending land unit out of supply gives the attackers two white triangles (6.2). Rebasing is allowed.
 */
import { scenarioDef, scenarioIndex, unitDef, type PackIndex } from './pack-index.ts';
import { controlStamp, controllerSide, frozenMemo, inactive, isLand, sideOf, typeOf, unitsAtSea as unitsAtSeaNow } from './query.ts';
import { seaNeighbours } from './geometry.ts';
import { convoySeas } from './sea-combat.ts';
import type { BlitzState, SideId, UnitState } from './state.ts';
import { fired } from './sections.ts';
import { atWar, atWarWithAnyone } from './wars.ts';
import { unitWrites } from './unit-writes.ts';

/** Whether this scenario uses supply lines. */
export const usesSupply = (p: PackIndex, s: BlitzState): boolean => scenarioDef(p, s.scenario).supply === true;

/** What a supply line is traced for (1.7): a unit's, a power's own (7.8 builds and the like), or to Oil and Resources (7.6). */
export type SupplyUse = 'unit' | 'power' | 'income';

/** Armed units (1.5, 1.7): at sea they make a sea unfriendly to the powers at war with theirs. */
const ARMED = new Set(['AIR', 'BB', 'CV', 'SUB']);

/**
 * 1.5: a sea is friendly to `power`'s side unless an air unit, BB, CV or SUB of a major power `power` is
 * at war with is there and no unit of `power`'s side is (a Convoy of the side counts as its unit unless
 * destroyed or at its maximum damage).
 */
export function friendlySea(p: PackIndex, s: BlitzState, sea: string, power: string): boolean {
  return seaOccupancy(p, s, power)(sea);
}

/** The 1.5 friendly-sea test for `power` over the current position, from one pass over the units at sea. */
function seaOccupancy(p: PackIndex, s: BlitzState, power: string): (sea: string) => boolean {
  const { armedEnemy, ours } = seaPresence(p, s, power);
  return (sea) => !armedEnemy.has(sea) || ours.has(sea);
}

/** 1.5: the seas holding an armed unit of a major power at war with `power`, and those holding a unit or live Convoy of its side. */
function seaPresence(p: PackIndex, s: BlitzState, power: string): { armedEnemy: Set<string>; ours: Set<string> } {
  const side = sideOf(p, s, power);
  // 1.5: only the warships and aircraft of major powers `power` is at war with count against it.
  const foes = new Set<string>();
  for (const x of scenarioDef(p, s.scenario).powers) if (atWar(p, s, power, x.id)) foes.add(x.id);
  const armedEnemy = new Set<string>();
  const ours = new Set(sideConvoySeas(p, s, side));
  for (const u of unitsAtSea(s)) {
    if (inactive(s, u.power)) continue; // 7.2: out of the war
    const sea = u.at.slice(4);
    if (sideOf(p, s, u.power) === side) ours.add(sea);
    else if (foes.has(u.power) && ARMED.has(typeOf(p, u))) armedEnemy.add(sea);
  }
  return { armedEnemy, ours };
}

/** The seas of `side`'s live Convoys (1.5: they count as its units for every power of it): worked out once per side while a read-only question is. */
function sideConvoySeas(p: PackIndex, s: BlitzState, side: SideId): ReadonlySet<string> {
  const memo = frozenMemo(s);
  let convoys = memo?.get(`convoySeas:${side}`) as ReadonlySet<string> | undefined;
  if (!convoys) {
    convoys = convoySeas(p, s, side);
    memo?.set(`convoySeas:${side}`, convoys);
  }
  return convoys;
}

/** The units at sea, in the state's order; kept while a read-only question is worked out (asked per power). */
function unitsAtSea(s: BlitzState): UnitState[] {
  const memo = frozenMemo(s);
  const known = memo?.get('unitsAtSea') as UnitState[] | undefined;
  if (known) return known;
  const out = unitsAtSeaNow(s);
  memo?.set('unitsAtSea', out);
  return out;
}

/** Home countries of a power: those of its nations (1.1). */
export function homeCountries(p: PackIndex, s: BlitzState, power: string): Set<string> {
  const nations = scenarioDef(p, s.scenario).powers.find((x) => x.id === power)?.nations ?? [];
  return new Set(p.files.map.countries.filter((c) => c.homeOf && nations.includes(c.homeOf)).map((c) => c.id));
}

/**
 * 1.7: the power whose home countries a unit of `power` may also start its line in: the USA for the
 * AFA and the AFA for the USA, while the USA is at war (with anyone) and both are in the scenario.
 */
function sharedSourcesOf(p: PackIndex, s: BlitzState, power: string): string | null {
  if (power !== 'AFA' && power !== 'USA') return null;
  const other = power === 'AFA' ? 'USA' : 'AFA';
  if (!scenarioDef(p, s.scenario).powers.some((x) => x.id === other)) return null;
  if (s.wars) {
    // The matrix keys are `a~b`; no array is built on this path, asked for every unit's supply.
    for (const k of s.wars) if (k.startsWith('USA~') || k.endsWith('~USA')) return other;
    return null;
  }
  return atWarWithAnyone(p, s, 'USA') ? other : null;
}

/**
 * 1.7: a land area held by a neutral country, which a line to Oil and Resources may cross: a neutral
 * minor's (no power holds it), or a neutral major power's at war with no one.
 */
function heldByNeutral(p: PackIndex, s: BlitzState, land: string): boolean {
  const c = s.control[land];
  if (c === undefined) return false;
  return c === 'neutral' || ((s.neutral?.includes(c) ?? false) && !atWarWithAnyone(p, s, c));
}

/**
 * Land areas in play that a line of `power` traced for `use` (a unit's: of home country `home`)
 * reaches: every area connected to a source by friendly land and sea.
 */
export function suppliedAreas(p: PackIndex, s: BlitzState, power: string, home: string, use: SupplyUse): ReadonlySet<string> {
  return supplyReach(p, s, power, home, use).lands;
}

/** Sea areas in play a line of `power` traced for `use` reaches (7.4: from a Lend Lease unit's home country to its sea). */
export function suppliedSeas(p: PackIndex, s: BlitzState, power: string, home: string, use: SupplyUse): ReadonlySet<string> {
  return supplyReach(p, s, power, home, use).seas;
}

/**
 * Supply reach depends only on which side controls each land area, who is neutral or at war (the
 * control part, kept per `controlStamp`), and which seas are closed to the power (1.5: an armed enemy
 * there and none of its side's units or Convoys): results are remembered under those two. A ship
 * moving within open waters leaves both as they were, so the same reach serves again; the closed seas
 * cost one pass over the units per power and position.
 */
interface Reach {
  lands: Set<string>;
  seas: Set<string>;
}
/** Reach by control part (one long string, the same object while control stays as it was: hashed once), then by closed seas, power, home and use. */
const reachCache = new Map<string, Map<string, Reach>>();
let reachEntries = 0;

/** The control part of the key, for the control stamp it was built under (see `controlStamp`). */
let controlPartStamp = -1;
let controlPart = '';

function controlKey(s: BlitzState): string {
  // Power ids stand for their sides here: within one scenario a power's side never changes.
  const stamp = controlStamp(s);
  if (stamp !== controlPartStamp) {
    let cp = `${s.pack}/${s.scenario}/`;
    for (const land in s.control) cp += `${s.control[land]},`;
    // 7.2 (inactive powers' areas and units), 1.5 (who is at war with whom), 1.7 (neutral land, the USA at war).
    if (s.neutral) cp += `${s.impulse === 5 ? '5' : ''}:${s.neutral.join('+')}/`;
    if (s.wars) cp += `${s.wars.join('+')}/`;
    controlPart = cp;
    controlPartStamp = stamp;
  }
  return controlPart;
}

/** The seas closed to a power (1.5; see `seaOccupancy`): in id order and joined as a key, and by sea number (1 if closed). */
interface Closed {
  key: string;
  bySea: Uint8Array;
}

/**
 * Who is at sea where, for the 1.5 test of every power, from one pass over the units at sea, by sea
 * number (pack-index.ts `AreaIndex`): which sides have a unit there (bit 1 the Axis, 2 the Allies) and
 * which powers (a bit each, in the scenario's order) an armed unit; the seas with an armed unit in
 * number order (id order); and the closed seas worked out from it so far, by power.
 */
interface SeaPresence {
  bit: ReadonlyMap<string, number>;
  sides: Uint8Array;
  armed: Int32Array;
  armedSeas: number[];
  closed: Map<string, Closed>;
}

/** A bit per power of a scenario, by its place in the scenario's list; made once per list (only read). */
const bitsByPowers = new WeakMap<readonly { id: string }[], ReadonlyMap<string, number>>();
function powerBits(powers: readonly { id: string }[]): ReadonlyMap<string, number> {
  let bit = bitsByPowers.get(powers);
  if (!bit) {
    const m = new Map<string, number>();
    for (let i = 0; i < powers.length; i++) m.set(powers[i]!.id, 1 << i);
    bitsByPowers.set(powers, (bit = m));
  }
  return bit;
}

/**
 * The last presence worked out, with what it was worked out from: the pack, scenario, units record,
 * the count of unit writes (unit-writes.ts) and the control stamp (which covers 7.2's inactive powers).
 * While all of these are as they were, the next question takes its sides, armed powers and armed seas
 * (only read) without a pass over the units at sea; its closed seas are worked out afresh (they also
 * read the Convoys).
 */
let keptPresence: SeaPresence | null = null;
let keptPack: PackIndex | null = null;
let keptScenario = '';
let keptUnits: Record<string, UnitState> | null = null;
let keptWrites = -1;
let keptStamp = -1;

function seaPresenceAll(p: PackIndex, s: BlitzState): SeaPresence {
  const memo = frozenMemo(s);
  const known = memo?.get('seaPresence') as SeaPresence | undefined;
  if (known) return known;
  const writes = unitWrites();
  const stamp = controlStamp(s);
  const k = keptPresence;
  if (k !== null && keptUnits === s.units && keptWrites === writes && keptStamp === stamp && keptPack === p && keptScenario === s.scenario) {
    if (checkPresence) comparePresence(k, workOutPresence(p, s));
    const out = { bit: k.bit, sides: k.sides, armed: k.armed, armedSeas: k.armedSeas, closed: new Map<string, Closed>() };
    memo?.set('seaPresence', out);
    return out;
  }
  const out = workOutPresence(p, s);
  keptPresence = out;
  keptPack = p;
  keptScenario = s.scenario;
  keptUnits = s.units;
  keptWrites = writes;
  keptStamp = stamp;
  memo?.set('seaPresence', out);
  return out;
}

/** Compare every kept presence taken with one worked out afresh (tests: a stale one throws). */
let checkPresence = false;
export function checkSeaPresence(on: boolean): void {
  checkPresence = on;
}

function comparePresence(kept: SeaPresence, now: SeaPresence): void {
  const same = (a: ArrayLike<number>, b: ArrayLike<number>): boolean => {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  };
  if (kept.bit !== now.bit || !same(kept.sides, now.sides) || !same(kept.armed, now.armed) || !same(kept.armedSeas, now.armedSeas)) {
    throw new Error('sea presence: the kept presence differs from the units at sea');
  }
}

function workOutPresence(p: PackIndex, s: BlitzState): SeaPresence {
  const bit = powerBits(scenarioDef(p, s.scenario).powers);
  const a = p.areas;
  const sides = new Uint8Array(a.seas.length);
  const armed = new Int32Array(a.seas.length);
  const armedSeas: number[] = [];
  for (const u of unitsAtSea(s)) {
    if (inactive(s, u.power)) continue; // 7.2: out of the war
    const sea = a.atSeaNo.get(u.at);
    if (sea === undefined) throw new Error(`unknown sea area '${u.at.slice(4)}'`);
    sides[sea] = sides[sea]! | (sideOf(p, s, u.power) === 'Axis' ? 1 : 2);
    if (ARMED.has(typeOf(p, u))) {
      if (armed[sea] === 0 && !armedSeas.includes(sea)) armedSeas.push(sea);
      armed[sea] = armed[sea]! | (bit.get(u.power) ?? 0);
    }
  }
  armedSeas.sort((x, y) => x - y);
  return { bit, sides, armed, armedSeas, closed: new Map<string, Closed>() };
}

/**
 * The seas closed to `power` now (1.5): an armed unit of a major power it is at war with is there, and
 * no unit or live Convoy of its side. Kept while a read-only question is worked out (asked for every unit).
 */
function closedSeas(p: PackIndex, s: BlitzState, power: string): Closed {
  const x = seaPresenceAll(p, s);
  let c = x.closed.get(power);
  if (c) return c;
  const side = sideOf(p, s, power);
  const sideBit = side === 'Axis' ? 1 : 2;
  // 1.5: only the warships and aircraft of major powers `power` is at war with count against it.
  let foes = 0;
  for (const pw of scenarioDef(p, s.scenario).powers) if (atWar(p, s, power, pw.id)) foes |= x.bit.get(pw.id)!;
  const convoys = sideConvoySeas(p, s, side);
  const seas = p.areas.seas;
  const bySea = new Uint8Array(seas.length);
  let key = '';
  for (const sea of x.armedSeas) {
    if ((x.armed[sea]! & foes) !== 0 && (x.sides[sea]! & sideBit) === 0 && !convoys.has(seas[sea]!)) {
      bySea[sea] = 1;
      key = key === '' ? seas[sea]! : `${key},${seas[sea]!}`;
    }
  }
  x.closed.set(power, (c = { key, bySea }));
  return c;
}

/**
 * Reach per power, then home and use, while read-only questions are worked out (`withSupplyMemo`),
 * kept from one question to the next while what the power's lines depend on stays as it was: control
 * as the rules read it (`controlStamp`) and the seas closed to the power (`closedSeas`, checked the
 * first time a question asks about the power). Most steps move units on land or within open waters,
 * so the same lines serve again.
 */
interface PowerMemo {
  closed: string;
  /** The span it was last checked in. */
  span: number;
  reach: Map<string, Reach>;
}
const memo = new Map<string, PowerMemo>();
let memoStamp = -1;
/** Whether a `withSupplyMemo` span is open (and which: a count), and whether the memo was checked against its control stamp yet (on first use: most questions of the short scenarios ask no supply). */
let memoOn = false;
let memoSpan = 0;
let memoChecked = false;

/** The reach memo of `power` for the open span's position (see `memo`), emptied if its lines may differ from those it was filled for. */
function checkedMemo(p: PackIndex, s: BlitzState, power: string): Map<string, Reach> {
  if (!memoChecked) {
    const stamp = controlStamp(s);
    if (stamp !== memoStamp) memo.clear();
    memoStamp = stamp;
    memoChecked = true;
  }
  let m = memo.get(power);
  if (m && m.span === memoSpan) return m.reach;
  const closed = closedSeas(p, s, power).key;
  if (!m) memo.set(power, (m = { closed, span: memoSpan, reach: new Map() }));
  else {
    if (m.closed !== closed) m.reach = new Map();
    m.closed = closed;
    m.span = memoSpan;
  }
  return m.reach;
}

/**
 * Run `f`, which must not change the state, remembering supply reach by power alone: listing the
 * options of a step asks about supply for every unit and target of the same position.
 */
export function withSupplyMemo<T>(f: () => T): T {
  const opened = enterSupplyMemo();
  try {
    return f();
  } finally {
    leaveSupplyMemo(opened);
  }
}

/** `withSupplyMemo` without a function to call (see query.ts `enterReadOnly`): whether it opened the memo's span. */
export function enterSupplyMemo(): boolean {
  if (memoOn) return false;
  memoOn = true;
  memoSpan++;
  return true;
}
export function leaveSupplyMemo(opened: boolean): void {
  if (!opened) return;
  memoOn = false;
  memoChecked = false;
}

/** Source countries by power (and the power sharing its sources, 1.7), per scenario (they never change in a game). */
const homesCache = new Map<string, Set<string>>();

function sourcesOf(p: PackIndex, s: BlitzState, power: string, shared: string | null): Set<string> {
  const hk = `${p.hash}/${s.scenario}/${power}/${shared ?? ''}`;
  let homes = homesCache.get(hk);
  if (!homes) {
    homes = homeCountries(p, s, power);
    if (shared) for (const c of homeCountries(p, s, shared)) homes.add(c);
    homesCache.set(hk, homes);
  }
  return homes;
}

/** Lands and seas a line of `power` traced for `use` reaches from its sources (and `home`), remembered by position. */
function supplyReach(p: PackIndex, s: BlitzState, power: string, home: string, use: SupplyUse): Reach {
  // Within one read-only question the position is fixed, and so is everything the line depends on.
  const m = memoOn ? checkedMemo(p, s, power) : null;
  const short = m && `${home}/${use}`;
  const known = short ? m!.get(short) : undefined;
  if (known) return known;
  // 1.7: a unit's line may start in its partner's home countries too (the AFA's and the USA's).
  const shared = use === 'unit' ? sharedSourcesOf(p, s, power) : null;
  const homes = sourcesOf(p, s, power, shared);
  // A unit from one of its sources' countries traces exactly as the power does.
  const h = homes.has(home) ? '' : home;
  // A unit's line without a partner is the power's own line: they share entries.
  const tag = use === 'income' ? 'i' : shared ? 's' : '';
  const fp = controlKey(s);
  const closed = closedSeas(p, s, power).key;
  const key = `${closed}|${power}/${h}/${tag}`;
  let byFp = reachCache.get(fp);
  const hit = byFp?.get(key);
  if (hit) {
    if (short) m!.set(short, hit);
    return hit;
  }
  const out = (h && coveredHome(p, s, power, home, use, homes)) || computeReach(p, s, power, h ? new Set([...homes, home]) : homes, use === 'income');
  byFp = reachCache.get(fp); // (the sources' reach, worked out just above, may have filled and cleared the cache)
  if (reachEntries >= 512) {
    reachCache.clear();
    reachEntries = 0;
    byFp = undefined;
  }
  if (!byFp) reachCache.set(fp, (byFp = new Map()));
  byFp.set(key, out);
  reachEntries++;
  if (short) m!.set(short, out);
  return out;
}

/**
 * A line from the power's sources and a unit's own home country `home` reaches what the line from the
 * sources alone reaches, and what the line from `home` alone does (a line is traced area by area, the
 * same whichever source it starts from). When every area a line from `home` would start in is already
 * reached from the sources, that is all of it: the sources' reach, returned as it is (null otherwise).
 */
function coveredHome(p: PackIndex, s: BlitzState, power: string, home: string, use: SupplyUse, homes: ReadonlySet<string>): Reach | null {
  const first = homes.values().next();
  if (first.done) return null;
  const base = supplyReach(p, s, power, first.value, use);
  const side = sideOf(p, s, power);
  for (const land of p.countryLands.get(home) ?? []) {
    if (land in s.control && controllerSide(p, s, land) === side && !base.lands.has(land)) return null;
  }
  return base;
}

/**
 * 7.6: the land areas a line of `power` to Oil and Resources reaches from `countries` alone (and its
 * off-map sources), not from all its home countries: where the turn end's income asks what its main
 * home countries reach and what an isolated ally reaches. Not remembered (asked a few times a turn end).
 */
export function landsReachedFrom(p: PackIndex, s: BlitzState, power: string, countries: ReadonlySet<string>): Set<string> {
  return computeReach(p, s, power, countries, true).lands;
}

/**
 * Control as a supply line reads it, by land number (pack-index.ts `AreaIndex`), for the control stamp
 * it was worked out under: `side` is -1 for a land area with no control entry, else `controllerSide`
 * as a number (0 neutral, 1 the Axis, 2 the Allies); `order` the land numbers in `control`'s own order
 * (where a search starts from); `neutral` whether a neutral country holds the area (1.7,
 * `heldByNeutral`), worked out on first ask (-1 not yet).
 */
interface LandSides {
  side: Int8Array;
  order: Int32Array;
  neutral: Int8Array;
}
let sidesStamp = -1;
let sidesPack: PackIndex | null = null;
let sidesByLand: LandSides | null = null;

const SIDE_NO = { neutral: 0, Axis: 1, Allies: 2 } as const;

function landSides(p: PackIndex, s: BlitzState): LandSides {
  const stamp = controlStamp(s);
  if (stamp !== sidesStamp || p !== sidesPack || !sidesByLand) {
    const a = p.areas;
    const side = new Int8Array(a.lands.length).fill(-1);
    const order: number[] = [];
    for (const land in s.control) {
      const n = a.landNo.get(land);
      if (n === undefined) throw new Error(`unknown land area '${land}'`);
      side[n] = SIDE_NO[controllerSide(p, s, land)];
      order.push(n);
    }
    sidesByLand = { side, order: Int32Array.from(order), neutral: new Int8Array(a.lands.length).fill(-1) };
    sidesStamp = stamp;
    sidesPack = p;
  }
  return sidesByLand;
}

/** Off-map sources' lands by number (sc.offMapSupply, E), per country list (they never change). */
const offLands = new WeakMap<readonly string[], Int32Array>();
function offMapLands(p: PackIndex, countries: readonly string[]): Int32Array {
  let out = offLands.get(countries);
  if (!out) {
    const list: number[] = [];
    for (const c of countries) for (const l of p.countryLands.get(c) ?? []) list.push(p.areas.landNo.get(l)!);
    offLands.set(countries, (out = Int32Array.from(list)));
  }
  return out;
}

/**
 * Everything (land areas, and seas) a line of `power` reaches from a friendly land area of `homes`, in
 * the order reached; with `neutralLand` (1.7: a line to Oil and Resources) also across neutral
 * countries' land. Walked by area number (pack-index.ts `AreaIndex`): lands are nodes 0 to L - 1, seas
 * L and up.
 */
function computeReach(p: PackIndex, s: BlitzState, power: string, homes: ReadonlySet<string>, neutralLand: boolean): Reach {
  const a = p.areas;
  const L = a.lands.length;
  const sc = scenarioDef(p, s.scenario);
  const x = scenarioIndex(p, s.scenario);
  const side = sideOf(p, s, power);
  const sideNo = SIDE_NO[side];
  const held = landSides(p, s);
  const closed = closedSeas(p, s, power).bySea;
  // E: off-map sources, and out-of-play seas and flagged out-of-play land areas to trace through.
  const off = sc.offMapSupply?.[power];
  const nations: readonly string[] = sc.powers.find((pw) => pw.id === power)?.nations ?? [];
  const inPlaySeas = x.seaInPlay;
  const seen = new Uint8Array(L + a.seas.length);
  const queue = new Int32Array(L + a.seas.length);
  let tail = 0;
  const landOk = (l: number): boolean => {
    const by = held.side[l]!;
    if (by === -1) return off !== undefined && nations.includes(a.control[l]!);
    if (by === sideNo) return true;
    if (!neutralLand) return false;
    let nt = held.neutral[l]!;
    if (nt === -1) held.neutral[l] = nt = heldByNeutral(p, s, a.lands[l]!) ? 1 : 0;
    return nt === 1;
  };
  const seaOk = (sea: number): boolean => (inPlaySeas[sea] === 1 ? closed[sea] === 0 : off !== undefined);
  for (let i = 0; i < held.order.length; i++) {
    const l = held.order[i]!;
    if (held.side[l] === sideNo && homes.has(a.country[l]!) && seen[l] === 0) {
      seen[l] = 1;
      queue[tail++] = l;
    }
  }
  if (off) {
    const ls = offMapLands(p, off.countries);
    for (let i = 0; i < ls.length; i++) {
      const l = ls[i]!;
      const by = held.side[l]!;
      if ((by === -1 || by === sideNo) && seen[l] === 0) {
        seen[l] = 1;
        queue[tail++] = l;
      }
    }
  }
  for (let i = 0; i < tail; i++) {
    const n = queue[i]!;
    if (n >= L) {
      const sea = n - L;
      const shore = a.shore[sea]!;
      for (let j = 0; j < shore.length; j++) {
        const l = shore[j]!;
        if (seen[l] === 0 && landOk(l)) {
          seen[l] = 1;
          queue[tail++] = l;
        }
      }
      if (off) {
        // Out-of-play bordering seas first, then the seas a ship could sail to (as the string search listed them).
        const b = a.seaBorders[sea]!;
        for (let j = 0; j < b.length; j++) {
          const t = b[j]!;
          if (inPlaySeas[t] === 0 && seen[L + t] === 0 && seaOk(t)) {
            seen[L + t] = 1;
            queue[tail++] = L + t;
          }
        }
      }
      if (p.straits.has(a.seas[sea]!)) {
        for (const id of seaNeighbours(p, s, a.seas[sea]!, side)) {
          const t = a.seaNo.get(id)!;
          if (seen[L + t] === 0 && seaOk(t)) {
            seen[L + t] = 1;
            queue[tail++] = L + t;
          }
        }
      } else {
        const b = x.seaBordersInPlay[sea]!;
        for (let j = 0; j < b.length; j++) {
          const t = b[j]!;
          if (seen[L + t] === 0 && seaOk(t)) {
            seen[L + t] = 1;
            queue[tail++] = L + t;
          }
        }
      }
    } else {
      const b = a.borders[n]!;
      for (let j = 0; j < b.length; j++) {
        const l = b[j]!;
        if (seen[l] === 0 && landOk(l)) {
          seen[l] = 1;
          queue[tail++] = l;
        }
      }
      const r = a.landRoutes[n]!;
      for (let j = 0; j < r.length; j++) {
        const l = r[j]!;
        if (seen[l] === 0 && landOk(l)) {
          seen[l] = 1;
          queue[tail++] = l;
        }
      }
      const coast = a.coast[n]!;
      for (let j = 0; j < coast.length; j++) {
        const t = coast[j]!;
        if (seen[L + t] === 0 && seaOk(t) && (inPlaySeas[t] === 1 || off)) {
          seen[L + t] = 1;
          queue[tail++] = L + t;
        }
      }
    }
  }
  const out: Reach = { lands: new Set(), seas: new Set() };
  for (let i = 0; i < tail; i++) {
    const n = queue[i]!;
    if (n < L) out.lands.add(a.lands[n]!);
    else out.seas.add(a.seas[n - L]!);
  }
  return out;
}

/**
 * 1.7, 3.4: the home country a supply line of a unit with counter `def` may start from: its own, or,
 * once that country is conquered, the new home its power chose for its units (`homeFor`, liberation.ts).
 */
export function unitHome(p: PackIndex, s: BlitzState, def: string): string {
  const home = unitDef(p, def).home;
  return s.homeFor?.[home] ?? home;
}

/**
 * Whether unit `id` is in supply now (always, where the scenario has no supply rule): by its own line
 * (`unit`), or with `power` by its power's line, as 7.8 asks before building it up on the map.
 */
export function inSupply(p: PackIndex, s: BlitzState, id: string, use: 'unit' | 'power' = 'unit'): boolean {
  if (!usesSupply(p, s)) return true;
  // While a read-only question is worked out, each unit's answer is kept (options ask it per unit and target).
  const memo = frozenMemo(s);
  if (!memo) return unitInSupply(p, s, id, use);
  const key = use === 'unit' ? 'inSupply:unit' : 'inSupply:power';
  let known = memo.get(key) as Map<string, boolean> | undefined;
  if (!known) memo.set(key, (known = new Map()));
  let r = known.get(id);
  if (r === undefined) known.set(id, (r = unitInSupply(p, s, id, use)));
  else if (!r) fired('1.7', s.scenario);
  return r;
}

function unitInSupply(p: PackIndex, s: BlitzState, id: string, use: 'unit' | 'power'): boolean {
  const u = s.units[id]!;
  if (u.at.startsWith('sea:')) return true;
  const at = u.at.startsWith('trs:') ? s.units[u.at.slice(4)]!.at : u.at;
  if (at.startsWith('sea:')) return true;
  if (suppliedAreas(p, s, u.power, unitHome(p, s, u.def), use).has(at)) return true;
  fired('1.7', s.scenario);
  return false;
}

/** Whether a line of `power` traced for `use` (a unit's: of home country `home`) reaches `land` (always, where the scenario has no supply rule). */
export function areaInSupply(p: PackIndex, s: BlitzState, power: string, home: string, land: string, use: SupplyUse): boolean {
  return !usesSupply(p, s) || suppliedAreas(p, s, power, home, use).has(land);
}

/** 6.2: two white triangles for the attackers per defending land unit out of supply. */
export function outOfSupplyDefenders(p: PackIndex, s: BlitzState, ids: readonly string[]): number {
  if (!usesSupply(p, s)) return 0;
  return ids.filter((x) => isLand(p, s.units[x]!) && !inSupply(p, s, x)).length;
}
