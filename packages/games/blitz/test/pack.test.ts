/**
 * The bundled approximation pack and the pack checker: the pack is sound, honours the facts the
 * rulebook states, marks everything else as an estimate, and broken packs are refused with the exact
 * JSON path of each problem.
 */
import { describe, expect, it } from 'vitest';
import { checkBlitzPack } from '../src/pack/check.ts';
import { approximationPack } from '../src/pack/bundled.ts';
import { fresh, load, type Raw } from './support/pack-fixtures.ts';
import { blitz } from '../src/game.ts';


function pathsOf(raw: unknown): string[] {
  const r = checkBlitzPack(raw);
  return r.ok ? [] : r.issues.map((i) => i.path);
}

const landIndex = (raw: Raw, id: string): number => (raw.map.lands as { id: string }[]).findIndex((l) => l.id === id);

describe('bundled approximation pack', () => {
  it('passes validation', () => {
    const r = checkBlitzPack(approximationPack);
    expect(r.ok ? [] : r.issues).toEqual([]);
  });

  it('refuses a field the schema does not name, at every depth, rather than dropping it', () => {
    const raw = fresh();
    raw.pack.signedBy = 'x';
    raw.units.units[0].atack = 3;
    raw.units.units[0].sizes['1'].triangles = { land: { white: 1, red: 0, blue: 2 } };
    raw.units.units[0].sizes['5'] = { move: 1 };
    raw['combat-chart'].columns[0].note = 'x';
    raw.scenarios.scenarios[0].setup[0].facing = 'north';
    expect(pathsOf(raw).sort()).toEqual(['$.combat-chart.columns[0]', '$.pack', '$.scenarios.scenarios[0].setup[0]', '$.units.units[0]', '$.units.units[0].sizes', '$.units.units[0].sizes.1.triangles.land'].map((p) => p.replace('.combat-chart', '["combat-chart"]').replace('sizes.1', 'sizes["1"]')).sort());
  });

  it('keeps the estimates of a scenario minor, which its schema declares', () => {
    const minor = load().scenarios.scenarios.find((s) => s.id === 'F')!.minors.find((m) => m.country === 'belgium-netherlands')!;
    expect(minor.estimates?.army).toMatch(/Weapons Development Chart is not in the text/);
  });

  it('declares itself an approximation of Blitz!', () => {
    const { pack } = load();
    expect(pack).toMatchObject({ format: 'salient-pack/1', game: 'blitz', id: 'approximation', version: '2.10.0', fidelity: 'approximation' });
  });

  it('backs every country, land, sea, unit, column, placement and force-pool entry with refs or estimates', () => {
    const p = load();
    const scenarios = p.scenarios.scenarios;
    const objects: (readonly [string, { refs?: string[] | undefined; estimates?: Record<string, string> | undefined }])[] = [
      ...p.map.countries.map((c) => [`country ${c.id}`, c] as const),
      ...p.map.lands.map((l) => [`land ${l.id}`, l] as const),
      ...p.map.seas.map((s) => [`sea ${s.id}`, s] as const),
      ...p.units.units.map((u) => [`unit ${u.id}`, u] as const),
      ...p['combat-chart'].columns.map((c) => [`column ${c.min}`, c] as const),
      ...scenarios.flatMap((s) => [
        ...s.setup.map((pl) => [`${s.id} setup ${pl.unit}`, pl] as const),
        ...s.minors.flatMap((m) => m.army.map((pl) => [`${s.id} minor ${pl.unit}`, pl] as const)),
        ...s.reinforcements.flatMap((r) => [[`${s.id} reinforcements turn ${r.turn}`, r] as const, ...r.units.map((pl) => [`${s.id} reinforcement ${pl.unit}`, pl] as const)]),
        ...s.forcePool.map((f) => [`${s.id} force pool ${f.unit}`, f] as const),
      ]),
    ];
    const bare = objects.filter(([, o]) => !o.refs?.length && !Object.keys(o.estimates ?? {}).length).map(([n]) => n);
    expect(bare).toEqual([]);
  });

  it('marks every land field that no rule states as an estimate', () => {
    // Scenario A/B areas: the fields a rule states are listed here; all other fields must carry an
    // estimate. Elsewhere on the world map, a land with `refs` has its unmarked fields stated by those
    // sections, and an area that is itself an estimate (an `id` estimate) is estimated whole.
    const stated: Record<string, string[]> = {
      'belgium-netherlands': ['name', 'country'],
      paris: ['name', 'country', 'coast'],
      'vichy-france': ['name', 'country'],
      'western-germany': ['name', 'country'],
      berlin: ['name', 'country', 'factory'],
      poland: ['name', 'country', 'terrain', 'resources'],
      london: ['name', 'country', 'resources', 'coast'],
      scotland: ['name', 'country'],
    };
    const missing: string[] = [];
    for (const l of load().map.lands) {
      const estimated = Object.keys(l.estimates ?? {}).map((k) => k.split('.')[0]!);
      if (!(l.id in stated) && (l.refs?.length || estimated.includes('id'))) {
        // Outside A/B: refs back the unmarked fields; an invented area still marks where it is and what it holds.
        if (!l.refs?.length) for (const f of ['position', 'terrain', 'oil', 'resources', 'factory']) if (!estimated.includes(f)) missing.push(`${l.id}.${f}`);
        continue;
      }
      const covered = new Set([...(stated[l.id] ?? []), ...estimated, 'id']);
      for (const f of Object.keys(l)) if (f !== 'refs' && f !== 'estimates' && !covered.has(f)) missing.push(`${l.id}.${f}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('stated facts (digest of the rulebook, 5.2 and 6.2)', () => {
  const p = load();
  const land = (id: string) => p.map.lands.find((l) => l.id === id)!;
  const unit = (id: string) => p.units.units.find((u) => u.id === id)!;
  const adjacent = (a: string, b: string) => p.map.borders.some(([x, y]) => (x === a && y === b) || (x === b && y === a));

  it('map adjacency, routes, coasts and ports', () => {
    for (const [a, b] of [
      ['paris', 'vichy-france'],
      ['paris', 'belgium-netherlands'],
      ['paris', 'western-germany'],
      ['western-germany', 'berlin'],
      ['western-germany', 'belgium-netherlands'],
      ['berlin', 'poland'],
    ] as const) expect(adjacent(a, b), `${a}-${b}`).toBe(true);
    expect(p.map.airRoutes).toContainEqual(['london', 'paris']);
    expect(land('paris').coast).toEqual(expect.arrayContaining(['north-sea', 'western-approaches']));
    expect(land('paris').ports.flatMap((x) => x.seas)).toContain('western-approaches');
    expect(land('london').coast).toEqual(expect.arrayContaining(['north-sea', 'western-approaches']));
    expect(land('london').ports.flatMap((x) => x.seas)).toContain('western-approaches');
    expect(land('scotland').ports.flatMap((x) => x.seas)).toContain('north-sea');
  });

  it('terrain and production', () => {
    expect(land('poland').terrain).toContain('forest');
    expect(land('poland').resources).toBe(1);
    expect(land('london').resources).toBe(1);
    expect(land('berlin').factory).toBe(2);
    expect(land('berlin').oil).toBeGreaterThan(0);
  });

  it('B.7: Germany starts B with 6 Oil+Resources in play, the Western Allies with 1 (London)', () => {
    const b = p.scenarios.scenarios.find((s) => s.id === 'B')!;
    const income = (power: string) =>
      b.lands.filter((l) => b.control[l] === power).reduce((n, l) => n + land(l).oil + land(l).resources, 0);
    expect(income('GER')).toBe(6);
    expect(income('WA')).toBe(1);
    expect(b.offMapIncome).toEqual({ WA: 6 });
  });

  it('unit stats from the examples and errata', () => {
    expect(unit('luftwaffe')).toMatchObject({ type: 'AIR', sizes: { '2': { air: 3, land: 3 } } });
    expect(unit('stukas').sizes['2']).toMatchObject({ air: 3, triangles: { air: { white: 1, red: 0 } } });
    expect(unit('army-group-center')).toMatchObject({ type: 'ARM', sizes: { '2': { land: 5 } } });
    expect(unit('army-group-north')).toMatchObject({ type: 'ARM', sizes: { '1': { land: 2 } } });
    expect(unit('army-group-b').sizes['2']).toMatchObject({ move: 3, land: 4 });
    expect(unit('1st-para')).toMatchObject({ type: 'PARA', sizes: { '1': { land: 1, triangles: { land: { white: 1, red: 0 } } } } });
    expect(unit('royal-air-force').sizes['2']).toMatchObject({ airMove: 1, air: 2 });
    expect(unit('polish-army').sizes).toMatchObject({ '2': { land: 3 }, '1': { land: 2 } });
    expect(unit('maginot-line')).toMatchObject({ type: 'FORT', sizes: { '2': { triangles: { land: { red: 5 } } } } });
    expect(unit('bomber-command').sizes['2']).toMatchObject({ air: 1, triangles: { air: { white: 3, red: 0 } } });
    expect(unit('north-sea-fleet').sizes['2']).toMatchObject({ naval: 5, triangles: { naval: { white: 1, red: 0 } } });
    expect(unit('europe-trs')).toMatchObject({ type: 'TRS', sizes: { '2': {} } });
    expect(unit('royal-marines')).toMatchObject({ type: 'MAR', sizes: { '1': {} } });
    expect(unit('1st-tactical-air-force')).toMatchObject({ primary: 'land', sizes: { '2': { land: 4 } } });
    expect(unit('me-109s').sizes['2']).toMatchObject({ air: 2, triangles: { air: { white: 0, red: 1 } } });
    expect(unit('waffen-ss-army')).toMatchObject({ type: 'ARM', sizes: { '2': { land: 5, triangles: { land: { white: 0, red: 3 } } } } });
    expect(unit('9th-army')).toMatchObject({ nation: 'USA', sizes: { '2': {} } });
  });

  it('scenarios: turns, powers, Blitz options, areas in play', () => {
    const [a, b] = p.scenarios.scenarios;
    expect(a).toMatchObject({ id: 'A', firstTurn: 1, lastTurn: 2, blitz: { GER: 'land', AFA: 'free' }, seas: [], forcePool: [], offMapIncome: {} });
    expect(a!.control).toMatchObject({ poland: 'AFA', 'belgium-netherlands': 'neutral', paris: 'AFA', london: 'AFA', berlin: 'GER' });
    expect(b).toMatchObject({ id: 'B', firstTurn: 9, lastTurn: 11, blitz: { GER: 'land', WA: 'total' }, seas: ['north-sea', 'western-approaches'] });
    expect(b!.powers.find((x) => x.id === 'WA')!.nations).toEqual(['AFA', 'USA']);
    expect(b!.lands).not.toContain('poland');
    expect(b!.forcePool.some((f) => f.from === 10)).toBe(true);
  });

  it('A: the example units start where A.6 needs them, and London holds two AFA land units (A.5)', () => {
    const a = p.scenarios.scenarios[0]!;
    const at = (u: string) => a.setup.find((x) => x.unit === u)?.at;
    expect(at('18th-army')).toBe('western-germany');
    for (const u of ['army-group-center', 'army-group-north', '1st-para', 'luftwaffe']) expect(at(u)).toBe('berlin');
    expect(at('polish-army')).toBe('poland');
    expect(at('royal-air-force')).toBe('london');
    expect(a.setup.filter((x) => x.at === 'london' && unit(x.unit).type !== 'AIR').length).toBeGreaterThanOrEqual(2);
  });
});

describe('broken packs are refused with exact JSON paths', () => {
  it('a wrong terrain', () => {
    const raw = fresh();
    const i = landIndex(raw, 'poland');
    raw.map.lands[i].terrain = ['hills'];
    expect(pathsOf(raw)).toEqual([`$.map.lands[${i}].terrain[0]`]);
  });

  it('an unknown country id', () => {
    const raw = fresh();
    raw.map.lands[2].country = 'narnia';
    expect(pathsOf(raw)).toEqual(['$.map.lands[2].country']);
  });

  it('a placement at an unknown area', () => {
    const raw = fresh();
    raw.scenarios.scenarios[0].setup[3].at = 'atlantis';
    expect(pathsOf(raw)).toEqual(['$.scenarios.scenarios[0].setup[3].at']);
  });

  it('a placement at a sea not in play', () => {
    const raw = fresh();
    raw.scenarios.scenarios[0].setup[3].at = 'sea:north-sea';
    expect(pathsOf(raw)).toEqual(['$.scenarios.scenarios[0].setup[3].at']);
  });

  it('a gap in the Combat Chart', () => {
    const raw = fresh();
    raw['combat-chart'].columns.splice(4, 1);
    expect(pathsOf(raw)).toEqual(['$["combat-chart"].columns[4].min']);
  });

  it('overlapping columns and a chart without an open-ended column', () => {
    const raw = fresh();
    raw['combat-chart'].columns[6].min = 6;
    raw['combat-chart'].columns.at(-1).max = 40;
    expect(pathsOf(raw)).toEqual(['$["combat-chart"].columns[6].min', '$["combat-chart"].columns']);
  });

  it('a size the unit does not have, an unknown unit, a unit placed twice', () => {
    const raw = fresh();
    const setup = raw.scenarios.scenarios[1].setup;
    setup[0].size = 4;
    setup[1].unit = 'king-tiger';
    setup[2].unit = setup[3].unit;
    expect(pathsOf(raw)).toEqual([
      '$.scenarios.scenarios[1].setup[0].size',
      '$.scenarios.scenarios[1].setup[1].unit',
      '$.scenarios.scenarios[1].setup[3].unit',
    ]);
  });

  it('a land with no control entry and a controller that is not a power', () => {
    const raw = fresh();
    delete raw.scenarios.scenarios[0].control.scotland;
    raw.scenarios.scenarios[0].control.london = 'USSR';
    expect(pathsOf(raw).sort()).toEqual(['$.scenarios.scenarios[0].control', '$.scenarios.scenarios[0].control.london']);
  });

  it('map references: self-pairs, unknown areas, ports on seas the land does not touch, unknown home', () => {
    const raw = fresh();
    raw.map.borders.push(['paris', 'paris']);
    raw.map.airRoutes.push(['london', 'atlantis']);
    const b = landIndex(raw, 'berlin');
    raw.map.lands[b].ports = [{ size: 'small', seas: ['north-sea'] }];
    raw.units.units[0].home = 'prussia';
    const n = raw.map.borders.length - 1;
    expect(pathsOf(raw)).toEqual([
      `$.map.lands[${b}].ports[0].seas[0]`,
      `$.map.borders[${n}]`,
      `$.map.airRoutes[${raw.map.airRoutes.length - 1}][1]`,
      '$.units.units[0].home',
    ]);
  });

  it("an area's printed outline: a closed GeoJSON polygon is taken and drawn as given; a ring of three points is refused at its path", () => {
    const raw = fresh();
    const london = raw.map.lands.findIndex((l: { id: string }) => l.id === 'london');
    const square = { type: 'Polygon', coordinates: [[[-3, 51], [1, 51], [1, 54], [-3, 54], [-3, 51]]] };
    raw.map.lands[london].shape = square;
    const r = checkBlitzPack(raw);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const pack = { info: { id: 'test', version: '0', fidelity: 'approximation', hash: 'x' }, data: r.data } as never;
    expect(blitz.board!.layout(pack).areas.find((a) => a.id === 'london')?.shape).toEqual(square);
    expect(blitz.board!.layout(pack).areas.filter((a) => a.shape)).toHaveLength(1);
    raw.map.lands[london].shape = { type: 'Polygon', coordinates: [[[-3, 51], [1, 51], [-3, 51]]] };
    expect(pathsOf(raw)).toEqual([`$.map.lands[${london}].shape.coordinates[0]`]);
  });

  it('duplicate ids', () => {
    const raw = fresh();
    raw.units.units.push(structuredClone(raw.units.units[0]));
    expect(pathsOf(raw)).toEqual([`$.units.units[${raw.units.units.length - 1}].id`]);
  });

  it('an estimate that names no field', () => {
    const raw = fresh();
    raw.map.lands[0].estimates.elevation = 'the Low Countries are flat, so no elevation';
    raw.units.units[0].estimates['sizes.3.air'] = 'there is no Size-3 side to estimate';
    expect(pathsOf(raw)).toEqual(['$.map.lands[0].estimates.elevation', '$.units.units[0].estimates["sizes.3.air"]']);
  });

  it("an 'official' pack may not carry estimates; an 'approximation' must carry some", () => {
    const official = fresh();
    official.pack.fidelity = 'official';
    const paths = pathsOf(official);
    expect(paths).toContain('$.map.lands[0].estimates');
    expect(paths).toContain('$["combat-chart"].columns[0].estimates');
    expect(paths.every((x) => x.endsWith('.estimates'))).toBe(true);

    const stripped = fresh();
    const strip = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(strip);
      else if (v && typeof v === 'object') {
        delete (v as Raw).estimates;
        Object.values(v).forEach(strip);
      }
    };
    strip(stripped);
    expect(pathsOf(stripped)).toEqual(['$.pack.fidelity']);
  });

  it('reports every problem at once, not just the first', () => {
    const raw = fresh();
    raw.map.lands[2].country = 'narnia';
    raw.scenarios.scenarios[0].setup[3].at = 'atlantis';
    raw['combat-chart'].columns.splice(4, 1);
    expect(pathsOf(raw)).toEqual([
      '$.map.lands[2].country',
      '$["combat-chart"].columns[4].min',
      '$.scenarios.scenarios[0].setup[3].at',
    ]);
  });

  it('shape errors are reported all together too', () => {
    const raw = fresh();
    raw.pack.format = 'salient-pack/2';
    raw.units.units[1].type = 'TANK';
    raw['combat-chart'].columns[0].results = ['-', '-', '-', '-', 'S'];
    expect(pathsOf(raw).sort()).toEqual(['$.pack.format', '$.units.units[1].type', '$["combat-chart"].columns[0].results'].sort());
  });
});
