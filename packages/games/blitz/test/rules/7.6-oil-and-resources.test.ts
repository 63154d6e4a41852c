/**
 * 7.6 Determining Oil and Resources: the rulebook's examples replayed on the full game with `turnIncome`
 * (the 7.6 steps as the engine counts them at the turn end).
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { GameEvent } from '@salient/engine';
import { spentOf } from '../../src/rules/economy.ts';
import { lendLeaseOffers, turnIncome } from '../../src/rules/income.ts';
import { landDef, packOf } from '../../src/rules/pack-index.ts';
import { takeControl } from '../../src/rules/politics.ts';
import { advance, applyChoice } from '../../src/rules/flow.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, options, pack, passUntil, play, prompt, reach, skipTo } from '../helpers.ts';

const start = (): BlitzState => structuredClone(blitz.setup('full', pack));
const p = packOf(start().pack);
/** The full game's Oil trade from the USA to Japan (7.5), in the scenario's list. */
const usaToJapan = pack.data.scenarios.scenarios.find((x) => x.id === 'full')!.trades!.findIndex((t) => t.giver === 'USA' && t.to === 'JAP');

describe('7.6 example: Japan\'s Convoys are damaged', () => {
  // Japan holds one Oil (Borneo, on the South China Sea) and three Resources (Harbin, Manila, South-East
  // Asia) outside Japan, and one Resource (Tokyo) in Japan; Peking, whose Resource would be a fourth, is
  // handed to the USA, and the USA's Oil trade to Japan has ended: "no Trade Agreements".
  const bed = (): BlitzState => {
    const s = arrange(start(), { control: { borneo: 'JAP', manila: 'JAP', 'south-east-asia': 'JAP', peking: 'USA' } });
    const t = structuredClone(s);
    t.tradesEnded = [usaToJapan];
    return t;
  };

  it('the position: 1 Oil and 3 Resources outside Japan, 1 Resource in it', () => {
    const s = bed();
    const japanese = Object.keys(s.control).filter((l) => s.control[l] === 'JAP' && landDef(p, l).oil + landDef(p, l).resources > 0);
    const outside = japanese.filter((l) => landDef(p, l).country !== 'japan');
    const sum = (ls: string[], k: 'oil' | 'resources') => ls.reduce((t, l) => t + landDef(p, l)[k], 0);
    expect([sum(outside, 'oil'), sum(outside, 'resources')]).toEqual([1, 3]);
    const home = japanese.filter((l) => landDef(p, l).country === 'japan');
    expect([sum(home, 'oil'), sum(home, 'resources')]).toEqual([0, 1]);
    const undamaged = turnIncome(p, structuredClone(s), []).JAP!;
    expect([undamaged.oil, undamaged.res]).toEqual([1, 4]);
  });

  it('three points of damage on its Convoys (South China Sea 1, East China Sea 2) cost it the three Resources, Resources first: 1 Oil and 1 Resource left', () => {
    const s = bed();
    s.convoys = { ...s.convoys, 'japan-south-china-convoy': 1, 'japan-convoy': 2 };
    const jap = turnIncome(p, s, []).JAP!;
    expect(jap.lines['convoy damage']).toBe(-3);
    expect([jap.oil, jap.res]).toEqual([1, 1]);
  });

  it('step 3 comes before step 4: five points of Convoy damage take only the 4 that step 1 brought in, and the home Resource still counts', () => {
    const s = bed();
    s.convoys = { ...s.convoys, 'japan-south-china-convoy': 1, 'japan-convoy': 4 };
    const jap = turnIncome(p, s, []).JAP!;
    expect(jap.lines['convoy damage']).toBe(-4);
    expect([jap.oil, jap.res]).toEqual([0, 1]);
  });
});

describe('E.4/7.8: only the side running China has its Resources kept for Chinese units', () => {
  it('Japan holding Peking counts its Resource as any conquest\'s, with no Chinese unit there', () => {
    const s = start();
    expect(s.control.peking).toBe('JAP');
    const held = turnIncome(p, structuredClone(s), []).JAP!;
    const lost = turnIncome(p, arrange(s, { control: { peking: 'USA' } }), []).JAP!;
    expect(held.res).toBe(lost.res + landDef(p, 'peking').resources);
    expect(held.lines.conquests).toBe(lost.lines.conquests! + 1);
    expect(held.earmark).toEqual({});
  });

  it('the USA holding Peking keeps it for Chinese units, and only with one there', () => {
    const s = arrange(start(), { control: { peking: 'USA' } });
    const none = turnIncome(p, structuredClone(s), []).USA!;
    const withOne = turnIncome(p, arrange(s, { units: { 'nationalist-army': { power: 'USA', at: 'peking', size: 2 } } }), []).USA!;
    expect(withOne.earmark.china).toBe(none.earmark.china! + 1);
    expect(withOne.res).toBe(none.res);
  });
});

describe('7.6 example: the USA at the end of Turn 2', () => {
  const s2 = (): BlitzState => {
    const s = start();
    s.turn = 2;
    return s;
  };

  it('4 Oil and 8 Resources at home, 1 Resource in Manila, Chungking\'s Resource for Chinese units only, 1 Oil in from Venezuela and 1 out to Japan: 4 Oil and 10 Resources', () => {
    const usa = turnIncome(p, s2(), []).USA!;
    expect(usa.lines.home).toBe(4 + 8);
    expect(usa.lines['trade:venezuela']).toBe(1);
    expect(usa.lines['trade to JAP']).toBe(-1);
    expect(usa.oil).toBe(4);
    expect(usa.res + usa.earmark.china!).toBe(10);
    expect(usa.earmark.china).toBe(1);
  });

  // The 7.6 example's Lend Lease: one to the AFA (the USA's North Atlantic LL, `liberty-ll`, whose AFA
  // recipient is estimated, P6) and one Resource to China (the Bay of Bengal LL), both Size 1.
  const lendLeasing = (): BlitzState =>
    arrange(s2(), {
      units: {
        'bay-of-bengal-ll': { power: 'USA', at: 'sea:bay-of-bengal', size: 1 },
        'liberty-ll': { power: 'USA', at: 'sea:north-atlantic', size: 1 },
      },
    });

  it('7.4: the USA chooses whether its lend lease to the AFA is an Oil or a Resource (China\'s can only be a Resource)', () => {
    const offers = lendLeaseOffers(p, lendLeasing());
    expect(offers).toEqual([{ unit: 'liberty-ll', power: 'USA', size: 1, lo: 0, hi: 1 }]);
  });

  it('it provides an Oil to the AFA along with the Resource to China: 3 Oil and 8 Resources left, and 2 Resources for Chinese units only', () => {
    const s = lendLeasing();
    s.llOil = { 'liberty-ll': 1 };
    const ev: GameEvent[] = [];
    const all = turnIncome(p, s, ev);
    const usa = all.USA!;
    expect([usa.oil, usa.res]).toEqual([3, 8]);
    expect(usa.earmark.china).toBe(2);
    expect(usa.lines['lend lease to AFA']).toBe(-1);
    expect(all.AFA!.lines['lend lease from USA']).toBe(1);
    expect(ev.filter((e) => e.type === 'lend-lease').map((e) => [e.data!.to, e.data!.oil, e.data!.resources])).toEqual(
      expect.arrayContaining([['AFA', 1, 0], ['china', 0, 1]]),
    );
  });

  it('a Resource to the AFA instead leaves 4 Oil and 7 Resources', () => {
    const s = lendLeasing();
    s.llOil = { 'liberty-ll': 0 };
    const usa = turnIncome(p, s, []).USA!;
    expect([usa.oil, usa.res]).toEqual([4, 7]);
  });

  it('at the turn end the USA is asked, in secret, before the income is counted', () => {
    const s = reach(lendLeasing(), 'USA', 'lend-lease');
    expect(options(s)).toEqual(['lend liberty-ll oil 0', 'lend liberty-ll oil 1']);
    // 1.9: while the step lasts, a choice made is seen by its giver only.
    const chosen = { ...structuredClone(s), llOil: { 'liberty-ll': 1 } };
    expect(blitz.observe(chosen, 'USA').llOil).toEqual({ 'liberty-ll': 1 });
    expect(blitz.observe(chosen, 'AFA').llOil).toEqual({});
    expect(blitz.observe(chosen, 'GER').llOil).toEqual({});
    const r = play(s, 'lend liberty-ll oil 1');
    const delivered = r.events.filter((e) => e.type === 'lend-lease');
    expect(delivered.map((e) => [e.data!.to, e.data!.oil, e.data!.resources])).toEqual(expect.arrayContaining([['AFA', 1, 0], ['china', 0, 1]]));
    // The Oil went to the AFA: 3 of the 4 left (the passive play to this turn end has also cost the USA a
    // Resource to a Partisan, 7.1, so its Resources are not the example's here; the totals are checked above).
    const income = r.events.find((e) => e.type === 'income')!.data as Record<string, { oil: number; lines: Record<string, number> }>;
    expect(income.USA!.oil).toBe(3);
    expect(income.USA!.lines).toMatchObject({ 'lend lease to AFA': -1, 'lend lease to china': -1 });
    expect(r.state.llOil).toBeUndefined();
  });

  it('the Bay of Bengal Lend Lease sends one Resource to China: two Resources for Chinese units only, the rest not for them', () => {
    const s = arrange(s2(), { units: { 'bay-of-bengal-ll': { power: 'USA', at: 'sea:bay-of-bengal', size: 1 } } });
    const usa = turnIncome(p, structuredClone(s), []).USA!;
    expect(usa.earmark.china).toBe(2);
    expect([usa.oil, usa.res]).toEqual([4, 8]);
  });
});

describe('7.6 example: an isolated India builds Indian units with Iraq\'s Oil and its own Resource', () => {
  // The example's second half on the full game (its first half, Canada as the new home of British units
  // once France and Great Britain are conquered, is further down): the AFA hold Persia and Iraq (1 Oil each) besides India (Hyderabad's Resource);
  // Japan, at war with the AFA, holds Burma and Singapore and has fleets in the Arabian Sea and the Bay of
  // Bengal, where the India Convoy is damaged; Germany holds the Caucasus and Samarkand, and the Levant,
  // Arabia and Ankara too (a line to Oil and Resources may cross neutral land, 1.7, and would otherwise
  // run from Egypt or the Balkans through the neutral Near East or Turkey). No supply line runs from
  // France or Great Britain to India any more, but one runs from India to Persia and Iraq.
  const cut = { burma: 'JAP', singapore: 'JAP', 'caucasus-mountains': 'GER', samarkand: 'GER', levant: 'GER', arabia: 'GER', ankara: 'GER', persia: 'AFA', iraq: 'AFA' };
  const fleets = { 'combined-fleet': { power: 'JAP', at: 'sea:arabian-sea', size: 2 }, '2nd-fleet': { power: 'JAP', at: 'sea:bay-of-bengal', size: 2 } };
  const position = (isolated = true, extra: Parameters<typeof arrange>[1]['units'] = {}): BlitzState => {
    const s0 = start();
    s0.turn = 2;
    // 1.5: only the warships of a power at war with the AFA make a sea unfriendly to it.
    s0.wars = [...s0.wars!, 'AFA~JAP'].sort();
    const s = arrange(s0, { control: cut, units: { ...(isolated ? fleets : {}), ...extra } });
    return { ...s, convoys: { ...s.convoys, 'india-convoy': 1 } };
  };

  it('India\'s Resource and the Oil of Persia and Iraq are India\'s alone; the AFA\'s own totals leave them out', () => {
    const afa = turnIncome(p, position(), []).AFA!;
    expect(afa.earmark.india).toBe(3);
    const india = Object.entries(afa.isolated!).filter(([l]) => ['hyderabad', 'persia', 'iraq'].includes(l));
    expect(india.sort(([a], [b]) => (a < b ? -1 : 1))).toEqual([
      ['hyderabad', 'india'],
      ['iraq', 'india'],
      ['persia', 'india'],
    ]);
    // Connected (no Japanese fleets), the same three count with the AFA's own Oil and Resources.
    const joined = turnIncome(p, position(false), []).AFA!;
    expect(joined.earmark.india).toBeUndefined();
    expect(joined.oil + joined.res).toBe(afa.oil + afa.res + 3);
  });

  /** The position with France and then Great Britain conquered by Germany (3.4), the AFA asked for the British units' new home. */
  const britainFallen = (): BlitzState => {
    const s = position();
    s.convoys = { ...s.convoys, 'canada-convoy': 1 };
    for (const l of ['paris', 'london', 'scotland', 'gibraltar', 'malta']) takeControl(p, s, l, 'GER', [], 'test');
    advance(p, s, []);
    return s;
  };

  it('7.6 example: with France and Great Britain conquered, the AFA chooses Canada as the home country of British units', () => {
    const s = britainFallen();
    expect(s.conquered).toEqual(expect.arrayContaining(['france', 'great-britain']));
    expect(prompt(s)).toBe('AFA:new-home-country');
    // Its other home countries, and its minor allies with units of their own (3.4: "including minor allies").
    expect(options(s)).toEqual(['home great-britain australia', 'home great-britain canada', 'home great-britain india', 'home great-britain poland', 'home great-britain south-africa']);
    const r = play(s, 'home great-britain canada');
    expect(r.state.homeFor).toEqual({ 'great-britain': 'canada' });
    expect(r.events.find((e) => e.type === 'new-home')?.data).toEqual({ country: 'great-britain', home: 'canada' });
  });

  it('7.6 example: Canada\'s Oil and Resource are home income (step 4), not shipped, so Convoy damage does not touch them; India is cut off from Canada and builds Indian units with Iraq\'s Oil and its own Resource', () => {
    const withHome = (home: string) => {
      const s = britainFallen();
      applyChoice(p, s, `home great-britain ${home}`, []);
      // Convoy damage enough to take everything step 1 brings in.
      s.convoys = { ...s.convoys, 'canada-convoy': 9 };
      return turnIncome(p, s, []).AFA!;
    };
    const afa = withHome('canada');
    // Step 4: Western Canada's Oil and Eastern Canada's Resource survive the Convoys' losses (step 3);
    // with Australia as the British home instead, Canada's are shipped (step 1) and lost, Canberra's
    // Resource kept in their place.
    const other = withHome('australia');
    expect(afa.oil).toBe(other.oil + 1);
    expect(afa.oil + afa.res).toBe(other.oil + other.res + 1);
    // No supply line from Canada to India, Persia or Iraq: India's own (Hyderabad's Resource, the Oil of Persia and Iraq).
    expect(afa.earmark.india).toBe(3);
    expect(Object.keys(afa.isolated!).filter((l) => ['hyderabad', 'persia', 'iraq'].includes(l)).sort()).toEqual(['hyderabad', 'iraq', 'persia']);
  });

  it('7.6 example, the other way: with Great Britain\'s fall no home chosen (no British unit left), every home country counts as home and India is not isolated', () => {
    const s = position();
    const lost = Object.fromEntries(Object.keys(s.control).filter((l) => ['france', 'great-britain'].includes(landDef(p, l).country)).map((l) => [l, 'GER']));
    const afa = turnIncome(p, arrange(s, { control: lost }), []).AFA!;
    expect(afa.earmark.india).toBeUndefined();
    expect(afa.lines.home).toBeGreaterThan(2);
  });

  it('3.4: with a single home country left to choose, it is taken at once; a liberated Great Britain is the British units\' home again', () => {
    const s = position();
    // Only Canada left in the AFA's hands among its home countries and its minor allies with units (3.4).
    const only = Object.fromEntries(Object.keys(s.control).filter((l) => ['australia', 'india', 'south-africa', 'poland'].includes(landDef(p, l).country)).map((l) => [l, 'JAP']));
    const t = arrange(s, { control: only });
    for (const l of ['paris', 'london', 'scotland', 'gibraltar', 'malta']) takeControl(p, t, l, 'GER', [], 'test');
    expect(t.homeAsk).toBeUndefined();
    expect(t.homeFor).toEqual({ 'great-britain': 'canada' });
    for (const l of ['london', 'scotland', 'gibraltar', 'malta']) takeControl(p, t, l, 'AFA', [], 'test');
    expect(t.homeFor).toBeUndefined();
  });

  it('steps 2 and 6 are India\'s own: a Partisan in Hyderabad costs India\'s income, not the AFA\'s', () => {
    const before = turnIncome(p, position(), []).AFA!;
    const s = position();
    s.partisans = ['hyderabad'];
    const afa = turnIncome(p, s, []).AFA!;
    expect(afa.earmark.india).toBe(2);
    expect([afa.oil, afa.res]).toEqual([before.oil, before.res]);
  });

  it('at the builds, India\'s income goes to Indian units only; nothing else builds in India, and what is left of it is not saved', () => {
    const s = reach(position(true, { 'indian-army': { power: 'AFA', at: 'delhi', size: 1 }, bef: { power: 'AFA', at: 'bombay', size: 1 } }), 'AFA', 'build-pick');
    expect(s.isolated).toEqual(['india']);
    const india = s.earmark!.AFA!.india!;
    expect(india).toBeGreaterThan(0);
    expect(options(s)).toContain('repair indian-army');
    // A British army in India cannot be repaired with any income (7.6); with India connected it can.
    expect(options(s)).not.toContain('repair bef');
    const connected = reach(position(false, { 'indian-army': { power: 'AFA', at: 'delhi', size: 1 }, bef: { power: 'AFA', at: 'bombay', size: 1 } }), 'AFA', 'build-pick');
    expect(connected.isolated).toBeUndefined();
    expect(options(connected)).toContain('repair bef');
    const general = s.res.AFA!;
    const r = play(s, 'repair indian-army');
    // Paid from India's income, not from the AFA's budget.
    expect(spentOf(r.state, 'AFA')).toBe(0);
    expect(r.state.hidden.AFA).toEqual([{ unit: 'indian-army', size: 1, at: '', earmarked: 1 }]);
    // Done without spending the rest of India's income: the AFA save only their own.
    const done = skipTo(r.state, 'save-split');
    const end = passUntil(done, (x) => x.turn === 3)!;
    expect((end.oil!.AFA ?? 0) + (end.saved!.AFA ?? 0)).toBe(general);
  });
});
