/**
 * A `HexMap` as a replay viewer draws it: the engine's `BoardHexLayout` (printed ids, centres from the
 * grid's own geometry, terrain, country, hexside features, cities, rail), for the whole map or the part
 * a game chooses. Knows no game: what to draw and which terrains are water are the caller's to say.
 */
import type { BoardCity, BoardHex, BoardHexLayout, BoardHexside, BoardTerrain } from '@salient/engine';
import { HexFlag, SIDE_FEATURE_BITS, SideFeature, type HexMap } from './map.ts';
import { SIDE_FEATURE_NAMES } from './map-json.ts';

/** Options of {@link hexBoardLayout}. */
export interface HexBoardLayoutOptions {
  /** Which on-map hexes to draw, by hex index; absent: every hex of the map. */
  include?: (h: number) => boolean;
  /**
   * Whether a terrain is water (no control tint); absent: a terrain is water when every hex of it has
   * no country (the map format gives sea and lake hexes none).
   */
  water?: (terrain: string) => boolean;
}

/** Centres are rounded to this many units (a thousandth of a hex) so the JSON stays short and exact. */
const round = (v: number): number => Math.round(v * 1000) / 1000 + 0;

/** "major-river" -> "Major river". */
const legendName = (id: string): string => (id.charAt(0).toUpperCase() + id.slice(1)).replace(/-/g, ' ');

/** Feature bits of a hexside in the map file's names, in bit order. */
const FEATURE_BITS: readonly [number, string][] = SIDE_FEATURE_NAMES.map((name) => [SIDE_FEATURE_BITS[name], name]);

/**
 * The drawn hexes of `map` (all, or those `include` keeps) as a board layout. A hexside is listed once,
 * when both its hexes are drawn and it carries a feature other than rail; rail pairs likewise. Output
 * order follows hex indices, so it is stable.
 */
export function hexBoardLayout(map: HexMap, options: HexBoardLayoutOptions = {}): BoardHexLayout {
  const grid = map.grid;
  const drawn = new Uint8Array(map.size);
  for (const h of map.hexes) if (!options.include || options.include(h)) drawn[h] = 1;

  const landTerrain = new Uint8Array(map.terrains.length);
  for (const h of map.hexes) if (map.country[h] !== -1) landTerrain[map.terrain[h]!] = 1;
  const terrains: BoardTerrain[] = map.terrains.map((id, t) => ({ id, name: legendName(id), water: options.water ? options.water(id) : landTerrain[t] === 0 }));

  const hexes: BoardHex[] = [];
  const hexsides: BoardHexside[] = [];
  const rail: [string, string][] = [];
  for (const h of map.hexes) {
    if (!drawn[h]) continue;
    const id = grid.id(h);
    const x: BoardHex = { id, x: round(grid.centreX[h]!), y: round(grid.centreY[h]!), terrain: map.terrainName(h)! };
    const group = map.countryCode(h);
    if (group !== undefined) x.group = group;
    const name = map.hexNames.get(h);
    if (name !== undefined) x.name = name;
    if ((map.flags[h]! & HexFlag.PORT) !== 0) x.port = true;
    hexes.push(x);
    // Each side once, from the hex with the lower index.
    for (let d = 0; d < 6; d++) {
      const nb = grid.adjacent[h * 6 + d]!;
      if (nb < h || drawn[nb] !== 1) continue;
      const side = grid.sides[h * 6 + d]!;
      const bits = map.sideFeatures[side]!;
      if (bits & SideFeature.RAIL) rail.push([id, grid.id(nb)]);
      const features = FEATURE_BITS.filter(([bit]) => (bits & bit) !== 0).map(([, n]) => n);
      if (!features.length) continue;
      const s: BoardHexside = { a: id, b: grid.id(nb), features };
      const sideName = map.sideNames.get(side);
      if (sideName !== undefined) s.name = sideName;
      hexsides.push(s);
    }
  }
  const cities: BoardCity[] = map.cities
    .filter((c) => drawn[c.hex] === 1)
    .map((c) => (c.capital ? { hex: c.id, name: c.name, kind: c.size, capital: true } : { hex: c.id, name: c.name, kind: c.size }));
  return { scheme: grid.scheme.name, orientation: grid.orientation, terrains, hexes, hexsides, cities, rail };
}
