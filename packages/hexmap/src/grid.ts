/**
 * A hex grid: the printed bounds of a map under one numbering scheme, with every hex given a small
 * integer index, and the geometry (neighbours, hexsides, distance, lines, centres) as arithmetic and
 * precomputed typed arrays over those indices.
 *
 * Indexing. Cells cover the printed bounds plus a one-hex margin on every side:
 * `index = (row - rowMin + 1) * stride + (col - colMin + 1)` with `stride = colMax - colMin + 3`.
 * Margin cells are never on a map; they exist so every hex inside the bounds has all six neighbours
 * as indices and so every hexside of an in-bounds hex has an id.
 *
 * Directions (pointy-top), counter-clockwise from east as seen on the map (north up):
 * 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE. Opposite of d is (d + 3) % 6.
 * Flat-top grids: 0 NE, 1 N, 2 NW, 3 SW, 4 S, 5 SE.
 *
 * Hexsides. Each cell owns the hexsides in directions 0, 1 and 2: side id = index * 3 + d. The side
 * in direction d >= 3 belongs to the neighbour in that direction: id = neighbour * 3 + (d - 3). So both
 * hexes of a side compute the same id, and a side id names exactly one pair of hexes.
 */
import { SalientError } from '@salient/engine';
import type { HexScheme, Orientation } from './scheme.ts';

/** Direction names of pointy-top grids, in direction-number order. */
export const POINTY_DIRECTIONS = ['E', 'NE', 'NW', 'W', 'SW', 'SE'] as const;
/** Direction names of flat-top grids, in direction-number order. */
export const FLAT_DIRECTIONS = ['NE', 'N', 'NW', 'SW', 'S', 'SE'] as const;

// Axial (dq, dr) per direction.
const POINTY_DQ = [1, 1, 0, -1, -1, 0];
const POINTY_DR = [0, -1, -1, 0, 1, 1];
const FLAT_DQ = [1, 0, -1, -1, 0, 1];
const FLAT_DR = [-1, -1, 0, 1, 1, 0];

const SQRT3_2 = Math.sqrt(3) / 2;

/** Inclusive printed bounds: `[min, max]`. */
export type Bounds = readonly [number, number];

/** The geometry of one numbering scheme over printed bounds. Immutable once built. */
export class HexGrid {
  readonly scheme: HexScheme;
  readonly orientation: Orientation;
  readonly rows: Bounds;
  readonly cols: Bounds;
  /** Cells per grid row (printed columns plus the two margin columns). */
  readonly stride: number;
  /** Number of cells, margin included: valid indices are 0 .. size-1. */
  readonly size: number;
  /** Direction names in direction-number order. */
  readonly directions: readonly string[];
  /** Axial q / r per cell. */
  readonly q: Int32Array;
  readonly r: Int32Array;
  /** 1 for cells inside the printed bounds, 0 for the margin. */
  readonly inBounds: Uint8Array;
  /** Neighbour cell per (cell * 6 + direction), -1 past the margin. */
  readonly adjacent: Int32Array;
  /** Hexside id per (cell * 6 + direction), -1 where the neighbour is past the margin. */
  readonly sides: Int32Array;
  /** Centre per cell in units of the distance between neighbouring centres (a pointy hex's width): x grows east, y grows south. */
  readonly centreX: Float64Array;
  readonly centreY: Float64Array;

  constructor(scheme: HexScheme, rows: Bounds, cols: Bounds) {
    if (!(Number.isInteger(rows[0]) && Number.isInteger(rows[1]) && Number.isInteger(cols[0]) && Number.isInteger(cols[1])) || rows[0] > rows[1] || cols[0] > cols[1]) {
      throw new SalientError('BAD_ARGUMENT', `Grid bounds must be whole numbers [min, max] with min <= max; got rows [${rows.join(', ')}], cols [${cols.join(', ')}].`);
    }
    this.scheme = scheme;
    this.orientation = scheme.orientation;
    this.rows = [rows[0], rows[1]];
    this.cols = [cols[0], cols[1]];
    this.stride = cols[1] - cols[0] + 3;
    const height = rows[1] - rows[0] + 3;
    this.size = height * this.stride;
    this.directions = scheme.orientation === 'pointy' ? POINTY_DIRECTIONS : FLAT_DIRECTIONS;
    const n = this.size;
    this.q = new Int32Array(n);
    this.r = new Int32Array(n);
    this.inBounds = new Uint8Array(n);
    this.centreX = new Float64Array(n);
    this.centreY = new Float64Array(n);
    const pointy = scheme.orientation === 'pointy';
    for (let h = 0; h < n; h++) {
      const row = this.row(h);
      const col = this.col(h);
      const q = scheme.q(row, col);
      const r = scheme.r(row, col);
      this.q[h] = q;
      this.r[h] = r;
      this.inBounds[h] = row >= rows[0] && row <= rows[1] && col >= cols[0] && col <= cols[1] ? 1 : 0;
      this.centreX[h] = pointy ? q + r / 2 : q * SQRT3_2;
      this.centreY[h] = pointy ? r * SQRT3_2 : r + q / 2;
    }
    const dq = pointy ? POINTY_DQ : FLAT_DQ;
    const dr = pointy ? POINTY_DR : FLAT_DR;
    this.adjacent = new Int32Array(n * 6);
    for (let h = 0; h < n; h++) {
      for (let d = 0; d < 6; d++) {
        const q = (this.q[h] as number) + (dq[d] as number);
        const r = (this.r[h] as number) + (dr[d] as number);
        this.adjacent[h * 6 + d] = this.cellOf(scheme.rowOf(q, r), scheme.colOf(q, r));
      }
    }
    this.sides = new Int32Array(n * 6);
    for (let h = 0; h < n; h++) {
      for (let d = 0; d < 6; d++) {
        if (d < 3) {
          this.sides[h * 6 + d] = this.adjacent[h * 6 + d] === -1 ? -1 : h * 3 + d;
        } else {
          const nb = this.adjacent[h * 6 + d] as number;
          this.sides[h * 6 + d] = nb === -1 ? -1 : nb * 3 + d - 3;
        }
      }
    }
  }

  /** Number of hexside ids (3 per cell): valid side ids are 0 .. sideCount-1 (some unused at the margin). */
  get sideCount(): number {
    return this.size * 3;
  }

  /** Printed row of a cell (margin cells included). */
  row(h: number): number {
    return Math.floor(h / this.stride) + this.rows[0] - 1;
  }

  /** Printed column of a cell (margin cells included). */
  col(h: number): number {
    return (h % this.stride) + this.cols[0] - 1;
  }

  /** Cell of a printed (row, col) inside the bounds or the margin; -1 past it. */
  private cellOf(row: number, col: number): number {
    const i = row - this.rows[0] + 1;
    const j = col - this.cols[0] + 1;
    if (i < 0 || j < 0 || j >= this.stride || i * this.stride >= this.size) return -1;
    return i * this.stride + j;
  }

  /** Index of a printed (row, col) inside the bounds; -1 outside them. */
  indexOf(row: number, col: number): number {
    if (row < this.rows[0] || row > this.rows[1] || col < this.cols[0] || col > this.cols[1]) return -1;
    return (row - this.rows[0] + 1) * this.stride + (col - this.cols[0] + 1);
  }

  /** Index of a printed id inside the bounds; -1 when malformed or outside. */
  tryIndex(id: string): number {
    const p = this.scheme.parse(id);
    return p ? this.indexOf(p.row, p.col) : -1;
  }

  /**
   * Index of a printed id. Throws SalientError('BAD_ARGUMENT') naming the id and what a valid one looks
   * like when it is malformed or outside the printed bounds.
   */
  index(id: string): number {
    const p = this.scheme.parse(id);
    if (!p) throw new SalientError('BAD_ARGUMENT', `'${id}' is not a hex id: ${this.scheme.name} ids are ${this.scheme.idHelp}.`);
    const h = this.indexOf(p.row, p.col);
    if (h < 0) throw new SalientError('BAD_ARGUMENT', `Hex ${id} is outside the grid (${this.describeBounds()}).`);
    return h;
  }

  /** Printed id of an in-bounds index; throws SalientError('BAD_ARGUMENT') for a margin or out-of-range index. */
  id(h: number): string {
    if (!Number.isInteger(h) || h < 0 || h >= this.size || this.inBounds[h] !== 1) {
      throw new SalientError('BAD_ARGUMENT', `${h} is not the index of a hex inside the grid (${this.describeBounds()}).`);
    }
    return this.scheme.format(this.row(h), this.col(h));
  }

  /** "rows 10-62, columns 04-60", for messages. */
  describeBounds(): string {
    const two = (n: number) => String(n).padStart(2, '0');
    return `rows ${two(this.rows[0])}-${two(this.rows[1])}, columns ${two(this.cols[0])}-${two(this.cols[1])}`;
  }

  /** Neighbour of cell h in direction d (0..5); -1 past the margin. */
  neighbour(h: number, d: number): number {
    return this.adjacent[h * 6 + d] ?? -1;
  }

  /** Id of the hexside of cell h in direction d; -1 past the margin. */
  side(h: number, d: number): number {
    return this.sides[h * 6 + d] ?? -1;
  }

  /** Direction from a to b when they are neighbours; -1 otherwise. */
  directionTo(a: number, b: number): number {
    const base = a * 6;
    for (let d = 0; d < 6; d++) if (this.adjacent[base + d] === b) return d;
    return -1;
  }

  /** Id of the hexside between a and b; -1 when they are not neighbours. */
  sideBetween(a: number, b: number): number {
    const d = this.directionTo(a, b);
    return d < 0 ? -1 : (this.sides[a * 6 + d] as number);
  }

  /** The owning hex of a side (the one it lies E, NE or NW of, pointy-top). */
  sideHexA(side: number): number {
    return Math.floor(side / 3);
  }

  /** The other hex of a side; -1 for an unused id at the margin. */
  sideHexB(side: number): number {
    return this.adjacent[Math.floor(side / 3) * 6 + (side % 3)] ?? -1;
  }

  /** Both hexes of a side: [owner, other]. */
  sideHexes(side: number): [number, number] {
    return [this.sideHexA(side), this.sideHexB(side)];
  }

  /** Hex distance (fewest steps between centres), via cube coordinates. */
  distance(a: number, b: number): number {
    const dq = (this.q[a] as number) - (this.q[b] as number);
    const dr = (this.r[a] as number) - (this.r[b] as number);
    return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
  }

  /**
   * The hexes a straight line from a's centre to b's centre passes through, a first and b last,
   * distance(a, b) + 1 of them, each a neighbour of the one before.
   *
   * Sampled by cube-coordinate interpolation at distance+1 evenly spaced points, each rounded to the
   * nearest hex. Tie rule: both ends are nudged by (+1e-6, +2e-6) in axial (q, r) before
   * interpolating, so where the line runs exactly along a hexside or through a corner the hex on the
   * nudge's side is taken (east-south-east for pointy-top grids). The nudge does not depend on which
   * end comes first, so line(b, a) is line(a, b) reversed. A point that rounds past the margin (only
   * possible for non-convex bounds) is -1.
   */
  line(a: number, b: number): number[] {
    const n = this.distance(a, b);
    const aq = (this.q[a] as number) + 1e-6;
    const ar = (this.r[a] as number) + 2e-6;
    const bq = (this.q[b] as number) + 1e-6;
    const br = (this.r[b] as number) + 2e-6;
    const out: number[] = [];
    for (let i = 0; i <= n; i++) {
      const t = n === 0 ? 0 : i / n;
      const fq = aq + (bq - aq) * t;
      const fr = ar + (br - ar) * t;
      const fs = -fq - fr;
      let rq = Math.round(fq);
      let rr = Math.round(fr);
      const rs = Math.round(fs);
      const eq = Math.abs(rq - fq);
      const er = Math.abs(rr - fr);
      const es = Math.abs(rs - fs);
      if (eq > er && eq > es) rq = -rr - rs;
      else if (er > es) rr = -rq - rs;
      out.push(this.cellOf(this.scheme.rowOf(rq, rr), this.scheme.colOf(rq, rr)));
    }
    return out;
  }

  /**
   * In-bounds hexes within `radius` steps of `h` (h included), in a fixed order (by axial q, then r).
   * Pushed onto `out` when given, so a caller can reuse one array.
   */
  within(h: number, radius: number, out: number[] = []): number[] {
    const q0 = this.q[h] as number;
    const r0 = this.r[h] as number;
    const rad = Math.max(0, Math.floor(radius));
    for (let dq = -rad; dq <= rad; dq++) {
      const lo = Math.max(-rad, -dq - rad);
      const hi = Math.min(rad, -dq + rad);
      for (let dr = lo; dr <= hi; dr++) {
        const q = q0 + dq;
        const r = r0 + dr;
        const x = this.indexOf(this.scheme.rowOf(q, r), this.scheme.colOf(q, r));
        if (x >= 0) out.push(x);
      }
    }
    return out;
  }

  /** Centre of a cell: { x (east), y (south) } in centre-spacing units. */
  centre(h: number): { x: number; y: number } {
    return { x: this.centreX[h] as number, y: this.centreY[h] as number };
  }
}
