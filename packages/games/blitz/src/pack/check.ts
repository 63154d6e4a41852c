/**
 * Validation of a Blitz! data pack: the zod shape first, then every cross-reference between files.
 * All problems are reported, each with the JSON path of the offending value, so a pack author can
 * fix a whole transcription in one pass.
 */
import { jsonPath, zodIssues } from '@salient/engine';
import type { PathIssue } from '@salient/engine';
import { packSchema, RTW_STATED } from './schema.ts';
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
  p.map.countries.forEach((c, i) => {
    if (c.remoteHome && c.homeOf === undefined) add(['map', 'countries', i, 'remoteHome'], `'${c.id}' is no major power's home country (no homeOf): only a home country can be a remote one (7.6); remove remoteHome or set homeOf`);
    if (c.returnedWhenLiberated && c.homeOf === undefined) add(['map', 'countries', i, 'returnedWhenLiberated'], `'${c.id}' is no major power's home country (no homeOf): only a home country goes back to its power on liberation (3.4); remove returnedWhenLiberated or set homeOf`);
  });
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
    (c.fedBy ?? []).forEach((x, j) => {
      if (!countries.has(x)) add(['map', 'convoys', i, 'fedBy', j], `unknown country '${x}'`);
    });
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
  // 9.5: Commander counters. Counter ids and commander (face) ids are unique, each counter's home is a
  // home country of its nation, a power has at most two counters, and every face gives some factor.
  const commanders = p.units.commanders ?? [];
  uniqueIds(commanders, ['units', 'commanders'], 'commander counter');
  const faceSeen = new Set<string>();
  const perNation = new Map<string, number>();
  commanders.forEach((c, i) => {
    const at: Path = ['units', 'commanders', i];
    const home = p.map.countries.find((x) => x.id === c.home);
    if (!home) add([...at, 'home'], `unknown home country '${c.home}'`);
    else if (home.homeOf !== c.nation) add([...at, 'home'], `'${c.home}' is not a home country of ${c.nation} (its homeOf is ${home.homeOf ?? 'unset'}): a Commander is placed in its own power's home country (9.5)`);
    perNation.set(c.nation, (perNation.get(c.nation) ?? 0) + 1);
    if (perNation.get(c.nation) === 3) add(at, `${c.nation} has more than two Commander counters; 9.5 gives each major power two`);
    c.sides.forEach((sd, j) => {
      if (faceSeen.has(sd.id)) add([...at, 'sides', j, 'id'], `duplicate commander id '${sd.id}' (ids are unique over every face of every counter)`);
      faceSeen.add(sd.id);
      if ((sd.air ?? 0) + (sd.land ?? 0) + (sd.naval ?? 0) + (sd.strategic ?? 0) < 1) add([...at, 'sides', j], `commander '${sd.id}' has no factor: a Commander has factors like a unit (9.5)`);
    });
  });
  p.units.units.forEach((u, i) => {
    const at: Path = ['units', 'units', i];
    if (!countries.has(u.home)) add([...at, 'home'], `unknown home country '${u.home}'`);
    const sizes = Object.keys(u.sizes).map(Number).sort((a, b) => a - b);
    // 1.2: every counter has a Size-1 side; Small counters add 2, Big counters 3-4 on top of a Small twin.
    if (sizes.some((s, j) => s !== j + 1)) add([...at, 'sizes'], `sizes must run 1, 2, ... without gaps; got ${sizes.join(', ')}`);
    // 1.2: every air unit but the special ones (the V-Weapons) has an Air Factor and a primary bombing factor.
    if (u.type === 'AIR' && !u.primary && !u.vWeapon) add([...at, 'primary'], 'an air unit needs a primary bombing factor (1.2)');
    if (u.vWeapon && u.type !== 'AIR') add([...at, 'vWeapon'], `a V-Weapon is a special air unit (1.2); '${u.id}' is ${u.type}: make it AIR or remove vWeapon`);
    if (u.vWeapon && u.primary) add([...at, 'primary'], 'a V-Weapon has no primary bombing factor (1.2), only its Strategic Factor: remove primary');
    if (u.oneShot && u.type !== 'AIR') add([...at, 'oneShot'], `only air units carry the '*' of a one-shot unit (6); '${u.id}' is ${u.type}: remove oneShot`);
    for (const [size, side] of Object.entries(u.sizes)) {
      const sp: Path = [...at, 'sizes', size];
      if ((u.type === 'AIR' || u.type === 'PARA') && side.airMove === undefined) add([...sp, 'airMove'], `${u.type} needs an air movement`);
      if (u.type === 'AIR' && !u.vWeapon && side.air === undefined) add([...sp, 'air'], 'an air unit needs an Air Factor (1.2)');
      if (u.vWeapon && side.air !== undefined) add([...sp, 'air'], 'a V-Weapon has no Air Factor (1.2; it never fights in an Air Round, 6.1): remove air');
      if (u.vWeapon && side.strategic === undefined) add([...sp, 'strategic'], 'a V-Weapon needs a Strategic Factor (it fights only in the Strategic Round, 6.1)');
      if (u.primary && side[u.primary] === undefined) add([...sp, u.primary], `primary bombing factor '${u.primary}' is missing on this side`);
      if (u.type === 'FORT' && side.move !== 0) add([...sp, 'move'], 'a FORT never moves (A.4): movement must be 0');
      if (side.type !== undefined && u.type !== 'CV') add([...sp, 'type'], `only a CV's counter may show a BB on a side (6.5); '${u.id}' is ${u.type}: remove type`);
      if (side.type !== undefined && Number(size) === Math.max(...Object.keys(u.sizes).map(Number))) add([...sp, 'type'], `a CV turns into a BB only by taking losses (6.5): its full-Size side must be the CV; set type on a reduced side only`);
    }
    // 7.4: only a Lend Lease counter has a named sea and a recipient's flag.
    if (u.type !== 'LL') {
      if (u.llSea !== undefined) add([...at, 'llSea'], `only an LL unit has a named Lend Lease sea; '${u.id}' is ${u.type}: remove llSea`);
      if (u.llTo !== undefined) add([...at, 'llTo'], `only an LL unit has a Lend Lease recipient; '${u.id}' is ${u.type}: remove llTo`);
      if (u.llToHome !== undefined) add([...at, 'llToHome'], `only an LL unit has a Lend Lease recipient; '${u.id}' is ${u.type}: remove llToHome`);
    } else {
      if (u.llSea !== undefined && !seas.has(u.llSea)) add([...at, 'llSea'], `unknown sea area '${u.llSea}': name a sea of map.json`);
      if (u.llToHome !== undefined && !countries.has(u.llToHome)) add([...at, 'llToHome'], `unknown country '${u.llToHome}': name the home country whose units the Lend Lease supplies`);
      if (u.llToHome !== undefined && u.llTo !== undefined) add([...at, 'llToHome'], `a Lend Lease unit gives either to a power (llTo) or to a home country's units (llToHome), not both`);
      if (u.llTo !== undefined && u.llTo === u.nation) add([...at, 'llTo'], `a Lend Lease unit gives to another major power, not its own (${u.nation}): set llTo to the power whose flag is on the counter, or remove it`);
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
      m.colonies?.countries.forEach((c, j) => {
        if (!sc.minors.some((x) => x.country === c) || c === m.country) add([...at, 'minors', i, 'colonies', 'countries', j], `'${c}' is not another neutral minor of this scenario: a colony must be listed in minors itself`);
      });
      const axis = m.colonies?.axis;
      if (axis !== undefined && !sc.powers.some((x) => x.id === axis && x.side === 'Axis')) add([...at, 'minors', i, 'colonies', 'axis'], `'${axis}' is not an Axis power of this scenario`);
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

    // --- power-keyed records and Future Additions (2.2, C, D) ---
    const powerList = [...powers].join(', ');
    const knownPower = (who: string, path: Path, what: string): boolean => {
      if (powers.has(who)) return true;
      add(path, `${what} '${who}' is not a power of this scenario: use one of ${powerList}`);
      return false;
    };
    const nationsOf = new Map(sc.powers.map((pw) => [pw.id, new Set<string>(pw.nations)]));
    for (const key of ['blitzChoice', 'oil', 'fixedIncome', 'futureAdditions', 'picksPerTurn', 'doublePicks', 'buildAt'] as const) {
      for (const k of Object.keys(sc[key] ?? {})) knownPower(k, [...at, key, k], 'power');
    }
    for (const [pw, list] of Object.entries(sc.futureAdditions ?? {})) {
      list.forEach((f, i) => {
        const path: Path = [...at, 'futureAdditions', pw, i];
        const u = units.get(f.unit);
        if (!u) add([...path, 'unit'], `unknown unit '${f.unit}': add it to units.json or fix the id`);
        else {
          if (!(String(f.size) in u.sizes)) add([...path, 'size'], `unit '${f.unit}' has no Size-${f.size} side (it has ${Object.keys(u.sizes).join(', ')})`);
          // 7.3: a minor country's unit may be on another power's chart; it goes to its ally's Force Pool.
          const minor = !p.map.countries.some((c) => c.id === u.home && c.homeOf !== undefined);
          if (nationsOf.has(pw) && !nationsOf.get(pw)!.has(u.nation) && !minor) add([...path, 'unit'], `unit '${f.unit}' belongs to ${u.nation}, which power '${pw}' does not run: list it under the power that runs ${u.nation}`);
        }
        const prior = placed.get(f.unit);
        if (prior !== undefined) add([...path, 'unit'], `unit '${f.unit}' is already placed at ${prior}; each counter exists once, so a Future Addition may not also be set up or in the Force Pool`);
        else placed.set(f.unit, jsonPath(path));
      });
    }
    const inRange = (turn: number, path: Path): void => {
      if (turn < sc.firstTurn || turn > sc.lastTurn) add(path, `turn ${turn} is outside turns ${sc.firstTurn}-${sc.lastTurn}: use a turn the scenario plays`);
    };
    const countryInPlay = (c: string, path: Path): void => {
      if (!countries.has(c)) add(path, `unknown country '${c}': use a country id of map.json`);
      else if (!p.map.lands.some((l) => l.country === c && inPlay.has(l.id))) add(path, `country '${c}' has no land area in play in this scenario: add its areas to lands or drop this entry`);
    };

    // --- 1.4/D.2 weather ---
    const snow = new Set<number>();
    (sc.snowTurns ?? []).forEach((t, i) => {
      inRange(t, [...at, 'snowTurns', i]);
      if (snow.has(t)) add([...at, 'snowTurns', i], `turn ${t} is listed twice: list each Snow turn once`);
      snow.add(t);
    });

    // --- 7.5 trades, D's Second Front, handovers and disbands ---
    (sc.trades ?? []).forEach((t, i) => {
      const path: Path = [...at, 'trades', i];
      if (!countries.has(t.from)) add([...path, 'from'], `unknown country '${t.from}': a trade comes from a country id of map.json`);
      else {
        const own = p.map.lands.filter((l) => l.country === t.from);
        const oil = own.reduce((n, l) => n + l.oil, 0);
        const res = own.reduce((n, l) => n + l.resources, 0);
        if (t.oil > oil || t.resources > res) add(path, `'${t.from}' produces ${oil} Oil and ${res} Resources on the map, less than the ${t.oil} Oil and ${t.resources} Resources traded: trade at most what the country has`);
      }
      knownPower(t.to, [...path, 'to'], 'trade partner');
      if (t.oil + t.resources === 0) add(path, 'a trade of nothing: give the Oil or Resources it carries');
    });
    (sc.resourceDrain ?? []).forEach((d, i) => {
      const path: Path = [...at, 'resourceDrain', i];
      knownPower(d.power, [...path, 'power'], 'power');
      inRange(d.fromTurn, [...path, 'fromTurn']);
      if (d.max < d.perTurn) add([...path, 'max'], `max ${d.max} is below perTurn ${d.perTurn}: the cap must allow at least one turn's loss`);
    });
    (sc.handovers ?? []).forEach((h, i) => {
      const path: Path = [...at, 'handovers', i];
      inRange(h.turn, [...path, 'turn']);
      countryInPlay(h.country, [...path, 'country']);
      if (knownPower(h.to, [...path, 'to'], 'receiving power') && h.closedTo !== undefined) {
        const side = sc.powers.find((pw) => pw.id === h.to)!.side;
        if (side === h.closedTo) add([...path, 'closedTo'], `the country is closed to the ${h.closedTo}, the receiving power's own side: close it to the other side`);
      }
    });
    sc.disbands?.forEach((d, i) => {
      const path: Path = [...at, 'disbands', i];
      inRange(d.turn, [...path, 'turn']);
      if (knownPower(d.power, [...path, 'power'], 'power')) {
        const runs = nationsOf.get(d.power)!;
        const has = [...sc.setup, ...sc.forcePool].some((x) => {
          const u = units.get(x.unit);
          return u !== undefined && u.type === d.type && runs.has(u.nation);
        });
        if (!has) add([...path, 'type'], `power '${d.power}' has no ${d.type} unit in the set-up or Force Pool to remove: fix the type or the power`);
      }
    });

    // --- D: build areas, permanent losses, dormant armies ---
    for (const [pw, l] of Object.entries(sc.buildAt ?? {})) {
      const path: Path = [...at, 'buildAt', pw];
      if (!lands.has(l)) add(path, `unknown land area '${l}': use a land area id of map.json`);
      else if (!inPlay.has(l)) add(path, `'${l}' is not a land area in play in this scenario: build in an area listed in lands`);
      else if (powers.has(pw) && sc.control[l] !== pw) add(path, `'${l}' is controlled by '${sc.control[l] ?? 'nobody'}' at the start, not by '${pw}': build in an area the power holds`);
    }
    (sc.permanentLoss ?? []).forEach((x, i) => {
      const path: Path = [...at, 'permanentLoss', i];
      const u = units.get(x);
      if (!u) add(path, `unknown unit '${x}': add it to units.json or fix the id`);
      else if (!nations.has(u.nation)) add(path, `unit '${x}' belongs to ${u.nation}, which no power in this scenario runs: remove it`);
      else if (!placed.has(x)) add(path, `unit '${x}' is neither set up, reinforcing, in a Force Pool nor a Future Addition in this scenario: remove it or place the unit`);
    });
    (sc.dormant ?? []).forEach((dm, i) => {
      const path: Path = [...at, 'dormant', i];
      countryInPlay(dm.country, [...path, 'country']);
      const holders = new Set(p.map.lands.filter((l) => l.country === dm.country && inPlay.has(l.id)).map((l) => sc.control[l.id] ?? 'neutral'));
      if (holders.has('neutral')) add([...path, 'country'], `'${dm.country}' has neutral land areas: a dormant army belongs to a country a power controls; use minors for a neutral country that may be declared on`);
      dm.army.forEach((pl, j) => {
        const pp: Path = [...path, 'army', j];
        checkPlacement(pl, pp, true);
        const l = p.map.lands.find((x) => x.id === pl.at);
        if (l && l.country !== dm.country) add([...pp, 'at'], `'${pl.at}' is in '${l.country}', not in '${dm.country}': a dormant army appears in its own country`);
        const u = units.get(pl.unit);
        const holder = sc.control[pl.at];
        if (u && holder !== undefined && nationsOf.has(holder) && !nationsOf.get(holder)!.has(u.nation)) add([...pp, 'unit'], `unit '${pl.unit}' belongs to ${u.nation}, but '${pl.at}' is held by '${holder}', which does not run ${u.nation}: give the counter to the controlling power's nation`);
      });
    });

    // --- E: off-map supply, China, the Harbin frontier, extra Resources, research ---
    const sideOfPower = (pw: string): string | undefined => sc.powers.find((x) => x.id === pw)?.side;
    const knownCountry = (c: string, path: Path, what: string): boolean => {
      if (countries.has(c)) return true;
      add(path, `unknown ${what} '${c}': use a country id of map.json`);
      return false;
    };
    for (const [pw, ms] of Object.entries(sc.offMapSupply ?? {})) {
      const path: Path = [...at, 'offMapSupply', pw];
      knownPower(pw, path, 'power');
      ms.countries.forEach((c, i) => knownCountry(c, [...path, 'countries', i], 'country'));
    }
    const ce = sc.chinaEntry;
    if (ce) {
      const path: Path = [...at, 'chinaEntry'];
      countryInPlay(ce.country, [...path, 'country']);
      knownCountry(ce.home, [...path, 'home'], 'home country');
      if (!p.units.units.some((u) => u.home === ce.home)) add([...path, 'home'], `no unit in units.json has home '${ce.home}': the country's own units are the ones exempt from the entry limit, so add them or fix the home`);
      const seen = new Set<string>();
      ce.openers.forEach((l, i) => {
        const op: Path = [...path, 'openers', i];
        if (!lands.has(l)) add(op, `unknown land area '${l}': an opener is a land area id of map.json`);
        else if (!inPlay.has(l)) add(op, `'${l}' is not a land area in play in this scenario: it could never be held, so list an area in lands`);
        if (seen.has(l)) add(op, `'${l}' is listed twice: list each opener once`);
        seen.add(l);
      });
      if (ce.need > ce.openers.length) add([...path, 'need'], `need ${ce.need} is more than the ${ce.openers.length} openers listed: it could never be met`);
      const nations = new Set(sc.powers.flatMap((x) => x.nations));
      const nationInPlay = (n: string, np: Path) => {
        if (!nations.has(n as never)) add(np, `nation '${n}' belongs to no power of this scenario: list a nation of its powers`);
      };
      ce.openerNations?.forEach((n, i) => nationInPlay(n, [...path, 'openerNations', i]));
      if (ce.unlessNeutral) nationInPlay(ce.unlessNeutral, [...path, 'unlessNeutral']);
      ce.own?.forEach((o, i) => {
        nationInPlay(o.nation, [...path, 'own', i, 'nation']);
        o.lands.forEach((l, j) => {
          if (!lands.has(l)) add([...path, 'own', i, 'lands', j], `unknown land area '${l}': list land area ids of map.json`);
          else if (!inPlay.has(l)) add([...path, 'own', i, 'lands', j], `'${l}' is not a land area in play in this scenario: it could never be held`);
        });
      });
    }
    (sc.restrictedIncome ?? []).forEach((r, i) => {
      const path: Path = [...at, 'restrictedIncome', i];
      countryInPlay(r.country, [...path, 'country']);
      if (knownCountry(r.home, [...path, 'home'], 'home country') && !p.units.units.some((u) => u.home === r.home)) add([...path, 'home'], `no unit in units.json has home '${r.home}': the restricted income could build nothing; add the country's units or fix the home`);
    });
    const fr = sc.frontier;
    if (fr) {
      const path: Path = [...at, 'frontier'];
      if (!lands.has(fr.land)) add([...path, 'land'], `unknown land area '${fr.land}': use a land area id of map.json`);
      else if (!inPlay.has(fr.land)) add([...path, 'land'], `'${fr.land}' is not a land area in play in this scenario: the frontier must be an area listed in lands`);
      if (knownPower(fr.holder, [...path, 'holder'], 'holder') && inPlay.has(fr.land) && sc.control[fr.land] !== fr.holder) add([...path, 'holder'], `'${fr.land}' is controlled by '${sc.control[fr.land] ?? 'nobody'}' at the start, not by '${fr.holder}': the holder must start with the frontier area`);
      if (powers.has(fr.controller)) add([...path, 'controller'], `'${fr.controller}' is a power of this scenario; the frontier's controller stands for a power off the map (E: the USSR): name one that is not in powers`);
      else if (fr.controller === 'neutral') add([...path, 'controller'], `the frontier's controller takes areas by attacking; 'neutral' cannot: name the off-map power (E: the USSR)`);
      inRange(fr.fromTurn, [...path, 'fromTurn']);
      if (powers.has(fr.holder) && inPlay.has(fr.land)) {
        const garrison = sc.setup.filter((x) => x.at === fr.land).reduce((n, x) => {
          const u = units.get(x.unit);
          return u && !NAVAL_TYPES.has(u.type) && u.type !== 'AIR' && nationsOf.get(fr.holder)!.has(u.nation) ? n + x.size : n;
        }, 0);
        if (garrison < fr.garrison) add([...path, 'garrison'], `the set-up puts Size ${garrison} of '${fr.holder}' land units in '${fr.land}', less than the garrison of ${fr.garrison} it must always keep: place more land units there`);
      }
    }
    const xr = sc.extraResources;
    if (xr) {
      const path: Path = [...at, 'extraResources'];
      knownPower(xr.power, [...path, 'power'], 'power');
      if (xr.optional) {
        const op: Path = [...path, 'optional'];
        inRange(xr.optional.fromTurn, [...op, 'fromTurn']);
        inRange(xr.optional.toTurn, [...op, 'toTurn']);
        if (xr.optional.toTurn < xr.optional.fromTurn) add([...op, 'toTurn'], `toTurn ${xr.optional.toTurn} is before fromTurn ${xr.optional.fromTurn}: give the turns in order`);
        if (knownPower(xr.optional.vpToIfNone, [...op, 'vpToIfNone'], 'power') && powers.has(xr.power) && sideOfPower(xr.optional.vpToIfNone) === sideOfPower(xr.power)) add([...op, 'vpToIfNone'], `'${xr.optional.vpToIfNone}' is on the same side as '${xr.power}': the point goes to an enemy when '${xr.power}' has none to lose`);
      }
      if (xr.growing) inRange(xr.growing.fromTurn, [...path, 'growing', 'fromTurn']);
      if (!xr.optional && !xr.growing) add(path, 'extra Resources with neither optional nor growing: give one or remove extraResources');
    }
    // 7.8: every power with an A-Bomb is one of the scenario's powers.
    for (const pw of Object.keys(sc.aBomb?.powers ?? {})) {
      const path: Path = [...at, 'aBomb', 'powers', pw];
      if (knownPower(pw, path, 'power')) inRange(sc.aBomb!.powers[pw]!.fromTurn, [...path, 'fromTurn']);
    }
    for (const [pw, groups] of Object.entries(sc.research ?? {})) {
      const path: Path = [...at, 'research', pw];
      const runs = knownPower(pw, path, 'power') ? nationsOf.get(pw)! : undefined;
      groups.forEach((g, gi) =>
        g.forEach((f, i) => {
          const up: Path = [...path, gi, i];
          const u = units.get(f.unit);
          if (!u) add([...up, 'unit'], `unknown unit '${f.unit}': add it to units.json or fix the id`);
          else {
            if (!(String(f.size) in u.sizes)) add([...up, 'size'], `unit '${f.unit}' has no Size-${f.size} side (it has ${Object.keys(u.sizes).join(', ')})`);
            if (runs && !runs.has(u.nation)) add([...up, 'unit'], `unit '${f.unit}' belongs to ${u.nation}, which power '${pw}' does not run: list it in the Groups of the power that runs ${u.nation}`);
          }
          const prior = placed.get(f.unit);
          if (prior !== undefined) add([...up, 'unit'], `unit '${f.unit}' is already placed at ${prior}; each counter exists once, so a research unit may not also be set up, in the Force Pool, a Future Addition or in another Group`);
          else placed.set(f.unit, jsonPath(up));
        }),
      );
    }
    // 1.11/7.3/7.8: a power's Weapons Development Chart holds its Groups; it replaces the simplified lists.
    for (const [pw, chart] of Object.entries(sc.weaponCharts ?? {})) {
      const path: Path = [...at, 'weaponCharts', pw];
      const runs = knownPower(pw, path, 'power') ? nationsOf.get(pw)! : undefined;
      for (const key of ['futureAdditions', 'picksPerTurn', 'research'] as const) {
        if (sc[key]?.[pw] !== undefined) add([...at, key, pw], `power '${pw}' has a Weapons Development Chart (weaponCharts.${pw}), which holds its Groups, picks and research: drop its ${key} entry`);
      }
      chart.groups.forEach((g, gi) =>
        g.units.forEach((f, i) => {
          const up: Path = [...path, 'groups', gi, 'units', i];
          const u = units.get(f.unit);
          if (!u) add([...up, 'unit'], `unknown unit '${f.unit}': add it to units.json or fix the id`);
          else {
            if (!(String(f.size) in u.sizes)) add([...up, 'size'], `unit '${f.unit}' has no Size-${f.size} side (it has ${Object.keys(u.sizes).join(', ')})`);
            // 7.3: a minor country's unit may be on another power's chart; it goes to its ally's Force Pool.
            const minor = !p.map.countries.some((c) => c.id === u.home && c.homeOf !== undefined);
            if (runs && !runs.has(u.nation) && !minor) add([...up, 'unit'], `unit '${f.unit}' belongs to ${u.nation}, which power '${pw}' does not run: put it on the chart of the power that runs ${u.nation}`);
          }
          const prior = placed.get(f.unit);
          if (prior !== undefined) add([...up, 'unit'], `unit '${f.unit}' is already placed at ${prior}; each counter exists once, so a unit in a Group may not also be set up, in the Force Pool or in another Group`);
          else placed.set(f.unit, jsonPath(up));
        }),
      );
    }

    // --- F: neutral majors, trades by a major, alignments, protected minors, partisans, Japan, capitals, splits ---
    const nm = sc.neutralMajors;
    const neutral = new Set(Object.keys(nm?.powers ?? {}));
    const landInPlay = (l: string, path: Path, what: string): void => {
      if (!lands.has(l)) add(path, `unknown land area '${l}': ${what} is a land area id of map.json`);
      else if (!inPlay.has(l)) add(path, `'${l}' is not a land area in play in this scenario: it could never be held, so list an area in lands`);
    };

    // --- 3.1 wars at the start (the full game); without `wars` every power fights every non-neutral enemy ---
    const pairKey = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);
    const warPairs = new Set<string>();
    (sc.wars ?? []).forEach((w, i) => {
      const path: Path = [...at, 'wars', i];
      const known = w.map((x, j) => {
        if (powers.has(x)) return true;
        const c = p.map.countries.find((y) => y.id === x);
        if (!c) add([...path, j], `'${x}' is neither a power of this scenario (${powerList}) nor a country of map.json: name a belligerent`);
        else if (c.homeOf !== undefined) add([...path, j], `'${x}' is a home country of ${c.homeOf}: name the power that is at war (one of ${powerList}), not its home country`);
        else if (sc.minors.some((m) => m.country === x)) add([...path, j], `'${x}' is a neutral minor of this scenario (minors): a country at war from the start is not neutral; drop it from minors or from wars`);
        else return true;
        return false;
      });
      const [a, b] = w;
      if (a === b) add(path, `'${a}' is paired with itself: a war is between two belligerents`);
      else if (known[0] && known[1] && powers.has(a) && powers.has(b) && sideOfPower(a) === sideOfPower(b)) add(path, `'${a}' and '${b}' are both ${sideOfPower(a)}: a war at the start is between powers of opposite sides`);
      w.forEach((x, j) => {
        if (neutral.has(x)) add([...path, j], `'${x}' is a neutral major (neutralMajors.powers): it is at war with nobody at the start and enters the war by its It's War! marker or a declaration; remove the pair`);
      });
      const k = pairKey(a, b);
      if (warPairs.has(k)) add(path, `the war '${a}'-'${b}' is listed more than once: list each pair once`);
      warPairs.add(k);
    });
    const wars = sc.wars;
    /** Whether two powers are at war at the start: a pair of `wars`, or else opposite sides with neither neutral. */
    const atWarAtStart = (a: string, b: string): boolean => (wars ? warPairs.has(pairKey(a, b)) : sideOfPower(a) !== sideOfPower(b) && !neutral.has(a) && !neutral.has(b));
    const atWarWithAnyone = (a: string): boolean => (wars ? wars.some((w) => w.includes(a)) : !neutral.has(a));

    if (nm) {
      const path: Path = [...at, 'neutralMajors'];
      for (const [pw, m] of Object.entries(nm.powers)) {
        const pp: Path = [...path, 'powers', pw];
        if (!knownPower(pw, pp, 'neutral major power')) continue;
        if (m.start >= nm.warAt) add([...pp, 'start'], `'${pw}' starts in box ${m.start}, at or past warAt ${nm.warAt}: it would be at war at once; start it below warAt or drop it from neutralMajors`);
        m.against.forEach((x, i) => {
          if (knownPower(x, [...pp, 'against', i], 'enemy') && sideOfPower(x) === sideOfPower(pw)) add([...pp, 'against', i], `'${x}' is on the same side as '${pw}': a neutral major enters the war against powers of the other side`);
          if (neutral.has(x)) add([...pp, 'against', i], `'${x}' is itself a neutral major: name a power at war from the start`);
        });
      }
      inRange(nm.warTurn, [...path, 'warTurn']);
      (nm.declarers ?? []).forEach((d, i) => {
        const dp: Path = [...path, 'declarers', i];
        const okBy = knownPower(d.power, [...dp, 'power'], 'declaring power');
        if (okBy && neutral.has(d.power)) add([...dp, 'power'], `'${d.power}' is a neutral major: what it may declare while neutral is set by neutralMajors.mayDeclare, not declarers`);
        if (knownPower(d.on, [...dp, 'on'], 'target power')) {
          if (!wars) {
            if (!neutral.has(d.on)) add([...dp, 'on'], `'${d.on}' is not a neutral major of this scenario: declarers only govern declarations of war on the powers in neutralMajors.powers`);
          } else if (okBy && d.power !== d.on && !neutral.has(d.on) && atWarAtStart(d.power, d.on)) {
            add([...dp, 'on'], `'${d.power}' and '${d.on}' are at war from the start (wars): declarers govern declarations on a neutral major, or on a power not yet at war with the declarer`);
          }
          if (okBy && sideOfPower(d.on) === sideOfPower(d.power)) add([...dp, 'on'], `'${d.power}' and '${d.on}' are on the same side: a power declares war only on the other side`);
        }
        if (d.fromTurn !== undefined) inRange(d.fromTurn, [...dp, 'fromTurn']);
        (d.ifHeld ?? []).forEach((l, j) => landInPlay(l, [...dp, 'ifHeld', j], 'an area that lifts the restriction'));
      });
      for (const [pw, m] of Object.entries(nm.mayDeclare ?? {})) {
        const mp: Path = [...path, 'mayDeclare', pw];
        if (knownPower(pw, mp, 'neutral major power') && !neutral.has(pw)) add(mp, `'${pw}' is not a neutral major of this scenario (neutralMajors.powers): only a neutral power's declarations are limited while neutral; remove it`);
        m.except.forEach((x, i) => {
          if (x === pw) add([...mp, 'except', i], `'${pw}' cannot declare war on itself: list only the powers and countries it may not declare war on`);
          else if (!powers.has(x) && !countries.has(x)) add([...mp, 'except', i], `'${x}' is neither a power of this scenario (${powerList}) nor a country of map.json: name who '${pw}' may not declare war on`);
        });
      }
      nm.events.forEach((ev, i) => {
        const ep: Path = [...path, 'events', i];
        if (ev.kind !== 'declare-major') {
          if (ev.power !== undefined) add([...ep, 'power'], `only a 'declare-major' event names the declaring power; a '${ev.kind}' event does not: remove power`);
          if (ev.on !== undefined) add([...ep, 'on'], `only a 'declare-major' event names the powers declared on; a '${ev.kind}' event does not: remove on`);
        } else {
          if (ev.power !== undefined && knownPower(ev.power, [...ep, 'power'], 'declaring power') && sideOfPower(ev.power) !== ev.by) add([...ep, 'power'], `'${ev.power}' is not of the ${ev.by}: the declaring power belongs to the side in by`);
          if (ev.on !== undefined && ev.on.length === 0) add([...ep, 'on'], 'on names no power: omit it to count a declaration on any major power, or list the powers declared on');
          (ev.on ?? []).forEach((x, j) => {
            if (knownPower(x, [...ep, 'on', j], 'power declared on') && sideOfPower(x) === ev.by) add([...ep, 'on', j], `'${x}' is of the ${ev.by}, the declarer's own side: a power declares war only on the other side (3.2)`);
          });
        }
        const keys = Object.keys(ev.delta);
        if (!keys.length) add([...ep, 'delta'], 'an event that moves no marker: give the change per neutral major, e.g. {"USA": 1}');
        for (const k of keys) if (!neutral.has(k)) add([...ep, 'delta', k], `'${k}' has no It's War! marker: a delta names a neutral major of neutralMajors.powers (${[...neutral].join(', ') || 'none'})`);
        if (ev.kind !== 'capture') {
          if (ev.lands !== undefined) add([...ep, 'lands'], `only a 'capture' event names land areas; a '${ev.kind}' event does not: remove lands`);
          if (ev.once !== undefined) add([...ep, 'once'], `only a 'capture' event can be limited to the first time; remove once`);
        }
        (ev.lands ?? []).forEach((l, j) => landInPlay(l, [...ep, 'lands', j], 'a captured area'));
      });
    }
    (sc.trades ?? []).forEach((t, i) => {
      const path: Path = [...at, 'trades', i];
      if (t.giver !== undefined && knownPower(t.giver, [...path, 'giver'], 'giving power')) {
        if (t.giver === t.to) add([...path, 'giver'], `'${t.giver}' trades with itself: the giver and the receiver (to) must differ`);
        const home = p.map.countries.find((c) => c.id === t.from)?.homeOf;
        if (countries.has(t.from) && (home === undefined || !nationsOf.get(t.giver)!.has(home))) add([...path, 'from'], `'${t.from}' is not a home country of '${t.giver}': a major power trades from its own home country; name it in from`);
      }
      if (t.endsAtItsWar !== undefined) {
        if (t.giver === undefined) add([...path, 'endsAtItsWar'], 'only a trade by a major power (giver) can end at its It\'s War! box: add the giver or remove endsAtItsWar');
        else if (!neutral.has(t.giver)) add([...path, 'endsAtItsWar'], `'${t.giver}' has no It's War! marker (it is not in neutralMajors.powers): remove endsAtItsWar or make it a neutral major`);
        else if (nm && t.endsAtItsWar > nm.warAt) add([...path, 'endsAtItsWar'], `box ${t.endsAtItsWar} is past warAt ${nm.warAt}, where the giver is already at war: use a box up to ${nm.warAt}`);
      }
    });
    const minorArmy = new Map(sc.minors.map((m) => [m.country, m.army.length]));
    (sc.alignments ?? []).forEach((a, i) => {
      const path: Path = [...at, 'alignments', i];
      if (!minorArmy.has(a.country)) add([...path, 'country'], `'${a.country}' is not a neutral minor of this scenario: add it to minors with its army, or drop the alignment`);
      else if (minorArmy.get(a.country) === 0) add([...path, 'country'], `'${a.country}' has no army in minors: give it the army that sets up when it aligns (3.3)`);
      if (knownPower(a.power, [...path, 'power'], 'aligning power') && a.when === 'at-war' && a.with === undefined && atWarWithAnyone(a.power)) add([...path, 'when'], `'${a.power}' is at war from the start (${wars ? 'it is in a pair of wars' : 'it is not a neutral major'}), so an 'at-war' alignment would fire at once: use a neutral major's entry, a 'with', or another trigger`);
      if (a.with !== undefined) {
        // With `wars`, a pair not at war at the start may also trigger it (South-East Asia: Japan at war with the AFA).
        const pairWar = wars !== undefined && powers.has(a.with) && powers.has(a.power) && sideOfPower(a.with) !== sideOfPower(a.power) && !atWarAtStart(a.power, a.with);
        if (a.when !== 'at-war' || !(neutral.has(a.with) || pairWar)) add([...path, 'with'], `'with' names the neutral major power whose war with '${a.power}' triggers an 'at-war' alignment (or, when the scenario lists wars, a power of the other side not at war with it at the start); '${a.with}' is not a neutral major of this scenario${wars ? ' nor such a power' : ''} (or the trigger is not 'at-war')`);
      }
      if (a.when === 'holds') {
        if (!a.lands?.length) add([...path, 'lands'], "a 'holds' alignment needs lands (the areas whose control triggers it)");
        if (a.count === undefined) add([...path, 'count'], "a 'holds' alignment needs count (how many of the lands must be held)");
        else if (a.lands && a.count > a.lands.length) add([...path, 'count'], `count ${a.count} is more than the ${a.lands.length} lands listed: it could never be met`);
        (a.lands ?? []).forEach((l, j) => landInPlay(l, [...path, 'lands', j], 'a trigger area'));
      } else {
        if (a.lands !== undefined) add([...path, 'lands'], `only a 'holds' alignment names lands; a '${a.when}' one does not: remove lands`);
        if (a.count !== undefined) add([...path, 'count'], `only a 'holds' alignment has a count; a '${a.when}' one does not: remove count`);
      }
      if (a.when === 'none-touching') {
        if (a.sea === undefined) add([...path, 'sea'], "a 'none-touching' alignment needs sea (the sea whose shores the other side must not hold)");
        else if (!seas.has(a.sea)) add([...path, 'sea'], `unknown sea area '${a.sea}': use a sea area id of map.json`);
        else if (!p.map.lands.some((l) => inPlay.has(l.id) && l.coast.includes(a.sea!))) add([...path, 'sea'], `no land area in play touches '${a.sea}': the condition would always hold; name a sea with shores in play`);
      } else if (a.sea !== undefined) add([...path, 'sea'], `only a 'none-touching' alignment names a sea; a '${a.when}' one does not: remove sea`);
      if (a.when === 'near' && a.range === undefined) add([...path, 'range'], "a 'near' alignment needs range (how many air moves from the country)");
      if (a.when !== 'near' && a.range !== undefined) add([...path, 'range'], `only a 'near' alignment has a range; a '${a.when}' one does not: remove range`);
      if (a.supplied !== undefined && a.when !== 'holds') add([...path, 'supplied'], `only a 'holds' alignment can ask for supplied areas; a '${a.when}' one does not: remove supplied`);
    });
    const protectedSeen = new Set<string>();
    (sc.protectedMinors ?? []).forEach((m, i) => {
      const path: Path = [...at, 'protectedMinors', i];
      knownCountry(m.country, [...path, 'country'], 'country');
      if (protectedSeen.has(`${m.country}|${m.from}`)) add([...path, 'country'], `'${m.country}' is protected from the ${m.from} twice: list it once`);
      protectedSeen.add(`${m.country}|${m.from}`);
    });
    (sc.liberatedByConquest ?? []).forEach((m, i) => {
      const path: Path = [...at, 'liberatedByConquest', i];
      knownCountry(m.country, [...path, 'country'], 'country');
      if (p.map.countries.find((c) => c.id === m.country)?.homeOf) add([...path, 'country'], `'${m.country}' is a major power's home country, which is liberated by its own side (3.4): list minor countries only`);
    });
    const pt = sc.partisans;
    if (pt) {
      const path: Path = [...at, 'partisans'];
      knownPower(pt.roller, [...path, 'roller'], 'roller');
      const faces = ['1', '2', '3', '4', '5', '6'];
      for (const f of faces) if (!(f in pt.table)) add([...path, 'table'], `die face '${f}' is missing: the Partisan Table has an entry for every face 1-6`);
      for (const [f, list] of Object.entries(pt.table)) {
        if (!faces.includes(f)) add([...path, 'table', f], `'${f}' is not a die face: key the table by "1".."6"`);
        if (!list.length) add([...path, 'table', f], `face '${f}' names no country: list at least one`);
        list.forEach((c, j) => countryInPlay(c, [...path, 'table', f, j]));
      }
      (pt.bothSides ?? []).forEach((c, j) => countryInPlay(c, [...path, 'bothSides', j]));
    }
    // --- 9.2 Blitzing the Road to War ---
    const rtw = sc.roadToWar;
    if (rtw) {
      const path: Path = [...at, 'roadToWar'];
      rtw.order.forEach((pw, i) => knownPower(pw, [...path, 'order', i], 'picking power'));
      for (const pw of powers) if (!rtw.order.includes(pw)) add([...path, 'order'], `'${pw}' never picks: every major power picks an Option at every step (9.2); list each power once`);
      if (new Set(rtw.order).size !== rtw.order.length) add([...path, 'order'], 'a power is listed twice: each picks once a step');
      const rtwMinors = new Set([...sc.minors.map((m) => m.country), ...rtw.minors.map((m) => m.country)]);
      rtw.neutralAtStart.forEach((c, i) => {
        countryInPlay(c, [...path, 'neutralAtStart', i]);
        if (!rtw.minors.some((m) => m.country === c)) add([...path, 'neutralAtStart', i], `'${c}' starts neutral but has no entry in roadToWar.minors: give it the army it sets up when it joins a power`);
      });
      rtw.minors.forEach((m, i) => {
        countryInPlay(m.country, [...path, 'minors', i, 'country']);
        if (sc.minors.some((x) => x.country === m.country)) add([...path, 'minors', i, 'country'], `'${m.country}' is already a neutral minor of this scenario (minors): list it there only`);
        m.army.forEach((pl, j) => {
          if (!units.has(pl.unit)) add([...path, 'minors', i, 'army', j, 'unit'], `unknown unit '${pl.unit}'`);
          else if (!(String(pl.size) in units.get(pl.unit)!.sizes)) add([...path, 'minors', i, 'army', j, 'size'], `unit '${pl.unit}' has no Size-${pl.size} side`);
          landInPlay(pl.at, [...path, 'minors', i, 'army', j, 'at'], 'where the army sets up');
        });
      });
      knownCountry(rtw.annex.country, [...path, 'annex', 'country'], 'country');
      knownPower(rtw.annex.power, [...path, 'annex', 'power'], 'annexing power');
      if (!rtw.neutralAtStart.includes(rtw.annex.country)) add([...path, 'annex', 'country'], `'${rtw.annex.country}' must start the Road to War neutral (neutralAtStart) to be annexed during it`);
      rtw.annex.elsewhere.forEach((e, i) => {
        if (!sc.setup.some((pl) => pl.unit === e.unit)) add([...path, 'annex', 'elsewhere', i, 'unit'], `'${e.unit}' is not set up in this scenario: only a set-up unit can set up elsewhere`);
        landInPlay(e.at, [...path, 'annex', 'elsewhere', i, 'at'], 'where it sets up');
      });
      if (!rtw.annex.elsewhere.some((e) => e.unit === 'army-group-north' && e.at === 'western-germany')) add([...path, 'annex', 'elsewhere'], 'without the annexation Army Group North sets up in Western Germany (9.2): list it');
      const tradeSeen = new Set<string>();
      rtw.tradeTerms.forEach((tt, i) => {
        const tp: Path = [...path, 'tradeTerms', i];
        countryInPlay(tt.country, [...tp, 'country']);
        if (!rtwMinors.has(tt.country)) add([...tp, 'country'], `'${tt.country}' is not a neutral minor of this scenario: Trade Agreements are made with neutral minors`);
        if (tt.country === 'china') add([...tp, 'country'], 'no major power may make a Trade Agreement with a neutral China (9.2): remove it');
        if (tt.country === 'near-east' && (tt.oil !== 1 || tt.resources !== 0)) add([...tp], 'a Trade Agreement with the Near East provides one Oil (9.2): oil 1, resources 0');
        if (tt.oil + tt.resources === 0) add([...tp], `a trade with '${tt.country}' that gives nothing: drop it`);
        if (tradeSeen.has(tt.country)) add([...tp, 'country'], `'${tt.country}' is listed twice`);
        tradeSeen.add(tt.country);
      });
      rtw.influence.targets.forEach((c, i) => {
        if (!rtwMinors.has(c)) add([...path, 'influence', 'targets', i], `'${c}' is not a neutral minor of this scenario (minors or roadToWar.minors)`);
      });
      const optIds = new Set<string>();
      const checkOption = (o: (typeof rtw.standard)[number], op: Path, standard: boolean): void => {
        if (optIds.has(o.id)) add([...op, 'id'], `duplicate option id '${o.id}'`);
        optIds.add(o.id);
        if (standard && o.power !== undefined) add([...op, 'power'], 'a Standard Option is open to every power: remove power');
        if (!standard && (o.power === undefined || !knownPower(o.power, [...op, 'power'], 'option power'))) {
          if (o.power === undefined) add([...op, 'power'], 'an option listed at a step names the power it is listed for');
        }
        for (const k of Object.keys(o.itsWar ?? {})) if (!neutral.has(k)) add([...op, 'itsWar', k], `'${k}' has no It's War! marker`);
        for (const k of Object.keys(o.influence ?? {})) if (!rtw.influence.targets.includes(k)) add([...op, 'influence', k], `'${k}' is not in influence.targets`);
        if (o.ally !== undefined && !rtwMinors.has(o.ally)) add([...op, 'ally'], `'${o.ally}' is not a neutral minor of this scenario`);
        if (o.trade) {
          knownPower(o.trade.giver, [...op, 'trade', 'giver'], 'giving power');
          knownPower(o.trade.to, [...op, 'trade', 'to'], 'receiving power');
        }
        (o.units ?? []).forEach((pl, j) => {
          if (!units.has(pl.unit)) add([...op, 'units', j, 'unit'], `unknown unit '${pl.unit}'`);
          else if (sc.setup.some((x) => x.unit === pl.unit) || sc.forcePool.some((x) => x.unit === pl.unit)) add([...op, 'units', j, 'unit'], `'${pl.unit}' is already in this scenario: an option adds a counter not otherwise in play`);
          landInPlay(pl.at, [...op, 'units', j, 'at'], 'where the unit is placed');
        });
        if (o.id === 'corregidor' && !(o.units ?? []).every((pl) => pl.at === 'manila')) add([...op, 'units'], 'the Corregidor FORT must be placed in Manila (9.2)');
      };
      rtw.steps.forEach((st, i) => st.options.forEach((o, j) => checkOption(o, [...path, 'steps', i, 'options', j], false)));
      rtw.standard.forEach((o, j) => checkOption(o, [...path, 'standard', j], true));
      // 9.2 names these options, their powers and steps (and the choice, where it gives one).
      const stated: Record<(typeof RTW_STATED)[number], [string, number, number?]> = {
        'monroe-doctrine': ['USA', 3],
        'dont-invade-china': ['JAP', 5],
        'annex-austria-czechoslovakia': ['GER', 7],
        'secret-german-pact': ['USSR', 8, 3],
        'secret-soviet-pact': ['GER', 9],
        'anti-comintern-pact-expanded': ['GER', 13, 2],
        'liberate-foes': ['GER', 13, 3],
      };
      for (const [sid, [pw, step, choice]] of Object.entries(stated)) {
        const list = rtw.steps[step - 1]?.options.filter((o) => o.power === pw) ?? [];
        const k = list.findIndex((o) => o.id === sid);
        if (k < 0 || (choice !== undefined && k !== choice - 1)) add([...path, 'steps', step - 1, 'options'], `9.2 lists '${sid}' for ${pw} at step ${step}${choice ? `, choice ${choice}` : ''}: put it there`);
      }
    }
    const je = sc.japanEntry;
    if (je) {
      const path: Path = [...at, 'japanEntry'];
      knownPower(je.power, [...path, 'power'], 'announcing power');
      knownPower(je.bonus.power, [...path, 'bonus', 'power'], 'bonus power');
      if (je.early) {
        knownPower(je.early.power, [...path, 'early', 'power'], 'power');
        if (je.early.beforeTurn <= sc.firstTurn || je.early.beforeTurn > sc.lastTurn + 1) add([...path, 'early', 'beforeTurn'], `turn ${je.early.beforeTurn} leaves no turn of ${sc.firstTurn}-${sc.lastTurn} before it: use a turn after the first`);
      }
      for (const k of Object.keys(je.itsWar ?? {})) {
        if (knownPower(k, [...path, 'itsWar', k], 'power') && !neutral.has(k)) add([...path, 'itsWar', k], `'${k}' has no It's War! marker (it is not in neutralMajors.powers): name a neutral major`);
      }
    }
    for (const [c, l] of Object.entries(sc.capitals ?? {})) {
      const path: Path = [...at, 'capitals', c];
      if (!knownCountry(c, path, 'country')) continue;
      const land = p.map.lands.find((x) => x.id === l);
      if (!land) add(path, `unknown land area '${l}': a capital is a land area id of map.json`);
      else if (countries.has(land.country) && land.country !== c) add(path, `'${l}' is in '${land.country}', not in '${c}': name one of the country's own land areas`);
      else if (!inPlay.has(l)) add(path, `'${l}' is not a land area in play in this scenario: the country could never be conquered through it`);
    }
    for (const [n, groups] of Object.entries(sc.splits ?? {})) {
      const path: Path = [...at, 'splits', n];
      const players = Number(n);
      if (!Number.isInteger(players) || players < 1) add(path, `'${n}' is not a number of players: key splits by "2", "3", ...`);
      else if (groups.length !== players) add(path, `${groups.length} groups for ${players} players: give one group of powers per player`);
      const seen = new Set<string>();
      groups.forEach((g, gi) =>
        g.forEach((pw, j) => {
          knownPower(pw, [...path, gi, j], 'power');
          if (seen.has(pw)) add([...path, gi, j], `'${pw}' is run by more than one player: list each power once per split`);
          seen.add(pw);
        }),
      );
      for (const pw of powers) if (!seen.has(pw)) add(path, `power '${pw}' is run by no player in the ${n}-player split: add it to one group`);
    }

    // --- 8/D.11 victory ---
    const v = sc.victory;
    if (v) {
      const vp: Path = [...at, 'victory'];
      for (const [pw, partner] of Object.entries(v.winsWith ?? {})) {
        knownPower(pw, [...vp, 'winsWith', pw], 'power');
        if (knownPower(partner, [...vp, 'winsWith', pw], 'partner')) {
          if (partner === pw) add([...vp, 'winsWith', pw], `'${pw}' cannot win with itself: name the power it wins with, or remove the entry`);
          else if (powers.has(pw) && sc.powers.find((x) => x.id === pw)!.side !== sc.powers.find((x) => x.id === partner)!.side) add([...vp, 'winsWith', pw], `'${pw}' and '${partner}' are on different sides: a power wins only with a power of its own side`);
        }
      }
      const objIds = new Set<string>();
      v.objectives.forEach((o, i) => {
        const op: Path = [...vp, 'objectives', i];
        if (objIds.has(o.id)) add([...op, 'id'], `duplicate objective id '${o.id}': give each objective its own id`);
        objIds.add(o.id);
        knownPower(o.power, [...op, 'power'], 'power');
        if (v.winsWith && o.power in v.winsWith) add([...op, 'power'], `'${o.power}' wins only with '${v.winsWith[o.power]}' (winsWith) and scores no points: remove this objective or the winsWith entry`);
        const need = (field: keyof typeof o, why: string): void => {
          const x = o[field];
          if (x === undefined || (Array.isArray(x) && x.length === 0) || (typeof x === 'object' && !Array.isArray(x) && Object.keys(x).length === 0)) add([...op, field], `a '${o.kind}' objective needs ${field} (${why})`);
        };
        const needVp = o.kind !== 'industrial-might' && o.kind !== 'long-war' && o.kind !== 'atomic-club';
        if (needVp) need('vp', 'the points it scores each time it is met');
        else if (o.vp !== undefined) add([...op, 'vp'], `a '${o.kind}' objective scores ${o.kind === 'long-war' ? 'by turn (byTurn)' : o.kind === 'atomic-club' ? 'by the order of joining (ladder)' : "a captured Factory's Factor"}, not a fixed vp: remove vp`);
        if (o.kind === 'atomic-club') {
          need('ladder', 'the points for the first, second, ... power to join, e.g. [3, 3, 2]');
          if (!sc.aBomb?.powers[o.power]) add([...op, 'power'], `'${o.power}' has no A-Bomb in this scenario (aBomb.powers), so it could never join: add it there or remove this objective`);
        } else if (o.ladder !== undefined) add([...op, 'ladder'], `only an 'atomic-club' objective scores by a ladder: remove ladder`);
        if (o.kind === 'long-war') {
          need('byTurn', 'the points per turn, e.g. {"11": 1, "12": 2}');
          for (const t of Object.keys(o.byTurn ?? {})) {
            const n = Number(t);
            if (!Number.isInteger(n)) add([...op, 'byTurn', t], `'${t}' is not a turn number: key byTurn by turn, e.g. "11"`);
            else inRange(n, [...op, 'byTurn', t]);
          }
        } else if (o.byTurn !== undefined) add([...op, 'byTurn'], `only a 'long-war' objective scores by turn: remove byTurn`);
        if (o.kind === 'control-count') {
          need('areas', 'the land areas counted');
          need('atLeast', 'how many of the areas must be held');
          if (o.atLeast !== undefined && o.areas && o.atLeast > o.areas.length) add([...op, 'atLeast'], `atLeast ${o.atLeast} is more than the ${o.areas.length} areas listed: it could never be met`);
        }
        if (o.kind === 'factories-intact') need('areas', 'the Factory areas that must be held undamaged');
        if (o.kind === 'buffer-zone') need('atLeast', 'how many bordering areas must be held');
        if (o.kind === 'deny') need('countries', 'the countries no enemy may hold');
        if (o.kind === 'destroy-type') need('type', 'the unit type whose loss scores');
        if (o.kind === 'build-unit') need('units', 'the unit counters whose building scores');
        else if (o.units !== undefined) add([...op, 'units'], `only a 'build-unit' objective names units; a '${o.kind}' objective does not: remove units`);
        (o.units ?? []).forEach((x, j) => {
          const u = p.units.units.find((d) => d.id === x);
          if (!u) add([...op, 'units', j], `unknown unit '${x}': use a unit id of units.json`);
          else if (powers.has(o.power) && !sc.powers.find((w) => w.id === o.power)!.nations.includes(u.nation)) add([...op, 'units', j], `'${x}' is a ${u.nation} counter, which '${o.power}' does not build: list the power's own counters`);
        });
        (o.areas ?? []).forEach((l, j) => {
          if (!lands.has(l)) add([...op, 'areas', j], `unknown land area '${l}': use a land area id of map.json`);
          else if (!inPlay.has(l)) add([...op, 'areas', j], `'${l}' is not a land area in play in this scenario: it could never count`);
          else if (o.kind === 'factories-intact' && !(p.map.lands.find((x) => x.id === l)!.factory > 0)) add([...op, 'areas', j], `'${l}' has no Factory: list only Factory areas`);
        });
        (o.countries ?? []).forEach((c, j) => countryInPlay(c, [...op, 'countries', j]));
        (o.except ?? []).forEach((l, j) => {
          if (!lands.has(l)) add([...op, 'except', j], `unknown land area '${l}': use a land area id of map.json`);
        });
        // E: the Pacific kinds look at units at sea in named seas.
        const seaKinds = ['presence', 'seas-clear', 'lend-lease'];
        if (seaKinds.includes(o.kind)) need('seas', o.kind === 'presence' ? 'the seas where enemy air and naval units are counted' : 'the seas that must hold no enemy unit');
        else if (o.seas !== undefined) add([...op, 'seas'], `only a 'presence', 'seas-clear' or 'lend-lease' objective looks at seas; a '${o.kind}' objective does not: remove seas`);
        if (o.kind === 'presence') need('atLeast', 'the total Size of enemy air and naval units at sea that scores');
        if (o.kind === 'lend-lease') need('nation', 'the counter nation whose Lend Lease delivery scores');
        const seaSeen = new Set<string>();
        (o.seas ?? []).forEach((x, j) => {
          if (!seas.has(x)) add([...op, 'seas', j], `unknown sea area '${x}': use a sea area id of map.json`);
          else if (!seasInPlay.has(x)) add([...op, 'seas', j], `'${x}' is not a sea area in play in this scenario: no unit can be there, so list a sea in seas`);
          if (seaSeen.has(x)) add([...op, 'seas', j], `'${x}' is listed twice: list each sea once`);
          seaSeen.add(x);
        });
        if (o.nation !== undefined && !nations.has(o.nation)) {
          const hint = o.kind === 'lend-lease' ? 'use the nation of the counters that receive the Lend Lease' : "use a nation of the enemy's counters";
          add([...op, 'nation'], `no power in this scenario runs ${o.nation}: ${hint}`);
        }
      });
    }
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
