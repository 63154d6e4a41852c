/**
 * 1.1, 1.2, 1.5, 1.11: who plays which side, what a counter's Size changes, initial control, and a
 * scenario's set-up taken from the pack.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { face } from '../../src/rules/query.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { arrange, pack, play, skipTo, start } from '../helpers.ts';

const scenario = (id: string) => pack.data.scenarios.scenarios.find((s) => s.id === id)!;

describe('1.1 major powers and sides', () => {
  it('Germany is the Axis; the AFA (A) or the Western Allies, AFA and USA counters together (B), are the Allies', () => {
    const sides = (id: string) => blitz.scenarios(pack).find((s) => s.id === id)!.sides.map((x) => [x.id, x.powers]);
    expect(sides('A')).toEqual([['Axis', ['GER']], ['Allies', ['AFA']]]);
    expect(sides('B')).toEqual([['Axis', ['GER']], ['Allies', ['WA']]]);
    expect(scenario('B').powers.find((p) => p.id === 'WA')!.nations).toEqual(['AFA', 'USA']);
  });
});

describe('1.2 unit counters', () => {
  it("a unit's factors are those of the side showing its current Size (the Polish Army's erratum: LF 3 at Size 2, 2 at Size 1)", () => {
    const s = start('A');
    const p = packOf(s.pack);
    const polish = s.units['polish-army']!;
    expect(face(p, polish).land).toBe(polish.size === 2 ? 3 : 2);
    expect(face(p, { ...polish, size: 1 }).land).toBe(2);
    expect(() => face(p, { ...polish, size: 3 })).toThrow(/no Size-3 side/);
  });
});

describe('1.5 control of areas', () => {
  it('every land area in play starts under the control the set-up chart gives, and moving into an empty enemy area takes it', () => {
    for (const id of ['A', 'B']) {
      const s = start(id as 'A' | 'B');
      expect(s.control).toEqual(scenario(id).control);
    }
    // Poland emptied of its army: Army Group Center walks in, and control changes hands at once.
    const s = skipTo(arrange(start('A'), { units: { 'polish-army': null } }), 'move-pick');
    expect(s.control.poland).toBe('AFA');
    const r = play(s, 'move army-group-center', 'to poland');
    expect(r.state.control.poland).toBe('GER');
    expect(r.events.filter((e) => e.type === 'capture').map((e) => e.data)).toEqual([{ land: 'poland', from: 'AFA', to: 'GER' }]);
  });
});

describe('1.11 starting a game', () => {
  it('every unit of the set-up chart is on the map at its place and Size, and nothing else is', () => {
    for (const id of ['A', 'B'] as const) {
      const s = start(id);
      const onMap = Object.entries(s.units).filter(([, u]) => u.at !== 'pool' && u.at !== 'gone');
      expect(onMap.map(([uid, u]) => [uid, u.at, u.size]).sort()).toEqual(scenario(id).setup.map((x) => [x.unit, x.at, x.size]).sort());
      expect(blitz.position(s)).toMatchObject({ turn: scenario(id).firstTurn, impulse: 1 });
    }
  });

  it('the same scenario and pack always give the same starting state', () => {
    expect(blitz.setup('B', pack)).toEqual(start('B'));
    expect(play(start('A')).state).toEqual(start('A'));
  });
});
