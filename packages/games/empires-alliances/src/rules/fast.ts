/**
 * Speed helpers for the hot paths of flow.ts (PLAN.md, "State design"): tables built once per board
 * (option labels, unit facts as typed arrays, rail hexes, scratch buffers) and fingerprints of the state
 * arrays that the cached masks depend on. Nothing here is a rule: every cache returns what the
 * computation it saves would return, and every table is a fact of the board.
 *
 * The hot paths run under tsx, whose transform names every named closure at run time (`__name`, a
 * property definition per closure made); so the callbacks handed to the hexmap searches are made once
 * per board here and read their inputs from a context object rather than being made per call.
 */
import { SideFeature } from '@salient/hexmap';
import type { Board, SideNo } from './board.ts';
import type { EaState } from './state.ts';
import { corpsHalves, isInfantry, isInfCav, projectsZoc } from './units.ts';

/** Option labels by unit number or hex number, made once (hex labels on first use). */
export interface Labels {
  move: string[];
  rail: string[];
  entrench: string[];
  sea: string[];
  with: string[];
  advance: string[];
  /** By hex number; filled on first use. */
  to: string[];
  attack: string[];
  retreat: string[];
}

/**
 * Ground units by hex: `first(o, h)` the first unit there, `next[u]` the next one (ascending), -1 at the
 * end; entries whose `stamp` is not `gen` are empty.
 */
export interface Occ {
  head: Int32Array;
  stamp: Uint32Array;
  gen: number;
  next: Int32Array;
}

/** Occupancy built from the unit hexes in `hex`: a mask per side and the index by hex. */
export interface Occupancy {
  hex: Int32Array;
  masks: [Uint8Array, Uint8Array];
  index: Occ;
  /** The `lookStamp` of the last check against a state. */
  seen: number;
}

/** Per-board facts and scratch space for the hot paths. */
export interface Fast {
  /** Per unit: side, 1 for ground units (not air), 1 for units that project a ZOC (5.1), 1 for Inf/Cav, 1 for infantry, corps halves (9.5), rail net (9.5). */
  side: Uint8Array;
  ground: Uint8Array;
  zocType: Uint8Array;
  infCav: Uint8Array;
  infantry: Uint8Array;
  halves: Uint8Array;
  railNet: string[];
  /** The rail nets with a capacity on the Rail Capacity chart (9.5), and per unit the index of its net there (-1 none). */
  railNets: string[];
  railNetNo: Int8Array;
  /** The countries with a Sea Capacity (11.6), and per unit the index of the country whose capacity it uses (-1 none). */
  seaCountries: string[];
  seaNo: Int8Array;
  /** Per unit: the printed attack factor. */
  attack: Float64Array;
  /** Units of each side, ascending. */
  ofSide: [Int32Array, Int32Array];
  /** Air units of each side, ascending. */
  airOf: [Int32Array, Int32Array];
  /** Per hex: 1 where a rail line runs along one of its hexsides. */
  onRail: Uint8Array;
  labels: Labels;
  /** Unit names for logs (flow.ts `label`), made on first use. */
  unitNames: string[];
  /** Scratch: a per-hex generation stamp (`mark`), and a per-hex byte beside it. */
  stamp: Uint32Array;
  gen: number;
  memo: Uint8Array;
  /** Scratch: a hex number per hex (e.g. where a path came from), valid where `stamp` is current. */
  parent: Int32Array;
  /** Scratch for sorting hex lists numerically. */
  sortBuf: Int32Array;
  /** Occupancy of the unit hexes last asked about (`syncOcc`). */
  occ: Occupancy;
  /** 8.1, 14.2: a hexside that can be crossed at all (not all-sea or lake). */
  crosses: (from: number, to: number, side: number) => boolean;
  /** 5.1: ZOC extends across a hexside that can be crossed, never into a neutral. */
  projectsZoc: (from: number, to: number, side: number) => boolean;
}

const fasts = new WeakMap<Board, Fast>();
let lastBoard: Board | undefined;
let lastFast: Fast | undefined;

/** The board's tables, built on first use. */
export function fastOf(b: Board): Fast {
  if (b === lastBoard) return lastFast!;
  let f = fasts.get(b);
  if (!f) fasts.set(b, (f = build(b)));
  lastBoard = b;
  lastFast = f;
  return f;
}

function build(b: Board): Fast {
  const n = b.units.length;
  const side = new Uint8Array(n);
  const ground = new Uint8Array(n);
  const zocType = new Uint8Array(n);
  const infCav = new Uint8Array(n);
  const infantry = new Uint8Array(n);
  const halves = new Uint8Array(n);
  const railNet: string[] = [];
  const attack = new Float64Array(n);
  const ofSide: [number[], number[]] = [[], []];
  const airOf: [number[], number[]] = [[], []];
  for (let u = 0; u < n; u++) {
    const d = b.units[u]!;
    side[u] = d.side;
    ground[u] = d.prof.type === 'air' ? 0 : 1;
    zocType[u] = projectsZoc(d.prof.type) ? 1 : 0;
    infCav[u] = isInfCav(d.prof.type) ? 1 : 0;
    infantry[u] = isInfantry(d.prof.type) ? 1 : 0;
    halves[u] = corpsHalves(d.prof);
    attack[u] = d.prof.attack;
    railNet.push(b.data.charts.railCapacity.usesNetOf?.[d.nation] ?? d.nation);
    ofSide[d.side].push(u);
    if (d.prof.type === 'air') airOf[d.side].push(u);
  }
  const size = b.map.size;
  const onRail = new Uint8Array(size);
  for (let h = 0; h < size; h++) {
    for (let d = 0; d < 6; d++) {
      const sd = b.map.grid.sides[h * 6 + d];
      if (sd !== undefined && sd >= 0 && b.map.sideFeatures[sd]! & SideFeature.RAIL) {
        onRail[h] = 1;
        break;
      }
    }
  }
  const railNets = Object.keys(b.data.charts.railCapacity.corps);
  const seaCountries = Object.keys(b.data.charts.seaCapacity.corps);
  const uses = b.data.charts.seaCapacity.usesCapacityOf;
  const railNetNo = Int8Array.from(railNet, (net) => railNets.indexOf(net));
  const seaNo = Int8Array.from(b.units, (d) => seaCountries.indexOf(uses?.[d.nation] ?? d.nation));
  const unitLabels = (verb: string) => Array.from({ length: n }, (_, u) => `${verb} ${u}`);
  return {
    side,
    ground,
    zocType,
    infCav,
    infantry,
    halves,
    railNet,
    railNets,
    railNetNo,
    seaCountries,
    seaNo,
    attack,
    ofSide: [Int32Array.from(ofSide[0]), Int32Array.from(ofSide[1])],
    airOf: [Int32Array.from(airOf[0]), Int32Array.from(airOf[1])],
    onRail,
    labels: { move: unitLabels('move'), rail: unitLabels('rail'), entrench: unitLabels('entrench'), sea: unitLabels('sea'), with: unitLabels('with'), advance: unitLabels('advance'), to: [], attack: [], retreat: [] },
    unitNames: [],
    stamp: new Uint32Array(size),
    gen: 0,
    memo: new Uint8Array(size),
    parent: new Int32Array(size),
    sortBuf: new Int32Array(size + 1),
    occ: {
      hex: new Int32Array(n).fill(-1),
      masks: [new Uint8Array(size), new Uint8Array(size)],
      index: { head: new Int32Array(size), stamp: new Uint32Array(size), gen: 0, next: new Int32Array(n) },
      seen: 0,
    },
    crosses: (_f, _t, sd) => b.sideMp[sd] !== 255,
    projectsZoc: (_f, to, sd) => b.sideMp[sd] !== 255 && b.neutral[to] === 0,
  };
}

/** The board's occupancy brought up to the state's unit hexes (rebuilt only when one differs). */
export function syncOcc(f: Fast, s: EaState): Occupancy {
  const o = f.occ;
  // Asked many times in one look at a state (every reach, ZOC and option test), checked once in it.
  if (lookChecked(o.seen, s)) return o;
  const synced = syncOccNow(f, s);
  o.seen = lookStamp(s);
  return synced;
}

function syncOccNow(f: Fast, s: EaState): Occupancy {
  const o = f.occ;
  const { hex, masks } = o;
  const n = s.hex.length;
  let u = 0;
  while (u < n && hex[u] === s.hex[u]) u++;
  if (u === n) return o;
  const { ground, side } = f;
  // A few units moved (a Movement Phase moves one at a time): take each out of its old hex's list and
  // into its new one, keeping the lists ascending, as the rebuild below would make them.
  let changed = 0;
  for (let v = u; v < n && changed <= 4; v++) if (hex[v] !== s.hex[v]) changed++;
  if (changed <= 4 && o.index.gen !== 0) {
    for (let v = u; v < n; v++) {
      const to = s.hex[v]!;
      const from = hex[v]!;
      if (from === to) continue;
      hex[v] = to;
      if (ground[v] === 0) continue;
      if (from >= 0) unlink(o, side, v, from);
      if (to >= 0) insert(o, side, v, to);
    }
    return o;
  }
  for (let v = 0; v < n; v++) if (hex[v]! >= 0 && ground[v] === 1) masks[side[v]!]![hex[v]!] = 0;
  const x = o.index;
  const gen = (x.gen = (x.gen + 1) >>> 0 || 1);
  if (gen === 1) x.stamp.fill(0);
  const { head, stamp, next } = x;
  for (let v = n - 1; v >= 0; v--) {
    const h = (hex[v] = s.hex[v]!);
    if (h < 0 || ground[v] === 0) continue;
    masks[side[v]!]![h] = 1;
    next[v] = stamp[h] === gen ? head[h]! : -1;
    head[h] = v;
    stamp[h] = gen;
  }
  return o;
}

/** Take ground unit `v` out of hex `h`'s list; the side's mask there stays set while a unit of it remains. */
function unlink(o: Occupancy, side: Uint8Array, v: number, h: number): void {
  const { head, next, stamp, gen } = o.index;
  if (stamp[h] !== gen) return;
  if (head[h] === v) {
    if (next[v]! < 0) stamp[h] = 0;
    else head[h] = next[v]!;
  } else {
    let w = head[h]!;
    while (w >= 0 && next[w] !== v) w = next[w]!;
    if (w >= 0) next[w] = next[v]!;
  }
  let left = false;
  if (stamp[h] === gen) for (let w = head[h]!; w >= 0 && !left; w = next[w]!) if (side[w] === side[v]) left = true;
  if (!left) o.masks[side[v]!]![h] = 0;
}

/** Put ground unit `v` into hex `h`'s list at its place in ascending order. */
function insert(o: Occupancy, side: Uint8Array, v: number, h: number): void {
  const { head, next, stamp, gen } = o.index;
  o.masks[side[v]!]![h] = 1;
  if (stamp[h] !== gen) {
    stamp[h] = gen;
    head[h] = v;
    next[v] = -1;
    return;
  }
  if (head[h]! > v) {
    next[v] = head[h]!;
    head[h] = v;
    return;
  }
  let w = head[h]!;
  while (next[w]! >= 0 && next[w]! < v) w = next[w]!;
  next[v] = next[w]!;
  next[w] = v;
}

/**
 * One pure look at a state (`options`, `isLegal`): the state does not change while it lasts, so a cached
 * result whose inputs were compared once in the look (its `Snapshot`) need not be compared again. A
 * cache keeps the `lookStamp` of its last check and asks `lookChecked` first. Looks nest (the inner one
 * is the outer one's); outside a look nothing is taken as checked.
 */
const look = { s: undefined as EaState | undefined, depth: 0, gen: 0 };

export function beginLook(s: EaState): void {
  if (look.depth++ > 0) return;
  look.s = s;
  look.gen = (look.gen + 1) >>> 0 || 1;
}

export function endLook(): void {
  if (--look.depth === 0) look.s = undefined;
}

/** Whether a cache stamped `seen` (`lookStamp`) was checked against `s` in the current look. */
export function lookChecked(seen: number, s: EaState): boolean {
  return look.s === s && seen === look.gen;
}

/** The stamp a cache keeps after checking its inputs against `s`: the current look's, 0 outside one. */
export function lookStamp(s: EaState): number {
  return look.s === s ? look.gen : 0;
}

/** A fresh generation of the per-hex stamp: `f.stamp[h] === g` marks h in this pass. */
export function nextGen(f: Fast): number {
  f.gen = (f.gen + 1) >>> 0;
  if (f.gen === 0) {
    f.stamp.fill(0);
    f.gen = 1;
  }
  return f.gen;
}

/** `label(f.labels.to, 'to', h)`: the option label for hex h, made on first use. */
export function hexLabel(b: Board, list: string[], verb: string, h: number): string {
  return list[h] ?? (list[h] = `${verb} ${b.map.id(h)}`);
}

/** Sort `n` hex numbers held in `out` ascending, in place (numeric, as `(x, y) => x - y` would). */
export function sortHexes(f: Fast, out: number[]): number[] {
  const n = out.length;
  if (n < 2) return out;
  if (n < 32) {
    for (let i = 1; i < n; i++) {
      const v = out[i]!;
      let j = i - 1;
      while (j >= 0 && out[j]! > v) {
        out[j + 1] = out[j]!;
        j--;
      }
      out[j + 1] = v;
    }
    return out;
  }
  const buf = f.sortBuf.subarray(0, n);
  for (let i = 0; i < n; i++) buf[i] = out[i]!;
  buf.sort();
  for (let i = 0; i < n; i++) out[i] = buf[i]!;
  return out;
}

/**
 * A copy of the state numbers a cached result was computed from, compared entry by entry (exact: no
 * fingerprint that could collide). A pass is `start()`, one `add(v)` per number, then `finish()`,
 * which tells whether every number (and their count) equals the previous pass's; the copy then holds
 * this pass's numbers.
 */
export class Snapshot {
  private buf = new Int32Array(512);
  private n = -1;
  private at = 0;
  private differs = false;

  start(): this {
    this.at = 0;
    this.differs = false;
    return this;
  }

  add(v: number): void {
    const i = this.at++;
    if (i >= this.buf.length) {
      const next = new Int32Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    if (this.buf[i] !== v) {
      this.differs = true;
      this.buf[i] = v;
    }
  }

  /** `add` of each unit's hex, then its morale × 4 + supply, for the units listed (one bounds check for all). */
  addUnits(us: Int32Array, s: EaState): void {
    const n = us.length;
    let i = this.at;
    if (i + 2 * n > this.buf.length) {
      const next = new Int32Array(Math.max(this.buf.length * 2, i + 2 * n));
      next.set(this.buf);
      this.buf = next;
    }
    const buf = this.buf;
    const { hex, mor, sup } = s;
    let differs = false;
    for (let j = 0; j < n; j++) {
      const u = us[j]!;
      const h = hex[u]!;
      const x = mor[u]! * 4 + sup[u]!;
      if (buf[i] !== h || buf[i + 1] !== x) {
        differs = true;
        buf[i] = h;
        buf[i + 1] = x;
      }
      i += 2;
    }
    this.at = i;
    if (differs) this.differs = true;
  }

  finish(): boolean {
    const same = !this.differs && this.at === this.n;
    this.n = this.at;
    return same;
  }
}

/** Feed the ZOC inputs of `side` (5.1-5.2, 13.85, 14.63): its units' hexes, morale and supply levels, and the forts. */
export function feedSide(f: Fast, s: EaState, side: SideNo, k: Snapshot): void {
  k.addUnits(f.ofSide[side], s);
  k.add(-1);
  for (let i = 0; i < s.forts.length; i++) k.add(s.forts[i]!);
}

/**
 * Feed everything but the unit's own hex, flags, morale and supply that `mayRail` and `maySea` read for
 * a unit of the phasing side (9.1-9.5, 11.1-11.6, S3 3.62, 3.67): the phasing side, the turn and the
 * weather (MF, 8.2; rail reach, 9.2), the other side's units and the forts (ZOC, reach, open ports, the
 * 15 fort levels of 14.6), control of the rail hexes (`feedRailControl`) and the rail gauge, and the
 * ports held at the start of the phase.
 * The capacity used (9.5, 11.6) is read per unit, as whether the unit's own net and country have room.
 */
export function feedMoveWorld(f: Fast, s: EaState, k: Snapshot): void {
  k.add(s.seg);
  k.add(s.turn);
  k.add(s.wx === 'clear' ? -2 : s.wx === 'mud' ? -3 : -4);
  feedSide(f, s, (1 - s.seg) as SideNo, k);
  feedRailControl(f, s, k);
  k.add(-1);
  for (let i = 0; i < s.rails.length; i++) k.add(s.rails[i]!);
  k.add(-1);
  for (let i = 0; i < s.ports.length; i++) k.add(s.ports[i]!);
}

/**
 * Feed the control of the rail hexes (4.2 with 9.1): the `flip` entries on hexes a rail line runs along.
 * Rail movement and rail reach read control only there (a rail search steps along rail hexsides), so a
 * hex changing hands off the railroads leaves what they found standing.
 */
export function feedRailControl(f: Fast, s: EaState, k: Snapshot): void {
  k.add(-1);
  const { onRail } = f;
  for (let i = 0; i < s.flip.length; i++) {
    const h = s.flip[i]!;
    if (onRail[h] === 1) k.add(h);
  }
}

/**
 * Feed everything a side's supply depends on (14.2-14.3): every unit's hex, morale and supply level
 * (occupancy, and the enemy ZOC), the forts, control (`flip`) and the weather (the overland length).
 */
export function feedSupply(s: EaState, k: Snapshot): void {
  const n = s.hex.length;
  for (let u = 0; u < n; u++) {
    k.add(s.hex[u]!);
    k.add(s.mor[u]! * 4 + s.sup[u]!);
  }
  k.add(-1);
  for (let i = 0; i < s.forts.length; i++) k.add(s.forts[i]!);
  k.add(-1);
  for (let i = 0; i < s.flip.length; i++) k.add(s.flip[i]!);
  k.add(-1);
  for (let i = 0; i < s.rails.length; i++) k.add(s.rails[i]!); // 10: the rail gauge (railheads.ts)
  k.add(s.wx === 'clear' ? -2 : s.wx === 'mud' ? -3 : -4);
}
