/** Zones of control as a per-hex mask, rebuilt when units move. */
import type { HexMap } from './map.ts';

/** Options of `zocMask`. */
export interface ZocOptions {
  /** Units to read from `units` (default all). */
  count?: number | undefined;
  /** Whether the unit in `fromHex` projects ZOC into `toHex` across `side` (default: always). */
  projects?: ((fromHex: number, toHex: number, side: number) => boolean) | undefined;
  /** Mark the units' own hexes too (default true). */
  ownHex?: boolean | undefined;
  /** Mask to fill (cleared first); a new `Uint8Array(map.size)` when absent. */
  out?: Uint8Array | undefined;
}

/**
 * The ZOC of a side: 1 in every on-map neighbour of a unit's hex into which it projects ZOC (and, unless
 * `ownHex: false`, in the unit's own hex). Entries of `units` below 0 (off the map) are skipped.
 */
export function zocMask(map: HexMap, units: ArrayLike<number>, options: ZocOptions = {}): Uint8Array {
  const out = options.out ?? new Uint8Array(map.size);
  out.fill(0);
  const count = Math.min(options.count ?? units.length, units.length);
  const projects = options.projects;
  const own = options.ownHex !== false;
  const nbs = map.neighbours;
  const sides = map.grid.sides;
  for (let i = 0; i < count; i++) {
    const h = units[i] as number;
    if (h < 0) continue;
    if (own) out[h] = 1;
    const base = h * 6;
    for (let d = 0; d < 6; d++) {
      const nb = nbs[base + d] as number;
      if (nb < 0) continue;
      if (projects === undefined || projects(h, nb, sides[base + d] as number)) out[nb] = 1;
    }
  }
  return out;
}
