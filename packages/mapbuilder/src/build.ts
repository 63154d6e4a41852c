/**
 * The Empires & Alliances approximate map: anchors -> fitted transform -> every hex classified from
 * Natural Earth (land, sea, lake, 1914 country, terrain), hexside features, cities, rail and the 1918
 * start line. Pure apart from reading its inputs: the same inputs give the same bytes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { FeatureCollection, Geometry, LineString, MultiLineString } from 'geojson';
import { feature } from 'topojson-client';
import { geoDistance } from 'd3-geo';
import type { Topology, GeometryCollection as TopoCollection } from 'topojson-specification';
import { HexGrid, schemeByName, type HexScheme, type HexMapJsonInput } from '@salient/hexmap';
import { readAnchors, type Anchor } from './anchors.ts';
import { COUNTRY_NAMES, code1914 } from './countries.ts';
import { centreOf, formatId, idAt, LAYOUTS, parseId } from './hexgeom.ts';
import { EUROPE_WINDOW, LonLatRaster, inRing } from './raster.ts';
import { compareLayouts, europeProjection, fitTransform, type HexTransform, type LayoutVerdict } from './transform.ts';
import { applyAffine } from './fit.ts';

const require = createRequire(import.meta.url);

/** Where the inputs are. `geodata` is the folder holding Natural Earth's *.geojson (outside the repo). */
export interface BuildInputs {
  /** Repository root. */
  readonly root: string;
  /** Folder with rivers.geojson, lakes.geojson, physical-regions.geojson. */
  readonly geodata: string;
  /** Force a layout instead of the one the anchors support best. */
  readonly scheme?: string;
}

/** Paths (relative to the repository root) of everything the E&A build reads and writes. */
export const EA_PATHS = {
  pack: 'packages/games/empires-alliances/packs/approximation',
  anchors: 'packages/games/empires-alliances/packs/approximation/anchors.json',
  borders: 'packages/games/empires-alliances/packs/approximation/borders-1918.json',
  map: 'packages/games/empires-alliances/packs/approximation/map.json',
  mapMd: 'packages/games/empires-alliances/packs/approximation/MAP.md',
  svg: 'docs/maps/empires-alliances.svg',
  data: 'packages/mapbuilder/data/empires-alliances',
} as const;

interface BorderEdit {
  readonly id: string;
  readonly name: string;
  readonly to: string;
  readonly from: readonly string[];
  readonly polygon: readonly [number, number][];
  readonly estimate: string;
}
interface CityIn {
  readonly name: string;
  readonly lon: number;
  readonly lat: number;
  readonly size: 'major' | 'minor';
  readonly source: string;
  readonly capital?: boolean;
  readonly fort?: boolean;
  readonly port?: boolean;
  readonly hex?: string;
}
interface RailLine {
  readonly name: string;
  readonly via: readonly string[];
}
interface Area {
  readonly name: string;
  readonly terrain: string;
  readonly polygon: readonly [number, number][];
  readonly estimate: string;
}

/** What a hex became, before writing. */
export interface HexInfo {
  readonly id: string;
  readonly h: number;
  kind: 'land' | 'sea' | 'lake';
  terrain: string;
  country: string | null;
  estimate: string[];
  port?: boolean;
  fort?: boolean;
}

/** Everything the build produced, for the writers (JSON, Markdown, SVG) and the tests. */
export interface BuildResult {
  readonly scheme: HexScheme;
  readonly grid: HexGrid;
  readonly transform: HexTransform;
  readonly layouts: readonly LayoutVerdict[];
  /** The layout comparison repeated on subsets of the anchors, to show the verdict does not hang on a few. */
  readonly layoutSubsets: readonly { name: string; count: number; verdicts: readonly LayoutVerdict[] }[];
  readonly anchors: readonly Anchor[];
  readonly hexes: ReadonlyMap<string, HexInfo>;
  readonly json: HexMapJsonInput;
  /** Hex-space polylines for drawing: rivers (name, major) and the front. */
  readonly drawRivers: readonly { name: string; major: boolean; pts: [number, number][] }[];
  readonly germanSide: ReadonlySet<string>;
  readonly alliedSide: ReadonlySet<string>;
  readonly sectorDistances: readonly { hex: string; sector: string; side: string; distance: number }[];
  readonly cityMoves: readonly string[];
  readonly counts: Readonly<Record<string, number>>;
  /** Kilometres per hex width east-west and north-south at some places (the warp's local distortion). */
  readonly localScale: readonly { place: string; ew: number; ns: number }[];
  /** The hex the warp moves furthest. */
  readonly warpMaxAt: string;
  readonly edits: readonly BorderEdit[];
  readonly areas: readonly Area[];
  readonly rail: readonly RailLine[];
}

const TERRAINS = ['clear', 'forest', 'mountain', 'swamp', 'sea', 'lake'] as const;
/** Natural Earth 50m ranges taken as mountain terrain. */
const RANGES = new Set(['ALPS', 'CARPATHIAN MOUNTAINS', 'APPENNINI', 'PYRENEES', 'Balkan Mts.', 'Dinaric Alps', 'KJØLEN MOUNTAINS', 'PONTIC MOUNTAINS', 'Cord. Cantábrica']);
/** Rivers drawn as `major-river`: Natural Earth scalerank <= 5 (Danube, Volga, Dnieper, Rhine, Oder, Seine, Dvina, Elbe, Loire, Vistula) and these. */
const MAJOR_NAMES = new Set(['Neman', 'Dniester', 'Don', 'Po']);
/** Smaller rivers kept even when their scalerank is 8 or 9 (named in the rules or fought over). */
const MINOR_NAMES = /^(Meuse|Maas|Marne|Aisne|Somme|Oise|Narew|San|Bug|Western Bug|Isonzo|Soca|Piave|Struma|Vardar|Maritsa|Drina|Sava|Morava|Warta|Bzura|Luga|Volkhov|Yser|Schelde|Escaut|Mosel|Moselle|Prut|Siret|Olt|Jiu|Tisa|Pripyat)$/;

/** Places that set the printed extent (lon, lat): the map reaches them with one hex to spare. */
const EXTENT_POINTS: readonly [number, number][] = [
  [-0.6, 44.8], // Bordeaux
  [0.1, 49.5], // Le Havre
  [30.3, 59.95], // St Petersburg
  [39.8, 47.2], // Rostov
  [38.0, 55.75], // Moscow
  [33.0, 39.9], // Angora
  [27.1, 38.4], // Smyrna
  [23.7, 37.95], // Athens
  [15.6, 38.15], // Messina
];

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** Seven sample offsets in hex space (centre and six points toward the corners). */
const SAMPLES: readonly [number, number][] = [[0, 0], ...[30, 90, 150, 210, 270, 330].map((deg) => [0.35 * Math.cos((deg * Math.PI) / 180), 0.35 * Math.sin((deg * Math.PI) / 180)] as [number, number])];

function segCross(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  const d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

/** Builds the E&A approximate map from the committed inputs and the Natural Earth folder. */
export function buildEmpiresAlliances(inputs: BuildInputs): BuildResult {
  const { root, geodata } = inputs;
  const anchorsFile = readAnchors(join(root, EA_PATHS.anchors));
  const anchors = anchorsFile.anchors;
  const edits = readJson<{ edits: BorderEdit[] }>(join(root, EA_PATHS.borders)).edits;
  const citiesIn = readJson<{ cities: CityIn[] }>(join(root, EA_PATHS.data, 'cities.json')).cities;
  const rail = readJson<{ lines: RailLine[] }>(join(root, EA_PATHS.data, 'rail.json')).lines;
  const areas = readJson<{ areas: Area[] }>(join(root, EA_PATHS.data, 'terrain-areas.json')).areas;
  const front = readJson<{ points: [number, number][] }>(join(root, EA_PATHS.data, 'front-1918.json')).points;

  // --- layout and transform ------------------------------------------------------------------------
  const layouts = compareLayouts(anchors, LAYOUTS);
  const subsets: [string, readonly Anchor[]][] = [
    ['all anchors', anchors],
    ['without the S3 sector hexes (placed partly from neighbour relations)', anchors.filter((a) => !a.sector)],
    ['exact and named-area only', anchors.filter((a) => a.certainty !== 'estimate')],
    ['west of 12E', anchors.filter((a) => a.lon < 12)],
    ['east of 12E', anchors.filter((a) => a.lon >= 12)],
  ];
  const layoutSubsets = subsets.map(([name, list]) => ({ name, count: list.length, verdicts: compareLayouts(list, LAYOUTS) }));
  const best = [...layouts].sort((a, b) => a.similarity.rms - b.similarity.rms)[0]!;
  const scheme = schemeByName(inputs.scheme ?? best.scheme);
  const transform = fitTransform(anchors, scheme);
  const fwd = (lon: number, lat: number): [number, number] => {
    const p = transform.forward(lon, lat);
    if (!p) throw new Error(`(${lon}, ${lat}) does not project`);
    return p;
  };

  // --- extent: a rectangle in map space ------------------------------------------------------------
  const ext = EXTENT_POINTS.map(([lon, lat]) => fwd(lon, lat));
  const x0 = Math.min(...ext.map((p) => p[0])) - 1;
  const x1 = Math.max(...ext.map((p) => p[0])) + 1;
  const y0 = Math.min(...ext.map((p) => p[1])) - 1;
  const y1 = Math.max(...ext.map((p) => p[1])) + 1;
  const SQ = Math.sqrt(3) / 2;
  const rowMin = Math.ceil(y0 / SQ), rowMax = Math.floor(y1 / SQ);
  const ids: string[] = [];
  let colMin = Infinity, colMax = -Infinity;
  for (let row = rowMin; row <= rowMax; row++) {
    for (let col = 0; col <= 99; col++) {
      const [x] = centreOf(scheme, row, col);
      // printed columns start at 01: the far east (Rostov) is clipped there
      if (x < x0 || x > x1 || col < 1) continue;
      ids.push(formatId(row, col));
      colMin = Math.min(colMin, col);
      colMax = Math.max(colMax, col);
    }
  }
  if (rowMin < 0 || rowMax > 99 || colMin < 1 || colMax > 98) throw new Error(`extent rows ${rowMin}-${rowMax}, cols ${colMin}-${colMax} does not fit RRCC ids`);
  const grid = new HexGrid(scheme, [rowMin, rowMax], [colMin, colMax]);
  ids.sort();

  // --- rasters ---------------------------------------------------------------------------------------
  const topo = readJson<Topology>(require.resolve('world-atlas/countries-50m.json'));
  const countries = feature(topo, topo.objects['countries'] as TopoCollection) as FeatureCollection<Geometry, { name?: string }>;
  const codes = Object.keys(COUNTRY_NAMES).sort();
  const countryRaster = new LonLatRaster(EUROPE_WINDOW);
  for (const f of countries.features) countryRaster.fill(f.geometry, codes.indexOf(code1914(f.id, f.properties?.name)) + 1);
  const lakes = readJson<FeatureCollection>(join(geodata, 'lakes.geojson'));
  const lakeRaster = new LonLatRaster(EUROPE_WINDOW);
  for (const f of lakes.features) lakeRaster.fill(f.geometry, 1);
  const phys = readJson<FeatureCollection<Geometry, { featurecla?: string; name?: string }>>(join(geodata, 'physical-regions.geojson'));
  const mountainRaster = new LonLatRaster(EUROPE_WINDOW);
  for (const f of phys.features) {
    if (f.properties.featurecla === 'Range/mtn' && RANGES.has(f.properties.name ?? '')) mountainRaster.fill(f.geometry, 1);
    if (f.properties.featurecla === 'Wetlands') mountainRaster.fill(f.geometry, 2);
  }

  // --- classify hexes -------------------------------------------------------------------------------
  const hexes = new Map<string, HexInfo>();
  const lonlatOf = new Map<string, [number, number]>();
  for (const id of ids) {
    const h = grid.index(id);
    const cx = grid.centreX[h]!, cy = grid.centreY[h]!;
    const kinds: ('land' | 'sea' | 'lake')[] = [];
    const ccount = new Map<string, number>();
    const edited = new Set<string>();
    let mountain = 0, swamp = 0;
    const areaHits = new Map<string, number>();
    for (const [dx, dy] of SAMPLES) {
      const ll = transform.inverse(cx + dx, cy + dy);
      if (!ll) {
        kinds.push('sea');
        continue;
      }
      const [lon, lat] = ll;
      if (dx === 0 && dy === 0) lonlatOf.set(id, [lon, lat]);
      if (lakeRaster.get(lon, lat)) {
        kinds.push('lake');
        continue;
      }
      const ci = countryRaster.get(lon, lat);
      if (!ci) {
        kinds.push('sea');
        continue;
      }
      kinds.push('land');
      let code = codes[ci - 1]!;
      for (const e of edits) {
        if (e.from.includes(code) && inRing(e.polygon, lon, lat)) {
          code = e.to;
          edited.add(e.id);
        }
      }
      ccount.set(code, (ccount.get(code) ?? 0) + 1);
      const m = mountainRaster.get(lon, lat);
      if (m === 1) mountain++;
      if (m === 2) swamp++;
      for (const a of areas) if (inRing(a.polygon, lon, lat)) areaHits.set(a.name, (areaHits.get(a.name) ?? 0) + 1);
    }
    const land = kinds.filter((k) => k === 'land').length;
    const lake = kinds.filter((k) => k === 'lake').length;
    const info: HexInfo = { id, h, kind: 'sea', terrain: 'sea', country: null, estimate: [] };
    if (land >= 4) {
      info.kind = 'land';
      let bestCode = '';
      let bestN = 0;
      for (const [code, n] of [...ccount].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (n > bestN) [bestCode, bestN] = [code, n];
      info.country = bestCode;
      const edit = edits.find((e) => edited.has(e.id) && e.to === bestCode);
      if (edit) info.estimate.push(`country: ${edit.id} (borders-1918.json)`);
      let terrain = 'clear';
      if (mountain >= 4) terrain = 'mountain';
      for (const a of areas) {
        if ((areaHits.get(a.name) ?? 0) >= 4) {
          terrain = a.terrain;
          info.estimate.push(`terrain: ${a.name}`);
        }
      }
      if (swamp >= 4) terrain = 'swamp';
      info.terrain = terrain;
    } else if (lake >= 4 || (lake > 0 && lake >= kinds.length - land - lake)) {
      info.kind = 'lake';
      info.terrain = 'lake';
    }
    hexes.set(id, info);
  }
  // Britain (2.3) and French North Africa (2.4) are off-map boxes in E&A: their land is not on the map.
  const offMap: string[] = [];
  for (const id of [...ids]) {
    const x = hexes.get(id)!;
    const ll = lonlatOf.get(id);
    if (x.kind === 'land' && (x.country === 'GB' || (ll && ll[1] < 36.9 && ll[0] < 12))) {
      hexes.delete(id);
      offMap.push(id);
    }
  }
  for (const id of offMap) ids.splice(ids.indexOf(id), 1);
  const get = (id: string): HexInfo => {
    const x = hexes.get(id);
    if (!x) throw new Error(`hex ${id} is outside the built extent`);
    return x;
  };

  /** The most common country among a hex's land neighbours (ties: first in code order). */
  const neighbourCountry = (id: string): string => {
    const h = grid.index(id);
    const n = new Map<string, number>();
    for (let d = 0; d < 6; d++) {
      const k = grid.neighbour(h, d);
      const c = k >= 0 ? hexes.get(grid.id(k)) : undefined;
      if (c?.kind === 'land' && c.country) n.set(c.country, (n.get(c.country) ?? 0) + 1);
    }
    const best = [...n].sort((p, q) => q[1] - p[1] || (p[0] < q[0] ? -1 : 1))[0];
    return best ? best[0] : 'OT';
  };
  /** 1914 country at a point (outlines plus the border edits), or undefined at sea. */
  const countryAt = (lon: number, lat: number): string | undefined => {
    const ci = countryRaster.get(lon, lat);
    if (!ci) return undefined;
    let code = codes[ci - 1]!;
    for (const e of edits) if (e.from.includes(code) && inRing(e.polygon, lon, lat)) code = e.to;
    return code;
  };
  // Anchors: their hexes must be land (units set up there) of the country the rules imply.
  for (const a of anchors) {
    const x = get(a.hex);
    if (x.kind !== 'land') {
      x.kind = 'land';
      x.terrain = 'clear';
      x.country = a.country ?? neighbourCountry(a.hex);
      x.estimate.push(`land: anchor ${a.hex} (${a.place}) must be land; Natural Earth put the hex centre in water`);
    }
    if (a.country && x.country !== a.country) {
      x.estimate.push(`country: ${a.cite} needs ${a.country} here (the outlines gave ${x.country})`);
      x.country = a.country;
    }
  }
  // 22.11: the printed map has forest in 2751 (the optional rule removes it); 2851/2852 stay as found.
  get('2751').terrain = 'forest';
  get('2751').estimate.push('terrain: 22.11 implies the printed Argonne forest is hex 2751 (its optional rule makes 2751 clear)');

  // --- rivers ---------------------------------------------------------------------------------------
  const sideFeat = new Map<string, { f: Set<string>; name?: string }>();
  const addSide = (a: string, b: string, f: string, name?: string): void => {
    const k = pairKey(a, b);
    let s = sideFeat.get(k);
    if (!s) sideFeat.set(k, (s = { f: new Set() }));
    s.f.add(f);
    if (name && !s.name) s.name = name;
  };
  const drawRivers: { name: string; major: boolean; pts: [number, number][] }[] = [];
  const riverFiles = ['rivers.geojson'];
  for (const file of riverFiles) {
    const fc = readJson<FeatureCollection<LineString | MultiLineString, { scalerank: number; featurecla: string; name: string | null }>>(join(geodata, file));
    for (const f of fc.features) {
      const p = f.properties;
      if (p.featurecla !== 'River') continue;
      const name = p.name ?? '';
      if (!(p.scalerank <= 7 || (p.scalerank <= 9 && MINOR_NAMES.test(name)))) continue;
      const major = p.scalerank <= 5 || MAJOR_NAMES.has(name);
      const lines = f.geometry.type === 'LineString' ? [f.geometry.coordinates] : f.geometry.coordinates;
      for (const line of lines) {
        const pts: [number, number][] = [];
        for (const c of line) {
          const lon = c[0]!, lat = c[1]!;
          if (lon < -12 || lon > 48 || lat < 33 || lat > 68) continue;
          const q = transform.forward(lon, lat);
          if (q && q[0] >= x0 - 2 && q[0] <= x1 + 2 && q[1] >= y0 - 2 && q[1] <= y1 + 2) pts.push(q);
        }
        if (pts.length < 2) continue;
        drawRivers.push({ name, major, pts });
        for (let k = 0; k + 1 < pts.length; k++) {
          const [ax, ay] = pts[k]!;
          const [bx, by] = pts[k + 1]!;
          const r0 = Math.floor(Math.min(ay, by) / SQ) - 1, r1 = Math.ceil(Math.max(ay, by) / SQ) + 1;
          for (let row = Math.max(r0, rowMin); row <= Math.min(r1, rowMax); row++) {
            for (let col = colMin; col <= colMax; col++) {
              const [hx] = centreOf(scheme, row, col);
              if (hx < Math.min(ax, bx) - 1.5 || hx > Math.max(ax, bx) + 1.5) continue;
              const h = grid.indexOf(row, col);
              for (let d = 0; d < 3; d++) {
                const n = grid.neighbour(h, d);
                if (n < 0 || !grid.inBounds[n]) continue;
                if (segCross(grid.centreX[h]!, grid.centreY[h]!, grid.centreX[n]!, grid.centreY[n]!, ax, ay, bx, by)) {
                  const a = grid.id(h), b = grid.id(n);
                  if (hexes.get(a)?.kind === 'land' && hexes.get(b)?.kind === 'land') addSide(a, b, major ? 'major-river' : 'river', name || undefined);
                }
              }
            }
          }
        }
      }
    }
  }
  // A hexside that is both keeps the bigger river.
  for (const s of sideFeat.values()) if (s.f.has('major-river')) s.f.delete('river');

  // --- water, borders, straits, alpine ----------------------------------------------------------------
  for (const id of ids) {
    const a = get(id);
    for (let d = 0; d < 3; d++) {
      const n = grid.neighbour(a.h, d);
      if (n < 0 || !grid.inBounds[n]) continue;
      const b = hexes.get(grid.id(n));
      if (!b) continue;
      if (a.kind === 'land' && b.kind === 'land') {
        if (a.country !== b.country) {
          addSide(a.id, b.id, 'border');
          if (a.terrain === 'mountain' && b.terrain === 'mountain') addSide(a.id, b.id, 'alpine');
        }
        // Strait: two land hexes whose centres are joined across water.
        let water = 0;
        for (const t of [0.35, 0.5, 0.65]) {
          const ll = transform.inverse(grid.centreX[a.h]! + t * (grid.centreX[n]! - grid.centreX[a.h]!), grid.centreY[a.h]! + t * (grid.centreY[n]! - grid.centreY[a.h]!));
          if (ll && !countryRaster.get(ll[0], ll[1]) && !lakeRaster.get(ll[0], ll[1])) water++;
        }
        if (water >= 2) addSide(a.id, b.id, 'strait');
      } else if (a.kind === 'land' || b.kind === 'land') {
        const other = a.kind === 'land' ? b : a;
        addSide(a.id, b.id, other.kind === 'lake' ? 'lake' : 'sea');
      }
    }
  }

  // --- cities -----------------------------------------------------------------------------------------
  const cityMoves: string[] = [];
  const cityHex = new Map<string, string>();
  const taken = new Map<string, string>();
  const cities: NonNullable<HexMapJsonInput['cities']> = [];
  const landNeighbours = (id: string): string[] => {
    const h = grid.index(id);
    const out: string[] = [];
    for (let d = 0; d < 6; d++) {
      const n = grid.neighbour(h, d);
      if (n >= 0 && grid.inBounds[n] && hexes.get(grid.id(n))?.kind === 'land') out.push(grid.id(n));
    }
    return out;
  };
  const landIds = ids.filter((id) => get(id).kind === 'land');
  for (const c of citiesIn) {
    const p = transform.forward(c.lon, c.lat);
    if (!p) throw new Error(`${c.name} does not project`);
    let id = c.hex ?? idAt(scheme, p[0], p[1]);
    const note: string[] = [];
    if (!hexes.has(id)) {
      // just past the printed edge (the fit extrapolates there): the nearest edge hex, if close
      let best = '';
      let bestD = Infinity;
      for (const l of landIds) {
        const h = grid.index(l);
        const d = Math.hypot(grid.centreX[h]! - p[0], grid.centreY[h]! - p[1]);
        if (d < bestD) [best, bestD] = [l, d];
      }
      if (bestD > 2.5) {
        cityMoves.push(`${c.name}: projects to ${id}, ${bestD.toFixed(1)} hexes outside the printed extent (not placed; an off-map place in E&A)`);
        continue;
      }
      note.push(`projects to ${id} just outside the extent, placed on the edge hex ${best}`);
      cityMoves.push(`${c.name}: ${note[0]}`);
      id = best;
    }
    if (get(id).kind !== 'land' || taken.has(id)) {
      // nearest free land hex, by distance from the projected point
      const cands = [id, ...landNeighbours(id)].flatMap((x) => [x, ...landNeighbours(x)]);
      const free = [...new Set(cands)].filter((x) => get(x).kind === 'land' && !taken.has(x));
      free.sort((u, v) => {
        const hu = grid.index(u), hv = grid.index(v);
        const du = Math.hypot(grid.centreX[hu]! - p[0], grid.centreY[hu]! - p[1]);
        const dv = Math.hypot(grid.centreX[hv]! - p[0], grid.centreY[hv]! - p[1]);
        return du - dv || (u < v ? -1 : 1);
      });
      const to = free[0];
      if (!to) throw new Error(`no free land hex near ${c.name}`);
      note.push(`moved from ${id} (${taken.has(id) ? `taken by ${taken.get(id)}` : 'water'}) to ${to}`);
      cityMoves.push(`${c.name}: ${note[0]}`);
      id = to;
    }
    taken.set(id, c.name);
    cityHex.set(c.name, id);
    const x = get(id);
    if (c.fort) x.fort = true;
    const coastal = landNeighbours(id).length < 6 && [0, 1, 2, 3, 4, 5].some((d) => {
      const n = grid.neighbour(grid.index(id), d);
      return n >= 0 && grid.inBounds[n] && hexes.get(grid.id(n))?.kind === 'sea';
    });
    if (c.port === true || (coastal && c.port !== false)) x.port = true;
    if (c.port === true && !coastal) x.estimate.push(`port: ${c.name} is a port in the rules; at this scale its hex does not touch a sea hex (estuary or river port)`);
    // The city's own country wins over the hex majority (a city near a border).
    const own = countryAt(c.lon, c.lat);
    if (own && x.country !== own && !anchors.some((a) => a.hex === id && a.country)) {
      x.estimate.push(`country: ${c.name} lies in ${own}; the hex majority was ${x.country}`);
      x.country = own;
    }
    const source = c.hex ? c.source : note.length ? `${c.source}; hex: projection, ${note.join('; ')}` : `${c.source}; hex: projection`;
    cities.push({ hex: id, name: c.name, size: c.size, ...(c.capital ? { capital: true } : {}), source });
  }
  cities.sort((a, b) => (a.hex < b.hex ? -1 : a.hex > b.hex ? 1 : 0));

  // --- rail -------------------------------------------------------------------------------------------
  const railSet = new Set<string>();
  const wpHex = (w: string): string => {
    if (w.startsWith('hex:')) return w.slice(4);
    if (w.startsWith('@')) {
      const [lon, lat] = w.slice(1).split(',').map(Number) as [number, number];
      const q = fwd(lon, lat);
      let id = idAt(scheme, q[0], q[1]);
      if (hexes.get(id)?.kind !== 'land') id = landNeighbours(id)[0] ?? id;
      return id;
    }
    const id = cityHex.get(w);
    if (!id) throw new Error(`rail.json: waypoint '${w}' is not a placed city`);
    return id;
  };
  const landPath = (a: string, b: string): string[] => {
    const ha = grid.index(a), hb = grid.index(b);
    const straight = grid.line(ha, hb).map((h) => grid.id(h));
    if (straight.every((id) => hexes.get(id)?.kind === 'land')) return straight;
    // breadth-first over land, neighbours in direction order (deterministic)
    const prev = new Map<number, number>([[ha, -1]]);
    const queue = [ha];
    for (let i = 0; i < queue.length; i++) {
      const h = queue[i]!;
      if (h === hb) break;
      for (let d = 0; d < 6; d++) {
        const n = grid.neighbour(h, d);
        if (n < 0 || !grid.inBounds[n] || prev.has(n)) continue;
        const k = hexes.get(grid.id(n))?.kind;
        const across = k !== 'land' ? false : true;
        if (!across) continue;
        prev.set(n, h);
        queue.push(n);
      }
    }
    if (!prev.has(hb)) return straight; // water crossing (ferry): keep the straight line
    const path: string[] = [];
    for (let h = hb; h !== -1; h = prev.get(h)!) path.push(grid.id(h));
    return path.reverse();
  };
  for (const line of rail) {
    const hs = line.via.map(wpHex);
    for (let k = 0; k + 1 < hs.length; k++) {
      const path = landPath(hs[k]!, hs[k + 1]!);
      for (let i = 0; i + 1 < path.length; i++) {
        const a = path[i]!, b = path[i + 1]!;
        if (hexes.get(a)?.kind === 'land' && hexes.get(b)?.kind === 'land') railSet.add(pairKey(a, b));
      }
    }
  }

  // --- the 1918 start line ----------------------------------------------------------------------------
  const frontPts = front.map(([lon, lat]) => fwd(lon, lat));
  const sectorAnchors = anchors.filter((a) => a.side);
  const WEST = new Set(['FR', 'BE', 'GE', 'LU']);
  const germanSide = new Set<string>();
  const alliedSide = new Set<string>();
  const fy0 = Math.min(...frontPts.map((p) => p[1])), fy1 = Math.max(...frontPts.map((p) => p[1]));
  const frontRows: number[] = [];
  for (let row = Math.ceil(fy0 / SQ); row <= Math.floor(fy1 / SQ); row++) frontRows.push(row);
  const boundary = new Map<number, number>();
  for (const row of frontRows) {
    const y = row * SQ;
    let xf: number | undefined;
    for (let k = 0; k + 1 < frontPts.length && xf === undefined; k++) {
      const [ax, ay] = frontPts[k]!;
      const [bx, by] = frontPts[k + 1]!;
      if ((ay <= y && y <= by) || (by <= y && y <= ay)) xf = ay === by ? ax : ax + ((y - ay) / (by - ay)) * (bx - ax);
    }
    if (xf === undefined) continue;
    // The sector hexes overrule the drawn front: allied ones west of the boundary, German ones east.
    let lo = -Infinity, hi = Infinity;
    for (const a of sectorAnchors) {
      const { row: r, col } = parseId(a.hex);
      if (r !== row) continue;
      const [x] = centreOf(scheme, r, col);
      if (a.side === 'allied') lo = Math.max(lo, x);
      else hi = Math.min(hi, x);
    }
    if (lo >= hi) throw new Error(`row ${row}: an allied sector hex lies east of a German one`);
    boundary.set(row, Math.min(Math.max(xf, lo + 0.5), hi - 0.5));
  }
  for (const id of ids) {
    const x = get(id);
    const { row } = parseId(id);
    const b = boundary.get(row);
    if (b === undefined || x.kind !== 'land' || !x.country || !WEST.has(x.country)) continue;
    const cx = grid.centreX[x.h]!;
    if (Math.abs(cx - b) > 12) continue;
    (cx > b ? germanSide : alliedSide).add(id);
  }
  const startLine: [string, string][] = [];
  for (const id of [...germanSide].sort()) {
    const h = grid.index(id);
    for (let d = 0; d < 6; d++) {
      const n = grid.neighbour(h, d);
      if (n < 0 || !grid.inBounds[n]) continue;
      const nid = grid.id(n);
      if (alliedSide.has(nid)) startLine.push([id, nid]);
    }
  }
  startLine.sort((p, q) => (p[0] + p[1] < q[0] + q[1] ? -1 : 1));
  const onLine = new Set(startLine.flat());
  const sectorDistances = sectorAnchors.map((a) => {
    // steps to the nearest hex touching the line, plus one
    let best = Infinity;
    const h = grid.index(a.hex);
    for (const l of onLine) best = Math.min(best, grid.distance(h, grid.index(l)));
    return { hex: a.hex, sector: a.sector ?? '', side: a.side ?? '', distance: best + 1 };
  });

  // --- JSON -------------------------------------------------------------------------------------------
  const used = new Set<string>();
  const hexOut: HexMapJsonInput['hexes'] = ids.map((id) => {
    const x = get(id);
    if (x.country) used.add(x.country);
    return {
      id,
      terrain: x.terrain,
      country: x.country,
      ...(x.port ? { port: true } : {}),
      ...(x.fort ? { fort: true } : {}),
      ...(x.estimate.length ? { estimate: x.estimate.join('; ') } : {}),
    };
  });
  const hexsides: NonNullable<HexMapJsonInput['hexsides']> = [...sideFeat.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([k, s]) => {
      const [a, b] = k.split('|') as [string, string];
      const order = ['river', 'major-river', 'lake', 'sea', 'strait', 'alpine', 'border'] as const;
      return { between: [a, b] as [string, string], features: order.filter((f) => s.f.has(f)), ...(s.name ? { name: s.name } : {}) };
    });
  const countriesOut: Record<string, { name: string }> = {};
  for (const c of [...used].sort()) countriesOut[c] = { name: COUNTRY_NAMES[c] ?? c };
  const counts: Record<string, number> = { hexes: ids.length, land: 0, sea: 0, lake: 0 };
  for (const x of hexes.values()) {
    counts[x.kind] = (counts[x.kind] ?? 0) + 1;
    counts[`terrain:${x.terrain}`] = (counts[`terrain:${x.terrain}`] ?? 0) + 1;
  }
  // How far the warp moves hex centres from the plain affine image (hundredths of a hex width).
  const moves: [number, string][] = [];
  if (transform.warp) {
    const proj = europeProjection();
    for (const id of ids) {
      const ll = lonlatOf.get(id);
      const p = ll ? proj(ll) : null;
      if (!ll || !p) continue;
      const a = applyAffine(transform.affine, [p[0], p[1]]);
      const w = fwd(ll[0], ll[1]);
      moves.push([Math.hypot(w[0] - a[0], w[1] - a[1]), id]);
    }
  }
  moves.sort((p, q) => p[0] - q[0] || (p[1] < q[1] ? -1 : 1));
  counts['warp-max-centihex'] = Math.round((moves[moves.length - 1]?.[0] ?? 0) * 100);
  counts['warp-median-centihex'] = Math.round((moves[Math.floor(moves.length / 2)]?.[0] ?? 0) * 100);
  const warpMaxAt = moves[moves.length - 1]?.[1] ?? '';
  const SCALE_PLACES: readonly [string, number, number][] = [
    ['Ypres', 2.88, 50.85], ['St Quentin', 3.29, 49.85], ['Reims', 4.03, 49.26], ['Verdun', 5.38, 49.16], ['Nancy', 6.18, 48.69],
    ['Mulhouse', 7.34, 47.75], ['Paris', 2.35, 48.86], ['Cologne', 6.96, 50.94], ['Berlin', 13.4, 52.52], ['Warsaw', 21.01, 52.23],
    ['Lemberg', 24.03, 49.84], ['Kiev', 30.52, 50.45], ['Vienna', 16.37, 48.21], ['Belgrade', 20.46, 44.82], ['Sofia', 23.32, 42.7],
    ['Constantinople', 28.98, 41.01], ['Rome', 12.5, 41.9],
  ];
  const km = (a: [number, number] | undefined, b: [number, number] | undefined): number => (a && b ? geoDistance(a, b) * 6371 : NaN);
  const localScale = SCALE_PLACES.map(([place, lon, lat]) => {
    const [x, y] = fwd(lon, lat);
    return { place, ew: km(transform.inverse(x - 0.5, y), transform.inverse(x + 0.5, y)), ns: km(transform.inverse(x, y - 0.5), transform.inverse(x, y + 0.5)) };
  });
  counts['hexsides'] = hexsides.length;
  counts['rail'] = railSet.size;
  counts['cities'] = cities.length;
  counts['start-line'] = startLine.length;
  const json: HexMapJsonInput = {
    format: 'salient.hexmap/1',
    scheme: scheme.name,
    fidelity: 'approximation',
    title: 'Empires & Alliances - approximate map (public-domain geography fitted to the rulebook hex ids)',
    rows: [rowMin, rowMax],
    cols: [colMin, colMax],
    terrains: [...TERRAINS],
    hexes: hexOut,
    hexsides,
    cities,
    rail: [...railSet].sort().map((k) => k.split('|') as [string, string]),
    countries: countriesOut,
    lines: { 'start-line-1918': startLine },
    notes: [
      `Layout: ${scheme.name}, chosen because the rulebook's hex ids fit geography best under it (see MAP.md: similarity-fit RMS ${layouts.map((l) => `${l.scheme} ${l.similarity.rms.toFixed(2)}`).join(', ')} hex widths).`,
      `Geometry: Lambert conformal conic (parallels 40N, 58N, central meridian 20E), least-squares affine fit on ${anchors.length} anchors (packs/approximation/anchors.json), then a thin-plate-spline warp (lambda ${transform.warp?.lambda ?? 'none'}) so every anchor lands in its printed hex.`,
      'Land, sea and lake: majority of seven sample points per hex against Natural Earth 50m countries and 10m lakes. Hex centres are not the printed map: coastlines and small islands are approximate.',
      'Countries: modern outlines mapped to 1914 states, then the hand-drawn edits of borders-1918.json (each an estimate); set-up hexes take the country their rule implies.',
      'Terrain: mountain from Natural Earth 50m ranges plus hand-drawn areas (data/empires-alliances/terrain-areas.json); forest and swamp are hand-drawn estimates; 2751 is forest per 22.11.',
      'Hexsides: river where a Natural Earth river crosses the line between two hex centres (major-river for scalerank <= 5 and the Neman, Dniester, Don, Po); strait where two land hexes face each other across water; alpine where a border runs between two mountain hexes.',
      'Cities: every place the rules name, at its projected hex (moved to the nearest free land hex when that is water or taken; each move is in the city source); ports are coastal city hexes; forts are the cities and hex the set-ups give a Fort.',
      'Rail: 1914 main lines as straight hex lines between waypoints (data/empires-alliances/rail.json), an estimate of the real routes; the S3 railheads lie on them.',
      'start-line-1918: the front of 21 March 1918 (data/empires-alliances/front-1918.json), moved where needed so that every S3 sector hex is on its side; an estimate.',
      'Not modelled: beaches, weather zones (the Weather Line is not in the text), sea areas, the off-map boxes.',
    ],
  };
  return {
    scheme,
    grid,
    transform,
    layouts,
    layoutSubsets,
    anchors,
    hexes,
    json,
    drawRivers,
    germanSide,
    alliedSide,
    sectorDistances,
    cityMoves,
    counts,
    warpMaxAt,
    localScale,
    edits,
    areas,
    rail,
  };
}

