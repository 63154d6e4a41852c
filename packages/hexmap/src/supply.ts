/**
 * Supply as distance from the sources, for every hex of a side at once: first the rail network joined
 * to a source (any length, stricter blocking), then an overland breadth-first search of limited length
 * from all of those hexes. Tracing from the sources outward serves every unit of the side in one pass.
 */
import type { HexTest } from './hex-test.ts';
import { SideFeature, type HexMap } from './map.ts';

/** A side's supply rules for one search. */
export interface SupplyRules {
  /** Supply source hexes. */
  sources: ArrayLike<number>;
  /** How many entries of `sources` to use (default all). */
  sourceCount?: number;
  /** Longest overland path, in hexes. */
  limit: number;
  /** Hexes an overland path may not enter (e.g. enemy ZOC where no friendly unit is). */
  blocked?: HexTest;
  /** Whether an overland path may cross `side` from `from` to `to` (default: always). */
  crosses?: (from: number, to: number, side: number) => boolean;
  /** Rail phase: `false` to skip it; otherwise hexes a rail path may not enter (the stricter rule). */
  rail?: false | { blocked?: HexTest };
}

/** Reusable supply search over one map; a run allocates nothing and its results last until the next run. */
export class SupplySearch {
  readonly map: HexMap;
  /** Number of supplied hexes: the first `count` entries of `hexes`. */
  count = 0;
  /** Supplied hexes: sources, then rail-connected hexes, then overland ones by distance. */
  readonly hexes: Int32Array;
  /** Overland steps to the nearest source or rail-connected hex (0 on them); -1 out of supply. */
  readonly dist: Int32Array;
  /** 1 for sources and hexes joined to one by rail. */
  readonly railConnected: Uint8Array;
  /** Next hex towards the supply (-1 on sources and unsupplied hexes). */
  readonly parent: Int32Array;

  constructor(map: HexMap) {
    this.map = map;
    this.hexes = new Int32Array(map.size);
    this.dist = new Int32Array(map.size).fill(-1);
    this.railConnected = new Uint8Array(map.size);
    this.parent = new Int32Array(map.size).fill(-1);
  }

  run(rules: SupplyRules): this {
    const { hexes, dist, railConnected, parent } = this;
    for (let i = 0; i < this.count; i++) {
      const h = hexes[i] as number;
      dist[h] = -1;
      railConnected[h] = 0;
      parent[h] = -1;
    }
    const onMap = this.map.onMap;
    const nbs = this.map.neighbours;
    const sides = this.map.grid.sides;
    const feat = this.map.sideFeatures;
    let tail = 0;
    const n = Math.min(rules.sourceCount ?? rules.sources.length, rules.sources.length);
    for (let i = 0; i < n; i++) {
      const s = rules.sources[i] as number;
      if (s < 0 || onMap[s] !== 1 || dist[s] !== -1) continue;
      dist[s] = 0;
      railConnected[s] = 1;
      hexes[tail++] = s;
    }
    // Phase 1: the rail network joined to the sources.
    if (rules.rail !== false) {
      const rb = rules.rail?.blocked;
      const mask = rb instanceof Uint8Array ? rb : undefined;
      const fn = typeof rb === 'function' ? rb : undefined;
      for (let head = 0; head < tail; head++) {
        const h = hexes[head] as number;
        const base = h * 6;
        for (let d = 0; d < 6; d++) {
          const nb = nbs[base + d] as number;
          if (nb < 0 || dist[nb] !== -1 || ((feat[sides[base + d] as number] as number) & SideFeature.RAIL) === 0) continue;
          if (mask ? mask[nb] !== 0 : fn !== undefined && fn(nb)) continue;
          dist[nb] = 0;
          railConnected[nb] = 1;
          parent[nb] = h;
          hexes[tail++] = nb;
        }
      }
    }
    // Phase 2: overland, breadth-first from every hex so far (all at distance 0).
    const limit = rules.limit;
    const b = rules.blocked;
    const mask = b instanceof Uint8Array ? b : undefined;
    const fn = typeof b === 'function' ? b : undefined;
    const crosses = rules.crosses;
    for (let head = 0; head < tail; head++) {
      const h = hexes[head] as number;
      const next = (dist[h] as number) + 1;
      if (next > limit) continue;
      const base = h * 6;
      for (let d = 0; d < 6; d++) {
        const nb = nbs[base + d] as number;
        if (nb < 0 || dist[nb] !== -1) continue;
        if (mask ? mask[nb] !== 0 : fn !== undefined && fn(nb)) continue;
        if (crosses !== undefined && !crosses(h, nb, sides[base + d] as number)) continue;
        dist[nb] = next;
        parent[nb] = h;
        hexes[tail++] = nb;
      }
    }
    this.count = tail;
    return this;
  }

  /** True when `hex` was within reach of supply in the last run. */
  inSupply(hex: number): boolean {
    return (this.dist[hex] ?? -1) >= 0;
  }

  /** The supply path of the last run from `hex` back to a source (both included); [] when unsupplied. */
  pathFrom(hex: number): number[] {
    if (!this.inSupply(hex)) return [];
    const path: number[] = [];
    for (let h = hex; h !== -1; h = this.parent[h] as number) path.push(h);
    return path;
  }
}
