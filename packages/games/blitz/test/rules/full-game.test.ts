/**
 * The full game on the bundled approximation: five powers, the wars at the start pair by pair (Germany
 * and the AFA; Japan and China, while the USA that runs China's armies is at peace), the neutral USA and
 * USSR acting within their home countries, Japan's declaration on the AFA with its Neutral Entry and
 * alignment effects, and the player splits.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { landDef, packOf, unitDef } from '../../src/rules/pack-index.ts';
import { allyAreaBarred, atWar, hostileLand, neutralMajor, unitViewer } from '../../src/rules/wars.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, options, pack, play, reach } from '../helpers.ts';
import { declareWar } from '../../src/rules/politics.ts';
import { chinaBarred } from '../../src/rules/specials.ts';

const start = (players?: number): BlitzState => blitz.setup('full', pack, players === undefined ? {} : { players });
const p = packOf(start().pack);
const countryOf = (land: string) => landDef(p, land).country;

describe('Scenario full: set-up, seats and the player splits (1.11, 3.1)', () => {
  it('starts on Turn 1 with five powers, Germany at war with the AFA and Japan with China, the USA and USSR neutral', () => {
    const s = start();
    expect(s.turn).toBe(1);
    expect(blitz.scenarios(pack).find((x) => x.id === 'full')!.sides.map((x) => x.powers)).toEqual([['GER', 'JAP'], ['AFA', 'USA', 'USSR']]);
    expect(s.wars).toEqual(['AFA~GER', 'JAP~china']);
    expect(s.neutral).toEqual(['USA', 'USSR']);
    expect(s.oil).toMatchObject({ GER: 1 });
    expect(atWar(p, s, 'JAP', 'USA')).toBe(false);
    expect(atWar(p, s, 'JAP', 'AFA')).toBe(false);
  });

  it('takes 2 to 5 players and refuses anything else, saying what is allowed', () => {
    for (const n of [2, 3, 4, 5]) expect(start(n).players).toBe(n);
    expect(() => start(6)).toThrow(/option 'players' for scenario full must be one of 2, 3, 4, 5; got 6/);
  });
});

describe('Scenario full: Japan and China (3.1, 5.2)', () => {
  it('Japan may attack the USA-held areas of China, not the USA or the AFA; China\'s armies may attack Japan while the USA is at peace', () => {
    const s = start();
    const chinese = Object.keys(s.control).filter((l) => countryOf(l) === 'china' && s.control[l] === 'USA');
    expect(chinese.length).toBeGreaterThan(0);
    for (const l of chinese) expect(hostileLand(p, s, ['JAP'], l)).toBe(true);
    for (const l of ['manila', 'atlantic-seaboard', 'singapore']) if (l in s.control) expect(hostileLand(p, s, ['JAP'], l), l).toBe(false);
    expect(hostileLand(p, s, unitViewer(p, s, s.units['nationalist-army']!), 'peking')).toBe(true);
    expect(hostileLand(p, s, unitViewer(p, s, s.units['us-1st-army']!), 'peking')).toBe(false);
    const a = reach(s, 'JAP', 'announce-attack');
    const targets = options(a).filter((o) => o.startsWith('attack ')).map((o) => o.slice(7));
    expect(targets.length).toBeGreaterThan(0);
    for (const t of targets) expect(countryOf(t), t).toBe('china');
  });

  it('the neutral USA moves its own armies only at home; China\'s armies stay in China', () => {
    const s = start();
    expect(neutralMajor(s, 'USA')).toBe(true);
    const m = reach(s, 'USA', 'move-pick');
    // GARs are free to leave (5.2); every other army keeps to its home country.
    const movers = options(m).filter((o) => o.startsWith('move ')).map((o) => o.slice(5)).filter((id) => unitDef(p, s.units[id]!.def).type !== 'GAR');
    expect(movers.map((id) => unitDef(p, s.units[id]!.def).home).sort()).toContain('china');
    for (const id of movers) {
      const home = unitDef(p, s.units[id]!.def).home === 'china' ? 'china' : 'usa';
      const r = play(m, `move ${id}`).state;
      for (const o of options(r).filter((x) => x.startsWith('to '))) expect(countryOf(o.slice(3)), `${id} ${o}`).toBe(home);
    }
  });
});

describe('Scenario full: Japan declares war on the AFA (3.2, 3.3, 7.2)', () => {
  it('the pair goes to war, the USA marker moves up a box, and South-East Asia joins Japan', () => {
    const s = reach(start(), 'JAP', 'move-pick');
    expect(options(s)).toContain('declare AFA');
    expect(options(s)).toContain('declare USA');
    const r = play(s, 'declare AFA');
    expect(r.state.wars).toEqual(['AFA~GER', 'AFA~JAP', 'JAP~china']);
    expect(r.state.itsWar!.USA).toBe(s.itsWar!.USA! + 1);
    expect(r.state.neutral).toEqual(['USA', 'USSR']);
    const sea = Object.keys(r.state.control).filter((l) => countryOf(l) === 'south-east-asia');
    expect(sea.length).toBeGreaterThan(0);
    for (const l of sea) expect(r.state.control[l]).toBe('JAP');
    expect(r.events.some((e) => e.type === 'alignment' && (e.data as { country?: string }).country === 'south-east-asia')).toBe(true);
  });

  it('a Japanese declaration on the USA takes the USA out of neutrality (its restrictions lifted) but not into war with Germany', () => {
    const s = reach(start(), 'JAP', 'move-pick');
    const r = play(s, 'declare USA');
    expect(r.state.neutral).toEqual(['USSR']);
    expect(atWar(p, r.state, 'USA', 'JAP')).toBe(true);
    expect(atWar(p, r.state, 'USA', 'GER')).toBe(false);
    expect(neutralMajor(r.state, 'USA')).toBe(false);
  });
});

describe('1.3 allies\' areas in the full game', () => {
  it('an ally may not stack in another power\'s home country, nor where it shares no enemy with the holder or the holder has land units', () => {
    const s = start();
    // The AFA in the USA while the USA is neutral: the USA's home country.
    expect(allyAreaBarred(p, s, 'AFA', 'central-plains')).toBe(true);
    // The USSR (at war with no one) in an AFA area: no shared enemy.
    const empty = Object.keys(s.control).find((l) => s.control[l] === 'AFA' && countryOf(l) !== 'great-britain' && !Object.values(s.units).some((u) => u.at === l) && !['france', 'australia', 'canada', 'india', 'south-africa'].includes(countryOf(l)))!;
    expect(allyAreaBarred(p, s, 'USSR', empty)).toBe(true);
    // Once the USSR too is at war with Germany, that empty AFA area is open to it; one with AFA land units is not.
    const w = structuredClone(s);
    w.wars = [...w.wars!, 'GER~USSR'].sort();
    expect(allyAreaBarred(p, w, 'USSR', empty)).toBe(false);
    const garrisoned = Object.keys(s.control).find((l) => s.control[l] === 'AFA' && !['france', 'great-britain', 'australia', 'canada', 'india', 'south-africa'].includes(countryOf(l)) && Object.values(s.units).some((u) => u.at === l && u.power === 'AFA' && ['INF', 'GAR', 'FORT'].includes(p.unit.get(u.def)!.type)))!;
    expect(allyAreaBarred(p, w, 'USSR', garrisoned)).toBe(true);
    // Its own areas are never barred, nor an enemy's (hostility decides those).
    expect(allyAreaBarred(p, s, 'USSR', 'moscow')).toBe(false);
  });

  it('the AFA and the USA share areas freely once the USA is at war with an Axis power, home countries included', () => {
    const s = start();
    expect(allyAreaBarred(p, s, 'AFA', 'central-plains')).toBe(true);
    const w = structuredClone(s);
    w.wars = [...w.wars!, 'JAP~USA'].sort();
    expect(allyAreaBarred(p, w, 'AFA', 'central-plains')).toBe(false);
    expect(allyAreaBarred(p, w, 'USA', 'london')).toBe(false);
    // The USSR still may not enter the USA's home country.
    expect(allyAreaBarred(p, w, 'USSR', 'central-plains')).toBe(true);
  });
});

describe('3.2 Belgium-Netherlands and its colonies in the full game', () => {
  it('declared on by the Axis, it and Borneo, Hollandia and Java join the AFA', () => {
    const s = start();
    s.side = 'Axis';
    s.power = 'GER';
    declareWar(p, s, 'belgium-netherlands', []);
    for (const l of ['belgium-netherlands', 'borneo', 'hollandia', 'java']) expect(s.control[l], l).toBe('AFA');
    expect(s.units.knil).toMatchObject({ power: 'AFA' });
    expect(s.wars).toEqual(expect.arrayContaining(['GER~belgium-netherlands', 'GER~borneo', 'GER~java']));
  });

  it('declared on by the Allies, it splits: Germany takes Belgium-Netherlands, Japan the colonies', () => {
    const s = start();
    s.side = 'Allies';
    s.power = 'AFA';
    declareWar(p, s, 'belgium-netherlands', []);
    expect(s.control['belgium-netherlands']).toBe('GER');
    for (const l of ['borneo', 'hollandia', 'java']) expect(s.control[l], l).toBe('JAP');
    expect(s.units.knil).toMatchObject({ power: 'JAP' });
  });
});


describe('1.3 allies\' areas in play: moves keep out of them', () => {
  it('an AFA army next to the neutral USA may not move into its home country; once the USA is at war with Japan it may', () => {
    const s = reach(start(), 'AFA', 'move-pick');
    const usa = (l: string) => countryOf(l) === 'usa';
    const placed = arrange(s, { units: { bef: { at: 'eastern-canada', power: 'AFA', size: 2 } } });
    const m = play(placed, 'move bef').state;
    const dests = options(m).filter((o) => o.startsWith('to ')).map((o) => o.slice(3));
    expect(dests.length).toBeGreaterThan(0);
    expect(dests.filter(usa)).toEqual([]);
    const w = structuredClone(placed);
    w.wars = [...w.wars!, 'JAP~USA'].sort();
    w.neutral = ['USSR'];
    const m2 = play(w, 'move bef').state;
    expect(options(m2).map((o) => o.slice(3)).some(usa)).toBe(true);
  });
});

describe('Scenario full: 5.2 entry into China for the Allies', () => {
  const s0 = start();
  const unitOf = (nation: string) =>
    Object.keys(s0.units).find((id) => unitDef(p, s0.units[id]!.def).nation === nation && unitDef(p, s0.units[id]!.def).home !== 'china' && ['INF', 'ARM'].includes(p.unit.get(s0.units[id]!.def)!.type))!;
  const afa = unitOf('AFA');
  const ussr = unitOf('USSR');
  const japanese = unitOf('JAP');
  const target = Object.keys(s0.control).find((l) => countryOf(l) === 'china' && s0.control[l] === 'USA')!;
  const at = (control: Record<string, string>, extra: Partial<BlitzState> = {}) => ({ ...arrange(s0, { control }), ...extra });
  const atPeace = (x: BlitzState) => ({ ...x, neutral: (x.neutral ?? []).filter((pw) => pw !== 'USA') });

  it('an AFA army stays out until the AFA and/or the USA hold two of Formosa, Manila and South-East Asia, and only while the USA is not neutral', () => {
    expect(chinaBarred(p, s0, afa, target)).toBe(true);
    const two = at({ formosa: 'AFA', manila: 'USA' });
    expect(s0.neutral).toContain('USA');
    expect(chinaBarred(p, two, afa, target)).toBe(true); // the USA still neutral
    expect(chinaBarred(p, atPeace(two), afa, target)).toBe(false);
    expect(s0.control.manila).toBe('USA');
    expect(chinaBarred(p, atPeace(at({ formosa: 'AFA', manila: 'JAP' })), afa, target)).toBe(true); // one is not enough
  });

  it('Soviet holdings do not open China to the AFA, nor do the AFA and USA openers let Soviet units in; Harbin and Port Arthur do', () => {
    expect(chinaBarred(p, atPeace(at({ formosa: 'USSR', manila: 'USSR', 'south-east-asia': 'USSR' })), afa, target)).toBe(true);
    expect(chinaBarred(p, atPeace(at({ formosa: 'AFA', manila: 'USA' })), ussr, target)).toBe(true);
    expect(chinaBarred(p, at({ harbin: 'USSR' }), ussr, target)).toBe(true);
    expect(chinaBarred(p, at({ harbin: 'USSR', 'port-arthur': 'USSR' }), ussr, target)).toBe(false);
    expect(chinaBarred(p, at({ harbin: 'USSR', 'port-arthur': 'USSR' }), afa, target)).toBe(true);
  });

  it('a conquered China is open to all; Japan is never held back', () => {
    expect(chinaBarred(p, at({}, { conquered: [...s0.conquered, 'china'] }), ussr, target)).toBe(false);
    expect(chinaBarred(p, s0, japanese, target)).toBe(false);
  });
});
