/**
 * Combat Chart lookup (6.5) and the fraction arithmetic of letter results (6.5, 1.8).
 */
import type { CombatChart } from '../pack/schema.ts';

/** A letter result: S = one-third, L = two-thirds, B = all of the eligible enemy units (6.5). */
export type Letter = 'S' | 'L' | 'B';

/** One cell of the Combat Chart: points of damage, an optional letter, and the printed text. */
export interface ChartResult {
  damage: number;
  letter: Letter | null;
  /** As printed: '-', '2', 'S', '1L'. */
  text: string;
}

/**
 * Index of the column used for a modified factor total (6.5: totals above 30 use the '30+' column).
 * The caller applies the minimum of 1 first (6): a total below 1 is not a lookup, so it throws, as
 * does a fractional total (round with {@link roundHalfUp} first, 1.8).
 */
export function chartColumn(chart: CombatChart, total: number): number {
  if (!Number.isInteger(total) || total < 1) {
    throw new RangeError(`Combat Chart totals are whole numbers of at least 1 (6, 1.8); got ${total}`);
  }
  const i = chart.columns.findIndex((c) => total >= c.min && (c.max === null || total <= c.max));
  if (i < 0) throw new RangeError(`the Combat Chart has no column for a total of ${total}; validate the pack with checkBlitzPack`);
  return i;
}

/** The result for a modified total and a die roll of 1..6 (6.5). */
export function chartResult(chart: CombatChart, total: number, die: number): ChartResult {
  if (!Number.isInteger(die) || die < 1 || die > 6) throw new RangeError(`a die roll is 1..6; got ${die}`);
  const text = chart.columns[chartColumn(chart, total)]?.results[die - 1];
  if (text === undefined) throw new RangeError(`the Combat Chart column for ${total} has no result for die ${die}`);
  return parseResult(text);
}

/** Split a printed cell ('-', '2', 'S', '1L') into damage and letter. */
export function parseResult(text: string): ChartResult {
  const m = /^(\d*)([SLB]?)$/.exec(text === '-' ? '' : text);
  if (!m) throw new RangeError(`'${text}' is not a Combat Chart result`);
  const letter = (m[2] || null) as Letter | null;
  return { damage: m[1] ? Number(m[1]) : 0, letter, text };
}

/** Share of the eligible enemy units a letter affects (6.5): S 1/3, L 2/3, B all; no letter, none. */
export function letterFraction(letter: Letter | null): number {
  return letter === 'S' ? 1 / 3 : letter === 'L' ? 2 / 3 : letter === 'B' ? 1 : 0;
}

/**
 * Round a value whose fractions were retained through every modifier (1.8): .5 and above round up.
 * Thirds are not exact in binary, so values within 1e-9 of a half are treated as the half and values
 * within 1e-9 of an integer as the integer: 2 x 1/3 = 0.666... rounds to 1 and 1 x 1/3 to 0.
 */
export function roundHalfUp(x: number): number {
  const EPS = 1e-9;
  const n = Math.round(x);
  if (Math.abs(x - n) < EPS) return n;
  return Math.floor(x + 0.5 + EPS);
}
