/**
 * 7.6 Determining Oil and Resources: the rulebook's examples replayed on the full game with `turnIncome`
 * (the 7.6 steps as the engine counts them at the turn end).
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { turnIncome } from '../../src/rules/income.ts';
import { landDef, packOf } from '../../src/rules/pack-index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, pack } from '../helpers.ts';

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

  it('the Bay of Bengal Lend Lease sends one Resource to China: two Resources for Chinese units only, the rest not for them', () => {
    const s = arrange(s2(), { units: { 'bay-of-bengal-ll': { power: 'USA', at: 'sea:bay-of-bengal', size: 1 } } });
    const usa = turnIncome(p, structuredClone(s), []).USA!;
    expect(usa.earmark.china).toBe(2);
    expect([usa.oil, usa.res]).toEqual([4, 8]);
  });
});
