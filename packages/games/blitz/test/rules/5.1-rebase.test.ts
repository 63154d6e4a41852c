/**
 * 5.1 / A.3 / B.3 Rebase: air (and PARA) units rebase up to three times their air movement, land
 * areas costing 1, sea areas 2, Air Routes counting as adjacent (London-Paris = 1), through enemy
 * land but never neutral land, ending in a friendly land area (never at sea). Naval units rebase
 * Port to friendly Port at three times their movement, never through a sea holding an armed enemy
 * unit; a rebasing TRS may carry land units, which disembark at the destination. A Land Blitz
 * (A.8, 2.2: steps E and F only) rebases nothing.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { airDistances } from '../../src/rules/geometry.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { arrange, eventsOf, options, pack, play, prompt, start, until, checkedPack } from '../helpers.ts';


const rebaseTo = (s: BlitzState, unit: string) => options(play(s, `rebase ${unit}`).state);

describe('5.1/A.3 air rebase in Scenario A (range 3 x air movement)', () => {
  const s0 = until(start('A'), 'AFA', 'rebase-pick');

  it('the RAF (air movement 1) from London: Paris by the Air Route (1), Scotland (1), Vichy France (2); not Poland (4), not neutral Belgium-Netherlands, not German Western Germany', () => {
    expect(prompt(s0)).toBe('AFA:rebase-pick');
    expect(rebaseTo(s0, 'royal-air-force')).toEqual(['to paris', 'to scotland', 'to vichy-france']);
  });

  it("the Armée de l'Air from Paris reaches Poland (3) flying over German Western Germany and Berlin", () => {
    expect(rebaseTo(s0, 'armee-de-l-air')).toEqual(['to london', 'to poland', 'to scotland', 'to vichy-france']);
  });

  it('the Air Route counts 1: with Berlin Allied, London -> Paris -> Western Germany -> Berlin is exactly 3', () => {
    const s = until(
      arrange(start('A'), {
        units: { 'army-group-center': { at: 'western-germany' }, 'army-group-north': { at: 'western-germany' }, '1st-para': { at: 'western-germany' }, luftwaffe: { at: 'western-germany' }, stukas: { at: 'western-germany' } },
        control: { berlin: 'AFA' },
      }),
      'AFA',
      'rebase-pick',
    );
    expect(rebaseTo(s, 'royal-air-force')).toContain('to berlin');
  });

  it('never through neutral land: with Paris neutral, London reaches only Scotland', () => {
    const s = until(arrange(start('A'), { control: { paris: 'neutral' } }), 'AFA', 'rebase-pick');
    expect(rebaseTo(s, 'royal-air-force')).toEqual(['to scotland']);
  });

  it('the rebase moves the unit and records it; it is not offered a second rebase', () => {
    const r = play(s0, 'rebase royal-air-force', 'to vichy-france');
    expect(r.state.units['royal-air-force']!.at).toBe('vichy-france');
    expect(eventsOf(r, 'rebase')[0]!.data).toMatchObject({ unit: 'royal-air-force', from: 'london', to: 'vichy-france' });
    expect(options(r.state)).not.toContain('rebase royal-air-force');
  });
});

describe('5.1 air rebase over sea (Scenario B): a sea area costs 2, and a rebase never ends at sea', () => {
  // London made neutral so that the only way out of Scotland is over the North Sea.
  const s = until(
    arrange(start('B'), {
      units: { 'royal-air-force': { at: 'scotland' }, '15th-army': null, '19th-army': null },
      control: { london: 'neutral', 'belgium-netherlands': 'WA', 'vichy-france': 'WA' },
    }),
    'WA',
    'rebase-pick',
  );

  it('Scotland -> North Sea (2) -> Belgium-Netherlands (3) is in range; Vichy France (5, via the Western Approaches) is not', () => {
    expect(rebaseTo(s, 'royal-air-force')).toEqual(['to belgium-netherlands']);
  });
});

describe('5.1/B.3 naval rebase', () => {
  const s0 = until(start('B'), 'WA', 'rebase-pick');

  it('the North Sea Fleet in Scotland may rebase only to friendly Ports: London (3 of its 6)', () => {
    expect(rebaseTo(s0, 'north-sea-fleet')).toEqual(['to london']);
  });

  it('an Allied-held Paris becomes a destination', () => {
    const s = until(arrange(start('B'), { units: { 'army-group-b': null, '7th-army': null, 'atlantic-wall': null }, control: { paris: 'WA' } }), 'WA', 'rebase-pick');
    expect(rebaseTo(s, 'north-sea-fleet')).toEqual(['to london', 'to paris']);
    expect(rebaseTo(s, '12th-fleet')).toEqual(['to paris', 'to scotland']);
  });

  it('no rebase through a sea holding an armed enemy unit: German fighters over the Western Approaches seal London', () => {
    const s = until(arrange(start('B'), { units: { 'me-109s': { at: 'sea:western-approaches' } } }), 'WA', 'rebase-pick');
    const opts = options(s);
    for (const ship of ['12th-fleet', '3rd-fleet', 'north-sea-fleet', 'europe-trs']) expect(opts).not.toContain(`rebase ${ship}`);
    expect(opts).toContain('rebase royal-air-force'); // air units disregard enemy units (5.1)
  });

  it('a rebasing TRS may carry land units from its starting area, which disembark at the destination', () => {
    const r = play(s0, 'rebase 3rd-fleet');
    expect(prompt(r.state)).toBe('WA:rebase-load');
    expect(options(r.state)).toEqual(['load 1st-airborne', 'load 2nd-army', 'load home-guard', 'load royal-marines', 'load us-1st-army', 'go']);
    const r2 = play(r.state, 'load 2nd-army', 'to scotland');
    expect(r2.state.units['3rd-fleet']!.at).toBe('scotland');
    expect(r2.state.units['2nd-army']!.at).toBe('scotland');
    expect(eventsOf(r2, 'rebase')[0]!.data).toMatchObject({ unit: '3rd-fleet', from: 'london', to: 'scotland', cargo: ['2nd-army'] });
  });
});

describe('A.8/2.2 a German Land Blitz rebases nothing', () => {
  for (const sc of ['A', 'B'] as const) {
    it(`Scenario ${sc}: Germany is asked to rebase in its activities but not in its Land Blitz`, () => {
      let s = start(sc);
      const seen: Record<number, string[]> = {};
      while (s.turn === (sc === 'A' ? 1 : 9) && s.impulse <= 3) {
        const p = blitz.pending(s);
        if (p.kind !== 'decision') break;
        (seen[s.impulse] ??= []).push(`${p.power}:${p.prompt}`);
        const pass = p.options.find((o) => o === 'done' || o === 'stop' || o === 'launch') ?? p.options[0]!;
        s = blitz.apply(s, pass).state;
      }
      expect(seen[1]).toContain('GER:rebase-pick');
      expect(seen[3]!.length).toBeGreaterThan(0);
      expect(seen[3]).toContain('GER:move-pick');
      expect(seen[3]!.filter((x) => x.includes('rebase'))).toEqual([]);
    });
  }
});

describe('A.3 example: the Royal Air Force rebases from London to Paris', () => {
  // Scenario B (its seas are in play) with Paris and Vichy France Allied; the RAF has air movement 1, so 3 to rebase.
  const friendlyFrance = (s: BlitzState) =>
    arrange(s, { units: { 'army-group-b': null, '7th-army': null, 'atlantic-wall': null, '19th-army': null }, control: { paris: 'WA', 'vichy-france': 'WA' } });
  const noAirRoute = (() => {
    const files = structuredClone(pack.data);
    files.map.airRoutes = files.map.airRoutes.filter(([a, b]) => !(a === 'london' && b === 'paris') && !(a === 'paris' && b === 'london'));
    return checkedPack(files, 'test pack without the London-Paris Air Route');
  })();

  it('by the North Sea: two for the sea, one for Paris, three in all, which its rebase range allows', () => {
    const s = friendlyFrance(blitz.setup('B', noAirRoute));
    const d = airDistances(packOf(s.pack), s, 'london', 3);
    expect(d.get('sea:north-sea')).toBe(2);
    expect(d.get('paris')).toBe(3);
    expect(rebaseTo(until(s, 'WA', 'rebase-pick'), 'royal-air-force')).toContain('to paris');
  });

  it('by the Air Route: Paris for one, and on to Vichy France for two', () => {
    const s = friendlyFrance(start('B'));
    const d = airDistances(packOf(s.pack), s, 'london', 3);
    expect(d.get('paris')).toBe(1);
    expect(d.get('vichy-france')).toBe(2);
    expect(rebaseTo(until(s, 'WA', 'rebase-pick'), 'royal-air-force')).toEqual(expect.arrayContaining(['to paris', 'to vichy-france']));
  });
});
