/** 16 Special units: Stosstruppen (16.1), Siege Artillery (16.2), Tanks (16.3), Air (16.42), with 18.42 and 21.33. */
import { describe, expect, it } from 'vitest';
import { attackEighths, attackerDrm, type AttackDrmInput } from '../../src/rules/combat.ts';
import { projectsZoc } from '../../src/rules/units.ts';

const base: AttackDrmInput = { stoss: 0, tanks: 0, air: 0, siege: 0, fortLevel: 0, noTankTerrain: false, defenderLowMorale: false, britishAndFrench: false };

describe('16.1 Stosstruppen', () => {
  it('add +1 each, at most +3', () => {
    expect(attackerDrm({ ...base, stoss: 2 })).toBe(2);
    expect(attackerDrm({ ...base, stoss: 5 })).toBe(3);
  });
});

describe('16.2 Siege Artillery', () => {
  it('adds +1 each against a fort, at most the fort level, nothing without a fort', () => {
    expect(attackerDrm({ ...base, siege: 1, fortLevel: 2 })).toBe(1);
    expect(attackerDrm({ ...base, siege: 3, fortLevel: 1 })).toBe(1);
    expect(attackerDrm({ ...base, siege: 1, fortLevel: 0 })).toBe(0);
  });
});

describe('16.3 Tanks', () => {
  it('add +1 each, at most +3, none against forest, swamp or mountain', () => {
    expect(attackerDrm({ ...base, tanks: 2 })).toBe(2);
    expect(attackerDrm({ ...base, tanks: 4 })).toBe(3);
    expect(attackerDrm({ ...base, tanks: 2, noTankTerrain: true })).toBe(0);
  });
  it('are halved attacking across a river', () => {
    expect(attackEighths(2, 0, { num: 1, den: 2 })).toBe(8);
  });
});

describe('16.4 Air (16.42)', () => {
  it('adds +1 each, at most +2 in one attack', () => {
    expect(attackerDrm({ ...base, air: 3 })).toBe(2);
  });
});

describe('18.4/21 in the same sum (18.42, 21.33)', () => {
  it('British and French attacking together take -1; a Low Morale defender gives +1', () => {
    expect(attackerDrm({ ...base, tanks: 1, britishAndFrench: true })).toBe(0);
    expect(attackerDrm({ ...base, defenderLowMorale: true })).toBe(1);
  });
});

describe('5: special units project no ZOC (5.2)', () => {
  it('siege, tank and air have none; infantry, Stosstruppen, cavalry and field artillery do', () => {
    expect(['siege', 'tank', 'air'].map((t) => projectsZoc(t as 'siege'))).toEqual([false, false, false]);
    expect(['inf', 'stoss', 'cav', 'fa'].map((t) => projectsZoc(t as 'inf'))).toEqual([true, true, true, true]);
  });
});
