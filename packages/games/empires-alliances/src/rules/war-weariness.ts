/**
 * 21 National Morale (War Weariness) with S3's rules (3.68): checks at the end of March, June,
 * September and December; d10 + DRMs clamped to 1..15 (21.2); results NE, R#, M, D, S (21.3). In S3
 * nothing is in force in March 1918, the first roll is at its end, France starts at +1, and an M result
 * counts as R30 (3.68a-c). Blockade and submarine DRMs come from 19.11 and 19.21.
 */
import type { Charts, Nation } from '../pack/schema.ts';
import { reading, type RulingChoice } from './rulings.ts';

/** A parsed War Weariness result. */
export type WwResult = { kind: 'NE' } | { kind: 'R'; percent: number } | { kind: 'M' } | { kind: 'D' } | { kind: 'S' };

export function parseWw(code: string): WwResult {
  if (code === 'NE' || code === 'M' || code === 'D' || code === 'S') return { kind: code };
  return { kind: 'R', percent: Number(code.slice(1)) };
}

/** 7.4, 21.1: morale is checked at the end of March, June, September and December. */
export const moraleMonth = (month: number): boolean => month % 3 === 0;

/** 19.11: +1 to every Central Power's roll from March 1918, +2 from September 1918. 19.21: Britain +1 from March 1917. */
export function economicDrm(nation: Nation, year: number, month: number): number {
  const t = year * 12 + month;
  if (nation === 'GE' || nation === 'AH') return t >= 1918 * 12 + 9 ? 2 : t >= 1918 * 12 + 3 ? 1 : 0;
  if (nation === 'GB') return t >= 1917 * 12 + 3 ? 1 : 0;
  return 0;
}

/** 21.2: d10 plus DRMs, read as 1 below 1 and 15 above 15. */
export const wwRoll = (die: number, drm: number): number => Math.max(1, Math.min(15, die + drm));

/** 21.2 and the table: the result for a modified roll. */
export function wwResult(table: Charts['warWeariness'], roll: number): WwResult {
  return parseWw(table.results[wwRoll(roll, 0) - 1]!);
}

/**
 * S3 3.68c: an M counts as R30. Returns the result as it takes effect and the permanent DRM it adds
 * (21.33/21.34: +1 for M and D; under ruling `s3-m-drm=r30-and-drm` the M read as R30 still adds it).
 */
export function s3Effect(r: WwResult, rulings: RulingChoice): { effect: WwResult; addDrm: number } {
  if (r.kind === 'M') return { effect: { kind: 'R', percent: 30 }, addDrm: reading(rulings, 's3-m-drm') === 'r30-and-drm' ? 1 : 0 };
  return { effect: r, addDrm: r.kind === 'D' ? 1 : 0 };
}

/**
 * 21.32: the Infantry RPs an R# result takes from `inf` (applied after city, blockade and submarine
 * losses): the percentage rounded to nearest, halves up, never less than 1 (while there is any).
 * 18 RPs at R10 lose 2.
 */
export function rPercentLoss(inf: number, percent: number): number {
  if (inf <= 0 || percent <= 0) return 0;
  return Math.min(inf, Math.max(1, Math.floor((inf * percent) / 100 + 0.5)));
}

/** 21.32: R30 also costs one Artillery or Tank RP. */
export const r30ExtraLoss = (percent: number): number => (percent >= 30 ? 1 : 0);

/** 21.34: a unit deserts on a die of 1 or 2. */
export const deserts = (die: number): boolean => die <= 2;
