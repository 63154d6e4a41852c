/**
 * 6.5 and 1.8: letter results affect a fraction of the eligible units, fractions are retained and
 * rounded once at the end, and .5 rounds up.
 */
import { describe, expect, it } from 'vitest';
import { letterFraction, roundHalfUp } from '../src/rules/combat-chart.ts';

describe('1.8 rounding', () => {
  it('rounds .5 up (A.6: 9.5 factors use the 10 column)', () => {
    expect(roundHalfUp(9.5)).toBe(10);
    expect(roundHalfUp(2.5)).toBe(3);
  });
  it('rounds below .5 down (D.2: Waffen SS 5 halved twice = 1.25 -> 1)', () => {
    expect(roundHalfUp(5 / 2 / 2)).toBe(1);
    expect(roundHalfUp(1.25)).toBe(1);
  });
  it('leaves whole numbers alone', () => {
    expect(roundHalfUp(0)).toBe(0);
    expect(roundHalfUp(7)).toBe(7);
  });
});

describe('6.5 letter fractions', () => {
  it('S, L and B are one-third, two-thirds and all', () => {
    expect(letterFraction('S')).toBeCloseTo(1 / 3, 12);
    expect(letterFraction('L')).toBeCloseTo(2 / 3, 12);
    expect(letterFraction('B')).toBe(1);
    expect(letterFraction(null)).toBe(0);
  });
  it('A.6: S on two air units returns 2 x 1/3 -> 1', () => {
    expect(roundHalfUp(2 * letterFraction('S'))).toBe(1);
  });
  it('S on one unit affects none: 1 x 1/3 -> 0', () => {
    expect(roundHalfUp(1 * letterFraction('S'))).toBe(0);
  });
  it('A.6 and 6.6: L on one unit affects it: 1 x 2/3 -> 1', () => {
    expect(roundHalfUp(1 * letterFraction('L'))).toBe(1);
  });
  it('S on four units affects one: 4 x 1/3 -> 1', () => {
    expect(roundHalfUp(4 * letterFraction('S'))).toBe(1);
  });
  it('A.6: S on three advancing land units blocks one', () => {
    expect(roundHalfUp(3 * letterFraction('S'))).toBe(1);
  });
  it('B affects every unit', () => {
    expect(roundHalfUp(5 * letterFraction('B'))).toBe(5);
  });
  it('treats a half reached through thirds as a half (4.5 x 1/3 = 1.5 -> 2)', () => {
    expect(roundHalfUp(4.5 * letterFraction('S'))).toBe(2);
  });
});
