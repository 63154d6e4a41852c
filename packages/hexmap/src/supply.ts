/**
 * Supply as distance from the sources, for every hex of a side at once: first the rail network joined
 * to a source (any length, stricter blocking), then an overland search of limited length from all of
 * those hexes (breadth-first, or Dijkstra's when steps have costs). Tracing from the sources outward
 * serves every unit of the side in one pass. Sources are always supplied, blocked or not.
 */
import { HexHeap } from './heap.ts';
import type { HexTest } from './hex-test.ts';
import type { HexMap } from './map.ts';

/** A side's supply rules for one search. */
export interface SupplyRules {
  /** Supply source hexes. */
  sources: ArrayLike<number>;
  /** How many entries of `sources` to use (default all). */
  sourceCount?: number | undefined;
  /** Longest overland path: in hexes, or in summed `stepCost` when that is given. */
  limit: number;
  /**
   * Cost of an overland step into `to` (e.g. 1.5 into forest, 2 into an enemy ZOC held by a friend);
   * Infinity forbids it. Default 1 a hex, searched breadth-first; given, the overland phase is Dijkstra's.
   */
  stepCost?: ((from: number, to: number, side: number) => number) | undefined;
  /** Hexes an overland path may not enter (e.g. enemy ZOC where no friendly unit is). */
  blocked?: HexTest | undefined;
  /** Whether an overland path may cross `side` from `from` to `to` (default: always). */
  crosses?: ((from: number, to: number, side: number) => boolean) | undefined;
  /** Rail phase: `false` to skip it; otherwise hexes a rail path may not enter (the stricter rule). */
  rail?: false | { blocked?: HexTest | undefined } | undefined;
}

/** Reusable supply search over one map; a run allocates nothing and its results last until the next run. */
export class SupplySearch {
  readonly map: HexMap;
  /** Number of supplied hexes: the first `count` entries of `hexes`. */
  count = 0;
  /** Supplied hexes: sources, then rail-connected hexes, then overland ones by distance. */
  readonly hexes: Int32Array;
  /** Overland hexes on the path to the nearest source or rail-connected hex (0 on them); -1 out of supply. */
  readonly dist: Int32Array;
  /** Overland cost of that path (= `dist` without `stepCost`); Infinity out of supply. */
  readonly cost: Float64Array;
  /** 1 for sources and hexes joined to one by rail. */
  readonly railConnected: Uint8Array;
  /** Next hex towards the supply (-1 on sources and unsupplied hexes). */
  readonly parent: Int32Array;
  /** An all-zero mask: "nothing blocked". */
  private readonly open: Uint8Array;
  private readonly done: Uint8Array;
  private readonly heap: HexHeap;

  constructor(map: HexMap) {
    this.map = map;
    this.open = new Uint8Array(map.size);
    this.done = new Uint8Array(map.size);
    this.heap = new HexHeap(map.size * 6 + 1);
    this.cost = new Float64Array(map.size).fill(Infinity);
    this.hexes = new Int32Array(map.size);
    this.dist = new Int32Array(map.size).fill(-1);
    this.railConnected = new Uint8Array(map.size);
    this.parent = new Int32Array(map.size).fill(-1);
  }

  run(rules: SupplyRules): this {
    const { hexes, dist, cost, railConnected, parent, done } = this;
    if (this.count > hexes.length >> 3) {
      // Clearing whole arrays is a memset, faster than scattered writes once many hexes were touched.
      dist.fill(-1);
      cost.fill(Infinity);
      railConnected.fill(0);
      parent.fill(-1);
      done.fill(0);
    } else {
      for (let i = 0; i < this.count; i++) {
        const h = hexes[i] as number;
        dist[h] = -1;
        cost[h] = Infinity;
        railConnected[h] = 0;
        parent[h] = -1;
        done[h] = 0;
      }
    }
    const onMap = this.map.onMap;
    const nbs = this.map.neighbours;
    const sides = this.map.grid.sides;
    let tail = 0;
    const n = Math.min(rules.sourceCount ?? rules.sources.length, rules.sources.length);
    for (let i = 0; i < n; i++) {
      const s = rules.sources[i] as number;
      if (s < 0 || onMap[s] !== 1 || dist[s] !== -1) continue;
      dist[s] = 0;
      cost[s] = 0;
      railConnected[s] = 1;
      hexes[tail++] = s;
    }
    // Phase 1: the rail network joined to the sources.
    if (rules.rail !== false) {
      const rb = rules.rail?.blocked;
      const fn = typeof rb === 'function' ? rb : undefined;
      const m = rb instanceof Uint8Array ? rb : this.open;
      const railDirs = this.map.railDirections;
      for (let head = 0; head < tail; head++) {
        const h = hexes[head] as number;
        const dirs = railDirs[h] as number;
        if (dirs === 0) continue;
        const base = h * 6;
        for (let d = 0; d < 6; d++) {
          if ((dirs & (1 << d)) === 0) continue;
          const nb = nbs[base + d] as number;
          if (dist[nb] !== -1 || m[nb] !== 0 || (fn !== undefined && fn(nb))) continue;
          dist[nb] = 0;
          cost[nb] = 0;
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
    if (rules.stepCost !== undefined) {
      this.count = this.weighted(tail, limit, mask, fn, crosses, rules.stepCost);
      return this;
    }
    if (fn === undefined && crosses === undefined) {
      // The common case (a mask or nothing) in a loop with no calls and no mode tests per step.
      const m = mask ?? this.open;
      for (let head = 0; head < tail; head++) {
        const h = hexes[head] as number;
        const next = (dist[h] as number) + 1;
        if (next > limit) continue;
        const base = h * 6;
        for (let d = 0; d < 6; d++) {
          const nb = nbs[base + d] as number;
          if (nb < 0 || dist[nb] !== -1 || m[nb] !== 0) continue;
          dist[nb] = next;
          cost[nb] = next;
          parent[nb] = h;
          hexes[tail++] = nb;
        }
      }
    } else {
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
          cost[nb] = next;
          parent[nb] = h;
          hexes[tail++] = nb;
        }
      }
    }
    this.count = tail;
    return this;
  }

  /** Overland phase by Dijkstra from the `tail` hexes found so far (all at cost 0); returns the new count. */
  private weighted(
    tail: number,
    limit: number,
    mask: Uint8Array | undefined,
    fn: ((hex: number) => boolean) | undefined,
    crosses: ((from: number, to: number, side: number) => boolean) | undefined,
    stepCost: (from: number, to: number, side: number) => number,
  ): number {
    const { hexes, dist, cost, parent, done, heap } = this;
    const nbs = this.map.neighbours;
    const sides = this.map.grid.sides;
    heap.clear();
    const seeds = tail;
    for (let i = 0; i < seeds; i++) done[hexes[i] as number] = 1;
    for (let i = 0; ; ) {
      let h: number;
      if (i < seeds) h = hexes[i++] as number;
      else {
        if (heap.size === 0) break;
        h = heap.pop();
        if (done[h] === 1 || heap.poppedKey > (cost[h] as number)) continue;
        done[h] = 1;
        hexes[tail++] = h;
      }
      const k = cost[h] as number;
      const base = h * 6;
      for (let d = 0; d < 6; d++) {
        const nb = nbs[base + d] as number;
        if (nb < 0 || done[nb] === 1) continue;
        if (mask ? mask[nb] !== 0 : fn !== undefined && fn(nb)) continue;
        const side = sides[base + d] as number;
        if (crosses !== undefined && !crosses(h, nb, side)) continue;
        const nk = k + stepCost(h, nb, side);
        if (nk > limit || nk >= (cost[nb] as number)) continue;
        cost[nb] = nk;
        dist[nb] = (dist[h] as number) + 1;
        parent[nb] = h;
        heap.push(nb, nk);
      }
    }
    return tail;
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
