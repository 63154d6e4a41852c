/**
 * The full game (A World in Conflict, Turns 1-15, five powers) in the bundled approximation pack: the
 * facts the rulebook states hold (1.11 markers and player splits, 3.1 wars, 1.5 control with Peking
 * Japanese and the rest of China the USA's, 3.2 declaration limits, 3.3 alignments, 7.2 entry, 7.5
 * trades, the 7.6 income example), every unit set up exists and stands where its power may be, every
 * estimate names a field, and the pack checker refuses broken full-game fields (wars, declarers on a
 * power at war, mayDeclare, 'declare-major' events, an alignment's 'with') with the JSON path.
 */
import { describe, expect, it } from 'vitest';
import { approximationPack } from '../src/pack/bundled.ts';
import type { ScenarioDef } from '../src/pack/schema.ts';
import { expectIssue, fresh, issuesOf, load, lookups, scenarioAt, type Raw } from './support/pack-fixtures.ts';

const { index: FULL_INDEX, path: FULL_PATH, raw: rawFull } = scenarioAt('full');

const POWERS = ['GER', 'JAP', 'AFA', 'USA', 'USSR'];
const ALL_BLITZ = ['free', 'air', 'land', 'naval', 'total'];
const NAVAL = new Set(['BB', 'CV', 'SUB', 'TRS', 'LL']);

describe('the bundled pack with the full game', () => {
  it('passes validation', () => {
    expect(issuesOf(approximationPack)).toEqual([]);
  });

  it('has a full-game scenario, and packs from 2.4 on name it', () => {
    expect(FULL_INDEX).toBeGreaterThanOrEqual(0);
    const p = load();
    const [major, minor] = p.pack.version.split('.').map(Number);
    expect(major === 2 && minor! >= 4, p.pack.version).toBe(true);
    expect(p.pack.title).toMatch(/full game/);
    expect(p.pack.description).toMatch(/full fifteen-turn game/);
  });
});

describe('the full game: facts the rulebook states', () => {
  const p = load();
  const g = p.scenarios.scenarios.find((s) => s.id === 'full') as ScenarioDef;
  const { land, unit, landsOf } = lookups(p);
  const sideOf = (pw: string) => g.powers.find((x) => x.id === pw)?.side;
  const powerOfNation = (n: string) => g.powers.find((x) => (x.nations as string[]).includes(n))!.id;

  it('runs Turns 1-15 with Germany and Japan (Axis) against the AFA, the USA and the USSR (Allies), each its own power', () => {
    expect(g).toMatchObject({ name: 'A World in Conflict (full game)', firstTurn: 1, lastTurn: 15 });
    expect(g.powers).toEqual([
      { id: 'GER', name: 'Germany', side: 'Axis', nations: ['GER'] },
      { id: 'JAP', name: 'Japan', side: 'Axis', nations: ['JAP'] },
      { id: 'AFA', name: expect.any(String), side: 'Allies', nations: ['AFA'] },
      { id: 'USA', name: expect.any(String), side: 'Allies', nations: ['USA'] },
      { id: 'USSR', name: expect.any(String), side: 'Allies', nations: ['USSR'] },
    ]);
    expect(g.victory?.target).toBe(15);
  });

  it('every Blitz option for all five; Germany starts with 1 saved Oil, every other marker at 0 (1.11); all the full rules switched on', () => {
    for (const pw of POWERS) expect(new Set(g.blitzChoice?.[pw]), pw).toEqual(new Set(ALL_BLITZ));
    expect(g.oil).toEqual({ GER: 1, JAP: 0, AFA: 0, USA: 0, USSR: 0 });
    expect(g).toMatchObject({ areaIncome: true, supply: true, seaCombat: true, portAttacks: true, setAside: true });
    // Everything is on the map: no off-map or fixed income, no scenario-only rules.
    expect(g.offMapIncome).toEqual({});
    for (const k of ['fixedIncome', 'japanEntry', 'frontier', 'offMapSupply', 'extraResources', 'destroyedConvoys', 'frozenControl', 'handovers', 'resourceDrain', 'buildAt'] as const) expect(g[k], k).toBeUndefined();
    // 1.11: units start on the map, in the Force Pool or in the Groups; nothing arrives on a schedule.
    expect(g.reinforcements).toEqual([]);
  });

  it('every land and sea of the map is in play, and every land has a controller', () => {
    expect([...g.lands].sort()).toEqual(p.map.lands.map((l) => l.id).sort());
    expect([...g.seas].sort()).toEqual(p.map.seas.map((s) => s.id).sort());
    expect(p.map.lands).toHaveLength(111);
    expect(p.map.seas).toHaveLength(27);
    for (const l of g.lands) expect(['neutral', ...POWERS], l).toContain(g.control[l]);
  });

  it("control: the map's flags (1.5); Peking Japanese and the rest of China the USA's; Poland the AFA's (3.1); Japan's empire; every minor neutral", () => {
    for (const l of g.lands) expect(g.control[l], l).toBe(land(l).control ?? 'neutral');
    expect(g.control['peking']).toBe('JAP');
    const china = landsOf('china');
    expect(china.length).toBeGreaterThan(1);
    for (const l of china.filter((x) => x !== 'peking')) expect(g.control[l], l).toBe('USA');
    expect(g.control['poland']).toBe('AFA');
    expect(g.control['malta']).toBe('AFA'); // map correction
    for (const c of ['japan', 'manchuria-korea']) for (const l of landsOf(c)) expect(g.control[l], l).toBe('JAP');
    expect(g.control['formosa']).toBe('JAP');
    for (const l of [...landsOf('germany'), ...landsOf('italy')]) expect(g.control[l], l).toBe('GER');
    for (const l of landsOf('ussr')) expect(g.control[l], l).toBe('USSR');
    for (const l of landsOf('usa')) expect(g.control[l], l).toBe('USA');
    expect(g.control['manila']).toBe('USA');
    // 1939, not E's December 1941: South-East Asia, the Dutch colonies and Mexico are neutral.
    for (const l of ['south-east-asia', 'borneo', 'java', 'hollandia', 'mexico', 'belgium-netherlands']) expect(g.control[l], l).toBe('neutral');
  });

  it('wars at the start (3.1): the AFA with Germany, Japan with China; the USA and USSR with nobody', () => {
    const key = (w: readonly string[]) => [...w].sort().join('|');
    const wars = (g.wars ?? []).map(key);
    expect(wars).toContain(key(['GER', 'AFA']));
    expect(wars).toContain(key(['JAP', 'china']));
    // China is allied with the USA, but Japan and the USA are not at war; nor is Japan with the AFA.
    expect(wars).not.toContain(key(['JAP', 'USA']));
    expect(wars).not.toContain(key(['JAP', 'AFA']));
    for (const w of g.wars ?? []) for (const x of ['USA', 'USSR']) expect(w, x).not.toContain(x);
    // Poland fights as the AFA's: it is AFA-controlled with the Polish Army, not a separate belligerent.
    expect(g.setup.find((x) => x.unit === 'polish-army')?.at).toBe('poland');
    expect(g.minors.map((m) => m.country)).not.toContain('china');
  });

  it('neutral majors: the USA (against Germany and Japan) and the USSR (against Germany) start in box 0, enter at 15 or on Turn 8 (7.2)', () => {
    const nm = g.neutralMajors!;
    expect(nm.powers).toEqual({ USA: { start: 0, against: ['GER', 'JAP'] }, USSR: { start: 0, against: ['GER'] } });
    expect(nm).toMatchObject({ warAt: 15, warTurn: 8, perTurn: 1 });
  });

  it('declarations (3.2): Germany on the USSR from Turn 5 or with Paris; Japan on the USA, USSR and AFA at any time; the USSR on anyone but Germany, Central Europe, Finland and Sweden; the USA on nobody', () => {
    const d = g.neutralMajors!.declarers!;
    expect(d).toContainEqual({ power: 'GER', on: 'USSR', fromTurn: 5, ifHeld: ['paris'] });
    for (const on of ['USA', 'USSR', 'AFA']) expect(d, on).toContainEqual({ power: 'JAP', on });
    expect(d.filter((x) => x.power === 'USA' || x.power === 'USSR')).toEqual([]);
    expect(g.neutralMajors!.mayDeclare?.['USSR']?.except).toEqual(['GER', 'central-europe', 'finland', 'sweden']);
    expect(g.neutralMajors!.mayDeclare?.['USA']).toBeUndefined();
    for (const c of ['central-europe', 'finland', 'sweden']) expect(p.map.countries.some((x) => x.id === c), c).toBe(true);
    expect(g.protectedMinors?.map((m) => [m.country, m.from])).toEqual([
      ['brazil', 'Allies'],
      ['chile', 'Allies'],
      ['mexico', 'Allies'],
      ['venezuela', 'Allies'],
    ]);
  });

  it('Neutral Entry (7.2): Japan declaring war on the AFA moves the USA +1; the stated examples are on the chart; the rest are marked estimates', () => {
    const ev = g.neutralMajors!.events;
    expect(ev.filter((e) => e.kind === 'declare-major' && e.power === 'JAP')).toEqual([expect.objectContaining({ by: 'Axis', on: ['AFA'], delta: { USA: 1 }, refs: ['7.2'] })]);
    expect(ev.filter((e) => e.kind === 'capture' && e.by === 'Axis' && e.lands === undefined)).toEqual([expect.objectContaining({ delta: { USA: 1, USSR: 1 } })]);
    expect(ev).toContainEqual(expect.objectContaining({ kind: 'capture', by: 'Allies', lands: ['western-germany'], delta: { USA: -2, USSR: -2 } }));
    expect(ev).toContainEqual(expect.objectContaining({ kind: 'declare-minor', by: 'Axis', delta: { USA: 1 } }));
    expect(ev.filter((e) => e.kind === 'capture' && e.once === true && (e.lands ?? []).join() === 'gibraltar')).toHaveLength(1);
    for (const e of ev) expect(e.refs?.includes('7.2') || e.estimates !== undefined, JSON.stringify(e)).toBe(true);
  });

  it('trades (7.5): Sweden and the USSR to Germany, the USA 1 Oil to Japan, Venezuela to the USA; the USA and USSR Oil ends at It\'s War! 10', () => {
    const t = (g.trades ?? []).map(({ refs: _r, estimates: _e, ...x }) => x);
    expect(t).toEqual(
      expect.arrayContaining([
        { from: 'sweden', to: 'GER', oil: 0, resources: 1 },
        { from: 'ussr', giver: 'USSR', to: 'GER', oil: 1, resources: 0, endsAtItsWar: 10 },
        { from: 'usa', giver: 'USA', to: 'JAP', oil: 1, resources: 0, endsAtItsWar: 10 },
        { from: 'venezuela', to: 'USA', oil: 1, resources: 0 },
      ]),
    );
    expect(t).toHaveLength(4);
  });

  it("the 7.6 example: the USA controls 4 Oil and 8 Resources at home, 1 Resource in China and 1 in Manila; with its trades, 4 Oil and 10 Resources", () => {
    const usa = g.lands.filter((l) => g.control[l] === 'USA').map(land);
    const sum = (ls: typeof usa, k: 'oil' | 'resources') => ls.reduce((n, l) => n + l[k], 0);
    const home = usa.filter((l) => l.country === 'usa');
    expect({ oil: sum(home, 'oil'), res: sum(home, 'resources') }).toEqual({ oil: 4, res: 8 });
    expect(sum(usa.filter((l) => l.country === 'china'), 'resources')).toBe(1);
    expect(sum(usa.filter((l) => l.country === 'philippines'), 'resources')).toBe(1);
    const trades = g.trades ?? [];
    const oil = sum(usa, 'oil') + trades.filter((x) => x.to === 'USA').reduce((n, x) => n + x.oil, 0) - trades.filter((x) => x.giver === 'USA').reduce((n, x) => n + x.oil, 0);
    expect({ oil, res: sum(usa, 'resources') }).toEqual({ oil: 4, res: 10 });
  });

  it('7.6: the AFA\'s Australia, Canada, India and South Africa are remote home countries (their income needs supply; cut off, an isolated ally), and no other country is', () => {
    const p = load();
    expect(p.map.countries.filter((c) => c.remoteHome).map((c) => c.id)).toEqual(['australia', 'canada', 'india', 'south-africa']);
    expect(p.map.countries.filter((c) => c.remoteHome).every((c) => c.homeOf === 'AFA')).toBe(true);
  });

  it('the checker refuses a remote home that is no major power\'s home country', () => {
    const raw = fresh();
    const i = (raw.map.countries as { id: string }[]).findIndex((c) => c.id === 'poland');
    raw.map.countries[i].remoteHome = true;
    expectIssue(raw, `$.map.countries[${i}].remoteHome`, /no major power's home country/);
  });

  it("the AFA's chart correction: its at-start income includes Poland's Resource", () => {
    expect(land('poland').resources).toBe(1);
    expect(g.control['poland']).toBe('AFA');
  });

  it('every neutral minor may be declared on, with its army set up inside it (none for the uncoded countries)', () => {
    const neutralCountries = new Set(g.lands.filter((l) => g.control[l] === 'neutral').map((l) => land(l).country));
    const minors = new Map(g.minors.map((m) => [m.country, m.army]));
    for (const c of neutralCountries) expect(minors.has(c), c).toBe(true);
    for (const [c, army] of minors) {
      for (const a of army) {
        expect(unit(a.unit).home, a.unit).toBe(c);
        if (c !== 'vichy-france') expect(land(a.at).country, a.unit).toBe(c);
      }
    }
    const army = (c: string) => minors.get(c)!.map((a) => a.unit);
    expect(army('mexico')).toEqual(['mexican-army']);
    expect(army('south-east-asia')).toEqual(['south-east-asia-army']);
    expect(army('iberia')).toContain('spanish-army');
    expect(army('turkey')).toContain('turkish-1st-army');
    expect(army('brazil')).toEqual(['brazilian-army']);
    // 1.2 gives Iceland and the Dutch colonies Borneo and Hollandia no unit code.
    for (const c of ['iceland', 'borneo', 'hollandia']) expect(army(c), c).toEqual([]);
  });

  it('alignments (3.3): the F triggers, Brazil and Mexico with the USA at war (their armies to the Force Pool unless an enemy is near), Argentina and Paraguay-Uruguay with an Axis power near, the Near East by supplied areas, South-East Asia with Japan at war with the AFA or the Axis holding Paris', () => {
    const a = (g.alignments ?? []).map(({ refs: _r, estimates: _e, ...x }) => x);
    expect(a).toContainEqual({ country: 'brazil', power: 'USA', when: 'at-war', poolUnlessNear: 4 });
    expect(a).toContainEqual({ country: 'mexico', power: 'USA', when: 'at-war', poolUnlessNear: 4 });
    for (const c of ['argentina', 'paraguay-uruguay']) for (const pw of ['GER', 'JAP']) expect(a).toContainEqual({ country: c, power: pw, when: 'near', range: 4 });
    expect(a).toContainEqual({ country: 'south-east-asia', power: 'JAP', when: 'at-war', with: 'AFA' });
    expect(a).toContainEqual({ country: 'south-east-asia', power: 'JAP', when: 'holds', lands: ['paris'], count: 1 });
    expect(a).toContainEqual({ country: 'central-europe', power: 'GER', when: 'at-war', with: 'USSR' });
    expect(a).toContainEqual({ country: 'finland', power: 'GER', when: 'at-war', with: 'USSR' });
    expect(a).toContainEqual({ country: 'turkey', power: 'GER', when: 'holds', lands: ['caucasus-mountains'], count: 1, own: true });
    expect(a).toContainEqual({ country: 'iberia', power: 'GER', when: 'holds', lands: ['gibraltar'], count: 1, own: true });
    expect(a).toContainEqual({ country: 'balkans', power: 'GER', when: 'none-touching', sea: 'mediterranean' });
    expect(a).toContainEqual({ country: 'balkans', power: 'AFA', when: 'none-touching', sea: 'mediterranean' });
    // The Near East: every land area bordering it, recomputed (all are in play in the full game).
    const ne = a.find((x) => x.country === 'near-east')!;
    const inNE = new Set(landsOf('near-east'));
    const around = new Set(p.map.borders.flatMap(([x, y]) => (inNE.has(x) && !inNE.has(y) ? [y] : inNE.has(y) && !inNE.has(x) ? [x] : [])));
    expect(ne).toMatchObject({ power: 'GER', when: 'holds', count: 2, own: true, supplied: true });
    expect([...ne.lands!].sort()).toEqual([...around].sort());
    // Japan and the AFA are not at war at the start, so South-East Asia's trigger is still to come.
    expect((g.wars ?? []).some((w) => w.includes('JAP') && w.includes('AFA'))).toBe(false);
  });

  it('China: entry by two of Formosa, Manila and South-East Asia (5.2); its Resources build Chinese units only (7.8); its units are USA counters', () => {
    expect(g.chinaEntry).toMatchObject({ country: 'china', home: 'china', openers: ['formosa', 'manila', 'south-east-asia'], need: 2 });
    expect(g.restrictedIncome?.map((r) => [r.country, r.home])).toEqual([['china', 'china']]);
    const chinese = g.setup.filter((x) => unit(x.unit).home === 'china');
    expect(chinese.length).toBeGreaterThan(0);
    for (const x of chinese) {
      expect(unit(x.unit).nation, x.unit).toBe('USA');
      expect(land(x.at).country, x.unit).toBe('china');
    }
    expect(g.setup.find((x) => x.unit === 'chinese-warlords')?.at).toBe('chungking'); // 7.8 example
  });

  it('Partisans: the AFA rolls; a 1 is China (7.1); every face names countries with land in play', () => {
    const pt = g.partisans!;
    expect(pt.roller).toBe('AFA');
    expect(pt.table['1']).toEqual(['china']);
    expect(Object.keys(pt.table).sort()).toEqual(['1', '2', '3', '4', '5', '6']);
    for (const list of Object.values(pt.table)) for (const c of list) expect(g.lands.some((l) => land(l).country === c), c).toBe(true);
  });

  it('capitals: France falls with Paris, Italy with Rome (3.4)', () => {
    expect(g.capitals).toEqual({ france: 'paris', italy: 'rome' });
  });

  it('player splits for 2 to 5 players as 1.11 recommends', () => {
    expect(g.splits).toEqual({
      '2': [['GER', 'JAP'], ['AFA', 'USA', 'USSR']],
      '3': [['GER', 'JAP'], ['AFA', 'USA'], ['USSR']],
      '4': [['GER'], ['JAP'], ['AFA', 'USA'], ['USSR']],
      '5': [['GER'], ['JAP'], ['AFA'], ['USA'], ['USSR']],
    });
  });

  it('Snow turns as in Scenario F', () => {
    const f = p.scenarios.scenarios.find((s) => s.id === 'F')!;
    expect(g.snowTurns).toEqual(f.snowTurns);
  });

  it('every unit set up exists, belongs to a power of the game, and stands in an area its side controls, its own or (outside home countries) an ally\'s (1.3)', () => {
    expect(g.setup.length).toBeGreaterThan(50);
    for (const x of g.setup) {
      const u = unit(x.unit);
      expect(u, x.unit).toBeDefined();
      expect(String(x.size) in u.sizes, `${x.unit} size ${x.size}`).toBe(true);
      expect(x.at.startsWith('sea:'), x.unit).toBe(false);
      const owner = powerOfNation(u.nation);
      const holder = g.control[x.at]!;
      expect(holder, `${x.unit} in ${x.at}`).not.toBe('neutral');
      expect(sideOf(holder), `${x.unit} in ${x.at}`).toBe(sideOf(owner));
      // 1.3: a power may not stack in an ally's area inside a major power's home country.
      if (holder !== owner) expect(p.map.countries.find((c) => c.id === land(x.at).country)?.homeOf, `${x.unit} in ${x.at}`).toBeUndefined();
    }
    // Every power has units on the map.
    for (const pw of POWERS) expect(g.setup.some((x) => powerOfNation(unit(x.unit).nation) === pw), pw).toBe(true);
  });

  it('naval units start in ports that can take them: Big counters in Big Ports, Small Ports at most Size 2 (1.3)', () => {
    const navalAt = new Map<string, { unit: string; size: number }[]>();
    for (const x of g.setup.filter((y) => NAVAL.has(unit(y.unit).type))) navalAt.set(x.at, [...(navalAt.get(x.at) ?? []), x]);
    expect(navalAt.size).toBeGreaterThan(10);
    for (const [at, list] of navalAt) {
      const ports = land(at).ports;
      expect(ports.length, at).toBeGreaterThan(0);
      if (ports.some((pt) => pt.size === 'big')) continue;
      for (const x of list) expect(x.size, `${x.unit} in the Small Port of ${at}`).toBeLessThanOrEqual(2);
      expect(list.reduce((n, x) => n + x.size, 0), `naval Size in the Small Ports of ${at}`).toBeLessThanOrEqual(2 * ports.length);
    }
  });

  it('Islands hold at most Size 2 of land units and Size 2 of air units (1.3)', () => {
    const islands = g.setup.filter((x) => land(x.at).island);
    expect(islands.length).toBeGreaterThan(3);
    for (const at of new Set(islands.map((x) => x.at))) {
      const here = islands.filter((x) => x.at === at);
      const size = (pred: (t: string) => boolean) => here.filter((x) => pred(unit(x.unit).type)).reduce((n, x) => n + x.size, 0);
      expect(size((t) => !NAVAL.has(t) && t !== 'AIR'), `land Size on ${at}`).toBeLessThanOrEqual(2);
      expect(size((t) => t === 'AIR'), `air Size on ${at}`).toBeLessThanOrEqual(2);
    }
  });

  it('each counter appears once: set up, a minor army, Force Pool or a Group of a Weapons Development Chart, always of the power that runs it (7.3: a minor\'s unit on another power\'s chart excepted)', () => {
    const all = [
      ...g.setup.map((x) => [x.unit, undefined] as const),
      ...g.minors.flatMap((m) => m.army.map((x) => [x.unit, undefined] as const)),
      ...g.forcePool.map((x) => [x.unit, undefined] as const),
      ...Object.entries(g.weaponCharts ?? {}).flatMap(([pw, c]) => c.groups.flatMap((gr) => gr.units.map((x) => [x.unit, pw] as const))),
    ];
    const ids = all.map(([u]) => u);
    expect(ids.filter((u, i) => ids.indexOf(u) !== i)).toEqual([]);
    const minor = (u: string) => !p.map.countries.some((c) => c.id === unit(u).home && c.homeOf !== undefined);
    for (const [u, pw] of all) if (pw && !minor(u)) expect(powerOfNation(unit(u).nation), u).toBe(pw);
    // 7.3's example: the Polish Air Force is on the USSR's chart, in Group 3; Poland's ally, the AFA, builds it.
    expect(g.weaponCharts!.USSR!.groups[2]!.units.map((x) => x.unit)).toContain('polish-air-force');
    expect(powerOfNation(unit('polish-air-force').nation)).toBe('AFA');
    // 7.3: Japan and the USSR add fewer a turn from Group 4 on (the USSR one, as the example has it).
    expect(g.weaponCharts!.USSR!.groups.map((x) => x.picks)).toEqual([2, 2, 2, 1]);
    expect(g.weaponCharts!.JAP!.groups.map((x) => x.picks)).toEqual([2, 2, 2, 1]);
    // 1.11: one chart per major power, in place of the short scenarios' separate lists.
    expect(g.futureAdditions).toBeUndefined();
    expect(g.research).toBeUndefined();
    for (const pw of POWERS) {
      expect(g.weaponCharts?.[pw]?.groups.length, pw).toBeGreaterThanOrEqual(3);
      expect(g.forcePool.some((x) => powerOfNation(unit(x.unit).nation) === pw), pw).toBe(true);
    }
  });

  it('victory: objectives for all five powers, the named ones from the Victory Cards, and only kinds the schema knows', () => {
    const o = g.victory!.objectives;
    const names = (pw: string) => o.filter((x) => x.power === pw).map((x) => x.name);
    for (const pw of POWERS) expect(names(pw).length, pw).toBeGreaterThanOrEqual(3);
    expect(names('GER')).toEqual(expect.arrayContaining(['Control Industrial Might', 'Long War', 'Lebensraum', 'Fortress Europa']));
    expect(names('JAP')).toEqual(expect.arrayContaining(['Long War', 'Co-Prosperity Sphere', 'Victory in the CBI', 'Tenno-Zan']));
    expect(names('AFA')).toEqual(expect.arrayContaining(['Mediterranean Influence']));
    expect(names('USA')).toEqual(expect.arrayContaining(['Second Front', 'Pacific Domination', 'Bring Democracy to Asia', 'Arsenal of Democracy']));
    expect(names('USSR')).toEqual(expect.arrayContaining(['Annihilate the Wehrmacht', 'Buffer Zone']));
    for (const pw of ['GER', 'JAP']) expect(o.find((x) => x.power === pw && x.kind === 'long-war')?.byTurn, pw).toMatchObject({ '11': 1, '12': 2 });
    // Every area an objective counts is in play.
    for (const x of o) for (const l of x.areas ?? []) expect(g.lands, `${x.id} ${l}`).toContain(l);
  });

  it('the new counters exist, with their estimates', () => {
    for (const id of ['mexican-army', 'soviet-pacific-fleet']) {
      const u = unit(id);
      expect(u, id).toBeDefined();
      expect(Object.keys(u.estimates ?? {}).length, id).toBeGreaterThan(0);
    }
    expect(unit('mexican-army')).toMatchObject({ nation: 'USA', home: 'mexico' });
    expect(g.setup.find((x) => x.unit === 'soviet-pacific-fleet')?.at).toBe('vladivostok');
  });

  it('every placement, minor army and Force Pool entry carries refs or estimates, and every estimate key names a field', () => {
    const entries = [...g.setup, ...g.minors.flatMap((m) => m.army), ...g.forcePool];
    const bare = entries.filter((x) => !x.refs?.length && !Object.keys(x.estimates ?? {}).length).map((x) => x.unit);
    expect(bare).toEqual([]);
    const has = (obj: unknown, key: string): boolean =>
      key.split('.').reduce<{ ok: boolean; cur: unknown }>(
        (acc, seg) => (acc.ok && acc.cur !== null && typeof acc.cur === 'object' && Object.prototype.hasOwnProperty.call(acc.cur, seg) ? { ok: true, cur: (acc.cur as Record<string, unknown>)[seg] } : { ok: false, cur: undefined }),
        { ok: true, cur: obj },
      ).ok;
    const bad: string[] = [];
    let marked = 0;
    const walk = (v: unknown, path: string): void => {
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
      else if (v !== null && typeof v === 'object') {
        const obj = v as Record<string, unknown>;
        const est = obj['estimates'] as Record<string, string> | undefined;
        for (const k of Object.keys(est ?? {})) {
          marked++;
          if (k === 'refs' || k === 'estimates' || !has(obj, k)) bad.push(`${path}.estimates.${k}`);
        }
        for (const [k, x] of Object.entries(obj)) if (k !== 'estimates' && k !== 'refs') walk(x, `${path}.${k}`);
      }
    };
    walk(g, 'full');
    for (const id of ['mexican-army', 'soviet-pacific-fleet']) walk(unit(id), id);
    expect(marked).toBeGreaterThan(100);
    expect(bad).toEqual([]);
  });
});

describe('full-game fields: broken packs are refused with the path and what to do', () => {
  it("alignments: a 'near' trigger needs a range, only 'near' has one, only 'holds' asks for supplied areas", () => {
    const raw = fresh();
    const al = rawFull(raw).alignments as Raw[];
    const i = al.findIndex((a) => a.when === 'near');
    const j = al.findIndex((a) => a.when === 'at-war');
    delete al[i]!.range;
    al[j]!.range = 3;
    al[j]!.supplied = true;
    expectIssue(raw, `${FULL_PATH}.alignments[${i}].range`, /needs range/);
    expectIssue(raw, `${FULL_PATH}.alignments[${j}].range`, /only a 'near' alignment has a range/);
    expectIssue(raw, `${FULL_PATH}.alignments[${j}].supplied`, /only a 'holds' alignment/);
  });

  it('colonies name other minors of the scenario and an Axis power; Partisan bothSides names a country in play', () => {
    const raw = fresh();
    const minors = rawFull(raw).minors as Raw[];
    const i = minors.findIndex((m) => m.colonies);
    minors[i]!.colonies.countries = ['narnia'];
    minors[i]!.colonies.axis = 'AFA';
    rawFull(raw).partisans.bothSides = ['atlantis'];
    expectIssue(raw, `${FULL_PATH}.minors[${i}].colonies.countries[0]`, /not another neutral minor/);
    expectIssue(raw, `${FULL_PATH}.minors[${i}].colonies.axis`, /not an Axis power/);
    expect(issuesOf(raw).some((x) => x.path.startsWith(`${FULL_PATH}.partisans.bothSides[0]`))).toBe(true);
  });

  it('5.2 China entry: a nation\'s own openers must be land areas in play', () => {
    const raw = fresh();
    rawFull(raw).chinaEntry.own = [{ nation: 'USSR', lands: ['harbin', 'atlantis'] }];
    expectIssue(raw, `${FULL_PATH}.chinaEntry.own[0].lands[1]`, /unknown land area 'atlantis'/);
  });

  it("scenario ids: A..F or 'full', nothing else", () => {
    const raw = fresh();
    rawFull(raw).id = 'G';
    expectIssue(raw, `${FULL_PATH}.id`, /A\.\.F .* or full/);
  });

  it('wars: an unknown name, a home country for its power, a pair on one side, a power paired with itself, a neutral major, a neutral minor, a pair listed twice', () => {
    const raw = fresh();
    rawFull(raw).wars = [
      ['GER', 'AFA'],
      ['GER', 'atlantis'],
      ['germany', 'AFA'],
      ['GER', 'JAP'],
      ['AFA', 'AFA'],
      ['GER', 'USSR'],
      ['JAP', 'south-east-asia'],
      ['AFA', 'GER'],
    ];
    expectIssue(raw, `${FULL_PATH}.wars[1][1]`, /'atlantis' is neither a power of this scenario .* nor a country of map.json/);
    expectIssue(raw, `${FULL_PATH}.wars[2][0]`, /'germany' is a home country of GER: name the power/);
    expectIssue(raw, `${FULL_PATH}.wars[3]`, /'GER' and 'JAP' are both Axis/);
    expectIssue(raw, `${FULL_PATH}.wars[4]`, /'AFA' is paired with itself/);
    expectIssue(raw, `${FULL_PATH}.wars[5][1]`, /'USSR' is a neutral major .* at war with nobody at the start/);
    expectIssue(raw, `${FULL_PATH}.wars[6][1]`, /'south-east-asia' is a neutral minor of this scenario/);
    expectIssue(raw, `${FULL_PATH}.wars[7]`, /the war 'AFA'-'GER' is listed more than once/);
  });

  it('declarers: a neutral major as declarer, a declaration on a power already at war with the declarer', () => {
    const raw = fresh();
    const d = rawFull(raw).neutralMajors.declarers;
    d.push({ power: 'USA', on: 'JAP' }, { power: 'GER', on: 'AFA' });
    const n = d.length;
    expectIssue(raw, `${FULL_PATH}.neutralMajors.declarers[${n - 2}].power`, /'USA' is a neutral major: .*mayDeclare/);
    expectIssue(raw, `${FULL_PATH}.neutralMajors.declarers[${n - 1}].on`, /'GER' and 'AFA' are at war from the start \(wars\)/);
  });

  it('7.3 weaponCharts: an unknown power, an unknown unit, a missing Size, another power\'s unit, a counter twice, a chart beside the old lists, an empty Group', () => {
    const raw = fresh();
    const wc = rawFull(raw).weaponCharts;
    wc.ITA = { groups: [{ picks: 1, units: [{ unit: 'bismarck', size: 2 }] }] };
    const ussr = wc.USSR.groups[0].units;
    ussr.push({ unit: 'atlantis-army', size: 1 }, { unit: 'pvo', size: 4 }, { unit: 'luftwaffe', size: 1 });
    const n = ussr.length;
    rawFull(raw).futureAdditions = { USA: [{ unit: 'subpac', size: 2 }] };
    rawFull(raw).research = { AFA: [[{ unit: 'desert-air-force', size: 2 }]] };
    expectIssue(raw, `${FULL_PATH}.weaponCharts.ITA`, /'ITA' is not a power of this scenario/);
    expectIssue(raw, `${FULL_PATH}.weaponCharts.ITA.groups[0].units[0].unit`, /'bismarck' is already placed at .*weaponCharts\.GER/);
    expectIssue(raw, `${FULL_PATH}.weaponCharts.USSR.groups[0].units[${n - 3}].unit`, /unknown unit 'atlantis-army'/);
    expectIssue(raw, `${FULL_PATH}.weaponCharts.USSR.groups[0].units[${n - 2}].size`, /'pvo' has no Size-4 side/);
    expectIssue(raw, `${FULL_PATH}.weaponCharts.USSR.groups[0].units[${n - 1}].unit`, /belongs to GER, which power 'USSR' does not run: put it on the chart of the power that runs GER/);
    expectIssue(raw, `${FULL_PATH}.research.AFA`, /power 'AFA' has a Weapons Development Chart \(weaponCharts\.AFA\).*drop its research entry/);
    expectIssue(raw, `${FULL_PATH}.futureAdditions.USA`, /drop its futureAdditions entry/);
    const empty = fresh();
    rawFull(empty).weaponCharts.GER.groups.push({ picks: 1, units: [] });
    expectIssue(empty, `${FULL_PATH}.weaponCharts.GER.groups[4].units`, /a Group holds at least one unit/);
  });

  it('declarers: without wars (Scenario F) a declaration on a power that is not neutral is still refused', () => {
    const raw = fresh();
    const { raw: rawF, path: F_PATH } = scenarioAt('F');
    rawF(raw).neutralMajors.declarers.push({ power: 'GER', on: 'AFA' });
    expectIssue(raw, `${F_PATH}.neutralMajors.declarers[2].on`, /'AFA' is not a neutral major of this scenario/);
    // The same declaration in the full game is fine when the two are not at war at the start.
    const ok = fresh();
    rawFull(ok).neutralMajors.declarers.push({ power: 'AFA', on: 'JAP' });
    expect(issuesOf(ok).filter((i) => i.path.includes('declarers'))).toEqual([]);
  });

  it('mayDeclare: a power that is not a neutral major, an unknown exception, the power itself', () => {
    const raw = fresh();
    const md = rawFull(raw).neutralMajors.mayDeclare;
    md.JAP = { except: [] };
    md.USSR.except.push('atlantis', 'USSR');
    const n = md.USSR.except.length;
    expectIssue(raw, `${FULL_PATH}.neutralMajors.mayDeclare.JAP`, /'JAP' is not a neutral major of this scenario/);
    expectIssue(raw, `${FULL_PATH}.neutralMajors.mayDeclare.USSR.except[${n - 2}]`, /'atlantis' is neither a power of this scenario .* nor a country of map.json/);
    expectIssue(raw, `${FULL_PATH}.neutralMajors.mayDeclare.USSR.except[${n - 1}]`, /'USSR' cannot declare war on itself/);
  });

  it("'declare-major' events: a declarer of the other side, a target of the declarer's own side, an empty on, power and on on another kind", () => {
    const raw = fresh();
    const ev = rawFull(raw).neutralMajors.events;
    ev.push(
      { kind: 'declare-major', by: 'Axis', power: 'AFA', on: ['GER'], delta: { USA: 1 } },
      { kind: 'declare-major', by: 'Axis', power: 'JAP', on: [], delta: { USA: 1 } },
      { kind: 'capture', by: 'Axis', power: 'JAP', on: ['AFA'], delta: { USA: 1 } },
      { kind: 'declare-major', by: 'Axis', on: ['ITA'], delta: { USA: 1 } },
    );
    const n = ev.length;
    const at = (i: number) => `${FULL_PATH}.neutralMajors.events[${i}]`;
    expectIssue(raw, `${at(n - 4)}.power`, /'AFA' is not of the Axis/);
    expectIssue(raw, `${at(n - 4)}.on[0]`, /'GER' is of the Axis, the declarer's own side/);
    expectIssue(raw, `${at(n - 3)}.on`, /on names no power/);
    expectIssue(raw, `${at(n - 2)}.power`, /only a 'declare-major' event names the declaring power/);
    expectIssue(raw, `${at(n - 2)}.on`, /only a 'declare-major' event names the powers declared on/);
    expectIssue(raw, `${at(n - 1)}.on[0]`, /power declared on 'ITA' is not a power of this scenario/);
  });

  it("alignments: 'with' a power already at war with the aligner at the start, and 'at-war' alone for a power in wars", () => {
    const raw = fresh();
    const al = rawFull(raw).alignments;
    al.push({ country: 'iberia', power: 'GER', when: 'at-war', with: 'AFA' }, { country: 'south-east-asia', power: 'JAP', when: 'at-war' });
    const n = al.length;
    expectIssue(raw, `${FULL_PATH}.alignments[${n - 2}].with`, /'AFA' is not a neutral major of this scenario nor such a power/);
    expectIssue(raw, `${FULL_PATH}.alignments[${n - 1}].when`, /'JAP' is at war from the start \(it is in a pair of wars\)/);
  });
});
