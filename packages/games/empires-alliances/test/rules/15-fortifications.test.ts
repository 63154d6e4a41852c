/** 15 Forts and entrenchments: the fort DRM (15.12), the entrenchment 50% rule and its examples (15.24). */
import { describe, expect, it } from 'vitest';
import { defenderDrm, entrenchmentDrm } from '../../src/rules/combat.ts';
import { entrenchHalves } from '../../src/rules/units.ts';
import { prof } from '../helpers.ts';

describe('15.1 forts (15.12)', () => {
  it('give the defender a DRM equal to their level', () => {
    expect(defenderDrm(2, 0, 0)).toBe(2);
    expect(defenderDrm(1, 0, 0)).toBe(1);
  });
});

describe('15.2 entrenchments (15.24)', () => {
  it('first example: one entrenched corps, one not, one artillery: the whole hex gets the DRM; split, only the entrenched corps', () => {
    const ent = { halves: entrenchHalves(prof('fr-inf-464')), level: 2 };
    const open = { halves: entrenchHalves(prof('fr-inf-464')), level: 0 };
    const art = { halves: entrenchHalves(prof('fr-fa-333')), level: 0 };
    expect(entrenchmentDrm([ent, open, art])).toBe(2);
    expect(entrenchmentDrm([ent])).toBe(2);
    expect(entrenchmentDrm([open])).toBe(0);
  });
  it('second example: L1, L2 and an open corps: -1, since half or more are at L1 or better', () => {
    expect(entrenchmentDrm([{ halves: 2, level: 1 }, { halves: 2, level: 2 }, { halves: 2, level: 0 }])).toBe(1);
  });
  it('counts non-US divisions as half a corps and US divisions as whole ones', () => {
    expect(entrenchHalves(prof('be-inf-233'))).toBe(1);
    expect(entrenchHalves(prof('us-inf-574'))).toBe(2);
    // An entrenched Belgian division beside an open corps: 1 of 3 halves: no DRM.
    expect(entrenchmentDrm([{ halves: 1, level: 2 }, { halves: 2, level: 0 }])).toBe(0);
    // An entrenched US division beside an open corps: 2 of 4: the DRM.
    expect(entrenchmentDrm([{ halves: 2, level: 2 }, { halves: 2, level: 0 }])).toBe(2);
  });
  it('does not count artillery or tanks toward the 50%', () => {
    expect(entrenchHalves(prof('ge-fa-333'))).toBe(0);
    expect(entrenchHalves(prof('gb-tank-222'))).toBe(0);
  });
});
