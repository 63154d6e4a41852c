/**
 * 4.2 / B.2 Move to a Sea Area: a naval unit in Port moves to a sea within its movement, entering a
 * sea its Port touches first; a TRS carries land units from its starting area (total Size up to
 * twice its own) and embarks more from land touching the sea where its move ends; units already at
 * sea may not move to sea; a unit that moved to sea may not rebase in the same phase (5.1).
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { arrange, eventsOf, options, pack, play, prompt, reach, start, until, checkedPack } from '../helpers.ts';

/** Pass (done/stop/launch) until `power` is asked `question`. */

describe('4.2/B.2 the Europe Trs. example', () => {
  const s0 = until(start('B'), 'WA', 'sea-pick');

  it('offers every Western Allied ship in Port; Germany has none', () => {
    expect(prompt(s0)).toBe('WA:sea-pick');
    expect(options(s0)).toEqual(['sail 12th-fleet', 'sail 3rd-fleet', 'sail europe-trs', 'sail north-sea-fleet', 'done']);
  });

  it('the TRS may carry the land unit in Scotland, where its move begins', () => {
    const r = play(s0, 'sail europe-trs');
    expect(prompt(r.state)).toBe('WA:sea-load');
    expect(options(r.state)).toEqual(['load 8th-army', 'sail']);
  });

  it('from Scotland it reaches both seas in play (movement 2)', () => {
    const r = play(s0, 'sail europe-trs', 'load 8th-army', 'sail');
    expect(prompt(r.state)).toBe('WA:sea-destination');
    expect(options(r.state)).toEqual(['to north-sea', 'to western-approaches']);
  });

  it('ending in the North Sea it may embark land units in London, which touches that sea', () => {
    const r = play(s0, 'sail europe-trs', 'load 8th-army', 'sail', 'to north-sea');
    expect(prompt(r.state)).toBe('WA:sea-embark');
    expect(options(r.state)).toEqual(['embark 1st-airborne', 'embark 2nd-army', 'embark home-guard', 'embark royal-marines', 'embark us-1st-army', 'done']);
  });

  it('capacity is twice its Size: with 8th Army (1) and 2nd Army (2) aboard, only a Size-1 unit still fits', () => {
    const r = play(s0, 'sail europe-trs', 'load 8th-army', 'sail', 'to north-sea', 'embark 2nd-army');
    expect(options(r.state)).toEqual(['embark 1st-airborne', 'embark home-guard', 'embark royal-marines', 'done']);
  });

  it('with the Royal Marines also aboard (Size 4 in all) it can carry no more; the units are at sea on the TRS', () => {
    const r = play(s0, 'sail europe-trs', 'load 8th-army', 'sail', 'to north-sea', 'embark royal-marines', 'embark 2nd-army');
    expect(options(r.state)).toEqual(['done']);
    const r2 = play(r.state, 'done');
    const u = r2.state.units;
    expect(u['europe-trs']!.at).toBe('sea:north-sea');
    expect([u['8th-army']!.at, u['royal-marines']!.at, u['2nd-army']!.at]).toEqual(['trs:europe-trs', 'trs:europe-trs', 'trs:europe-trs']);
    expect(u['us-1st-army']!.at).toBe('london');
    const moved = eventsOf(play(s0, 'sail europe-trs', 'load 8th-army', 'sail', 'to north-sea'), 'move-to-sea')[0]!;
    expect(moved.data).toMatchObject({ unit: 'europe-trs', from: 'scotland', to: 'sea:north-sea', cargo: ['8th-army'] });
    expect(eventsOf(r2, 'embark')[0]!.data!.cargo).toEqual(['8th-army', 'royal-marines', '2nd-army']);
  });

  it('a Size-1 TRS carries Size 2 at most: the 3rd Fleet loading the 2nd Army can load nothing else', () => {
    const r = play(s0, 'sail 3rd-fleet');
    expect(options(r.state)).toEqual(['load 1st-airborne', 'load 2nd-army', 'load home-guard', 'load royal-marines', 'load us-1st-army', 'sail']);
    expect(options(play(r.state, 'load 2nd-army').state)).toEqual(['sail']);
    expect(options(play(r.state, 'load home-guard').state)).toEqual(['load 1st-airborne', 'load royal-marines', 'sail']);
  });
});

describe('4.2 a naval move from Port first enters the sea touching the Port symbol', () => {
  // London touches the North Sea, but its Port is on the Western Approaches. With movement 1 the
  // 3rd Fleet can reach only the Western Approaches.
  const data = structuredClone(pack.data);
  const trs = data.units.units.find((u) => u.id === '3rd-fleet')!;
  trs.sizes['1'] = { ...trs.sizes['1']!, move: 1 };
  const checked = blitz.checkPack(data);
  if (!checked.ok) throw new Error(JSON.stringify(checked.issues));

  it('movement 1 from London: Western Approaches only', () => {
    const s = until(blitz.setup('B', checked.pack), 'WA', 'sea-pick');
    const r = play(s, 'sail 3rd-fleet', 'sail');
    expect(options(r.state)).toEqual(['to western-approaches']);
  });

  it('movement 2 from London (the real counter): the North Sea too, through the Western Approaches', () => {
    const s = until(start('B'), 'WA', 'sea-pick');
    const r = play(s, 'sail 3rd-fleet', 'sail');
    expect(options(r.state)).toEqual(['to north-sea', 'to western-approaches']);
  });
});

describe('4.2 who may move to sea', () => {
  it('a naval unit already at sea is not offered a move to sea (it must return to base first, B.2)', () => {
    const s = until(arrange(start('B'), { units: { '12th-fleet': { at: 'sea:western-approaches' } } }), 'WA', 'sea-pick');
    expect(options(s)).toEqual(['sail 3rd-fleet', 'sail europe-trs', 'sail north-sea-fleet', 'done']);
  });

  it('each unit moves once: after the 12th Fleet puts to sea it is not offered again', () => {
    const s = until(start('B'), 'WA', 'sea-pick');
    const r = play(s, 'sail 12th-fleet', 'to western-approaches');
    expect(r.state.units['12th-fleet']!.at).toBe('sea:western-approaches');
    expect(prompt(r.state)).toBe('WA:sea-pick');
    expect(options(r.state)).not.toContain('sail 12th-fleet');
    expect(options(r.state)).toContain('sail north-sea-fleet');
  });

  it('5.1: a unit that moved to sea cannot then rebase in the same phase; ships still in Port can', () => {
    const s = until(start('B'), 'WA', 'sea-pick');
    const r = play(s, 'sail 12th-fleet', 'to western-approaches', 'done');
    expect(prompt(r.state)).toBe('WA:rebase-pick');
    expect(options(r.state)).not.toContain('rebase 12th-fleet');
    expect(options(r.state)).toContain('rebase north-sea-fleet');
    expect(options(r.state)).toContain('rebase 3rd-fleet');
  });

  it('land units loaded onto a TRS are not also offered to another TRS', () => {
    const s = until(start('B'), 'WA', 'sea-pick');
    const r = play(s, 'sail 3rd-fleet', 'load royal-marines', 'sail', 'to western-approaches', 'done', 'sail europe-trs', 'sail', 'to north-sea');
    // London's units except the Royal Marines (already aboard the 3rd Fleet), then Scotland's 8th Army
    expect(options(r.state)).toEqual(['embark 1st-airborne', 'embark 2nd-army', 'embark home-guard', 'embark us-1st-army', 'embark 8th-army', 'done']);
  });
});

describe('4.2 example: the Italian fleet is shut in the Mediterranean', () => {
  // The full game at its start: the AFA hold Gibraltar and Egypt (Suez); Istanbul is neutral.
  const s = until(blitz.setup('full', pack), 'GER', 'sea-pick');

  it('the Italian fleet in Rome may put to sea in the Mediterranean only', () => {
    expect(s.control.gibraltar).toBe('AFA');
    expect(s.control.egypt).toBe('AFA');
    const to = options(play(s, 'sail italian-fleet').state);
    expect(to.filter((o) => o.startsWith('to '))).toEqual(['to mediterranean']);
    // Or into an Axis Port on it (4.2); not Sicily's Small Port, which already holds the Italian SUB (1.3).
    expect(to.filter((o) => o.startsWith('into '))).toEqual(['into cyrenaica', 'into milan', 'into tripolitania']);
  });

  it('but the Italian SUB (movement 2) may leave the Mediterranean past Gibraltar for the Western Approaches, not past Suez', () => {
    expect(s.units['italian-submarines']!.at).toBe('sicily');
    const to = options(play(s, 'sail italian-submarines').state);
    expect(to).toContain('to western-approaches');
    expect(to).not.toContain('to arabian-sea');
  });

  it('and other Axis SUBs may come into the Mediterranean: U-Boat II from a German Paris, where the High Seas Fleet may not', () => {
    const s2 = arrange(s, { units: { 'u-boat-ii': { power: 'GER', at: 'paris', size: 2 }, 'high-seas-fleet': { at: 'paris' } }, control: { paris: 'GER' } });
    expect(options(play(s2, 'sail u-boat-ii').state)).toContain('to mediterranean');
    expect(options(play(s2, 'sail high-seas-fleet').state)).not.toContain('to mediterranean');
  });

  it('4.1: U-Boat II at sea in the Western Approaches may return to base in Rome, through Gibraltar', () => {
    // The full game opens at Germany's move to sea; step back to its return to base (4.1) for this.
    const s2 = arrange({ ...s, step: 'return' }, { units: { 'u-boat-ii': { power: 'GER', at: 'sea:western-approaches', size: 2 }, 'high-seas-fleet': { at: 'sea:western-approaches' } } });
    expect(prompt(s2)).toBe('GER:return-pick');
    expect(options(play(s2, 'return u-boat-ii').state)).toContain('to rome');
    expect(options(play(s2, 'return high-seas-fleet').state)).not.toContain('to rome');
  });
});

describe('4.2 example: the Central TRS picks up the SNLF for Midway', () => {
  // Scenario E: the Central TRS in the Caroline Islands' Big Port, the SNLF (a MAR) in the Marshall Islands.
  const s = until(blitz.setup('E', pack), 'JAP', 'sea-pick');

  it('it has nothing to carry from the Carolines and moves into Micronesia', () => {
    expect(s.units['central-trs']!.at).toBe('caroline-islands');
    expect(s.units.snlf!.at).toBe('marshall-islands');
    const r = play(s, 'sail central-trs');
    expect(options(r.state)).toEqual(['sail']);
    expect(options(play(r.state, 'sail').state)).toContain('to micronesia');
  });

  it('ending its move there, it embarks the SNLF from the Marshall Islands, which touch Micronesia', () => {
    const r = play(s, 'sail central-trs', 'sail', 'to micronesia');
    expect(options(r.state)).toEqual(['embark snlf', 'done']);
    const r2 = play(r.state, 'embark snlf', 'done');
    expect(r2.state.units['central-trs']!.at).toBe('sea:micronesia');
    expect(r2.state.units.snlf!.at).toBe('trs:central-trs');
  });

  it('and the SNLF may then invade the Midway Islands from the TRS', () => {
    const r = play(s, 'sail central-trs', 'sail', 'to micronesia', 'embark snlf', 'done');
    const a = until(r.state, 'JAP', 'announce-attack');
    expect(options(a)).toContain('attack midway-islands');
    expect(options(play(a, 'attack midway-islands').state)).toContain('add snlf');
  });
});

describe('4.2 example: the Central TRS could instead sail into the Marshall Islands\' Small Port', () => {
  const s = until(blitz.setup('E', pack), 'JAP', 'sea-pick');

  it('Micronesia (1) and the Port (1) are within its movement of 2: the Marshall Islands are offered; the US Midway Islands are not', () => {
    const to = options(play(s, 'sail central-trs', 'sail').state);
    expect(to).toContain('into marshall-islands');
    expect(to).not.toContain('into midway-islands');
    expect(to).not.toContain('into caroline-islands'); // where it began
  });

  it('it ends its move in the Port, joining the SNLF, and has moved: not offered again, nor a rebase (5.1)', () => {
    const r = play(s, 'sail central-trs', 'sail', 'into marshall-islands');
    expect(r.state.units['central-trs']!.at).toBe('marshall-islands');
    expect(r.state.units.snlf!.at).toBe('marshall-islands');
    expect(eventsOf(r, 'move-to-sea')[0]!.data).toMatchObject({ unit: 'central-trs', from: 'caroline-islands', to: 'marshall-islands' });
    expect(prompt(r.state)).toBe('JAP:sea-pick');
    expect(options(r.state)).not.toContain('sail central-trs');
    const rb = until(r.state, 'JAP', 'rebase-pick');
    expect(options(rb)).not.toContain('rebase central-trs');
  });

  it('1.3: a Small Port takes naval Size 2 at most: the Combined Fleet (Size 4) may not sail in', () => {
    const s2 = arrange(s, { units: { 'combined-fleet': { at: 'caroline-islands' } } });
    const to = options(play(s2, 'sail combined-fleet').state);
    expect(to).toContain('to micronesia');
    expect(to).not.toContain('into marshall-islands');
  });

  it('one move fewer and the Port is out of reach: with movement 1 only the sea is offered', () => {
    const data = structuredClone(pack.data);
    const trs = data.units.units.find((u) => u.id === 'central-trs')!;
    trs.sizes['2'] = { ...trs.sizes['2']!, move: 1 };
    const s1 = until(blitz.setup('E', checkedPack(data, 'test pack')), 'JAP', 'sea-pick');
    expect(options(play(s1, 'sail central-trs', 'sail').state)).toEqual(['to micronesia']);
  });

  it('4.3: leaving Micronesia for the Port past a US fleet takes a blockade roll; blocked, it ends at sea there and may still embark', () => {
    const s2 = arrange(s, { units: { 'pacific-fleet': { power: 'WA', at: 'sea:micronesia', size: 4 } } });
    const r = play(s2, 'sail central-trs', 'sail', 'into marshall-islands');
    expect(prompt(r.state)).toBe('chance:blockade-die');
    const blocked = play(r.state, 'die 1');
    expect(blocked.state.units['central-trs']!.at).toBe('sea:micronesia');
    expect(options(blocked.state)).toEqual(['embark snlf', 'done']);
    const through = play(r.state, 'die 6');
    expect(through.state.units['central-trs']!.at).toBe('marshall-islands');
    expect(prompt(through.state)).toBe('JAP:sea-pick');
  });

  it('what the TRS carries comes ashore in the Port, if it can stand there (an Island holds land Size 2)', () => {
    const s2 = arrange(s, { units: { '14th-area-army': { at: 'caroline-islands' } } });
    const r = play(s2, 'sail central-trs', 'load 14th-area-army', 'sail', 'into marshall-islands');
    expect(r.state.units['central-trs']!.at).toBe('marshall-islands');
    expect(r.state.units['14th-area-army']!.at).toBe('marshall-islands');
    const s3 = arrange(s, { units: { '25th-army': { at: 'caroline-islands' } } }); // Size 2: with the SNLF, 3 on the Island
    expect(options(play(s3, 'sail central-trs', 'load 25th-army', 'sail').state)).not.toContain('into marshall-islands');
  });
});

describe('4.2 whose land units a TRS may carry (the full game, where the AFA and the USA are separate powers)', () => {
  // The Europe Trs. (AFA) in London with the US 1st Army and a Chinese army there, at the AFA's first move to sea.
  const s = arrange(blitz.setup('full', pack), { units: { 'europe-trs': { power: 'AFA', at: 'london', size: 2 }, 'us-1st-army': { at: 'london' }, 'nationalist-army': { at: 'london' } } });

  it('while the USA is neutral an AFA TRS carries AFA land units only', () => {
    const a = reach(s, 'AFA', 'sea-pick');
    expect(options(play(a, 'sail europe-trs').state)).toEqual(['sail']);
  });

  it('once the USA is not neutral it may carry US land units too; Chinese land units never', () => {
    const a = reach({ ...s, neutral: ['USSR'] }, 'AFA', 'sea-pick');
    expect(a.units['nationalist-army']!.power).toBe('USA');
    expect(options(play(a, 'sail europe-trs').state)).toEqual(['load us-1st-army', 'sail']);
  });

  it('not even a US TRS carries a Chinese land unit run by the USA', () => {
    const s2 = arrange({ ...s, neutral: ['USSR'] }, { units: { '3rd-fleet': { power: 'USA', at: 'london', size: 1 } } });
    const a = reach(s2, 'USA', 'sea-pick');
    expect(options(play(a, 'sail 3rd-fleet').state)).toEqual(['load us-1st-army', 'sail']);
  });
});
