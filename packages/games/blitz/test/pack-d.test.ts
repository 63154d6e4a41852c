/**
 * Scenario D (Barbarossa) in the bundled approximation pack: the facts the rulebook states for D hold,
 * the units its examples describe carry their stated values, and the pack checker refuses broken
 * Scenario D fields (trades, Second Front, handovers, disbands, build areas, dormant armies, Lend Lease
 * recipients, Snow turns, Victory Card objectives) with the JSON path and a message saying what to do.
 */
import { describe, expect, it } from 'vitest';
import { approximationPack } from '../src/pack/bundled.ts';
import type { ScenarioDef } from '../src/pack/schema.ts';
import { expectIssue, fresh, issuesOf, load, lookups, scenarioAt, type Raw } from './support/pack-fixtures.ts';

const { index: D_INDEX, path: D_PATH, raw: rawD } = scenarioAt('D');

/** The countries whose land areas D puts in play (D, Map Areas in Play). */
const D_COUNTRIES = ['balkans', 'belgium-netherlands', 'central-europe', 'egypt', 'finland', 'germany', 'great-britain', 'near-east', 'poland', 'usa', 'ussr'];
/** The only sea areas in play in D. */
const D_SEAS = ['arabian-sea', 'arctic-ocean', 'baltic-sea', 'bering-sea', 'black-sea', 'gulf-of-alaska', 'mediterranean', 'north-sea', 'north-atlantic', 'usa-east-coast', 'western-approaches'];

describe('the bundled pack with Scenario D', () => {
  it('passes validation', () => {
    expect(issuesOf(approximationPack)).toEqual([]);
  });

  it('has a Scenario D', () => {
    expect(D_INDEX).toBeGreaterThanOrEqual(0);
  });
});

describe('Scenario D: facts the rulebook states', () => {
  const p = load();
  const d = p.scenarios.scenarios.find((s) => s.id === 'D') as ScenarioDef;
  const { land, unit, landsOf } = lookups(p);

  it('runs Turns 3-12 with Germany against the USSR and the Western Allies (AFA and USA as one power)', () => {
    expect(d).toMatchObject({ name: 'Barbarossa', firstTurn: 3, lastTurn: 12 });
    expect(d.powers).toEqual([
      { id: 'GER', name: expect.any(String), side: 'Axis', nations: ['GER'] },
      { id: 'USSR', name: expect.any(String), side: 'Allies', nations: ['USSR'] },
      { id: 'WA', name: expect.any(String), side: 'Allies', nations: ['AFA', 'USA'] },
    ]);
  });

  it('D.4: every power may choose any Blitz option, paid from saved Oil', () => {
    for (const pw of ['GER', 'USSR', 'WA']) expect(new Set(d.blitzChoice?.[pw])).toEqual(new Set(['free', 'air', 'land', 'naval', 'total']));
    expect(Object.keys(d.oil ?? {}).sort()).toEqual(['GER', 'USSR', 'WA']);
  });

  it('puts exactly the eleven stated sea areas in play', () => {
    expect([...d.seas].sort()).toEqual([...D_SEAS].sort());
  });

  it("puts every land area of the stated countries in play, and nothing else but the Ukraine (a Soviet republic this map keeps as its own country)", () => {
    for (const c of D_COUNTRIES) expect(landsOf(c).length, c).toBeGreaterThan(0);
    const stated = D_COUNTRIES.flatMap(landsOf);
    expect(new Set(d.lands)).toEqual(new Set([...stated, 'ukraine']));
    expect(d.lands.length).toBe(new Set(d.lands).size);
    expect(d.estimates?.['lands']).toMatch(/Ukraine/);
  });

  it('politics: Germany holds Poland and Belgium-Netherlands and is allied with Finland and Central Europe; the Balkans are AFA-allied', () => {
    for (const c of ['germany', 'poland', 'belgium-netherlands', 'finland', 'central-europe']) for (const l of landsOf(c)) expect(d.control[l], l).toBe('GER');
    for (const l of landsOf('balkans')) expect(d.control[l], l).toBe('WA');
    for (const c of ['great-britain', 'egypt', 'usa']) for (const l of landsOf(c)) expect(d.control[l], l).toBe('WA');
    for (const l of landsOf('ussr')) expect(d.control[l], l).toBe('USSR');
    expect(d.minors).toEqual([]);
  });

  it('Sweden trades its Resource to Germany', () => {
    expect(d.trades).toEqual([expect.objectContaining({ from: 'sweden', to: 'GER', oil: 0, resources: land('sweden').resources })]);
    expect(land('sweden').resources).toBeGreaterThan(0);
  });

  it('the Western Allies get 4 Resources and 2 Oil a turn; the others collect from their areas under supply', () => {
    expect(d.fixedIncome).toEqual({ WA: { oil: 2, resources: 4 } });
    expect(d).toMatchObject({ areaIncome: true, supply: true, seaCombat: true });
  });

  it('Second Front: Germany loses a Resource more each turn from Turn 7, up to 4', () => {
    expect(d.resourceDrain).toEqual([expect.objectContaining({ power: 'GER', fromTurn: 7, perTurn: 1, max: 4 })]);
  });

  it('Turn 9: the Western Allies take Belgium-Netherlands, closed to the Axis, and Germany removes 4 Size of ARM', () => {
    expect(d.handovers).toEqual([expect.objectContaining({ turn: 9, country: 'belgium-netherlands', to: 'WA', closedTo: 'Axis' })]);
    expect(d.disbands).toEqual([expect.objectContaining({ turn: 9, power: 'GER', type: 'ARM', size: 4 })]);
    // Germany has the armour to remove: at least 4 Size of ARM on the map at the start.
    const gerArm = d.setup.filter((x) => unit(x.unit).nation === 'GER' && unit(x.unit).type === 'ARM').reduce((n, x) => n + x.size, 0);
    expect(gerArm).toBeGreaterThanOrEqual(4);
    // "One fully-built Big ARM": Germany has a Big ARM counter in play.
    expect(d.setup.some((x) => unit(x.unit).nation === 'GER' && unit(x.unit).type === 'ARM' && '4' in unit(x.unit).sizes)).toBe(true);
  });

  it('Italy is out of play but the Italian Alpini Army is in it, and is lost for good when destroyed', () => {
    expect(d.lands.some((l) => land(l).country === 'italy')).toBe(false);
    expect(d.permanentLoss).toEqual(['italian-alpini-army']);
    expect(unit('italian-alpini-army')).toMatchObject({ nation: 'GER', home: 'italy' });
    expect(d.setup.some((x) => x.unit === 'italian-alpini-army')).toBe(true);
  });

  it('Western Allied units arrive in the UK, in an area with a Big Port', () => {
    const at = d.buildAt?.['WA'];
    expect(at).toBeDefined();
    expect(land(at!).country).toBe('great-britain');
    expect(land(at!).ports.some((x) => x.size === 'big')).toBe(true);
  });

  it('the Near East units wait off the map until it is attacked; the Persian Army has 0 Land Factors', () => {
    expect(d.dormant).toHaveLength(1);
    const [ne] = d.dormant!;
    expect(ne!.country).toBe('near-east');
    expect(ne!.army.map((x) => x.unit)).toContain('persian-army');
    expect(unit('persian-army').sizes['1']).toMatchObject({ land: 0 });
    expect(d.setup.some((x) => land(x.at)?.country === 'near-east')).toBe(false);
  });

  it('victory: 15 points ends the game; the Western Allies score nothing and win with the USSR', () => {
    const v = d.victory!;
    expect(v.target).toBe(15);
    expect(v.winsWith).toEqual({ WA: 'USSR' });
    expect(new Set(v.objectives.map((o) => o.power))).toEqual(new Set(['GER', 'USSR']));
    const byName = (n: string) => v.objectives.find((o) => o.name === n)!;
    expect(byName('Long War')).toMatchObject({ power: 'GER', kind: 'long-war', byTurn: { '11': 1, '12': 2 } });
    expect(byName('Annihilate the Wehrmacht')).toMatchObject({ power: 'USSR', kind: 'destroy-type', type: 'ARM', nation: 'GER', vp: 1 });
    expect(byName('Buffer Zone')).toMatchObject({ power: 'USSR', kind: 'buffer-zone', atLeast: 3, vp: 1 });
    expect(v.objectives.filter((o) => o.kind === 'industrial-might').map((o) => o.power).sort()).toEqual(['GER', 'USSR']);
  });

  it('weather: Snow turns fall inside the scenario', () => {
    expect(d.snowTurns?.length).toBeGreaterThan(0);
    for (const t of d.snowTurns ?? []) expect(t >= d.firstTurn && t <= d.lastTurn).toBe(true);
  });

  it('every objective that no rule states carries refs or estimates', () => {
    for (const o of d.victory!.objectives) expect(o.refs?.length || Object.keys(o.estimates ?? {}).length, o.id).toBeTruthy();
  });
});

describe('Scenario D units: values the examples state', () => {
  const p = load();
  const { unit } = lookups(p);

  it('6.2/6.5: the Soviet fronts of the Don Basin attack', () => {
    expect(unit('byelorussian-front')).toMatchObject({ nation: 'USSR', home: 'ussr', type: 'ARM' });
    expect(unit('byelorussian-front').sizes['3']).toBeDefined();
    expect(unit('guards-banner-army')).toMatchObject({ type: 'ARM' });
    expect(unit('guards-banner-army').sizes['2']).toBeDefined();
    // At their example Sizes: Byelorussian 3 + Western + Far Eastern (1, one damage destroys it) + Guards Banner 2 = 10.
    const at = { 'byelorussian-front': 3, 'western-front': 4, 'far-eastern-front': 1, 'guards-banner-army': 2, 'transbaikal-front': 1 } as const;
    expect(at['byelorussian-front'] + at['western-front'] + at['far-eastern-front'] + at['guards-banner-army']).toBe(10);
    const sides = Object.entries(at).map(([id, size]) => unit(id).sizes[String(size) as '1' | '2' | '3' | '4']!);
    // The five fronts total 19 Land Factors; the Far Eastern and Transbaikal white triangles add 4 to the German reply.
    expect(sides.reduce((n, s) => n + (s.land ?? 0), 0)).toBe(19);
    expect(unit('far-eastern-front').sizes['1']!.triangles!.land!.white + unit('transbaikal-front').sizes['1']!.triangles!.land!.white).toBe(4);
    // Only the Byelorussian Front and the Guards Banner Army are ARM (five ARM Size attacking).
    expect(Object.keys(at).filter((id) => unit(id).type === 'ARM').sort()).toEqual(['byelorussian-front', 'guards-banner-army']);
    expect(Object.keys(unit('cavalry').sizes)).toEqual(['1']);
  });

  it('6.2: the 1st Air Army brings 5 Land Factors; the Black Sea naval unit is Small', () => {
    expect(unit('1st-air-army')).toMatchObject({ type: 'AIR', sizes: { '2': { land: 5 } } });
    expect(Object.keys(unit('black-sea-fleet').sizes).every((s) => Number(s) <= 2)).toBe(true);
  });

  it('7.4/D.8: the Arctic Ocean LL delivers two to the USSR', () => {
    expect(unit('arctic-ocean-ll')).toMatchObject({ type: 'LL', llSea: 'arctic-ocean', llTo: 'USSR' });
    expect(unit('arctic-ocean-ll').sizes['2']).toBeDefined();
    // The AFA's North Atlantic LL feeds Great Britain itself: no recipient. The USA's (estimated, 7.6
    // example) delivers to the AFA, which in D is the same power (the Western Allies): nothing moves.
    expect(unit('atlantic-ll').llTo).toBeUndefined();
    expect(unit('liberty-ll').llTo).toBe('AFA');
  });

  it('the Baltic Sea Fleet is based in Leningrad, whose Big Port is on the Baltic', () => {
    const d = p.scenarios.scenarios.find((s) => s.id === 'D')!;
    expect(d.setup.find((x) => x.unit === 'baltic-sea-fleet')?.at).toBe('leningrad');
    expect(p.map.lands.find((l) => l.id === 'leningrad')!.ports).toContainEqual({ size: 'big', seas: ['baltic-sea'] });
  });
});

describe('Scenario D fields: broken packs are refused with the path and what to do', () => {
  it('unknown powers in trades, the Second Front, handovers, disbands, build areas and winsWith', () => {
    const raw = fresh();
    const d = rawD(raw);
    d.trades[0].to = 'ITA';
    d.resourceDrain[0].power = 'germany';
    d.handovers[0].to = 'AFA';
    d.disbands[0].power = 'OKW';
    d.buildAt = { UK: 'london' };
    d.victory.winsWith = { WA: 'SOVIETS' };
    const paths = issuesOf(raw).map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        `${D_PATH}.trades[0].to`,
        `${D_PATH}.resourceDrain[0].power`,
        `${D_PATH}.handovers[0].to`,
        `${D_PATH}.disbands[0].power`,
        `${D_PATH}.buildAt.UK`,
        `${D_PATH}.victory.winsWith.WA`,
      ]),
    );
    expectIssue(raw, `${D_PATH}.trades[0].to`, /'ITA' is not a power of this scenario: use one of GER, USSR, WA/);
  });

  it('a trade from an unknown country, or of more than the country has', () => {
    const raw = fresh();
    rawD(raw).trades[0].from = 'narnia';
    expectIssue(raw, `${D_PATH}.trades[0].from`, /unknown country 'narnia'/);
    const raw2 = fresh();
    rawD(raw2).trades[0].resources = 5;
    expectIssue(raw2, `${D_PATH}.trades[0]`, /trade at most what the country has/);
  });

  it('a handover of a country with no area in play', () => {
    const raw = fresh();
    rawD(raw).handovers[0].country = 'norway';
    expectIssue(raw, `${D_PATH}.handovers[0].country`, /'norway' has no land area in play.*add its areas to lands/);
  });

  it('a build area out of play, or not held by the power', () => {
    const raw = fresh();
    rawD(raw).buildAt.WA = 'paris';
    expectIssue(raw, `${D_PATH}.buildAt.WA`, /'paris' is not a land area in play/);
    const raw2 = fresh();
    rawD(raw2).buildAt.WA = 'berlin';
    expectIssue(raw2, `${D_PATH}.buildAt.WA`, /controlled by 'GER' at the start, not by 'WA'/);
  });

  it('a dormant army placed out of play or outside its country, and a permanent loss of an unknown unit', () => {
    const raw = fresh();
    const d = rawD(raw);
    d.dormant[0].army[0].at = 'ankara';
    d.dormant[0].army[1].at = 'egypt';
    d.permanentLoss = ['ferrari-army'];
    expectIssue(raw, `${D_PATH}.dormant[0].army[0].at`, /'ankara' is not a land area in play/);
    expectIssue(raw, `${D_PATH}.dormant[0].army[1].at`, /'egypt' is in 'egypt', not in 'near-east'/);
    expectIssue(raw, `${D_PATH}.permanentLoss[0]`, /unknown unit 'ferrari-army'/);
  });

  it('a dormant army in a neutral country', () => {
    const raw = fresh();
    rawD(raw).control.persia = 'neutral';
    expectIssue(raw, `${D_PATH}.dormant[0].country`, /use minors for a neutral country/);
  });

  it('objectives without the parameters their kind needs', () => {
    const raw = fresh();
    const objs = rawD(raw).victory.objectives as Raw[];
    const at = (id: string) => objs.findIndex((o) => o.id === id);
    const longWar = at('ger-long-war');
    const lebensraum = at('ger-lebensraum');
    const fortress = at('ger-fortress-europa');
    const annihilate = at('ussr-annihilate-the-wehrmacht');
    delete objs[longWar]!.byTurn;
    delete objs[lebensraum]!.atLeast;
    delete objs[fortress]!.countries;
    delete objs[annihilate]!.type;
    const o = `${D_PATH}.victory.objectives`;
    expectIssue(raw, `${o}[${longWar}].byTurn`, /a 'long-war' objective needs byTurn/);
    expectIssue(raw, `${o}[${lebensraum}].atLeast`, /a 'control-count' objective needs atLeast/);
    expectIssue(raw, `${o}[${fortress}].countries`, /a 'deny' objective needs countries/);
    expectIssue(raw, `${o}[${annihilate}].type`, /a 'destroy-type' objective needs type/);
  });

  it('objective areas out of play, a non-Factory area in Five Year Plan, an unreachable count, a power that only wins with another', () => {
    const raw = fresh();
    const objs = rawD(raw).victory.objectives as Raw[];
    const at = (id: string) => objs.findIndex((o) => o.id === id);
    const leb = at('ger-lebensraum');
    const fyp = at('ussr-five-year-plan');
    objs[leb]!.areas = ['tokyo', 'moscow'];
    objs[leb]!.atLeast = 3;
    objs[fyp]!.areas = ['archangel'];
    objs.push({ id: 'wa-second-front', name: 'Second Front', power: 'WA', kind: 'deny', countries: ['germany'], vp: 1 });
    const o = `${D_PATH}.victory.objectives`;
    expectIssue(raw, `${o}[${leb}].areas[0]`, /'tokyo' is not a land area in play/);
    expectIssue(raw, `${o}[${leb}].atLeast`, /more than the 2 areas listed/);
    expectIssue(raw, `${o}[${fyp}].areas[0]`, /'archangel' has no Factory/);
    expectIssue(raw, `${o}[${objs.length - 1}].power`, /'WA' wins only with 'USSR' \(winsWith\) and scores no points/);
  });

  it('Long War turns outside the scenario, and Snow turns outside it', () => {
    const raw = fresh();
    const d = rawD(raw);
    const lw = (d.victory.objectives as Raw[]).findIndex((o) => o.id === 'ger-long-war');
    d.victory.objectives[lw].byTurn = { '13': 3 };
    d.snowTurns = [2, 4, 4];
    expectIssue(raw, `${D_PATH}.victory.objectives[${lw}].byTurn["13"]`, /turn 13 is outside turns 3-12/);
    expectIssue(raw, `${D_PATH}.snowTurns[0]`, /turn 2 is outside turns 3-12/);
    expectIssue(raw, `${D_PATH}.snowTurns[2]`, /turn 4 is listed twice/);
  });

  it('a Lend Lease recipient on a unit that is not LL, and an LL that gives to its own nation', () => {
    const raw = fresh();
    const units = raw.units.units as Raw[];
    const lw = units.findIndex((u) => u.id === 'luftwaffe');
    const ll = units.findIndex((u) => u.id === 'arctic-ocean-ll');
    units[lw]!.llTo = 'USSR';
    units[ll]!.llTo = 'AFA';
    expectIssue(raw, `$.units.units[${lw}].llTo`, /only an LL unit has a Lend Lease recipient; 'luftwaffe' is AIR: remove llTo/);
    expectIssue(raw, `$.units.units[${ll}].llTo`, /gives to another major power, not its own \(AFA\)/);
  });

  it('a Future Addition that is also set up, or belongs to another power', () => {
    const raw = fresh();
    const fa = rawD(raw).futureAdditions;
    fa.GER.push({ unit: 'army-group-center', size: 2 });
    fa.USSR.push({ unit: 'he-177s', size: 2 });
    const paths = issuesOf(raw);
    const n = fa.GER.length - 1;
    expect(paths.find((i) => i.path === `${D_PATH}.futureAdditions.GER[${n}].unit`)?.message).toMatch(/already placed/);
    expect(paths.find((i) => i.path === `${D_PATH}.futureAdditions.USSR[${fa.USSR.length - 1}].unit`)?.message).toMatch(/belongs to GER, which power 'USSR' does not run/);
  });
});
