/**
 * 3.2 as A.1 uses it: either side may declare war on Belgium-Netherlands while performing actions; the
 * other side then controls it and places the Belg.-Neth. Army there. No other declaration exists.
 */
import { describe, expect, it } from 'vitest';
import { eventsOf, options, play, skipTo, start } from '../helpers.ts';

describe('3.2/A.1 declaring war', () => {
  it('Germany may declare war on Belgium-Netherlands; the AFA gain it and its army', () => {
    const s = skipTo(start('A'), 'move-pick');
    expect(options(s)).toContain('declare belgium-netherlands');
    const r = play(s, 'declare belgium-netherlands');
    expect(r.state.control['belgium-netherlands']).toBe('AFA');
    expect(r.state.units['belg-neth-army']).toMatchObject({ power: 'AFA', at: 'belgium-netherlands' });
    expect(eventsOf(r, 'declaration')[0]!.data).toMatchObject({ country: 'belgium-netherlands', aggressor: 'GER', joins: 'AFA' });
    expect(options(r.state)).not.toContain('declare belgium-netherlands');
    // now an enemy area with a land unit: Germany can attack it but not walk in
    const a = skipTo(r.state, 'announce-attack');
    expect(options(a)).toContain('attack belgium-netherlands');
  });

  it('the AFA may declare instead, and Belgium-Netherlands joins Germany', () => {
    let s = skipTo(start('A'), 'announce-attack');
    s = play(s, 'done').state;
    s = skipTo(s, 'move-pick', 'announce-attack');
    expect(s.power).toBe('AFA');
    const r = play(s, 'declare belgium-netherlands');
    expect(r.state.control['belgium-netherlands']).toBe('GER');
    expect(r.state.units['belg-neth-army']!.power).toBe('GER');
  });

  it('no declaration is offered in Scenario B, where no country is neutral', () => {
    const s = skipTo(start('B'), 'move-pick');
    expect(options(s).filter((o) => o.startsWith('declare'))).toEqual([]);
  });
});
