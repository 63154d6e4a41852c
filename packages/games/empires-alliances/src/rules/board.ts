/**
 * The static side of a game: everything fixed by the pack and the scenario, built once per (pack,
 * scenario) and shared by every state (PLAN.md "Map outside the state"). It holds the hex map (typed
 * arrays from @salient/hexmap), per-hex terrain effects from the TEC, the units by number with their
 * counters, start-line control, the victory places, the reinforcement schedule.
 */
import { SalientError } from '@salient/engine';
import { SideFeature, type HexMap } from '@salient/hexmap';
import { monthIndex } from '../pack/check.ts';
import type { Nation, PackFiles, Profile, ScenarioDef } from '../pack/schema.ts';
import { dealSector } from './setup.ts';
import { sideOf } from './units.ts';

/** Side numbers: 0 Central Powers, 1 Allies. */
export type SideNo = 0 | 1;
export const SIDE_IDS = ['CP', 'AL'] as const;
export const SIDE_NAMES = ['Central Powers', 'Allies'] as const;

/** Where a unit starts: a hex number, or not yet arrived (with the month it comes). */
export interface UnitDef {
  prof: Profile;
  nation: Nation;
  side: SideNo;
  /** Start hex (set-up), or -2 for a reinforcement. */
  start: number;
  /** Month index of arrival (reinforcements), 0 for set-up units. */
  arrives: number;
  /** Where a reinforcement arrives: a hex, or -1 'any' (17.12), -2 'port' (17.31). */
  at: number;
  /** Starts entrenched at this level (3.4: units next to the start line, not in forts, at L2). */
  ent: number;
  /** The S3 3.4 sector (index into `Board.sectors`) the unit deploys in, -1 for the rest. */
  sector: number;
}

export interface Board {
  hash: string;
  data: PackFiles;
  map: HexMap;
  scen: ScenarioDef;
  units: UnitDef[];
  /** Start control per hex: 0 CP, 1 Allies, -1 nobody (neutral, sea). */
  startCtl: Int8Array;
  /** 1 where no unit may go (neutral countries, 2.2, 18.1). */
  neutral: Uint8Array;
  /** MP to enter per hex (255: not for ground units). */
  mp: Uint8Array;
  /** Defender's terrain DRM per hex, positive (forest 1, major city 1 ...). */
  tdrm: Uint8Array;
  /** 1 where Tanks give no DRM (16.3). */
  noTank: Uint8Array;
  /** 1 where AV odds rise (12.1: forest, swamp, major city). */
  avHard: Uint8Array;
  /** Per hexside: extra MP to cross (255: no crossing), attack multiplier in eighths, tank halved. */
  sideMp: Uint8Array;
  sideAtt8: Uint8Array;
  sideTankHalf: Uint8Array;
  /** City hex by name. */
  city: ReadonlyMap<string, number>;
  /** The 15 victory places. */
  vp: { hex: number; kind: 'take' | 'hold'; name: string }[];
  /** S3 3.4 sectors: the side and its hexes, ascending; then one per placement with a choice of hexes (3.45). */
  sectors: { side: SideNo; hexes: number[] }[];
  /** 3.4: per hex, the entrenchment level a unit set up there starts with (2 next to the start line, not in a fort). */
  startEnt: Uint8Array;
  /** Forts at the start. */
  forts: { hex: number; side: SideNo; level: number }[];
  /** First month index of the scenario. */
  first: number;
  /** Number of turns. */
  turns: number;
  /** Home-country hexes per side, for supply sources and replacements (14.3, 17.25): country codes. */
  home: [ReadonlySet<string>, ReadonlySet<string>];
  /** Nations in S3 that roll for morale, with their starting DRM. */
  morale: { nation: Nation; drm: number }[];
}

const boards = new Map<string, Board>();

/** The board registered for `key` (pack hash + scenario). */
export function boardOf(key: string): Board {
  const b = boards.get(key);
  if (!b) throw new SalientError('BAD_PACK', `no Empires & Alliances board is loaded for '${key}': set the game up from its pack first`);
  return b;
}

const place = (map: HexMap, city: ReadonlyMap<string, number>, at: string, where: string): number => {
  if (/^[0-9]{4}$/.test(at)) {
    const h = map.grid.tryIndex(at);
    if (h < 0 || map.onMap[h] !== 1) throw new SalientError('BAD_PACK', `${where}: hex ${at} is not on the map (map.json). Use a hex of the map or a city name.`);
    return h;
  }
  const h = city.get(at);
  if (h === undefined) throw new SalientError('BAD_PACK', `${where}: no city '${at}' on the map (map.json cities). Add the city to the map or name another.`);
  return h;
};

/** Build (or fetch) the board for a checked pack, its map and a scenario. Throws a SalientError naming the JSON path for a scenario that does not fit the map. */
export function registerBoard(hash: string, data: PackFiles, map: HexMap, scenarioId: string): Board {
  const key = `${hash}:${scenarioId}`;
  const have = boards.get(key);
  if (have) return have;
  const si = data.scenarios.scenarios.findIndex((s) => s.id === scenarioId);
  const scen = data.scenarios.scenarios[si]!;
  const at = (path: string) => `scenarios.json: $.scenarios[${si}].${path}`;
  const city = new Map(map.cities.map((c) => [c.name, c.hex]));
  const profiles = new Map(data.counters.profiles.map((p) => [p.id, p]));
  const size = map.size;
  const tec = data.charts.tec;

  // Terrain per hex.
  const mp = new Uint8Array(size).fill(255);
  const tdrm = new Uint8Array(size);
  const noTank = new Uint8Array(size);
  const avHard = new Uint8Array(size);
  const neutral = new Uint8Array(size);
  // S3 3.61: only the scenario's countries are in play (Austria-Hungary is at war, 3.2, but off the area).
  const atWar = new Set(scen.area);
  for (const h of map.hexes) {
    const t = tec.terrain[map.terrainName(h) as keyof typeof tec.terrain];
    if (!t) continue;
    mp[h] = t.mp ?? 255;
    const major = map.city[h]! >= 0 && map.cities[map.city[h]!]!.size === 'major';
    tdrm[h] = Math.max(-t.defenseDrm, major ? -tec.majorCity.defenseDrm : 0);
    noTank[h] = t.noTankDrm ? 1 : 0;
    avHard[h] = t.avHarder || major ? 1 : 0;
    const c = map.countryCode(h);
    if (c !== undefined && !atWar.has(c)) neutral[h] = 1;
  }
  const sides = map.grid.sideCount;
  const sideMp = new Uint8Array(sides);
  const sideAtt8 = new Uint8Array(sides).fill(8);
  const sideTankHalf = new Uint8Array(sides);
  const F: [number, keyof typeof tec.hexside][] = [
    [SideFeature.RIVER, 'river'],
    [SideFeature.MAJOR_RIVER, 'major-river'],
    [SideFeature.LAKE, 'lake'],
    [SideFeature.SEA, 'sea'],
    [SideFeature.STRAIT, 'strait'],
    [SideFeature.ALPINE, 'alpine'],
  ];
  for (let s = 0; s < sides; s++) {
    const f = map.sideFeatures[s]!;
    if (!f) continue;
    for (const [bit, name] of F) {
      if (!(f & bit)) continue;
      const e = tec.hexside[name];
      sideMp[s] = e.mpExtra === undefined ? 255 : Math.max(sideMp[s]!, e.mpExtra);
      sideAtt8[s] = Math.min(sideAtt8[s]!, Math.floor((8 * e.attackTimes.num) / e.attackTimes.den));
      if (e.tankHalved) sideTankHalf[s] = 1;
    }
  }

  // 4.11: control by the start line. Each French or Belgian hex goes to the side of the nearest sector
  // hex (the sectors line both sides of the front); Germany and Luxembourg are the Central Powers'.
  const sectorHexes: [number[], number[]] = [[], []];
  scen.sectors.forEach((sec, i) => sec.hexes.forEach((id, j) => sectorHexes[sec.side === 'CP' ? 0 : 1].push(place(map, city, id, at(`sectors[${i}].hexes[${j}]`)))));
  const startCtl = new Int8Array(size).fill(-1);
  const grid = map.grid;
  const nearest = (h: number, list: number[]): number => list.reduce((m, x) => Math.min(m, grid.distance(h, x)), Infinity);
  for (const h of map.hexes) {
    const c = map.countryCode(h);
    if (c === 'GE' || c === 'LU' || c === 'AH') startCtl[h] = 0;
    else if (c === 'FR' || c === 'BE') startCtl[h] = nearest(h, sectorHexes[0]) < nearest(h, sectorHexes[1]) ? 0 : 1;
    else if (c === 'GB') startCtl[h] = 1;
  }
  for (const h of sectorHexes[0]) startCtl[h] = 0;
  for (const h of sectorHexes[1]) startCtl[h] = 1;

  const forts = scen.forts.map((f, i) => ({ hex: place(map, city, f.at, at(`forts[${i}].at`)), side: (f.side === 'CP' ? 0 : 1) as SideNo, level: f.level }));
  const fortHexes = new Set(forts.map((f) => f.hex));

  // Units by number: sectors (dealt over their hexes around what is placed there), garrisons,
  // placements, then reinforcements in month order.
  const units: UnitDef[] = [];
  const add = (profId: string, hex: number, arrives: number, atHex: number, path: string): void => {
    const prof = profiles.get(profId);
    if (!prof) throw new SalientError('BAD_PACK', `${at(path)}: unknown counter profile '${profId}'`);
    units.push({ prof, nation: prof.nation, side: sideOf(prof.nation) === 'CP' ? 0 : 1, start: hex, arrives, at: atHex, ent: 0, sector: -1 });
  };
  const fixed = new Map<number, Profile[]>();
  const pinned: { prof: string; hex: number; path: string; zone?: number }[] = [];
  // Placements with a choice of hexes (`within`, e.g. 3.45's US divisions) deploy like a sector of their own.
  const zones: { side: SideNo; hexes: number[] }[] = [];
  scen.garrisons.forEach((g, i) => {
    const h = place(map, city, g.at, at(`garrisons[${i}].at`));
    for (let k = 0; k < g.count; k++) pinned.push({ prof: g.profile, hex: h, path: `garrisons[${i}]` });
  });
  scen.placements.forEach((p, i) => {
    const h0 = place(map, city, p.at, at(`placements[${i}].at`));
    const cands = [h0];
    if (p.within) for (const h of map.hexes) if (h !== h0 && grid.distance(h, h0) <= p.within) cands.push(h);
    // 3.45: in the own sector's rows, at least three hexes from the start line (from enemy-held hexes).
    const enemy = sectorHexes[sideOf(profiles.get(p.profile)?.nation ?? 'FR') === 'CP' ? 1 : 0];
    const ok = cands.filter((h) => map.onMap[h] === 1 && mp[h]! < 255 && neutral[h] === 0 && (p.within === undefined || nearest(h, enemy) >= 3));
    if (!ok.length) throw new SalientError('BAD_PACK', `${at(`placements[${i}]`)}: no hex within ${p.within ?? 0} of ${p.at} is on land, clear of neutrals and far enough from the line`);
    const prof0 = profiles.get(p.profile);
    const zone = p.within !== undefined && prof0 && prof0.type !== 'air' ? scen.sectors.length + zones.length : undefined;
    if (zone !== undefined) zones.push({ side: sideOf(prof0!.nation) === 'CP' ? 0 : 1, hexes: [...ok].sort((x, y) => x - y) });
    for (let k = 0; k < p.count; k++) pinned.push({ prof: p.profile, hex: ok[k % ok.length]!, path: `placements[${i}]`, ...(zone !== undefined ? { zone } : {}) });
  });
  for (const x of pinned) {
    const prof = profiles.get(x.prof);
    if (prof && prof.type !== 'air') fixed.set(x.hex, [...(fixed.get(x.hex) ?? []), prof]);
  }
  scen.sectors.forEach((sec, i) => {
    const list: string[] = [];
    for (const [p, n] of Object.entries(sec.units)) {
      const taken = scen.garrisons.filter((g) => g.sector === sec.id && g.profile === p).reduce((a, g) => a + g.count, 0);
      for (let k = 0; k < n - taken; k++) list.push(p);
    }
    const hexes = sec.hexes.map((id) => grid.tryIndex(id));
    let dealt: number[][];
    try {
      dealt = dealSector(hexes.length, list.map((p) => profiles.get(p)!), hexes.map((h) => fixed.get(h) ?? []));
    } catch (e) {
      throw new SalientError('BAD_PACK', `${at(`sectors[${i}]`)}: ${(e as Error).message}`);
    }
    dealt.forEach((idx, k) =>
      idx.forEach((j) => {
        add(list[j]!, hexes[k]!, 0, -1, `sectors[${i}].units`);
        units[units.length - 1]!.sector = i;
      }),
    );
  });
  for (const x of pinned) {
    add(x.prof, x.hex, 0, -1, x.path);
    if (x.zone !== undefined) units[units.length - 1]!.sector = x.zone;
  }
  const first = monthIndex(scen.first);
  const turns = monthIndex(scen.last) - first + 1;
  [...scen.reinforcements]
    .map((r, i) => ({ r, i }))
    .sort((a, b) => monthIndex(a.r.month) - monthIndex(b.r.month) || a.i - b.i)
    .forEach(({ r, i }) => {
      const atHex = r.at === 'any' ? -1 : r.at === 'port' ? -2 : place(map, city, r.at, at(`reinforcements[${i}].at`));
      for (let k = 0; k < r.count; k++) add(r.profile, -2, monthIndex(r.month), atHex, `reinforcements[${i}]`);
    });

  // 3.4: units next to the start line and not in a fort start entrenched at Level 2.
  const startEnt = new Uint8Array(size);
  for (const h of map.hexes) {
    if (fortHexes.has(h) || startCtl[h]! < 0) continue;
    for (let d = 0; d < 6; d++) {
      const nb = map.neighbours[h * 6 + d]!;
      if (nb >= 0 && startCtl[nb]! >= 0 && startCtl[nb] !== startCtl[h]) startEnt[h] = 2;
    }
  }
  for (const u of units) {
    if (u.start < 0 || fortHexes.has(u.start) || u.prof.type === 'air') continue;
    for (let d = 0; d < 6; d++) {
      const nb = map.neighbours[u.start * 6 + d]!;
      if (nb >= 0 && startCtl[nb] === 1 - u.side) u.ent = 2;
    }
  }
  const sectors = [...scen.sectors.map((sec) => ({ side: (sec.side === 'CP' ? 0 : 1) as SideNo, hexes: sec.hexes.map((id) => grid.tryIndex(id)).sort((x, y) => x - y) })), ...zones];

  const vp = scen.victory.places.map((v, i) => ({ hex: place(map, city, v.place, at(`victory.places[${i}].place`)), kind: v.kind, name: v.place === '2453' ? 'St Quentin (2453)' : v.place }));
  const board: Board = {
    hash,
    data,
    map,
    scen,
    units,
    startCtl,
    neutral,
    mp,
    tdrm,
    noTank,
    avHard,
    sideMp,
    sideAtt8,
    sideTankHalf,
    city,
    vp,
    sectors,
    startEnt,
    forts,
    first,
    turns,
    home: [new Set(['GE', 'LU']), new Set(['FR', 'BE', 'GB'])],
    morale: Object.entries(scen.morale).map(([nation, drm]) => ({ nation: nation as Nation, drm })),
  };
  boards.set(key, board);
  return board;
}
