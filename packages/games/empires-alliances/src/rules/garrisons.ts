/**
 * 18.3 Garrisons. At the end of its player segment a side needs one corps (or two divisions) of
 * infantry or cavalry in every major city it controls in an enemy country at war, and in Brussels
 * (18.31); it loses 1 Infantry RP from its next turn's replacements for each garrison it is short
 * (18.32). In S3 the Central Powers garrison the French and Belgian major cities they hold and
 * Brussels; the Allies the German major cities they take.
 *
 * The loss is taken from the side's stored Infantry RPs at once, which may go below zero: the next
 * turn's RPs are added to it, so the next turn's replacements are what lose it. The Central Powers
 * pay from Germany's RPs; the Allies from Britain's for a city in the British sector (3.62: rows 24
 * and north) and France's elsewhere.
 */
import { SIDE_IDS, type Board, type SideNo } from './board.ts';
import { emit, type Events } from './events.ts';
import { ctl, first, occIndex } from './flow.ts';
import { fired } from './sections.ts';
import type { EaState } from './state.ts';
import { corpsHalves, isInfCav } from './units.ts';

/** 18.31: the minor cities that need a garrison too (of those on the Western Front map). */
const MINOR_GARRISONS = new Set(['Brussels']);
/** The enemy countries at war, by the side that garrisons in them (S3 3.61). */
const ENEMY_LANDS: readonly [ReadonlySet<string>, ReadonlySet<string>] = [new Set(['FR', 'BE', 'GB']), new Set(['GE', 'LU'])];

/** 18.31: the city hexes `side` must garrison now. */
export function garrisonCities(b: Board, s: EaState, side: SideNo): number[] {
  const out: number[] = [];
  for (const c of b.map.cities) {
    if (c.size !== 'major' && !MINOR_GARRISONS.has(c.name)) continue;
    if (!ENEMY_LANDS[side].has(b.map.countryCode(c.hex) ?? '') || ctl(b, s, c.hex) !== side) continue;
    out.push(c.hex);
  }
  return out.sort((x, y) => x - y);
}

/** 18.31: the cities of `garrisonCities` without a full garrison (one corps or two divisions of Inf/Cav). */
export function garrisonShort(b: Board, s: EaState, side: SideNo): number[] {
  const occ = occIndex(b, s);
  return garrisonCities(b, s, side).filter((h) => {
    let halves = 0;
    for (let u = first(occ, h); u >= 0; u = occ.next[u]!) {
      const d = b.units[u]!;
      if (d.side === side && isInfCav(d.prof.type)) halves += corpsHalves(d.prof);
    }
    return halves < 2;
  });
}

/** 18.32: at the end of `side`'s segment, 1 Infantry RP off for each garrison short. */
export function garrisonCheck(b: Board, s: EaState, side: SideNo, ev: Events): void {
  const short = garrisonShort(b, s, side);
  if (!short.length) return;
  fired('18.3');
  for (const h of short) {
    const pool = side === 0 ? 'GE' : b.map.grid.row(h) <= 24 ? 'GB' : 'FR';
    const rp = s.rp[pool];
    if (!rp) continue;
    rp[0] = rp[0]! - 1;
    emit(ev, 'garrison', SIDE_IDS[side], `${b.map.cities[b.map.city[h]!]!.name} (${b.map.id(h)}) is not garrisoned: ${pool} loses 1 Infantry RP (18.32)`, { hex: b.map.id(h), nation: pool });
  }
}
