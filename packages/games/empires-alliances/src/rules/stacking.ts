/**
 * 6 Stacking: up to 3 Infantry or Cavalry units of any size; 1 Field Artillery, or 2 when there are at
 * most 2 Inf/Cav; 1 Siege Artillery and 1 Tank (6.1). Air units base in cities: 2 in a major city, 1 in
 * a minor (6.3). British and French (US counting French) may not share a hex in the sector area (18.41).
 */
import type { Profile } from '../pack/schema.ts';
import { isInfCav, sectorNation } from './units.ts';

/** 6.1: whether these ground units may end a phase together in one hex. */
export function stackLegal(units: readonly Profile[]): boolean {
  let infCav = 0;
  let fa = 0;
  let siege = 0;
  let tank = 0;
  for (const p of units) {
    if (isInfCav(p.type)) infCav++;
    else if (p.type === 'fa') fa++;
    else if (p.type === 'siege') siege++;
    else if (p.type === 'tank') tank++;
  }
  return infCav <= 3 && fa <= (infCav <= 2 ? 2 : 1) && siege <= 1 && tank <= 1;
}

/** 6.3: air units a city can base. */
export const airCapacity = (size: 'major' | 'minor' | undefined): number => (size === 'major' ? 2 : size === 'minor' ? 1 : 0);

/** 18.41: British (with the Commonwealth) and French (with the US) units may not stack together. */
export function nationsMayStack(units: readonly Profile[]): boolean {
  let british = false;
  let french = false;
  for (const p of units) {
    const s = sectorNation(p.nation);
    if (s === 'british') british = true;
    else if (s === 'french') french = true;
  }
  return !(british && french);
}
