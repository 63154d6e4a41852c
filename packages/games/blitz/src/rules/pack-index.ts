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
  /** Per-scenario lookups built on first use (see {@link scenarioIndex}). */
  scenarioIndex: Map<string, ScenarioIndex>;
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
  const idx: PackIndex = {
    hash,
    files,
    land: new Map(files.map.lands.map((l) => [l.id, l])),
    sea: new Map(files.map.seas.map((s) => [s.id, s])),
    unit: new Map(files.units.units.map((u) => [u.id, u])),
    kinds: new Map(files.units.units.map((u) => [u.id, unitKinds(u)])),
    chart: files['combat-chart'],
    scenario: new Map(files.scenarios.scenarios.map((s) => [s.id, s])),
    borders: sym(files.map.borders),
    landRoutes: sym(files.map.landRoutes),
    airRoutes: sym(files.map.airRoutes),
    seaBorders: sym(files.map.seaBorders),
    straits: straitIndex(files.map.straits ?? []),
    coastOf,
    portSeas,
    countryLands,
    country: new Map(files.map.countries.map((c) => [c.id, c])),
    entryCost: new Map(files.map.lands.map((l) => [l.id, l.terrain.some((t) => t === 'jungle' || t === 'mountain' || t === 'swamp') ? 2 : 1])),
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
    x = { lands: new Set(sc.lands), seas: new Set(sc.seas), sideOf: new Map(sc.powers.map((pw) => [pw.id, pw.side])), neighbours: new Map() };
    p.scenarioIndex.set(id, x);
  }
  return x;
}
