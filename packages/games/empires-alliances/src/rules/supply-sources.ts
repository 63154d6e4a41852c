/**
 * 14.3-14.4 Supply sources: which hexes a side traces supply to, and how many units each feeds.
 *
 * - **Full sources (14.3)**: the major cities of the side's home countries (or an ally's, `Board.home`)
 *   that it controls, free of enemy units and enemy ZOC, joined to one another by rail hexes it may use
 *   (controlled, of its own gauge (10, ruling rail-railhead), free of enemy units and enemy ZOC); each
 *   rail-joined group of three or more such cities is a network and feeds any number of units.
 *   14.31 (London) is added by the sea rules (see `fullExtras`).
 * - **Limited sources (14.4)**: every other city of those countries that the side controls, as long as
 *   some adjacent non-neutral land hex is free of enemy units and enemy ZOC; a major city feeds 6 corps
 *   (14.41), a minor 3 (14.42), an Off-Board Box 6 (14.43). Units count in corps halves (units.ts
 *   `corpsHalves`: non-US divisions and 1-factor artillery ½). Other limited sources (14.5 sea supply)
 *   join through `LimitedSource` (see `limitedExtras`).
 *
 * Whether a hex can trace a supply path (14.2, `supplyOf`) does not depend on capacity: it is traced
 * from every source at once (`SourceSet.all`). Capacity decides which units are in supply in the Supply
 * and Administrative Phases (14.1): `unitSupply` feeds first every unit that reaches a full source, then
 * shares the limited sources out by the ruling `limited-overload` (rulings.ts).
 *
 * Nothing here is cached: flow.ts calls `sourcesOf` inside its cached supply trace (`supplyDist`), and
 * `unitSupply` only in the two phases that mark units.
 */
import type { SupplySearch } from '@salient/hexmap';
import type { Board, SideNo } from './board.ts';
import type { Fast } from './fast.ts';
import type { EaState } from './state.ts';

/** A capacity-limited supply source (14.4, and 14.5 sea supply): the hexes traced to, and how many corps halves it feeds. */
export interface LimitedSource {
  /** The hexes a unit traces to (a city; for sea supply, the side's ports). */
  hexes: readonly number[];
  /** Capacity in corps halves (14.41 major city 12, 14.42 minor city 6, 14.43 box 12). */
  halves: number;
  /** The rule it comes from, for the account (`14.41`, `14.42`, `14.43`, `14.53`). */
  rule: string;
}

/** A side's supply sources as things stand. */
export interface SourceSet {
  /** 14.3 (and 14.31) full sources: unlimited. */
  full: number[];
  /** 14.4 (and 14.5) limited sources. */
  limited: LimitedSource[];
  /** Every source hex (full, then limited), for the path trace (14.2). */
  all: number[];
}

/** What the source rules read from the position, computed by the caller (flow.ts) and shared with it. */
export interface SourceInputs {
  /** Enemy ZOC (5). */
  ezoc: Uint8Array;
  /** Enemy ground units by hex. */
  theirs: Uint8Array;
  /** Control by hex (4.2). */
  control: Int8Array;
  /** The rail gauge by hex (10, railheads.ts). */
  gauge: Int8Array;
}

/** 14.41-14.43: capacities in corps halves. */
export const CAPACITY_HALVES = { major: 12, minor: 6, box: 12 } as const;

/** Per-board scratch: a component label per hex and a queue. */
interface Scratch {
  comp: Int32Array;
  stamp: Uint32Array;
  gen: number;
  queue: Int32Array;
  /** The side's home cities: hex and whether major, per side. */
  home: [{ hex: number; major: boolean }[], { hex: number; major: boolean }[]];
}
const scratches = new WeakMap<Board, Scratch>();

function scratchOf(b: Board): Scratch {
  let x = scratches.get(b);
  if (x) return x;
  const home = ([0, 1] as const).map((side) =>
    b.map.cities.filter((c) => b.home[side].has(b.map.countryCode(c.hex) ?? '')).map((c) => ({ hex: c.hex, major: c.size === 'major' })).sort((p, q) => p.hex - q.hex),
  ) as Scratch['home'];
  x = { comp: new Int32Array(b.map.size), stamp: new Uint32Array(b.map.size), gen: 0, queue: new Int32Array(b.map.size), home };
  scratches.set(b, x);
  return x;
}

/** The side's home cities (hex ascending), as `sourcesOf` reads them (vp-supply.ts watches them and their neighbours). */
export function homeCities(b: Board, side: SideNo): readonly { hex: number; major: boolean }[] {
  return scratchOf(b).home[side];
}

/** 9.0/10: a rail hex `side` may trace along: of its gauge, controlled, free of enemy units and ZOC, not neutral. */
const railUsable = (b: Board, x: SourceInputs, h: number, side: number): boolean =>
  b.map.railDirections[h] !== 0 && x.gauge[h] === side && x.control[h] === side && x.ezoc[h] === 0 && x.theirs[h] === 0 && b.neutral[h] === 0;

/**
 * 14.4: a city stops being a limited source when every adjacent non-neutral land hex holds an enemy
 * unit or lies in enemy ZOC. True while at least one such hex is free.
 */
export function limitedOpen(b: Board, x: SourceInputs, h: number): boolean {
  const nbs = b.map.neighbours;
  for (let d = 0; d < 6; d++) {
    const nb = nbs[h * 6 + d]!;
    if (nb < 0 || b.mp[nb] === 255 || b.neutral[nb] === 1) continue;
    if (x.theirs[nb] === 0 && x.ezoc[nb] === 0) return true;
  }
  return false;
}

/** 14.3-14.4: the side's full and limited sources in this position. */
export function sourcesOf(b: Board, s: EaState, side: SideNo, x: SourceInputs): SourceSet {
  const sc = scratchOf(b);
  const cities = sc.home[side];
  // 14.3: label the rail-joined groups of usable rail hexes that hold an eligible major city, and count the cities in each.
  const gen = (sc.gen = (sc.gen + 1) >>> 0 || 1);
  if (gen === 1) sc.stamp.fill(0);
  const { comp, stamp, queue } = sc;
  const nbs = b.map.neighbours;
  const railDirs = b.map.railDirections;
  const eligible = (h: number): boolean => x.control[h] === side && x.theirs[h] === 0 && x.ezoc[h] === 0;
  const counts: number[] = [];
  for (const c of cities) {
    if (!c.major || !eligible(c.hex) || !railUsable(b, x, c.hex, side)) continue;
    if (stamp[c.hex] === gen) {
      counts[comp[c.hex]!]! += 1;
      continue;
    }
    const id = counts.length;
    counts.push(1);
    let tail = 0;
    queue[tail++] = c.hex;
    stamp[c.hex] = gen;
    comp[c.hex] = id;
    for (let head = 0; head < tail; head++) {
      const h = queue[head]!;
      const dirs = railDirs[h]!;
      for (let d = 0; d < 6; d++) {
        if ((dirs & (1 << d)) === 0) continue;
        const nb = nbs[h * 6 + d]!;
        if (nb < 0 || stamp[nb] === gen || !railUsable(b, x, nb, side)) continue;
        stamp[nb] = gen;
        comp[nb] = id;
        queue[tail++] = nb;
      }
    }
  }
  const full: number[] = [];
  const limited: LimitedSource[] = [];
  for (const c of cities) {
    const h = c.hex;
    if (c.major && stamp[h] === gen && eligible(h) && counts[comp[h]!]! >= 3) {
      full.push(h);
      continue;
    }
    if (x.control[h] !== side || !limitedOpen(b, x, h)) continue;
    limited.push({ hexes: [h], halves: c.major ? CAPACITY_HALVES.major : CAPACITY_HALVES.minor, rule: c.major ? '14.41' : '14.42' });
  }
  // Hook, 14.31: London is a full source too. The sea rules (sea.ts) push its hex onto `full` here while
  // the side holds it; the bundled map has no British hexes yet.
  // Hook, 14.43 and 14.5: Off-Board Boxes and sea supply are further limited sources. The sea rules push a
  // `LimitedSource` onto `limited` here (for sea supply: `hexes` the side's usable ports, `halves` 12 per
  // unused corps of sea capacity, 14.53, `rule` '14.53'); `unitSupply` then shares them out like cities.
  void s;
  const all = full.slice();
  for (const l of limited) for (const h of l.hexes) all.push(h);
  return { full, limited, all };
}

/** How a search over one source set is run: the caller's supply search with the side's path rules in place. */
export type TraceFrom = (sources: readonly number[]) => SupplySearch;

/**
 * One claim for capacity: unit `u` reaches limited source `src` with an overland leg of `dist` hexes
 * (0 when it reaches the source or its rail).
 */
export interface Claim {
  u: number;
  src: number;
  dist: number;
}

/**
 * Ruling limited-overload, reading `nearest-first` (rulings.ts): claims are served nearest first (the
 * shortest overland leg), then by lower unit number, then by the source's place in the list; a unit
 * takes the first source with room left for its corps halves and is then fed. Returns 1 per fed unit.
 */
export function shareLimited(claims: Claim[], capacity: readonly number[], halves: ArrayLike<number>, out: Uint8Array): Uint8Array {
  claims.sort((p, q) => p.dist - q.dist || p.u - q.u || p.src - q.src);
  const left = capacity.slice();
  for (const c of claims) {
    if (out[c.u] === 1) continue;
    const need = halves[c.u]!;
    if (left[c.src]! < need) continue;
    left[c.src] = left[c.src]! - need;
    out[c.u] = 1;
  }
  return out;
}

/**
 * 14.1 with 14.3-14.4: which of `units` (ground units of `side` on the map) are in supply, 1 per unit
 * number. A unit is fed when it reaches a full source, else when a limited source it reaches has room
 * for it (`shareLimited`). `trace` runs the side's 14.2 search from the given sources.
 */
export function unitSupply(s: EaState, f: Fast, set: SourceSet, units: readonly number[], trace: TraceFrom): Uint8Array {
  const out = new Uint8Array(s.hex.length);
  const waiting: number[] = [];
  if (set.full.length) {
    const d = trace(set.full).dist;
    for (const u of units) if (d[s.hex[u]!]! >= 0) out[u] = 1;
    else waiting.push(u);
  } else waiting.push(...units);
  if (!waiting.length || !set.limited.length) return out;
  // Only units that reach some limited source claim capacity; when they need no more than the smallest
  // source holds, no source can run out and every one of them is fed, as the sharing would feed them.
  const any = trace(set.all.slice(set.full.length)).dist;
  const claimants: number[] = [];
  let need = 0;
  for (const u of waiting) {
    if (any[s.hex[u]!]! < 0) continue;
    claimants.push(u);
    need += f.halves[u]!;
  }
  let least = Infinity;
  for (const l of set.limited) least = Math.min(least, l.halves);
  if (need <= least) {
    for (const u of claimants) out[u] = 1;
    return out;
  }
  const claims: Claim[] = [];
  for (let i = 0; i < set.limited.length; i++) {
    const d = trace(set.limited[i]!.hexes).dist;
    for (const u of claimants) {
      const k = d[s.hex[u]!]!;
      if (k >= 0) claims.push({ u, src: i, dist: k });
    }
  }
  return shareLimited(claims, set.limited.map((l) => l.halves), f.halves, out);
}
