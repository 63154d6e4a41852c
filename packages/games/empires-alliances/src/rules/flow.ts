/**
 * 7 Sequence of play, and the phases it runs: weather (7.1, 20), reinforcements and replacements (7.21,
 * 17), supply (7.22, 14), movement (7.23, 8, 15.21), combat (7.24, 13, 15, 16), administration (7.25,
 * 13.86), national morale (7.4, 21) and the end (7.5, S3 3.7). `advance` runs every automatic step until
 * a decision or a die is needed; `applyChoice` plays one option. States are changed in place: the game
 * layer hands in a private copy (game.ts).
 */
import { IllegalChoiceError } from '@salient/engine';
import { RailSearch, ReachSearch, SupplySearch, zocMask, type MoveRules, type SupplyRules } from '@salient/hexmap';
import type { Nation } from '../pack/schema.ts';
import type { Board, SideNo } from './board.ts';
import { SIDE_IDS } from './board.ts';
import {
  adDemoralizedHalves,
  attackEighths,
  attackerDrm,
  attackMixLegal,
  columnName,
  crtResult,
  defenderDrm,
  defenseEighths,
  effectiveSupplyLevel,
  entrenchmentDrm,
  minimalLossSets,
  netDrm,
  netRoll,
  oddsColumn,
} from './combat.ts';
import { airDisplaced, askFly, askLandings, flyable, land, playFly } from './air.ts';
import { deployUnit, nextDeploy } from './deploy.ts';
import { emit, type Events } from './events.ts';
import { beginLook, endLook, fastOf, feedMoveWorld, feedRailControl, feedSide, feedSupply, hexLabel, lookChecked, lookStamp, nextGen, Snapshot, sortHexes, syncOcc, type Fast, type Occ } from './fast.ts';
import { addCapped, turnRp } from './replacements.ts';
import { askBuy, buy, placeReplacement } from './replacement-choice.ts';
import { avAchieved, avAdvance, avAdvanceOptions, avEligible, avTargets, playAv } from './automatic-victory.ts';
import { garrisonCheck } from './garrisons.ts';
import { advanceRailheads, gaugeMap } from './railheads.ts';
import { reading } from './rulings.ts';
import { ndPartners, openPairing, openSplit, pairOptions, playSplit, splitOptions, takeNextAttack } from './split.ts';
import { fired } from './sections.ts';
import { britainSupplied, maySea, playSea, portsAtStart, seaPlan, seaScan, withSeaCapacity, type SeaScan } from './sea.ts';
import { sourcesOf, unitSupply, type SourceSet } from './supply-sources.ts';
import { nationsMayStack, stackLegal } from './stacking.ts';
import { FLAG, HEX, type EaState, type Todo } from './state.ts';
import { corpsHalves, entrenchHalves, isInfantry, isInfCav, projectsZoc, sectorNation } from './units.ts';
import { centralVp, levelReason, victoryLevel, type VpPlace } from './victory.ts';
import { deserts, economicDrm, moraleMonth, s3Effect, wwResult, wwRoll } from './war-weariness.ts';
import { movementFactor, railHexes, supplyLength, weatherFor } from './weather.ts';

// --- small queries ------------------------------------------------------------------------------

/** Month (1-12) and year of the state's turn. */
export function calendar(b: Board, s: EaState): { month: number; year: number } {
  const m = b.first + s.turn;
  return { month: (m % 12) + 1, year: Math.floor(m / 12) };
}

/** 4.2: the side controlling hex `h` (-1 nobody). */
export function ctl(b: Board, s: EaState, h: number): number {
  const start = b.startCtl[h]!;
  if (start < 0) return start;
  return s.flip.includes(h) ? 1 - start : start;
}

/** 4.2: control passes to `side` at once when its ground unit enters. */
export function setCtl(b: Board, s: EaState, h: number, side: SideNo, ev: Events): void {
  if (b.startCtl[h]! < 0 || ctl(b, s, h) === side) return;
  const i = s.flip.indexOf(h);
  if (i >= 0) s.flip.splice(i, 1);
  else {
    s.flip.push(h);
    s.flip.sort((x, y) => x - y);
  }
  fired('4.2');
  airDisplaced(b, s, h, 1 - side, ev); // 6.3
  const c = b.map.city[h]!;
  if (c >= 0) emit(ev, 'capture', SIDE_IDS[side], `${SIDE_IDS[side]} takes ${b.map.cities[c]!.name} (${b.map.id(h)})`, { hex: b.map.id(h) });
}

const fortAt = (s: EaState, h: number): number => {
  for (let i = 0; i < s.forts.length; i += 3) if (s.forts[i] === h) return i;
  return -1;
};
/** 15.12: the level of `side`'s fort in `h`, 0 if none. */
const fortLevel = (s: EaState, h: number, side: number): number => {
  const i = fortAt(s, h);
  return i < 0 || s.forts[i + 1] !== side ? 0 : s.forts[i + 2]!;
};

const isMajor = (b: Board, h: number): boolean => b.map.city[h]! >= 0 && b.map.cities[b.map.city[h]!]!.size === 'major';

/** 14.63: the unsupplied level whose effects apply to unit `u`. */
export const effLevel = (b: Board, s: EaState, u: number): number => effectiveSupplyLevel(s.sup[u]!, isMajor(b, s.hex[u]!) || fortLevel(s, s.hex[u]!, b.units[u]!.side) > 0);

/** Units of `side` on the map (ground and air). */
function onMap(b: Board, s: EaState, side: SideNo): number[] {
  const out: number[] = [];
  for (let u = 0; u < s.hex.length; u++) if (s.hex[u]! >= 0 && b.units[u]!.side === side) out.push(u);
  return out;
}

/** Ground units in hex `h`. */
export function unitsAt(b: Board, s: EaState, h: number): number[] {
  const out: number[] = [];
  for (let u = 0; u < s.hex.length; u++) if (s.hex[u] === h && b.units[u]!.prof.type !== 'air') out.push(u);
  return out;
}

export type { Occ } from './fast.ts';

/**
 * Ground units by hex (`first`, `listAt`): one index per board, rebuilt only when the unit hexes
 * change (fast.ts `syncOcc`). Read it, and do not keep it across a change of state.
 */
export function occIndex(b: Board, s: EaState): Occ {
  return syncOcc(fastOf(b), s).index;
}

/** The first ground unit in `h` (-1 none). */
export const first = (o: Occ, h: number): number => (o.stamp[h] === o.gen ? o.head[h]! : -1);

/** Ground units in `h` from an index. */
export function listAt(o: Occ, h: number): number[] {
  const out: number[] = [];
  for (let u = first(o, h); u >= 0; u = o.next[u]!) out.push(u);
  return out;
}

/**
 * Per hex: 1 where a ground unit of `side` stands. The mask is shared and updated in place when the
 * unit hexes change: read it, never write it, and do not keep it across a change of state.
 */
export function occupied(b: Board, s: EaState, side: SideNo): Uint8Array {
  return syncOcc(fastOf(b), s).masks[side];
}

/** Control map per board (4.2: the start line with `flip` applied), with the flip list it was made for. */
const ctlCache = new WeakMap<Board, { flip: number[]; ctl: Int8Array }>();

/** Per hex: the side controlling it (4.2), -1 nobody. Shared and updated in place: read it, never write it. */
export function controlMap(b: Board, s: EaState): Int8Array {
  let c = ctlCache.get(b);
  if (!c) ctlCache.set(b, (c = { flip: [], ctl: Int8Array.from(b.startCtl) }));
  const { flip, ctl } = c;
  if (flip.length === s.flip.length) {
    let i = 0;
    while (i < flip.length && flip[i] === s.flip[i]) i++;
    if (i === flip.length) return ctl;
  }
  for (const h of flip) ctl[h] = b.startCtl[h]!;
  flip.length = 0;
  for (const h of s.flip) {
    flip.push(h);
    if (b.startCtl[h]! >= 0) ctl[h] = 1 - b.startCtl[h]!;
  }
  return ctl;
}

/** ZOC per board and side, with a copy of what it was computed from (that side's unit hexes, morale, supply; the forts). */
const zocCache = new WeakMap<Board, { k: Snapshot; mask: Uint8Array; ok: boolean; seen: number }[]>();

/** 5.1-5.2, 13.85, 14.6: the ZOC of `side`: Inf, Cav and FA not demoralized and not at effective L2, never across sea or lake nor into a neutral. The mask is shared: read it, never write it. */
export function zocOf(b: Board, s: EaState, side: SideNo): Uint8Array {
  const f = fastOf(b);
  let cache = zocCache.get(b);
  if (!cache) zocCache.set(b, (cache = []));
  const c = (cache[side] ??= { k: new Snapshot(), mask: new Uint8Array(b.map.size), ok: false, seen: 0 });
  if (c.ok && lookChecked(c.seen, s)) return c.mask;
  feedSide(f, s, side, c.k.start());
  c.seen = lookStamp(s);
  if (c.k.finish() && c.ok) return c.mask;
  c.ok = false;
  const hexes: number[] = [];
  for (let u = 0; u < s.hex.length; u++) {
    if (s.hex[u]! < 0 || b.units[u]!.side !== side || !projectsZoc(b.units[u]!.prof.type)) continue;
    if (s.mor[u] !== 0 || (s.sup[u]! >= 2 && effLevel(b, s, u) >= 2)) continue;
    hexes.push(s.hex[u]!);
  }
  fired('5');
  zocMask(b.map, hexes, { projects: f.projectsZoc, out: c.mask });
  c.ok = true;
  return c.mask;
}

const searches = new WeakMap<Board, { reach: ReachSearch; supply: SupplySearch; rail: RailSearch }>();
function search(b: Board): { reach: ReachSearch; supply: SupplySearch; rail: RailSearch } {
  let x = searches.get(b);
  if (!x) searches.set(b, (x = { reach: new ReachSearch(b.map), supply: new SupplySearch(b.map), rail: new RailSearch(b.map) }));
  return x;
}

/** Rail hexes `side` may use (9.0, 10, ruling rail-railhead): rail of its own gauge (railheads.ts `gaugeMap`) that it controls. */
const railOwn = (gauge: Int8Array, control: Int8Array, h: number, side: number): boolean => gauge[h] === side && control[h] === side;

/** Supply per board and side, with a copy of what it was traced from (fast.ts `feedSupply`). */
const supplyCache = new WeakMap<Board, { k: Snapshot; dist: Int32Array; ok: boolean; set: SourceSet; seen: number }[]>();

/** `supplyOf`, shared and updated in place: read it, never write it, and do not keep it across a change of state. */
function supplyDist(b: Board, s: EaState, side: SideNo): Int32Array {
  let cache = supplyCache.get(b);
  if (!cache) supplyCache.set(b, (cache = []));
  const c = (cache[side] ??= { k: new Snapshot(), dist: new Int32Array(b.map.size), ok: false, set: { full: [], limited: [], all: [] }, seen: 0 });
  if (c.ok && lookChecked(c.seen, s)) return c.dist;
  feedSupply(s, c.k.start());
  c.seen = lookStamp(s);
  if (c.k.finish() && c.ok) return c.dist;
  c.ok = false;
  const x = supplyInputs(b, s, side);
  c.set = sourcesOf(b, s, side, x); // 14.3-14.4 (supply-sources.ts): every source, whatever its capacity
  x.rules.sources = c.set.all;
  x.rules.limit = supplyLength(s.wx);
  c.dist.set(search(b).supply.run(x.rules).dist);
  c.ok = true;
  return c.dist;
}

/** The sources `supplyDist` traced from (cached with it): read it, never write it. */
function sourceSet(b: Board, s: EaState, side: SideNo): SourceSet {
  supplyDist(b, s, side);
  return supplyCache.get(b)![side]!.set;
}

/**
 * 8.4's exception (ruling unsupplied-move): how far `h` is, in hexes, from the nearest source of
 * `side` (14.3-14.4) as things stand; -1 when the side has none.
 */
function sourceHexes(b: Board, s: EaState, side: SideNo, h: number): number {
  const all = sourceSet(b, s, side).all;
  let best = -1;
  for (let i = 0; i < all.length; i++) {
    const d = b.map.grid.distance(h, all[i]!);
    if (best < 0 || d < best) best = d;
  }
  return best;
}

/**
 * 14.2-14.3: a side's supply: from its cities in its home countries that it controls and that no enemy
 * stands on or exerts ZOC into, by rail through hexes it controls and free of enemy ZOC, then overland
 * up to 5 hexes (4 in Mud, 3 in Snow), not into enemy ZOC unless a friendly unit is there, not across sea
 * or lake. Returns `dist` per hex (-1 unsupplied), a fresh copy.
 */
export function supplyOf(b: Board, s: EaState, side: SideNo): Int32Array {
  return Int32Array.from(supplyDist(b, s, side));
}

/**
 * The supply search itself (`supplyOf`); the result lasts until the board's next supply search. With
 * `railOnly`, the overland leg is 0 hexes long: the hexes found are the sources and the rail joined to
 * them (14.2), from which the overland leg starts.
 */
export function traceSupply(b: Board, s: EaState, side: SideNo, railOnly = false): Int32Array {
  const c = supplyInputs(b, s, side);
  c.rules.sources = sourcesOf(b, s, side, c).all; // 14.3-14.4 (supply-sources.ts): every source, whatever its capacity
  c.rules.limit = railOnly ? 0 : supplyLength(s.wx);
  return search(b).supply.run(c.rules).dist;
}

/** The supply search's context loaded with `side`'s view of the position (enemy ZOC and units, control, gauge). */
function supplyInputs(b: Board, s: EaState, side: SideNo): SupplyCtx {
  const c = supplyCtx(b);
  c.ezoc = zocOf(b, s, (1 - side) as SideNo);
  c.mine = occupied(b, s, side);
  c.theirs = occupied(b, s, (1 - side) as SideNo);
  c.control = controlMap(b, s);
  c.gauge = gaugeMap(b, s);
  c.side = side;
  return c;
}

/** 14.3-14.4: `side`'s full and limited supply sources as things stand (supply-sources.ts `sourcesOf`). */
export function supplySources(b: Board, s: EaState, side: SideNo): SourceSet {
  return sourcesOf(b, s, side, supplyInputs(b, s, side));
}

/**
 * 14.1, 14.3-14.4: which of `units` (ground units of `side` on the map) are in supply, 1 per unit number:
 * those that reach a full source, then those a limited source has room for (supply-sources.ts
 * `unitSupply`, ruling limited-overload).
 */
export function unitsInSupply(b: Board, s: EaState, side: SideNo, units: readonly number[]): Uint8Array {
  const set = withSeaCapacity(b, s, side, sourceSet(b, s, side)); // 14.53: the cached set does not follow the sea capacity used
  const c = supplyInputs(b, s, side);
  c.rules.limit = supplyLength(s.wx);
  const sup = search(b).supply;
  return unitSupply(s, fastOf(b), set, units, (sources) => {
    c.rules.sources = sources;
    return sup.run(c.rules);
  });
}

/** The supply search's inputs (one search at a time per board) and its callbacks, made once per board. */
interface SupplyCtx {
  ezoc: Uint8Array;
  mine: Uint8Array;
  theirs: Uint8Array;
  control: Int8Array;
  gauge: Int8Array;
  side: number;
  rules: SupplyRules & { sources: readonly number[] };
}
const supplyCtxs = new WeakMap<Board, SupplyCtx>();

function supplyCtx(b: Board): SupplyCtx {
  const have = supplyCtxs.get(b);
  if (have) return have;
  const none = new Uint8Array(0);
  const c: SupplyCtx = {
    ezoc: none,
    mine: none,
    theirs: none,
    control: new Int8Array(0),
    gauge: new Int8Array(0),
    side: 0,
    rules: {
      sources: [],
      limit: 0,
      blocked: (h) => (c.ezoc[h] === 1 && c.mine[h] === 0) || c.theirs[h] === 1 || b.neutral[h] === 1 || b.mp[h] === 255,
      crosses: fastOf(b).crosses,
      rail: { blocked: (h) => !railOwn(c.gauge, c.control, h, c.side) || c.ezoc[h] === 1 || b.neutral[h] === 1 },
    },
  };
  supplyCtxs.set(b, c);
  return c;
}

// --- the phase machine --------------------------------------------------------------------------

/** Start the turn: 7.1 weather (S3 3.66: March 1918 is Mud, no roll). */
export function beginTurn(b: Board, s: EaState, ev: Events): void {
  const { month, year } = calendar(b, s);
  fired('7');
  s.phase = 'weather';
  emit(ev, 'turn', undefined, `Turn ${s.turn + 1}: ${MONTH_NAMES[month - 1]} ${year}`, { turn: s.turn + 1 });
  if (s.turn === 0 && b.scen.id === '1918') {
    fired('S3 3.6');
    s.wx = 'mud';
    emit(ev, 'weather', undefined, 'Weather: Mud (3.66: March 1918 is Mud)', { west: 'mud' });
    beginSegment(b, s, 0, ev);
    return;
  }
  s.ask = { k: 'die', what: 'weather' };
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** 7.2/7.3: a player segment: reinforcements (7.21), the owner's replacement purchases (17.24), supply (7.22), then movement. */
function beginSegment(b: Board, s: EaState, side: SideNo, ev: Events): void {
  s.seg = side;
  s.phase = 'reinforce';
  reinforcementPhase(b, s, side, ev);
  if (askBuy(b, s)) return;
  endReinforcement(b, s, ev);
}

/** The Reinforcement Phase is over: 7.22 supply, then 7.23 movement. */
function endReinforcement(b: Board, s: EaState, ev: Events): void {
  const side = s.seg;
  s.used = [];
  s.rq = [];
  supplyPhase(b, s, side, ev);
  s.phase = 'move';
  s.ports = portsAtStart(b, s, side); // 11.1
  s.ask = { k: 'move' };
}

/** 7.21, 17: RPs, reinforcements and replacements, placed as 17.12-17.13 and 17.25-17.26 order them. */
function reinforcementPhase(b: Board, s: EaState, side: SideNo, ev: Events): void {
  const { year } = calendar(b, s);
  const month = b.first + s.turn;
  if (side === 0 && year >= 1915) fired('19.1');
  if (side === 1 && year >= 1915 && year !== 1916) fired('19.2');
  // RPs (17.2, 19.1, 19.2, 21.32).
  for (const r of b.scen.replacements) {
    if (sideIdx(r.nation) !== side) continue;
    const ww = s.ww[poolWwNation(r.nation)];
    const pct = ww && ww[2]! >= s.turn ? ww[1]! : 0;
    const add = turnRp(r.nation, year, { inf: r.inf, art: r.art, tank: r.tank }, pct);
    const cur = s.rp[r.nation] ?? [0, 0, 0];
    const next = addCapped({ inf: cur[0]!, art: cur[1]!, tank: cur[2]! }, add, r.cap);
    s.rp[r.nation] = [next.inf, next.art, next.tank];
  }
  fired('17.2');
  const supply = supplyDist(b, s, side);
  const usedCity = new Set<number>(); // 17.12 for reinforcements; replacements keep their own count (17.25, s.used)
  const placeAt = (u: number, want: number): number => {
    const d = b.units[u]!;
    const fits = (h: number) => h >= 0 && ctl(b, s, h) === side && supply[h]! >= 0 && !usedCity.has(h) && stackLegal([...unitsAt(b, s, h).map((x) => b.units[x]!.prof), d.prof]) && nationsMayStack([...unitsAt(b, s, h).map((x) => b.units[x]!.prof), d.prof]) && sectorOk(b, s, u, h);
    if (want >= 0 && fits(want)) return want;
    const home = d.nation === 'US' || d.nation === 'CA' || d.nation === 'AU' ? b.home[1] : new Set([d.nation === 'GE' || d.nation === 'AH' ? 'GE' : d.nation]);
    const cands = b.map.cities
      .filter((c) => home.has(b.map.countryCode(c.hex) ?? '') && (want !== -2 || (b.map.flags[c.hex]! & 1) !== 0) && c.name !== 'Calais')
      .sort((x, y) => Number(y.capital) - Number(x.capital) || (x.size === y.size ? 0 : x.size === 'major' ? -1 : 1) || x.hex - y.hex);
    for (const c of cands) if (fits(c.hex)) return c.hex;
    return -1;
  };
  let london = 0; // 17.121: three units may be placed in London
  for (let u = 0; u < s.hex.length; u++) {
    const d = b.units[u]!;
    if (d.side !== side || s.hex[u] !== HEX.NOT_ARRIVED || d.arrives > month) continue;
    if (d.at < 0 && arrivesInBritain(d.nation)) {
      if (london >= 3) continue; // 17.11: delayed to a later turn
      london++;
      s.hex[u] = HEX.BRITAIN;
      emit(ev, 'reinforcement', SIDE_IDS[side], `${label(b, u)} arrives in Britain (2.3, 17.121)`, { unit: u, hex: 'Britain' });
      fired('17.1');
      fired('2.3');
      continue;
    }
    const h = placeAt(u, d.at);
    if (h < 0) continue; // 17.11: delayed to a later turn
    s.hex[u] = h;
    usedCity.add(h);
    emit(ev, 'reinforcement', SIDE_IDS[side], `${label(b, u)} arrives at ${b.map.id(h)}`, { unit: u, hex: b.map.id(h) });
    fired('17.1');
    fired('S3 3.5');
  }
  // Replacements (17.24-17.34) are the owner's purchases: replacement-choice.ts.
}

/** 2.3, 17.31: British and Commonwealth units arrive in Britain (Australia's Middle East Box is off the S3 area, 3.61). */
export const arrivesInBritain = (n: Nation): boolean => n === 'GB' || n === 'CA' || n === 'AU';

const sideIdx = (n: Nation): SideNo => (n === 'GE' || n === 'AH' ? 0 : 1);
/** The Commonwealth's War Weariness is Britain's. */
const poolWwNation = (n: Nation): string => (n === 'CA' || n === 'AU' ? 'GB' : n);

/** 7.22, 14.1, 14.63: supplied units clear their marker; unsupplied ones go a level up, or are eliminated. */
function supplyPhase(b: Board, s: EaState, side: SideNo, ev: Events): void {
  const units = onMap(b, s, side).filter((u) => b.units[u]!.prof.type !== 'air');
  const fed = unitsInSupply(b, s, side, units); // 14.3-14.4
  for (const u of units) {
    const h = s.hex[u]!;
    if (fed[u] === 1) {
      s.sup[u] = 0;
      continue;
    }
    const lvl = s.sup[u]! + 1;
    const delay = isMajor(b, h) || fortLevel(s, h, side) > 0;
    if (lvl === 3 && !delay) eliminate(b, s, u, ev, 'out of supply (14.1)');
    else if (lvl >= 4) eliminate(b, s, u, ev, 'out of supply (14.63)');
    else s.sup[u] = lvl;
  }
  britainSupplied(b, s, side); // 14.31
  fired('14');
}

/** 7.25: railheads advance (10); unsupplied units that can now trace supply clear it; Demoralized markers come off (supplied, out of enemy ZOC), then DTS flips (13.86). */
function adminPhase(b: Board, s: EaState, side: SideNo, ev: Events): void {
  advanceRailheads(b, s, side, ev); // 7.25, 10.2-10.4
  britainSupplied(b, s, side, true); // 14.31, 13.86
  const mine = onMap(b, s, side);
  const ground = mine.filter((u) => b.units[u]!.prof.type !== 'air');
  const fed = ground.some((u) => s.sup[u]! > 0) ? unitsInSupply(b, s, side, ground) : undefined; // 14.1, 14.3-14.4
  const ezoc = zocOf(b, s, (1 - side) as SideNo);
  for (const u of mine) {
    const h = s.hex[u]!;
    if (s.sup[u]! > 0 && fed?.[u] === 1) s.sup[u] = 0;
    if (s.mor[u] === 1 && s.sup[u] === 0 && !ezoc[h]) s.mor[u] = 0;
    else if (s.mor[u] === 2) s.mor[u] = 1;
  }
  for (let u = 0; u < s.flg.length; u++) s.flg[u] = 0;
  s.hit = [];
  s.rail = {};
  s.sea = {};
  s.ports = [];
  void ev;
}

function endSegment(b: Board, s: EaState, ev: Events): void {
  adminPhase(b, s, s.seg, ev);
  garrisonCheck(b, s, s.seg, ev); // 18.32
  if (s.seg === 0) {
    beginSegment(b, s, 1, ev);
    return;
  }
  // 7.4: national morale at the end of March, June, September (and December).
  const { month } = calendar(b, s);
  if (moraleMonth(month)) {
    s.phase = 'morale';
    s.mq = b.morale.map((m) => m.nation);
    if (reading(s.rulings, 's3-ah-morale') === 'yes' && s.hex.some((h, u) => h >= 0 && b.units[u]!.nation === 'AH')) s.mq.push('AH');
    s.mq = s.mq.filter((n) => s.ww[n] && s.ww[n]![0]! >= 0 && !s.ww[n]![3]);
    if (s.mq.length) {
      s.ask = { k: 'die', what: 'morale' };
      return;
    }
  }
  endTurn(b, s, ev);
}

/** 7.5: the next turn, or the end of the scenario (3.1) and its victory count (3.71). */
function endTurn(b: Board, s: EaState, ev: Events): void {
  s.turn += 1;
  if (s.turn >= b.turns) {
    finish(b, s, ev);
    return;
  }
  beginTurn(b, s, ev);
}

/** 3.71: the 15 places as they stand. */
export function vpPlaces(b: Board, s: EaState): VpPlace[] {
  const cp = supplyDist(b, s, 0);
  const al = reading(s.rulings, 'vp-supply') === 'occupant-path' ? supplyDist(b, s, 1) : cp;
  return b.vp.map((p) => {
    const here = unitsAt(b, s, p.hex);
    const germanInfantry = here.some((u) => b.units[u]!.nation === 'GE' && isInfantry(b.units[u]!.prof.type));
    const alliedInfantry = here.some((u) => b.units[u]!.side === 1 && isInfantry(b.units[u]!.prof.type));
    const holder = ctl(b, s, p.hex);
    const dist = holder === 1 ? al : cp;
    return { kind: p.kind, germanInfantry, alliedInfantry, supplied: dist[p.hex]! >= 0 };
  });
}

function finish(b: Board, s: EaState, ev: Events): void {
  s.turn = b.turns - 1;
  s.phase = 'over';
  s.vp = centralVp(vpPlaces(b, s));
  const level = victoryLevel(s.vp, b.scen.victory.bands, s.rulings);
  const { month, year } = calendar(b, s);
  s.end = levelReason(level, b.scen.victory.bands, s.rulings, `at the end of ${MONTH_NAMES[month - 1]} ${year}`);
  s.ask = { k: 'over' };
  fired('S3 3.7');
  emit(ev, 'victory', undefined, s.end, { vp: s.vp, level });
}

// --- movement (8, 15.21) --------------------------------------------------------------------------

/** 3.62: British, Belgian and Commonwealth units stay in rows 24 and north, French and US in rows 25 and south; from May 1918 each may also use the next row. */
export function sectorOk(b: Board, s: EaState, u: number, h: number): boolean {
  if (b.scen.id !== '1918') return true;
  const nat = b.units[u]!.nation;
  const row = b.map.grid.row(h);
  const may = b.first + s.turn >= b.first + 2; // from May 1918
  const british = sectorNation(nat) === 'british' || nat === 'BE';
  if (british) return row <= (may ? 25 : 24);
  if (sectorNation(nat) === 'french') return row >= (may ? 24 : 25);
  return true;
}

/** 8.2: the unit's MF this turn. */
export function mfOf(b: Board, s: EaState, u: number): number {
  // Supplied, not demoralized, in Clear: the printed MF under every reading of the rulings (8.2).
  if (s.sup[u] === 0 && s.mor[u] === 0 && s.wx === 'clear') return Math.max(1, b.units[u]!.prof.move);
  return movementFactor({ printed: b.units[u]!.prof.move, weather: s.wx, supplyLevel: effLevel(b, s, u), demoralized: s.mor[u] !== 0 }, s.rulings);
}

/**
 * The movement search's inputs for one unit (one search at a time per board) and its callbacks, made
 * once per board: per-hex verdicts are worked out once per search (1 may enter, 2 may not), marked by a
 * generation stamp instead of a fresh array.
 */
interface MoveCtx {
  s: EaState;
  u: number;
  side: number;
  ezoc: Uint8Array;
  enemyOcc: Uint8Array;
  dem: boolean;
  gen: number;
  stamp: Uint32Array;
  verdict: Uint8Array;
  enterable: (to: number, sd: number) => boolean;
  rules: MoveRules;
}
const moveCtxs = new WeakMap<Board, MoveCtx>();

function moveCtx(b: Board): MoveCtx {
  const have = moveCtxs.get(b);
  if (have) return have;
  const none = new Uint8Array(0);
  const c: MoveCtx = {
    s: undefined as unknown as EaState,
    u: -1,
    side: 0,
    ezoc: none,
    enemyOcc: none,
    dem: false,
    gen: 0,
    stamp: new Uint32Array(b.map.size),
    verdict: new Uint8Array(b.map.size),
    enterable: (to, sd) => b.sideMp[sd] !== 255 && hexOk(to),
    rules: { enterCost: (f, to, sd) => (c.enterable(to, sd) ? b.mp[to]! + b.sideMp[sd]! + (c.ezoc[f] === 1 && c.ezoc[to] === 1 ? 1 : 0) : Infinity) },
  };
  function hexOk(to: number): boolean {
    if (c.stamp[to] === c.gen) return c.verdict[to] === 1;
    const s = c.s;
    let ok = b.mp[to] !== 255 && b.neutral[to] === 0 && c.enemyOcc[to] === 0 && !(c.dem && c.ezoc[to] === 1); // 13.85
    if (ok) {
      const f = fortAt(s, to);
      if (f >= 0 && s.forts[f + 1] !== c.side) ok = false; // ruling lone-fort: a lone enemy fort must be attacked
    }
    if (ok) ok = sectorOk(b, s, c.u, to);
    c.stamp[to] = c.gen;
    c.verdict[to] = ok ? 1 : 2;
    return ok;
  }
  moveCtxs.set(b, c);
  return c;
}

/** Run unit `u`'s movement reach (8.1-8.4): the search object holds costs and paths until the next run. */
function reachFor(b: Board, s: EaState, u: number, from = s.hex[u]!, mp = mfOf(b, s, u)): { reach: ReachSearch; enterable: (to: number, sd: number) => boolean } {
  const side = b.units[u]!.side;
  const c = moveCtx(b);
  c.s = s;
  c.u = u;
  c.side = side;
  c.enemyOcc = occupied(b, s, (1 - side) as SideNo);
  c.ezoc = zocOf(b, s, (1 - side) as SideNo);
  c.dem = s.mor[u] !== 0;
  c.gen = (c.gen + 1) >>> 0;
  if (c.gen === 0) {
    c.stamp.fill(0);
    c.gen = 1;
  }
  const reach = search(b).reach.run(from, mp, c.rules);
  return { reach, enterable: c.enterable };
}

/** 11.1: unit `u`'s ground reach from `from` with `mp` MPs (after a sea move); valid until the board's next reach search. */
export function reachFrom(b: Board, s: EaState, u: number, from: number, mp: number): ReachSearch {
  return reachFor(b, s, u, from, mp).reach;
}

/** Hexes unit `u` may end its move in, by ground movement (8.1-8.4), with the stacking of 6.1 and 18.41 met at the end. */
export function destinations(b: Board, s: EaState, u: number): number[] {
  return movePlan(b, s, u).opts;
}

/**
 * The destinations of unit `u` and, for each, the enemy-held hexes its cheapest path passes through
 * (4.2: they change hands as it passes), so that playing the move needs no second search; `via` is
 * undefined when no path passes through any.
 */
function movePlan(b: Board, s: EaState, u: number): { opts: number[]; via: number[][] | undefined } {
  const from = s.hex[u]!;
  const side = b.units[u]!.side;
  const e = reachOf(b, s, u);
  const f = fastOf(b);
  const prof = b.units[u]!.prof;
  const occ = occIndex(b, s);
  fired('6.1');
  fired('6.2');
  const opts: number[] = [];
  for (const h of e.cand) {
    if (first(occ, h) < 0) opts.push(h);
    else {
      const here = listAt(occ, h).map((x) => b.units[x]!.prof);
      here.push(prof);
      if (stackLegal(here) && nationsMayStack(here)) opts.push(h);
    }
  }
  sortHexes(f, opts);
  // 4.2: the hexes on the way whose control differs from the mover's side.
  const control = controlMap(b, s);
  const g = nextGen(f);
  const { stamp, parent } = f;
  for (let i = 0; i < e.reached; i++) {
    stamp[e.cand[i]!] = g;
    parent[e.cand[i]!] = e.parent[i]!;
  }
  let via: number[][] | undefined;
  for (let i = 0; i < opts.length; i++) {
    const h = opts[i]!;
    let list: number[] | undefined;
    if (stamp[h] === g) {
      for (let x = h; x !== from && x >= 0; x = parent[x]!) if (b.startCtl[x]! >= 0 && control[x] !== side) (list ??= []).push(x);
      if (list && list.length > 1) list.reverse();
    } else if (b.startCtl[h]! >= 0 && control[h] !== side) list = [h];
    if (list && !via) {
      via = [];
      for (let j = 0; j < i; j++) via.push([]);
    }
    if (via) via.push(list ?? []);
  }
  return { opts, via };
}

/** A unit's movement reach as found: the hexes reached (`reached` of them, with the hex each came from) then the 8.4 one-hex moves. */
export interface ReachEntry {
  from: number;
  mf: number;
  dem: boolean;
  cand: readonly number[];
  reached: number;
  parent: readonly number[];
  /** MP spent to reach each of the first `reached` hexes (11.1: what is left to embark). */
  cost: readonly number[];
}

/**
 * Reaches kept per board and side while the enemy's units and the forts stay as they were (and the
 * turn is on the same side of May 1918, 3.62): a search bot asks for every unit's moves after each move
 * of another, and a unit's reach depends on the enemy, the forts, its own hex and its MF only.
 */
const reachMemo = new WeakMap<Board, { k: Snapshot; late: boolean; units: Map<number, ReachEntry>; seen: number }[]>();

export function reachOf(b: Board, s: EaState, u: number): ReachEntry {
  const f = fastOf(b);
  const side = f.side[u]! as SideNo;
  let memo = reachMemo.get(b);
  if (!memo) reachMemo.set(b, (memo = []));
  const m = (memo[side] ??= { k: new Snapshot(), late: false, units: new Map(), seen: 0 });
  if (!lookChecked(m.seen, s)) {
    feedSide(f, s, (1 - side) as SideNo, m.k.start());
    const late = s.turn >= 2;
    if (!m.k.finish() || m.late !== late) {
      m.units.clear();
      m.late = late;
    }
    m.seen = lookStamp(s);
  }
  const from = s.hex[u]!;
  const mf = mfOf(b, s, u);
  const dem = s.mor[u] !== 0;
  const unsup = s.sup[u]! > 0; // 8.4's exception reads the sources: such reaches are not kept
  const have = m.units.get(u);
  if (have && have.from === from && have.mf === mf && have.dem === dem && !unsup) return have;
  const { reach, enterable } = reachFor(b, s, u);
  // Plain arrays, kept as they are (the reach search's own arrays are reused by its next run; a typed
  // array costs more to make than these few dozen numbers).
  const cand: number[] = [];
  const parent: number[] = [];
  const cost: number[] = [];
  const g = nextGen(f);
  for (let i = 1; i < reach.count; i++) {
    const h = reach.hexes[i]!;
    f.stamp[h] = g;
    cand.push(h);
    parent.push(reach.parent[h]!);
    cost.push(reach.cost[h]!);
  }
  const reached = cand.length;
  // 8.4: a unit may always move one hex; an unsupplied one not farther from its supply source (ruling unsupplied-move).
  const here = unsup ? sourceHexes(b, s, side, from) : -1;
  for (let d = 0; d < 6; d++) {
    const nb = b.map.neighbours[from * 6 + d]!;
    if (nb >= 0 && f.stamp[nb] !== g && enterable(nb, b.map.grid.sides[from * 6 + d]!)) {
      if (here >= 0 && sourceHexes(b, s, side, nb) > here) continue;
      f.stamp[nb] = g;
      cand.push(nb);
    }
  }
  const e: ReachEntry = { from, mf, dem, cand, reached, parent, cost };
  if (!unsup) m.units.set(u, e);
  else m.units.delete(u);
  return e;
}

/** The rail net whose capacity a unit uses (9.5; the US on the French net, the Commonwealth on the British). */
export function railNet(b: Board, u: number): string {
  return fastOf(b).railNet[u]!;
}

/** Whether a rail line runs along one of the hexsides of `h`. */
const onRail = (b: Board, h: number): boolean => fastOf(b).onRail[h] === 1;

/** 9.1-9.5, 3.67: whether unit `u` may entrain now: not in March 1918, on its side's rail, out of enemy ZOC, with capacity left on its net. */
export function mayRail(b: Board, s: EaState, u: number, ezoc: Uint8Array): boolean {
  if (b.scen.id === '1918' && s.turn === 0) return false; // 3.67
  const h = s.hex[u]!;
  const f = fastOf(b);
  const side = f.side[u]!;
  if (f.ground[u] === 0 || f.onRail[h] === 0 || !railOwn(gaugeMap(b, s), controlMap(b, s), h, side) || ezoc[h] === 1) return false;
  return railRoom(b, s, u);
}

/** 9.5: whether unit `u`'s rail net has capacity left for it this segment (in half-corps). */
export function railRoom(b: Board, s: EaState, u: number): boolean {
  const f = fastOf(b);
  const net = f.railNet[u]!;
  const cap = b.data.charts.railCapacity.corps[net];
  return cap !== undefined && (s.rail[net] ?? 0) + f.halves[u]! <= 2 * cap;
}

/**
 * 9.51: the other country whose rail capacity a rail move of unit `u` into hex `h` also counts against
 * (`key` in `s.rail`: the country's net for a country of the unit's side, whose own units share it; the
 * net and the side, `FR@CP`, for an enemy country's railroads), with that country's capacity in corps;
 * undefined when `h` is on the unit's own net (Luxembourg is on the German net, 9.51 note).
 */
export function foreignRail(b: Board, u: number, h: number): { key: string; net: string; corps: number } | undefined {
  const net = hexNets(b)[h];
  const f = fastOf(b);
  if (net === undefined || net === f.railNet[u]) return undefined;
  const corps = b.data.charts.railCapacity.corps[net];
  if (corps === undefined) return undefined;
  const side = f.side[u]! as SideNo;
  return { key: b.home[side].has(b.map.countryCode(h)!) ? net : `${net}@${SIDE_IDS[side]}`, net, corps };
}

/** Per hex: the rail net of its country (9.5; Luxembourg's is Germany's), undefined off every country. Made once per board. */
const hexNetCache = new WeakMap<Board, (string | undefined)[]>();
function hexNets(b: Board): (string | undefined)[] {
  let x = hexNetCache.get(b);
  if (x) return x;
  const uses = b.data.charts.railCapacity.usesNetOf;
  x = Array.from({ length: b.map.size }, (_, h) => {
    const code = b.map.countryCode(h);
    return code ? (uses?.[code] ?? code) : undefined;
  });
  hexNetCache.set(b, x);
  return x;
}

/**
 * 9.51-9.52: how many corps halves may use the railroads of the country of `h` for unit `u`'s side this
 * turn: that country's capacity, or 6 corps when it is a minor (3) and the unit's country a major power
 * (9 or 12) to whose supply sources (14.3-14.4) a path runs along the rail from `h` (`joined`).
 */
function foreignRailLimit(b: Board, u: number, fr: { corps: number }, joined: () => boolean): number {
  const own = b.data.charts.railCapacity.corps[fastOf(b).railNet[u]!] ?? 0;
  if (fr.corps <= 3 && own >= 9 && joined()) {
    fired('9.52');
    return 12;
  }
  return 2 * fr.corps;
}

/** 9.52: per hex, >= 0 where `side`'s rail (free of enemy units and ZOC) joins a source of its side in a country of net `net`. Valid until the next supply search. */
function railJoinedTo(b: Board, s: EaState, side: SideNo, net: string): Int32Array {
  const nets = hexNets(b);
  const sources = sourceSet(b, s, side).all.filter((h) => nets[h] === net);
  const c = supplyInputs(b, s, side);
  c.rules.sources = sources;
  c.rules.limit = 0;
  return search(b).supply.run(c.rules).dist;
}

/** 9.1-9.2, 9.5-9.52: where unit `u` may detrain: up to 30 rail hexes (24 in Snow) through its side's rail free of enemy units and ZOC, stacking met, with room on the capacity of a foreign country's railroads. */
export function railDestinations(b: Board, s: EaState, u: number): number[] {
  fired('10');
  const reached = railReach(b, s, b.units[u]!.side, s.hex[u]!);
  const occ = occIndex(b, s);
  const prof = b.units[u]!.prof;
  const out: number[] = [];
  const halves = fastOf(b).halves[u]!;
  const nets = hexNets(b);
  const own = fastOf(b).railNet[u]!;
  let joined: Int32Array | undefined;
  for (let i = 0; i < reached.length; i++) {
    const h = reached[i]!;
    if (!sectorOk(b, s, u, h)) continue;
    const fr = nets[h] !== undefined && nets[h] !== own ? foreignRail(b, u, h) : undefined; // 9.51
    if (fr && (s.rail[fr.key] ?? 0) + halves > 2 * fr.corps) {
      const side = b.units[u]!.side;
      const j = () => (joined ??= Int32Array.from(railJoinedTo(b, s, side, own)))[h]! >= 0;
      if ((s.rail[fr.key] ?? 0) + halves > foreignRailLimit(b, u, fr, j)) continue;
    }
    if (first(occ, h) < 0) {
      out.push(h); // a lone unit always stacks (6.1, 18.41)
      continue;
    }
    const here = listAt(occ, h).map((x) => b.units[x]!.prof);
    here.push(prof);
    if (stackLegal(here) && nationsMayStack(here)) out.push(h);
  }
  return sortHexes(fastOf(b), out);
}

/**
 * Rail reaches kept per board and side while the enemy's units, the forts, control of the rail hexes,
 * the gauge and the weather stay as they were (a search bot asks for every unit's rail moves after each move of another): by
 * start hex, the hexes reached along the side's rail free of enemy units and ZOC (9.1-9.2).
 */
const railMemo = new WeakMap<Board, { k: Snapshot; from: Map<number, Int32Array>; seen: number }[]>();

export function railReach(b: Board, s: EaState, side: SideNo, from: number): Int32Array {
  let memo = railMemo.get(b);
  if (!memo) railMemo.set(b, (memo = []));
  const m = (memo[side] ??= { k: new Snapshot(), from: new Map(), seen: 0 });
  if (!lookChecked(m.seen, s)) {
    const k = m.k.start();
    feedSide(fastOf(b), s, (1 - side) as SideNo, k);
    feedRailControl(fastOf(b), s, k);
    k.add(-1);
    for (let i = 0; i < s.rails.length; i++) k.add(s.rails[i]!); // 10: the rail gauge
    k.add(railHexes(s.wx));
    if (!k.finish()) m.from.clear();
    m.seen = lookStamp(s);
  }
  const have = m.from.get(from);
  if (have) return have;
  const ezoc = zocOf(b, s, (1 - side) as SideNo);
  const theirs = occupied(b, s, (1 - side) as SideNo);
  const control = controlMap(b, s);
  const gauge = gaugeMap(b, s);
  const r = search(b).rail.run(from, railHexes(s.wx), (h: number) => railStop(b, gauge, control, ezoc, theirs, h, side));
  const reached = r.hexes.slice(1, r.count);
  m.from.set(from, reached);
  return reached;
}

/** 9.1-9.2: whether `side`'s rail movement may not enter hex `h`: not its own rail (gauge and control), in enemy ZOC, enemy-held or neutral. */
function railStop(b: Board, gauge: Int8Array, control: Int8Array, ezoc: Uint8Array, theirs: Uint8Array, h: number, side: SideNo): boolean {
  return !railOwn(gauge, control, h, side) || ezoc[h] === 1 || theirs[h] === 1 || b.neutral[h] === 1;
}

/** `railStop` for the state as it stands: whether `side`'s rail reach (`railReach`) may not enter hex `h`. */
export function railBlocked(b: Board, s: EaState, side: SideNo, h: number): boolean {
  return railStop(b, gaugeMap(b, s), controlMap(b, s), zocOf(b, s, (1 - side) as SideNo), occupied(b, s, (1 - side) as SideNo), h, side);
}

function moveUnit(b: Board, s: EaState, u: number, to: number, flips: readonly number[], ev: Events): void {
  const side = b.units[u]!.side;
  const from = s.hex[u]!;
  s.hex[u] = to;
  s.ent[u] = 0; // ruling entrench-owner=unit
  s.flg[u] = s.flg[u]! | FLAG.MOVED;
  for (const h of flips) setCtl(b, s, h, side, ev); // 4.2: every enemy hex entered, even in passing
  emit(ev, 'move', SIDE_IDS[side], `${label(b, u)} moves ${b.map.id(from)} -> ${b.map.id(to)}`, { unit: u, from: b.map.id(from), to: b.map.id(to) });
  fired('8');
}

/** 15.21: supplied infantry that has not moved may entrench (or improve to L2) instead of moving; not in a fort hex (15.22). */
function mayEntrench(b: Board, s: EaState, u: number): boolean {
  return fastOf(b).infantry[u] === 1 && s.sup[u] === 0 && s.ent[u]! < 2 && (s.flg[u]! & FLAG.MOVED) === 0 && fortAt(s, s.hex[u]!) < 0;
}

/**
 * Per unit, what the Movement Phase's look found for its rail and sea moves (`moveBits`), kept with the
 * unit's own inputs (hex, flags, morale and supply, and whether its rail net and its country's sea
 * capacity have room for it: the only way `mayRail` and `maySea` read the capacity used) and, for every
 * unit, a copy of everything else `mayRail` and `maySea` read (fast.ts `feedMoveWorld`): the phasing
 * side moves unit after unit while the other side stands still, so most answers hold from one look to
 * the next. Neither reads the supply sources (8.4's exception adds one-hex moves, which no sea move
 * starts from: `maySea` reads only the hexes the reach search found). Other readings of the rulings clear them all.
 */
interface MoveMemo {
  k: Snapshot;
  seen: number;
  rulings: EaState['rulings'] | undefined;
  hex: Int32Array;
  flg: Int32Array;
  ms: Int32Array;
  /** Whether the unit's rail net (1) and its country's sea capacity (2) had room (9.5, 11.6). */
  room: Int8Array;
  /** This look: the half-corps of capacity left per rail net and per sea country (fast.ts `railNets`, `seaCountries`). */
  railLeft: Int32Array;
  seaLeft: Int32Array;
  /** Bit 1: `rail U`, bit 2: `sea U`; -1 not known. */
  bits: Int8Array;
}
const moveMemos = new WeakMap<Board, MoveMemo>();

/** What one look shares between units: the enemy's ZOC and the sea scan, made when first asked. */
interface MoveLook {
  ezoc?: Uint8Array;
  sea?: SeaScan;
}

/** The board's move memo, its world inputs compared once per look (call inside `beginLook`). */
function moveMemo(b: Board, s: EaState): MoveMemo {
  let m = moveMemos.get(b);
  if (!m) {
    const n = b.units.length;
    moveMemos.set(b, (m = { k: new Snapshot(), seen: 0, rulings: undefined, hex: new Int32Array(n), flg: new Int32Array(n), ms: new Int32Array(n), room: new Int8Array(n), railLeft: new Int32Array(fastOf(b).railNets.length), seaLeft: new Int32Array(fastOf(b).seaCountries.length), bits: new Int8Array(n).fill(-1) }));
  }
  if (!lookChecked(m.seen, s)) {
    feedMoveWorld(fastOf(b), s, m.k.start());
    if (!m.k.finish() || !sameRulings(m.rulings, s.rulings)) {
      m.bits.fill(-1);
      m.rulings = s.rulings;
    }
    const f = fastOf(b);
    const { railCapacity, seaCapacity } = b.data.charts;
    for (let i = 0; i < f.railNets.length; i++) m.railLeft[i] = 2 * railCapacity.corps[f.railNets[i]!]! - (s.rail[f.railNets[i]!] ?? 0);
    for (let i = 0; i < f.seaCountries.length; i++) m.seaLeft[i] = 2 * seaCapacity.corps[f.seaCountries[i]!]! - (s.sea[f.seaCountries[i]!] ?? 0);
    m.seen = lookStamp(s);
  }
  return m;
}

/** Whether two rulings records read the same (a copied state has its own record with the same readings). */
function sameRulings(a: EaState['rulings'] | undefined, b: EaState['rulings']): boolean {
  if (a === b) return true;
  if (!a) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (a[k] !== b[k]) return false;
  return true;
}

/** 9.1, 11, 3.67: bit 1 when unit `u` (of the phasing side, not moved) may rail now, bit 2 when it may go by sea. */
function moveBits(b: Board, s: EaState, u: number, m: MoveMemo, x: MoveLook): number {
  const h = s.hex[u]!;
  const ms = s.mor[u]! * 4 + s.sup[u]!;
  const f = fastOf(b);
  // railRoom and seaRoom (9.5, 11.6) from this look's capacity left.
  const rn = f.railNetNo[u]!;
  const sn = f.seaNo[u]!;
  const room = (rn >= 0 && m.railLeft[rn]! >= f.halves[u]! ? 1 : 0) | (sn >= 0 && m.seaLeft[sn]! >= f.halves[u]! ? 2 : 0);
  if (m.bits[u]! >= 0 && m.hex[u] === h && m.flg[u] === s.flg[u] && m.ms[u] === ms && m.room[u] === room) return m.bits[u]!;
  const noRail = b.scen.id === '1918' && s.turn === 0; // 3.67
  let bits = 0;
  if (h >= 0 && !noRail && f.onRail[h] === 1 && mayRail(b, s, u, (x.ezoc ??= zocOf(b, s, (1 - s.seg) as SideNo)))) bits |= 1;
  if ((h === HEX.BRITAIN || !noRail) && maySea(b, s, u, (x.sea ??= seaScan(b, s)))) bits |= 2;
  m.bits[u] = bits;
  m.hex[u] = h;
  m.flg[u] = s.flg[u]!;
  m.ms[u] = ms;
  m.room[u] = room;
  return bits;
}

/** Whether unit `u` of `side` may still move, rail or entrench this phase: on the map, ground, not moved yet. */
function isMovable(f: Fast, s: EaState, side: SideNo, u: number): boolean {
  return s.hex[u]! >= 0 && f.side[u] === side && f.ground[u] === 1 && (s.flg[u]! & FLAG.MOVED) === 0;
}

// --- combat (13) --------------------------------------------------------------------------------

/** Units of the phasing side that may still join an attack on `hex` (13.2, 13.4, 13.5, 13.85, 21.33). */
function mayAttack(b: Board, s: EaState, hex: number, occ: Occ = occIndex(b, s)): number[] {
  const side = s.seg;
  const out: number[] = [];
  for (let d = 0; d < 6; d++) {
    const nb = b.map.neighbours[hex * 6 + d]!;
    if (nb < 0 || b.sideAtt8[b.map.grid.sides[hex * 6 + d]!] === 0) continue;
    for (let u = first(occ, nb); u >= 0; u = occ.next[u]!) {
      if (b.units[u]!.side !== side || s.mor[u] !== 0 || (s.flg[u]! & FLAG.ATTACKED) !== 0) continue;
      out.push(u);
    }
  }
  return out.sort((x, y) => x - y);
}

/** Enemy hexes that can be attacked now: occupied or a lone fort (13.2), not attacked yet (13.5), with an Inf/Cav able to attack. */
function targets(b: Board, s: EaState): number[] {
  const enemy = (1 - s.seg) as SideNo;
  const f = fastOf(b);
  const g = nextGen(f);
  const hexes: number[] = [];
  for (const u of f.ofSide[enemy]) {
    const h = s.hex[u]!;
    if (h >= 0 && f.ground[u] === 1 && (s.flg[u]! & FLAG.DEFENDED) === 0 && f.stamp[h] !== g) {
      f.stamp[h] = g;
      hexes.push(h);
    }
  }
  for (let i = 0; i < s.forts.length; i += 3) {
    const h = s.forts[i]!;
    if (s.forts[i + 1] === enemy && f.stamp[h] !== g) {
      f.stamp[h] = g;
      hexes.push(h);
    }
  }
  const occ = occIndex(b, s);
  const out: number[] = [];
  for (const h of hexes) if (!s.hit.includes(h) && infCavMayAttack(b, s, h, occ)) out.push(h);
  return sortHexes(f, out);
}

/** Whether hex `h` is one of `targets(b, s)`. */
function isTarget(b: Board, s: EaState, h: number): boolean {
  const enemy = 1 - s.seg;
  const f = fastOf(b);
  let held = false;
  for (const u of f.ofSide[enemy]!) {
    if (s.hex[u] === h && f.ground[u] === 1 && (s.flg[u]! & FLAG.DEFENDED) === 0) {
      held = true;
      break;
    }
  }
  if (!held) for (let i = 0; i < s.forts.length; i += 3) if (s.forts[i] === h && s.forts[i + 1] === enemy) held = true;
  return held && !s.hit.includes(h) && infCavMayAttack(b, s, h, occIndex(b, s));
}

/** Whether an Inf/Cav is among `mayAttack(b, s, hex)` (13.2: a hex is attacked only with one). */
function infCavMayAttack(b: Board, s: EaState, hex: number, occ: Occ): boolean {
  const side = s.seg;
  const f = fastOf(b);
  for (let d = 0; d < 6; d++) {
    const nb = b.map.neighbours[hex * 6 + d]!;
    if (nb < 0 || b.sideAtt8[b.map.grid.sides[hex * 6 + d]!] === 0) continue;
    for (let u = first(occ, nb); u >= 0; u = occ.next[u]!) {
      if (f.side[u] !== side || s.mor[u] !== 0 || (s.flg[u]! & FLAG.ATTACKED) !== 0) continue;
      if (f.infCav[u] === 1) return true;
    }
  }
  return false;
}

/** The strength, odds and DRMs of the attack being formed (13.64, 14.61, 15, 16, 18.42). */
export function assess(b: Board, s: EaState, hex: number, att: readonly number[], def: readonly number[] = unitsAt(b, s, hex)): { col: number; drm: number; att8: number; def8: number; stoss: number; tanks: number; air: number[] } {
  let att8 = 0;
  let stoss = 0;
  const tanksBy = new Map<string, number>();
  const infBy = new Map<string, number>();
  let british = false;
  let french = false;
  for (const u of att) {
    const d = b.units[u]!;
    const side = b.map.grid.sideBetween(s.hex[u]!, hex);
    let across = b.sideAtt8[side]!;
    if (d.prof.type === 'tank' && b.sideTankHalf[side]) across = Math.min(across, 4); // 16.3
    const lvl = effLevel(b, s, u);
    att8 += attackEighths(d.prof.attack, lvl, { num: across, den: 8 });
    if (d.prof.type === 'stoss' && lvl < 2) stoss++; // 14.62
    if (d.prof.type === 'tank' && lvl < 2) tanksBy.set(d.nation, (tanksBy.get(d.nation) ?? 0) + 1);
    if (isInfantry(d.prof.type) && (d.prof.size === 'corps' || d.nation === 'US')) infBy.set(d.nation, (infBy.get(d.nation) ?? 0) + 1);
    const sn = sectorNation(d.nation);
    if (sn === 'british') british = true;
    if (sn === 'french') french = true;
  }
  let tanks = 0;
  for (const [n, k] of tanksBy) tanks += Math.min(k, infBy.get(n) ?? 0); // 16.3: one infantry corps of its nation per tank
  // 16.41-16.42: air units of the attacker flown over this hex join, at most 2, each with an infantry corps of its nation.
  const air: number[] = [];
  const usedInf = new Map<string, number>();
  for (let u = 0; u < s.hex.length && air.length < 2; u++) {
    const d = b.units[u]!;
    if (d.prof.type !== 'air' || d.side !== s.seg || s.hex[u]! < 0 || (s.flg[u]! & FLAG.AIR_USED) !== 0) continue;
    if (s.hex[u] !== hex || (s.flg[u]! & FLAG.SORTIE) === 0) continue; // 16.41: flown over this hex in the Movement Phase
    const used = usedInf.get(d.nation) ?? 0;
    if (used >= (infBy.get(d.nation) ?? 0)) continue;
    usedInf.set(d.nation, used + 1);
    air.push(u);
  }
  let def8 = 0;
  const ent: { halves: number; level: number }[] = [];
  for (const u of def) {
    const d = b.units[u]!;
    def8 += defenseEighths(d.prof.defense, effLevel(b, s, u), s.mor[u] !== 0);
    ent.push({ halves: entrenchHalves(d.prof), level: s.ent[u]! });
  }
  const fort = fortLevel(s, hex, 1 - s.seg);
  if (fort) fired('15.1');
  if (british && french) fired('18.4');
  const siege = att.filter((u) => b.units[u]!.prof.type === 'siege' && effLevel(b, s, u) < 2).length;
  if (siege && fort) fired('16.2');
  const aDrm = attackerDrm({ stoss, tanks, air: air.length, siege, fortLevel: fort, noTankTerrain: b.noTank[hex] === 1, defenderLowMorale: false, britishAndFrench: british && french });
  const dDrm = defenderDrm(fort, entrenchmentDrm(ent), -b.tdrm[hex]!);
  return { col: oddsColumn(att8, def8), drm: netDrm(aDrm, dDrm), att8, def8, stoss: Math.min(3, stoss), tanks: b.noTank[hex] ? 0 : Math.min(3, tanks), air };
}

/** A 13.3 split choice; once the attacks are all designated, the first is resolved (13.63). */
function splitChoice(b: Board, s: EaState, choice: string, ev: Events): void {
  if (!playSplit(b, s, choice)) return;
  takeNextAttack(s);
  startCombat(b, s, ev);
}

function startCombat(b: Board, s: EaState, ev: Events): void {
  const cb = s.cb!;
  const def = cb.def.length ? cb.def.filter((u) => s.hex[u] === cb.hex) : unitsAt(b, s, cb.hex); // 13.3: this attack's defenders
  if (def.length === 0) {
    // 13.651: a fort alone is taken at once (automatic DE).
    const f = fortAt(s, cb.hex);
    if (f >= 0) s.forts.splice(f, 3);
    for (const u of cb.att) s.flg[u] = s.flg[u]! | FLAG.ATTACKED;
    emit(ev, 'combat', SIDE_IDS[s.seg], `${b.map.id(cb.hex)}: the lone fort falls (13.651)`, { hex: b.map.id(cb.hex), result: 'DE' });
    cb.def = [];
    cb.todo = [{ t: 'advance' }];
    runTodo(b, s, ev);
    return;
  }
  const a = assess(b, s, cb.hex, cb.att, def);
  cb.def = def;
  cb.col = a.col;
  cb.drm = a.drm;
  cb.stoss = a.stoss > 0;
  cb.tank = a.tanks > 0;
  cb.air = a.air;
  for (const u of a.air) s.flg[u] = s.flg[u]! | FLAG.AIR_USED;
  for (const u of cb.att) s.flg[u] = s.flg[u]! | FLAG.ATTACKED;
  for (const u of def) s.flg[u] = s.flg[u]! | FLAG.DEFENDED;
  const names = (us: readonly number[]) => us.map((u) => label(b, u)).join(', ');
  const c = b.map.city[cb.hex]!;
  const where = `${b.map.id(cb.hex)}${c >= 0 ? ` (${b.map.cities[c]!.name})` : ''}`;
  emit(ev, 'attack', SIDE_IDS[s.seg], `${SIDE_IDS[s.seg]} attacks ${where} with ${names(cb.att)}${a.air.length ? ` and air ${names(a.air)}` : ''} against ${names(def)}`, { hex: b.map.id(cb.hex), attackers: cb.att.length, defenders: def.length, from: attackedFrom(b, s, cb.att) });
  s.ask = { k: 'die', what: 'combat' };
}

/** The hexes the attacking units `us` stand in, ascending, by printed id (for the events: where an attack came from). */
export function attackedFrom(b: Board, s: EaState, us: readonly number[]): string[] {
  return [...new Set(us.map((u) => s.hex[u]!).filter((h) => h >= 0))].sort((x, y) => x - y).map((h) => b.map.id(h));
}

const printedA = (b: Board, us: readonly number[]): number => us.reduce((t, u) => t + b.units[u]!.prof.attack, 0);
const printedD = (b: Board, us: readonly number[]): number => us.reduce((t, u) => t + b.units[u]!.prof.defense, 0);

/** 13.643, 13.7: the die is in: read the CRT and line up what follows. */
function resolveCombat(b: Board, s: EaState, die: number, ev: Events): void {
  const cb = s.cb!;
  const roll = netRoll(die, cb.drm);
  const res = crtResult(b.data.charts.crt, cb.col, roll);
  const A = printedA(b, cb.att);
  const D = printedD(b, cb.def);
  emit(ev, 'combat', SIDE_IDS[s.seg], `${b.map.id(cb.hex)}: ${A} attack on ${D} defense at ${columnName(cb.col)}, DRM ${cb.drm >= 0 ? '+' : ''}${cb.drm}, die ${die} -> ${roll}: ${res}`, {
    hex: b.map.id(cb.hex),
    odds: columnName(cb.col),
    drm: cb.drm,
    die,
    roll,
    result: res,
    attackers: cb.att.length,
    defenders: cb.def.length,
    from: attackedFrom(b, s, cb.att),
  });
  fired('13.6');
  fired('13.7');
  if (cb.stoss) fired('16.1');
  if (cb.tank) fired('16.3');
  if (cb.air.length) fired('16.4');
  const me = s.seg;
  const them = (1 - me) as SideNo;
  const todo: Todo[] = [];
  const loseAtt = (factors: number, largest = false, thenDef = false): Todo => ({ t: 'lose', side: me, factors, largest, stoss: cb.stoss, tank: cb.tank, ...(thenDef ? { thenDefLoses: true } : {}) });
  const loseDef = (factors: number): Todo => ({ t: 'lose', side: them, factors, largest: false, stoss: false, tank: false });
  switch (res) {
    case 'AE':
      for (const u of cb.att) eliminate(b, s, u, ev, 'AE');
      break;
    case 'AX':
      todo.push(loseAtt(D));
      break;
    case 'AD': {
      // The largest attack factors first, one corps (two divisions) per defending corps (13.7).
      const halves = adDemoralizedHalves(
        cb.att.reduce((t, u) => t + corpsHalves(b.units[u]!.prof), 0),
        cb.def.reduce((t, u) => t + corpsHalves(b.units[u]!.prof), 0),
      );
      let done = 0;
      for (const u of [...cb.att].sort((x, y) => b.units[y]!.prof.attack - b.units[x]!.prof.attack || x - y)) {
        if (done >= halves) break;
        s.mor[u] = 2;
        done += corpsHalves(b.units[u]!.prof);
      }
      todo.push({ t: 'retreat', units: [...cb.att] });
      break;
    }
    case 'ND':
      todo.push(loseAtt(0, true, true));
      break;
    case 'EX': {
      const tie = reading(s.rulings, 'ex-tie');
      if (A < D || (A === D && tie === 'tie-both')) for (const u of cb.att) eliminate(b, s, u, ev, 'EX');
      if (D < A || A === D) for (const u of cb.def) eliminate(b, s, u, ev, 'EX');
      if (A < D) todo.push(loseDef(A));
      else if (D < A) todo.push(loseAtt(D));
      todo.push({ t: 'advance' });
      break;
    }
    case 'HX':
      for (const u of cb.def) eliminate(b, s, u, ev, 'HX');
      todo.push(loseAtt(Math.ceil(D / 2)));
      todo.push({ t: 'advance' });
      break;
    case 'DD':
      for (const u of cb.def) s.mor[u] = s.mor[u] === 0 ? 1 : 2; // 13.85: a second DD flips it to DTS
      // 15.12: units in a fort may stay.
      if (fortLevel(s, cb.hex, 1 - s.seg) === 0) todo.push({ t: 'retreat', units: [...cb.def] });
      todo.push({ t: 'advance' });
      break;
    case 'DE':
      for (const u of cb.def) eliminate(b, s, u, ev, 'DE');
      todo.push({ t: 'advance' });
      break;
  }
  cb.todo = todo;
  cb.attLost = 0;
  runTodo(b, s, ev);
}

/** Work through what a combat result still asks, stopping at the next decision. */
function runTodo(b: Board, s: EaState, ev: Events): void {
  const cb = s.cb!;
  while (cb.todo.length) {
    const t = cb.todo[0]!;
    if (t.t === 'lose') {
      const mine = (t.side === s.seg ? cb.att : cb.def).filter((u) => s.hex[u]! >= 0);
      if (mine.length === 0 || (t.factors <= 0 && !t.largest)) {
        cb.todo.shift();
        continue;
      }
      const sets = minimalLossSets(
        mine.map((u) => ({ profile: b.units[u]!.prof })),
        { factors: t.factors, factor: t.side === s.seg ? 'attack' : 'defense', mustLoseStoss: t.stoss, mustLoseTank: t.tank, mustLoseLargest: t.largest },
      )
        .slice(0, 6)
        .map((set) => set.map((i) => mine[i]!).sort((x, y) => x - y));
      if (sets.length === 1) {
        cb.todo.shift();
        takeLosses(b, s, t, sets[0]!, ev);
        continue;
      }
      s.ask = { k: 'lose', side: t.side, sets };
      return;
    }
    if (t.t === 'retreat') {
      const u = t.units.shift();
      if (u === undefined) {
        cb.todo.shift();
        continue;
      }
      if (s.hex[u]! < 0) continue;
      const opts = retreatOptions(b, s, u, t.again);
      if (opts.length === 0) {
        fired('13.8');
        if (t.again !== undefined) fired('13.84');
        eliminate(b, s, u, ev, t.again !== undefined ? 'still over-stacked after a second retreat hex (13.84)' : 'no retreat (13.83)');
        continue;
      }
      if (opts.length === 1) {
        retreatUnit(b, s, u, opts[0]!, ev);
        continue;
      }
      s.ask = { k: 'retreat', u, opts };
      return;
    }
    // advance (13.9)
    const opts = advanceOptions(b, s);
    if (opts.length === 0) {
      cb.todo.shift();
      continue;
    }
    s.ask = { k: 'advance', opts };
    return;
  }
  // The attack is over: the next one designated against the hex (13.3, 13.63), or the combat is.
  for (let u = 0; u < s.flg.length; u++) s.flg[u] = s.flg[u]! & ~FLAG.RETREATED;
  if (takeNextAttack(s)) {
    cb.attLost = 0;
    startCombat(b, s, ev);
    return;
  }
  s.cb = null;
  s.ask = { k: 'attack' };
}

function takeLosses(b: Board, s: EaState, t: Extract<Todo, { t: 'lose' }>, set: readonly number[], ev: Events): void {
  const cb = s.cb!;
  let lost = 0;
  for (const u of set) {
    lost += b.units[u]!.prof.attack;
    eliminate(b, s, u, ev, 'combat losses (13.7)');
  }
  if (t.side === s.seg) cb.attLost += lost;
  if (t.thenDefLoses) cb.todo.splice(1, 0, { t: 'lose', side: (1 - s.seg) as SideNo, factors: cb.attLost, largest: false, stoss: false, tank: false, nd: true });
  if (t.nd) {
    // 13.73: what defended together with a lost unit retreats, demoralized.
    const rest = ndPartners(b, s, set);
    for (const u of rest) s.mor[u] = s.mor[u] === 0 ? 1 : 2;
    if (rest.length) cb.todo.unshift({ t: 'retreat', units: rest });
  }
}

/**
 * 13.81-13.84: where unit `u` may retreat: one hex, not into enemy ZOC (friends do not negate it) or
 * enemy units, not across sea or lake, not into a neutral; a hex that keeps its supply line no longer if
 * there is one; within stacking (6.1, 18.41) where possible, else (13.84) a hex it over-stacks, from which
 * it retreats a second hex (`again`: the hex it first left, not offered), where it must fit.
 */
function retreatOptions(b: Board, s: EaState, u: number, again?: number): number[] {
  const side = b.units[u]!.side;
  const from = s.hex[u]!;
  const ezoc = zocOf(b, s, (1 - side) as SideNo);
  const theirs = occupied(b, s, (1 - side) as SideNo);
  const prof = b.units[u]!.prof;
  const ok: number[] = [];
  for (let d = 0; d < 6; d++) {
    const nb = b.map.neighbours[from * 6 + d]!;
    if (nb < 0 || b.mp[nb] === 255 || b.neutral[nb] === 1 || b.sideMp[b.map.grid.sides[from * 6 + d]!] === 255) continue;
    if (theirs[nb] === 1 || ezoc[nb] === 1 || nb === again) continue;
    const f = fortAt(s, nb);
    if (f >= 0 && s.forts[f + 1] !== side) continue;
    ok.push(nb);
  }
  const stacked = ok.filter((h) => {
    const here = unitsAt(b, s, h).map((x) => b.units[x]!.prof);
    return stackLegal([...here, prof]) && nationsMayStack([...here, prof]);
  });
  // 13.84: into a hex it over-stacks (6.1; never onto the other nationality, 18.41) only when no hex fits, and not on the second hex.
  const pool =
    stacked.length || again !== undefined
      ? stacked
      : ok.filter((h) => {
          const here = unitsAt(b, s, h).map((x) => b.units[x]!.prof);
          return nationsMayStack([...here, prof]);
        });
  if (pool.length <= 1) return pool;
  const dist = supplyDist(b, s, side);
  const here = dist[from]! < 0 ? Infinity : dist[from]!;
  const keep = pool.filter((h) => dist[h]! >= 0 && dist[h]! <= here);
  return (keep.length ? keep : pool).sort((x, y) => x - y);
}

function retreatUnit(b: Board, s: EaState, u: number, to: number, ev: Events): void {
  fired('13.8');
  const from = s.hex[u]!;
  s.hex[u] = to;
  s.ent[u] = 0;
  s.flg[u] = s.flg[u]! | FLAG.RETREATED;
  setCtl(b, s, to, b.units[u]!.side, ev);
  emit(ev, 'retreat', SIDE_IDS[b.units[u]!.side], `${label(b, u)} retreats ${b.map.id(from)} -> ${b.map.id(to)}`, { unit: u, from: b.map.id(from), to: b.map.id(to) });
  // 13.84: a unit that over-stacks the hex it retreated into retreats one hex more.
  const cur = s.cb?.todo[0];
  if (cur?.t === 'retreat' && cur.again === undefined && !stackLegal(unitsAt(b, s, to).map((x) => b.units[x]!.prof))) {
    fired('13.84');
    s.cb!.todo.unshift({ t: 'retreat', units: [u], again: from });
  }
}

/** 13.9: Inf/Cav of the attack may advance into the emptied hex, within the stacking limits. */
function advanceOptions(b: Board, s: EaState): number[] {
  const cb = s.cb!;
  if (unitsAt(b, s, cb.hex).some((u) => b.units[u]!.side !== s.seg)) return [];
  const here = unitsAt(b, s, cb.hex).map((x) => b.units[x]!.prof);
  return cb.att.filter((u) => {
    if (s.hex[u]! < 0 || s.hex[u] === cb.hex || s.mor[u] !== 0 || !isInfCav(b.units[u]!.prof.type) || (s.flg[u]! & FLAG.RETREATED) !== 0) return false;
    if (b.map.grid.distance(s.hex[u]!, cb.hex) !== 1) return false;
    return stackLegal([...here, b.units[u]!.prof]) && nationsMayStack([...here, b.units[u]!.prof]) && sectorOk(b, s, u, cb.hex);
  });
}

/** Remove a unit to the Replacement Pool (13.7). */
export function eliminate(b: Board, s: EaState, u: number, ev: Events, why: string): void {
  const h = s.hex[u]!;
  s.hex[u] = HEX.POOL;
  s.sup[u] = 0;
  s.mor[u] = 0;
  s.ent[u] = 0;
  emit(ev, 'elimination', SIDE_IDS[b.units[u]!.side], `${label(b, u)} eliminated in ${h >= 0 ? b.map.id(h) : '?'}: ${why}`, { unit: u, hex: h >= 0 ? b.map.id(h) : '' });
}

/** A unit's label for logs: `#12 4-6-4 FR inf`. */
export function label(b: Board, u: number): string {
  const names = fastOf(b).unitNames;
  const p = b.units[u]!.prof;
  return (names[u] ??= `#${u} ${p.attack}-${p.defense}-${p.move} ${p.nation} ${p.type}${p.size === 'div' ? ' XX' : ''}`);
}

// --- morale (21) ----------------------------------------------------------------------------------

function rollMorale(b: Board, s: EaState, die: number, ev: Events): void {
  const nation = s.mq.shift()! as Nation;
  const { month, year } = calendar(b, s);
  const w = s.ww[nation]!;
  const roll = wwRoll(die, w[0]! + economicDrm(nation, year, month));
  const raw = wwResult(b.data.charts.warWeariness, roll);
  const { effect, addDrm } = s3Effect(raw, s.rulings);
  w[0] = w[0]! + addDrm;
  fired('21');
  let text = `${nation} war weariness: die ${die}, roll ${roll}: ${raw.kind === 'R' ? `R${raw.percent}` : raw.kind}`;
  if (effect.kind === 'R') {
    w[1] = effect.percent;
    w[2] = s.turn + 3; // 21.3: for the next three months
    if (raw.kind === 'M') text += ' (3.68c: counts as R30)';
  } else if (effect.kind === 'D') {
    for (let u = 0; u < s.hex.length; u++) if (s.hex[u]! >= 0 && poolWwNation(b.units[u]!.nation) === nation) s.dq.push(u);
  } else if (effect.kind === 'S') {
    w[3] = 1;
    for (let u = 0; u < s.hex.length; u++) if (poolWwNation(b.units[u]!.nation) === nation && s.hex[u] !== HEX.REMOVED) s.hex[u] = HEX.REMOVED;
    text += ': sues for peace (21.35)';
  }
  emit(ev, 'war-weariness', SIDE_IDS[sideIdx(nation)], text, { nation, die, roll, result: raw.kind === 'R' ? `R${raw.percent}` : raw.kind });
  nextMorale(b, s, ev);
}

function nextMorale(b: Board, s: EaState, ev: Events): void {
  if (s.dq.length) s.ask = { k: 'die', what: 'desert' };
  else if (s.mq.length) s.ask = { k: 'die', what: 'morale' };
  else endTurn(b, s, ev);
}

// --- choices -------------------------------------------------------------------------------------

/** The options of the current decision, in canonical order (ascending unit number or hex number, then the closing option). */
export function options(b: Board, s: EaState): string[] {
  beginLook(s);
  try {
    return optionsNow(b, s);
  } finally {
    endLook();
  }
}

function optionsNow(b: Board, s: EaState): string[] {
  const a = s.ask;
  const f = fastOf(b);
  const L = f.labels;
  switch (a.k) {
    case 'move': {
      const out: string[] = [];
      const m = moveMemo(b, s);
      const x: MoveLook = {};
      for (const u of f.ofSide[s.seg]) {
        if (!isMovable(f, s, s.seg, u)) {
          if (s.hex[u] === HEX.BRITAIN && (moveBits(b, s, u, m, x) & 2) !== 0) out.push(L.sea[u]!); // 2.3, 11
          continue;
        }
        out.push(L.move[u]!);
        const bits = moveBits(b, s, u, m, x);
        if ((bits & 1) !== 0) out.push(L.rail[u]!);
        if ((bits & 2) !== 0) out.push(L.sea[u]!); // 11 (3.67: not in March 1918 either)
        if (mayEntrench(b, s, u)) out.push(L.entrench[u]!);
      }
      for (const u of flyable(b, s, s.seg)) out.push(`fly ${u}`); // 16.41 (air units after the ground units)
      for (const h of avTargets(b, s)) out.push(`av ${b.map.id(h)}`); // 12
      out.push('done');
      return out;
    }
    case 'to': {
      const out: string[] = [];
      for (const h of a.opts) out.push(h === HEX.BRITAIN ? 'to Britain' : hexLabel(b, L.to, 'to', h));
      out.push('stay');
      return out;
    }
    case 'attack': {
      const out: string[] = [];
      for (const h of targets(b, s)) out.push(hexLabel(b, L.attack, 'attack', h));
      out.push('done');
      return out;
    }
    case 'deploy':
      return a.opts.map((h) => `deploy ${b.map.id(h)}`);
    case 'fly':
      return [...a.over.map((h) => `over ${b.map.id(h)}`), ...a.base.map((h) => `base ${b.map.id(h)}`), 'stay'];
    case 'land':
      return a.opts.map((h) => `land ${b.map.id(h)}`);
    case 'buy':
      return [...a.opts.map((u) => `buy ${u}`), 'done'];
    case 'place':
      return a.opts.map((h) => (h === HEX.BRITAIN ? 'at Britain' : `at ${b.map.id(h)}`));
    case 'pair':
      return [...pairOptions(b, s).map(([x, y]) => `pair ${x},${y}`), 'done'];
    case 'split':
      return splitOptions(b, s);
    case 'with': {
      const cb = s.cb!;
      const out: string[] = [];
      for (const u of mayAttack(b, s, cb.hex)) if (!cb.att.includes(u)) out.push(L.with[u]!);
      if (mayGo(b, s)) out.push('go');
      out.push('cancel');
      return out;
    }
    case 'av': {
      const out = avEligible(b, s, a.hex).filter((u) => !a.att.includes(u)).map((u) => `with ${u}`);
      if (avAchieved(b, s, a.hex, a.att)) out.push('go');
      return out;
    }
    case 'lose':
      return a.sets.map((set) => `lose ${set.join(',')}`);
    case 'retreat':
      return a.opts.map((h) => hexLabel(b, L.retreat, 'retreat', h));
    case 'advance': {
      const out: string[] = [];
      for (const u of a.opts) out.push(L.advance[u]!);
      out.push('stay');
      return out;
    }
    default:
      return [];
  }
}

/** 13.652, 13.4: the attack being formed may go: it has units, a legal mix, and odds on the table. */
function mayGo(b: Board, s: EaState): boolean {
  const cb = s.cb!;
  return cb.att.length > 0 && attackMixLegal(cb.att.map((u) => b.units[u]!.prof.type)) && assess(b, s, cb.hex, cb.att).col >= 0;
}

/** The error for a choice that is not among the options, listing the first few. */
function illegalChoice(b: Board, s: EaState, choice: string): IllegalChoiceError {
  const opts = options(b, s);
  return new IllegalChoiceError(`'${choice}' is not an option now; the options are: ${opts.slice(0, 12).join(', ')}${opts.length > 12 ? ', ...' : ''}`);
}

/** The unit number in `choice` after its verb (`move 12`: 12), or -1 when it is not one of the state's units. */
function unitArg(s: EaState, choice: string, sp: number): number {
  const u = Number(choice.slice(sp + 1));
  return Number.isInteger(u) && u >= 0 && u < s.hex.length ? u : -1;
}

/** The hex number in `choice` after its verb (`attack 2453`), or -1 when it names no hex of the grid. */
function hexArgIn(b: Board, choice: string, sp: number): number {
  return b.map.grid.tryIndex(choice.slice(sp + 1));
}

/**
 * Whether `choice` is one of `options(b, s)`, checked directly for each kind of decision without
 * building the list: the choice must be the option's exact label and pass the test that puts it there.
 */
function isLegal(b: Board, s: EaState, choice: string): boolean {
  beginLook(s);
  try {
    return isLegalNow(b, s, choice);
  } finally {
    endLook();
  }
}

function isLegalNow(b: Board, s: EaState, choice: string): boolean {
  const a = s.ask;
  const L = fastOf(b).labels;
  const sp = choice.indexOf(' ');
  const verb = sp < 0 ? choice : choice.slice(0, sp);
  switch (a.k) {
    case 'move': {
      if (choice === 'done') return true;
      if (verb === 'sea') {
        const u = sp < 0 ? -1 : unitArg(s, choice, sp);
        return u >= 0 && choice === L.sea[u] && (moveBits(b, s, u, moveMemo(b, s), {}) & 2) !== 0;
      }
      if (verb === 'fly') {
        const u = sp < 0 ? -1 : unitArg(s, choice, sp);
        return u >= 0 && choice === `fly ${u}` && flyable(b, s, s.seg).includes(u);
      }
      if (verb === 'av') {
        const h = sp < 0 ? -1 : hexArgIn(b, choice, sp);
        return h >= 0 && choice === `av ${b.map.id(h)}` && avTargets(b, s).includes(h);
      }
      if (verb !== 'move' && verb !== 'entrench' && verb !== 'rail') return options(b, s).includes(choice);
      const u = sp < 0 ? -1 : unitArg(s, choice, sp);
      if (u < 0 || !isMovable(fastOf(b), s, s.seg, u)) return false;
      if (verb === 'move') return choice === L.move[u];
      if (verb === 'entrench') return choice === L.entrench[u] && mayEntrench(b, s, u);
      return choice === L.rail[u] && !(b.scen.id === '1918' && s.turn === 0) && onRail(b, s.hex[u]!) && mayRail(b, s, u, zocOf(b, s, (1 - s.seg) as SideNo));
    }
    case 'to': {
      if (choice === 'stay') return true;
      if (choice === 'to Britain') return a.opts.includes(HEX.BRITAIN);
      const h = verb === 'to' ? hexArgIn(b, choice, sp) : -1;
      return h >= 0 && a.opts.includes(h) && choice === hexLabel(b, L.to, 'to', h);
    }
    case 'attack': {
      if (choice === 'done') return true;
      const h = verb === 'attack' ? hexArgIn(b, choice, sp) : -1;
      return h >= 0 && choice === hexLabel(b, L.attack, 'attack', h) && isTarget(b, s, h);
    }
    case 'with': {
      if (choice === 'cancel') return true;
      if (choice === 'go') return mayGo(b, s);
      const u = verb === 'with' ? unitArg(s, choice, sp) : -1;
      return u >= 0 && choice === L.with[u] && !s.cb!.att.includes(u) && mayAttack(b, s, s.cb!.hex).includes(u);
    }
    case 'retreat': {
      const h = verb === 'retreat' ? hexArgIn(b, choice, sp) : -1;
      return h >= 0 && a.opts.includes(h) && choice === hexLabel(b, L.retreat, 'retreat', h);
    }
    case 'advance': {
      if (choice === 'stay') return true;
      const u = verb === 'advance' ? unitArg(s, choice, sp) : -1;
      return u >= 0 && a.opts.includes(u) && choice === L.advance[u];
    }
    case 'lose':
      return verb === 'lose' && a.sets.some((set) => choice === `lose ${set.join(',')}`);
    default:
      return options(b, s).includes(choice);
  }
}

const hexArgOf = (b: Board, arg: string | undefined): number => (arg === 'Britain' ? HEX.BRITAIN : b.map.hex(arg!));

/** Who decides now. */
export function decider(s: EaState): SideNo {
  const a = s.ask;
  if (a.k === 'lose' || a.k === 'pair') return a.side;
  if (a.k === 'retreat') return s.cb ? (s.cb.def.includes(a.u) ? ((1 - s.seg) as SideNo) : s.seg) : s.seg;
  return s.seg;
}

/** Play one decision option or die outcome. */
export function applyChoice(b: Board, s: EaState, choice: string, ev: Events): void {
  const a = s.ask;
  if (a.k === 'die') {
    const m = /^die ([1-9]|10)$/.exec(choice);
    if (!m) throw new IllegalChoiceError(`'${choice}' is not a die result (die 1 .. die 10)`);
    const die = Number(m[1]);
    if (a.what === 'weather') {
      const { month } = calendar(b, s);
      const w = weatherFor(b.data.charts.weather, month, die);
      s.wx = w.west;
      fired('20');
      emit(ev, 'weather', undefined, `Weather: die ${die}: ${w.west} in the West`, { die, west: w.west, east: w.east });
      beginSegment(b, s, 0, ev);
    } else if (a.what === 'combat') resolveCombat(b, s, die, ev);
    else if (a.what === 'morale') rollMorale(b, s, die, ev);
    else {
      const u = s.dq.shift()!;
      if (deserts(die) && s.hex[u]! >= 0) eliminate(b, s, u, ev, `deserts on a ${die} (21.34)`);
      nextMorale(b, s, ev);
    }
    return;
  }
  const sp = choice.indexOf(' ');
  const verb = sp < 0 ? choice : choice.slice(0, sp);
  const arg = sp < 0 ? undefined : choice.slice(sp + 1);
  if (a.k === 'move' && (verb === 'move' || verb === 'rail' || verb === 'sea')) {
    // The check and the unit's destinations only read the state: one look, so each cache compares
    // its inputs once for both.
    beginLook(s);
    try {
      if (!isLegalNow(b, s, choice)) throw illegalChoice(b, s, choice);
      const u = Number(arg);
      if (verb === 'move') {
        const plan = movePlan(b, s, u);
        s.ask = plan.via ? { k: 'to', u, opts: plan.opts, via: plan.via } : { k: 'to', u, opts: plan.opts };
      } else if (verb === 'rail') s.ask = { k: 'to', u, opts: railDestinations(b, s, u), rail: true };
      else {
        const plan = seaPlan(b, s, u); // 11.1-11.2
        s.ask = { k: 'to', u, opts: plan.opts, sea: plan.routes };
      }
    } finally {
      endLook();
    }
    return;
  }
  if (!isLegal(b, s, choice)) throw illegalChoice(b, s, choice);
  switch (verb) {
    case 'to': {
      const t = a as { u: number; rail?: true; sea?: number[][]; opts: number[] };
      if (t.sea) {
        const to = hexArgOf(b, arg);
        playSea(b, s, t.u, to, t.sea[t.opts.indexOf(to)]!, ev);
      } else if (t.rail) {
        const u = t.u;
        const from = s.hex[u]!;
        const net = railNet(b, u);
        const to = hexArgOf(b, arg);
        s.rail[net] = (s.rail[net] ?? 0) + corpsHalves(b.units[u]!.prof);
        const fr = foreignRail(b, u, to); // 9.51: against both countries
        if (fr) {
          fired('9.51');
          s.rail[fr.key] = (s.rail[fr.key] ?? 0) + corpsHalves(b.units[u]!.prof);
        }
        s.hex[u] = to;
        s.ent[u] = 0;
        s.flg[u] = s.flg[u]! | FLAG.MOVED;
        fired('9');
        emit(ev, 'rail', SIDE_IDS[s.seg], `${label(b, u)} rails ${b.map.id(from)} -> ${arg}`, { unit: u, from: b.map.id(from), to: arg! });
      } else {
        const to = hexArgOf(b, arg);
        const via = (a as { via?: number[][] }).via;
        moveUnit(b, s, t.u, to, via?.[(a as { opts: number[] }).opts.indexOf(to)] ?? [], ev);
      }
      s.ask = { k: 'move' };
      return;
    }
    case 'fly':
      askFly(b, s, Number(arg));
      return;
    case 'over':
    case 'base':
      playFly(b, s, (a as { u: number }).u, verb, hexArgOf(b, arg), ev);
      s.ask = { k: 'move' };
      return;
    case 'land':
      land(b, s, (a as { u: number }).u, hexArgOf(b, arg), ev);
      if (!askLandings(b, s, ev)) endSegment(b, s, ev);
      return;
    case 'stay':
      if (a.k === 'advance' && a.av) s.ask = { k: 'move' };
      else if (a.k === 'fly') {
        playFly(b, s, a.u, 'stay', -1, ev);
        s.ask = { k: 'move' };
      } else if (a.k === 'to') {
        s.flg[a.u] = s.flg[a.u]! | FLAG.MOVED;
        s.ask = { k: 'move' };
      } else {
        s.cb!.todo.shift();
        runTodo(b, s, ev);
      }
      return;
    case 'entrench': {
      const u = Number(arg);
      s.ent[u] = s.ent[u]! + 1;
      s.flg[u] = s.flg[u]! | FLAG.MOVED;
      fired('15.2');
      emit(ev, 'entrench', SIDE_IDS[s.seg], `${label(b, u)} entrenches to level ${s.ent[u]} in ${b.map.id(s.hex[u]!)}`, { unit: u });
      return;
    }
    case 'deploy':
      deployUnit(b, s, (a as { u: number }).u, hexArgOf(b, arg));
      if (!nextDeploy(b, s, ev)) start(b, s, ev); // 3.4: the Allies first
      return;
    case 'buy':
      if (!buy(b, s, Number(arg), ev)) endReinforcement(b, s, ev);
      return;
    case 'at':
      placeReplacement(b, s, (a as { u: number }).u, hexArgOf(b, arg), ev);
      if (!askBuy(b, s)) endReinforcement(b, s, ev);
      return;
    case 'done':
      if (a.k === 'pair') {
        if (!openSplit(b, s)) startCombat(b, s, ev);
      } else if (a.k === 'buy') endReinforcement(b, s, ev);
      else if (a.k === 'move') {
        s.phase = 'combat';
        s.ask = { k: 'attack' };
      } else if (!askLandings(b, s, ev)) endSegment(b, s, ev); // 16.42: sorties land first
      return;
    case 'attack':
      s.hit.push(hexArgOf(b, arg));
      s.cb = { hex: hexArgOf(b, arg), att: [], def: [], col: 0, drm: 0, stoss: false, tank: false, air: [], todo: [], attLost: 0, pairs: [], queue: [], pool: [], left: [], sa: [], sd: [] };
      s.ask = { k: 'with' };
      return;
    case 'with':
      if (a.k === 'av') s.ask = { k: 'av', hex: a.hex, att: [...a.att, Number(arg)] };
      else if (a.k === 'split') splitChoice(b, s, choice, ev);
      else s.cb!.att.push(Number(arg));
      return;
    case 'on':
    case 'next':
    case 'all':
      splitChoice(b, s, choice, ev);
      return;
    case 'pair': {
      const [x, y] = arg!.split(',').map(Number) as [number, number];
      s.cb!.pairs.push(x, y);
      if (pairOptions(b, s).length === 0 && !openSplit(b, s)) startCombat(b, s, ev);
      return;
    }
    case 'cancel':
      // The hex is not attacked; its defenders count as attacked so the choice is not offered again.
      s.hit.push(s.cb!.hex);
      s.cb = null;
      s.ask = { k: 'attack' };
      return;
    case 'go':
      if (a.k === 'av') {
        playAv(b, s, a.hex, a.att, ev);
        avAdvanceNext(b, s, a.hex, a.att);
      } else if (!openPairing(b, s)) startCombat(b, s, ev); // 13.62, 13.3
      return;
    case 'av':
      s.ask = { k: 'av', hex: hexArgOf(b, arg), att: [] };
      return;
    case 'lose': {
      const t = s.cb!.todo.shift() as Extract<Todo, { t: 'lose' }>;
      takeLosses(b, s, t, arg!.split(',').map(Number), ev);
      runTodo(b, s, ev);
      return;
    }
    case 'retreat':
      retreatUnit(b, s, (a as { u: number }).u, hexArgOf(b, arg), ev);
      runTodo(b, s, ev);
      return;
    case 'advance': {
      const u = Number(arg);
      if (a.k === 'advance' && a.av) {
        avAdvance(b, s, u, a.av.hex, ev);
        avAdvanceNext(b, s, a.av.hex, a.av.used);
        return;
      }
      const cb = s.cb!;
      const from = s.hex[u]!;
      s.hex[u] = cb.hex;
      s.ent[u] = 0;
      setCtl(b, s, cb.hex, s.seg, ev);
      const f = fortAt(s, cb.hex);
      if (f >= 0 && s.forts[f + 1] !== s.seg) s.forts.splice(f, 3); // 13.9: the defender's fort is destroyed
      fired('13.9');
      emit(ev, 'advance', SIDE_IDS[s.seg], `${label(b, u)} advances ${b.map.id(from)} -> ${b.map.id(cb.hex)}`, { unit: u });
      runTodo(b, s, ev);
      return;
    }
  }
  throw new IllegalChoiceError(`'${choice}' is not a choice of this game`);
}

/** 12.2: offer the units used in an AV the emptied hex while one may still enter, then back to the Movement Phase. */
function avAdvanceNext(b: Board, s: EaState, hex: number, used: readonly number[]): void {
  const opts = avAdvanceOptions(b, s, hex, used);
  s.ask = opts.length ? { k: 'advance', opts, av: { hex, used: [...used] } } : { k: 'move' };
}

/** The first state's automatic steps: the set-up is done, turn 1 begins. */
export function start(b: Board, s: EaState, ev: Events): void {
  for (const id of ['3.1', '4.1', 'S3 3.3', 'S3 3.4', '15.2', '6.3']) fired(id);
  beginTurn(b, s, ev);
}
