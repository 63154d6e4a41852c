import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hash32, loadHexMap, RailCapacity, railNetworks, RailSearch, ReachSearch, SideFeature, SupplySearch, syntheticMapJson, zocMask, type HexMap } from '../src/index.ts';

const map = loadHexMap(syntheticMapJson({ rows: [10, 33], cols: [0, 25], railEvery: 5 }), { source: 'synthetic' });
const land = [...map.hexes].filter((h) => map.terrainName(h) !== 'sea');
const SEA = map.terrainIndex('sea');

/** Plain relaxation to a fixed point: the reference the Dijkstra search must agree with. */
function referenceReach(m: HexMap, start: number, mp: number, cost: (from: number, to: number, side: number) => number, stop: Uint8Array): Float64Array {
  const best = new Float64Array(m.size).fill(Infinity);
  best[start] = 0;
  for (let changed = true; changed; ) {
    changed = false;
    for (const h of m.hexes) {
      const c = best[h] as number;
      if (c === Infinity || (h !== start && stop[h])) continue;
      for (let d = 0; d < 6; d++) {
        const nb = m.neighbours[h * 6 + d] as number;
        if (nb < 0) continue;
        const nk = c + cost(h, nb, m.grid.sides[h * 6 + d] as number);
        if (nk <= mp && nk < (best[nb] as number)) {
          best[nb] = nk;
          changed = true;
        }
      }
    }
  }
  return best;
}

describe('ReachSearch', () => {
  const reach = new ReachSearch(map);

  it('on open ground at 1 MP a hex, cost is hex distance up to the MP', () => {
    const start = map.hex('2012');
    reach.run(start, 4, { enterCost: (_f, to) => (map.terrain[to] === SEA ? Infinity : 1) });
    for (const h of land) {
      const d = map.grid.distance(start, h);
      if (d <= 4 && map.grid.col(h) > 3) expect(reach.cost[h]).toBe(d);
      if (d > 4) expect(reach.reached(h)).toBe(false);
    }
    expect(reach.hexes[0]).toBe(start);
    const path = reach.pathTo(map.hex('2412'));
    expect(path[0]).toBe(start);
    expect(path).toHaveLength(5);
    for (let i = 1; i < path.length; i++) expect(map.grid.distance(path[i - 1] as number, path[i] as number)).toBe(1);
  });

  it('agrees with a plain relaxation for any costs, ZOC stops and MP, and is clean between runs', () => {
    fc.assert(
      fc.property(fc.constantFrom(...land), fc.integer({ min: 0, max: 12 }), fc.integer(), (start, mp, seed) => {
        const stop = new Uint8Array(map.size);
        for (const h of map.hexes) stop[h] = hash32(seed ^ h) % 7 === 0 ? 1 : 0;
        const cost = (from: number, to: number, side: number) => {
          const x = hash32(seed + to * 31 + from);
          return x % 11 === 0 ? Infinity : (x % 4) / 2 + (map.sideFeatures[side]! & SideFeature.RIVER ? 1 : 0.5);
        };
        const want = referenceReach(map, start, mp, cost, stop);
        reach.run(start, mp, { enterCost: cost, stopsIn: stop });
        for (const h of map.hexes) expect(reach.cost[h], map.id(h)).toBe(want[h]);
        // The same rules as a callback give the same answer.
        const viaMask = Float64Array.from(reach.cost);
        reach.run(start, mp, { enterCost: cost, stopsIn: (h) => stop[h] === 1 });
        expect(Float64Array.from(reach.cost)).toEqual(viaMask);
        let n = 0;
        for (const h of map.hexes) if (reach.reached(h)) n++;
        expect(reach.count).toBe(n);
      }),
      { numRuns: 40 },
    );
  });

  it('stops in ZOC but may leave the start; mayLeave holds a unit in place', () => {
    const start = map.hex('2012');
    const zoc = new Uint8Array(map.size);
    zoc[start] = 1;
    const east = map.neighbours[start * 6 + 0] as number;
    zoc[east] = 1;
    reach.run(start, 3, { enterCost: () => 1, stopsIn: zoc });
    expect(reach.cost[east]).toBe(1);
    expect(reach.reached(map.neighbours[east * 6 + 0] as number)).toBe(true); // around the ZOC hex
    expect(reach.parent[map.neighbours[east * 6 + 0] as number]).not.toBe(east);
    reach.run(start, 3, { enterCost: () => 1, mayLeave: (h) => h !== start });
    expect(reach.count).toBe(1);
  });
});

describe('zocMask', () => {
  it('marks the neighbours the unit projects into, and its own hex', () => {
    const u = map.hex('2012');
    const z = zocMask(map, [u, -1]);
    let n = 0;
    for (const x of z) n += x;
    expect(n).toBe(7);
    const noRiver = zocMask(map, [u], { ownHex: false, projects: (_f, _t, side) => side !== map.grid.side(u, 0), out: z });
    expect(noRiver).toBe(z);
    expect(z[u]).toBe(0);
    expect(z[map.grid.neighbour(u, 0)]).toBe(0);
    expect(z[map.grid.neighbour(u, 3)]).toBe(1);
  });
});

describe('rail', () => {
  const rail = new RailSearch(map);
  it('follows rail hexsides within the hex limit and around blocked hexes', () => {
    const start = map.hex('1005'); // on the row-10 line and the column-5 line
    rail.run(start, 3);
    expect(rail.count).toBeGreaterThan(1);
    for (let i = 1; i < rail.count; i++) {
      const h = rail.hexes[i] as number;
      expect(rail.dist[h]).toBeLessThanOrEqual(3);
      const p = rail.parent[h] as number;
      expect(map.sideHas(map.grid.sideBetween(p, h), SideFeature.RAIL)).toBe(true);
    }
    expect(rail.reached(map.hex('1008'))).toBe(true);
    expect(rail.reached(map.hex('1009'))).toBe(false);
    rail.run(start, Infinity, (h) => h === map.hex('1006'));
    expect(rail.pathTo(map.hex('1008'))[0]).toBe(start);
    expect(rail.pathTo(map.hex('1008')).includes(map.hex('1006'))).toBe(false);
  });

  it('labels networks and counts capacity', () => {
    const net = railNetworks(map);
    expect(net[map.hex('1005')]).toBe(0);
    expect(net[map.hex('1015')]).toBe(0);
    expect(net[map.hex('1214')]).toBe(-1); // no rail there
    const cap = new RailCapacity((k) => (k === 0 ? 2 : 1));
    expect(cap.use(0)).toBe(true);
    expect(cap.use(0, 2)).toBe(false);
    expect(cap.left(0)).toBe(1);
    expect(cap.use(1)).toBe(true);
    expect(cap.use(1)).toBe(false);
    cap.reset();
    expect(cap.left(1)).toBe(1);
  });
});

describe('SupplySearch', () => {
  const supply = new SupplySearch(map);
  it('rail from the sources at any length, then overland up to the limit', () => {
    const source = map.hex('1005');
    supply.run({ sources: [source], limit: 2 });
    const net = railNetworks(map);
    for (const h of map.hexes) {
      if (net[h] === 0) expect(supply.dist[h], map.id(h)).toBe(0);
      const toRail = Math.min(...[...map.hexes].filter((r) => net[r] === 0).map((r) => map.grid.distance(r, h)));
      expect(supply.inSupply(h), map.id(h)).toBe(toRail <= 2);
      if (toRail <= 2) expect(supply.dist[h]).toBe(toRail);
      expect(supply.cost[h]).toBe(toRail <= 2 ? toRail : Infinity);
    }
    const far = map.hex('1214');
    const path = supply.pathFrom(far);
    expect(path[0]).toBe(far);
    expect(path[path.length - 1]).toBe(source);
  });

  it('overland only, blocked hexes and crossings', () => {
    const source = map.hex('2012');
    supply.run({ sources: [source], limit: 3, rail: false });
    expect(supply.dist[map.hex('2015')]).toBe(3);
    expect(supply.inSupply(map.hex('2016'))).toBe(false);
    const wall = new Uint8Array(map.size);
    for (const d of [0, 1, 2, 3, 4, 5]) wall[map.grid.neighbour(source, d)] = 1;
    supply.run({ sources: [source], limit: 3, rail: false, blocked: wall });
    expect(supply.count).toBe(1);
    supply.run({ sources: [source], limit: 3, rail: false, crosses: () => false });
    expect(supply.count).toBe(1);
    supply.run({ sources: [source, source], limit: 0, rail: { blocked: () => true } });
    expect(supply.count).toBe(1);
  });
});

/** Plain relaxation to a fixed point from several zero-cost seeds over chosen links. */
function relax(m: HexMap, seeds: readonly number[], limit: number, link: (from: number, to: number, side: number, d: number) => number): Float64Array {
  const best = new Float64Array(m.size).fill(Infinity);
  for (const s of seeds) best[s] = 0;
  for (let changed = true; changed; ) {
    changed = false;
    for (const h of m.hexes) {
      const c = best[h] as number;
      if (c === Infinity) continue;
      for (let d = 0; d < 6; d++) {
        const nb = m.neighbours[h * 6 + d] as number;
        if (nb < 0) continue;
        const nk = c + link(h, nb, m.grid.sides[h * 6 + d] as number, d);
        if (nk <= limit && nk < (best[nb] as number)) {
          best[nb] = nk;
          changed = true;
        }
      }
    }
  }
  return best;
}

describe('weighted steps', () => {
  it('rail with a step cost (a ferry of 6) agrees with a plain relaxation', () => {
    const rail = new RailSearch(map);
    fc.assert(
      fc.property(fc.constantFrom(...[...map.hexes].filter((h) => map.railDirections[h] !== 0)), fc.integer({ min: 0, max: 30 }), fc.integer(), (start, max, seed) => {
        const stepCost = (_f: number, _t: number, side: number) => (hash32(seed ^ side) % 9 === 0 ? 6 : 1);
        const blocked = (h: number) => h !== start && hash32(seed + h) % 13 === 0;
        const want = relax(map, [start], max, (f, t, side, d) => ((map.railDirections[f]! >> d) & 1 && !blocked(t) ? stepCost(f, t, side) : Infinity));
        rail.run(start, max, blocked, stepCost);
        for (const h of map.hexes) expect(rail.dist[h], map.id(h)).toBe(want[h] === Infinity ? -1 : want[h]);
        const p = rail.pathTo(rail.hexes[rail.count - 1] as number);
        expect(p[0]).toBe(start);
      }),
      { numRuns: 30 },
    );
  });

  it('supply with an overland step cost (1½ in rough terrain) agrees with a plain relaxation', () => {
    const supply = new SupplySearch(map);
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(...land), { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 8 }), fc.integer(), (sources, limit, seed) => {
        const rough = (h: number) => map.terrainName(h) !== 'clear';
        const stepCost = (_f: number, to: number) => (rough(to) ? 1.5 : 1);
        const blocked = new Uint8Array(map.size);
        for (const h of map.hexes) blocked[h] = hash32(seed ^ h) % 6 === 0 ? 1 : 0;
        const crosses = (_f: number, _t: number, side: number) => (map.sideFeatures[side]! & SideFeature.MAJOR_RIVER) === 0;
        const want = relax(map, sources, limit, (f, t, side) => (blocked[t] || !crosses(f, t, side) ? Infinity : stepCost(f, t)));
        supply.run({ sources, limit, blocked, crosses, stepCost, rail: false });
        for (const h of map.hexes) {
          expect(supply.cost[h], map.id(h)).toBe(want[h]);
          expect(supply.inSupply(h)).toBe(want[h] !== Infinity);
        }
        for (let i = 0; i < supply.count; i++) {
          const h = supply.hexes[i] as number;
          const path = supply.pathFrom(h);
          expect(path).toHaveLength((supply.dist[h] as number) + 1);
          expect(sources).toContain(path[path.length - 1]);
        }
      }),
      { numRuns: 30 },
    );
  });
});
