/**
 * 3.2 as A.1 uses it: either side may declare war on Belgium-Netherlands while performing actions; the
 * other side then controls it and places the Belg.-Neth. Army there. No other declaration exists.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { controllerSide } from '../../src/rules/query.ts';
import { barredFromAlly, hostileLand, atWar } from '../../src/rules/wars.ts';
import { eventsOf, options, pack, play, reach, skipTo, start } from '../helpers.ts';

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

describe('3.2 example: the USSR declares war on Turkey, which Germany aligns', () => {
  // The full game: the neutral USSR may declare war on Turkey; Germany, not at war with the USSR, aligns it.
  const p = packOf(blitz.setup('full', pack).pack);
  const declared = () => play(reach(blitz.setup('full', pack), 'USSR', 'move-pick'), 'declare turkey').state;

  it('Turkey and its army join Germany, and Germany stays at peace with the USSR', () => {
    const s = declared();
    expect([s.control.ankara, s.control.istanbul]).toEqual(['GER', 'GER']);
    expect(s.units['turkish-1st-army']!.power).toBe('GER');
    expect(atWar(p, s, 'GER', 'USSR')).toBe(false);
  });

  it("Germany's own units may not enter Turkey; the Turkish units may", () => {
    const s = declared();
    expect(barredFromAlly(p, s, s.units['army-group-b']!, 'ankara')).toBe(true);
    expect(barredFromAlly(p, s, s.units['turkish-2nd-army']!, 'ankara')).toBe(false);
  });

  it("nor may they enter the USSR's areas, which are neutral territory to Germany", () => {
    const s = declared();
    expect(hostileLand(p, s, ['GER'], 'caucasus-mountains')).toBe(false);
    expect(controllerSide(p, s, 'caucasus-mountains', ['GER'])).toBe('neutral');
  });
});
