/** 3.4 (A.2): controlling every area of an enemy country conquers it; France falls with Paris alone. */
import { describe, expect, it } from 'vitest';
import { arrange, eventsOf, play, skipTo, start } from '../helpers.ts';

describe('3.4 conquest', () => {
  it('taking Paris conquers France even while Vichy France is still AFA-held', () => {
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
});
