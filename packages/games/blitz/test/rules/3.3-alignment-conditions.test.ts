/**
 * 3.3's alignment conditions beyond war and held areas, on the full game: Argentina (and Paraguay-
 * Uruguay) joining an Axis power that holds an area within four air moves with one of its own land
 * units there; Brazil and Mexico joining the USA with their armies in its Force Pool unless an enemy
 * land unit is within four air moves; the Near East counting only areas Germany can trace supply to;
 * Austria-Czechoslovakia and Iberia liberated and aligned, not conquered, by the Allied major taking them.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { checkAlignments } from '../../src/rules/minors.ts';
import { suppliedAreas } from '../../src/rules/supply.ts';
import { enterWar } from '../../src/rules/neutrality.ts';
import { takeControl } from '../../src/rules/politics.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { pack } from '../helpers.ts';

const start = (): BlitzState => structuredClone(blitz.setup('full', pack));
const p = packOf(blitz.setup('full', pack).pack);

describe('3.3 Argentina: an Axis power near it with its own land unit', () => {
  it('Germany holding Sao Paulo with a German army aligns Argentina; holding it empty does not', () => {
    const empty = start();
    empty.control['sao-paulo'] = 'GER';
    checkAlignments(p, empty, []);
    expect(empty.control.argentina).toBe('neutral');
    const s = start();
    s.control['sao-paulo'] = 'GER';
    s.units['army-group-b'] = { ...s.units['army-group-b']!, at: 'sao-paulo' };
    const ev: GameEvent[] = [];
    checkAlignments(p, s, ev);
    expect(s.control.argentina).toBe('GER');
    expect(s.units['argentine-army']).toMatchObject({ power: 'GER' });
    expect(ev.some((e) => e.type === 'alignment' && (e.data as { country: string }).country === 'argentina')).toBe(true);
  });

  it('an aligned minor\'s land unit does not count', () => {
    const s = start();
    s.control['sao-paulo'] = 'GER';
    s.units['argentine-army'] = { def: 'argentine-army', power: 'GER', size: 1, at: 'sao-paulo' };
    checkAlignments(p, s, []);
    expect(s.control.argentina).toBe('neutral');
  });
});

describe('3.3 Brazil and Mexico: the army takes the field only with an enemy near', () => {
  it('the USA at war aligns Brazil with its army in the Force Pool while no Axis land unit is within four air moves', () => {
    const s = start();
    enterWar(p, s, 'USA', 'test', []);
    expect(s.control['sao-paulo']).toBe('USA');
    expect(s.units['brazilian-army']).toBeUndefined();
    expect(s.pool['brazilian-army']).toBeDefined();
  });

  it('with a German army in Venezuela, next to Brazil, it takes the field', () => {
    const s = start();
    s.units['army-group-b'] = { ...s.units['army-group-b']!, at: 'venezuela' };
    enterWar(p, s, 'USA', 'test', []);
    expect(s.units['brazilian-army']).toMatchObject({ power: 'USA' });
    expect(s.units['brazilian-army']!.at).not.toBe('pool');
  });
});

describe('3.3 the Near East: two bordering areas Germany can trace supply to', () => {
  it('two held areas in supply align it; a pair with one out of supply does not', () => {
    // Not the Caucasus: holding it brings Turkey in (3.3), and with it Ankara, another border of the Near East.
    const borders = ['aden', 'ankara', 'egypt', 'kuwait', 'samarkand'];
    const pairs = borders.flatMap((a, i) => borders.slice(i + 1).map((b) => [a, b] as const));
    const held = (a: string, b: string): BlitzState => {
      const s = start();
      s.control[a] = 'GER';
      s.control[b] = 'GER';
      return s;
    };
    const supplied = (s: BlitzState, l: string) => ['germany', 'italy'].some((h) => suppliedAreas(p, s, 'GER', h, 'power').has(l)); // from either home country
    const good = pairs.find(([a, b]) => { const s = held(a, b); return supplied(s, a) && supplied(s, b); });
    const cut = pairs.find(([a, b]) => { const s = held(a, b); return !supplied(s, a) || !supplied(s, b); });
    expect(good && cut).toBeTruthy();
    const yes = held(...good!);
    checkAlignments(p, yes, []);
    expect(yes.control.iraq).toBe('GER');
    const no = held(...cut!);
    checkAlignments(p, no, []);
    expect(no.control.iraq).toBe('neutral');
  });
});

describe('3.3: "Germany controls" counts Germany\'s own areas, not its ally Japan\'s', () => {
  const supplied = (s: BlitzState, l: string) => ['germany', 'italy'].some((h) => suppliedAreas(p, s, 'GER', h, 'power').has(l));

  it('the Near East: two bordering areas in supply, one of them Japanese, do not align it; both German do', () => {
    const borders = ['aden', 'ankara', 'egypt', 'kuwait', 'samarkand'];
    const pairs = borders.flatMap((a, i) => borders.slice(i + 1).map((b) => [a, b] as const));
    const held = (a: string, b: string, holderOfB: string): BlitzState => {
      const s = start();
      s.control[a] = 'GER';
      s.control[b] = holderOfB;
      return s;
    };
    // A pair Germany can trace supply to whether the second area is German or Japanese.
    const pair = pairs.find(([a, b]) => [held(a, b, 'GER'), held(a, b, 'JAP')].every((s) => supplied(s, a) && supplied(s, b)));
    expect(pair).toBeTruthy();
    const shared = held(pair![0], pair![1], 'JAP');
    checkAlignments(p, shared, []);
    expect(shared.control.iraq).toBe('neutral');
    const own = held(pair![0], pair![1], 'GER');
    checkAlignments(p, own, []);
    expect(own.control.iraq).toBe('GER');
  });

  it('Turkey: a Japanese Caucasus Mountains does not align it; a German one does', () => {
    const jap = start();
    jap.control['caucasus-mountains'] = 'JAP';
    checkAlignments(p, jap, []);
    expect(jap.control.ankara).toBe('neutral');
    const ger = start();
    ger.control['caucasus-mountains'] = 'GER';
    checkAlignments(p, ger, []);
    expect(ger.control.ankara).toBe('GER');
  });

  it('Iberia: a Japanese Gibraltar does not align it; a German one does', () => {
    const jap = start();
    jap.control.gibraltar = 'JAP';
    checkAlignments(p, jap, []);
    expect(jap.control.spain).toBe('neutral');
    const ger = start();
    ger.control.gibraltar = 'GER';
    checkAlignments(p, ger, []);
    expect(ger.control.spain).toBe('GER');
  });
});

describe('3.3 Austria-Czechoslovakia and Iberia: an Allied major taking them liberates and aligns them', () => {
  const types = (ev: GameEvent[], country: string) => ev.filter((e) => (e.data as { country?: string }).country === country).map((e) => e.type);

  it('the AFA taking German Austria-Czechoslovakia liberates it and aligns it with itself; it is not conquered', () => {
    const s = start();
    expect(s.control['austria-czechoslovakia']).toBe('GER'); // annexed before the war
    const ev: GameEvent[] = [];
    takeControl(p, s, 'austria-czechoslovakia', 'AFA', ev, 'test');
    expect(types(ev, 'austria-czechoslovakia')).toEqual(['liberation', 'alignment']);
    expect(ev.find((e) => e.type === 'alignment')).toMatchObject({ power: 'AFA', data: { country: 'austria-czechoslovakia', power: 'AFA' } });
    expect(s.conquered).not.toContain('austria-czechoslovakia');
    expect(s.control['austria-czechoslovakia']).toBe('AFA');
  });

  it('Iberia aligned with Germany (it holds Gibraltar) and then taken whole by the USA is liberated and aligned with the USA', () => {
    const s = start();
    enterWar(p, s, 'USA', 'test', []);
    s.control.gibraltar = 'GER';
    checkAlignments(p, s, []);
    const iberia = Object.keys(s.control).filter((l) => p.files.map.lands.find((x) => x.id === l)?.country === 'iberia');
    expect(iberia.length).toBeGreaterThan(0);
    for (const l of iberia) expect(s.control[l], l).toBe('GER');
    const ev: GameEvent[] = [];
    for (const l of iberia) takeControl(p, s, l, 'USA', ev, 'test');
    expect(types(ev, 'iberia')).toEqual(['liberation', 'alignment']);
    expect(s.conquered).not.toContain('iberia');
  });

  it('the Axis taking an Allied-aligned Austria-Czechoslovakia back conquer it as any minor', () => {
    const s = start();
    takeControl(p, s, 'austria-czechoslovakia', 'AFA', [], 'test');
    const ev: GameEvent[] = [];
    takeControl(p, s, 'austria-czechoslovakia', 'GER', ev, 'test');
    expect(types(ev, 'austria-czechoslovakia')).toEqual(['conquest']);
    expect(s.conquered).toContain('austria-czechoslovakia');
  });
});
