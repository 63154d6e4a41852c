/**
 * Indexes over a validated pack, and the registry that lets `apply(state, choice)` find the pack a
 * state refers to (by content hash). `checkPack` and `setup` register packs; a state whose pack is
 * not registered in this process cannot be advanced, and says so.
 */
import { SalientError } from '@salient/engine';
import type { CombatChart, LandDef, PackFiles, ScenarioDef, SeaDef, StraitDef, UnitDef, UnitSide } from '../pack/schema.ts';

/** Unit kinds as bits (see {@link UnitKinds}). */
export const KIND_LAND = 1;
export const KIND_AIR = 2;
export const KIND_NAVAL = 4;
export const LAND_TYPES: ReadonlySet<string> = new Set(['INF', 'ARM', 'GAR', 'PARA', 'MAR', 'FORT', 'AA']);
export const NAVAL_TYPES: ReadonlySet<string> = new Set(['BB', 'CV', 'SUB', 'TRS', 'LL']);

/** The kind bits of unit type `t`. */
export const kindOfType = (t: string): number => (LAND_TYPES.has(t) ? KIND_LAND : 0) | (t === 'AIR' ? KIND_AIR : 0) | (NAVAL_TYPES.has(t) ? KIND_NAVAL : 0);

/**
 * A unit counter's lookups by Size (index 0 to 4; the pack's Sizes are 1 to 4), worked out once per
 * pack: the type it shows (a CV's counter may show a BB on a reduced side, 6.5), whether that is a land,
 * air or naval unit (bits), and the counter side. Every option list asks these of many units, so they
 * cost an index, not a string key built per call.
 */
export interface UnitKinds {
  def: UnitDef;
  type: readonly string[];
  kind: Uint8Array;
  face: readonly (UnitSide | undefined)[];
}

function unitKinds(d: UnitDef): UnitKinds {
  const type: string[] = [];
  const kind = new Uint8Array(5);
  const face: (UnitSide | undefined)[] = [];
  for (let size = 0; size <= 4; size++) {
    const f = d.sizes[String(size) as '1'];
    const t = d.type === 'CV' ? (f?.type ?? 'CV') : d.type;
    type.push(t);
    kind[size] = kindOfType(t);
    face.push(f);
  }
  return { def: d, type, kind, face };
}

export interface PackIndex {
  hash: string;
  files: PackFiles;
  land: Map<string, LandDef>;
  sea: Map<string, SeaDef>;
  unit: Map<string, UnitDef>;
  /** Unit id -> its lookups by Size. */
  kinds: Map<string, UnitKinds>;
  chart: CombatChart;
  scenario: Map<string, ScenarioDef>;
  /** Land neighbours by border (both ways). */
  borders: Map<string, Set<string>>;
  landRoutes: Map<string, Set<string>>;
  airRoutes: Map<string, Set<string>>;
  seaBorders: Map<string, Set<string>>;
  /** Sea -> the straits leading out of it (4.2, 9.8). */
  straits: Map<string, StraitDef[]>;
  /** Sea -> lands whose coast touches it; land -> seas touched by its ports. */
  coastOf: Map<string, Set<string>>;
  portSeas: Map<string, Set<string>>;
  countryLands: Map<string, string[]>;
  /** Country id -> its entry in the map (home of which nation, Snow). */
  country: Map<string, PackFiles['map']['countries'][number]>;
  /** Land id -> what entering it costs a land unit (5.2: 2 for Jungle, Mountain or Swamp, else 1). */
  entryCost: Map<string, number>;
  /** Areas by number, and the adjacency the searches walk as number lists (see {@link AreaIndex}). */
  areas: AreaIndex;
  /** Per-scenario lookups built on first use (see {@link scenarioIndex}). */
  scenarioIndex: Map<string, ScenarioIndex>;
}

/**
 * Areas by number: land areas 0 to `lands.length - 1` and seas 0 to `seas.length - 1`, each in id
 * order (ascending numbers are sorted ids), counting every id the map names, and the adjacency the
 * searches walk as number lists, each in the order the string-keyed sets above give it (so a search
 * visits areas in the same order). Built once per pack: the numbers live here and in caches derived
 * from a state, never in the state (its JSON and hash are what they were).
 */
export interface AreaIndex {
  lands: readonly string[];
  seas: readonly string[];
  landNo: ReadonlyMap<string, number>;
  seaNo: ReadonlyMap<string, number>;
  /** Sea number by a location at sea (`sea:<id>`). */
  atSeaNo: ReadonlyMap<string, number>;
  /** By land number: its country ('' for an id the map does not define), its first holder (`control`, '' if none). */
  country: readonly string[];
  control: readonly string[];
  /** By land number: land neighbours across borders, across Land Routes (as `borders` and `landRoutes`), and the seas its coast touches (`coast`, in the pack's order). */
  borders: readonly Int32Array[];
  landRoutes: readonly Int32Array[];
  coast: readonly Int32Array[];
  /** By sea number: the lands on its coast (as `coastOf`) and the bordering seas (as `seaBorders`). */
  shore: readonly Int32Array[];
  seaBorders: readonly Int32Array[];
  /**
   * Search nodes (geometry.ts): every land id and `sea:<id>`, sorted together, so ascending node
   * numbers are ascending node ids (a search's tie-break by id compares numbers); 1 by node for a sea.
   */
  nodes: readonly string[];
  nodeNo: ReadonlyMap<string, number>;
  nodeIsSea: Uint8Array;
}

function areaIndex(files: PackFiles, borders: Map<string, Set<string>>, landRoutes: Map<string, Set<string>>, seaBorders: Map<string, Set<string>>, coastOf: Map<string, Set<string>>): AreaIndex {
  const m = files.map;
  const landSet = new Set<string>(m.lands.map((l) => l.id));
  for (const [a, b] of [...m.borders, ...m.landRoutes, ...m.airRoutes]) landSet.add(a).add(b);
  const seaSet = new Set<string>(m.seas.map((x) => x.id));
  for (const l of m.lands) {
    for (const x of l.coast) seaSet.add(x);
    for (const pt of l.ports) for (const x of pt.seas) seaSet.add(x);
  }
  for (const [a, b] of m.seaBorders) seaSet.add(a).add(b);
  for (const st of m.straits ?? []) for (const x of st.seas) seaSet.add(x);
  const lands = [...landSet].sort();
  const seas = [...seaSet].sort();
  const landNo = new Map(lands.map((x, i) => [x, i]));
  const seaNo = new Map(seas.map((x, i) => [x, i]));
  const defs = new Map(m.lands.map((l) => [l.id, l]));
  const nos = (ids: Iterable<string> | undefined, by: ReadonlyMap<string, number>) => Int32Array.from(ids ?? [], (x) => by.get(x)!);
  const nodes = [...lands, ...seas.map((x) => `sea:${x}`)].sort();
  const nodeIsSea = new Uint8Array(nodes.length);
  for (let i = 0; i < nodes.length; i++) if (nodes[i]!.startsWith('sea:')) nodeIsSea[i] = 1;
  return {
    lands,
    seas,
    landNo,
    seaNo,
    atSeaNo: new Map(seas.map((x, i) => [`sea:${x}`, i])),
    country: lands.map((x) => defs.get(x)?.country ?? ''),
    control: lands.map((x) => defs.get(x)?.control ?? ''),
    borders: lands.map((x) => nos(borders.get(x), landNo)),
    landRoutes: lands.map((x) => nos(landRoutes.get(x), landNo)),
    coast: lands.map((x) => nos(defs.get(x)?.coast, seaNo)),
    shore: seas.map((x) => nos(coastOf.get(x), landNo)),
    seaBorders: seas.map((x) => nos(seaBorders.get(x), seaNo)),
    nodes,
    nodeNo: new Map(nodes.map((x, i) => [x, i])),
    nodeIsSea,
  };
}

/**
 * Lookups over one scenario of a pack, built once: the areas in play as sets, each power's side, and
 * the land neighbours of each land area in play (1.3), sorted as `landNeighbours` gives them.
 */
export interface ScenarioIndex {
  lands: ReadonlySet<string>;
  seas: ReadonlySet<string>;
  sideOf: ReadonlyMap<string, 'Axis' | 'Allies'>;
  neighbours: Map<string, readonly { to: string; route: boolean }[]>;
  /** By sea number (see {@link AreaIndex}): 1 if in play; its bordering seas in play (as `seaBorders`, no straits). */
  seaInPlay: Uint8Array;
  seaBordersInPlay: readonly Int32Array[];
}

const registry = new Map<string, PackIndex>();

function sym(pairs: readonly (readonly [string, string])[]): Map<string, Set<string>> {
  const m = new Map<string, Set<string>>();
  const add = (a: string, b: string) => {
    let s = m.get(a);
    if (!s) m.set(a, (s = new Set()));
    s.add(b);
  };
  for (const [a, b] of pairs) {
    add(a, b);
    add(b, a);
  }
  return m;
}

export function registerPack(hash: string, files: PackFiles): PackIndex {
  const hit = registry.get(hash);
  if (hit) return hit;
  const coastOf = new Map<string, Set<string>>();
  const portSeas = new Map<string, Set<string>>();
  const countryLands = new Map<string, string[]>();
  for (const l of files.map.lands) {
    for (const s of new Set([...l.coast, ...l.ports.flatMap((p) => p.seas)])) {
      let set = coastOf.get(s);
      if (!set) coastOf.set(s, (set = new Set()));
      set.add(l.id);
    }
    portSeas.set(l.id, new Set(l.ports.flatMap((p) => p.seas)));
    countryLands.set(l.country, [...(countryLands.get(l.country) ?? []), l.id]);
  }
  const borders = sym(files.map.borders);
  const landRoutes = sym(files.map.landRoutes);
  const seaBorders = sym(files.map.seaBorders);
  const idx: PackIndex = {
    hash,
    files,
    land: new Map(files.map.lands.map((l) => [l.id, l])),
    sea: new Map(files.map.seas.map((s) => [s.id, s])),
    unit: new Map(files.units.units.map((u) => [u.id, u])),
    kinds: new Map(files.units.units.map((u) => [u.id, unitKinds(u)])),
    chart: files['combat-chart'],
    scenario: new Map(files.scenarios.scenarios.map((s) => [s.id, s])),
    borders,
    landRoutes,
    airRoutes: sym(files.map.airRoutes),
    seaBorders,
    straits: straitIndex(files.map.straits ?? []),
    coastOf,
    portSeas,
    countryLands,
    country: new Map(files.map.countries.map((c) => [c.id, c])),
    entryCost: new Map(files.map.lands.map((l) => [l.id, l.terrain.some((t) => t === 'jungle' || t === 'mountain' || t === 'swamp') ? 2 : 1])),
    areas: areaIndex(files, borders, landRoutes, seaBorders, coastOf),
    scenarioIndex: new Map(),
  };
  registry.set(hash, idx);
  return idx;
}

function straitIndex(straits: readonly StraitDef[]): Map<string, StraitDef[]> {
  const m = new Map<string, StraitDef[]>();
  for (const st of straits) for (const sea of st.seas) m.set(sea, [...(m.get(sea) ?? []), st]);
  return m;
}

export function packOf(hash: string): PackIndex {
  const p = registry.get(hash);
  if (!p) {
    throw new SalientError('BAD_PACK', `Blitz pack ${hash} is not loaded in this process; load it (setup or checkPack) before applying choices to its states.`);
  }
  return p;
}

export function landDef(p: PackIndex, id: string): LandDef {
  const l = p.land.get(id);
  if (!l) throw new Error(`unknown land area '${id}'`);
  return l;
}

export function unitDef(p: PackIndex, id: string): UnitDef {
  const u = p.unit.get(id);
  if (!u) throw new Error(`unknown unit '${id}'`);
  return u;
}

/** The unit asked about last (`unitKindsOf`): a unit's kind, type and face are mostly asked one after another. */
let kindsPack: PackIndex | null = null;
let kindsId = '';
let kindsLast: UnitKinds | null = null;

/** The lookups by Size of unit `id` (see {@link UnitKinds}). */
export function unitKindsOf(p: PackIndex, id: string): UnitKinds {
  if (id === kindsId && p === kindsPack) return kindsLast!;
  const k = p.kinds.get(id);
  if (!k) throw new Error(`unknown unit '${id}'`);
  kindsPack = p;
  kindsId = id;
  kindsLast = k;
  return k;
}

/** The scenario asked about last (`scenarioDef`): a game asks about its own scenario only. */
let scenarioPack: PackIndex | null = null;
let scenarioId = '';
let scenarioLast: ScenarioDef | null = null;

export function scenarioDef(p: PackIndex, id: string): ScenarioDef {
  if (id === scenarioId && p === scenarioPack) return scenarioLast!;
  const s = p.scenario.get(id);
  if (!s) throw new Error(`unknown scenario '${id}'`);
  scenarioPack = p;
  scenarioId = id;
  scenarioLast = s;
  return s;
}

/** The lookups of scenario `id` of `p`, built on first use (pure functions of the pack). */
export function scenarioIndex(p: PackIndex, id: string): ScenarioIndex {
  let x = p.scenarioIndex.get(id);
  if (!x) {
    const sc = scenarioDef(p, id);
    const a = p.areas;
    const seaInPlay = new Uint8Array(a.seas.length);
    for (const sea of sc.seas) {
      const n = a.seaNo.get(sea);
      if (n !== undefined) seaInPlay[n] = 1;
    }
    const seaBordersInPlay = a.seaBorders.map((b) => b.filter((t) => seaInPlay[t] === 1));
    x = { lands: new Set(sc.lands), seas: new Set(sc.seas), sideOf: new Map(sc.powers.map((pw) => [pw.id, pw.side])), neighbours: new Map(), seaInPlay, seaBordersInPlay };
    p.scenarioIndex.set(id, x);
  }
  return x;
}
