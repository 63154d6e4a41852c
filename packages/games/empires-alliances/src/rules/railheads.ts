/**
 * 10 Railheads. Each side's rail runs up to its railheads: the Central Powers' are the scenario's hexes
 * (10.1, S3 3.46), the Allies' the next rail hexes beyond them (10.3). So every rail hex has a gauge,
 * the side whose rail it is: the Central Powers' from their home countries along the line to the
 * railheads and over the rest of their start-line ground, the Allies' elsewhere in their countries.
 * A side rails and traces rail supply only on rail of its own gauge that it controls (9.0, ruling
 * rail-railhead). In its Administrative Phase a side extends its railheads (10.2) along rail it
 * controls, free of enemy units and ZOC, joined by its own rail free of both to its home countries,
 * at most 3 hexes a turn in Clear, 2 in Mud, 1 in Snow (10.4); the Allies extend theirs by pushing the
 * Central Powers' back the same way (10.3).
 *
 * 10.2 asks for a supplied ground unit that began the Movement Phase in the hex or entered it in the
 * segment; control changes only when a ground unit enters (4.2), so the code takes the side's control
 * of the hex, with the joined path, for it.
 *
 * State: `rails` lists, flat and by ascending hex, the rail hexes whose gauge differs from the start
 * (hex, side, ...).
 */
import { SideFeature } from '@salient/hexmap';
import { SIDE_IDS, type Board, type SideNo } from './board.ts';
import { emit, type Events } from './events.ts';
import { ctl, occIndex, first, zocOf } from './flow.ts';
import { fired } from './sections.ts';
import type { EaState } from './state.ts';
import { railheadAdvance } from './weather.ts';

const bases = new WeakMap<Board, { gauge: Int8Array; railheads: number[] }>();

/** The rail hexes joined to `h` by a rail line, in direction order. */
export function railNeighbours(b: Board, h: number): number[] {
  const out: number[] = [];
  for (let d = 0; d < 6; d++) {
    const nb = b.map.neighbours[h * 6 + d]!;
    if (nb >= 0 && (b.map.sideFeatures[b.map.grid.sides[h * 6 + d]!]! & SideFeature.RAIL) !== 0) out.push(nb);
  }
  return out;
}

/**
 * 10.1, 10.3: the gauge of every hex at the start: 0 on the Central Powers' rail (from Germany and
 * Luxembourg along their start-line ground, stopping at each railhead, and the rest of their home
 * countries), 1 on the other rail of the warring countries, -1 off rail or in a neutral.
 */
export function railBase(b: Board): { gauge: Int8Array; railheads: number[] } {
  let x = bases.get(b);
  if (x) return x;
  const gauge = new Int8Array(b.map.size).fill(-1);
  const railheads = b.scen.railheads.map((id) => b.map.grid.tryIndex(id)).filter((h) => h >= 0);
  const stop = new Set(railheads);
  const onRail = (h: number) => railNeighbours(b, h).length > 0;
  const queue: number[] = [];
  for (const h of b.map.hexes) {
    if (b.startCtl[h] !== 0 || !onRail(h) || !b.home[0].has(b.map.countryCode(h) ?? '')) continue;
    gauge[h] = 0;
    queue.push(h);
  }
  for (let i = 0; i < queue.length; i++) {
    const h = queue[i]!;
    if (stop.has(h)) continue; // the railhead is the last hex of the line
    for (const g of railNeighbours(b, h)) {
      if (gauge[g] !== -1 || b.startCtl[g] !== 0) continue;
      gauge[g] = 0;
      queue.push(g);
    }
  }
  for (const h of b.map.hexes) if (gauge[h] === -1 && onRail(h) && b.startCtl[h]! >= 0 && b.neutral[h] === 0) gauge[h] = 1;
  x = { gauge, railheads };
  bases.set(b, x);
  return x;
}

/** The side whose rail hex `h` is now (-1 none). */
export function gaugeOf(b: Board, s: EaState, h: number): number {
  const r = s.rails;
  for (let i = 0; i < r.length; i += 2) if (r[i] === h) return r[i + 1]!;
  return railBase(b).gauge[h]!;
}

/** 9.0, 10 (ruling rail-railhead): whether `side` may rail through `h`: its own rail, and its control. */
const usable = (b: Board, s: EaState, h: number, side: number): boolean => ctl(b, s, h) === side && gaugeOf(b, s, h) === side;

const homeRails = new WeakMap<Board, [number[], number[]]>();

/** The rail hexes of each side's home countries, ascending (fixed per board; where a side's own net starts, 10.2). */
function homeRail(b: Board): [number[], number[]] {
  let x = homeRails.get(b);
  if (!x) {
    x = [[], []];
    for (const h of b.map.hexes) {
      if (railNeighbours(b, h).length === 0) continue;
      const c = b.map.countryCode(h) ?? '';
      for (const side of [0, 1] as const) if (b.home[side].has(c)) x[side].push(h);
    }
    homeRails.set(b, x);
  }
  return x;
}

const gaugeCache = new WeakMap<Board, { rails: number[]; gauge: Int8Array }>();

/** The gauge of every hex now, as one array per board updated from `rails` (read it, never write it; it lasts until the next call). */
export function gaugeMap(b: Board, s: EaState): Int8Array {
  let c = gaugeCache.get(b);
  if (!c) gaugeCache.set(b, (c = { rails: [], gauge: Int8Array.from(railBase(b).gauge) }));
  const { rails, gauge } = c;
  if (rails.length === s.rails.length) {
    let i = 0;
    while (i < rails.length && rails[i] === s.rails[i]) i++;
    if (i === rails.length) return gauge;
  }
  const base = railBase(b).gauge;
  for (let i = 0; i < rails.length; i += 2) gauge[rails[i]!] = base[rails[i]!]!;
  rails.length = 0;
  for (let i = 0; i < s.rails.length; i += 2) gauge[s.rails[i]!] = s.rails[i + 1]!;
  rails.push(...s.rails);
  return gauge;
}

function setGauge(b: Board, s: EaState, h: number, side: SideNo): void {
  const r = s.rails;
  for (let i = 0; i < r.length; i += 2) {
    if (r[i] !== h) continue;
    if (railBase(b).gauge[h] === side) r.splice(i, 2);
    else r[i + 1] = side;
    return;
  }
  let at = 0;
  while (at < r.length && r[at]! < h) at += 2;
  r.splice(at, 0, h, side);
}

/**
 * 7.25, 10.2-10.4: `side` extends its railheads at most `railheadAdvance(weather)` hexes along rail it
 * controls, free of enemy units and ZOC, from its own rail joined (free of both) to its home countries.
 * Returns the hexes converted, in order.
 */
export function advanceRailheads(b: Board, s: EaState, side: SideNo, ev: Events): number[] {
  const enemy = (1 - side) as SideNo;
  const ezoc = zocOf(b, s, enemy);
  const occ = occIndex(b, s);
  const theirs = (h: number): boolean => {
    for (let u = first(occ, h); u >= 0; u = occ.next[u]!) if (b.units[u]!.side === enemy) return true;
    return false;
  };
  const clean = (h: number): boolean => ezoc[h] === 0 && b.neutral[h] === 0 && !theirs(h);
  const inNet = new Uint8Array(b.map.size);
  const net: number[] = [];
  const flood = (from: number[]): number[] => {
    const q = [...from];
    for (let i = 0; i < q.length; i++) {
      for (const g of railNeighbours(b, q[i]!)) {
        if (inNet[g] || !usable(b, s, g, side) || !clean(g)) continue;
        inNet[g] = 1;
        q.push(g);
      }
    }
    return q;
  };
  const seeds: number[] = [];
  for (const h of homeRail(b)[side]) {
    if (!usable(b, s, h, side) || !clean(h)) continue;
    inNet[h] = 1;
    seeds.push(h);
  }
  net.push(...flood(seeds));
  let frontier = net;
  const done: number[] = [];
  for (let step = railheadAdvance(s.wx); step > 0 && frontier.length; step--) {
    const next: number[] = [];
    for (const h of frontier) {
      for (const g of railNeighbours(b, h)) {
        if (inNet[g] || gaugeOf(b, s, g) === side || b.startCtl[g]! < 0 || ctl(b, s, g) !== side || !clean(g)) continue;
        setGauge(b, s, g, side);
        inNet[g] = 1;
        done.push(g);
        next.push(g);
      }
    }
    frontier = flood(next);
  }
  if (done.length) {
    fired('10');
    emit(ev, 'railhead', SIDE_IDS[side], `${SIDE_IDS[side]} railheads advance through ${done.map((h) => b.map.id(h)).join(', ')} (10.2-10.4)`, { hexes: done.map((h) => b.map.id(h)).join(',') });
  }
  return done;
}
