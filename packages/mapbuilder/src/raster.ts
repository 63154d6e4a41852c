/**
 * A lon/lat raster filled from polygons by scanline (even-odd within each polygon), so that the
 * tens of thousands of point look-ups the builder makes are array reads instead of spherical
 * point-in-polygon tests. Planar in lon/lat, which is exact enough at 0.025 degrees for a window that
 * does not cross the antimeridian.
 */
import type { Geometry, Position } from 'geojson';

/** Window and resolution of a raster, degrees. */
export interface RasterWindow {
  readonly lon0: number;
  readonly lat0: number;
  readonly lon1: number;
  readonly lat1: number;
  readonly res: number;
}

export const EUROPE_WINDOW: RasterWindow = { lon0: -15, lat0: 28, lon1: 50, lat1: 72, res: 0.025 };

export class LonLatRaster {
  readonly w: number;
  readonly h: number;
  readonly data: Int16Array;
  constructor(readonly win: RasterWindow) {
    this.w = Math.round((win.lon1 - win.lon0) / win.res);
    this.h = Math.round((win.lat1 - win.lat0) / win.res);
    this.data = new Int16Array(this.w * this.h);
  }

  /** Value at a point; 0 outside the window. */
  get(lon: number, lat: number): number {
    const i = Math.floor((lon - this.win.lon0) / this.win.res);
    const j = Math.floor((lat - this.win.lat0) / this.win.res);
    if (i < 0 || j < 0 || i >= this.w || j >= this.h) return 0;
    return this.data[j * this.w + i]!;
  }

  /** Sets `value` on every cell whose centre is inside the (Multi)Polygon. */
  fill(geometry: Geometry, value: number): void {
    if (geometry.type === 'Polygon') this.fillPolygon(geometry.coordinates, value);
    else if (geometry.type === 'MultiPolygon') for (const p of geometry.coordinates) this.fillPolygon(p, value);
    else if (geometry.type === 'GeometryCollection') for (const g of geometry.geometries) this.fill(g, value);
  }

  fillPolygon(rings: readonly (readonly Position[])[], value: number): void {
    const { lon0, lat0, res } = this.win;
    const rows = new Map<number, number[]>();
    for (const ring of rings) {
      for (let k = 0; k + 1 < ring.length; k++) {
        const a = ring[k]!;
        const b = ring[k + 1]!;
        const ya = a[1]!, yb = b[1]!;
        if (ya === yb) continue;
        const ymin = Math.min(ya, yb), ymax = Math.max(ya, yb);
        const j0 = Math.max(0, Math.ceil((ymin - lat0) / res - 0.5));
        const j1 = Math.min(this.h - 1, Math.ceil((ymax - lat0) / res - 0.5) - 1);
        for (let j = j0; j <= j1; j++) {
          const y = lat0 + (j + 0.5) * res;
          const x = a[0]! + ((y - ya) / (yb - ya)) * (b[0]! - a[0]!);
          let list = rows.get(j);
          if (!list) rows.set(j, (list = []));
          list.push(x);
        }
      }
    }
    for (const [j, xs] of rows) {
      xs.sort((p, q) => p - q);
      for (let k = 0; k + 1 < xs.length; k += 2) {
        const i0 = Math.max(0, Math.ceil((xs[k]! - lon0) / res - 0.5));
        const i1 = Math.min(this.w - 1, Math.ceil((xs[k + 1]! - lon0) / res - 0.5) - 1);
        const base = j * this.w;
        for (let i = i0; i <= i1; i++) this.data[base + i] = value;
      }
    }
  }
}

/** Planar point-in-polygon (even-odd) on a lon/lat ring, for the small hand-drawn polygons. */
export function inRing(ring: readonly (readonly [number, number])[] | readonly number[][], lon: number, lat: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number];
    const [xj, yj] = ring[j] as [number, number];
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
