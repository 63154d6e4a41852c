/**
 * Distances on the area map: air movement (4.2, 5.1: land area 1, sea area 2, Air Routes adjacent,
 * never over neutral land), naval movement (4.2: each sea 1, entering a port 1) and land movement
 * (5.2). Uniform small graphs, so a plain Dijkstra over a sorted frontier is enough.
 */
import { scenarioIndex, type PackIndex, type ScenarioIndex } from './pack-index.ts';
import { armedEnemyAtSea, controlStamp, controllerSide, entryCost, frozenMemo, inPlayLand, inPlaySea, landNeighbours } from './query.ts';
import type { BlitzState, SideId } from './state.ts';
import type { StraitDef } from '../pack/schema.ts';
import type { Viewer } from './wars.ts';

type Edge = { readonly to: string; readonly cost: number };

/**
 * What the searches below ask of the map of one scenario, worked out once per scenario and area: air
 * edges, the bordering seas in play, the ports on a sea and the seas out of a port. A search asks
 * these for every area it reaches, and they depend only on the pack and the scenario (what control
 * changes, the straits and neutral land, is tested as the search goes). The lists are shared: read only.
 */
interface ScenarioGeometry {
  air: Map<string, readonly Edge[]>;
  /** Sea -> its bordering seas in play (as `seaNeighbours` lists them before the straits), and the same as naval edges. */
  borders: Map<string, { seas: readonly string[]; edges: readonly Edge[] }>;
  /** Sea -> naval edges into the ports in play on it; port -> naval edges out to its seas in play. */
  intoPorts: Map<string, readonly Edge[]>;
  outOfPort: Map<string, readonly Edge[]>;
  /** By node number (pack-index.ts `AreaIndex`), as flat `[to, cost, to, cost, ...]` arrays: air edges, a port's naval edges out, and a sea's without straits (its bordering seas then its ports: the same whoever holds what). */
  airNo: (Int32Array | undefined)[];
  outOfPortNo: (Int32Array | undefined)[];
  plainNo: (Int32Array | undefined)[];
}
const geometries = new WeakMap<ScenarioIndex, ScenarioGeometry>();
let lastIndex: ScenarioIndex | null = null;
let lastGeometry: ScenarioGeometry | null = null;

function geometryOf(p: PackIndex, s: BlitzState): ScenarioGeometry {
  const x = scenarioIndex(p, s.scenario);
  if (x === lastIndex) return lastGeometry!;
  let g = geometries.get(x);
  if (!g) geometries.set(x, (g = { air: new Map(), borders: new Map(), intoPorts: new Map(), outOfPort: new Map(), airNo: [], outOfPortNo: [], plainNo: [] }));
  lastIndex = x;
  lastGeometry = g;
  return g;
}

/** `sea:<id>` for each sea id, made once (search nodes for seas). */
const seaNodes = new Map<string, string>();
export const seaNode = (sea: string): string => {
  let n = seaNodes.get(sea);
  if (n === undefined) seaNodes.set(sea, (n = `sea:${sea}`));
  return n;
};

/** Node ids: a land id, or `sea:<id>`. */
function airEdges(p: PackIndex, s: BlitzState, node: string): readonly Edge[] {
  const g = geometryOf(p, s);
  let out = g.air.get(node);
  if (!out) g.air.set(node, (out = buildAirEdges(p, s, node)));
  return out;
}

/** Edges as a flat `[to, cost, ...]` array of node numbers. */
function flatEdges(p: PackIndex, edges: readonly Edge[]): Int32Array {
  const out = new Int32Array(edges.length * 2);
  for (let i = 0; i < edges.length; i++) {
    out[2 * i] = p.areas.nodeNo.get(edges[i]!.to)!;
    out[2 * i + 1] = edges[i]!.cost;
  }
  return out;
}

/** `airEdges` by node number. */
function airEdgesNo(p: PackIndex, s: BlitzState, n: number): Int32Array {
  const g = geometryOf(p, s);
  return (g.airNo[n] ??= flatEdges(p, airEdges(p, s, p.areas.nodes[n]!)));
}

function buildAirEdges(p: PackIndex, s: BlitzState, node: string): Edge[] {
  const out: Edge[] = [];
  if (node.startsWith('sea:')) {
    const sea = node.slice(4);
    for (const l of p.coastOf.get(sea) ?? []) out.push({ to: l, cost: 1 });
    for (const t of p.seaBorders.get(sea) ?? []) if (inPlaySea(p, s, t)) out.push({ to: seaNode(t), cost: 2 });
    // Straits are narrows between seas: aircraft cross them like any sea border.
    for (const st of p.straits.get(sea) ?? []) {
      const t = st.seas[0] === sea ? st.seas[1] : st.seas[0];
      if (inPlaySea(p, s, t)) out.push({ to: seaNode(t), cost: 2 });
    }
    return out;
  }
  const land = p.land.get(node);
  for (const n of landNeighbours(p, s, node)) out.push({ to: n.to, cost: 1 });
  for (const a of p.airRoutes.get(node) ?? []) if (inPlayLand(p, s, a)) out.push({ to: a, cost: 1 });
  for (const sea of new Set([...(land?.coast ?? []), ...(land?.ports.flatMap((x) => x.seas) ?? [])])) {
    if (inPlaySea(p, s, sea)) out.push({ to: seaNode(sea), cost: 2 });
  }
  return out;
}

/** The seas in play bordering `sea` (no straits), and the same as naval edges. */
function bordersInPlay(p: PackIndex, s: BlitzState, sea: string): { seas: readonly string[]; edges: readonly Edge[] } {
  const g = geometryOf(p, s);
  let b = g.borders.get(sea);
  if (!b) {
    const seas = [...(p.seaBorders.get(sea) ?? [])].filter((t) => inPlaySea(p, s, t));
    g.borders.set(sea, (b = { seas, edges: seas.map((t) => ({ to: seaNode(t), cost: 1 })) }));
  }
  return b;
}

/**
 * Scratch for `dijkstra` (a search runs to its end before another starts): distances by node number,
 * Infinity where not reached (put back after each search), the frontier, and the nodes in the order
 * first reached.
 */
let distNo = new Float64Array(0);
const frontier: number[] = [];
const fd: number[] = [];
const reached: number[] = [];

/**
 * Distances from node `start` up to `limit`, by node number (pack-index.ts `AreaIndex`), as a map from
 * node id in the order each node was first reached. `edges(n)` gives a flat `[to, cost, ...]` array.
 */
function dijkstra(p: PackIndex, start: number, limit: number, edges: (n: number) => Int32Array, passable: (n: number) => boolean): Map<string, number> {
  const nodes = p.areas.nodes;
  if (distNo.length < nodes.length) distNo = new Float64Array(nodes.length).fill(Infinity);
  const dist = distNo;
  // A search that threw part way (an unknown area) leaves the scratch dirty: put it back first.
  for (let i = 0; i < reached.length; i++) dist[reached[i]!] = Infinity;
  reached.length = 0;
  frontier.length = 0;
  fd.length = 0;
  dist[start] = 0;
  reached.push(start);
  frontier.push(start);
  fd.push(0);
  while (frontier.length) {
    // The nearest node next, ties by id (node numbers are in id order; a scan: ids are unique, so the
    // order is total and the pick the same as sorting the frontier would give).
    let at = 0;
    let n = frontier[0]!;
    let d = fd[0]!;
    for (let i = 1; i < frontier.length; i++) {
      const dx = fd[i]!;
      if (dx < d || (dx === d && frontier[i]! < n)) {
        at = i;
        n = frontier[i]!;
        d = dx;
      }
    }
    const last = frontier.length - 1;
    frontier[at] = frontier[last]!;
    fd[at] = fd[last]!;
    frontier.pop();
    fd.pop();
    const e = edges(n);
    for (let k = 0; k < e.length; k += 2) {
      const to = e[k]!;
      const nd = d + e[k + 1]!;
      if (nd > limit || !passable(to)) continue;
      const old = dist[to]!;
      if (nd < old) {
        if (old === Infinity) reached.push(to);
        dist[to] = nd;
        const i = frontier.indexOf(to);
        if (i < 0) {
          frontier.push(to);
          fd.push(nd);
        } else fd[i] = nd;
      }
    }
  }
  const out = new Map<string, number>();
  for (let i = 0; i < reached.length; i++) {
    const n = reached[i]!;
    out.set(nodes[n]!, dist[n]!);
    dist[n] = Infinity;
  }
  reached.length = 0;
  return out;
}

/** The node number of area `id` (a land id or `sea:<id>`); an id the map does not name has none. */
function nodeOf(p: PackIndex, id: string): number {
  const n = p.areas.nodeNo.get(id);
  if (n === undefined) throw new Error(`unknown area '${id}'`);
  return n;
}

/**
 * Air distances depend only on the pack, the scenario and which areas are neutral, so they are
 * memoized on exactly those inputs.
 */
const airCache = new Map<string, Map<string, Map<number, Map<string, number>>>>();
let airEntries = 0;

/** Air-movement distances from `from` up to `limit` (1.6: never into or over neutral land; in the full game, neutral as `viewer` sees it). */
export function airDistances(p: PackIndex, s: BlitzState, from: string, limit: number, viewer?: Viewer): Map<string, number> {
  // By pack, scenario and neutral land first (one long key, hashed once while it is shared), then by start, then limit.
  const nk = neutralLand(p, s, viewer);
  const outer = nk.key;
  let byStart = airCache.get(outer);
  let byLimit = byStart?.get(from);
  let d = byLimit?.get(limit);
  if (!d) {
    const open = nk.openNo;
    const isSea = p.areas.nodeIsSea;
    d = dijkstra(p, nodeOf(p, from), limit, (n) => airEdgesNo(p, s, n), (n) => isSea[n] === 1 || open[n] === 1);
    if (airEntries > 10_000) {
      airCache.clear();
      airEntries = 0;
      byStart = undefined;
      byLimit = undefined;
    }
    if (!byStart) airCache.set(outer, (byStart = new Map()));
    if (!byLimit) byStart.set(from, (byLimit = new Map()));
    byLimit.set(limit, d);
    airEntries++;
  }
  return d;
}

/** Neutral land by viewer, for the control stamp it was worked out under (see `controlStamp`). */
let neutralStamp = -1;
const neutralKeys = new Map<string, NeutralLand>();
interface NeutralLand {
  /** The pack, scenario and land areas `viewer` sees as neutral. */
  key: string;
  /** The land areas it does not (controllerSide is a side): the ones a flight may enter (1.6), 1 by node number. */
  openNo: Uint8Array;
}

/** The land `viewer` sees as neutral, as a key, and the land it may fly over; kept while control stays as it was (`controlStamp`). */
function neutralLand(p: PackIndex, s: BlitzState, viewer?: Viewer): NeutralLand {
  const stamp = controlStamp(s);
  if (stamp !== neutralStamp) {
    neutralKeys.clear();
    neutralStamp = stamp;
  }
  const vk = viewer ? (viewer.length === 1 ? viewer[0]! : viewer.join(',')) : '';
  const hit = neutralKeys.get(vk);
  if (hit !== undefined) return hit;
  let neutral = `${p.hash}|${s.scenario}|`;
  const openNo = new Uint8Array(p.areas.nodes.length);
  for (const l in s.control) {
    if (controllerSide(p, s, l, viewer) === 'neutral') neutral += l + ',';
    else openNo[nodeOf(p, l)] = 1;
  }
  const out = { key: neutral, openNo };
  neutralKeys.set(vk, out);
  return out;
}

/**
 * Plain air moves from `from` up to `limit`, as the map measures them whoever holds what (3.3: "four or
 * fewer aircraft moves from Argentina"); not a flight, so neutral land does not stop it.
 */
export function airMoves(p: PackIndex, s: BlitzState, from: string, limit: number): Map<string, number> {
  return dijkstra(p, nodeOf(p, from), limit, (n) => airEdgesNo(p, s, n), () => true);
}

/**
 * Naval distances from a port (or a sea) to seas and ports (4.2: first enter a sea the port touches;
 * each sea 1; entering a port 1). Ports are land ids; a path ends on entering a port.
 * `avoidArmed` bars seas holding armed enemy units (5.1 rebase). `sub`: the ship is a SUB, which
 * passes the straits marked `subs` whoever holds them (4.2). The map handed out is kept (see
 * `navalCache`) and shared: callers only read it.
 */
export function navalDistances(p: PackIndex, s: BlitzState, from: string, limit: number, side: SideId, avoidArmed: boolean, viewer?: Viewer, forcing = false, sub = false): ReadonlyMap<string, number> {
  const key = `${from}|${limit}|${side}|${viewer ? viewer.join(',') : '-'}|${forcing ? 'f' : ''}${sub ? 's' : ''}`;
  if (avoidArmed) {
    // Where the units at sea stand matters too: kept only while one read-only question is worked out.
    const memo = frozenMemo(s);
    const known = memo?.get(`naval|${key}`) as Map<string, number> | undefined;
    if (known) return known;
    const d = searchNaval(p, s, from, limit, side, true, viewer, forcing, sub);
    memo?.set(`naval|${key}`, d);
    return d;
  }
  const stamp = controlStamp(s);
  if (stamp !== navalStamp) {
    navalCache.clear();
    navalStamp = stamp;
  }
  let d = navalCache.get(key);
  if (!d) {
    if (navalCache.size >= 10_000) navalCache.clear();
    navalCache.set(key, (d = searchNaval(p, s, from, limit, side, false, viewer, forcing, sub)));
  }
  return d;
}

/**
 * Naval distances that no armed enemy bars (`avoidArmed` false) depend on the pack, the scenario and
 * control as the rules read it (which straits are open, 4.2; what `viewer` sees as neutral) and on
 * nothing else, so they are kept for the control stamp they were worked out under (`controlStamp`:
 * one state object, control unchanged): the same searches come up for every ship from one question to
 * the next. The maps handed out are shared: callers only read them.
 */
let navalStamp = -1;
const navalCache = new Map<string, Map<string, number>>();

const NO_EDGES = new Int32Array(0);

function searchNaval(p: PackIndex, s: BlitzState, from: string, limit: number, side: SideId, avoidArmed: boolean, viewer: Viewer | undefined, forcing: boolean, sub: boolean): Map<string, number> {
  const g = geometryOf(p, s);
  const { nodes, nodeIsSea } = p.areas;
  const start = nodeOf(p, from);
  const edges = (no: number): Int32Array => {
    const n = nodes[no]!;
    if (nodeIsSea[no] === 0) {
      if (no !== start) return NO_EDGES; // entering a port ends the move
      let out = g.outOfPortNo[no];
      if (!out) {
        let list = g.outOfPort.get(n);
        if (!list) g.outOfPort.set(n, (list = [...(p.portSeas.get(n) ?? [])].filter((x) => inPlaySea(p, s, x)).map((x) => ({ to: seaNode(x), cost: 1 }))));
        g.outOfPortNo[no] = out = flatEdges(p, list);
      }
      return out;
    }
    const sea = n.slice(4);
    if (!p.straits.has(sea)) {
      // No strait out of this sea: its edges are the same whoever holds what.
      let plain = g.plainNo[no];
      if (!plain) g.plainNo[no] = plain = flatEdges(p, bordersInPlay(p, s, sea).edges.concat(intoPorts(p, s, g, sea)));
      return plain;
    }
    const out: Edge[] = [];
    for (const t of seaNeighbours(p, s, sea, side, viewer, forcing, sub)) out.push({ to: seaNode(t), cost: 1 });
    for (const e of intoPorts(p, s, g, sea)) out.push(e);
    return flatEdges(p, out);
  };
  return dijkstra(p, start, limit, edges, (n) => !(avoidArmed && nodeIsSea[n] === 1 && armedEnemyAtSea(p, s, nodes[n]!.slice(4), side, viewer)));
}

/** Naval edges from `sea` into the ports in play on it (kept per scenario). */
function intoPorts(p: PackIndex, s: BlitzState, g: ScenarioGeometry, sea: string): readonly Edge[] {
  let ports = g.intoPorts.get(sea);
  if (!ports) {
    const list: Edge[] = [];
    for (const l of p.coastOf.get(sea) ?? []) if ((p.portSeas.get(l) ?? new Set()).has(sea) && inPlayLand(p, s, l)) list.push({ to: l, cost: 1 });
    g.intoPorts.set(sea, (ports = list));
  }
  return ports;
}

/**
 * Seas a ship of `side` may sail to from `sea`: bordering seas in play, and the far side of each strait
 * open to it (4.2): a `friendly` strait while its side holds every deciding area, a `not-enemy` one
 * unless the enemy holds them all; for a SUB (`sub`), a strait the map lets SUBs through (`subs`)
 * whoever holds it. With `forcing` (optional rule 9.8), closed straits the map lets be forced too
 * (`forcible`; never Egypt's).
 */
export function seaNeighbours(p: PackIndex, s: BlitzState, sea: string, side: SideId, viewer?: Viewer, forcing = false, sub = false): string[] {
  const out = bordersInPlay(p, s, sea).seas.slice();
  for (const st of p.straits.get(sea) ?? []) {
    const other = st.seas[0] === sea ? st.seas[1] : st.seas[0];
    if (!inPlaySea(p, s, other)) continue;
    if (straitOpen(p, s, st, side, viewer, sub) || (forcing && st.forcible)) out.push(other);
  }
  return out;
}

function straitOpen(p: PackIndex, s: BlitzState, st: StraitDef, side: SideId, viewer?: Viewer, sub = false): boolean {
  // 4.2: SUBs slip through the straits the map marks for them, whoever holds the shore.
  if (sub && st.subs === true) return true;
  // (Loops, not closures made per strait: asked for every strait of every sea search.)
  if (st.passage === 'friendly') {
    for (const l of st.lands) if (controllerSide(p, s, l, viewer) !== side) return false;
    return true;
  }
  for (const l of st.lands) {
    const h = controllerSide(p, s, l, viewer);
    if (h === 'neutral' || h === side || s.control[l] === undefined) return true;
  }
  return false;
}

/** 9.8: whether going from sea `a` to sea `b` forces a strait closed to `side` (no border, no open strait between them; `sub`: as for a SUB, 4.2). */
export function forcedCrossing(p: PackIndex, s: BlitzState, a: string, b: string, side: SideId, viewer?: Viewer, sub = false): boolean {
  if (p.seaBorders.get(a)?.has(b)) return false;
  const straits = (p.straits.get(a) ?? []).filter((st) => st.seas.includes(b));
  return straits.length > 0 && !straits.some((st) => straitOpen(p, s, st, side, viewer, sub));
}

/** Land-movement step options from `land` with `mp` left (5.2). */
export function landSteps(p: PackIndex, s: BlitzState, land: string, mp: number): { to: string; cost: number; route: boolean }[] {
  const out: { to: string; cost: number; route: boolean }[] = [];
  for (const n of landNeighbours(p, s, land)) {
    const cost = entryCost(p, n.to);
    if (cost <= mp) out.push({ to: n.to, route: n.route, cost });
  }
  return out;
}
