/**
 * The map model: a "salient.hexmap/1" file turned once into compact typed arrays indexed by hex number
 * (see `HexGrid` for the indexing) and per-hexside feature bits. A `HexMap` is immutable and shared by
 * every game state; a state holds only what changes (where units are, who owns what).
 */
import { jsonPath, SalientError, zodIssues, type PathIssue } from '@salient/engine';
import { HexGrid } from './grid.ts';
import { HEXMAP_FORMAT, hexMapJsonSchema, SIDE_FEATURE_NAMES, type HexMapJson, type SideFeatureName } from './map-json.ts';
import { SCHEMES } from './scheme.ts';

/** Hexside feature bits in `HexMap.sideFeatures`. */
export const SideFeature = {
  RIVER: 1,
  MAJOR_RIVER: 2,
  LAKE: 4,
  SEA: 8,
  STRAIT: 16,
  ALPINE: 32,
  BORDER: 64,
  /** A rail line joins the two hexes (from the file's `rail` pairs). */
  RAIL: 128,
} as const;

/** Bit of each feature name a map file uses. */
export const SIDE_FEATURE_BITS: Readonly<Record<SideFeatureName | 'rail', number>> = {
  river: SideFeature.RIVER,
  'major-river': SideFeature.MAJOR_RIVER,
  lake: SideFeature.LAKE,
  sea: SideFeature.SEA,
  strait: SideFeature.STRAIT,
  alpine: SideFeature.ALPINE,
  border: SideFeature.BORDER,
  rail: SideFeature.RAIL,
};

/** Hex flag bits in `HexMap.flags`. */
export const HexFlag = { PORT: 1, BEACH: 2, FORT: 4 } as const;

/** `terrain` of a hex that is not on the map. */
export const NO_TERRAIN = 255;

/** A city as the model keeps it. */
export interface City {
  readonly hex: number;
  readonly id: string;
  readonly name: string;
  readonly size: 'major' | 'minor';
  readonly capital: boolean;
  readonly source: string;
}

/** A country: its code (index into `HexMap.countries` is the code number in `HexMap.country`). */
export interface Country {
  readonly code: string;
  readonly name: string;
}

/** Options of `checkHexMap` / `loadHexMap`. */
export interface LoadOptions {
  /** Where the JSON came from, named in the error message ("packs/approximation/map.json"). */
  source?: string | undefined;
  /** Root of the JSON paths in issues: "$" (default), or e.g. "$.map" when the map sits inside a pack object. */
  root?: string | undefined;
}

/** Result of `checkHexMap`: the model, or every problem found, each at its JSON path. */
export type HexMapCheck = { ok: true; map: HexMap } | { ok: false; issues: PathIssue[] };

/**
 * The map model, immutable by contract: typed arrays cannot be frozen, so nothing may write to them.
 * Arrays are indexed by hex index (`grid.size` long) unless said otherwise.
 */
export class HexMap {
  readonly grid: HexGrid;
  readonly fidelity: HexMapJson['fidelity'];
  readonly title: string | undefined;
  /** Where the map was loaded from, for messages. */
  readonly source: string;
  /** Cells in the index space (margin included); the length of every per-hex array. */
  readonly size: number;
  /** 1 where the hex is on the map (land, sea or lake), else 0. */
  readonly onMap: Uint8Array;
  /** On-map hex indices, ascending. */
  readonly hexes: Int32Array;
  /** Terrain code per hex: index into `terrains`; NO_TERRAIN off the map. */
  readonly terrain: Uint8Array;
  readonly terrains: readonly string[];
  /** Country code per hex: index into `countries`; -1 for none (sea, lake, off the map). */
  readonly country: Int16Array;
  /** Countries in the order of the file's `countries` object. */
  readonly countries: readonly Country[];
  /** HexFlag bits per hex. */
  readonly flags: Uint8Array;
  /** City per hex: index into `cities`; -1 for none. */
  readonly city: Int16Array;
  readonly cities: readonly City[];
  /** Weather zone per hex: index into `weatherZones`; -1 for none. */
  readonly weatherZone: Int8Array;
  /** Weather zone names in order of first appearance in the file. */
  readonly weatherZones: readonly string[];
  /** SideFeature bits per hexside id (`grid.sideCount` long). */
  readonly sideFeatures: Uint16Array;
  /** Names of named hexsides (rivers, straits) by side id. */
  readonly sideNames: ReadonlyMap<number, string>;
  /** On-map neighbour per (hex * 6 + direction); -1 where that neighbour is off the map (or the hex is). */
  readonly neighbours: Int32Array;
  /** Per hex, bit d (1 << d) set when a rail line leaves it in direction d to an on-map hex. */
  readonly railDirections: Uint8Array;
  /** Named lines as lists of hexside ids. */
  readonly lines: ReadonlyMap<string, Int32Array>;
  /** Names of hexes that have one (`hexes[].name`). */
  readonly hexNames: ReadonlyMap<number, string>;
  readonly notes: readonly string[];

  /** Build from parsed, cross-checked JSON. Use `loadHexMap` / `checkHexMap`, which check it first. */
  private constructor(json: HexMapJson, grid: HexGrid, source: string) {
    this.grid = grid;
    this.fidelity = json.fidelity;
    this.title = json.title;
    this.source = source;
    const n = grid.size;
    this.size = n;
    this.terrains = [...json.terrains];
    this.countries = Object.entries(json.countries).map(([code, c]) => ({ code, name: c.name }));
    const countryCode = new Map(this.countries.map((c, i) => [c.code, i]));
    const terrainCode = new Map(this.terrains.map((t, i) => [t, i]));
    this.onMap = new Uint8Array(n);
    this.terrain = new Uint8Array(n).fill(NO_TERRAIN);
    this.country = new Int16Array(n).fill(-1);
    this.flags = new Uint8Array(n);
    this.city = new Int16Array(n).fill(-1);
    this.weatherZone = new Int8Array(n).fill(-1);
    const zones: string[] = [];
    const hexNames = new Map<number, string>();
    for (const x of json.hexes) {
      const h = grid.index(x.id);
      this.onMap[h] = 1;
      this.terrain[h] = terrainCode.get(x.terrain) as number;
      this.country[h] = x.country === null ? -1 : (countryCode.get(x.country) as number);
      this.flags[h] = (x.port ? HexFlag.PORT : 0) | (x.beach ? HexFlag.BEACH : 0) | (x.fort ? HexFlag.FORT : 0);
      if (x.weatherZone !== undefined) {
        let z = zones.indexOf(x.weatherZone);
        if (z < 0) z = zones.push(x.weatherZone) - 1;
        this.weatherZone[h] = z;
      }
      if (x.name !== undefined) hexNames.set(h, x.name);
    }
    this.weatherZones = zones;
    this.hexNames = hexNames;
    const list: number[] = [];
    for (let h = 0; h < n; h++) if (this.onMap[h]) list.push(h);
    this.hexes = Int32Array.from(list);
    this.cities = json.cities.map((c) => {
      const hex = grid.index(c.hex);
      return { hex, id: c.hex, name: c.name, size: c.size, capital: c.capital === true, source: c.source };
    });
    this.cities.forEach((c, i) => {
      this.city[c.hex] = i;
    });
    this.sideFeatures = new Uint16Array(grid.sideCount);
    const sideNames = new Map<number, string>();
    for (const s of json.hexsides) {
      const side = grid.sideBetween(grid.index(s.between[0]), grid.index(s.between[1]));
      let bits = 0;
      for (const f of s.features) bits |= SIDE_FEATURE_BITS[f];
      this.sideFeatures[side] = (this.sideFeatures[side] as number) | bits;
      if (s.name !== undefined) sideNames.set(side, s.name);
    }
    for (const [a, b] of json.rail) {
      const side = grid.sideBetween(grid.index(a), grid.index(b));
      this.sideFeatures[side] = (this.sideFeatures[side] as number) | SideFeature.RAIL;
    }
    this.sideNames = sideNames;
    this.neighbours = new Int32Array(n * 6).fill(-1);
    for (const h of list) {
      for (let d = 0; d < 6; d++) {
        const nb = grid.adjacent[h * 6 + d] as number;
        if (nb >= 0 && this.onMap[nb]) this.neighbours[h * 6 + d] = nb;
      }
    }
    this.railDirections = new Uint8Array(n);
    for (const h of list) {
      let bits = 0;
      for (let d = 0; d < 6; d++) {
        if (this.neighbours[h * 6 + d] !== -1 && ((this.sideFeatures[grid.sides[h * 6 + d] as number] as number) & SideFeature.RAIL) !== 0) bits |= 1 << d;
      }
      this.railDirections[h] = bits;
    }
    this.lines = new Map(Object.entries(json.lines).map(([name, sides]) => [name, Int32Array.from(sides, ([a, b]) => grid.sideBetween(grid.index(a), grid.index(b)))]));
    this.notes = [...json.notes];
  }

  /** Check raw JSON (already parsed) and build the model; every problem is returned with its JSON path. */
  static check(raw: unknown, options: LoadOptions = {}): HexMapCheck {
    const root = options.root ?? '$';
    const parsed = hexMapJsonSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error, root) };
    const json = parsed.data;
    const issues: PathIssue[] = [];
    const add = (path: readonly (string | number)[], message: string): void => {
      issues.push({ path: jsonPath(path, root), message });
    };
    const scheme = SCHEMES.get(json.scheme);
    if (!scheme) {
      add(['scheme'], `unknown hex scheme '${json.scheme}'; known schemes: ${[...SCHEMES.keys()].join(', ')}`);
      return { ok: false, issues };
    }
    // Every printed position inside the bounds must be writable as an id of the scheme (RRCC: 0-99).
    for (const [key, b] of [['rows', json.rows], ['cols', json.cols]] as const) {
      b.forEach((v, i) => {
        const row = key === 'rows' ? v : json.rows[0];
        const col = key === 'cols' ? v : json.cols[0];
        const back = scheme.parse(scheme.format(row, col));
        if (!back || back.row !== row || back.col !== col) add([key, i], `${key === 'rows' ? 'row' : 'column'} ${v} cannot be written as a ${scheme.name} id (${scheme.idHelp})`);
      });
    }
    if (issues.length) return { ok: false, issues };
    const grid = new HexGrid(scheme, json.rows, json.cols);
    const bounds = grid.describeBounds();
    /** Index of an id at `path`, or -1 after recording why it is not one. */
    const hexAt = (id: string, path: readonly (string | number)[]): number => {
      const p = scheme.parse(id);
      if (!p) {
        add(path, `'${id}' is not a hex id: ${scheme.name} ids are ${scheme.idHelp}`);
        return -1;
      }
      const h = grid.indexOf(p.row, p.col);
      if (h < 0) add(path, `hex ${id} is outside the map's bounds (${bounds}); widen "rows"/"cols" or fix the id`);
      return h;
    };
    const terrains = new Set<string>();
    json.terrains.forEach((t, i) => {
      if (terrains.has(t)) add(['terrains', i], `terrain '${t}' is listed twice`);
      terrains.add(t);
    });
    const onMap = new Set<number>();
    json.hexes.forEach((x, i) => {
      const h = hexAt(x.id, ['hexes', i, 'id']);
      if (h >= 0) {
        if (onMap.has(h)) add(['hexes', i, 'id'], `hex ${x.id} is listed twice`);
        onMap.add(h);
      }
      if (!terrains.has(x.terrain)) add(['hexes', i, 'terrain'], `unknown terrain '${x.terrain}'; the map's "terrains" are ${json.terrains.join(', ')}`);
      if (x.country !== null && !(x.country in json.countries)) add(['hexes', i, 'country'], `unknown country '${x.country}'; add it to "countries" or use one of ${Object.keys(json.countries).join(', ') || '(none)'}`);
    });
    /** Side between a pair at `path` (both in bounds and adjacent), or -1 after recording why not. */
    const sideAt = (pairIds: readonly [string, string], path: readonly (string | number)[], needOnMap: 'one' | 'both'): number => {
      const a = hexAt(pairIds[0], [...path, 0]);
      const b = hexAt(pairIds[1], [...path, 1]);
      if (a < 0 || b < 0) return -1;
      const side = grid.sideBetween(a, b);
      if (side < 0) {
        add(path, `hexes ${pairIds[0]} and ${pairIds[1]} are not neighbours (${scheme.name}), so they share no hexside`);
        return -1;
      }
      const on = (onMap.has(a) ? 1 : 0) + (onMap.has(b) ? 1 : 0);
      if (needOnMap === 'both' && on < 2) add(path, `hex ${onMap.has(a) ? pairIds[1] : pairIds[0]} is not on the map (not in "hexes")`);
      if (needOnMap === 'one' && on < 1) add(path, `neither ${pairIds[0]} nor ${pairIds[1]} is on the map (in "hexes")`);
      return side;
    };
    const sidesSeen = new Map<number, number>();
    json.hexsides.forEach((s, i) => {
      const side = sideAt(s.between, ['hexsides', i, 'between'], 'one');
      if (side < 0) return;
      const first = sidesSeen.get(side);
      if (first !== undefined) add(['hexsides', i, 'between'], `hexside ${s.between.join('|')} is already described at ${jsonPath(['hexsides', first], root)}; merge the two entries' features`);
      else sidesSeen.set(side, i);
    });
    const cityHexes = new Map<number, number>();
    json.cities.forEach((c, i) => {
      const h = hexAt(c.hex, ['cities', i, 'hex']);
      if (h < 0) return;
      if (!onMap.has(h)) add(['cities', i, 'hex'], `city ${c.name} is in hex ${c.hex}, which is not on the map (not in "hexes")`);
      const first = cityHexes.get(h);
      if (first !== undefined) add(['cities', i, 'hex'], `hex ${c.hex} already holds city ${json.cities[first]?.name} (${jsonPath(['cities', first], root)}); one city per hex`);
      else cityHexes.set(h, i);
    });
    const railSeen = new Set<number>();
    json.rail.forEach((r, i) => {
      const side = sideAt(r, ['rail', i], 'both');
      if (side < 0) return;
      if (railSeen.has(side)) add(['rail', i], `rail ${r.join('-')} is listed twice`);
      railSeen.add(side);
    });
    for (const [name, sides] of Object.entries(json.lines)) sides.forEach((s, i) => void sideAt(s, ['lines', name, i], 'one'));
    if (issues.length) return { ok: false, issues };
    return { ok: true, map: new HexMap(json, grid, options.source ?? 'map') };
  }

  /** Number of hexes on the map. */
  get hexCount(): number {
    return this.hexes.length;
  }

  /** Index of a printed id (in bounds, on the map or not); SalientError('BAD_ARGUMENT') when malformed or outside. */
  index(id: string): number {
    return this.grid.index(id);
  }

  /** Index of a printed id that must be ON the map; SalientError('BAD_ARGUMENT') otherwise. */
  hex(id: string): number {
    const h = this.grid.index(id);
    if (!this.onMap[h]) throw new SalientError('BAD_ARGUMENT', `Hex ${id} is not on the map ${this.source} (it is inside the grid but not among its hexes).`);
    return h;
  }

  /** Printed id of an index. */
  id(h: number): string {
    return this.grid.id(h);
  }

  /** Terrain name of a hex; undefined off the map. */
  terrainName(h: number): string | undefined {
    return this.terrains[this.terrain[h] ?? NO_TERRAIN];
  }

  /** Country code of a hex ("FR"); undefined for none. */
  countryCode(h: number): string | undefined {
    return this.countries[this.country[h] ?? -1]?.code;
  }

  /** Code number of a country code, as stored in `country`; -1 when unknown. */
  countryIndex(code: string): number {
    return this.countries.findIndex((c) => c.code === code);
  }

  /** Code number of a terrain name, as stored in `terrain`; -1 when unknown. */
  terrainIndex(name: string): number {
    return this.terrains.indexOf(name);
  }

  /** On-map hexes within `radius` steps of `h` (h included when on the map), in the grid's fixed order. */
  hexesWithin(h: number, radius: number, out: number[] = []): number[] {
    const start = out.length;
    this.grid.within(h, radius, out);
    let w = start;
    for (let i = start; i < out.length; i++) if (this.onMap[out[i] as number] === 1) out[w++] = out[i] as number;
    out.length = w;
    return out;
  }

  /** True when the side has every bit of `mask`. */
  sideHas(side: number, mask: number): boolean {
    return ((this.sideFeatures[side] ?? 0) & mask) === mask;
  }

  /** Side id between two hexes given by printed ids; SalientError('BAD_ARGUMENT') when not neighbours. */
  sideOf(a: string, b: string): number {
    const s = this.grid.sideBetween(this.grid.index(a), this.grid.index(b));
    if (s < 0) throw new SalientError('BAD_ARGUMENT', `Hexes ${a} and ${b} are not neighbours, so they share no hexside.`);
    return s;
  }

  /** A named line's hexside ids; SalientError('BAD_ARGUMENT') listing the names when unknown. */
  line(name: string): Int32Array {
    const l = this.lines.get(name);
    if (!l) throw new SalientError('BAD_ARGUMENT', `The map ${this.source} has no line '${name}'. Lines: ${[...this.lines.keys()].join(', ') || '(none)'}.`);
    return l;
  }
}

/** Check a parsed map JSON; returns the model or every issue (for pack checkers that gather issues). */
export function checkHexMap(raw: unknown, options: LoadOptions = {}): HexMapCheck {
  return HexMap.check(raw, options);
}

/**
 * Load a parsed map JSON into the model, or throw SalientError('BAD_PACK') naming the source, with one
 * issue per problem at its JSON path (`map.json is not a valid salient.hexmap/1 map` / `$.hexes[12].id: ...`).
 */
export function loadHexMap(raw: unknown, options: LoadOptions = {}): HexMap {
  const r = HexMap.check(raw, options);
  if (r.ok) return r.map;
  const where = options.source ?? 'map';
  throw new SalientError('BAD_PACK', `${where} is not a valid ${HEXMAP_FORMAT} map (${r.issues.length} problem${r.issues.length === 1 ? '' : 's'}); fix each path below.`, r.issues);
}

export { SIDE_FEATURE_NAMES };
