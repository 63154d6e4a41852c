/**
 * 17.2 Replacements and 19 Economic warfare as S3 uses them: the RPs a nation receives in a
 * Reinforcement Phase (gross rate less the blockade, submarines and War Weariness, plus what is
 * stored, capped by the OB), and what a unit costs to replace (17.24, 17.32).
 */
import type { Nation, Profile } from '../pack/schema.ts';
import { r30ExtraLoss, rPercentLoss } from './war-weariness.ts';

export interface Rp {
  inf: number;
  art: number;
  tank: number;
}

/** 19.11: Infantry and Artillery RPs the blockade takes from a Central Power each turn of a year. */
export function blockadeLoss(nation: Nation, year: number): Rp {
  const ge: Record<number, number> = { 1915: 1, 1916: 2, 1917: 4, 1918: 6, 1919: 6 };
  const ah: Record<number, number> = { 1915: 0, 1916: 1, 1917: 1, 1918: 2, 1919: 2 };
  const art = year >= 1918 ? 1 : 0;
  if (nation === 'GE') return { inf: ge[year] ?? 0, art: year >= 1915 ? art : 0, tank: 0 };
  if (nation === 'AH') return { inf: ah[year] ?? 0, art: year >= 1915 ? art : 0, tank: 0 };
  return { inf: 0, art: 0, tank: 0 };
}

/** 19.21: Britain loses 1 Infantry RP a turn from January 1915, except in 1916. */
export const submarineLoss = (nation: Nation, year: number): number => (nation === 'GB' && year >= 1915 && year !== 1916 ? 1 : 0);

/**
 * 7.21, 17.23, 21.32: this turn's new RPs: the gross rate, less the blockade and submarines, then less an
 * R# War Weariness effect on what is left (with R30's extra Art or Tank RP, Art first).
 */
export function turnRp(nation: Nation, year: number, gross: Rp, wwPercent: number): Rp {
  const b = blockadeLoss(nation, year);
  let inf = Math.max(0, gross.inf - b.inf - submarineLoss(nation, year));
  let art = Math.max(0, gross.art - b.art);
  let tank = gross.tank;
  inf -= rPercentLoss(inf, wwPercent);
  let extra = r30ExtraLoss(wwPercent);
  if (extra && art > 0) {
    art -= 1;
    extra = 0;
  }
  if (extra && tank > 0) tank -= 1;
  return { inf, art, tank };
}

/** 17.21: stored plus new, capped by the OB maximum. */
export const addCapped = (stored: Rp, add: Rp, cap: Rp): Rp => ({
  inf: Math.min(cap.inf, stored.inf + add.inf),
  art: Math.min(cap.art, stored.art + add.art),
  tank: Math.min(cap.tank, stored.tank + add.tank),
});

/** 17.24, 17.32: what replacing a unit costs, and in which kind of RP (17.22). */
export function replacementCost(p: Profile): { kind: keyof Rp; amount: number } {
  if (p.type === 'stoss') return { kind: 'inf', amount: 6 };
  if (p.type === 'siege') return { kind: 'art', amount: 6 };
  if (p.type === 'tank') return { kind: 'tank', amount: p.attack };
  if (p.type === 'fa') return { kind: 'art', amount: p.attack };
  return { kind: 'inf', amount: p.attack };
}

/** 22.9 (optional): RPs refunded for units retreating into an EZOC: half the attack factors of each kind, rounded down. */
export function retreatRefund(units: readonly Profile[]): Rp {
  const sum = (k: keyof Rp): number => units.filter((p) => replacementCost(p).kind === k).reduce((s, p) => s + p.attack, 0);
  return { inf: Math.floor(sum('inf') / 2), art: Math.floor(sum('art') / 2), tank: Math.floor(sum('tank') / 2) };
}
