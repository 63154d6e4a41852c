/**
 * Validation of a Blitz! data pack: the zod shape first, then every cross-reference between files.
 * All problems are reported, each with the JSON path of the offending value, so a pack author can
 * fix a whole transcription in one pass.
 */
import { jsonPath, zodIssues } from '@salient/engine';
import type { PathIssue } from '@salient/engine';
import { packSchema } from './schema.ts';
import type { PackFiles, UnitDef } from './schema.ts';

/** Result of {@link checkBlitzPack}: the parsed pack, or every problem found. */
export type BlitzPackCheck = { ok: true; data: PackFiles } | { ok: false; issues: PathIssue[] };

type Path = readonly (string | number)[];

const NAVAL_TYPES: ReadonlySet<string> = new Set(['BB', 'CV', 'SUB', 'TRS', 'LL']);

/**
 * Check a raw pack object (one key per file: `pack`, `map`, `units`, `combat-chart`, `scenarios`).
 * Returns the parsed data when the pack is sound; otherwise every issue, located by JSON path
 * (`$.map.lands[3].terrain`).
 */
export function checkBlitzPack(raw: unknown): BlitzPackCheck {
  const parsed = packSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error) };
  const issues = crossCheck(parsed.data);
  return issues.length ? { ok: false, issues } : { ok: true, data: parsed.data };
}

function crossCheck(p: PackFiles): PathIssue[] {
  const issues: PathIssue[] = [];
  const add = (path: Path, message: string): void => {
    issues.push({ path: jsonPath(path), message });
  };

  // --- ids -------------------------------------------------------------------------------------
  const uniqueIds = (items: readonly { id: string }[], base: Path, what: string): Set<string> => {
    const seen = new Set<string>();
    items.forEach((it, i) => {
      if (seen.has(it.id)) add([...base, i, 'id'], `duplicate ${what} id '${it.id}'`);
      seen.add(it.id);
    });
    return seen;
  };
  const countries = uniqueIds(p.map.countries, ['map', 'countries'], 'country');
  const lands = uniqueIds(p.map.lands, ['map', 'lands'], 'land area');
  const seas = uniqueIds(p.map.seas, ['map', 'seas'], 'sea area');
  // Land and sea ids share one namespace: a placement or route names either without saying which.
  p.map.seas.forEach((s, i) => {
    if (lands.has(s.id)) add(['map', 'seas', i, 'id'], `sea id '${s.id}' is also a land area id`);
  });
  uniqueIds(p.units.units, ['units', 'units'], 'unit');
  uniqueIds(p.scenarios.scenarios, ['scenarios', 'scenarios'], 'scenario');
  const units = new Map<string, UnitDef>(p.units.units.map((u) => [u.id, u]));

  // --- map -------------------------------------------------------------------------------------
  const portLands = new Set<string>();
  p.map.lands.forEach((l, i) => {
    const at: Path = ['map', 'lands', i];
    if (!countries.has(l.country)) add([...at, 'country'], `unknown country '${l.country}'`);
    l.coast.forEach((s, j) => {
      if (!seas.has(s)) add([...at, 'coast', j], `unknown sea area '${s}'`);
    });
    l.ports.forEach((port, j) => {
      if (port.seas.length) portLands.add(l.id);
      port.seas.forEach((s, k) => {
        const path: Path = [...at, 'ports', j, 'seas', k];
        if (!seas.has(s)) add(path, `unknown sea area '${s}'`);
        // 1.3: a port symbol touching a sea means the area touches that sea.
        else if (!l.coast.includes(s)) add(path, `port touches '${s}' but the land's coast does not list it`);
      });
    });
  });
  const checkPairs = (pairs: readonly (readonly [string, string])[], key: string, known: Set<string>, what: string): void => {
    const seen = new Set<string>();
    pairs.forEach(([a, b], i) => {
      if (!known.has(a)) add(['map', key, i, 0], `unknown ${what} '${a}'`);
      if (!known.has(b)) add(['map', key, i, 1], `unknown ${what} '${b}'`);
      if (a === b) add(['map', key, i], `'${a}' is paired with itself`);
      const k = a < b ? `${a}|${b}` : `${b}|${a}`;
      if (seen.has(k)) add(['map', key, i], `pair '${a}'-'${b}' is listed more than once (pairs are symmetric)`);
      seen.add(k);
    });
  };
  checkPairs(p.map.borders, 'borders', lands, 'land area');
  checkPairs(p.map.landRoutes, 'landRoutes', lands, 'land area');
  checkPairs(p.map.airRoutes, 'airRoutes', lands, 'land area');
  checkPairs(p.map.seaBorders, 'seaBorders', seas, 'sea area');
  const convoys = uniqueIds(p.map.convoys ?? [], ['map', 'convoys'], 'convoy');
  (p.map.convoys ?? []).forEach((c, i) => {
    if (!seas.has(c.sea)) add(['map', 'convoys', i, 'sea'], `unknown sea area '${c.sea}'`);
    if (!countries.has(c.home)) add(['map', 'convoys', i, 'home'], `unknown home country '${c.home}'`);
  });
  (p.map.straits ?? []).forEach((st, i) => {
    st.seas.forEach((x, j) => {
      if (!seas.has(x)) add(['map', 'straits', i, 'seas', j], `unknown sea area '${x}'`);
    });
    st.lands.forEach((x, j) => {
      if (!lands.has(x)) add(['map', 'straits', i, 'lands', j], `unknown land area '${x}'`);
    });
  });

  // --- units -----------------------------------------------------------------------------------
  p.units.units.forEach((u, i) => {
    const at: Path = ['units', 'units', i];
    if (!countries.has(u.home)) add([...at, 'home'], `unknown home country '${u.home}'`);
    const sizes = Object.keys(u.sizes).map(Number).sort((a, b) => a - b);
    // 1.2: every counter has a Size-1 side; Small counters add 2, Big counters 3-4 on top of a Small twin.
    if (sizes.some((s, j) => s !== j + 1)) add([...at, 'sizes'], `sizes must run 1, 2, ... without gaps; got ${sizes.join(', ')}`);
    if (u.type === 'AIR' && !u.primary) add([...at, 'primary'], 'an air unit needs a primary bombing factor (1.2)');
    for (const [size, side] of Object.entries(u.sizes)) {
      const sp: Path = [...at, 'sizes', size];
      if ((u.type === 'AIR' || u.type === 'PARA') && side.airMove === undefined) add([...sp, 'airMove'], `${u.type} needs an air movement`);
      if (u.type === 'AIR' && side.air === undefined) add([...sp, 'air'], 'an air unit needs an Air Factor (1.2)');
      if (u.primary && side[u.primary] === undefined) add([...sp, u.primary], `primary bombing factor '${u.primary}' is missing on this side`);
      if (u.type === 'FORT' && side.move !== 0) add([...sp, 'move'], 'a FORT never moves (A.4): movement must be 0');
    }
  });

  // --- combat chart (6.5) ----------------------------------------------------------------------
  const cols = p['combat-chart'].columns;
  let next = 1;
  cols.forEach((c, i) => {
    const at: Path = ['combat-chart', 'columns', i];
    if (next === Infinity) {
      add(at, 'no column may follow the open-ended column');
      return;
    }
    if (c.min !== next) add([...at, 'min'], `expected min ${next} (columns must cover 1..∞ in order, without gaps or overlaps), got ${c.min}`);
    if (c.max === null) next = Infinity;
    else {
      if (c.max < c.min) add([...at, 'max'], `max ${c.max} is below min ${c.min}`);
      next = Math.max(c.min, c.max) + 1;
    }
  });
  if (next !== Infinity) add(['combat-chart', 'columns'], "the last column must be open-ended (max: null), like the printed '30+' column (6.5)");

  // --- scenarios -------------------------------------------------------------------------------
  p.scenarios.scenarios.forEach((sc, si) => {
    const at: Path = ['scenarios', 'scenarios', si];
    if (sc.lastTurn < sc.firstTurn) add([...at, 'lastTurn'], `lastTurn ${sc.lastTurn} is before firstTurn ${sc.firstTurn}`);
    const powers = new Set<string>();
    const nations = new Set<string>();
    sc.powers.forEach((pw, i) => {
      if (powers.has(pw.id)) add([...at, 'powers', i, 'id'], `duplicate power id '${pw.id}'`);
      powers.add(pw.id);
      pw.nations.forEach((n) => nations.add(n));
    });
    for (const k of Object.keys(sc.blitz)) if (!powers.has(k)) add([...at, 'blitz', k], `unknown power '${k}'`);
    for (const pw of powers) if (!(pw in sc.blitz)) add([...at, 'blitz'], `no Blitz option for power '${pw}' (2.2)`);
    for (const k of Object.keys(sc.offMapIncome)) if (!powers.has(k)) add([...at, 'offMapIncome', k], `unknown power '${k}'`);
    (sc.destroyedConvoys ?? []).forEach((c, i) => {
      if (!convoys.has(c)) add([...at, 'destroyedConvoys', i], `unknown convoy '${c}'`);
    });

    const inPlay = new Set<string>();
    sc.lands.forEach((l, i) => {
      if (!lands.has(l)) add([...at, 'lands', i], `unknown land area '${l}'`);
      else if (inPlay.has(l)) add([...at, 'lands', i], `land area '${l}' is listed twice`);
      inPlay.add(l);
    });
    const seasInPlay = new Set<string>();
    sc.seas.forEach((s, i) => {
      if (!seas.has(s)) add([...at, 'seas', i], `unknown sea area '${s}'`);
      seasInPlay.add(s);
    });
    for (const [l, who] of Object.entries(sc.control)) {
      if (!inPlay.has(l)) add([...at, 'control', l], `'${l}' is not a land area in play in this scenario`);
      if (who !== 'neutral' && !powers.has(who)) add([...at, 'control', l], `controller '${who}' is neither a power of this scenario nor 'neutral'`);
    }
    for (const l of inPlay) if (lands.has(l) && !(l in sc.control)) add([...at, 'control'], `land area '${l}' in play has no control entry (1.5)`);

    const placed = new Map<string, string>();
    const checkPlacement = (pl: { unit: string; size: number; at: string }, path: Path, needNation: boolean): void => {
      const u = units.get(pl.unit);
      if (!u) {
        add([...path, 'unit'], `unknown unit '${pl.unit}'`);
      } else {
        if (!(String(pl.size) in u.sizes)) add([...path, 'size'], `unit '${pl.unit}' has no Size-${pl.size} side (it has ${Object.keys(u.sizes).join(', ')})`);
        if (needNation && !nations.has(u.nation)) add([...path, 'unit'], `unit '${pl.unit}' belongs to ${u.nation}, which no power in this scenario runs`);
      }
      const prior = placed.get(pl.unit);
      if (prior !== undefined) add([...path, 'unit'], `unit '${pl.unit}' is already placed at ${prior}; each counter exists once`);
      else placed.set(pl.unit, jsonPath(path));
      if (pl.at.startsWith('sea:')) {
        const s = pl.at.slice(4);
        if (!seasInPlay.has(s)) add([...path, 'at'], `'${s}' is not a sea area in play in this scenario`);
      } else if (!inPlay.has(pl.at)) {
        add([...path, 'at'], `'${pl.at}' is not a land area in play in this scenario (use 'sea:<id>' for a sea)`);
      } else if (u && NAVAL_TYPES.has(u.type) && !portLands.has(pl.at)) {
        add([...path, 'at'], `naval unit '${pl.unit}' is placed in '${pl.at}', which has no port (1.3)`);
      }
    };
    sc.minors.forEach((m, i) => {
      if (!countries.has(m.country)) add([...at, 'minors', i, 'country'], `unknown country '${m.country}'`);
      m.army.forEach((pl, j) => checkPlacement(pl, [...at, 'minors', i, 'army', j], false));
    });
    sc.setup.forEach((pl, i) => checkPlacement(pl, [...at, 'setup', i], true));
    sc.reinforcements.forEach((r, i) => {
      if (r.turn < sc.firstTurn || r.turn > sc.lastTurn) add([...at, 'reinforcements', i, 'turn'], `turn ${r.turn} is outside turns ${sc.firstTurn}-${sc.lastTurn}`);
      r.units.forEach((pl, j) => checkPlacement(pl, [...at, 'reinforcements', i, 'units', j], true));
    });
    sc.forcePool.forEach((f, i) => {
      const path: Path = [...at, 'forcePool', i];
      const u = units.get(f.unit);
      if (!u) add([...path, 'unit'], `unknown unit '${f.unit}'`);
      else {
        if (!(String(f.size) in u.sizes)) add([...path, 'size'], `unit '${f.unit}' has no Size-${f.size} side`);
        if (!nations.has(u.nation)) add([...path, 'unit'], `unit '${f.unit}' belongs to ${u.nation}, which no power in this scenario runs`);
      }
      const prior = placed.get(f.unit);
      if (prior !== undefined) add([...path, 'unit'], `unit '${f.unit}' is already placed at ${prior}; each counter exists once`);
      else placed.set(f.unit, jsonPath(path));
      if (f.from !== undefined && (f.from < sc.firstTurn || f.from > sc.lastTurn)) add([...path, 'from'], `turn ${f.from} is outside turns ${sc.firstTurn}-${sc.lastTurn}`);
    });
  });

  // --- provenance ------------------------------------------------------------------------------
  const marked: Path[] = [];
  walk(p, [], (obj, path) => {
    const est = obj['estimates'];
    if (est === undefined || est === null || typeof est !== 'object') return;
    marked.push(path);
    for (const key of Object.keys(est)) {
      if (!hasPath(obj, key)) add([...path, 'estimates', key], `'${key}' names no field of this object`);
    }
  });
  if (p.pack.fidelity === 'official') {
    for (const path of marked) add([...path, 'estimates'], "an 'official' pack is transcribed from the components and may not carry estimates");
  } else if (p.pack.fidelity === 'approximation' && marked.length === 0) {
    add(['pack', 'fidelity'], "an 'approximation' pack must mark its estimated values with `estimates`");
  }
  return issues;
}

/** Visit every plain object in `v` (depth first) with its path. */
function walk(v: unknown, path: Path, visit: (obj: Record<string, unknown>, path: Path) => void): void {
  if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i], visit));
  else if (v !== null && typeof v === 'object') {
    const obj = v as Record<string, unknown>;
    visit(obj, path);
    for (const [k, x] of Object.entries(obj)) if (k !== 'estimates' && k !== 'refs') walk(x, [...path, k], visit);
  }
}

/** True when the dotted `key` (`ports.0.size`, `sizes.2.land`) names a value present in `obj`. */
function hasPath(obj: unknown, key: string): boolean {
  const segs = key.split('.');
  // Provenance fields describe the object; they are not values that can be estimated.
  if (segs[0] === 'estimates' || segs[0] === 'refs') return false;
  let cur: unknown = obj;
  for (const seg of segs) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, seg)) return false;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return true;
}
