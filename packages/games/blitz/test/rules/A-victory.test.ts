/** Scenario A victory: Germany wins the moment it controls Paris and Poland; otherwise the AFA when Turn 2 ends. */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { arrange, options, play, skipTo, start } from '../helpers.ts';

describe('Scenario A victory', () => {
  it('Germany wins immediately, mid-phase, on taking the second objective', () => {
    const s = skipTo(
      arrange(start('A'), { control: { poland: 'GER' }, units: { 'polish-army': null, 'french-1st-army': null, 'maginot-line': null, 'armee-de-l-air': null, 'army-group-center': { at: 'western-germany' } } }),
      'move-pick',
    );
    const r = play(s, 'move army-group-center', 'to paris');
    expect(blitz.pending(r.state).kind).toBe('terminal');
    const res = blitz.result(r.state);
    expect(res.sides).toEqual({ Axis: 'win', Allies: 'loss' });
    expect(res.reason).toMatch(/Paris and Poland on Turn 1/);
    expect(r.state.turn).toBe(1);
  });

  it('otherwise the AFA win when Turn 2 ends', () => {
    let s = start('A');
    while (blitz.pending(s).kind === 'decision') {
      const o = options(s);
      s = blitz.apply(s, o.find((x) => x === 'done' || x === 'stop') ?? o[0]!).state;
    }
    const res = blitz.result(s);
    expect(res.sides).toEqual({ Axis: 'loss', Allies: 'win' });
    expect(res.reason).toMatch(/end of Turn 2/);
    expect(s.turn).toBe(2);
  });

  it('holding only one objective is not enough, and adjudication applies the same rule', () => {
    const s = arrange(start('A'), { control: { poland: 'GER' }, units: { 'polish-army': null } });
    expect(blitz.pending(s).kind).toBe('decision');
    const adj = blitz.adjudicate(s);
    expect(adj.sides).toEqual({ Axis: 'loss', Allies: 'win' });
    expect(adj.margin).toBe(0);
  });
});
