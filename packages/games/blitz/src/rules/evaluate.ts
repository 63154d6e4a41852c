/**
 * The evaluation search bots look ahead with (`Game.model.evaluate`: greedy's one ply, mcts's leaves,
 * the planner's genomes). A heuristic for bots, not a rule of the game: it scores a position from
 * `power`'s side, as a sum of terms (every term is counted for the Axis and negated for the Allies):
 *
 * | term | weight | why |
 * |---|---|---|
 * | win / loss | ±1000 | dominates everything else |
 * | key areas held | the area's key weight (A: Paris and Poland 25; B: the German areas 25; D-F and the full game: the Victory Card areas, below); other areas 3 | what decides the scenario (8; victory.ts) |
 * | material | unit Size + ½ its factors; a land unit out of supply (1.7) counts ½ of that | losses count; a cut-off unit cannot move or attack and gives the attackers two white triangles (6.2) |
 * | material balance | 15 × (ours − theirs) / (ours + theirs) | the side ahead gains by trading evenly: trading well counts, not only the sum |
 * | fronts | ½ × key weight × pressure on each key area | pressure = a / (a + 3d + 1), a the land factors of the other side next to it with the triangles of the holder's units there as 6.2 counts them for attackers (white add, two per unit out of supply, red take away; the Maginot Line's red ones only in the share of a from Germany, 5.3), d the holder's land factors in it (+ ½ of those next to it); diminishing in a, and an empty key area with enemy stacks next to it is all but lost |
 * | supply of key areas | ¼ × key weight | a key area whose holder's units there are out of supply (1.7) is cut off: it will fall |
 * | approach | 1.5 / (1 + distance to the nearest key area) per land unit | stacks that close on the objectives (to take or to hold them) are worth a little more |
 * | announced attacks | odds × (12 on a key area, 2 elsewhere) for the attacking side (½ for the side that holds: the Allies in A, the Axis elsewhere) | an attack declared but not yet resolved is credited with its rough odds |
 * | victory points (C-F, full) | 20 per VP; C's Convoy damage −15 a point | the scenario's own score |
 *
 * Key weights for the Victory Card scenarios (8, D.11): an area a control-count objective lists 10 (for
 * whichever side holds it: one side wants it, the other must deny it); an area a factories-intact
 * objective lists 10; any other Factory area 4 + 2 × its Factory Factor (Control Industrial Might).
 *
 * What does not depend on the position (key areas, their neighbours, distances) is worked out once per
 * pack and scenario. Supply is the rules' own (supply.ts `suppliedAreas`), asked once per power and home
 * country per position, and only where the scenario uses supply lines; a land unit in a friendly area of
 * its own or its power's home countries is in supply without asking (1.7: that area is a source).
 * Cost of one evaluation against the evaluation before issue 31 (CPU time, 150 positions of random
 * games each): A 1.05x, D 2.2x (the supply lines); whole greedy games on D cost about 1.1x.
 */
import { landDef, scenarioDef, type PackIndex } from './pack-index.ts';
import { controllerSide, enterReadOnly, face, isLand, landNeighbours, leaveReadOnly, onMap, sideOf } from './query.ts';
import type { BlitzState, SideId } from './state.ts';
import { homeCountries, suppliedAreas, unitHome, usesSupply } from './supply.ts';

/** Weights of the terms, named as the table above names them. */
export const EVAL_WEIGHTS = {
  win: 1000,
  keyA: 25,
  otherArea: 3,
  vcArea: 10,
  factoryBase: 4,
  factoryPerFactor: 2,
  outOfSupply: 0.5,
  balance: 15,
  front: 0.5,
  cutKey: 0.25,
  approach: 1.5,
  vp: 20,
  convoy: 15,
} as const;
const W = EVAL_WEIGHTS;

/** What the evaluation keeps per pack and scenario. */
interface Keys {
  /** Key areas in play with their weights, in name order. */
  areas: string[];
  weight: Map<string, number>;
  /** Slot of each key area and each of its land neighbours (`near` lists a key area's neighbour slots). */
  slot: Map<string, number>;
  near: number[][];
  /** Land-graph distance from every area to the nearest key area (or, without key areas, the German areas). */
  dist: Map<string, number>;
  /** The country of each slot's area. */
  country: string[];
}

const keysCache = new Map<string, Keys>();

/** Key areas and their weights: see the doc comment above. */
function keyWeights(p: PackIndex, s: BlitzState): Map<string, number> {
  const def = scenarioDef(p, s.scenario);
  const inPlay = new Set(def.lands);
  const w = new Map<string, number>();
  const put = (l: string, x: number) => {
    if (inPlay.has(l)) w.set(l, Math.max(w.get(l) ?? 0, x));
  };
  if (s.scenario === 'A') for (const l of ['paris', 'poland']) put(l, W.keyA);
  else if (s.scenario === 'B') for (const l of p.countryLands.get('germany') ?? []) put(l, W.keyA);
  else if (def.victory) {
    for (const o of def.victory.objectives) {
      if (o.kind === 'control-count' || o.kind === 'factories-intact') for (const l of o.areas ?? []) put(l, W.vcArea);
      if (o.kind === 'industrial-might') for (const l of def.lands) if (landDef(p, l).factory) put(l, W.factoryBase + W.factoryPerFactor * landDef(p, l).factory!);
    }
  }
  return w;
}

function keysOf(p: PackIndex, s: BlitzState): Keys {
  const cacheKey = `${p.hash}|${s.scenario}`;
  let k = keysCache.get(cacheKey);
  if (k) return k;
  const weight = keyWeights(p, s);
  const areas = [...weight.keys()].sort();
  const slot = new Map<string, number>();
  const slotOf = (l: string) => {
    let i = slot.get(l);
    if (i === undefined) slot.set(l, (i = slot.size));
    return i;
  };
  for (const a of areas) slotOf(a);
  const near = areas.map((a) => landNeighbours(p, s, a).map((n) => slotOf(n.to)));
  // Without key areas (C), the approach term closes on the German areas, as it always has.
  const goals = areas.length ? areas : (p.countryLands.get('germany') ?? []).filter((l) => l in s.control);
  const dist = new Map(goals.map((o) => [o, 0]));
  const queue = [...dist.keys()];
  for (let qi = 0; qi < queue.length; qi++) {
    const n = queue[qi]!;
    for (const { to } of landNeighbours(p, s, n)) {
      if (!dist.has(to)) {
        dist.set(to, dist.get(n)! + 1);
        queue.push(to);
      }
    }
  }
  const country: string[] = [];
  for (const [l, i] of slot) country[i] = landDef(p, l).country;
  keysCache.set(cacheKey, (k = { areas, weight, slot, near, dist, country }));
  return k;
}

/** Home countries per power (1.1: of its nations), per pack and scenario. */
const homesCache = new Map<string, Set<string>>();
function homesOf(p: PackIndex, s: BlitzState, power: string): Set<string> {
  const key = `${p.hash}|${s.scenario}|${power}`;
  let h = homesCache.get(key);
  if (!h) homesCache.set(key, (h = homeCountries(p, s, power)));
  return h;
}

/** Distance of a location to the nearest key area; a unit aboard a TRS at sea is one step from its coasts. */
function reach(p: PackIndex, s: BlitzState, at: string, dist: Map<string, number>): number {
  let loc = at;
  if (loc.startsWith('trs:')) loc = s.units[loc.slice(4)]?.at ?? loc;
  // Only coasts in play count: areas outside the scenario are no one's objective.
  if (loc.startsWith('sea:')) return 1 + Math.min(4, ...[...(p.coastOf.get(loc.slice(4)) ?? [])].filter((l) => l in s.control).map((l) => dist.get(l) ?? 4));
  return dist.get(loc) ?? 4;
}

/** Pressure on an area: `a` land factors against it, `d` holding it; 0 with nothing against, near 1 when `d` is 0. */
export const pressure = (a: number, d: number): number => (a <= 0 ? 0 : a / (a + 3 * d + 1));

/** Scratch per slot: land factors of the Axis and of the Allies, and whether the Axis or Allied units there are cut off. */
let axisF = new Float64Array(64);
let alliesF = new Float64Array(64);
let cutAxis = new Uint8Array(64);
let cutAllies = new Uint8Array(64);
/**
 * Per slot, 6.2's triangles on the land units there, as they count for attackers: white ones (and two
 * per unit out of supply, 1.7) add, red ones take away; `redOnly` are the red ones that count only
 * against attackers all from the countries `redFrom` lists (the Maginot Line map note, 5.3).
 */
let triWhite = new Float64Array(64);
let triRed = new Float64Array(64);
let triRedOnly = new Float64Array(64);
const redFrom: (readonly string[] | undefined)[] = [];

export function evaluate(p: PackIndex, s: BlitzState, power: string): number {
  const side = sideOf(p, s, power);
  if (s.winner) return s.winner === side ? W.win : -W.win;
  const opened = enterReadOnly(s);
  try {
    return (side === 'Axis' ? 1 : -1) * axisValue(p, s);
  } finally {
    leaveReadOnly(opened);
  }
}

/** The position's value for the Axis (the Allies' is its negation). */
function axisValue(p: PackIndex, s: BlitzState): number {
  const k = keysOf(p, s);
  const sign = (x: SideId) => (x === 'Axis' ? 1 : -1);
  const n = k.slot.size;
  if (axisF.length < n) {
    axisF = new Float64Array(n);
    alliesF = new Float64Array(n);
    cutAxis = new Uint8Array(n);
    cutAllies = new Uint8Array(n);
    triWhite = new Float64Array(n);
    triRed = new Float64Array(n);
    triRedOnly = new Float64Array(n);
  }
  triWhite.fill(0, 0, n);
  triRed.fill(0, 0, n);
  triRedOnly.fill(0, 0, n);
  axisF.fill(0, 0, n);
  alliesF.fill(0, 0, n);
  cutAxis.fill(0, 0, n);
  cutAllies.fill(0, 0, n);
  const supply = usesSupply(p, s);
  const reached = new Map<string, ReadonlySet<string>>();
  let v = 0;
  let axisMat = 0;
  let alliesMat = 0;
  for (const [, u] of onMap(s)) {
    const f = face(p, u);
    const us = sideOf(p, s, u.power);
    const land = isLand(p, u);
    // 1.7: at sea or aboard a TRS at sea a unit is always in supply; otherwise its line must reach its area.
    let cut = false;
    if (supply && land && !u.at.startsWith('sea:') && !u.at.startsWith('trs:')) {
      const home = unitHome(p, s, u.def);
      // 1.7: a friendly area of one of its power's home countries, or of its own, is a source itself.
      const country = landDef(p, u.at).country;
      if ((country === home || homesOf(p, s, u.power).has(country)) && controllerSide(p, s, u.at) === us) cut = false;
      else {
        const key = `${u.power}|${home}`;
        let r = reached.get(key);
        if (!r) reached.set(key, (r = suppliedAreas(p, s, u.power, home, 'unit')));
        cut = !r.has(u.at);
      }
    }
    const worth = (u.size + 0.5 * ((f.land ?? 0) + (f.air ?? 0) + (f.naval ?? 0))) * (cut ? W.outOfSupply : 1);
    if (us === 'Axis') axisMat += worth;
    else alliesMat += worth;
    if (!land) continue;
    v += sign(us) * (W.approach / (1 + reach(p, s, u.at, k.dist)));
    const i = k.slot.get(u.at);
    if (i === undefined) continue;
    const tri = f.triangles?.land;
    if (tri || cut) {
      triWhite[i] = triWhite[i]! + (tri?.white ?? 0) + (cut ? 2 : 0);
      const only = p.unit.get(u.def)?.redTrianglesFrom;
      if (only) {
        triRedOnly[i] = triRedOnly[i]! + (tri?.red ?? 0);
        redFrom[i] = only;
      } else triRed[i] = triRed[i]! + (tri?.red ?? 0);
    }
    const lf = (f.land ?? 0) * (cut ? W.outOfSupply : 1);
    if (us === 'Axis') {
      axisF[i] = axisF[i]! + lf;
      if (cut) cutAxis[i] = 1;
    } else {
      alliesF[i] = alliesF[i]! + lf;
      if (cut) cutAllies[i] = 1;
    }
  }
  v += axisMat - alliesMat;
  if (axisMat + alliesMat > 0) v += (W.balance * (axisMat - alliesMat)) / (axisMat + alliesMat);
  for (const land in s.control) {
    const c = s.control[land]!;
    if (c === 'neutral') continue;
    v += sign(sideOf(p, s, c)) * (k.weight.get(land) ?? W.otherArea);
  }
  // Fronts: the pressure on each key area from the land factors next to it, against its holder's.
  for (let ki = 0; ki < k.areas.length; ki++) {
    const area = k.areas[ki]!;
    const c = s.control[area];
    if (c === undefined || c === 'neutral') continue;
    const holder = sideOf(p, s, c);
    const w = k.weight.get(area)!;
    let axisNear = 0;
    let alliesNear = 0;
    // The attackers' factors next to it from the countries the red-only triangles name.
    let fromOnly = 0;
    const only = triRedOnly[ki]! > 0 ? redFrom[ki] : undefined;
    for (const j of k.near[ki]!) {
      axisNear += axisF[j]!;
      alliesNear += alliesF[j]!;
      if (only?.includes(k.country[j]!)) fromOnly += holder === 'Axis' ? alliesF[j]! : axisF[j]!;
    }
    const against = holder === 'Axis' ? alliesNear : axisNear;
    // 6.2: the triangles of the holder's units count for or against attackers (red-only ones in the
    // share of the attack that comes from the countries they name).
    const tri = triWhite[ki]! - triRed[ki]! - (against > 0 ? (triRedOnly[ki]! * fromOnly) / against : 0);
    const a = against > 0 ? Math.max(0, against + tri) : 0;
    if (holder === 'Axis') {
      v -= W.front * w * pressure(a, axisF[ki]! + 0.5 * axisNear);
      if (cutAxis[ki]) v -= W.cutKey * w;
    } else {
      v += W.front * w * pressure(a, alliesF[ki]! + 0.5 * alliesNear);
      if (cutAllies[ki]) v += W.cutKey * w;
    }
  }
  // C: victory points so far, and the Convoy damage that will score at this turn's end.
  for (const pw in s.vp ?? {}) v += sign(sideOf(p, s, pw)) * W.vp * s.vp![pw]!;
  for (const c of p.files.map.convoys ?? []) {
    const dmg = s.convoys?.[c.id] ?? 0;
    const owner = scenarioDef(p, s.scenario).powers.find((x) => x.nations.includes(c.nation));
    if (dmg && owner) v -= sign(owner.side) * W.convoy * dmg;
  }
  // The side that must take the objectives (A: the Axis; otherwise the Allies, as B has it).
  const atk: SideId = s.scenario === 'A' ? 'Axis' : 'Allies';
  for (const a of s.attacks) {
    if (a.resolved) continue;
    const lf = (ids: string[]) => ids.reduce((t, x) => t + (s.units[x] && s.units[x]!.size > 0 ? (face(p, s.units[x]!).land ?? 0) : 0), 0);
    const att = lf([...a.attackers, ...a.dropped]);
    const def = onMap(s).filter(([, u]) => u.at === a.target && isLand(p, u)).reduce((t, [, u]) => t + (face(p, u).land ?? 0), 0);
    const odds = att / (att + def + 1);
    v += sign(s.side) * odds * (k.weight.has(a.target) ? 12 : 2) * (s.side === atk ? 1 : 0.5);
  }
  return v;
}
