/**
 * Validation of an Empires & Alliances data pack: the zod shape first, then the facts the rulebook
 * text states about the charts (any pack, official or not, must honour them) and every
 * cross-reference between files. All problems are reported, each with the JSON path of the offending
 * value (`$.charts.crt.results[5][10]`), so a pack author can fix a whole transcription in one pass.
 *
 * The map (`map.json`, format `salient.hexmap/1`) is checked by @salient/hexmap; the places the
 * scenario names (cities, hexes) are checked against it when both are loaded (see `game.ts`).
 */
import { jsonPath, zodIssues, type PathIssue } from '@salient/engine';
import { checkHexMap } from '@salient/hexmap';
import { CRT_COLUMNS, CRT_MIN_ROLL, NATIONS, packSchema, type PackFiles } from './schema.ts';

export type EaPackCheck = { ok: true; data: PackFiles } | { ok: false; issues: PathIssue[] };

type Path = readonly (string | number)[];

/** Check a raw pack object (one key per file: `pack`, `charts`, `counters`, `scenarios`). */
export function checkEaPack(raw: unknown): EaPackCheck {
  const parsed = packSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error) };
  const issues = crossCheck(parsed.data);
  if (parsed.data.map !== undefined) {
    const m = checkHexMap(parsed.data.map, { source: 'map.json', root: '$.map' });
    if (!m.ok) issues.push(...m.issues);
  }
  return issues.length ? { ok: false, issues } : { ok: true, data: parsed.data };
}

/** `1918-04` -> months since year 0, for ordering. */
export const monthIndex = (key: string): number => Number(key.slice(0, 4)) * 12 + Number(key.slice(5, 7)) - 1;

function crossCheck(p: PackFiles): PathIssue[] {
  const issues: PathIssue[] = [];
  const add = (path: Path, message: string): void => {
    issues.push({ path: jsonPath(path), message });
  };

  // --- charts: facts the text states ----------------------------------------------------------
  const crt = p.charts.crt;
  crt.columns.forEach((c, i) => {
    if (c !== CRT_COLUMNS[i]) add(['charts', 'crt', 'columns', i], `column ${i} must be '${CRT_COLUMNS[i]}' (13.641: 1-5, 1-4, 1-3, 1-2, 1-1, 2-1 .. 7-1 in order), not '${c}'`);
  });
  const twoToOne = CRT_COLUMNS.indexOf('2-1');
  const dd = crt.results[twoToOne]?.[9 - CRT_MIN_ROLL];
  if (dd !== 'DD') add(['charts', 'crt', 'results', twoToOne, 9 - CRT_MIN_ROLL], `13.643's example reads DD at 2-1 on a net roll of 9; this chart has '${dd}' there`);
  const tec = p.charts.tec.terrain;
  for (const t of ['forest', 'swamp', 'mountain'] as const) {
    if (!tec[t].noTankDrm) add(['charts', 'tec', 'terrain', t, 'noTankDrm'], `16.3: Tanks give no DRM against a defender in ${t}; set noTankDrm to true`);
  }
  for (const t of ['forest', 'swamp'] as const) {
    if (!tec[t].avHarder) add(['charts', 'tec', 'terrain', t, 'avHarder'], `12.1: a defender in ${t} raises the AV odds to 10-1; set avHarder to true`);
  }
  for (const t of ['sea', 'lake'] as const) {
    if (tec[t].mp !== undefined) add(['charts', 'tec', 'terrain', t, 'mp'], `ground units cannot enter ${t} hexes; remove mp`);
  }
  for (const f of ['sea', 'lake', 'strait'] as const) {
    const a = p.charts.tec.hexside[f].attackTimes;
    if (a.num !== 0) add(['charts', 'tec', 'hexside', f, 'attackTimes'], `13.2: no attack across a ${f} hexside; attackTimes must be 0`);
  }
  for (const f of ['river', 'major-river'] as const) {
    if (!p.charts.tec.hexside[f].tankHalved) add(['charts', 'tec', 'hexside', f, 'tankHalved'], `16.3: a Tank attacking across a river is halved; set tankHalved to true`);
  }
  for (const [c, n] of Object.entries(p.charts.railCapacity.corps)) {
    const minor = c === 'BE' || c === 'NL' || c === 'LU';
    if (minor ? n !== 3 : n !== 9 && n !== 12) add(['charts', 'railCapacity', 'corps', c], minor ? `9.52: a minor country's rail capacity is 3, not ${n}` : `9.52: a major power's rail capacity is 9 or 12, not ${n}`);
  }

  // --- counters ---------------------------------------------------------------------------------
  const profiles = new Map(p.counters.profiles.map((x) => [x.id, x]));
  const seen = new Set<string>();
  p.counters.profiles.forEach((x, i) => {
    if (seen.has(x.id)) add(['counters', 'profiles', i, 'id'], `duplicate profile id '${x.id}'`);
    seen.add(x.id);
    if ((x.type === 'siege' || x.type === 'tank' || x.type === 'air') && x.size === 'div') add(['counters', 'profiles', i, 'size'], `a ${x.type} unit is not a division`);
  });
  const known = (id: string, path: Path): void => {
    if (!profiles.has(id)) add(path, `unknown counter profile '${id}'; it must be one of counters.json's profiles`);
  };

  // --- scenarios -------------------------------------------------------------------------------
  p.scenarios.scenarios.forEach((s, si) => {
    const at: Path = ['scenarios', 'scenarios', si];
    const first = monthIndex(s.first);
    const last = monthIndex(s.last);
    if (last < first) add([...at, 'last'], `the last month ${s.last} is before the first ${s.first}`);
    const hexOwner = new Map<string, string>();
    const sectorIds = new Set<string>();
    s.sectors.forEach((sec, i) => {
      if (sectorIds.has(sec.id)) add([...at, 'sectors', i, 'id'], `duplicate sector '${sec.id}'`);
      sectorIds.add(sec.id);
      sec.hexes.forEach((h, j) => {
        const other = hexOwner.get(h);
        if (other) add([...at, 'sectors', i, 'hexes', j], `hex ${h} is already in sector ${other}`);
        hexOwner.set(h, sec.id);
      });
      for (const [prof, n] of Object.entries(sec.units)) {
        known(prof, [...at, 'sectors', i, 'units', prof]);
        const side = profiles.get(prof)?.nation;
        if (side && (side === 'GE' || side === 'AH') !== (sec.side === 'CP')) add([...at, 'sectors', i, 'units', prof], `a ${side} unit (${n}) in a ${sec.side} sector`);
      }
    });
    s.garrisons.forEach((g, i) => {
      known(g.profile, [...at, 'garrisons', i, 'profile']);
      const sec = s.sectors.find((x) => x.id === g.sector);
      if (!sec) add([...at, 'garrisons', i, 'sector'], `unknown sector '${g.sector}'`);
      else {
        const taken = s.garrisons.filter((x) => x.sector === g.sector && x.profile === g.profile).reduce((a, x) => a + x.count, 0);
        if ((sec.units[g.profile] ?? 0) < taken) add([...at, 'garrisons', i, 'count'], `sector ${g.sector} has ${sec.units[g.profile] ?? 0} '${g.profile}', fewer than the ${taken} its garrisons take`);
      }
    });
    s.placements.forEach((pl, i) => known(pl.profile, [...at, 'placements', i, 'profile']));
    s.reinforcements.forEach((r, i) => {
      known(r.profile, [...at, 'reinforcements', i, 'profile']);
      const m = monthIndex(r.month);
      if (m <= first || m > last) add([...at, 'reinforcements', i, 'month'], `${r.month} is outside the scenario's later turns (${s.first} is the first, ${s.last} the last)`);
    });
    s.replacements.forEach((r, i) => {
      if (s.replacements.findIndex((x) => x.nation === r.nation) !== i) add([...at, 'replacements', i, 'nation'], `duplicate replacement rates for ${r.nation}`);
    });
    for (const n of Object.keys(s.morale)) {
      if (!(NATIONS as readonly string[]).includes(n)) add([...at, 'morale', n], `unknown nation '${n}'; one of ${NATIONS.join(', ')}`);
    }
    const b = s.victory.bands;
    for (let i = 1; i < b.length; i++) if (b[i]! <= b[i - 1]!) add([...at, 'victory', 'bands', i], `victory bands must rise: ${b[i]} follows ${b[i - 1]}`);
    const places = new Set<string>();
    s.victory.places.forEach((v, i) => {
      if (places.has(v.place)) add([...at, 'victory', 'places', i, 'place'], `'${v.place}' is listed twice (3.71 has 15 different places)`);
      places.add(v.place);
    });
  });
  return issues;
}
