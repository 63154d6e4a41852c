/**
 * Movement reach: which hexes a unit can reach with its movement points, at what cost and by which
 * path. Dijkstra over MP with a binary heap on typed arrays; the game supplies the costs and the ZOC
 * rules as callbacks over hex indices. A `ReachSearch` owns scratch buffers sized to its map, so a run
 * allocates nothing; its results stay valid until its next run.
 */
import type { HexTest } from './hex-test.ts';
import type { HexMap } from './map.ts';

/** The game's movement rules for one unit's move, as numbers in, numbers out. */
export interface MoveRules {
  /** MP to enter `to` from `from` across hexside `side`; Infinity (or more than is left) forbids it. */
  enterCost(from: number, to: number, side: number): number;
  /** Entering this hex ends the move (e.g. enemy ZOC; pass its mask). Never applied to the start hex. */
  stopsIn?: HexTest | undefined;
  /** The unit may move on out of this hex; checked for every hex it would leave, the start included. */
  mayLeave?: ((hex: number) => boolean) | undefined;
}

/** Reusable movement search over one map. */
export class ReachSearch {
  readonly map: HexMap;
  /** Start hex of the last run (-1 before any). */
  start = -1;
  /** MP allowed in the last run. */
  mp = 0;
  /** Number of reached hexes: the first `count` entries of `hexes`. */
  count = 0;
  /** Reached hexes in the order they were settled (cheapest first), the start first. */
  readonly hexes: Int32Array;
  /** MP spent to reach each hex; Infinity where not reached. */
  readonly cost: Float64Array;
  /** Hex the cheapest path came from; -1 for the start and unreached hexes. */
  readonly parent: Int32Array;
  private readonly settled: Uint8Array;
  private readonly heapHex: Int32Array;
  private readonly heapKey: Float64Array;

  constructor(map: HexMap) {
    this.map = map;
    const n = map.size;
    this.hexes = new Int32Array(n);
    this.cost = new Float64Array(n).fill(Infinity);
    this.parent = new Int32Array(n).fill(-1);
    this.settled = new Uint8Array(n);
    // Lazy deletion: a hex is pushed once per improvement, at most once per incoming side.
    this.heapHex = new Int32Array(n * 6 + 1);
    this.heapKey = new Float64Array(n * 6 + 1);
  }

  /** Search from `start` (an on-map hex) with `mp` movement points. Returns this search. */
  run(start: number, mp: number, rules: MoveRules): this {
    const { cost, parent, settled, hexes, heapHex, heapKey } = this;
    if (this.count > hexes.length >> 3) {
      cost.fill(Infinity);
      parent.fill(-1);
      settled.fill(0);
    } else {
      for (let i = 0; i < this.count; i++) {
        const h = hexes[i] as number;
        cost[h] = Infinity;
        parent[h] = -1;
        settled[h] = 0;
      }
    }
    this.start = start;
    this.mp = mp;
    this.count = 0;
    const nbs = this.map.neighbours;
    const sides = this.map.grid.sides;
    const enterCost = rules.enterCost;
    const stops = rules.stopsIn;
    const stopMask = stops instanceof Uint8Array ? stops : undefined;
    const stopFn = typeof stops === 'function' ? stops : undefined;
    const mayLeave = rules.mayLeave;
    if (this.map.onMap[start] !== 1) return this;
    cost[start] = 0;
    let size = 0;
    heapHex[0] = start;
    heapKey[0] = 0;
    size = 1;
    let count = 0;
    while (size > 0) {
      // Pop the minimum.
      const h = heapHex[0] as number;
      const k = heapKey[0] as number;
      size--;
      if (size > 0) {
        const lastHex = heapHex[size] as number;
        const lastKey = heapKey[size] as number;
        let i = 0;
        for (;;) {
          const l = 2 * i + 1;
          if (l >= size) break;
          const r = l + 1;
          const c = r < size && (heapKey[r] as number) < (heapKey[l] as number) ? r : l;
          if ((heapKey[c] as number) >= lastKey) break;
          heapHex[i] = heapHex[c] as number;
          heapKey[i] = heapKey[c] as number;
          i = c;
        }
        heapHex[i] = lastHex;
        heapKey[i] = lastKey;
      }
      if (settled[h] === 1 || k > (cost[h] as number)) continue;
      settled[h] = 1;
      hexes[count++] = h;
      if (h !== start && (stopMask ? stopMask[h] !== 0 : stopFn !== undefined && stopFn(h))) continue;
      if (mayLeave !== undefined && !mayLeave(h)) continue;
      const base = h * 6;
      for (let d = 0; d < 6; d++) {
        const nb = nbs[base + d] as number;
        if (nb < 0 || settled[nb] === 1) continue;
        const nk = k + enterCost(h, nb, sides[base + d] as number);
        if (nk > mp || nk >= (cost[nb] as number)) continue;
        cost[nb] = nk;
        parent[nb] = h;
        // Push.
        let i = size++;
        while (i > 0) {
          const p = (i - 1) >> 1;
          if ((heapKey[p] as number) <= nk) break;
          heapHex[i] = heapHex[p] as number;
          heapKey[i] = heapKey[p] as number;
          i = p;
        }
        heapHex[i] = nb;
        heapKey[i] = nk;
      }
    }
    this.count = count;
    return this;
  }

  /** True when the last run reached `hex`. */
  reached(hex: number): boolean {
    return this.cost[hex] !== Infinity && this.cost[hex] !== undefined;
  }

  /** The cheapest path of the last run from the start to `hex` (both included); [] when not reached. */
  pathTo(hex: number): number[] {
    if (!this.reached(hex)) return [];
    const path: number[] = [];
    for (let h = hex; h !== -1; h = this.parent[h] as number) path.push(h);
    return path.reverse();
  }
}
