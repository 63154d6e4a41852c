/**
 * 7.2 Neutral Entry, the rulebook's two examples replayed in the full game, where Germany and Japan
 * both share in the Victory Points an Allied push below box 0 gives away (Scenario F, with no Japan,
 * checks Germany's share: F-rise-and-fall-of-fascism.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { declareWar, takeControl } from '../../src/rules/politics.ts';
import { atWar } from '../../src/rules/wars.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { pack } from '../helpers.ts';

const start = (): BlitzState => structuredClone(blitz.setup('full', pack));
const p = packOf(start().pack);

describe('7.2 example: Germany pushes the USA into the war from box 13', () => {
  // France has fallen, so French North Africa is neutral; the USA's It's War! marker stands in box 13.
  const bed = () => {
    const s = start();
    takeControl(p, s, 'paris', 'GER', [], 'test');
    s.itsWar!.USA = 13;
    s.side = 'Axis';
    s.power = 'GER';
    return s;
  };

  it('the declaration on French North Africa moves the marker to 14; the USA is still neutral', () => {
    const s = bed();
    expect(s.control.algeria).toBe('neutral');
    declareWar(p, s, 'french-north-africa', []);
    expect(s.itsWar!.USA).toBe(14);
    expect(s.neutral).toContain('USA');
    expect(s.control.algeria).toBe('AFA');
  });

  it("a German unit taking Algeria's Resource moves it to 15: the USA is at war with both Germany and Japan at once", () => {
    const s = bed();
    declareWar(p, s, 'french-north-africa', []);
    const ev: GameEvent[] = [];
    takeControl(p, s, 'algeria', 'GER', ev, 'a German land unit moves in');
    expect(s.itsWar!.USA).toBe(15);
    expect(s.neutral).not.toContain('USA');
    expect(atWar(p, s, 'USA', 'GER')).toBe(true);
    expect(atWar(p, s, 'USA', 'JAP')).toBe(true);
    expect(ev.find((e) => e.type === 'war-entry')?.data).toMatchObject({ power: 'USA', against: ['GER', 'JAP'] });
  });
});

describe('7.2 example: the AFA retake Western Germany on Turn 1', () => {
  it('Germany taking Poland\'s Resource moves both markers to 1', () => {
    const s = start();
    takeControl(p, s, 'poland', 'GER', [], 'test');
    expect(s.itsWar).toEqual({ USA: 1, USSR: 1 });
  });

  it('the AFA taking Western Germany would move both down 2: each stops at 0, and Germany and Japan each gain a VP per box lost below 0, four VP in all', () => {
    const s = start();
    takeControl(p, s, 'poland', 'GER', [], 'test');
    const before = { GER: s.vp!.GER ?? 0, JAP: s.vp!.JAP ?? 0 };
    takeControl(p, s, 'western-germany', 'AFA', [], 'test');
    expect(s.itsWar).toEqual({ USA: 0, USSR: 0 });
    expect(s.vp!.GER).toBe(before.GER + 2);
    expect(s.vp!.JAP).toBe(before.JAP + 2);
  });
});
