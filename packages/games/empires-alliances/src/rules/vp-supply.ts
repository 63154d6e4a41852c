/**
 * S3 3.71 for search bots: the Central Powers' VP total of a position, the same number as
 * `centralVp(vpPlaces(b, s))`, without tracing a whole side's supply for every position looked at.
 *
 * 14.2-14.3 traces supply from the sources along rail, then overland up to 5 hexes (4 in Mud, 3 in
 * Snow). Whether one hex is in supply is therefore: it is a source or joined to one by rail, or an
 * overland path of at most that length leads from such a hex to it through hexes a supply path may
 * enter. The rail part depends only on control, enemy ZOC and enemy units at the rail and source
 * hexes, which a side's own moves rarely change: it is kept (per board and side) until one of those
 * changes (the sources, 14.3-14.4, depend on the same at the home cities and the hexes next to them). The overland part is searched backwards from each place that scores, at most a few dozen
 * hexes. The answer is exact, not an estimate: test/vp-supply.test.ts checks it against the full trace.
 */
import type { Board, SideNo } from './board.ts';
import { fastOf, feedSide, Snapshot, type Fast } from './fast.ts';
import { gaugeMap } from './railheads.ts';
import { controlMap, first, occIndex, occupied, traceSupply, zocOf } from './flow.ts';
import { reading } from './rulings.ts';
import { seaBoard } from './sea.ts';
import { homeCities } from './supply-sources.ts';
import type { EaState } from './state.ts';
import { placeVp } from './victory.ts';
import { supplyLength } from './weather.ts';

/** The rail-joined hexes of one side (`member[h] === gen`), and what they were found from. */
interface RailSet {
  /** Cheap check: the enemy's units, the forts and control. */
  quick: Snapshot;
  /** Exact check: enemy ZOC, enemy units and control on the rail and source hexes only. */
  narrow: Snapshot;
  ok: boolean;
  member: Uint32Array;
  gen: number;
}

interface VpScratch {
  rail: [RailSet, RailSet];
  /** Per side: the hexes the rail part depends on (hexes with rail, and home cities). */
  relevant: [Int32Array, Int32Array];
  /** Backward search: a stamp per hex and a queue with depths. */
  seen: Uint32Array;
  gen: number;
  queue: Int32Array;
  depth: Int32Array;
}

const scratch = new WeakMap<Board, VpScratch>();

function scratchOf(b: Board, f: Fast): VpScratch {
  let x = scratch.get(b);
  if (x) return x;
  const size = b.map.size;
  const railSet = (): RailSet => ({ quick: new Snapshot(), narrow: new Snapshot(), ok: false, member: new Uint32Array(size), gen: 0 });
  const relevant = ([0, 1] as const).map((side) => {
    const hs: number[] = [];
    for (let h = 0; h < size; h++) if (f.onRail[h] === 1) hs.push(h);
    // 14.3-14.4 (supply-sources.ts): the home cities, and their neighbours (a limited source closes when all are enemy-held or in enemy ZOC).
    const seen = new Uint8Array(size);
    for (const h of hs) seen[h] = 1;
    // 14.5, 2.7 (sea.ts): the ports and the two hexes that shut Antwerp.
    const sea = seaBoard(b);
    for (const c of [...homeCities(b, side), ...sea.ports.map((hex) => ({ hex })), ...sea.guards.map((hex) => ({ hex }))]) {
      for (const h of [c.hex, ...Array.from({ length: 6 }, (_, d) => b.map.neighbours[c.hex * 6 + d]!)]) {
        if (h < 0 || seen[h] === 1) continue;
        seen[h] = 1;
        hs.push(h);
      }
    }
    return Int32Array.from(hs);
  }) as [Int32Array, Int32Array];
  x = { rail: [railSet(), railSet()], relevant, seen: new Uint32Array(size), gen: 0, queue: new Int32Array(size), depth: new Int32Array(size) };
  scratch.set(b, x);
  return x;
}

/** The side's rail-joined supply hexes (sources included), brought up to date. */
function railSet(b: Board, s: EaState, side: SideNo, f: Fast, x: VpScratch): RailSet {
  const r = x.rail[side];
  const enemy = (1 - side) as SideNo;
  const q = r.quick.start();
  feedSide(f, s, enemy, q);
  q.add(-1);
  for (let i = 0; i < s.flip.length; i++) q.add(s.flip[i]!);
  q.add(-1);
  for (let i = 0; i < s.rails.length; i++) q.add(s.rails[i]!); // 10: the rail gauge
  const quickSame = q.finish();
  if (quickSame && r.ok) return r;
  const ezoc = zocOf(b, s, enemy);
  const theirs = occupied(b, s, enemy);
  const control = controlMap(b, s);
  const gauge = gaugeMap(b, s);
  const k = r.narrow.start();
  const rel = x.relevant[side];
  for (let i = 0; i < rel.length; i++) {
    const h = rel[i]!;
    k.add(ezoc[h]! + 2 * theirs[h]! + 4 * (control[h]! + 1) + 16 * (gauge[h]! + 1));
  }
  if (k.finish() && r.ok) return r;
  r.ok = false;
  const dist = traceSupply(b, s, side, true);
  const gen = (r.gen = (r.gen + 1) >>> 0 || 1);
  if (gen === 1) r.member.fill(0);
  for (let h = 0; h < dist.length; h++) if (dist[h]! >= 0) r.member[h] = gen;
  r.ok = true;
  return r;
}

/** What the backward search reads, for one side in one position. */
interface Trace {
  member: Uint32Array;
  gen: number;
  ezoc: Uint8Array;
  mine: Uint8Array;
  theirs: Uint8Array;
  limit: number;
}

function traceOf(b: Board, s: EaState, side: SideNo, f: Fast, x: VpScratch): Trace {
  const r = railSet(b, s, side, f, x);
  const enemy = (1 - side) as SideNo;
  return { member: r.member, gen: r.gen, ezoc: zocOf(b, s, enemy), mine: occupied(b, s, side), theirs: occupied(b, s, enemy), limit: supplyLength(s.wx) };
}

/** 14.2: whether `side` can trace supply to hex `t` (what `supplyOf(b, s, side)[t] >= 0` says). */
export function suppliedAt(b: Board, s: EaState, side: SideNo, t: number): boolean {
  const f = fastOf(b);
  const x = scratchOf(b, f);
  return suppliedIn(b, x, traceOf(b, s, side, f, x), t);
}

/**
 * 14.2 for many hexes of one position: a test of whether `side` can trace supply to a hex (what
 * `supplyOf(b, s, side)[t] >= 0` says), with the side's trace taken once. Valid until the next supply
 * question on the board (the scratch is shared): ask it for one position, then drop it.
 */
export function supplyTester(b: Board, s: EaState, side: SideNo): (t: number) => boolean {
  const f = fastOf(b);
  const x = scratchOf(b, f);
  const tr = traceOf(b, s, side, f, x);
  return (t) => suppliedIn(b, x, tr, t);
}

function suppliedIn(b: Board, x: VpScratch, tr: Trace, t: number): boolean {
  const { member, ezoc, mine, theirs, limit } = tr;
  const rg = tr.gen;
  if (member[t] === rg) return true;
  const { neutral, mp, sideMp } = b;
  // 14.2: a supply path may not enter enemy ZOC unless a friendly unit is there, nor enemy units, neutrals or sea.
  if ((ezoc[t] === 1 && mine[t] === 0) || theirs[t] === 1 || neutral[t] === 1 || mp[t] === 255) return false;
  if (limit < 1) return false;
  const gen = (x.gen = (x.gen + 1) >>> 0 || 1);
  if (gen === 1) x.seen.fill(0);
  const { seen, queue, depth } = x;
  const nbs = b.map.neighbours;
  const sides = b.map.grid.sides;
  let tail = 0;
  queue[tail] = t;
  depth[tail++] = 0;
  seen[t] = gen;
  for (let head = 0; head < tail; head++) {
    const h = queue[head]!;
    const dh = depth[head]!;
    for (let d = 0; d < 6; d++) {
      const nb = nbs[h * 6 + d]!;
      if (nb < 0 || seen[nb] === gen || sideMp[sides[h * 6 + d]!] === 255) continue;
      // A path from a rail-joined hex `nb` enters `h` and goes on to `t`: dh + 1 overland hexes.
      if (member[nb] === rg) return true;
      seen[nb] = gen;
      if (dh + 1 < limit && !((ezoc[nb] === 1 && mine[nb] === 0) || theirs[nb] === 1 || neutral[nb] === 1 || mp[nb] === 255)) {
        queue[tail] = nb;
        depth[tail++] = dh + 1;
      }
    }
  }
  return false;
}

/** 3.71: the Central Powers' VP as things stand, as `centralVp(vpPlaces(b, s))` counts them. */
export function vpScore(b: Board, s: EaState): number {
  const f = fastOf(b);
  const x = scratchOf(b, f);
  const occ = occIndex(b, s);
  const control = controlMap(b, s);
  const occupantPath = reading(s.rulings, 'vp-supply') === 'occupant-path';
  let total = 0;
  let cp: Trace | undefined;
  let al: Trace | undefined;
  for (const p of b.vp) {
    let germanInfantry = false;
    let alliedInfantry = false;
    for (let u = first(occ, p.hex); u >= 0; u = occ.next[u]!) {
      if (f.infantry[u] !== 1) continue;
      if (b.units[u]!.nation === 'GE') germanInfantry = true;
      if (f.side[u] === 1) alliedInfantry = true;
    }
    const scores = p.kind === 'take' ? germanInfantry : !alliedInfantry;
    if (!scores) continue;
    // The traces are taken one after the other: each reads shared masks of its side only.
    const tr = occupantPath && control[p.hex] === 1 ? (al ??= traceOf(b, s, 1, f, x)) : (cp ??= traceOf(b, s, 0, f, x));
    total += placeVp({ kind: p.kind, germanInfantry, alliedInfantry, supplied: suppliedIn(b, x, tr, p.hex) });
  }
  return total;
}
