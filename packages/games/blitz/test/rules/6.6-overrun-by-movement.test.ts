/**
 * 6.6 overrun on a change of control by movement (5.2: moving into an empty enemy area takes control
 * "see 6.6"): "Any enemy air and/or naval unit in a land area that you take control of is
 * immediately moved" to the closest area where it can stack (the taker chooses among ties), or
 * destroyed if none is within triple its movement.
 */
import { describe, expect, it } from 'vitest';
import { arrange, play, prompt, start, until } from '../helpers.ts';
import { overrunDestinations } from '../../src/rules/combat.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { areaInSupply } from '../../src/rules/supply.ts';


describe('6.6 overrun when an area is taken by moving in (Scenario B)', () => {
  it('the Luftwaffe based in an emptied Paris is moved out when US 1st Army walks in from Vichy France', () => {
    const s = until(
      arrange(start('B'), {
        units: { 'army-group-b': null, '7th-army': null, 'atlantic-wall': null, '19th-army': null, luftwaffe: { at: 'paris' }, 'us-1st-army': { at: 'vichy-france' } },
        control: { 'vichy-france': 'WA' },
      }),
      'WA',
      'move-pick',
    );
    const r = play(s, 'move us-1st-army', 'to paris');
    expect(r.state.control.paris).toBe('WA');
    // Immediately: either already moved, or the Western Allies are asked where (Belgium-Netherlands
    // and Western Germany are both 1 away, and the taker breaks ties, 6.6).
    const moved = r.state.units.luftwaffe!.at !== 'paris';
    const asked = prompt(r.state) === 'WA:overrun-destination';
    expect({ moved, asked, luftwaffe: r.state.units.luftwaffe!.at, prompt: prompt(r.state) }).toMatchObject(moved ? { moved } : { asked: true });
  });
});

describe('6.6 overrun: only to an area a supply line reaches (1.7)', () => {
  // Scenario D: the Luftwaffe in Poland. Berlin, East Prussia and Central Europe are all one area away;
  // Central Europe's only supply line runs through Poland.
  it('while Poland is German, Central Europe is one of the closest areas the Luftwaffe could be moved to', () => {
    const s = start('D');
    const p = packOf(s.pack);
    expect(areaInSupply(p, s, 'GER', 'germany', 'central-europe', 'unit')).toBe(true);
    expect(overrunDestinations(p, s, 'luftwaffe')).toEqual(['berlin', 'central-europe', 'east-prussia']);
  });

  it('once the Soviets take Poland, Central Europe is cut off and left out; the German home areas remain', () => {
    const s = structuredClone(start('D'));
    s.control.poland = 'USSR';
    const p = packOf(s.pack);
    expect(s.control['central-europe']).toBe('GER');
    expect(areaInSupply(p, s, 'GER', 'germany', 'central-europe', 'unit')).toBe(false);
    expect(overrunDestinations(p, s, 'luftwaffe')).toEqual(['berlin', 'east-prussia']);
  });
});
