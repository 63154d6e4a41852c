/** 5.2 (A.4): land movement, terrain costs, walking into empty enemy areas, FORTs, one move per phase. */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { entryCost, face } from '../../src/rules/query.ts';
import { arrange, eventsOf, options, pack, play, skipTo, start, until } from '../helpers.ts';

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

describe('5.2 example: Army Group B leaves Paris', () => {
  // The full game with Germany holding Paris, Poland and (Iberia friendly) Spain; Army Group B (movement 3) in Paris.
  const s = until(
    arrange(blitz.setup('full', pack), {
      control: { paris: 'GER', poland: 'GER', spain: 'GER', portugal: 'GER' },
      units: { 'maginot-line': null, 'french-1st-army': null, 'french-7th-army': null, 'armee-de-l-air': null, bef: null, 'polish-army': null, 'army-group-b': { at: 'paris', size: 2 } },
    }),
    'GER',
    'move-pick',
  );

  it('one area at a time through Western Germany and Berlin to Poland, where its three moves run out', () => {
    expect(face(packOf(s.pack), s.units['army-group-b']!).move).toBe(3);
    const r = play(s, 'move army-group-b', 'to western-germany', 'to berlin', 'to poland');
    expect(r.state.sel).toBeNull();
    expect(eventsOf(r, 'move')[0]!.data!.path).toEqual(['paris', 'western-germany', 'berlin', 'poland']);
  });

  it('or along the Land Route into Mountain Spain: two moves, one left, but the move ends after the Land Route', () => {
    const r = play(s, 'move army-group-b');
    expect(options(r.state)).toContain('to spain');
    const r2 = play(r.state, 'to spain');
    expect(r2.state.units['army-group-b']!.at).toBe('spain');
    expect(r2.state.sel).toBeNull();
    expect(eventsOf(r2, 'move')[0]!.data!.path).toEqual(['paris', 'spain']);
    // Spain costs two (Mountain): with only one move the Land Route would not be open.
    expect(entryCost(packOf(s.pack), 'spain')).toBe(2);
  });
});
