/**
 * Scenario B victory: the Western Allies win the moment they conquer Germany (3.4: control every
 * German land area in play, Western Germany and Berlin); otherwise Germany wins when Turn 11 ends.
 * Adjudication of an unfinished game applies the same rule to the current position.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, eventsOf, options, play, prompt, start, until } from '../helpers.ts';


describe('B: the Western Allies win the moment they conquer Germany', () => {
  // The Allies hold Western Germany with the 2nd Army; Berlin is German but empty.
  const s0 = until(
    arrange(start('B'), {
      units: { 'waffen-ss-army': null, 'replacement-army': null, luftwaffe: null, 'me-109s': null, '2nd-army': { at: 'western-germany' } },
      control: { 'western-germany': 'WA' },
    }),
    'WA',
    'move-pick',
  );

  it('holding Western Germany alone is not enough: the game goes on', () => {
    expect(blitz.pending(s0).kind).toBe('decision');
    expect(s0.winner).toBeNull();
    expect(options(s0)).toContain('move 2nd-army');
  });

  it('taking Berlin ends the game at once on Turn 9 with an Allied win', () => {
    const r = play(s0, 'move 2nd-army', 'to berlin');
    expect(r.state.control.berlin).toBe('WA');
    expect(prompt(r.state)).toBe('terminal');
    expect(r.state.turn).toBe(9);
    const res = blitz.result(r.state);
    expect(res.sides).toEqual({ Allies: 'win', Axis: 'loss' });
    expect(res.reason).toMatch(/conquered Germany/);
    expect(eventsOf(r, 'conquest').map((e) => e.data!.country)).toEqual(['germany']);
    expect(eventsOf(r, 'victory')[0]!.data).toMatchObject({ side: 'Allies' });
    expect(blitz.adjudicate(r.state).sides).toEqual({ Allies: 'win', Axis: 'loss' });
  });

  it('taking a non-German area (Paris) instead does not end the game', () => {
    const s = until(
      arrange(start('B'), { units: { 'army-group-b': null, '7th-army': null, 'atlantic-wall': null, 'us-1st-army': { at: 'vichy-france' } }, control: { 'vichy-france': 'WA' } }),
      'WA',
      'move-pick',
    );
    const r = play(s, 'move us-1st-army', 'to paris');
    expect(r.state.control.paris).toBe('WA');
    expect(r.state.winner).toBeNull();
    expect(prompt(r.state)).not.toBe('terminal');
  });
});

describe('B: otherwise Germany wins when Turn 11 ends', () => {
  // Both sides pass throughout.
  const states: BlitzState[] = [];
  let s = start('B');
  for (let i = 0; i < 1000; i++) {
    states.push(s);
    const p = blitz.pending(s);
    if (p.kind !== 'decision') break;
    const pass = p.options.find((o) => o === 'done' || o === 'stop' || o === 'launch') ?? p.options[0]!;
    s = blitz.apply(s, pass).state;
  }
  const last = states[states.length - 1]!;
  const before = states[states.length - 2]!;

  it('the game is still running at the last decision of Turn 11 and ends right after it', () => {
    expect(before.turn).toBe(11);
    expect(blitz.pending(before).kind).toBe('decision');
    expect(states.some((x) => x.turn === 10 && blitz.pending(x).kind === 'terminal')).toBe(false);
    expect(blitz.pending(last).kind).toBe('terminal');
    expect(last.turn).toBe(11);
  });

  it('Germany wins, for not being conquered by the end of Turn 11', () => {
    const res = blitz.result(last);
    expect(res.sides).toEqual({ Axis: 'win', Allies: 'loss' });
    expect(res.reason).toMatch(/Turn 11/);
    expect(last.winner).toBe('Axis');
  });
});

describe('B: adjudicating an unfinished game applies the scenario rule', () => {
  it('at the start: Germany wins', () => {
    const res = blitz.adjudicate(start('B'));
    expect(res.sides).toEqual({ Axis: 'win', Allies: 'loss' });
    expect(res.reason).toMatch(/Scenario B/);
  });

  it('mid-game with the Allies in Western Germany and Paris but not Berlin: still Germany', () => {
    const s = arrange(start('B'), {
      units: { 'waffen-ss-army': null, 'army-group-b': null, '7th-army': null, 'atlantic-wall': null, '2nd-army': { at: 'western-germany' }, 'us-1st-army': { at: 'paris' } },
      control: { 'western-germany': 'WA', paris: 'WA' },
    });
    expect(s.winner).toBeNull();
    expect(blitz.adjudicate(s).sides).toEqual({ Axis: 'win', Allies: 'loss' });
  });
});
