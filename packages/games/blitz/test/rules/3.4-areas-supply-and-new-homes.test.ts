/**
 * 3.4, the parts beyond the whole-country conquest and liberation: a single land area liberated as a
 * country would be; the supply proviso of a conquest; a new home country for the units of any conquered
 * country, a minor ally's included; Great Britain and Germany always going back by the map's word.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { landDef, packOf } from '../../src/rules/pack-index.ts';
import { takeControl } from '../../src/rules/politics.ts';
import { advance } from '../../src/rules/flow.ts';
import { inSupply } from '../../src/rules/supply.ts';
import { eliminate } from '../../src/rules/combat.ts';
import { askBuild } from '../../src/rules/turn-end.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { removeUnit } from '../../src/rules/unit-writes.ts';
import { arrange, checkedPack, options, pack, play, prompt } from '../helpers.ts';

const full = (): BlitzState => structuredClone(blitz.setup('full', pack));
const p = packOf(blitz.setup('full', pack).pack);
const landsOf = (s: BlitzState, countries: readonly string[]) => Object.keys(s.control).filter((l) => countries.includes(landDef(p, l).country));

/** The USA at war with Germany (so an Allied power besides the AFA can take areas back). */
const usaAtWar = (s: BlitzState): BlitzState => {
  s.wars = [...s.wars!, 'GER~USA'].sort();
  s.neutral = (s.neutral ?? []).filter((x) => x !== 'USA');
  return s;
};

// 3.4's own example of a single area: Germany takes Algeria but not Morocco, so French North Africa is
// not conquered; the USA taking Algeria back liberates the area, and may hand it back to the AFA.
describe('3.4 example: a single land area liberated (Algeria)', () => {
  const algeriaTaken = (): BlitzState => {
    const s = usaAtWar(full());
    takeControl(p, s, 'algeria', 'GER', [], 'test');
    expect(s.conquered).not.toContain('french-north-africa');
    return s;
  };

  it('3.4: the USA taking Algeria back liberates the area: asked at once to keep it or return it to the AFA; no conquest of French North Africa', () => {
    const s = algeriaTaken();
    const ev: GameEvent[] = [];
    takeControl(p, s, 'algeria', 'USA', ev, 'test');
    expect(s.conquered).not.toContain('french-north-africa');
    expect(ev.filter((e) => e.type === 'conquest')).toEqual([]);
    expect(ev.find((e) => e.type === 'liberation')?.data).toEqual({ country: 'french-north-africa', land: 'algeria' });
    expect(s.liberation).toEqual({ country: 'french-north-africa', power: 'USA', to: 'AFA', land: 'algeria' });
    advance(p, s, []);
    expect(prompt(s)).toBe('USA:liberation-return');
    expect(options(s)).toEqual(['keep algeria', 'return algeria']);
  });

  it('3.4: returned, Algeria is the AFA\'s again; kept, it stays the USA\'s', () => {
    const s = algeriaTaken();
    takeControl(p, s, 'algeria', 'USA', [], 'test');
    advance(p, s, []);
    const back = play(s, 'return algeria');
    expect(back.state.control.algeria).toBe('AFA');
    expect(back.events.find((e) => e.type === 'liberation-return')?.data).toMatchObject({ from: 'USA', to: 'AFA', lands: ['algeria'] });
    const kept = play(s, 'keep algeria');
    expect(kept.state.control.algeria).toBe('USA');
    expect(kept.state.liberation).toBeUndefined();
  });

  it('3.4: the AFA taking back its own Algeria is asked nothing, and conquers nothing', () => {
    const s = algeriaTaken();
    const ev: GameEvent[] = [];
    takeControl(p, s, 'algeria', 'AFA', ev, 'test');
    expect(s.liberation).toBeUndefined();
    expect(s.conquered).not.toContain('french-north-africa');
    expect(ev.filter((e) => e.type === 'conquest' || e.type === 'liberation')).toEqual([]);
  });

  it('3.4: two areas liberated before the first choice is made are asked one after the other', () => {
    const s = algeriaTaken();
    takeControl(p, s, 'egypt', 'GER', [], 'test');
    takeControl(p, s, 'algeria', 'USA', [], 'test');
    takeControl(p, s, 'egypt', 'USA', [], 'test');
    expect(s.liberation).toMatchObject({ land: 'algeria' });
    expect(s.liberationNext).toEqual([{ country: 'egypt', power: 'USA', to: 'AFA', land: 'egypt' }]);
    advance(p, s, []);
    const r = play(s, 'keep algeria');
    expect(prompt(r.state)).toBe('USA:liberation-return');
    expect(options(r.state)).toEqual(['keep egypt', 'return egypt']);
    expect(play(r.state, 'return egypt').state.control).toMatchObject({ algeria: 'USA', egypt: 'AFA' });
  });

  it('3.4: an enemy area taken, lost and taken again is no area of yours: taking all of Libya that way conquers it', () => {
    const s = full();
    takeControl(p, s, 'cyrenaica', 'AFA', [], 'test');
    takeControl(p, s, 'cyrenaica', 'GER', [], 'test'); // Germany takes back its own: nothing owed to the AFA
    expect(s.lostBy?.cyrenaica).toBeUndefined();
    takeControl(p, s, 'tripolitania', 'AFA', [], 'test');
    const ev: GameEvent[] = [];
    takeControl(p, s, 'cyrenaica', 'AFA', ev, 'test');
    expect(s.conquered).toContain('libya');
    expect(ev.find((e) => e.type === 'conquest')?.data).toEqual({ country: 'libya' });
    expect(s.lostBy).toMatchObject({ cyrenaica: 'GER', tripolitania: 'GER' });
  });

  it('3.4: a single area of Great Britain, which always goes back, is returned to the AFA at once', () => {
    const s = usaAtWar(full());
    takeControl(p, s, 'gibraltar', 'GER', [], 'test');
    expect(s.conquered).not.toContain('great-britain');
    const ev: GameEvent[] = [];
    takeControl(p, s, 'gibraltar', 'USA', ev, 'test');
    expect(s.liberation).toBeUndefined();
    expect(s.control.gibraltar).toBe('AFA');
    expect(ev.find((e) => e.type === 'liberation-return')?.data).toMatchObject({ from: 'USA', to: 'AFA', lands: ['gibraltar'] });
  });
});

// 3.4: "provided that each of you can trace a supply line (see 1.7) to the areas you control". Germany
// takes every area of Great Britain, but an AFA fleet alone in the Mediterranean cuts Malta (an island
// touching only that sea) off from German supply.
describe('3.4 conquest needs supply to the areas held', () => {
  const cutOff = (): BlitzState => {
    const s = arrange(full(), { units: { 'mediterranean-fleet': { power: 'AFA', at: 'sea:mediterranean', size: 2 } } });
    for (const l of ['london', 'scotland', 'gibraltar', 'malta']) takeControl(p, s, l, 'GER', [], 'test');
    return s;
  };

  it('3.4: every area of Great Britain held, Malta out of German supply: Great Britain is not conquered yet', () => {
    const s = cutOff();
    for (const l of ['london', 'scotland', 'gibraltar', 'malta']) expect(s.control[l], l).toBe('GER');
    expect(s.conquered).not.toContain('great-britain');
    expect(s.unsupplied).toEqual([{ country: 'great-britain', power: 'GER' }]);
  });

  it('3.4: once the fleet is gone and supply reaches Malta, Great Britain falls at the next step of play', () => {
    const s = cutOff();
    // Through unit-writes.ts, as the rules remove a unit: the unit index reads its log, not the record.
    removeUnit(s, 'mediterranean-fleet');
    const ev: GameEvent[] = [];
    advance(p, s, ev);
    expect(s.conquered).toContain('great-britain');
    expect(ev.find((e) => e.type === 'conquest')?.data).toEqual({ country: 'great-britain' });
    expect(s.unsupplied).toBeUndefined();
  });

  it('3.4: a country no longer held whole stops waiting: the AFA retaking Malta ends it', () => {
    const s = cutOff();
    takeControl(p, s, 'malta', 'AFA', [], 'test');
    delete s.units['mediterranean-fleet'];
    advance(p, s, []);
    expect(s.conquered).not.toContain('great-britain');
    expect(s.unsupplied).toBeUndefined();
  });
});

describe('3.4 a new home country for the units of any conquered country', () => {
  /** Germany takes Poland with the Polish Army away in London: the AFA must give it a new home. */
  const polandFalls = (edit: Parameters<typeof arrange>[1] = {}): BlitzState => {
    const s = arrange(full(), { ...edit, units: { 'polish-army': { power: 'AFA', at: 'london', size: 2 }, ...edit.units } });
    takeControl(p, s, 'poland', 'GER', [], 'test');
    expect(s.conquered).toContain('poland');
    return s;
  };

  it('3.4: a minor country\'s units left on the map (the Polish Army) get a new home among the AFA\'s allied home countries', () => {
    const s = polandFalls();
    advance(p, s, []);
    expect(prompt(s)).toBe('AFA:new-home-country');
    // Its home countries, and French North Africa, a country with a unit of its own (the Free French
    // Army) wholly the AFA's: a minor ally in 3.4's sense.
    expect(options(s)).toEqual([
      'home poland australia',
      'home poland canada',
      'home poland france',
      'home poland french-north-africa',
      'home poland great-britain',
      'home poland india',
      'home poland south-africa',
    ]);
    const r = play(s, 'home poland france');
    expect(r.state.homeFor).toEqual({ poland: 'france' });
  });

  it('3.4: a minor ally may be the new home (every area of the Near East the AFA\'s), and supply lines of the Polish units start there (1.7)', () => {
    // The AFA holds no home country any more, nor French North Africa, and the whole of the Near East;
    // the Polish Army is in Iraq.
    const homes = landsOf(full(), ['australia', 'canada', 'france', 'great-britain', 'india', 'south-africa', 'french-north-africa']);
    const s = polandFalls({
      control: { ...Object.fromEntries(homes.map((l) => [l, 'GER'])), iraq: 'AFA', persia: 'AFA', levant: 'AFA', arabia: 'AFA' },
      units: { 'polish-army': { power: 'AFA', at: 'iraq', size: 2 } },
    });
    // The one possibility is taken at once.
    expect(s.homeAsk).toBeUndefined();
    expect(s.homeFor).toEqual({ poland: 'near-east' });
    expect(inSupply(p, s, 'polish-army')).toBe(true);
    // Without its new home, nothing of the AFA's or Poland's is left to trace from.
    const homeless = structuredClone(s);
    delete homeless.homeFor;
    expect(inSupply(p, homeless, 'polish-army')).toBe(false);
  });

  it('3.4: a minor still partly neutral is no minor ally: the Near East with Iraq neutral is not offered', () => {
    const homes = landsOf(full(), ['australia', 'canada', 'france', 'great-britain', 'india', 'south-africa', 'french-north-africa']);
    const lost = Object.fromEntries(homes.map((l) => [l, 'GER']));
    const s = polandFalls({ control: { ...lost, iraq: 'neutral', persia: 'AFA', levant: 'AFA', arabia: 'AFA' } });
    expect(s.homeAsk).toBeUndefined();
    expect(s.homeFor).toBeUndefined();
    // Iraq the AFA's too: the Near East is its minor ally, and the one possibility.
    expect(polandFalls({ control: { ...lost, iraq: 'AFA', persia: 'AFA', levant: 'AFA', arabia: 'AFA' } }).homeFor).toEqual({ poland: 'near-east' });
  });

  it('3.4: Scenario A asks nothing (no supply lines, no 7.6 income: a home changes nothing there), where the full game asks', () => {
    const s = arrange(blitz.setup('A', pack), { units: { 'polish-army': { power: 'AFA', at: 'london', size: 2 } } });
    takeControl(p, s, 'poland', 'GER', [], 'test');
    expect(s.conquered).toContain('poland');
    expect(s.homeAsk).toBeUndefined();
    expect(s.homeFor).toBeUndefined();
    expect(polandFalls().homeAsk).toEqual([{ country: 'poland', power: 'AFA' }]);
  });
});

describe('3.4 the countries that always go back are the map\'s word', () => {
  /** Great Britain conquered by Germany, then retaken whole by the USA. */
  const liberatedBy = (pk: typeof pack): BlitzState => {
    const s = usaAtWar(structuredClone(blitz.setup('full', pk)));
    const q = packOf(s.pack);
    for (const l of ['london', 'scotland', 'gibraltar', 'malta']) takeControl(q, s, l, 'GER', [], 'test');
    delete s.homeAsk;
    for (const l of ['london', 'scotland', 'gibraltar', 'malta']) takeControl(q, s, l, 'USA', [], 'test');
    return s;
  };

  it('3.4: with the bundled map Great Britain goes back to the AFA; a map without `returnedWhenLiberated` on it lets the USA choose', () => {
    expect(p.files.map.countries.find((c) => c.id === 'great-britain')?.returnedWhenLiberated).toBe(true);
    const marked = liberatedBy(pack);
    expect(marked.liberation).toBeUndefined();
    expect(marked.control.london).toBe('AFA');
    const files = structuredClone(pack.data) as typeof pack.data;
    delete files.map.countries.find((c) => c.id === 'great-britain')!.returnedWhenLiberated;
    const plain = liberatedBy(checkedPack(files, 'Great Britain unmarked'));
    expect(plain.liberation).toEqual({ country: 'great-britain', power: 'USA', to: 'AFA' });
    expect(plain.control.london).toBe('USA');
  });
});

describe('3.4 a conquered country\'s units on the map', () => {
  it('3.4: one destroyed is set aside with its country, and comes back to the liberator with its liberation', () => {
    const s = arrange(full(), { units: { 'polish-army': { power: 'AFA', at: 'london', size: 2 }, 'polish-air-force': null } });
    takeControl(p, s, 'poland', 'GER', [], 'test');
    delete s.homeAsk;
    eliminate(p, s, 'polish-army', []);
    expect(s.units['polish-army']!.at).toBe('gone');
    expect(s.pool['polish-army']).toBeUndefined();
    expect(s.setAside?.poland).toEqual(['polish-army']);
    const ev: GameEvent[] = [];
    takeControl(p, s, 'poland', 'AFA', ev, 'test');
    expect(s.conquered).not.toContain('poland');
    expect(ev.find((e) => e.type === 'liberation-unit')?.data).toEqual({ country: 'poland', unit: 'polish-army' });
    expect(s.units['polish-army']).toMatchObject({ power: 'AFA', at: 'pool' });
  });

  it('3.4: one at Size 2 may not be built up to its Big Size 3 while its country is conquered; Size 3 to 4 it may', () => {
    // Army Group South (Sizes 1-4) in Rome, with Germany the country conquered.
    const germany = landsOf(full(), ['germany']);
    const at = (size: number, conquered: boolean) => {
      const s = arrange(full(), { units: { 'army-group-south': { power: 'GER', at: 'rome', size } }, control: conquered ? Object.fromEntries(germany.map((l) => [l, 'AFA'])) : {} });
      if (conquered) s.conquered = [...s.conquered, 'germany'];
      Object.assign(s, { step: 'build', buildOrder: ['GER'], hidden: {}, res: { ...s.res, GER: 5 }, sel: null });
      return (askBuild(p, s) as { options: string[] }).options;
    };
    expect(at(2, false)).toContain('repair army-group-south');
    expect(at(2, true)).not.toContain('repair army-group-south');
    expect(at(3, true)).toContain('repair army-group-south');
  });
});
