/**
 * 4.1 / B.1 Return to Base: a naval unit at sea may return to a Port its side controls, reached
 * within its movement through the sea touching that Port, or stay at sea; land units it carries come
 * ashore with it. A Big Port takes any number of naval units, a Small Port naval units of Size 2 in
 * all (1.3).
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { arrange, eventsOf, options, pack, passUntil, play, prompt, reach, start, until } from '../helpers.ts';


describe('4.1 return to base', () => {
  const atSea = arrange(start('B'), { units: { 'europe-trs': { at: 'sea:north-sea' }, '2nd-army': { at: 'trs:europe-trs' } } });
  const s0 = until(atSea, 'WA', 'return-pick');

  it('the Western Allies are first asked which of their units at sea return', () => {
    expect(prompt(s0)).toBe('WA:return-pick');
    expect(options(s0)).toEqual(['return europe-trs', 'done']);
  });

  it('friendly Ports in range: Scotland (North Sea Port, 1) and London (Western Approaches Port, 2); German-held Ports are not', () => {
    const r = play(s0, 'return europe-trs');
    expect(prompt(r.state)).toBe('WA:return-to');
    expect(options(r.state)).toEqual(['to london', 'to scotland']);
  });

  it('a Port the side controls becomes eligible: Belgium-Netherlands after the Allies take it', () => {
    const s = until(arrange(atSea, { units: { '15th-army': null }, control: { 'belgium-netherlands': 'WA' } }), 'WA', 'return-pick');
    expect(options(play(s, 'return europe-trs').state)).toEqual(['to belgium-netherlands', 'to london', 'to scotland']);
  });

  it('the carried 2nd Army comes ashore in London with the TRS', () => {
    const r = play(s0, 'return europe-trs', 'to london');
    expect(r.state.units['europe-trs']!.at).toBe('london');
    expect(r.state.units['2nd-army']!.at).toBe('london');
    expect(eventsOf(r, 'return-to-base')[0]!.data).toMatchObject({ unit: 'europe-trs', from: 'sea:north-sea', to: 'london' });
  });

  it('having returned, the TRS does not also move to sea in the same phase (each unit moves once, 4.2)', () => {
    const r = play(s0, 'return europe-trs', 'to london');
    expect(prompt(r.state)).toBe('WA:sea-pick');
    expect(options(r.state)).not.toContain('sail europe-trs');
    expect(options(r.state)).toContain('sail north-sea-fleet');
  });

  it('or it may stay at sea, still carrying the 2nd Army', () => {
    const r = play(s0, 'done');
    expect(prompt(r.state)).toBe('WA:sea-pick');
    expect(r.state.units['europe-trs']!.at).toBe('sea:north-sea');
    expect(r.state.units['2nd-army']!.at).toBe('trs:europe-trs');
  });
});

describe('1.3/B.1 Small Ports hold naval units of Size 2 in all', () => {
  // Vichy France (Small Port on the Western Approaches) in Allied hands, the Size-1 3rd Fleet already there.
  const s0 = until(
    arrange(start('B'), {
      units: {
        '19th-army': null,
        '3rd-fleet': { at: 'vichy-france' },
        '12th-fleet': { at: 'sea:western-approaches' },
        'north-sea-fleet': { at: 'sea:western-approaches', size: 1 },
      },
      control: { 'vichy-france': 'WA' },
    }),
    'WA',
    'return-pick',
  );

  it('the Size-2 12th Fleet cannot join the Size-1 3rd Fleet in Vichy France', () => {
    expect(options(play(s0, 'return 12th-fleet').state)).toEqual(['to london', 'to scotland']);
  });

  it('a Size-1 fleet can (1 + 1 = 2), and then the Port is full', () => {
    const r = play(s0, 'return north-sea-fleet');
    expect(options(r.state)).toEqual(['to london', 'to scotland', 'to vichy-france']);
    const r2 = play(r.state, 'to vichy-france', 'return 12th-fleet');
    expect(r2.state.units['north-sea-fleet']!.at).toBe('vichy-france');
    expect(options(r2.state)).toEqual(['to london', 'to scotland']);
  });

  it('a Big Port takes any number: London accepts the 12th Fleet on top of the ships already there', () => {
    const r = play(s0, 'return 12th-fleet', 'to london');
    expect(r.state.units['12th-fleet']!.at).toBe('london');
  });
});

describe('4.1 example: the Pacific Fleet returns to base from the Bismarck Sea', () => {
  // Scenario E with the Pacific Fleet (movement 2) at sea in the Bismarck Sea. Darwin has a Small Port on
  // that sea; Perth's Big Port is two seas away (Tasman Sea, Cape Naturaliste) plus one to enter it;
  // Canberra's Big Port is on the Tasman Sea.
  const atSea = (size: number) => until(arrange(blitz.setup('E', pack), { units: { 'pacific-fleet': { at: 'sea:bismarck-sea', size } } }), 'WA', 'return-pick');

  it('as a Big unit (Size 4) it may not go to Darwin\'s Small Port, nor reach Perth (3 moves); Canberra is eligible', () => {
    const r = play(atSea(4), 'return pacific-fleet');
    expect(options(r.state)).toContain('to canberra');
    expect(options(r.state)).not.toContain('to darwin');
    expect(options(r.state)).not.toContain('to perth');
    const r2 = play(r.state, 'to canberra');
    expect(r2.state.units['pacific-fleet']!.at).toBe('canberra');
  });

  it('whereas at Size 2 it would fit in Darwin', () => {
    expect(options(play(atSea(2), 'return pacific-fleet').state)).toContain('to darwin');
  });

  it('with Canberra and New Zealand Japanese no base is in range: it must return to one of the closest (its owner\'s choice), and may not stay at sea', () => {
    const s = reach(arrange(blitz.setup('E', pack), { control: { canberra: 'JAP', 'new-zealand': 'JAP' }, units: { 'pacific-fleet': { at: 'sea:bismarck-sea', size: 4 } } }), 'WA', 'return-to');
    expect(s.sel).toMatchObject({ kind: 'return', unit: 'pacific-fleet' });
    const to = options(s);
    expect(to).not.toContain('done');
    expect(to).not.toContain('to darwin'); // its Small Port cannot take a Big unit
    // All 3 away (two seas and a Port), Perth among them.
    expect(to).toEqual(expect.arrayContaining(['to hawaii', 'to manila', 'to perth']));
    const r = play(s, to[0]!);
    expect(r.state.units['pacific-fleet']!.at).toBe(to[0]!.slice(3));
  });
});

// 4.1 example, on Scenario D: the Soviet Baltic Sea Fleet at sea in the Baltic with Leningrad German; the
// other Baltic Ports are German or neutral and the Danish straits are shut to it, so it has no base at all.
describe('4.1 example: the Baltic Sea Fleet with no base left is destroyed', () => {
  const fleetAtSea = (leningrad: string) => arrange(blitz.setup('D', pack), { control: { leningrad }, units: { 'baltic-sea-fleet': { at: 'sea:baltic-sea' } } });

  it('with Leningrad German it is destroyed as its side\'s return step begins, though it could stay at sea', () => {
    const seen: { type: string; power: string }[] = [];
    const s = passUntil(fleetAtSea('GER'), (x) => x.units['baltic-sea-fleet']!.at !== 'sea:baltic-sea', {
      onStep: (_q, events, before) => events.forEach((e) => seen.push({ type: e.type, power: before.power })),
    })!;
    expect(s.units['baltic-sea-fleet']!.at).toBe('pool');
    const i = seen.findIndex((e) => e.type === 'stranded');
    expect(i).toBeGreaterThanOrEqual(0);
    expect(seen[i + 1]!.type).toBe('elimination');
  });

  it('with Leningrad Soviet it may return there or stay at sea', () => {
    const s = reach(fleetAtSea('USSR'), 'USSR', 'return-pick');
    expect(s.units['baltic-sea-fleet']!.at).toBe('sea:baltic-sea');
    expect(options(s)).toContain('return baltic-sea-fleet');
    expect(options(play(s, 'return baltic-sea-fleet').state)).toEqual(['to leningrad']);
  });
});

// 4.1, on Scenario D: the Soviet Black Sea Fleet at sea in the Black Sea with the Don Basin and the
// Caucasus German, so Ukraine (a Port of its own country, not the USSR's) is its one base in range.
describe('4.1: a unit whose only base in range cannot trace supply must return to it', () => {
  const fleetAtSea = (control: Record<string, string>) =>
    arrange(blitz.setup('D', pack), { control: { 'don-basin': 'GER', 'caucasus-mountains': 'GER', ...control }, units: { 'black-sea-fleet': { at: 'sea:black-sea' } } });

  it('with Byelorussia and Moscow German too, Ukraine is cut off: the fleet is sent back there as its return step begins, and may not stay at sea', () => {
    const seen: string[] = [];
    const s = passUntil(fleetAtSea({ byelorussia: 'GER', moscow: 'GER' }), (_, q) => q.kind === 'decision' && q.power === 'USSR' && q.prompt === 'return-to', {
      onStep: (_q, events) => events.forEach((e) => seen.push(e.type)),
    })!;
    expect(s.sel).toEqual({ kind: 'return', unit: 'black-sea-fleet', forced: ['ukraine'] });
    expect(options(s)).toEqual(['to ukraine']);
    expect(seen).toContain('cut-off-base');
    const r = play(s, 'to ukraine');
    expect(r.state.units['black-sea-fleet']!.at).toBe('ukraine');
  });

  it('with Ukraine still linked to Moscow by land, it is in supply: the fleet may return there or stay at sea', () => {
    const s = reach(fleetAtSea({}), 'USSR', 'return-pick');
    expect(s.units['black-sea-fleet']!.at).toBe('sea:black-sea');
    expect(options(s)).toEqual(['return black-sea-fleet', 'done']);
    expect(options(play(s, 'return black-sea-fleet').state)).toEqual(['to ukraine']);
  });
});
