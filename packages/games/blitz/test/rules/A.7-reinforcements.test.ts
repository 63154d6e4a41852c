/** A.7: reinforcements arrive at the end of Turn 1 where the set-up chart places them. */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { arrange, eventsOf, options, type Run } from '../helpers.ts';
import { start } from '../helpers.ts';

function passTurn(s0: ReturnType<typeof start>): Run {
  let s = s0;
  const events: Run['events'] = [];
  const turn = s.turn;
  while (s.turn === turn && blitz.pending(s).kind === 'decision') {
    const o = options(s);
    const step = blitz.apply(s, o.find((x) => x === 'done' || x === 'stop') ?? o[0]!);
    events.push(...step.events);
    s = step.state;
  }
  return { state: s, events };
}

describe('A.7 reinforcements', () => {
  it('arrive at the end of Turn 1, not before', () => {
    const s = start('A');
    expect(s.units['army-group-b']).toBeUndefined();
    const r = passTurn(s);
    expect(r.state.turn).toBe(2);
    expect(eventsOf(r, 'reinforcement').map((e) => [e.data!.unit, e.data!.at])).toEqual([
      ['army-group-b', 'western-germany'],
      ['french-7th-army', 'paris'],
    ]);
  });

  it('go to another held area of the home country when their area has fallen', () => {
    const r = passTurn(arrange(start('A'), { control: { paris: 'GER' }, units: { 'french-1st-army': null, 'maginot-line': null, 'armee-de-l-air': { at: 'london' } } }));
    expect(eventsOf(r, 'reinforcement').find((e) => e.data!.unit === 'french-7th-army')!.data!.at).toBe('vichy-france');
  });
});
