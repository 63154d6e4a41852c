/** 3.4 (A.2): controlling every area of an enemy country conquers it; France falls with Paris alone. */
import { describe, expect, it } from 'vitest';
import { arrange, eventsOf, play, skipTo, start, until } from '../helpers.ts';

describe('3.4 conquest', () => {
  it('A.2: taking Paris conquers France even while Vichy France is still AFA-held', () => {
    const s = skipTo(arrange(start('A'), { units: { 'french-1st-army': null, 'maginot-line': null, 'armee-de-l-air': null, 'army-group-center': { at: 'western-germany' } } }), 'move-pick');
    const r = play(s, 'move army-group-center', 'to paris', 'stop');
    expect(r.state.control['vichy-france']).toBe('AFA');
    expect(eventsOf(r, 'conquest').map((e) => e.data!.country)).toEqual(['france']);
  });

  it('Germany is conquered only when every German area in play is held, which wins Scenario B', () => {
    const s = arrange(start('B'), {
      units: { 'replacement-army': null, luftwaffe: null, 'me-109s': null, 'waffen-ss-army': { at: 'paris' }, 'west-wall': null, 'us-1st-army': { at: 'western-germany' } },
      control: { 'western-germany': 'WA' },
    });
    expect(s.winner).toBeNull();
    const t = skipTo(s, 'move-pick');
    const u = t.power === 'WA' ? t : skipTo(play(skipTo(t, 'announce-attack'), 'done').state, 'move-pick');
    expect(u.power).toBe('WA');
    const r = play(u, 'move us-1st-army', 'to berlin');
    expect(eventsOf(r, 'conquest').map((e) => e.data!.country)).toEqual(['germany']);
    expect(r.state.winner).toBe('Allies');
  });

  it('retaking an area of your own unconquered country is no conquest', () => {
    // The AFA hold Western Germany (empty); the 18th Army walks back in: Germany was never conquered.
    const s = skipTo(arrange(start('A'), { control: { 'western-germany': 'AFA' }, units: { '18th-army': { at: 'berlin' } } }), 'move-pick');
    const r = play(s, 'move 18th-army', 'to western-germany', 'stop');
    expect(r.state.control['western-germany']).toBe('GER');
    expect(eventsOf(r, 'conquest')).toEqual([]);
    expect(eventsOf(r, 'liberation')).toEqual([]);
  });

  it('France starts Scenario B conquered, and the Western Allies taking Paris liberate it', () => {
    const s0 = start('B');
    expect(s0.conquered).toEqual(['france']);
    const s = until(arrange(s0, { units: { 'army-group-b': null, '7th-army': null, 'atlantic-wall': null, '2nd-army': { at: 'vichy-france' } }, control: { 'vichy-france': 'WA' } }), 'WA', 'move-pick');
    const r = play(s, 'move 2nd-army', 'to paris');
    expect(eventsOf(r, 'liberation').map((e) => e.data!.country)).toEqual(['france']);
    expect(r.state.conquered).toEqual([]);
  });
});

