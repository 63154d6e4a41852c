/** 5.2 (A.4): land movement, terrain costs, walking into empty enemy areas, FORTs, one move per phase. */
import { describe, expect, it } from 'vitest';
import { arrange, eventsOf, options, play, skipTo, start } from '../helpers.ts';

describe('5.2/A.4 moving land units (Scenario A)', () => {
  const s = skipTo(start('A'), 'move-pick');

  it('an ARM with 3 movement may go step by step and stops when out of movement', () => {
    const r = play(s, 'move army-group-center', 'to western-germany', 'to berlin', 'to western-germany');
    expect(r.state.units['army-group-center']!.at).toBe('western-germany');
    expect(r.state.sel).toBeNull();
    expect(eventsOf(r, 'move')[0]!.data!.path).toEqual(['berlin', 'western-germany', 'berlin', 'western-germany']);
  });

  it('cannot enter an enemy area holding a land unit', () => {
    const r = play(s, 'move army-group-center');
    expect(options(r.state)).not.toContain('to poland');
    expect(options(r.state)).toContain('to western-germany');
  });

  it('walks into an empty enemy area and takes control of it (6.6), and can move on', () => {
    const s2 = skipTo(arrange(start('A'), { units: { 'polish-army': null } }), 'move-pick');
    const r = play(s2, 'move army-group-center', 'to poland', 'stop');
    expect(r.state.control.poland).toBe('GER');
    expect(eventsOf(r, 'capture')[0]!.data).toMatchObject({ land: 'poland', from: 'AFA', to: 'GER' });
    expect(eventsOf(r, 'move')[0]!.data!.path).toEqual(['berlin', 'poland']);
  });

  it('1.4: Mountain costs two movement points (Scotland)', () => {
    // B.E.F. (movement 2) in London: Scotland is Mountain, so it arrives with nothing left.
    let t = skipTo(start('A'), 'announce-attack');
    t = skipTo(play(t, 'done').state, 'move-pick');
    const r = play(t, 'move bef', 'to scotland');
    expect(r.state.units.bef!.at).toBe('scotland');
    expect(r.state.sel).toBeNull(); // the move ended by itself: 2 points spent
  });

  it('a FORT never moves, and a unit moves only once per phase', () => {
    let t = skipTo(start('A'), 'announce-attack');
    t = skipTo(play(t, 'done').state, 'move-pick');
    expect(options(t)).not.toContain('move maginot-line');
    const r = play(t, 'move french-1st-army', 'stop');
    expect(options(r.state)).not.toContain('move french-1st-army');
  });
});
