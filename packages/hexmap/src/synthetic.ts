/**
 * A synthetic map of a given size, for tests and benchmarks: deterministic from its seed (a small
 * integer hash, no Math.random), with terrain, a sea strip, rivers, two countries and their border,
 * a rail grid and a few cities. It is written as "salient.hexmap/1" JSON, so it goes through the same
 * loader as a real map.
 */
import { HEXMAP_FORMAT, type HexMapJsonInput } from './map-json.ts';
import { rrccSkewed } from './scheme.ts';
import { HexGrid } from './grid.ts';

/** Options of `syntheticMapJson`. */
export interface SyntheticMapOptions {
  /** Printed rows [min, max] (default [10, 72]: 63 rows). */
  rows?: readonly [number, number] | undefined;
  /** Printed columns [min, max] (default [0, 61]: 62 columns; with the rows, 3,906 hexes like E&A's ~3,800). */
  cols?: readonly [number, number] | undefined;
  /** Seed of the terrain and rivers (default 1). */
  seed?: number | undefined;
  /** Rivers to draw (default 12), each a walk of hexsides. */
  rivers?: number | undefined;
  /** Rail lines run along every `railEvery`-th row and column (default 6). */
  railEvery?: number | undefined;
}

/** A 32-bit integer hash (from the "lowbias32" family): deterministic noise without a generator. */
export function hash32(x: number): number {
  x = (x ^ (x >>> 16)) >>> 0;
  x = Math.imul(x, 0x7feb352d) >>> 0;
  x = (x ^ (x >>> 15)) >>> 0;
  x = Math.imul(x, 0x846ca68b) >>> 0;
  return (x ^ (x >>> 16)) >>> 0;
}

/** Uniform-ish number in [0, 1) from a seed and two integers. */
function noise(seed: number, a: number, b: number): number {
  return hash32(hash32(hash32(seed) ^ a) ^ Math.imul(b, 0x9e3779b1)) / 2 ** 32;
}

/**
 * A synthetic `rrcc-skewed` map: every hex in the bounds is on it; the easternmost two columns are sea;
 * the west half of the remaining columns is country "AA", the east half "BB" (with `border` hexsides
 * between them); terrain is mostly clear with forest, mountain and swamp patches; `rivers` random
 * walks of river hexsides (every third a major river); rail along every `railEvery`-th row and
 * column; a city every 8 rows and 10 columns.
 */
export function syntheticMapJson(options: SyntheticMapOptions = {}): HexMapJsonInput {
  const rows = options.rows ?? [10, 72];
  const cols = options.cols ?? [0, 61];
  const seed = options.seed ?? 1;
  const grid = new HexGrid(rrccSkewed, rows, cols);
  const every = options.railEvery ?? 6;
  const seaCol = cols[0] + 1; // columns grow west: the lowest two columns are the east edge
  const midCol = Math.floor((cols[0] + 2 + cols[1]) / 2);
  const id = (r: number, c: number) => rrccSkewed.format(r, c);
  const hexes: HexMapJsonInput['hexes'] = [];
  const cities: NonNullable<HexMapJsonInput['cities']> = [];
  for (let r = rows[0]; r <= rows[1]; r++) {
    for (let c = cols[0]; c <= cols[1]; c++) {
      if (c <= seaCol) {
        hexes.push({ id: id(r, c), terrain: 'sea', country: null });
        continue;
      }
      const x = noise(seed, r, c);
      const terrain = x < 0.7 ? 'clear' : x < 0.85 ? 'forest' : x < 0.95 ? 'mountain' : 'swamp';
      const hex: HexMapJsonInput['hexes'][number] = { id: id(r, c), terrain, country: c > midCol ? 'AA' : 'BB' };
      if (c === seaCol + 1 && r % 5 === 0) hex.port = true;
      hexes.push(hex);
      if ((r - rows[0]) % 8 === 4 && (c - cols[0]) % 10 === 5) cities.push({ hex: id(r, c), name: `City ${id(r, c)}`, size: r % 16 === 4 ? 'major' : 'minor', source: 'synthetic' });
    }
  }
  const features = new Map<number, { between: [string, string]; features: Set<'river' | 'major-river' | 'border' | 'sea'> }>();
  const addFeature = (a: number, b: number, f: 'river' | 'major-river' | 'border' | 'sea') => {
    const s = grid.sideBetween(a, b);
    let e = features.get(s);
    if (!e) features.set(s, (e = { between: [grid.id(a), grid.id(b)], features: new Set() }));
    e.features.add(f);
  };
  const land = (h: number) => grid.inBounds[h] === 1 && grid.col(h) > seaCol;
  for (const h0 of grid.inBounds.keys()) {
    if (!land(h0)) continue;
    for (let d = 0; d < 3; d++) {
      const nb = grid.neighbour(h0, d);
      if (grid.inBounds[nb] !== 1) continue;
      if (!land(nb)) addFeature(h0, nb, 'sea');
      else if (grid.col(h0) > midCol !== grid.col(nb) > midCol) addFeature(h0, nb, 'border');
    }
  }
  // Rivers: from a seeded start, walk hexsides: each step moves to the next side around one of the
  // side's two hexes, drifting south-east.
  const riverCount = options.rivers ?? 12;
  for (let k = 0; k < riverCount; k++) {
    let h = grid.indexOf(rows[0] + Math.floor(noise(seed, 1000 + k, 1) * (rows[1] - rows[0] + 1)), seaCol + 2 + Math.floor(noise(seed, 1000 + k, 2) * (cols[1] - seaCol - 2)));
    const f = k % 3 === 0 ? 'major-river' : 'river';
    for (let step = 0; step < 40 && h >= 0 && land(h); step++) {
      const d = Math.floor(noise(seed, 2000 + k, step) * 6);
      const nb = grid.neighbour(h, d);
      if (nb < 0 || !land(nb)) break;
      addFeature(h, nb, f);
      // Move along the river: to a hex beside the side just marked, preferring south (SE/SW).
      const turn = noise(seed, 3000 + k, step) < 0.5 ? 4 : 5;
      h = grid.neighbour(h, turn);
    }
  }
  const rail: [string, string][] = [];
  for (let r = rows[0]; r <= rows[1]; r++) {
    for (let c = seaCol + 1; c <= cols[1]; c++) {
      const h = grid.indexOf(r, c);
      if ((r - rows[0]) % every === 0 && c < cols[1]) rail.push([id(r, c), id(r, c + 1)]); // W along the row
      if ((c - cols[0]) % every === 0 && r < rows[1]) rail.push([id(r, c), grid.id(grid.neighbour(h, 5))]); // SE down the column
    }
  }
  const hexsides = [...features.values()].map((e) => ({ between: e.between, features: [...e.features] }));
  const border: [string, string][] = hexsides.filter((s) => s.features.includes('border')).map((s) => s.between);
  return {
    format: HEXMAP_FORMAT,
    scheme: 'rrcc-skewed',
    fidelity: 'synthetic',
    title: `synthetic ${rows[1] - rows[0] + 1}x${cols[1] - cols[0] + 1} map, seed ${seed}`,
    rows: [rows[0], rows[1]],
    cols: [cols[0], cols[1]],
    terrains: ['clear', 'forest', 'mountain', 'swamp', 'sea'],
    hexes,
    hexsides,
    cities,
    rail,
    countries: { AA: { name: 'West' }, BB: { name: 'East' } },
    lines: { border },
    notes: ['synthetic: generated for tests and benchmarks'],
  };
}
