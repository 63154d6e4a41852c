/**
 * 7 Sequence of play, and the phases it runs: weather (7.1, 20), reinforcements and replacements (7.21,
 * 17), supply (7.22, 14), movement (7.23, 8, 15.21), combat (7.24, 13, 15, 16), administration (7.25,
 * 13.86), national morale (7.4, 21) and the end (7.5, S3 3.7). `advance` runs every automatic step until
 * a decision or a die is needed; `applyChoice` plays one option. States are changed in place: the game
 * layer hands in a private copy (game.ts).
 */
import { IllegalChoiceError } from '@salient/engine';
import { RailSearch, ReachSearch, SideFeature, SupplySearch, zocMask } from '@salient/hexmap';
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
import { askDeploy, deployUnit } from './deploy.ts';
import { emit, type Events } from './events.ts';
import { addCapped, turnRp } from './replacements.ts';
import { askBuy, buy, placeReplacement } from './replacement-choice.ts';
import { avAchieved, avAdvance, avAdvanceOptions, avEligible, avTargets, playAv } from './automatic-victory.ts';
import { garrisonCheck } from './garrisons.ts';
import { advanceRailheads, railOwn } from './railheads.ts';
import { reading } from './rulings.ts';
import { fired } from './sections.ts';
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

/**
 * Ground units by hex: `first(o, h)` the first unit there, `next[u]` the next one (ascending), -1 at the
 * end. One scratch index per board, rebuilt per query without clearing (a generation stamp marks the
 * live entries): a query holds at most one index at a time.
 */
export interface Occ {
  head: Int32Array;
  stamp: Uint32Array;
  gen: number;
  next: Int32Array;
}

const occScratch = new WeakMap<Board, Occ>();

/** Build the occupancy index of the state's ground units, once per query. */
export function occIndex(b: Board, s: EaState): Occ {
  let o = occScratch.get(b);
  if (!o || o.next.length < s.hex.length) {
    o = { head: new Int32Array(b.map.size), stamp: new Uint32Array(b.map.size), gen: 0, next: new Int32Array(s.hex.length) };
    occScratch.set(b, o);
  }
  const gen = (o.gen = (o.gen + 1) >>> 0 || 1);
  const { head, stamp, next } = o;
  for (let u = s.hex.length - 1; u >= 0; u--) {
    const h = s.hex[u]!;
    if (h < 0 || b.units[u]!.prof.type === 'air') continue;
    next[u] = stamp[h] === gen ? head[h]! : -1;
    head[h] = u;
    stamp[h] = gen;
  }
  return o;
}

/** The first ground unit in `h` (-1 none). */
export const first = (o: Occ, h: number): number => (o.stamp[h] === o.gen ? o.head[h]! : -1);

/** Ground units in `h` from an index. */
export function listAt(o: Occ, h: number): number[] {
  const out: number[] = [];
  for (let u = first(o, h); u >= 0; u = o.next[u]!) out.push(u);
  return out;
}

/** Per hex: 1 where a ground unit of `side` stands. */
function occupied(b: Board, s: EaState, side: SideNo): Uint8Array {
  const m = new Uint8Array(b.map.size);
  for (let u = 0; u < s.hex.length; u++) {
    const h = s.hex[u]!;
    if (h >= 0 && b.units[u]!.side === side && b.units[u]!.prof.type !== 'air') m[h] = 1;
  }
  return m;
}

/** Last ZOC computed per board and side, keyed by a fingerprint of what ZOC depends on (unit hexes, morale, supply, forts). */
const zocCache = new WeakMap<Board, { a: number; b: number; mask: Uint8Array }[]>();

/** Two 32-bit fingerprints of the unit arrays and forts (a stale ZOC would need both to collide). */
function zocKey(s: EaState): [number, number] {
  let a = 0x811c9dc5;
  let c = 0x9e3779b9;
  const n = s.hex.length;
  for (let u = 0; u < n; u++) {
    const v = (s.hex[u]! + 8) * 32 + s.mor[u]! * 4 + s.sup[u]!;
    a = Math.imul(a ^ v, 0x01000193);
    c = Math.imul(c + v, 0x85ebca6b) ^ (c >>> 13);
  }
  for (let i = 0; i < s.forts.length; i++) {
    a = Math.imul(a ^ (s.forts[i]! + 1), 0x01000193);
    c = Math.imul(c + s.forts[i]! + 7, 0x85ebca6b) ^ (c >>> 13);
  }
  return [a >>> 0, c >>> 0];
}

/** 5.1-5.2, 13.85, 14.6: the ZOC of `side`: Inf, Cav and FA not demoralized and not at effective L2, never across sea or lake nor into a neutral. The mask is shared: read it, never write it. */
export function zocOf(b: Board, s: EaState, side: SideNo): Uint8Array {
  const [ka, kb] = zocKey(s);
  let cache = zocCache.get(b);
  if (!cache) zocCache.set(b, (cache = []));
  const hit = cache[side];
  if (hit && hit.a === ka && hit.b === kb) return hit.mask;
  const hexes: number[] = [];
  for (let u = 0; u < s.hex.length; u++) {
    if (s.hex[u]! < 0 || b.units[u]!.side !== side || !projectsZoc(b.units[u]!.prof.type)) continue;
    if (s.mor[u] !== 0 || (s.sup[u]! >= 2 && effLevel(b, s, u) >= 2)) continue;
    hexes.push(s.hex[u]!);
  }
  fired('5');
  const mask = zocMask(b.map, hexes, { projects: (_f, to, side2) => b.sideMp[side2] !== 255 && b.neutral[to] === 0 });
  cache[side] = { a: ka, b: kb, mask };
  return mask;
}

const searches = new WeakMap<Board, { reach: ReachSearch; supply: SupplySearch; rail: RailSearch }>();
function search(b: Board): { reach: ReachSearch; supply: SupplySearch; rail: RailSearch } {
  let x = searches.get(b);
  if (!x) searches.set(b, (x = { reach: new ReachSearch(b.map), supply: new SupplySearch(b.map), rail: new RailSearch(b.map) }));
  return x;
}

// Rail hexes `side` may use (9.0, 10, ruling rail-railhead): railOwn in railheads.ts.

/**
 * 14.2-14.3: a side's supply: from its cities in its home countries that it controls and that no enemy
 * stands on or exerts ZOC into, by rail through hexes it controls and free of enemy ZOC, then overland
 * up to 5 hexes (4 in Mud, 3 in Snow), not into enemy ZOC unless a friendly unit is there, not across sea
 * or lake. Returns `dist` per hex (-1 unsupplied), a fresh copy.
 */
export function supplyOf(b: Board, s: EaState, side: SideNo): Int32Array {
  const ezoc = zocOf(b, s, (1 - side) as SideNo);
  const mine = occupied(b, s, side);
  const theirs = occupied(b, s, (1 - side) as SideNo);
  const sources: number[] = [];
  for (const c of b.map.cities) {
    const code = b.map.countryCode(c.hex);
    if (code && b.home[side].has(code) && ctl(b, s, c.hex) === side && !theirs[c.hex] && !ezoc[c.hex]) sources.push(c.hex);
  }
  const blocked = (h: number): boolean => (ezoc[h] === 1 && mine[h] === 0) || theirs[h] === 1 || b.neutral[h] === 1 || b.mp[h] === 255;
  const res = search(b).supply.run({
    sources,
    limit: supplyLength(s.wx),
    blocked,
    crosses: (_f, _t, sd) => b.sideMp[sd] !== 255,
    rail: { blocked: (h: number) => !railOwn(b, s, h, side) || ezoc[h] === 1 || b.neutral[h] === 1 },
  });
  return Int32Array.from(res.dist);
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
  const supply = supplyOf(b, s, side);
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
  for (let u = 0; u < s.hex.length; u++) {
    const d = b.units[u]!;
    if (d.side !== side || s.hex[u] !== HEX.NOT_ARRIVED || d.arrives > month) continue;
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

const sideIdx = (n: Nation): SideNo => (n === 'GE' || n === 'AH' ? 0 : 1);
/** The Commonwealth's War Weariness is Britain's. */
const poolWwNation = (n: Nation): string => (n === 'CA' || n === 'AU' ? 'GB' : n);

/** 7.22, 14.1, 14.63: supplied units clear their marker; unsupplied ones go a level up, or are eliminated. */
function supplyPhase(b: Board, s: EaState, side: SideNo, ev: Events): void {
  const dist = supplyOf(b, s, side);
  for (const u of onMap(b, s, side)) {
    if (b.units[u]!.prof.type === 'air') continue;
    const h = s.hex[u]!;
    if (dist[h]! >= 0) {
      s.sup[u] = 0;
      continue;
    }
    const lvl = s.sup[u]! + 1;
    const delay = isMajor(b, h) || fortLevel(s, h, side) > 0;
    if (lvl === 3 && !delay) eliminate(b, s, u, ev, 'out of supply (14.1)');
    else if (lvl >= 4) eliminate(b, s, u, ev, 'out of supply (14.63)');
    else s.sup[u] = lvl;
  }
  fired('14');
}

/** 7.25: railheads advance (10); unsupplied units that can now trace supply clear it; Demoralized markers come off (supplied, out of enemy ZOC), then DTS flips (13.86). */
function adminPhase(b: Board, s: EaState, side: SideNo, ev: Events): void {
  advanceRailheads(b, s, side, ev); // 7.25, 10.2-10.4
  const dist = supplyOf(b, s, side);
  const ezoc = zocOf(b, s, (1 - side) as SideNo);
  for (const u of onMap(b, s, side)) {
    const h = s.hex[u]!;
    if (s.sup[u]! > 0 && dist[h]! >= 0) s.sup[u] = 0;
    if (s.mor[u] === 1 && s.sup[u] === 0 && !ezoc[h]) s.mor[u] = 0;
    else if (s.mor[u] === 2) s.mor[u] = 1;
  }
  for (let u = 0; u < s.flg.length; u++) s.flg[u] = 0;
  s.hit = [];
  s.rail = {};
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
  const cp = supplyOf(b, s, 0);
  const al = reading(s.rulings, 'vp-supply') === 'occupant-path' ? supplyOf(b, s, 1) : cp;
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
function mfOf(b: Board, s: EaState, u: number): number {
  return movementFactor({ printed: b.units[u]!.prof.move, weather: s.wx, supplyLevel: effLevel(b, s, u), demoralized: s.mor[u] !== 0 }, s.rulings);
}

/** Run unit `u`'s movement reach (8.1-8.4): the search object holds costs and paths until the next run. */
function reachFor(b: Board, s: EaState, u: number): { reach: ReachSearch; enterable: (to: number, sd: number) => boolean } {
  const side = b.units[u]!.side;
  const from = s.hex[u]!;
  const enemyOcc = occupied(b, s, (1 - side) as SideNo);
  const ezoc = zocOf(b, s, (1 - side) as SideNo);
  const dem = s.mor[u] !== 0;
  // Per-hex verdicts, worked out once per hex: 1 may enter, 2 may not.
  const memo = new Uint8Array(b.map.size);
  const hexOk = (to: number): boolean => {
    let m = memo[to]!;
    if (m === 0) {
      let ok = b.mp[to] !== 255 && b.neutral[to] === 0 && enemyOcc[to] === 0 && !(dem && ezoc[to] === 1); // 13.85
      if (ok) {
        const f = fortAt(s, to);
        if (f >= 0 && s.forts[f + 1] !== side) ok = false; // ruling lone-fort: a lone enemy fort must be attacked
      }
      if (ok) ok = sectorOk(b, s, u, to);
      memo[to] = m = ok ? 1 : 2;
    }
    return m === 1;
  };
  const enterable = (to: number, sd: number): boolean => b.sideMp[sd] !== 255 && hexOk(to);
  const mp = b.mp;
  const sideMp = b.sideMp;
  const reach = search(b).reach.run(from, mfOf(b, s, u), {
    enterCost: (f, to, sd) => (enterable(to, sd) ? mp[to]! + sideMp[sd]! + (ezoc[f] === 1 && ezoc[to] === 1 ? 1 : 0) : Infinity),
  });
  return { reach, enterable };
}

/** Hexes unit `u` may end its move in, by ground movement (8.1-8.4), with the stacking of 6.1 and 18.41 met at the end. */
export function destinations(b: Board, s: EaState, u: number): number[] {
  return movePlan(b, s, u).opts;
}

/**
 * The destinations of unit `u` and, for each, the enemy-held hexes its cheapest path passes through
 * (4.2: they change hands as it passes), so that playing the move needs no second search.
 */
function movePlan(b: Board, s: EaState, u: number): { opts: number[]; via: number[][] } {
  const from = s.hex[u]!;
  const side = b.units[u]!.side;
  const { reach, enterable } = reachFor(b, s, u);
  const out = new Set<number>();
  for (let i = 1; i < reach.count; i++) out.add(reach.hexes[i]!);
  // 8.4: a unit may always move one hex.
  for (let d = 0; d < 6; d++) {
    const nb = b.map.neighbours[from * 6 + d]!;
    if (nb >= 0 && enterable(nb, b.map.grid.sides[from * 6 + d]!)) out.add(nb);
  }
  const prof = b.units[u]!.prof;
  const occ = occIndex(b, s);
  fired('6.1');
  fired('6.2');
  const opts = [...out]
    .filter((h) => {
      if (first(occ, h) < 0) return true;
      const here = listAt(occ, h).map((x) => b.units[x]!.prof);
      return stackLegal([...here, prof]) && nationsMayStack([...here, prof]);
    })
    .sort((x, y) => x - y);
  const via = opts.map((h) => {
    const path = reach.reached(h) ? reach.pathTo(h).slice(1) : [h];
    return path.filter((x) => b.startCtl[x]! >= 0 && ctl(b, s, x) !== side);
  });
  return { opts, via };
}

/** The rail net whose capacity a unit uses (9.5; the US on the French net, the Commonwealth on the British). */
function railNet(b: Board, u: number): string {
  const n = b.units[u]!.nation;
  return b.data.charts.railCapacity.usesNetOf?.[n] ?? n;
}

const onRail = (b: Board, h: number): boolean => {
  for (let d = 0; d < 6; d++) if (b.map.sideFeatures[b.map.grid.sides[h * 6 + d]!]! & SideFeature.RAIL) return true;
  return false;
};

/** 9.1-9.5, 3.67: whether unit `u` may entrain now: not in March 1918, on its side's rail, out of enemy ZOC, with capacity left on its net. */
function mayRail(b: Board, s: EaState, u: number, ezoc: Uint8Array): boolean {
  if (b.scen.id === '1918' && s.turn === 0) return false; // 3.67
  const h = s.hex[u]!;
  const d = b.units[u]!;
  if (d.prof.type === 'air' || !onRail(b, h) || !railOwn(b, s, h, d.side) || ezoc[h] === 1) return false;
  const net = railNet(b, u);
  const cap = b.data.charts.railCapacity.corps[net];
  return cap !== undefined && (s.rail[net] ?? 0) + corpsHalves(d.prof) <= 2 * cap;
}

/** 9.1-9.2: where unit `u` may detrain: up to 30 rail hexes (24 in Snow) through its side's rail free of enemy units and ZOC, stacking met. */
export function railDestinations(b: Board, s: EaState, u: number): number[] {
  const side = b.units[u]!.side;
  const ezoc = zocOf(b, s, (1 - side) as SideNo);
  const theirs = occupied(b, s, (1 - side) as SideNo);
  fired('10');
  const r = search(b).rail.run(s.hex[u]!, railHexes(s.wx), (h: number) => !railOwn(b, s, h, side) || ezoc[h] === 1 || theirs[h] === 1 || b.neutral[h] === 1);
  const occ = occIndex(b, s);
  const prof = b.units[u]!.prof;
  const out: number[] = [];
  for (let i = 1; i < r.count; i++) {
    const h = r.hexes[i]!;
    if (!sectorOk(b, s, u, h)) continue;
    const here = listAt(occ, h).map((x) => b.units[x]!.prof);
    if (stackLegal([...here, prof]) && nationsMayStack([...here, prof])) out.push(h);
  }
  return out.sort((x, y) => x - y);
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
  const t = b.units[u]!.prof.type;
  return isInfantry(t) && s.sup[u] === 0 && s.ent[u]! < 2 && (s.flg[u]! & FLAG.MOVED) === 0 && fortAt(s, s.hex[u]!) < 0;
}

function movable(b: Board, s: EaState, side: SideNo): number[] {
  const out: number[] = [];
  for (let u = 0; u < s.hex.length; u++) {
    if (s.hex[u]! < 0 || b.units[u]!.side !== side || b.units[u]!.prof.type === 'air' || (s.flg[u]! & FLAG.MOVED) !== 0) continue;
    out.push(u);
  }
  return out;
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
  const hexes = new Set<number>();
  for (let u = 0; u < s.hex.length; u++) {
    const h = s.hex[u]!;
    if (h >= 0 && b.units[u]!.side === enemy && b.units[u]!.prof.type !== 'air' && (s.flg[u]! & FLAG.DEFENDED) === 0) hexes.add(h);
  }
  for (let i = 0; i < s.forts.length; i += 3) if (s.forts[i + 1] === enemy) hexes.add(s.forts[i]!);
  const occ = occIndex(b, s);
  return [...hexes].filter((h) => !s.hit.includes(h) && mayAttack(b, s, h, occ).some((u) => isInfCav(b.units[u]!.prof.type))).sort((x, y) => x - y);
}

/** The strength, odds and DRMs of the attack being formed (13.64, 14.61, 15, 16, 18.42). */
export function assess(b: Board, s: EaState, hex: number, att: readonly number[]): { col: number; drm: number; att8: number; def8: number; stoss: number; tanks: number; air: number[] } {
  const def = unitsAt(b, s, hex);
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
  // 16.41-16.42: air units of the attacker based within 4 hexes join, at most 2, each with an infantry corps of its nation.
  const air: number[] = [];
  const usedInf = new Map<string, number>();
  for (let u = 0; u < s.hex.length && air.length < 2; u++) {
    const d = b.units[u]!;
    if (d.prof.type !== 'air' || d.side !== s.seg || s.hex[u]! < 0 || (s.flg[u]! & FLAG.AIR_USED) !== 0) continue;
    if (b.map.grid.distance(s.hex[u]!, hex) > 4) continue;
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

function startCombat(b: Board, s: EaState, ev: Events): void {
  const cb = s.cb!;
  const def = unitsAt(b, s, cb.hex);
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
  const a = assess(b, s, cb.hex, cb.att);
  cb.def = def;
  cb.col = a.col;
  cb.drm = a.drm;
  cb.stoss = a.stoss > 0;
  cb.tank = a.tanks > 0;
  cb.air = a.air;
  for (const u of a.air) s.flg[u] = s.flg[u]! | FLAG.AIR_USED;
  for (const u of cb.att) s.flg[u] = s.flg[u]! | FLAG.ATTACKED;
  for (const u of def) s.flg[u] = s.flg[u]! | FLAG.DEFENDED;
  s.ask = { k: 'die', what: 'combat' };
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
      const opts = retreatOptions(b, s, u);
      if (opts.length === 0) {
        fired('13.8');
        eliminate(b, s, u, ev, 'no retreat (13.83)');
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
  // The combat is over.
  for (let u = 0; u < s.flg.length; u++) s.flg[u] = s.flg[u]! & ~FLAG.RETREATED;
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
  if (t.thenDefLoses) cb.todo.splice(1, 0, { t: 'lose', side: (1 - s.seg) as SideNo, factors: cb.attLost, largest: false, stoss: false, tank: false });
}

/** 13.81-13.84: where unit `u` may retreat: one hex, not into enemy ZOC (friends do not negate it) or enemy units, not across sea or lake, not into a neutral; a hex that keeps its supply line no longer if there is one; stacking met where possible. */
function retreatOptions(b: Board, s: EaState, u: number): number[] {
  const side = b.units[u]!.side;
  const from = s.hex[u]!;
  const ezoc = zocOf(b, s, (1 - side) as SideNo);
  const theirs = occupied(b, s, (1 - side) as SideNo);
  const prof = b.units[u]!.prof;
  const ok: number[] = [];
  for (let d = 0; d < 6; d++) {
    const nb = b.map.neighbours[from * 6 + d]!;
    if (nb < 0 || b.mp[nb] === 255 || b.neutral[nb] === 1 || b.sideMp[b.map.grid.sides[from * 6 + d]!] === 255) continue;
    if (theirs[nb] === 1 || ezoc[nb] === 1) continue;
    const f = fortAt(s, nb);
    if (f >= 0 && s.forts[f + 1] !== side) continue;
    ok.push(nb);
  }
  const stacked = ok.filter((h) => {
    const here = unitsAt(b, s, h).map((x) => b.units[x]!.prof);
    return stackLegal([...here, prof]) && nationsMayStack([...here, prof]);
  });
  const pool = stacked; // 13.84: overstacking only without alternative; the excess would retreat again or die, so we only offer hexes that fit
  if (pool.length <= 1) return pool;
  const dist = supplyOf(b, s, side);
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
  const p = b.units[u]!.prof;
  return `#${u} ${p.attack}-${p.defense}-${p.move} ${p.nation} ${p.type}${p.size === 'div' ? ' XX' : ''}`;
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
  const a = s.ask;
  const id = (h: number) => b.map.id(h);
  switch (a.k) {
    case 'move': {
      const out: string[] = [];
      const noRail = b.scen.id === '1918' && s.turn === 0; // 3.67
      let ezoc: Uint8Array | undefined;
      for (const u of movable(b, s, s.seg)) {
        out.push(`move ${u}`);
        if (!noRail && onRail(b, s.hex[u]!) && mayRail(b, s, u, (ezoc ??= zocOf(b, s, (1 - s.seg) as SideNo)))) out.push(`rail ${u}`);
        if (mayEntrench(b, s, u)) out.push(`entrench ${u}`);
      }
      for (const h of avTargets(b, s)) out.push(`av ${id(h)}`); // 12
      out.push('done');
      return out;
    }
    case 'to':
      return [...a.opts.map((h) => `to ${id(h)}`), 'stay'];
    case 'deploy':
      return a.opts.map((h) => `deploy ${id(h)}`);
    case 'buy':
      return [...a.opts.map((u) => `buy ${u}`), 'done'];
    case 'place':
      return a.opts.map((h) => `at ${id(h)}`);
    case 'attack':
      return [...targets(b, s).map((h) => `attack ${id(h)}`), 'done'];
    case 'with': {
      const cb = s.cb!;
      const out = mayAttack(b, s, cb.hex)
        .filter((u) => !cb.att.includes(u))
        .map((u) => `with ${u}`);
      const types = cb.att.map((u) => b.units[u]!.prof.type);
      if (cb.att.length && attackMixLegal(types) && assess(b, s, cb.hex, cb.att).col >= 0) out.push('go');
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
      return a.opts.map((h) => `retreat ${id(h)}`);
    case 'advance':
      return [...a.opts.map((u) => `advance ${u}`), 'stay'];
    default:
      return [];
  }
}

/** Whether `choice` is one of `options(b, s)`, checked directly for the frequent kinds (the options of a Movement Phase need a ZOC; one unit's check does not). */
function isLegal(b: Board, s: EaState, choice: string): boolean {
  const a = s.ask;
  const m = /^(move|entrench) (\d+)$/.exec(choice);
  if (a.k === 'move' && m) {
    const u = Number(m[2]);
    if (!(u >= 0 && u < s.hex.length) || String(u) !== m[2] || !movable(b, s, s.seg).includes(u)) return false;
    return m[1] === 'move' || mayEntrench(b, s, u);
  }
  if (a.k === 'move' && choice === 'done') return true;
  if (a.k === 'to') {
    if (choice === 'stay') return true;
    const h = /^to (\d{4})$/.exec(choice) ? b.map.grid.tryIndex(choice.slice(3)) : -1;
    return h >= 0 && a.opts.includes(h) && b.map.id(h) === choice.slice(3);
  }
  return options(b, s).includes(choice);
}

/** Who decides now. */
export function decider(s: EaState): SideNo {
  const a = s.ask;
  if (a.k === 'lose') return a.side;
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
  if (!isLegal(b, s, choice)) {
    const opts = options(b, s);
    throw new IllegalChoiceError(`'${choice}' is not an option now; the options are: ${opts.slice(0, 12).join(', ')}${opts.length > 12 ? ', ...' : ''}`);
  }
  const [verb, arg] = choice.split(' ');
  const hexArg = () => b.map.hex(arg!);
  switch (verb) {
    case 'move': {
      const u = Number(arg);
      const plan = movePlan(b, s, u);
      s.ask = plan.via.some((v) => v.length) ? { k: 'to', u, opts: plan.opts, via: plan.via } : { k: 'to', u, opts: plan.opts };
      return;
    }
    case 'rail': {
      const u = Number(arg);
      s.ask = { k: 'to', u, opts: railDestinations(b, s, u), rail: true };
      return;
    }
    case 'to': {
      const t = a as { u: number; rail?: true };
      if (t.rail) {
        const u = t.u;
        const from = s.hex[u]!;
        const net = railNet(b, u);
        s.rail[net] = (s.rail[net] ?? 0) + corpsHalves(b.units[u]!.prof);
        s.hex[u] = hexArg();
        s.ent[u] = 0;
        s.flg[u] = s.flg[u]! | FLAG.MOVED;
        fired('9');
        emit(ev, 'rail', SIDE_IDS[s.seg], `${label(b, u)} rails ${b.map.id(from)} -> ${arg}`, { unit: u, from: b.map.id(from), to: arg! });
      } else {
        const to = hexArg();
        const via = (a as { via?: number[][] }).via;
        moveUnit(b, s, t.u, to, via?.[(a as { opts: number[] }).opts.indexOf(to)] ?? [], ev);
      }
      s.ask = { k: 'move' };
      return;
    }
    case 'stay':
      if (a.k === 'advance' && a.av) s.ask = { k: 'move' };
      else if (a.k === 'to') {
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
      deployUnit(b, s, (a as { u: number }).u, hexArg());
      if (!askDeploy(b, s, s.seg) && !(s.seg === 1 && askDeploy(b, s, 0))) start(b, s, ev); // 3.4: the Allies first
      return;
    case 'buy':
      if (!buy(b, s, Number(arg), ev)) endReinforcement(b, s, ev);
      return;
    case 'at':
      placeReplacement(b, s, (a as { u: number }).u, hexArg(), ev);
      if (!askBuy(b, s)) endReinforcement(b, s, ev);
      return;
    case 'done':
      if (a.k === 'buy') endReinforcement(b, s, ev);
      else if (a.k === 'move') {
        s.phase = 'combat';
        s.ask = { k: 'attack' };
      } else endSegment(b, s, ev);
      return;
    case 'attack':
      s.hit.push(hexArg());
      s.cb = { hex: hexArg(), att: [], def: [], col: 0, drm: 0, stoss: false, tank: false, air: [], todo: [], attLost: 0 };
      s.ask = { k: 'with' };
      return;
    case 'with':
      if (a.k === 'av') s.ask = { k: 'av', hex: a.hex, att: [...a.att, Number(arg)] };
      else s.cb!.att.push(Number(arg));
      return;
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
      } else startCombat(b, s, ev);
      return;
    case 'av':
      s.ask = { k: 'av', hex: hexArg(), att: [] };
      return;
    case 'lose': {
      const t = s.cb!.todo.shift() as Extract<Todo, { t: 'lose' }>;
      takeLosses(b, s, t, arg!.split(',').map(Number), ev);
      runTodo(b, s, ev);
      return;
    }
    case 'retreat':
      retreatUnit(b, s, (a as { u: number }).u, hexArg(), ev);
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
