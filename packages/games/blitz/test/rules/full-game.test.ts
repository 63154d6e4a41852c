/**
 * The full game on the bundled approximation: five powers, the wars at the start pair by pair (Germany
 * and the AFA; Japan and China, while the USA that runs China's armies is at peace), the neutral USA and
 * USSR acting within their home countries, Japan's declaration on the AFA with its Neutral Entry and
 * alignment effects, and the player splits.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { landDef, packOf, unitDef } from '../../src/rules/pack-index.ts';
import { atWar, hostileLand, neutralMajor, unitViewer } from '../../src/rules/wars.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { options, pack, play, reach } from '../helpers.ts';

const start = (players?: number): BlitzState => blitz.setup('full', pack, players === undefined ? {} : { players });
const p = packOf(start().pack);
const countryOf = (land: string) => landDef(p, land).country;

describe('Scenario full: set-up, seats and the player splits (1.11, 3.1)', () => {
  it('starts on Turn 1 with five powers, Germany at war with the AFA and Japan with China, the USA and USSR neutral', () => {
    const s = start();
    expect(s.turn).toBe(1);
    expect(blitz.scenarios(pack).find((x) => x.id === 'full')!.sides.map((x) => x.powers)).toEqual([['GER', 'JAP'], ['AFA', 'USA', 'USSR']]);
    expect(s.wars).toEqual(['AFA~GER', 'JAP~china']);
    expect(s.neutral).toEqual(['USA', 'USSR']);
    expect(s.oil).toMatchObject({ GER: 1 });
    expect(atWar(p, s, 'JAP', 'USA')).toBe(false);
    expect(atWar(p, s, 'JAP', 'AFA')).toBe(false);
  });

  it('takes 2 to 5 players and refuses anything else, saying what is allowed', () => {
    for (const n of [2, 3, 4, 5]) expect(start(n).players).toBe(n);
    expect(() => start(6)).toThrow(/option 'players' for scenario full must be one of 2, 3, 4, 5; got 6/);
  });
});

describe('Scenario full: Japan and China (3.1, 5.2)', () => {
  it('Japan may attack the USA-held areas of China, not the USA or the AFA; China\'s armies may attack Japan while the USA is at peace', () => {
    const s = start();
    const chinese = Object.keys(s.control).filter((l) => countryOf(l) === 'china' && s.control[l] === 'USA');
    expect(chinese.length).toBeGreaterThan(0);
    for (const l of chinese) expect(hostileLand(p, s, ['JAP'], l)).toBe(true);
    for (const l of ['manila', 'atlantic-seaboard', 'singapore']) if (l in s.control) expect(hostileLand(p, s, ['JAP'], l), l).toBe(false);
    expect(hostileLand(p, s, unitViewer(p, s, s.units['nationalist-army']!), 'peking')).toBe(true);
    expect(hostileLand(p, s, unitViewer(p, s, s.units['us-1st-army']!), 'peking')).toBe(false);
    const a = reach(s, 'JAP', 'announce-attack');
    const targets = options(a).filter((o) => o.startsWith('attack ')).map((o) => o.slice(7));
    expect(targets.length).toBeGreaterThan(0);
    for (const t of targets) expect(countryOf(t), t).toBe('china');
  });

  it('the neutral USA moves its own armies only at home; China\'s armies stay in China', () => {
    const s = start();
    expect(neutralMajor(s, 'USA')).toBe(true);
    const m = reach(s, 'USA', 'move-pick');
    // GARs are free to leave (5.2); every other army keeps to its home country.
    const movers = options(m).filter((o) => o.startsWith('move ')).map((o) => o.slice(5)).filter((id) => unitDef(p, s.units[id]!.def).type !== 'GAR');
    expect(movers.map((id) => unitDef(p, s.units[id]!.def).home).sort()).toContain('china');
    for (const id of movers) {
      const home = unitDef(p, s.units[id]!.def).home === 'china' ? 'china' : 'usa';
      const r = play(m, `move ${id}`).state;
      for (const o of options(r).filter((x) => x.startsWith('to '))) expect(countryOf(o.slice(3)), `${id} ${o}`).toBe(home);
    }
  });
});

describe('Scenario full: Japan declares war on the AFA (3.2, 3.3, 7.2)', () => {
  it('the pair goes to war, the USA marker moves up a box, and South-East Asia joins Japan', () => {
    const s = reach(start(), 'JAP', 'move-pick');
    expect(options(s)).toContain('declare AFA');
    expect(options(s)).toContain('declare USA');
    const r = play(s, 'declare AFA');
    expect(r.state.wars).toEqual(['AFA~GER', 'AFA~JAP', 'JAP~china']);
    expect(r.state.itsWar!.USA).toBe(s.itsWar!.USA! + 1);
    expect(r.state.neutral).toEqual(['USA', 'USSR']);
    const sea = Object.keys(r.state.control).filter((l) => countryOf(l) === 'south-east-asia');
    expect(sea.length).toBeGreaterThan(0);
    for (const l of sea) expect(r.state.control[l]).toBe('JAP');
    expect(r.events.some((e) => e.type === 'alignment' && (e.data as { country?: string }).country === 'south-east-asia')).toBe(true);
  });

  it('a Japanese declaration on the USA takes the USA out of neutrality (its restrictions lifted) but not into war with Germany', () => {
    const s = reach(start(), 'JAP', 'move-pick');
    const r = play(s, 'declare USA');
    expect(r.state.neutral).toEqual(['USSR']);
    expect(atWar(p, r.state, 'USA', 'JAP')).toBe(true);
    expect(atWar(p, r.state, 'USA', 'GER')).toBe(false);
    expect(neutralMajor(r.state, 'USA')).toBe(false);
  });
});
