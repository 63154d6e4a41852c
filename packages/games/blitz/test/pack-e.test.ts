/**
 * Scenario E (Empire of the Rising Sun) in the bundled approximation pack: the facts the rulebook
 * states for E hold (recomputed from the map where E states a rule rather than a list), the units its
 * examples describe carry their stated values, and the pack checker refuses broken Scenario E fields
 * (off-map supply, China entry, restricted income, the Harbin frontier, extra Resources, research
 * Groups, the Pacific objective kinds) with the JSON path and a message saying what to do.
 */
import { describe, expect, it } from 'vitest';
import { approximationPack } from '../src/pack/bundled.ts';
import type { ScenarioDef } from '../src/pack/schema.ts';
import { expectIssue, fresh, issuesOf, load, lookups, naval, scenarioAt, type Raw } from './support/pack-fixtures.ts';

const { index: E_INDEX, path: E_PATH, raw: rawE } = scenarioAt('E');

const EXCLUDED = ['ussr', 'aden-kuwait', 'egypt', 'italian-east-africa', 'near-east'];

describe('the bundled pack with Scenario E', () => {
  it('passes validation', () => {
    expect(issuesOf(approximationPack)).toEqual([]);
  });

  it('has a Scenario E', () => {
    expect(E_INDEX).toBeGreaterThanOrEqual(0);
  });
});

describe('Scenario E: facts the rulebook states', () => {
  const p = load();
  const e = p.scenarios.scenarios.find((s) => s.id === 'E') as ScenarioDef;
  const { land, unit, landsOf } = lookups(p);

  it('runs from Turn 4 with Japan against the Western Allies (AFA and USA as one power)', () => {
    expect(e).toMatchObject({ name: 'Empire of the Rising Sun', firstTurn: 4, lastTurn: 15 });
    expect(e.powers).toEqual([
      { id: 'JAP', name: expect.any(String), side: 'Axis', nations: ['JAP'] },
      { id: 'WA', name: expect.any(String), side: 'Allies', nations: ['AFA', 'USA'] },
    ]);
  });

  it('every Blitz option for both; Japan starts with 2 saved Oil (not 3), the Western Allies with 2 (not 1)', () => {
    for (const pw of ['JAP', 'WA']) expect(new Set(e.blitzChoice?.[pw])).toEqual(new Set(['free', 'air', 'land', 'naval', 'total']));
    expect(e.oil).toEqual({ JAP: 2, WA: 2 });
    expect(e).toMatchObject({ seaCombat: true, supply: true, areaIncome: true });
  });

  it('the seas in play are those within 4 naval moves of Tokyo, plus Cape Naturaliste and the Tasman Sea', () => {
    const dist = naval(p.map, 'tokyo');
    expect(dist.get('japanese-coast')).toBe(1);
    const expected = p.map.seas.map((s) => s.id).filter((s) => (dist.get(s) ?? Infinity) <= 4 || s === 'cape-naturaliste' || s === 'tasman-sea');
    expect([...e.seas].sort()).toEqual(expected.sort());
    // The seas E's own rules use are among them.
    for (const s of ['bering-sea', 'bay-of-bengal', 'south-china-sea', 'east-china-sea', 'micronesia', 'bismarck-sea']) expect(e.seas).toContain(s);
  });

  it('the lands in play touch those seas (less the stated exceptions), plus the interior areas E itself uses', () => {
    const touching = p.map.lands.filter((l) => l.coast.some((s) => e.seas.includes(s)) && !EXCLUDED.includes(l.country)).map((l) => l.id);
    for (const l of touching) expect(e.lands, l).toContain(l);
    const interior = e.lands.filter((l) => !touching.includes(l)).sort();
    // Chungking (its Resource is in the stated income), Harbin (the frontier) and Sian (the rest of China).
    expect(interior).toEqual(['chungking', 'harbin', 'sian']);
    for (const l of interior) expect(land(l).coast.some((s) => e.seas.includes(s)), l).toBe(false);
    expect(e.estimates?.['lands']).toMatch(/Sian/);
  });

  it('no land area of the USSR, Aden-Kuwait, Egypt, Italian East Africa or the Near East is in play', () => {
    for (const l of e.lands) expect(EXCLUDED, l).not.toContain(land(l).country);
    // Vladivostok and Kamchatka do touch seas in play: the exception matters.
    expect(landsOf('ussr').some((l) => land(l).coast.some((s) => e.seas.includes(s)))).toBe(true);
  });

  it('control: the map flags, with South-East Asia Japanese-allied and Borneo, Hollandia and Java Western Allied', () => {
    expect(e.control['south-east-asia']).toBe('JAP');
    for (const l of ['borneo', 'hollandia', 'java']) expect(e.control[l], l).toBe('WA');
    const flag: Record<string, string> = { JAP: 'JAP', AFA: 'WA', USA: 'WA', neutral: 'neutral' };
    const changed = ['south-east-asia', 'borneo', 'hollandia', 'java', 'mexico'];
    for (const l of e.lands) if (!changed.includes(l)) expect(e.control[l], l).toBe(flag[land(l).control ?? 'neutral']);
    // 3.3: the USA allies Mexico once it is at war with the Axis; E counts Mexico's Oil.
    expect(e.control['mexico']).toBe('WA');
  });

  it("the Western Allies' in-play income is 4 Oil (Borneo, Mexico, Western Canada, West Coast) and 7 Resources (Hyderabad, Chungking, Manila, Canberra, 3 at the West Coast)", () => {
    const wa = e.lands.filter((l) => e.control[l] === 'WA').map(land);
    expect(wa.reduce((n, l) => n + l.oil, 0)).toBe(4);
    expect(wa.reduce((n, l) => n + l.resources, 0)).toBe(7);
    expect(wa.filter((l) => l.oil > 0).map((l) => l.id).sort()).toEqual(['borneo', 'mexico', 'west-coast', 'western-canada']);
    expect(Object.fromEntries(wa.filter((l) => l.resources > 0).map((l) => [l.id, l.resources]))).toEqual({ hyderabad: 1, chungking: 1, manila: 1, canberra: 1, 'west-coast': 3 });
  });

  it('the Southern Army sets up in Peking; Harbin starts with at least Size 2 of Japanese land units', () => {
    expect(e.setup.find((x) => x.unit === 'southern-army')?.at).toBe('peking');
    expect(unit('southern-army')).toMatchObject({ nation: 'JAP' });
    const inHarbin = e.setup.filter((x) => x.at === 'harbin' && unit(x.unit).nation === 'JAP' && !['AIR', 'BB', 'CV', 'SUB', 'TRS', 'LL'].includes(unit(x.unit).type));
    expect(inHarbin.reduce((n, x) => n + x.size, 0)).toBeGreaterThanOrEqual(2);
    // The E example: the Kwantung Army (Size 2) and the 17th Area GAR (Size 1) stand there.
    expect(inHarbin.map((x) => x.unit).sort()).toEqual(['17th-area-gar', 'kwantung-army']);
  });

  it('the AFA Far East Fleet arrives as a reinforcement in Canada, in an area with a port', () => {
    const all = e.reinforcements.flatMap((r) => r.units);
    const fef = all.find((x) => x.unit === 'far-east-fleet');
    expect(fef).toBeDefined();
    expect(unit('far-east-fleet')).toMatchObject({ nation: 'AFA' });
    expect(land(fef!.at).country).toBe('canada');
    expect(land(fef!.at).ports.length).toBeGreaterThan(0);
    expect(e.lands).toContain(fef!.at);
  });

  it('off-map supply from the USA and Great Britain; China entry, restricted Chinese income', () => {
    expect(e.offMapSupply).toEqual({ WA: expect.objectContaining({ countries: ['usa', 'great-britain'] }) });
    expect(e.chinaEntry).toMatchObject({ country: 'china', home: 'china', openers: ['formosa', 'manila', 'south-east-asia'], need: 2 });
    for (const l of e.chinaEntry!.openers) expect(e.lands).toContain(l);
    expect(e.restrictedIncome).toEqual([expect.objectContaining({ country: 'china', home: 'china' })]);
    // Chinese units are USA counters (the USA runs China), and one stands in Chungking (7.8 example).
    const chinese = p.units.units.filter((u) => u.home === 'china');
    expect(chinese.length).toBeGreaterThan(0);
    for (const u of chinese) expect(u.nation, u.id).toBe('USA');
    expect(e.setup.some((x) => x.at === 'chungking' && unit(x.unit).home === 'china')).toBe(true);
  });

  it('the Harbin frontier and the extra Allied Resources', () => {
    expect(e.frontier).toMatchObject({ land: 'harbin', holder: 'JAP', controller: 'USSR', garrison: 2, fromTurn: 11, losses: 2 });
    expect(e.control['harbin']).toBe('JAP');
    expect(e.powers.map((x) => x.id)).not.toContain('USSR');
    expect(e.extraResources).toMatchObject({ power: 'WA', optional: { fromTurn: 5, toTurn: 8, amount: 3, vpCost: 1, vpToIfNone: 'JAP' }, growing: { fromTurn: 9, perTurn: 2 } });
  });

  it('research Groups: units of the power, not also set up, in the Force Pool or Future Additions', () => {
    const elsewhere = new Set([...e.setup, ...e.forcePool, ...e.reinforcements.flatMap((r) => r.units), ...Object.values(e.futureAdditions ?? {}).flat()].map((x) => x.unit));
    for (const pw of ['JAP', 'WA']) {
      const groups = e.research?.[pw] ?? [];
      expect(groups.length, pw).toBeGreaterThanOrEqual(2);
      const runs = e.powers.find((x) => x.id === pw)!.nations as string[];
      for (const x of groups.flat()) {
        expect(runs, x.unit).toContain(unit(x.unit).nation);
        expect(elsewhere.has(x.unit), x.unit).toBe(false);
      }
    }
  });

  it('victory: 15 points; Long War, Tenno-Zan, Pacific Domination, Bring Democracy to Asia and Arsenal of Democracy', () => {
    const v = e.victory!;
    expect(v.target).toBe(15);
    const byName = (n: string) => v.objectives.find((o) => o.name === n)!;
    expect(byName('Long War')).toMatchObject({ power: 'JAP', kind: 'long-war', byTurn: { '11': 1, '12': 2, '13': 3, '14': 4, '15': 5 } });
    expect(byName('Tenno-Zan')).toMatchObject({ power: 'JAP', kind: 'presence', vp: 1 });
    expect(byName('Tenno-Zan').atLeast).toBeGreaterThan(0);
    expect(byName('Co-Prosperity Sphere')).toMatchObject({ power: 'JAP', kind: 'control-count' });
    expect(byName('Victory in the CBI')).toMatchObject({ power: 'JAP', kind: 'control-count' });
    expect(byName('Pacific Domination')).toMatchObject({ power: 'WA', kind: 'seas-clear' });
    expect(byName('Bring Democracy to Asia')).toMatchObject({ power: 'WA', kind: 'control-count', vp: 1 });
    // E's correction: China's Lend Lease by the Bay of Bengal and no Japanese unit in the Bering Sea.
    expect(byName('Arsenal of Democracy')).toMatchObject({ power: 'WA', kind: 'lend-lease', seas: ['bering-sea'], nation: 'USA' });
    expect(unit('bay-of-bengal-ll')).toMatchObject({ nation: 'USA', type: 'LL', llSea: 'bay-of-bengal' });
    expect(unit('bay-of-bengal-ll').llTo).toBeUndefined();
    expect(v.objectives.filter((o) => o.kind === 'industrial-might').map((o) => o.power).sort()).toEqual(['JAP', 'WA']);
    for (const o of v.objectives) expect(o.refs?.length || Object.keys(o.estimates ?? {}).length, o.id).toBeTruthy();
  });
});

describe('Scenario E units: values the examples state', () => {
  const p = load();
  const { unit } = lookups(p);
  const sizes = (id: string) => Object.keys(unit(id).sizes).map(Number);

  it('4.1: the Pacific Fleet is a Big USA naval unit, Size 4 with movement 2', () => {
    expect(unit('pacific-fleet')).toMatchObject({ nation: 'USA', sizes: { '4': { move: 2 } } });
    expect(['BB', 'CV']).toContain(unit('pacific-fleet').type);
  });

  it('E: the Kwantung Army has Sizes 2 and 1, the 17th Area GAR is a GAR of Size 1', () => {
    expect(unit('kwantung-army')).toMatchObject({ nation: 'JAP' });
    expect(sizes('kwantung-army')).toEqual([1, 2]);
    expect(unit('17th-area-gar')).toMatchObject({ nation: 'JAP', type: 'GAR' });
    expect(sizes('17th-area-gar')).toEqual([1]);
  });

  it('2.2: the Zeroes are a Size-2 air unit and the Kamikazes a Size-1 air unit', () => {
    expect(unit('zeroes')).toMatchObject({ nation: 'JAP', type: 'AIR' });
    expect(sizes('zeroes')).toContain(2);
    expect(unit('kamikazes')).toMatchObject({ nation: 'JAP', type: 'AIR' });
    expect(sizes('kamikazes')).toEqual([1]);
  });

  it('1.3, 3.3, 4.2: the Marines and Pacific Command are Size 1; the SNLF is a MAR; the Central TRS a TRS', () => {
    expect(unit('marines')).toMatchObject({ nation: 'USA', type: 'MAR' });
    expect(sizes('marines')).toEqual([1]);
    expect(sizes('pacific-command')).toEqual([1]);
    expect(unit('snlf')).toMatchObject({ nation: 'JAP', type: 'MAR' });
    expect(unit('central-trs')).toMatchObject({ nation: 'JAP', type: 'TRS' });
  });
});

describe('Scenario E fields: broken packs are refused with the path and what to do', () => {
  it('off-map supply for an unknown power or from an unknown country', () => {
    const raw = fresh();
    rawE(raw).offMapSupply = { USN: { countries: ['usa'] }, WA: { countries: ['atlantis'] } };
    expectIssue(raw, `${E_PATH}.offMapSupply.USN`, /'USN' is not a power of this scenario: use one of JAP, WA/);
    expectIssue(raw, `${E_PATH}.offMapSupply.WA.countries[0]`, /unknown country 'atlantis'/);
  });

  it('China entry with an opener that is no land area, one out of play, or more needed than listed', () => {
    const raw = fresh();
    const ce = rawE(raw).chinaEntry;
    ce.openers = ['formosa', 'bay-of-bengal', 'paris'];
    ce.need = 4;
    expectIssue(raw, `${E_PATH}.chinaEntry.openers[1]`, /unknown land area 'bay-of-bengal': an opener is a land area id/);
    expectIssue(raw, `${E_PATH}.chinaEntry.openers[2]`, /'paris' is not a land area in play/);
    expectIssue(raw, `${E_PATH}.chinaEntry.need`, /need 4 is more than the 3 openers listed/);
  });

  it('China entry naming a nation that no power of the scenario plays (5.2)', () => {
    const raw = fresh();
    const ce = rawE(raw).chinaEntry;
    ce.openerNations = ['AFA', 'USSR'];
    ce.unlessNeutral = 'GER';
    expectIssue(raw, `${E_PATH}.chinaEntry.openerNations[1]`, /nation 'USSR' belongs to no power of this scenario/);
    expectIssue(raw, `${E_PATH}.chinaEntry.unlessNeutral`, /nation 'GER' belongs to no power/);
  });

  it('restricted income of a country with no area in play, or for a home no unit has', () => {
    const raw = fresh();
    rawE(raw).restrictedIncome = [{ country: 'norway', home: 'narnia' }];
    expectIssue(raw, `${E_PATH}.restrictedIncome[0].country`, /'norway' has no land area in play/);
    expectIssue(raw, `${E_PATH}.restrictedIncome[0].home`, /unknown home country 'narnia'/);
  });

  it('a frontier out of play, not held by its holder, run by a power in play, or outside the turns', () => {
    const raw = fresh();
    rawE(raw).frontier.land = 'irkutsk';
    expectIssue(raw, `${E_PATH}.frontier.land`, /'irkutsk' is not a land area in play/);
    const raw2 = fresh();
    const f = rawE(raw2).frontier;
    f.land = 'chungking';
    f.controller = 'WA';
    f.fromTurn = 3;
    expectIssue(raw2, `${E_PATH}.frontier.holder`, /'chungking' is controlled by 'WA' at the start, not by 'JAP'/);
    expectIssue(raw2, `${E_PATH}.frontier.controller`, /'WA' is a power of this scenario.*name one that is not in powers/);
    expectIssue(raw2, `${E_PATH}.frontier.fromTurn`, /turn 3 is outside turns 4-15/);
  });

  it('a frontier whose set-up garrison is below the minimum', () => {
    const raw = fresh();
    const e = rawE(raw);
    e.setup = (e.setup as Raw[]).filter((x) => x.unit !== 'kwantung-army');
    e.forcePool.push({ unit: 'kwantung-army', size: 2 });
    expectIssue(raw, `${E_PATH}.frontier.garrison`, /Size 1 of 'JAP' land units in 'harbin', less than the garrison of 2/);
  });

  it('extra Resources for an unknown power, a point to an ally, turns out of order or range', () => {
    const raw = fresh();
    const x = rawE(raw).extraResources;
    x.optional.vpToIfNone = 'WA';
    x.optional.fromTurn = 9;
    x.optional.toTurn = 3;
    expectIssue(raw, `${E_PATH}.extraResources.optional.vpToIfNone`, /'WA' is on the same side as 'WA': the point goes to an enemy/);
    expectIssue(raw, `${E_PATH}.extraResources.optional.toTurn`, /turn 3 is outside turns 4-15/);
    expect(issuesOf(raw).find((i) => i.path === `${E_PATH}.extraResources.optional.toTurn` && /before fromTurn 9/.test(i.message))).toBeDefined();
    const raw2 = fresh();
    rawE(raw2).extraResources.power = 'USA';
    expectIssue(raw2, `${E_PATH}.extraResources.power`, /'USA' is not a power of this scenario/);
  });

  it('research units that are unknown, of another power, or also set up', () => {
    const raw = fresh();
    const r = rawE(raw).research;
    r.JAP[0].push({ unit: 'zeppelins', size: 1 });
    r.JAP[1].push({ unit: '5th-fleet', size: 2 });
    r.WA[0].push({ unit: 'pacific-fleet', size: 4 });
    const n0 = r.JAP[0].length - 1;
    const n1 = r.JAP[1].length - 1;
    const w0 = r.WA[0].length - 1;
    expectIssue(raw, `${E_PATH}.research.JAP[0][${n0}].unit`, /unknown unit 'zeppelins'/);
    expect(issuesOf(raw).find((i) => i.path === `${E_PATH}.research.JAP[1][${n1}].unit` && /belongs to USA, which power 'JAP' does not run/.test(i.message))).toBeDefined();
    expectIssue(raw, `${E_PATH}.research.WA[0][${w0}].unit`, /'pacific-fleet' is already placed.*research unit may not also be set up/);
  });

  it('Pacific objectives without seas, with unknown or out-of-play seas, without atLeast or nation', () => {
    const raw = fresh();
    const objs = rawE(raw).victory.objectives as Raw[];
    const at = (id: string) => objs.findIndex((o) => o.id === id);
    const tz = at('jap-tenno-zan');
    const pd = at('wa-pacific-domination');
    const ad = at('wa-arsenal-of-democracy');
    const lw = at('jap-long-war');
    delete objs[tz]!.atLeast;
    objs[pd]!.seas = ['sea-of-tranquility', 'north-sea'];
    delete objs[ad]!.nation;
    objs[lw]!.seas = ['bering-sea'];
    const o = `${E_PATH}.victory.objectives`;
    expectIssue(raw, `${o}[${tz}].atLeast`, /a 'presence' objective needs atLeast/);
    expectIssue(raw, `${o}[${pd}].seas[0]`, /unknown sea area 'sea-of-tranquility'/);
    expectIssue(raw, `${o}[${pd}].seas[1]`, /'north-sea' is not a sea area in play/);
    expectIssue(raw, `${o}[${ad}].nation`, /a 'lend-lease' objective needs nation/);
    expectIssue(raw, `${o}[${lw}].seas`, /a 'long-war' objective does not: remove seas/);
    const raw2 = fresh();
    delete (rawE(raw2).victory.objectives as Raw[])[ad]!.seas;
    expectIssue(raw2, `${o}[${ad}].seas`, /a 'lend-lease' objective needs seas/);
    const raw3 = fresh();
    (rawE(raw3).victory.objectives as Raw[])[ad]!.nation = 'USSR';
    expectIssue(raw3, `${o}[${ad}].nation`, /no power in this scenario runs USSR: use the nation of the counters that receive the Lend Lease/);
  });
});
