/**
 * Rail movement over hexsides marked `SideFeature.RAIL`: a breadth-first search with a hex limit and
 * blocked hexes, rail networks as connected components, and a small capacity counter.
 */
import { HexHeap } from './heap.ts';
import type { HexTest } from './hex-test.ts';
import { SideFeature, type HexMap } from './map.ts';

/** Reusable rail search over one map; a run allocates nothing and its results last until the next run. */
export class RailSearch {
  readonly map: HexMap;
  start = -1;
  /** Number of reached hexes: the first `count` entries of `hexes`. */
  count = 0;
  /** Reached hexes in order of distance (breadth-first, or settling order with `stepCost`), the start first. */
  readonly hexes: Int32Array;
  /** Rail hexes travelled to reach each hex (0 at the start; the sum of step costs with `stepCost`); -1 where not reached. */
  readonly dist: Int32Array;
  /** Hex each was reached from; -1 for the start and unreached hexes. */
  readonly parent: Int32Array;
  private readonly done: Uint8Array;
  private readonly heap: HexHeap;

  constructor(map: HexMap) {
    this.map = map;
    this.hexes = new Int32Array(map.size);
    this.dist = new Int32Array(map.size).fill(-1);
    this.parent = new Int32Array(map.size).fill(-1);
    this.done = new Uint8Array(map.size);
    this.heap = new HexHeap(map.size * 6 + 1);
  }

  /**
   * Hexes reachable from `start` along rail hexsides in at most `maxHexes` steps (Infinity: no limit),
   * never entering a `blocked` hex (callback or mask). The start itself is not tested.
   *
   * `stepCost(from, to, side)`, when given, is what a step uses of `maxHexes` instead of 1 (e.g. a
   * ferry costing 6): a whole number, or Infinity to forbid the step; the search is then Dijkstra's.
   */
  run(start: number, maxHexes: number, blocked?: HexTest, stepCost?: (from: number, to: number, side: number) => number): this {
    const { hexes, dist, parent, done } = this;
    if (this.count > hexes.length >> 3) {
      dist.fill(-1);
      parent.fill(-1);
      done.fill(0);
    } else {
      for (let i = 0; i < this.count; i++) {
        const h = hexes[i] as number;
        dist[h] = -1;
        parent[h] = -1;
        done[h] = 0;
      }
    }
    this.start = start;
    this.count = 0;
    if (this.map.onMap[start] !== 1) return this;
    const mask = blocked instanceof Uint8Array ? blocked : undefined;
    const fn = typeof blocked === 'function' ? blocked : undefined;
    const nbs = this.map.neighbours;
    const railDirs = this.map.railDirections;
    dist[start] = 0;
    if (stepCost !== undefined) {
      this.count = this.weighted(start, maxHexes, mask, fn, stepCost);
      return this;
    }
    hexes[0] = start;
    let tail = 1;
    for (let head = 0; head < tail; head++) {
      const h = hexes[head] as number;
      const next = (dist[h] as number) + 1;
      if (next > maxHexes) continue;
      const dirs = railDirs[h] as number;
      const base = h * 6;
      for (let d = 0; d < 6; d++) {
        if ((dirs & (1 << d)) === 0) continue;
        const nb = nbs[base + d] as number;
        if (dist[nb] !== -1) continue;
        if (mask ? mask[nb] !== 0 : fn !== undefined && fn(nb)) continue;
        dist[nb] = next;
        parent[nb] = h;
        hexes[tail++] = nb;
      }
    }
    this.count = tail;
    return this;
  }

  private weighted(start: number, max: number, mask: Uint8Array | undefined, fn: ((hex: number) => boolean) | undefined, stepCost: (from: number, to: number, side: number) => number): number {
    const { hexes, dist, parent, done, heap } = this;
    const nbs = this.map.neighbours;
    const sides = this.map.grid.sides;
    const railDirs = this.map.railDirections;
    heap.clear();
    heap.push(start, 0);
    let count = 0;
    while (heap.size > 0) {
      const h = heap.pop();
      const k = heap.poppedKey;
      if (done[h] === 1 || k > (dist[h] as number)) continue;
      done[h] = 1;
      hexes[count++] = h;
      const dirs = railDirs[h] as number;
      const base = h * 6;
      for (let d = 0; d < 6; d++) {
        if ((dirs & (1 << d)) === 0) continue;
        const nb = nbs[base + d] as number;
        if (done[nb] === 1) continue;
        if (mask ? mask[nb] !== 0 : fn !== undefined && fn(nb)) continue;
        const nk = k + stepCost(h, nb, sides[base + d] as number);
        if (nk > max || (dist[nb] !== -1 && nk >= (dist[nb] as number))) continue;
        dist[nb] = nk;
        parent[nb] = h;
        heap.push(nb, nk);
      }
    }
    return count;
  }

  /** True when the last run reached `hex`. */
  reached(hex: number): boolean {
    return (this.dist[hex] ?? -1) >= 0;
  }

  /** The rail path of the last run from the start to `hex`; [] when not reached. */
  pathTo(hex: number): number[] {
    if (!this.reached(hex)) return [];
    const path: number[] = [];
    for (let h = hex; h !== -1; h = this.parent[h] as number) path.push(h);
    return path.reverse();
  }
}

/**
 * Connected rail networks: per hex, the id (0, 1, ...) of the network it lies on, numbered in order of
 * their lowest hex index; -1 for hexes with no usable rail side and for `blocked` hexes.
 */
export function railNetworks(map: HexMap, blocked?: HexTest, out?: Int32Array): Int32Array {
  const net = out ?? new Int32Array(map.size);
  net.fill(-1);
  const mask = blocked instanceof Uint8Array ? blocked : undefined;
  const fn = typeof blocked === 'function' ? blocked : undefined;
  const isBlocked = (h: number) => (mask ? mask[h] !== 0 : fn !== undefined && fn(h));
  const nbs = map.neighbours;
  const sides = map.grid.sides;
  const feat = map.sideFeatures;
  const queue = new Int32Array(map.size);
  let id = 0;
  for (const h0 of map.hexes) {
    if (net[h0] !== -1 || isBlocked(h0)) continue;
    let any = false;
    for (let d = 0; d < 6 && !any; d++) {
      const nb = nbs[h0 * 6 + d] as number;
      any = nb >= 0 && ((feat[sides[h0 * 6 + d] as number] as number) & SideFeature.RAIL) !== 0 && !isBlocked(nb);
    }
    if (!any) continue;
    net[h0] = id;
    queue[0] = h0;
    let tail = 1;
    for (let head = 0; head < tail; head++) {
      const h = queue[head] as number;
      for (let d = 0; d < 6; d++) {
        const nb = nbs[h * 6 + d] as number;
        if (nb < 0 || net[nb] !== -1 || ((feat[sides[h * 6 + d] as number] as number) & SideFeature.RAIL) === 0 || isBlocked(nb)) continue;
        net[nb] = id;
        queue[tail++] = nb;
      }
    }
    id++;
  }
  return net;
}

/**
 * A counter for rail capacity ("so many units per network per turn" is the game's rule; this only
 * counts). Keys are whatever the game counts by: a network id, a side, a country code number.
 */
export class RailCapacity {
  private readonly used = new Map<number, number>();
  private readonly limitOf: (key: number) => number;

  constructor(limit: number | ((key: number) => number)) {
    this.limitOf = typeof limit === 'number' ? () => limit : limit;
  }

  /** Moves left for `key`. */
  left(key: number): number {
    return this.limitOf(key) - (this.used.get(key) ?? 0);
  }

  /** Count `n` moves against `key`; false (and nothing counted) when that would pass the limit. */
  use(key: number, n = 1): boolean {
    if (this.left(key) < n) return false;
    this.used.set(key, (this.used.get(key) ?? 0) + n);
    return true;
  }

  /** Forget every count (a new turn). */
  reset(): void {
    this.used.clear();
  }
}
