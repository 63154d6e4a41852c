/**
 * The whole-world area map of the bundled approximation pack (packs/approximation/map.json), an approximation built from the rulebook's stated map
 * facts plus estimates from real geography. It is data only (not loaded by the game yet); these tests keep
 * it sound: it parses, its graph is consistent and connected, it carries every stated fact we hard-code
 * here, it marks what it estimates, and it is a superset of the Scenario A/B map.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mapSchema, type LandDef, type MapDef } from '../src/pack/schema.ts';

const dataUrl = new URL('../packs/approximation/map.json', import.meta.url);

const raw: unknown = JSON.parse(readFileSync(dataUrl, 'utf8'));
const parsed = mapSchema.safeParse(raw);
// Later tests need the typed map; if it does not parse they fail on the first assertion below.
const map: MapDef = parsed.success ? parsed.data : (raw as MapDef);

const lands = new Map(map.lands.map((l) => [l.id, l]));
const seas = new Map(map.seas.map((s) => [s.id, s]));
const countries = new Map(map.countries.map((c) => [c.id, c]));

function land(id: string): LandDef {
  const l = lands.get(id);
  if (!l) throw new Error(`no land area ${id}`);
  return l;
}
const key = (a: string, b: string): string => [a, b].sort().join('|');
const hasPair = (pairs: [string, string][], a: string, b: string): boolean => pairs.some(([x, y]) => key(x, y) === key(a, b));

/** The 26 sea areas named in the text (research digest 5.3). */
const NAMED_SEAS = [
  'north-sea', 'western-approaches', 'north-atlantic', 'arctic-ocean', 'baltic-sea', 'black-sea', 'mediterranean', 'usa-east-coast',
  'gulf-of-alaska', 'bering-sea', 'arabian-sea', 'azanian-sea', 'mozambique-channel', 'cape-basin', 'south-atlantic', 'gulf-of-guinea',
  'brazilian-coast', 'bay-of-bengal', 'south-china-sea', 'east-china-sea', 'japanese-coast', 'micronesia', 'bismarck-sea', 'leyte-gulf',
  'tasman-sea', 'cape-naturaliste',
];

/** Every land area the text names (research digest 5.2). */
const NAMED_LANDS = [
  'london', 'scotland', 'paris', 'vichy-france', 'belgium-netherlands', 'western-germany', 'berlin', 'poland', 'austria-czechoslovakia',
  'rome', 'milan', 'spain', 'portugal', 'gibraltar', 'malta', 'iceland', 'norway', 'sweden', 'finland', 'balkans', 'central-europe',
  'istanbul', 'ankara', 'levant', 'leningrad', 'stalingrad', 'samarkand', 'caucasus-mountains', 'don-basin', 'ukraine', 'persia', 'iraq',
  'egypt', 'algeria', 'morocco', 'french-west-africa', 'madagascar', 'peking', 'chungking', 'canton', 'harbin', 'port-arthur',
  'south-east-asia', 'burma', 'singapore', 'hyderabad', 'formosa', 'manila', 'tokyo', 'borneo', 'java', 'hollandia', 'caroline-islands',
  'marshall-islands', 'midway-islands', 'canberra', 'perth', 'darwin', 'west-coast', 'central-plains', 'atlantic-seaboard',
  'western-canada', 'mexico', 'panama', 'venezuela', 'sao-paulo',
];

/** Countries the text names only as countries (digest 5.2): each needs at least one area of its own. */
const NAMED_COUNTRIES_WITHOUT_NAMED_AREA = ['aden-kuwait', 'italian-east-africa'];

/** The 44 unit codes of 1.2 (digest 5.1). */
const CODES = [
  'Aust', 'Arg', 'Balk', 'Be Ne', 'Bra', 'C Eur', 'C A', 'Can', 'Ch', 'Chi', 'Cz Au', 'Egypt', 'Fin', 'Fr', 'Fr Eq Afr', 'Fr N Afr', 'Ger',
  'Gr Br', 'Iber', 'Ind', 'Ire', 'It E Af', 'It', 'Ja', 'L A', 'Lib', 'Man-Kor', 'Mex', 'N Z', 'Nor', 'Nr E', 'Pan', 'Pa Ur', 'Phil', 'Pol',
  'S Afr', 'S E Asia', 'Swe', 'Turk', 'Ukr', 'USA', 'USSR', 'Ven', 'Vi Fr',
];

/** Home countries (1.1). */
const HOMES: Record<string, string> = {
  germany: 'GER', italy: 'GER', japan: 'JAP', australia: 'AFA', canada: 'AFA', france: 'AFA', 'great-britain': 'AFA', india: 'AFA',
  'south-africa': 'AFA', ussr: 'USSR', usa: 'USA',
};

const portSeas = (l: LandDef): string[][] => l.ports.map((p) => [...p.seas].sort());

/** Stated facts (rulebook sections and living-rules corrections), one row each. */
const FACTS: [string, () => void][] = [
  ['West Coast: Factory 2, 1 Oil, 3 Resources (E, correction)', () => expect(land('west-coast')).toMatchObject({ factory: 2, oil: 1, resources: 3 })],
  ['Central Plains: 3 Oil, 2 Resources (F)', () => expect(land('central-plains')).toMatchObject({ oil: 3, resources: 2 })],
  ['Atlantic Seaboard: 3 Resources, no Oil (F, 7.6)', () => expect(land('atlantic-seaboard')).toMatchObject({ oil: 0, resources: 3 })],
  ['the USA totals 4 Oil and 8 Resources (7.6)', () => {
    const usa = map.lands.filter((l) => l.country === 'usa');
    expect([usa.reduce((n, l) => n + l.oil, 0), usa.reduce((n, l) => n + l.resources, 0)]).toEqual([4, 8]);
  }],
  ['Malta starts AFA-controlled (correction)', () => expect(land('malta').control).toBe('AFA')],
  ['Manila: Island touching both China seas, its port on the South China Sea only (correction)', () => {
    const m = land('manila');
    expect(m.island).toBe(true);
    expect(m.coast).toEqual(expect.arrayContaining(['south-china-sea', 'east-china-sea']));
    expect(portSeas(m)).toEqual([['south-china-sea']]);
    expect(m.resources).toBe(1);
  }],
  ['Norway touches the Arctic Ocean (correction)', () => expect(land('norway').coast).toContain('arctic-ocean')],
  ['Austria-Czechoslovakia is Mountain (correction)', () => expect(land('austria-czechoslovakia').terrain).toContain('mountain')],
  ['South-East Asia is Mountain and borders Canton and Burma (correction, 5.2)', () => {
    expect(land('south-east-asia').terrain).toContain('mountain');
    expect(hasPair(map.borders, 'south-east-asia', 'canton')).toBe(true);
    expect(hasPair(map.borders, 'south-east-asia', 'burma')).toBe(true);
  }],
  ['Leningrad: Swamp, two ports on different seas, one on the Baltic (1.3, 6.2)', () => {
    const l = land('leningrad');
    expect(l.terrain).toContain('swamp');
    expect(l.ports).toHaveLength(2);
    expect(new Set(l.ports.flatMap((p) => p.seas)).size).toBe(2);
    expect(l.ports.flatMap((p) => p.seas)).toContain('baltic-sea');
  }],
  ['Poland: Forest with 1 Resource (A.6, 4.1 correction)', () => expect(land('poland')).toMatchObject({ terrain: ['forest'], resources: 1 })],
  ['Persia is Mountain and the Near East has no Snow (1.4)', () => {
    expect(land('persia').terrain).toContain('mountain');
    expect(countries.get(land('persia').country)?.snow).not.toBe(true);
  }],
  ['Istanbul: one Big Port on the Black Sea and the Mediterranean (1.3)', () => {
    expect(land('istanbul').ports).toEqual([{ size: 'big', seas: expect.arrayContaining(['black-sea', 'mediterranean']) }]);
  }],
  ['Iceland has Snow, the North Sea does not (correction)', () => {
    expect(countries.get(land('iceland').country)?.snow).toBe(true);
    expect(seas.get('north-sea')?.snow).not.toBe(true);
  }],
  ['Spain: Mountain with two Big Ports on different seas, Land Route to Paris (1.3, 5.2)', () => {
    const s = land('spain');
    expect(s.terrain).toContain('mountain');
    const big = s.ports.filter((p) => p.size === 'big');
    expect(big).toHaveLength(2);
    expect(big[0]!.seas.some((x) => !big[1]!.seas.includes(x))).toBe(true);
    expect(hasPair(map.landRoutes, 'spain', 'paris')).toBe(true);
  }],
  ['Don Basin: Forest touching the Black Sea, bordering Stalingrad, Caucasus Mountains and Ukraine (6.2, 6.6)', () => {
    const d = land('don-basin');
    expect(d.terrain).toContain('forest');
    expect(d.coast).toContain('black-sea');
    for (const n of ['stalingrad', 'caucasus-mountains', 'ukraine']) expect(hasPair(map.borders, 'don-basin', n)).toBe(true);
  }],
  ['Hyderabad has 1 Resource (E)', () => expect(land('hyderabad').resources).toBe(1)],
  ['Borneo has 1 Oil (E)', () => expect(land('borneo').oil).toBe(1)],
  ['Canberra: Big Port, 1 Resource (4.1, E)', () => {
    expect(land('canberra').resources).toBe(1);
    expect(land('canberra').ports.map((p) => p.size)).toContain('big');
  }],
  ['Perth has a Big Port, Darwin only a Small one (4.1)', () => {
    expect(land('perth').ports.map((p) => p.size)).toEqual(['big']);
    expect(land('darwin').ports.map((p) => p.size)).toEqual(['small']);
  }],
  ['Berlin: Factory 2 and Oil (6.4, 10)', () => {
    expect(land('berlin').factory).toBe(2);
    expect(land('berlin').oil).toBeGreaterThan(0);
  }],
  ['London: 1 Resource, port on the Western Approaches, Air Route to Paris (B.7, A.3)', () => {
    expect(land('london').resources).toBe(1);
    expect(land('london').ports.flatMap((p) => p.seas)).toContain('western-approaches');
    expect(hasPair(map.airRoutes, 'london', 'paris')).toBe(true);
  }],
  ['Stalingrad-Samarkand Land Route, Samarkand-Caucasus Mountains Air Route (1.3)', () => {
    expect(hasPair(map.landRoutes, 'stalingrad', 'samarkand')).toBe(true);
    expect(hasPair(map.airRoutes, 'samarkand', 'caucasus-mountains')).toBe(true);
    expect(hasPair(map.borders, 'stalingrad', 'samarkand')).toBe(false);
  }],
  ['Caucasus Mountains border Persia; Harbin borders Port Arthur (5.3, E)', () => {
    expect(hasPair(map.borders, 'caucasus-mountains', 'persia')).toBe(true);
    expect(hasPair(map.borders, 'harbin', 'port-arthur')).toBe(true);
  }],
  ['Gibraltar is an Island deciding a forcible, not-enemy strait between the Western Approaches and the Mediterranean (6.6, 9.8)', () => {
    expect(land('gibraltar').island).toBe(true);
    const s = map.straits?.find((x) => x.lands.includes('gibraltar'));
    expect(s).toMatchObject({ passage: 'not-enemy', forcible: true, lands: ['gibraltar'] });
    expect([...s!.seas].sort()).toEqual(['mediterranean', 'western-approaches']);
  }],
  ['Suez: Egypt decides the Mediterranean-Arabian Sea passage, which cannot be forced (4.2, 9.8)', () => {
    const s = map.straits?.find((x) => x.lands.includes('egypt'));
    expect(s).toMatchObject({ passage: 'not-enemy', forcible: false, lands: ['egypt'] });
    expect([...s!.seas].sort()).toEqual(['arabian-sea', 'mediterranean']);
  }],
  ['Turkish Straits open only while Istanbul is friendly (1.3)', () => {
    const s = map.straits?.find((x) => x.lands.includes('istanbul'));
    expect(s).toMatchObject({ passage: 'friendly', lands: ['istanbul'] });
    expect([...s!.seas].sort()).toEqual(['black-sea', 'mediterranean']);
  }],
  ['Singapore and South-East Asia decide the Bay of Bengal-South China Sea passage (9.8)', () => {
    const s = map.straits?.find((x) => x.lands.includes('singapore'));
    expect(s).toMatchObject({ passage: 'not-enemy' });
    expect([...s!.lands].sort()).toEqual(['singapore', 'south-east-asia']);
    expect([...s!.seas].sort()).toEqual(['bay-of-bengal', 'south-china-sea']);
  }],
  ['the Baltic and North Sea join only through a strait (4.1)', () => {
    expect(map.straits?.some((x) => [...x.seas].sort().join() === 'baltic-sea,north-sea')).toBe(true);
  }],
  ['Midway Islands: USA Island with a Small Port on Micronesia (1.3)', () => {
    expect(land('midway-islands')).toMatchObject({ island: true, control: 'USA', ports: [{ size: 'small', seas: ['micronesia'] }] });
  }],
  ['Caroline Islands Big Port and Marshall Islands Small Port on Micronesia (4.2)', () => {
    expect(land('caroline-islands').ports).toContainEqual({ size: 'big', seas: ['micronesia'] });
    expect(land('marshall-islands').ports).toContainEqual({ size: 'small', seas: ['micronesia'] });
  }],
  ['Peking is Japanese, the rest of China USA-held; Chungking has 1 Resource (7, E)', () => {
    expect(land('peking').control).toBe('JAP');
    for (const l of map.lands.filter((x) => x.country === 'china' && x.id !== 'peking')) expect(l.control, l.id).toBe('USA');
    expect(land('chungking').resources).toBe(1);
  }],
  ['Sweden 1 Resource, Venezuela 1 Oil, Sao Paulo 1 Resource, Western Canada and Mexico have Oil (7.5, E, F)', () => {
    expect(land('sweden').resources).toBe(1);
    expect(land('venezuela').oil).toBe(1);
    expect(land('sao-paulo').resources).toBe(1);
    expect(land('western-canada').oil).toBeGreaterThan(0);
    expect(land('mexico').oil).toBeGreaterThan(0);
  }],
  ['Egypt starts AFA-held (E)', () => expect(land('egypt').control).toBe('AFA')],
  ['Western Approaches touches the North Atlantic (4.3)', () => expect(hasPair(map.seaBorders, 'western-approaches', 'north-atlantic')).toBe(true)],
  ['named convoys: Western Approaches (AFA, France), North Atlantic (AFA, +2), South and East China Seas (Japanese) (3.5, 4.3, 4.4, 6.3)', () => {
    const c = map.convoys ?? [];
    expect(c.find((x) => x.sea === 'western-approaches')).toMatchObject({ nation: 'AFA', home: 'france' });
    expect(c.find((x) => x.sea === 'north-atlantic')).toMatchObject({ nation: 'AFA', factor: 2 });
    expect(c.find((x) => x.sea === 'south-china-sea')).toMatchObject({ nation: 'JAP' });
    expect(c.find((x) => x.sea === 'east-china-sea')).toMatchObject({ nation: 'JAP' });
  }],
];

describe('world map (approximation)', () => {
  it('parses with mapSchema', () => {
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
  });

  it('has unique ids across lands and seas, and unique country ids', () => {
    const ids = [...map.lands.map((l) => l.id), ...map.seas.map((s) => s.id)];
    expect(ids.length - new Set(ids).size).toBe(0);
    expect(map.countries.length - countries.size).toBe(0);
    for (const list of [map.straits ?? [], map.convoys ?? []]) expect(new Set(list.map((x) => x.id)).size).toBe(list.length);
  });

  it('refers only to ids that exist', () => {
    const missing: string[] = [];
    const need = (ok: boolean, what: string): void => void (ok || missing.push(what));
    for (const l of map.lands) {
      need(countries.has(l.country), `${l.id}.country ${l.country}`);
      for (const s of l.coast) need(seas.has(s), `${l.id}.coast ${s}`);
      for (const p of l.ports) for (const s of p.seas) need(seas.has(s) && l.coast.includes(s), `${l.id}.ports ${s} (a port's sea must be on the coast)`);
    }
    for (const k of ['borders', 'landRoutes', 'airRoutes'] as const) for (const [a, b] of map[k]) need(lands.has(a) && lands.has(b), `${k} ${a}-${b}`);
    for (const [a, b] of map.seaBorders) need(seas.has(a) && seas.has(b), `seaBorders ${a}-${b}`);
    for (const s of map.straits ?? []) {
      for (const x of s.seas) need(seas.has(x), `strait ${s.id} sea ${x}`);
      for (const x of s.lands) need(lands.has(x), `strait ${s.id} land ${x}`);
      for (const x of s.lands) need(s.seas.every((y) => lands.get(x)?.coast.includes(y)), `strait ${s.id}: ${x} must touch both seas`);
    }
    for (const c of map.convoys ?? []) need(seas.has(c.sea) && countries.has(c.home), `convoy ${c.id}`);
    expect(missing).toEqual([]);
  });

  it('has no self-loops or duplicate pairs, and a strait\'s seas are not also a sea border', () => {
    const bad: string[] = [];
    const seen = new Set<string>();
    for (const k of ['borders', 'landRoutes', 'airRoutes', 'seaBorders'] as const) {
      for (const [a, b] of map[k]) {
        if (a === b) bad.push(`${k} self-loop ${a}`);
        // one pair may appear once in all of borders, routes and sea borders together
        if (seen.has(key(a, b))) bad.push(`${k} duplicate ${a}-${b}`);
        seen.add(key(a, b));
      }
    }
    for (const s of map.straits ?? []) {
      if (s.seas[0] === s.seas[1]) bad.push(`strait ${s.id} self-loop`);
      if (hasPair(map.seaBorders, s.seas[0], s.seas[1])) bad.push(`strait ${s.id} seas are also in seaBorders`);
    }
    expect(bad).toEqual([]);
  });

  it('has every country of 1.2 plus the uncoded ones, each with at least one land area', () => {
    expect([...map.countries.map((c) => c.code)].filter((c) => CODES.includes(c)).sort()).toEqual([...CODES].sort());
    for (const id of ['french-west-africa', 'madagascar', 'iceland', 'aden-kuwait', 'borneo', 'hollandia', 'java']) expect(countries.has(id), id).toBe(true);
    // Vichy France has a unit code (1.2) but its area is part of France until France falls (3.4).
    const empty = map.countries.filter((c) => !map.lands.some((l) => l.country === c.id)).map((c) => c.id);
    expect(empty).toEqual(['vichy-france']);
  });

  it('marks the home countries of 1.1 and gives their areas to their power at the start', () => {
    for (const [c, power] of Object.entries(HOMES)) expect(countries.get(c)?.homeOf, c).toBe(power);
    expect(map.countries.filter((c) => c.homeOf).length).toBe(Object.keys(HOMES).length);
    const wrong = map.lands.filter((l) => HOMES[l.country] && l.control !== HOMES[l.country]).map((l) => `${l.id}: ${l.control}`);
    expect(wrong).toEqual([]);
    expect(map.lands.filter((l) => l.control === undefined).map((l) => l.id)).toEqual([]);
  });

  it('is one connected graph of lands and seas', () => {
    const adj = new Map<string, string[]>();
    const link = (a: string, b: string): void => {
      adj.set(a, [...(adj.get(a) ?? []), b]);
      adj.set(b, [...(adj.get(b) ?? []), a]);
    };
    for (const k of ['borders', 'landRoutes', 'seaBorders'] as const) for (const [a, b] of map[k]) link(a, b);
    for (const s of map.straits ?? []) link(s.seas[0], s.seas[1]);
    for (const l of map.lands) for (const s of l.coast) link(l.id, s);
    const all = [...lands.keys(), ...seas.keys()];
    const reached = new Set([all[0]!]);
    const stack = [all[0]!];
    while (stack.length) for (const n of adj.get(stack.pop()!) ?? []) if (!reached.has(n)) (reached.add(n), stack.push(n));
    expect(all.filter((x) => !reached.has(x))).toEqual([]);
  });

  it('links every sea to another sea or a strait, and gives every Island a coast', () => {
    const linked = new Set([...map.seaBorders.flat(), ...(map.straits ?? []).flatMap((s) => s.seas)]);
    expect(map.seas.filter((s) => !linked.has(s.id)).map((s) => s.id)).toEqual([]);
    expect(map.lands.filter((l) => l.island && l.coast.length === 0).map((l) => l.id)).toEqual([]);
  });

  it('has the 26 named sea areas and every named land area', () => {
    expect(NAMED_SEAS).toHaveLength(26);
    expect(NAMED_SEAS.filter((s) => !seas.has(s))).toEqual([]);
    expect(NAMED_LANDS.filter((l) => !lands.has(l))).toEqual([]);
    for (const c of NAMED_COUNTRIES_WITHOUT_NAMED_AREA) expect(map.lands.some((l) => l.country === c), c).toBe(true);
    expect(map.lands.length).toBeGreaterThanOrEqual(100);
    expect(map.lands.length).toBeLessThanOrEqual(160);
  });

  describe('stated facts', () => {
    it('lists at least 20', () => expect(FACTS.length).toBeGreaterThanOrEqual(20));
    it.each(FACTS)('%s', (_name, check) => check());
  });

  it('marks estimates: position of every new area, and each land\'s oil/resources/factory/terrain unless it has refs', () => {
    const abLands = new Set(Object.keys(AB_LANDS));
    const abSeas = new Set(Object.keys(AB_SEAS));
    const unmarked: string[] = [];
    for (const l of map.lands) {
      if (!abLands.has(l.id) && !l.estimates?.position) unmarked.push(`${l.id}.position`);
      const cited = (l.refs?.length ?? 0) > 0;
      if (!cited && !l.estimates?.id) unmarked.push(`${l.id}: no refs, so its existence must be marked as an estimate`);
      if (!NAMED_LANDS.includes(l.id) && !l.estimates?.id) unmarked.push(`${l.id}: not named in the text, so its existence must be marked as an estimate`);
      for (const f of ['oil', 'resources', 'factory', 'terrain'] as const) if (!cited && !l.estimates?.[f]) unmarked.push(`${l.id}.${f}`);
      if (!cited && !l.estimates?.control) unmarked.push(`${l.id}.control`);
    }
    for (const s of map.seas) {
      if (!abSeas.has(s.id) && !s.estimates?.position) unmarked.push(`${s.id}.position`);
      if (!NAMED_SEAS.includes(s.id) && !s.estimates?.id) unmarked.push(`${s.id}: an unnamed sea must say it is an estimate`);
    }
    for (const c of map.countries) if (!c.refs?.length && !c.estimates?.id) unmarked.push(`country ${c.id}`);
    for (const c of map.convoys ?? []) if (!c.refs?.length && !c.estimates?.id) unmarked.push(`convoy ${c.id}`);
    expect(unmarked).toEqual([]);
  });

  it('keeps the Scenario A/B map (pack 1.0.0) as it was: same areas, values, pairs and countries', () => {
    for (const [id, want] of Object.entries(AB_LANDS)) {
      const w = lands.get(id);
      expect(w, id).toBeDefined();
      const pick = (l: LandDef) => ({ name: l.name, terrain: l.terrain, island: l.island, oil: l.oil, resources: l.resources, factory: l.factory, ports: l.ports, position: l.position });
      expect(pick(w!), id).toEqual(want);
      for (const s of AB_COASTS[id] ?? []) expect(w!.coast, id).toContain(s);
    }
    expect(lands.get('vichy-france')?.country).toBe('france');
    for (const [id, s] of Object.entries(AB_SEAS)) expect({ name: seas.get(id)?.name, position: seas.get(id)?.position }, id).toEqual(s);
    for (const [a, b] of AB_PAIRS.borders) expect(hasPair(map.borders, a, b), `${a}-${b}`).toBe(true);
    for (const [a, b] of AB_PAIRS.airRoutes) expect(hasPair(map.airRoutes, a, b), `${a}-${b}`).toBe(true);
    for (const [a, b] of AB_PAIRS.seaBorders) expect(hasPair(map.seaBorders, a, b), `${a}-${b}`).toBe(true);
    for (const [id, c] of Object.entries(AB_COUNTRIES)) {
      const w = countries.get(id);
      expect({ name: w?.name, code: w?.code, homeOf: w?.homeOf }, id).toEqual({ name: c.name, code: c.code, homeOf: c.homeOf ?? undefined });
    }
  });
});

/** The Scenario A/B map as it was before the world map (pack 1.0.0): the world map keeps these values. */
const AB_LANDS: Record<string, Pick<LandDef, 'name' | 'terrain' | 'island' | 'oil' | 'resources' | 'factory' | 'ports' | 'position'>> = {
  'belgium-netherlands': {"name": "Belgium-Netherlands", "terrain": ["clear"], "island": false, "oil": 0, "resources": 1, "factory": 0, "ports": [{"size": "big", "seas": ["north-sea"]}], "position": {"lon": 4.9, "lat": 51.6}},
  'paris': {"name": "Paris", "terrain": ["clear"], "island": false, "oil": 0, "resources": 2, "factory": 1, "ports": [{"size": "big", "seas": ["western-approaches"]}], "position": {"lon": 2.3, "lat": 48.9}},
  'vichy-france': {"name": "Vichy France", "terrain": ["clear"], "island": false, "oil": 0, "resources": 0, "factory": 0, "ports": [{"size": "small", "seas": ["western-approaches"]}], "position": {"lon": 2.0, "lat": 45.3}},
  'western-germany': {"name": "Western Germany", "terrain": ["clear"], "island": false, "oil": 0, "resources": 2, "factory": 0, "ports": [{"size": "small", "seas": ["north-sea"]}], "position": {"lon": 8.6, "lat": 50.9}},
  'berlin': {"name": "Berlin", "terrain": ["clear"], "island": false, "oil": 1, "resources": 0, "factory": 2, "ports": [], "position": {"lon": 13.4, "lat": 52.5}},
  'poland': {"name": "Poland", "terrain": ["forest"], "island": false, "oil": 0, "resources": 1, "factory": 0, "ports": [], "position": {"lon": 19.5, "lat": 52.1}},
  'london': {"name": "London", "terrain": ["clear"], "island": false, "oil": 0, "resources": 1, "factory": 2, "ports": [{"size": "big", "seas": ["western-approaches"]}], "position": {"lon": -1.2, "lat": 52.0}},
  'scotland': {"name": "Scotland", "terrain": ["mountain"], "island": false, "oil": 0, "resources": 0, "factory": 0, "ports": [{"size": "big", "seas": ["north-sea"]}], "position": {"lon": -4.2, "lat": 56.9}},
};
const AB_COASTS: Record<string, string[]> = {"belgium-netherlands": ["north-sea"], "paris": ["north-sea", "western-approaches"], "vichy-france": ["western-approaches"], "western-germany": ["north-sea"], "berlin": [], "poland": [], "london": ["north-sea", "western-approaches"], "scotland": ["north-sea"]};
const AB_PAIRS = {"borders": [["paris", "vichy-france"], ["paris", "belgium-netherlands"], ["paris", "western-germany"], ["western-germany", "berlin"], ["berlin", "poland"], ["belgium-netherlands", "western-germany"], ["london", "scotland"]], "airRoutes": [["london", "paris"]], "seaBorders": [["north-sea", "western-approaches"]]} as const;
const AB_SEAS = {"north-sea": {"name": "North Sea", "position": {"lon": 3.0, "lat": 56.0}}, "western-approaches": {"name": "Western Approaches", "position": {"lon": -8.0, "lat": 48.8}}};
const AB_COUNTRIES = {"germany": {"name": "Germany", "code": "Ger", "homeOf": "GER"}, "france": {"name": "France", "code": "Fr", "homeOf": "AFA"}, "great-britain": {"name": "Great Britain", "code": "Gr Br", "homeOf": "AFA"}, "poland": {"name": "Poland", "code": "Pol", "homeOf": null}, "belgium-netherlands": {"name": "Belgium-Netherlands", "code": "Be Ne", "homeOf": null}, "usa": {"name": "United States of America", "code": "USA", "homeOf": "USA"}};
