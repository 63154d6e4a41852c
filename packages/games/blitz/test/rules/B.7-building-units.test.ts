/**
 * B.7 Building Units: at the end of each turn but the last, each power gets its in-play Oil and
 * Resources (the Western Allies also 6 off-map), repairs on-map units (1 per Size) and builds Force
 * Pool units (1 per Size), placed in its home country (USA units in Great Britain, naval units only
 * where there is a Port, a FORT anywhere it controls). Units marked for Turn 10 are not offered on
 * Turn 9. Picks are secret until both powers have finished (1.9).
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { PackFiles } from '../../src/pack/schema.ts';
import { arrange, checkedPack, eventsOf, options, pack, play, prompt, start, until } from '../helpers.ts';

/** The bundled pack with one made-up counter added to Scenario B's Force Pool at Size 2. */
function withPoolUnit(unit: PackFiles['units']['units'][number]) {
  const data = structuredClone(pack.data);
  data.units.units.push(unit);
  data.scenarios.scenarios.find((x) => x.id === 'B')!.forcePool.push({ unit: unit.id, size: 2 });
  return checkedPack(data, `the bundled pack with ${unit.id}`);
}


const parisFreed = () => arrange(start('B'), { units: { 'army-group-b': null, '7th-army': null, 'atlantic-wall': null }, control: { paris: 'WA' } });

describe('B.7/7.6 build resources', () => {
  it('at the end of Turn 9: Germany 6 (its in-play Oil and Resources), the Western Allies 7 (6 off-map + London)', () => {
    const s = until(start('B'), 'GER', 'build-pick');
    expect([s.turn, s.impulse]).toEqual([9, 5]);
    expect(s.res).toEqual({ GER: 6, WA: 7 });
  });

  it("Paris's 2 Resources count for whoever controls it", () => {
    const s = until(parisFreed(), 'GER', 'build-pick');
    expect(s.res).toEqual({ GER: 4, WA: 9 });
  });
});

describe('B.7 what may be built on Turn 9', () => {
  const ger = until(start('B'), 'GER', 'build-pick');

  it('Germany: repairs of its reduced units and Force Pool units, but not the Turn-10 units (5th Panzer Army, Volkssturm)', () => {
    expect(options(ger)).toEqual(['repair 15th-army', 'repair 19th-army', 'repair 7th-army', 'repair luftwaffe', 'build 1st-para', 'build west-wall', 'done']);
  });

  it('the Western Allies: not the Turn-10 US 9th Army, and no Free French while they hold no French area', () => {
    const wa = play(ger, 'done').state;
    expect(prompt(wa)).toBe('WA:build-pick');
    expect(options(wa)).toEqual(['repair 3rd-fleet', 'repair 8th-army', 'build 3rd-army', 'done']);
  });

  it('on Turn 10 the Turn-10 units are offered', () => {
    const s = until(play(until(ger, 'WA', 'build-pick'), 'done').state, 'GER', 'build-pick');
    expect(s.turn).toBe(10);
    expect(options(s)).toContain('build 5th-panzer-army');
    expect(options(s)).toContain('build volkssturm');
    expect(options(play(s, 'done').state)).toContain('build 9th-army');
  });
});

describe('B.7/7.8 costs: 1 per Size repaired or built', () => {
  const ger = until(start('B'), 'GER', 'build-pick');

  it('four repairs leave 2 of 6: the West Wall may be built at Size 1 or 2', () => {
    const r = play(ger, 'repair 15th-army', 'repair 19th-army', 'repair 7th-army', 'repair luftwaffe', 'build west-wall');
    expect(prompt(r.state)).toBe('GER:build-size');
    expect(options(r.state)).toEqual(['size 1', 'size 2']);
  });

  it('a repair costs 1 and adds one Size: the 15th Army (Size 1 of 2) is not offered a second repair', () => {
    const r = play(ger, 'repair 15th-army');
    expect(options(r.state)).not.toContain('repair 15th-army');
    expect(options(r.state)).toContain('repair 19th-army');
  });

  it('four repairs and the 1st Para (Size 1) leave 1: the West Wall only at Size 1', () => {
    const r = play(ger, 'repair 15th-army', 'repair 19th-army', 'repair 7th-army', 'repair luftwaffe', 'build 1st-para', 'size 1', 'at berlin', 'build west-wall');
    expect(options(r.state)).toEqual(['size 1']);
  });

  it('a FORT may be placed in any area Germany controls; spending everything ends its builds', () => {
    const r = play(ger, 'repair 15th-army', 'repair 19th-army', 'repair 7th-army', 'repair luftwaffe', 'build west-wall', 'size 2');
    expect(prompt(r.state)).toBe('GER:build-where');
    expect(options(r.state).sort()).toEqual(['at belgium-netherlands', 'at berlin', 'at paris', 'at vichy-france', 'at western-germany']);
    expect(prompt(play(r.state, 'at paris').state)).toBe('WA:build-pick');
  });

  it('a German land unit goes in Germany only (Western Germany or Berlin)', () => {
    expect(options(play(ger, 'build 1st-para', 'size 1').state).sort()).toEqual(['at berlin', 'at western-germany']);
  });
});

describe('B.7 placement', () => {
  it('USA units are placed in Great Britain, even with Paris in Allied hands', () => {
    const wa = until(parisFreed(), 'WA', 'build-pick');
    expect(options(play(wa, 'build 3rd-army', 'size 2').state).sort()).toEqual(['at london', 'at scotland']);
    // The Free French Army's home is French North Africa (3.4 example), not in play in B: not in B's Force Pool.
    expect(options(wa)).not.toContain('build free-french-army');
  });

  it('a French unit is placed in France, in Paris once the Western Allies hold it', () => {
    const checked = withPoolUnit({ id: 'test-french-army', name: 'Test French Army', nation: 'AFA', home: 'france', type: 'INF', sizes: { '1': { move: 2, land: 2 }, '2': { move: 2, land: 3 } } });
    const held = until(blitz.setup('B', checked), 'WA', 'build-pick');
    expect(options(held)).not.toContain('build test-french-army');
    const freed = until(arrange(blitz.setup('B', checked), { units: { 'army-group-b': null, '7th-army': null, 'atlantic-wall': null }, control: { paris: 'WA' } }), 'WA', 'build-pick');
    expect(options(play(freed, 'build test-french-army', 'size 2').state)).toEqual(['at paris']);
  });

  it('a naval unit is placed only where there is a Port: a German BB goes to Western Germany, not Berlin', () => {
    const checked = withPoolUnit({ id: 'test-bb', name: 'Test BB', nation: 'GER', home: 'germany', type: 'BB', sizes: { '1': { move: 2, naval: 2 }, '2': { move: 2, naval: 3 } } });
    const ger = until(blitz.setup('B', checked), 'GER', 'build-pick');
    expect(options(ger)).toContain('build test-bb');
    expect(options(play(ger, 'build test-bb', 'size 2').state)).toEqual(['at western-germany']);
  });
});

describe('1.9/B.7 builds are secret until both powers have finished', () => {
  const ger = until(start('B'), 'GER', 'build-pick');
  const r = play(ger, 'repair 15th-army', 'build west-wall', 'size 2', 'at paris', 'done');

  it("while the Western Allies choose, their view does not show Germany's picks, and nothing is on the map yet", () => {
    expect(prompt(r.state)).toBe('WA:build-pick');
    const waView = blitz.observe(r.state, 'WA');
    expect(waView.hidden.GER).toBeUndefined();
    expect(JSON.stringify(waView)).not.toContain('west-wall","size":2');
    expect(r.state.units['west-wall']).toBeUndefined();
    expect(r.state.units['15th-army']!.size).toBe(1);
    expect(eventsOf(r, 'build')).toEqual([]);
    expect(eventsOf(r, 'repair')).toEqual([]);
  });

  it("Germany's own view shows its picks; the Western Allies' picks are hidden from Germany", () => {
    expect(blitz.observe(r.state, 'GER').hidden.GER).toEqual([
      { unit: '15th-army', size: 1, at: '' },
      { unit: 'west-wall', size: 2, at: 'paris' },
    ]);
    const wa = play(r.state, 'build 3rd-army', 'size 2', 'at london');
    expect(prompt(wa.state)).toBe('WA:build-pick');
    expect(blitz.observe(wa.state, 'GER').hidden.WA).toBeUndefined();
    expect(blitz.observe(wa.state, 'WA').hidden.WA).toEqual([{ unit: '3rd-army', size: 2, at: 'london' }]);
  });

  it('when the Western Allies finish, everything is revealed and placed at once, and Turn 10 begins', () => {
    const done = play(r.state, 'build 3rd-army', 'size 2', 'at london', 'done');
    expect(done.state.units['west-wall']).toMatchObject({ power: 'GER', size: 2, at: 'paris' });
    expect(done.state.units['3rd-army']).toMatchObject({ power: 'WA', size: 2, at: 'london' });
    expect(done.state.units['15th-army']!.size).toBe(2);
    expect(eventsOf(done, 'build').map((e) => e.data!.unit).sort()).toEqual(['3rd-army', 'west-wall']);
    expect(eventsOf(done, 'repair').map((e) => e.data!.unit)).toEqual(['15th-army']);
    expect(done.state.hidden).toEqual({});
    expect(done.state.turn).toBe(10);
    expect(done.state.pool['west-wall']).toBeUndefined();
  });
});

describe('B.7 nothing is built at the end of the last turn', () => {
  it('income and build questions come at the ends of Turns 9 and 10 only; Turn 11 ends the game', () => {
    let s = start('B');
    const incomeTurns: number[] = [];
    const buildTurns = new Set<number>();
    for (let i = 0; i < 1000 && blitz.pending(s).kind === 'decision'; i++) {
      const p = blitz.pending(s);
      if (p.kind !== 'decision') break;
      if (p.prompt === 'build-pick') buildTurns.add(s.turn);
      const pass = p.options.find((o) => o === 'done' || o === 'stop' || o === 'launch') ?? p.options[0]!;
      const turn = s.turn;
      const step = blitz.apply(s, pass);
      for (const e of step.events) if (e.type === 'income') incomeTurns.push(turn);
      s = step.state;
    }
    expect(blitz.pending(s).kind).toBe('terminal');
    expect(s.turn).toBe(11);
    expect(incomeTurns).toEqual([9, 10]);
    expect([...buildTurns]).toEqual([9, 10]);
  });
});
