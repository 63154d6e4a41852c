/**
 * Scenario F (The Rise and Fall of Fascism) in the bundled approximation pack: the facts the rulebook
 * states for F hold (the seas and lands in play recomputed from the map, the trades, the USA's stated
 * income, the neutral majors, the declaration limits, the player splits), and the pack checker refuses
 * broken Scenario F fields (neutral majors, trades by a major power, alignments, protected minors,
 * Partisans, the Japan announcement, capitals, splits) with the JSON path and a message saying what to do.
 */
import { describe, expect, it } from 'vitest';
import { approximationPack } from '../src/pack/bundled.ts';
import type { ScenarioDef } from '../src/pack/schema.ts';
import { expectIssue, fresh, issuesOf, load, lookups, naval, scenarioAt } from './support/pack-fixtures.ts';

const { index: F_INDEX, path: F_PATH, raw: rawF } = scenarioAt('F');

/** F, Map Areas in Play: the eleven seas named besides those within two moves of London. */
const NAMED_SEAS = ['arabian-sea', 'azanian-sea', 'baltic-sea', 'black-sea', 'bering-sea', 'brazilian-coast', 'cape-basin', 'gulf-of-alaska', 'gulf-of-guinea', 'mozambique-channel', 'south-atlantic'];
const STATED_OUT = ['mexico', 'panama', 'western-canada', 'west-coast'];
const ALL_BLITZ = ['free', 'air', 'land', 'naval', 'total'];

describe('the bundled pack with Scenario F', () => {
  it('passes validation', () => {
    expect(issuesOf(approximationPack)).toEqual([]);
  });

  it('has a Scenario F, and packs from 2.4 on name it', () => {
    expect(F_INDEX).toBeGreaterThanOrEqual(0);
    const p = load();
    const [major, minor] = p.pack.version.split('.').map(Number);
    expect(major === 2 && minor! >= 4, p.pack.version).toBe(true);
    expect(p.pack.title).toMatch(/\bF\b/);
    expect(p.pack.description).toMatch(/Rise and Fall of Fascism/);
  });
});

describe('Scenario F: facts the rulebook states', () => {
  const p = load();
  const f = p.scenarios.scenarios.find((s) => s.id === 'F') as ScenarioDef;
  const { land, unit, landsOf } = lookups(p);

  it('runs from Turn 1 to 15 with Germany against the AFA, the USA and the USSR', () => {
    expect(f).toMatchObject({ name: 'The Rise and Fall of Fascism', firstTurn: 1, lastTurn: 15 });
    expect(f.powers).toEqual([
      { id: 'GER', name: expect.any(String), side: 'Axis', nations: ['GER'] },
      { id: 'AFA', name: expect.any(String), side: 'Allies', nations: ['AFA'] },
      { id: 'USA', name: expect.any(String), side: 'Allies', nations: ['USA'] },
      { id: 'USSR', name: expect.any(String), side: 'Allies', nations: ['USSR'] },
    ]);
    expect(f.victory?.target).toBe(15);
  });

  it('every Blitz option for all four; Germany starts with 1 saved Oil, the others none (1.11)', () => {
    for (const pw of ['GER', 'AFA', 'USA', 'USSR']) expect(new Set(f.blitzChoice?.[pw]), pw).toEqual(new Set(ALL_BLITZ));
    expect(f.oil).toEqual({ GER: 1, AFA: 0, USA: 0, USSR: 0 });
    expect(f).toMatchObject({ seaCombat: true, supply: true, areaIncome: true, portAttacks: true });
  });

  it('the seas in play: within two naval moves of London, the eleven named seas, and the USA East Coast the stated income needs', () => {
    const dist = naval(p.map, 'london');
    expect(dist.get('western-approaches')).toBe(1);
    const near = p.map.seas.map((s) => s.id).filter((s) => (dist.get(s) ?? Infinity) <= 2);
    expect(near.sort()).toEqual(['gulf-of-guinea', 'mediterranean', 'north-atlantic', 'north-sea', 'western-approaches']);
    for (const s of NAMED_SEAS) expect(p.map.seas.some((x) => x.id === s), s).toBe(true);
    // The USA East Coast is 3 moves away on this map, but the Central Plains and the Atlantic Seaboard
    // (F's stated USA income) touch no other sea.
    expect(dist.get('usa-east-coast')).toBe(3);
    for (const l of ['central-plains', 'atlantic-seaboard']) expect(land(l).coast).toEqual(['usa-east-coast']);
    const expected = new Set([...near, ...NAMED_SEAS, 'usa-east-coast']);
    expect([...f.seas].sort()).toEqual([...expected].sort());
    expect(f.seas).not.toContain('arctic-ocean');
    expect(f.estimates?.['seas']).toMatch(/USA East Coast/);
  });

  it('the lands in play touch those seas (less Mexico, Panama, Western Canada, the West Coast, India and Hokkaido), plus the land-locked German-held and Soviet areas', () => {
    const touching = p.map.lands.filter((l) => l.coast.some((s) => f.seas.includes(s)));
    const expected = touching.filter((l) => !STATED_OUT.includes(l.id) && l.country !== 'india' && l.id !== 'hokkaido').map((l) => l.id);
    const landLocked = p.map.lands.filter((l) => l.coast.length === 0 && (l.country === 'ussr' || l.country === 'germany' || l.control === 'GER')).map((l) => l.id);
    expect([...f.lands].sort()).toEqual([...expected, ...landLocked].sort());
    // The exceptions matter: each of them touches a sea in play.
    for (const l of [...STATED_OUT, 'hokkaido']) expect(land(l).coast.some((s) => f.seas.includes(s)), l).toBe(true);
    expect(landsOf('india').some((l) => land(l).coast.some((s) => f.seas.includes(s)))).toBe(true);
    for (const l of [...STATED_OUT, 'hokkaido', ...landsOf('india')]) expect(f.lands, l).not.toContain(l);
    expect(landLocked.sort()).toEqual(['austria-czechoslovakia', 'irkutsk', 'moscow', 'novosibirsk', 'samarkand', 'stalingrad', 'urals', 'yakutsk']);
  });

  it("control: the map's start flags; Poland is the AFA's (3.1); every minor neutral", () => {
    for (const l of f.lands) expect(f.control[l], l).toBe(land(l).control ?? 'neutral');
    expect(f.control['poland']).toBe('AFA');
    expect(f.setup.find((x) => x.unit === 'polish-army')?.at).toBe('poland');
    for (const m of f.minors) for (const l of landsOf(m.country).filter((x) => f.lands.includes(x) && land(x).country === m.country)) expect(f.control[l], l).toBe('neutral');
  });

  it('every neutral minor in play may be declared on, with an army set up inside it', () => {
    const neutralCountries = new Set(f.lands.filter((l) => f.control[l] === 'neutral').map((l) => land(l).country));
    const minors = new Set(f.minors.map((m) => m.country));
    for (const c of neutralCountries) expect(minors.has(c), c).toBe(true);
    for (const m of f.minors) {
      for (const a of m.army) {
        expect(f.lands, a.unit).toContain(a.at);
        expect(unit(a.unit).home, a.unit).toBe(m.country);
      }
    }
    // The armies the text names.
    const army = (c: string) => f.minors.find((m) => m.country === c)!.army.map((a) => a.unit);
    expect(army('iberia')).toContain('spanish-army');
    expect(army('turkey')).toContain('turkish-1st-army');
    expect(f.minors.find((m) => m.country === 'turkey')!.army.find((a) => a.unit === 'turkish-1st-army')!.at).toBe('ankara');
    expect(army('brazil')).toEqual(['brazilian-army']);
    expect(unit('brazilian-army').nation).toBe('USA');
    expect(army('central-europe')).toEqual(['bhr-army']);
    expect(army('near-east')).toContain('persian-army');
  });

  it("the USA's in-play income is 4 Oil (3 Central Plains, Venezuela's trade) and 5 Resources (2 Central Plains, 3 Atlantic Seaboard)", () => {
    const usa = f.lands.filter((l) => f.control[l] === 'USA').map(land);
    const trades = (f.trades ?? []).filter((t) => t.to === 'USA');
    const oil = usa.reduce((n, l) => n + l.oil, 0) + trades.reduce((n, t) => n + t.oil, 0);
    const res = usa.reduce((n, l) => n + l.resources, 0) + trades.reduce((n, t) => n + t.resources, 0);
    expect({ oil, res }).toEqual({ oil: 4, res: 5 });
    expect(Object.fromEntries(usa.filter((l) => l.oil + l.resources > 0).map((l) => [l.id, [l.oil, l.resources]]))).toEqual({ 'central-plains': [3, 2], 'atlantic-seaboard': [0, 3] });
    expect(trades).toEqual([expect.objectContaining({ from: 'venezuela', oil: 1, resources: 0 })]);
    expect(f.offMapIncome).toEqual({});
    // Brazil's 1 Resource is in Sao Paulo, in play.
    expect(land('sao-paulo')).toMatchObject({ country: 'brazil', resources: 1 });
    expect(f.lands).toContain('sao-paulo');
  });

  it('trades: Sweden its Resource and the USSR 1 Oil to Germany (until It\'s War! 10), Venezuela its Oil to the USA', () => {
    const t = (f.trades ?? []).map(({ refs: _r, estimates: _e, ...x }) => x);
    expect(t).toEqual(
      expect.arrayContaining([
        { from: 'sweden', to: 'GER', oil: 0, resources: 1 },
        { from: 'ussr', giver: 'USSR', to: 'GER', oil: 1, resources: 0, endsAtItsWar: 10 },
        { from: 'venezuela', to: 'USA', oil: 1, resources: 0 },
      ]),
    );
    expect(t).toHaveLength(3);
  });

  it('neutral majors: the USA and USSR start in box 0 against Germany, enter at 15 or on Turn 8, +1 a turn', () => {
    const nm = f.neutralMajors!;
    expect(nm.powers).toEqual({ USA: { start: 0, against: ['GER'] }, USSR: { start: 0, against: ['GER'] } });
    expect(nm).toMatchObject({ warAt: 15, warTurn: 8, perTurn: 1 });
  });

  it('declarations: Germany on the USSR from Turn 5 or once it holds Paris; Germany on the USA at any time', () => {
    expect(f.neutralMajors!.declarers).toEqual([
      { power: 'GER', on: 'USSR', fromTurn: 5, ifHeld: ['paris'] },
      { power: 'GER', on: 'USA' },
    ]);
    expect(f.protectedMinors?.map((m) => [m.country, m.from])).toEqual([
      ['brazil', 'Allies'],
      ['chile', 'Allies'],
      ['venezuela', 'Allies'],
    ]);
  });

  it('the stated Neutral Entry effects (7.2 examples) are on the chart, the rest marked as estimates', () => {
    const ev = f.neutralMajors!.events;
    const find = (pred: (e: (typeof ev)[number]) => boolean | undefined) => ev.filter((e) => pred(e) === true);
    // Poland's Resource: both +1 (and only +1: the USA is in box 1 after Poland falls).
    expect(find((e) => e.kind === 'capture' && e.by === 'Axis' && e.lands === undefined)).toEqual([expect.objectContaining({ delta: { USA: 1, USSR: 1 } })]);
    expect(find((e) => e.kind === 'conquest' && e.by === 'Axis')).toEqual([]);
    expect(find((e) => e.kind === 'capture' && e.by === 'Allies' && e.lands?.includes('western-germany'))).toEqual([expect.objectContaining({ lands: ['western-germany'], delta: { USA: -2, USSR: -2 } })]);
    expect(find((e) => e.kind === 'declare-minor' && e.by === 'Axis')).toEqual([expect.objectContaining({ delta: { USA: 1 } })]);
    expect(find((e) => e.kind === 'capture' && e.by === 'Axis' && e.once === true && (e.lands ?? []).join() === 'gibraltar')).toHaveLength(1);
    for (const e of ev) expect(e.refs?.includes('7.2') || e.estimates !== undefined, JSON.stringify(e)).toBe(true);
  });

  it('alignments: Brazil with the USA at war (its army to the Force Pool unless an enemy is near), Argentina and Paraguay-Uruguay with Germany near; Central Europe and Finland with Germany at war with the USSR; Turkey, Iberia and the Near East with Germany by areas held; the Balkans by the Mediterranean shores', () => {
    const a = (f.alignments ?? []).map(({ refs: _r, estimates: _e, ...x }) => x);
    expect(a).toContainEqual({ country: 'brazil', power: 'USA', when: 'at-war', poolUnlessNear: 4 });
    for (const c of ['argentina', 'paraguay-uruguay']) expect(a).toContainEqual({ country: c, power: 'GER', when: 'near', range: 4 });
    expect(a).toContainEqual({ country: 'turkey', power: 'GER', when: 'holds', lands: ['caucasus-mountains'], count: 1, own: true });
    expect(a).toContainEqual({ country: 'iberia', power: 'GER', when: 'holds', lands: ['gibraltar'], count: 1, own: true });
    expect(a).toContainEqual({ country: 'balkans', power: 'GER', when: 'none-touching', sea: 'mediterranean' });
    expect(a).toContainEqual({ country: 'balkans', power: 'AFA', when: 'none-touching', sea: 'mediterranean' });
    const ne = a.find((x) => x.country === 'near-east')!;
    expect(ne).toMatchObject({ power: 'GER', when: 'holds', count: 2, own: true, supplied: true });
    // The in-play land areas bordering the Near East, recomputed.
    const inNE = new Set(landsOf('near-east'));
    const around = new Set(p.map.borders.flatMap(([x, y]) => (inNE.has(x) && !inNE.has(y) ? [y] : inNE.has(y) && !inNE.has(x) ? [x] : [])).filter((l) => f.lands.includes(l)));
    expect([...ne.lands!].sort()).toEqual([...around].sort());
    // Central Europe and Finland join Germany once it is at war with the USSR (3.3).
    expect(a).toContainEqual({ country: 'central-europe', power: 'GER', when: 'at-war', with: 'USSR' });
    expect(a).toContainEqual({ country: 'finland', power: 'GER', when: 'at-war', with: 'USSR' });
  });

  it('Partisans: the AFA rolls; every face names countries in play (China, face 1 in the full game, is not in play)', () => {
    const pt = f.partisans!;
    expect(pt.roller).toBe('AFA');
    expect(Object.keys(pt.table).sort()).toEqual(['1', '2', '3', '4', '5', '6']);
    for (const list of Object.values(pt.table)) for (const c of list) expect(f.lands.some((l) => land(l).country === c), c).toBe(true);
    expect(Object.values(pt.table).flat()).not.toContain('china');
  });

  it('Japan: Germany announces; until then the AFA gets 2 Resources and 1 Oil; before Turn 4 the USA gets 1 VP a turn', () => {
    expect(f.japanEntry).toMatchObject({ power: 'GER', bonus: { power: 'AFA', resources: 2, oil: 1 }, early: { power: 'USA', beforeTurn: 4, vp: 1 } });
  });

  it('capitals: France falls with Paris, Italy with Rome (3.4)', () => {
    expect(f.capitals).toEqual({ france: 'paris', italy: 'rome' });
    expect(land('paris').country).toBe('france');
    expect(land('rome').country).toBe('italy');
  });

  it('splits: 2, 3 and 4 players as F says', () => {
    expect(f.splits).toEqual({
      '2': [['GER'], ['AFA', 'USA', 'USSR']],
      '3': [['GER'], ['AFA', 'USA'], ['USSR']],
      '4': [['GER'], ['AFA'], ['USA'], ['USSR']],
    });
  });

  it('Italian units are German counters with home Italy; French units are AFA counters', () => {
    for (const id of ['italian-1st-army', 'italian-10th-army', 'regia-aeronautica', 'italian-fleet']) expect(unit(id), id).toMatchObject({ nation: 'GER', home: 'italy' });
    for (const id of ['french-fleet', 'armee-des-alpes', 'maginot-line']) expect(unit(id), id).toMatchObject({ nation: 'AFA', home: 'france' });
    expect(f.setup.find((x) => x.unit === 'french-fleet')?.at).toBe('vichy-france');
  });

  it('victory: objectives for all four powers; USA options #2 (Pacific Domination) and #4 (Arsenal of Democracy) are out', () => {
    const o = f.victory!.objectives;
    for (const pw of ['GER', 'AFA', 'USA', 'USSR']) expect(o.some((x) => x.power === pw), pw).toBe(true);
    expect(o.map((x) => x.name)).not.toContain('Pacific Domination');
    expect(o.map((x) => x.name)).not.toContain('Arsenal of Democracy');
    expect(o.find((x) => x.name === 'Long War')).toMatchObject({ power: 'GER', byTurn: { '11': 1, '12': 2 } });
  });

  it('research Groups and Future Additions: units of the power, each counter once', () => {
    const elsewhere = [...f.setup, ...f.forcePool, ...f.minors.flatMap((m) => m.army)].map((x) => x.unit);
    for (const pw of ['GER', 'AFA', 'USA', 'USSR']) {
      const runs = f.powers.find((x) => x.id === pw)!.nations as string[];
      const picks = [...(f.research?.[pw] ?? []).flat(), ...(f.futureAdditions?.[pw] ?? [])];
      expect(picks.length, pw).toBeGreaterThan(0);
      for (const x of picks) {
        expect(runs, x.unit).toContain(unit(x.unit).nation);
        expect(elsewhere, x.unit).not.toContain(x.unit);
      }
    }
  });
});

describe('Scenario F fields: broken packs are refused with the path and what to do', () => {
  it('neutral majors: an unknown power, an ally as enemy, a delta for a power without a marker, lands on a non-capture event', () => {
    const raw = fresh();
    const nm = rawF(raw).neutralMajors;
    nm.powers.JAP = { start: 0, against: ['GER'] };
    nm.powers.USA.against = ['AFA'];
    nm.events.push({ kind: 'declare-minor', by: 'Axis', lands: ['paris'], delta: { AFA: 1 } });
    const last = nm.events.length - 1;
    expectIssue(raw, `${F_PATH}.neutralMajors.powers.JAP`, /'JAP' is not a power of this scenario: use one of GER, AFA, USA, USSR/);
    expectIssue(raw, `${F_PATH}.neutralMajors.powers.USA.against[0]`, /'AFA' is on the same side as 'USA'/);
    expectIssue(raw, `${F_PATH}.neutralMajors.events[${last}].delta.AFA`, /'AFA' has no It's War! marker/);
    expectIssue(raw, `${F_PATH}.neutralMajors.events[${last}].lands`, /only a 'capture' event names land areas/);
  });

  it('declarers: on a power that is not neutral, out-of-range turns, a trigger area out of play', () => {
    const raw = fresh();
    rawF(raw).neutralMajors.declarers = [{ power: 'GER', on: 'AFA', fromTurn: 16, ifHeld: ['tokyo'] }];
    const issues = issuesOf(raw);
    // fromTurn 16 is refused by the schema itself (turns run 1-15).
    expect(issues.some((i) => i.path.startsWith(`${F_PATH}.neutralMajors.declarers[0].fromTurn`))).toBe(true);
    const raw2 = fresh();
    rawF(raw2).neutralMajors.declarers = [{ power: 'GER', on: 'AFA', ifHeld: ['tokyo'] }];
    expectIssue(raw2, `${F_PATH}.neutralMajors.declarers[0].on`, /'AFA' is not a neutral major of this scenario/);
    expectIssue(raw2, `${F_PATH}.neutralMajors.declarers[0].ifHeld[0]`, /'tokyo' is not a land area in play/);
  });

  it('trades by a major power: an unknown giver, a country not its home, an It\'s War! end without a marker', () => {
    const raw = fresh();
    const t = rawF(raw).trades;
    t[1].giver = 'ITA';
    t.push({ from: 'sweden', giver: 'AFA', to: 'GER', oil: 0, resources: 1, endsAtItsWar: 10 });
    t.push({ from: 'venezuela', to: 'USA', oil: 1, resources: 0, endsAtItsWar: 5 });
    expectIssue(raw, `${F_PATH}.trades[1].giver`, /giving power 'ITA' is not a power of this scenario/);
    expectIssue(raw, `${F_PATH}.trades[3].from`, /'sweden' is not a home country of 'AFA'/);
    expectIssue(raw, `${F_PATH}.trades[3].endsAtItsWar`, /'AFA' has no It's War! marker/);
    expectIssue(raw, `${F_PATH}.trades[4].endsAtItsWar`, /only a trade by a major power \(giver\)/);
  });

  it("alignments: a country that is no minor, 'at-war' for a power at war from the start, 'holds' without lands, 'none-touching' without a sea", () => {
    const raw = fresh();
    rawF(raw).alignments = [
      { country: 'germany', power: 'GER', when: 'holds', lands: ['caucasus-mountains'], count: 1 },
      { country: 'finland', power: 'GER', when: 'at-war' },
      { country: 'turkey', power: 'GER', when: 'holds' },
      { country: 'balkans', power: 'AFA', when: 'none-touching' },
      { country: 'iberia', power: 'GER', when: 'holds', lands: ['gibraltar'], count: 2 },
    ];
    expectIssue(raw, `${F_PATH}.alignments[0].country`, /'germany' is not a neutral minor of this scenario: add it to minors/);
    expectIssue(raw, `${F_PATH}.alignments[1].when`, /'GER' is at war from the start .* would fire at once/);
    expectIssue(raw, `${F_PATH}.alignments[2].lands`, /a 'holds' alignment needs lands/);
    expectIssue(raw, `${F_PATH}.alignments[2].count`, /a 'holds' alignment needs count/);
    expectIssue(raw, `${F_PATH}.alignments[3].sea`, /a 'none-touching' alignment needs sea/);
    expectIssue(raw, `${F_PATH}.alignments[4].count`, /count 2 is more than the 1 lands listed/);
  });

  it('protected minors, liberated minors, Partisans, Japan, capitals: unknown or misplaced ids', () => {
    const raw = fresh();
    const sc = rawF(raw);
    sc.protectedMinors.push({ country: 'atlantis', from: 'Allies' });
    sc.liberatedByConquest.push({ country: 'france', by: 'Allies' });
    sc.partisans.roller = 'JAP';
    delete sc.partisans.table['6'];
    sc.partisans.table['7'] = ['china'];
    sc.japanEntry.bonus.power = 'JAP';
    sc.japanEntry.itsWar = { AFA: 1 };
    sc.capitals = { france: 'rome', italy: 'tokyo' };
    expectIssue(raw, `${F_PATH}.protectedMinors[3].country`, /unknown country 'atlantis'/);
    expectIssue(raw, `${F_PATH}.liberatedByConquest[2].country`, /'france' is a major power's home country/);
    expectIssue(raw, `${F_PATH}.partisans.roller`, /roller 'JAP' is not a power of this scenario/);
    expectIssue(raw, `${F_PATH}.partisans.table`, /die face '6' is missing/);
    expectIssue(raw, `${F_PATH}.partisans.table["7"]`, /'7' is not a die face/);
    expectIssue(raw, `${F_PATH}.partisans.table["7"][0]`, /country 'china' has no land area in play/);
    expectIssue(raw, `${F_PATH}.japanEntry.bonus.power`, /bonus power 'JAP' is not a power of this scenario/);
    expectIssue(raw, `${F_PATH}.japanEntry.itsWar.AFA`, /'AFA' has no It's War! marker/);
    expectIssue(raw, `${F_PATH}.capitals.france`, /'rome' is in 'italy', not in 'france'/);
    expectIssue(raw, `${F_PATH}.capitals.italy`, /'tokyo' is in 'japan', not in 'italy'/);
  });

  it('splits: a power run twice, a power run by nobody, the wrong number of groups', () => {
    const raw = fresh();
    rawF(raw).splits = { '2': [['GER', 'USA'], ['AFA', 'USA']], '3': [['GER'], ['AFA', 'USA', 'USSR']] };
    expectIssue(raw, `${F_PATH}.splits["2"][1][1]`, /'USA' is run by more than one player/);
    expectIssue(raw, `${F_PATH}.splits["2"]`, /power 'USSR' is run by no player in the 2-player split/);
    expectIssue(raw, `${F_PATH}.splits["3"]`, /2 groups for 3 players/);
  });
});
