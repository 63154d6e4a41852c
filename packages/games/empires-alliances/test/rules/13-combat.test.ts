/** 13 Combat: odds (13.641), net DRM (13.642), the CRT (13.643), losses (13.7-13.73), AD counts. */
import { describe, expect, it } from 'vitest';
import {
  adDemoralizedHalves,
  attackEighths,
  attackMixLegal,
  columnName,
  crtResult,
  defenseEighths,
  effectiveSupplyLevel,
  lossSetLegal,
  minimalLossSets,
  netDrm,
  netRoll,
  oddsColumn,
  type LossNeed,
} from '../../src/rules/combat.ts';
import { CHARTS, prof } from '../helpers.ts';

const need = (x: Partial<LossNeed>): LossNeed => ({ factors: 0, factor: 'attack', mustLoseStoss: false, mustLoseTank: false, mustLoseLargest: false, ...x });

describe('13.6 odds (13.641)', () => {
  it('drops fractions: 23 to 10 is 2-1, 7 to 10 is 1-2 (the text\'s examples)', () => {
    expect(columnName(oddsColumn(23, 10))).toBe('2-1');
    expect(columnName(oddsColumn(7, 10))).toBe('1-2');
  });
  it('treats odds above 7-1 as 7-1 and refuses odds below 1-5', () => {
    expect(columnName(oddsColumn(100, 10))).toBe('7-1');
    expect(columnName(oddsColumn(2, 10))).toBe('1-5');
    expect(oddsColumn(1, 10)).toBe(-1);
  });
  it('reads exact boundaries as the column reached: 10:10 1-1, 30:10 3-1, 10:30 1-3, 10:31 1-4', () => {
    expect(columnName(oddsColumn(10, 10))).toBe('1-1');
    expect(columnName(oddsColumn(30, 10))).toBe('3-1');
    expect(columnName(oddsColumn(10, 30))).toBe('1-3');
    expect(columnName(oddsColumn(10, 31))).toBe('1-4');
    expect(columnName(oddsColumn(19, 10))).toBe('1-1');
  });
  it('keeps the fractions of unsupplied factors (14.61): three L1 4-6-4s attack with 9, not 8', () => {
    const att = 3 * attackEighths(4, 1);
    expect(att / 8).toBe(9);
    expect(columnName(oddsColumn(att, defenseEighths(9, 0, false)))).toBe('1-1');
    expect(columnName(oddsColumn(att, defenseEighths(10, 0, false)))).toBe('1-2');
  });
  it('halves a demoralized defender rounding down (13.85) before the supply fraction', () => {
    expect(defenseEighths(7, 0, true)).toBe(3 * 8);
    expect(defenseEighths(7, 1, true)).toBe(3 * 6);
  });
  it('delays unsupplied effects one level in a major city or fort (14.63)', () => {
    expect(effectiveSupplyLevel(2, true)).toBe(1);
    expect(effectiveSupplyLevel(3, true)).toBe(2);
    expect(effectiveSupplyLevel(2, false)).toBe(2);
  });
});

describe('13.6 DRM and the CRT (13.642, 13.643)', () => {
  it('caps the net DRM at ±3 and the net roll at -1..12', () => {
    expect(netDrm(6, 1)).toBe(3);
    expect(netDrm(0, 5)).toBe(-3);
    expect(netRoll(1, -3)).toBe(-1);
    expect(netRoll(10, 3)).toBe(12);
  });
  it('reads the 13.643 example: 2-1, +2 DRM, a 7 rolled is a net 9 and a DD', () => {
    expect(crtResult(CHARTS.crt, oddsColumn(20, 10), netRoll(7, netDrm(2, 0)))).toBe('DD');
  });
});

describe('13.6 who may attack (13.652)', () => {
  it('needs infantry or cavalry and no more artillery and tanks than them', () => {
    expect(attackMixLegal(['fa'])).toBe(false);
    expect(attackMixLegal(['inf', 'fa'])).toBe(true);
    expect(attackMixLegal(['inf', 'fa', 'tank'])).toBe(false);
    expect(attackMixLegal(['stoss', 'cav', 'fa', 'tank'])).toBe(true);
  });
});

describe('13.7 losses', () => {
  const u = (...ids: string[]) => ids.map((id) => ({ profile: prof(id) }));

  it('13.73 example: ND at 1-1, the attacker loses its 6-8-4, the defender 6 defense factors by losing the 4-6-4', () => {
    const attackers = u('ge-inf-684', 'ge-inf-684', 'ge-inf-684', 'ge-fa-333');
    const att = minimalLossSets(attackers, need({ factors: 0, mustLoseLargest: true }));
    expect(att[0]!.map((i) => attackers[i]!.profile.id)).toEqual(['ge-inf-684']);
    // Defender: a 4-6-4 paired with a 3-3-3 (one unit of defense 9) and a 3-5-3; must lose >= 6 defense.
    const defenders = u('fr-inf-464', 'fr-inf-353', 'fr-fa-333');
    const sets = minimalLossSets(defenders, need({ factors: 6, factor: 'defense' }));
    const names = sets.map((s) => s.map((i) => defenders[i]!.profile.id).join('+'));
    expect(names).toContain('fr-inf-464');
    expect(names).not.toContain('fr-fa-333');
  });

  it('makes Inf/Cav take a loss first and no more art/tank than Inf/Cav (13.72)', () => {
    const all = u('gb-inf-464', 'gb-fa-443', 'gb-fa-333');
    expect(lossSetLegal(all, [1], need({ factors: 4 }))).toBe(false);
    expect(lossSetLegal(all, [0], need({ factors: 4 }))).toBe(true);
    expect(lossSetLegal(all, [0, 1, 2], need({ factors: 11 }))).toBe(true); // everything: no choice left
    expect(lossSetLegal(all, [0, 1], need({ factors: 8 }))).toBe(true);
  });

  it('lets artillery defending alone take the loss (13.72 "unless defending by themselves")', () => {
    const all = u('ge-fa-333');
    expect(lossSetLegal(all, [0], need({ factors: 3, factor: 'defense' }))).toBe(true);
  });

  it('counts printed factors, not reduced ones (13.71)', () => {
    const all = u('ge-inf-464', 'ge-inf-463');
    expect(lossSetLegal(all, [0], need({ factors: 4 }))).toBe(true);
  });

  it('AD demoralizes one attacking corps per defending corps, all if the defender has more (13.7)', () => {
    expect(adDemoralizedHalves(6, 2)).toBe(2);
    expect(adDemoralizedHalves(4, 6)).toBe(4);
    expect(adDemoralizedHalves(4, 1)).toBe(1); // two divisions defending = one corps
  });
});
