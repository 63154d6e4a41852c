/**
 * 16.4 Air units and 6.3 air bases, as the owner's decisions.
 *
 * - 16.41: in the Movement Phase an air unit may fly (`fly A`) up to 4 hexes from its base to an enemy
 *   hex it will support attacks on (`over HHHH`; at most three air units of a side over one hex), or,
 *   if it does not fly a sortie, transfer up to 10 hexes to a new base (`base HHHH`), or `stay`. Terrain,
 *   enemy units and ZOC do not matter.
 * - 16.42: an attack on that hex gets +1 for each air unit over it, at most +2 an attack (a third one
 *   serves a second attack on the hex, 13.3), each needing an infantry corps of its nation in the attack
 *   (flow.ts `assess`). After the Combat Phase each air unit that flew a sortie lands at a friendly city
 *   within 4 hexes of that hex (`land HHHH` when there is a choice); with none it is eliminated.
 * - 6.3: bases are friendly cities, two air units in a major city, one in a minor. When the enemy takes
 *   a city, the air units based there fly to the nearest friendly city within 8 hexes with room (the
 *   lowest hex number among equals; the rules leave it to the owner, here it is made at once so that a
 *   move is never interrupted), or are eliminated.
 */
import type { Board, SideNo } from './board.ts';
import { SIDE_IDS } from './board.ts';
import { emit, type Events } from './events.ts';
import { ctl, eliminate, label } from './flow.ts';
import { fastOf } from './fast.ts';
import { fired } from './sections.ts';
import { airCapacity } from './stacking.ts';
import { FLAG, type EaState } from './state.ts';

export const isAir = (b: Board, u: number): boolean => b.units[u]!.prof.type === 'air';

/** Air units of `side` based in `h` (on the ground, not over a target). */
function basedAt(b: Board, s: EaState, h: number, side: number, except = -1): number {
  let n = 0;
  for (let u = 0; u < s.hex.length; u++) if (u !== except && s.hex[u] === h && isAir(b, u) && b.units[u]!.side === side && (s.flg[u]! & FLAG.SORTIE) === 0) n++;
  return n;
}

/** 6.3: friendly cities within `range` of `from` with room for air unit `u`, ascending. */
export function airBases(b: Board, s: EaState, u: number, from: number, range: number): number[] {
  const side = b.units[u]!.side;
  const out: number[] = [];
  for (const c of b.map.cities) {
    const h = c.hex;
    if (h === s.hex[u] || ctl(b, s, h) !== side || b.neutral[h] === 1 || b.map.grid.distance(from, h) > range) continue;
    if (basedAt(b, s, h, side, u) < airCapacity(c.size)) out.push(h);
  }
  return out.sort((x, y) => x - y);
}

/** 16.41: enemy hexes within 4 of air unit `u`'s base that it may fly over (fewer than three friendly air units there), ascending. */
export function sortieTargets(b: Board, s: EaState, u: number): number[] {
  const side = b.units[u]!.side;
  const from = s.hex[u]!;
  const seen = new Set<number>();
  for (let v = 0; v < s.hex.length; v++) {
    const h = s.hex[v]!;
    if (h < 0 || b.units[v]!.side === side || isAir(b, v) || seen.has(h) || b.map.grid.distance(from, h) > 4) continue;
    seen.add(h);
  }
  const out: number[] = [];
  for (const h of seen) {
    let over = 0;
    for (let v = 0; v < s.hex.length; v++) if (s.hex[v] === h && isAir(b, v) && b.units[v]!.side === side && (s.flg[v]! & FLAG.SORTIE) !== 0) over++;
    if (over < 3) out.push(h);
  }
  return out.sort((x, y) => x - y);
}

/** Air units of `side` that may still fly this Movement Phase, ascending. */
export function flyable(b: Board, s: EaState, side: SideNo): number[] {
  const out: number[] = [];
  const air = fastOf(b).airOf[side];
  for (let i = 0; i < air.length; i++) {
    const u = air[i]!;
    if (s.hex[u]! >= 0 && (s.flg[u]! & FLAG.MOVED) === 0) out.push(u);
  }
  return out;
}

/** `fly A`: ask where it goes. */
export function askFly(b: Board, s: EaState, u: number): void {
  s.ask = { k: 'fly', u, over: sortieTargets(b, s, u), base: airBases(b, s, u, s.hex[u]!, 10) };
}

/** `over HHHH` / `base HHHH` / `stay` for the air unit being flown. */
export function playFly(b: Board, s: EaState, u: number, verb: 'over' | 'base' | 'stay', h: number, ev: Events): void {
  s.flg[u] = s.flg[u]! | FLAG.MOVED;
  if (verb === 'stay') return;
  fired(verb === 'over' ? '16.4' : '6.3');
  const from = s.hex[u]!;
  s.hex[u] = h;
  if (verb === 'over') s.flg[u] = s.flg[u]! | FLAG.SORTIE;
  emit(ev, 'air', SIDE_IDS[b.units[u]!.side], `${label(b, u)} ${verb === 'over' ? 'flies a sortie' : 'transfers'} ${b.map.id(from)} -> ${b.map.id(h)}`, { unit: u, from: b.map.id(from), to: b.map.id(h) });
}

/**
 * 16.42: after the Combat Phase, land the side's sortied air units one at a time: eliminated with no
 * friendly city within 4 hexes, placed when there is one, asked when there are several. True while a
 * landing question is open.
 */
export function askLandings(b: Board, s: EaState, ev: Events): boolean {
  for (let u = 0; u < s.hex.length; u++) {
    if (s.hex[u]! < 0 || !isAir(b, u) || b.units[u]!.side !== s.seg || (s.flg[u]! & FLAG.SORTIE) === 0) continue;
    const opts = airBases(b, s, u, s.hex[u]!, 4);
    if (opts.length === 0) {
      s.flg[u] = s.flg[u]! & ~FLAG.SORTIE;
      eliminate(b, s, u, ev, 'no friendly city within 4 hexes to land (16.42)');
      continue;
    }
    if (opts.length === 1) {
      land(b, s, u, opts[0]!, ev);
      continue;
    }
    s.ask = { k: 'land', u, opts };
    return true;
  }
  return false;
}

/** `land HHHH`. */
export function land(b: Board, s: EaState, u: number, h: number, ev: Events): void {
  s.flg[u] = s.flg[u]! & ~FLAG.SORTIE;
  const from = s.hex[u]!;
  s.hex[u] = h;
  emit(ev, 'air', SIDE_IDS[b.units[u]!.side], `${label(b, u)} lands ${b.map.id(from)} -> ${b.map.id(h)}`, { unit: u, from: b.map.id(from), to: b.map.id(h) });
}

/** 6.3: the enemy has taken `h`: air units of `side` based there fly to a friendly city within 8 hexes, or are eliminated. */
export function airDisplaced(b: Board, s: EaState, h: number, side: number, ev: Events): void {
  if (b.map.city[h]! < 0) return;
  for (let u = 0; u < s.hex.length; u++) {
    if (s.hex[u] !== h || !isAir(b, u) || b.units[u]!.side !== side || (s.flg[u]! & FLAG.SORTIE) !== 0) continue;
    const opts = airBases(b, s, u, h, 8).sort((x, y) => b.map.grid.distance(h, x) - b.map.grid.distance(h, y) || x - y);
    if (opts.length === 0) {
      eliminate(b, s, u, ev, 'its base is taken and no friendly city is within 8 hexes (6.3)');
      continue;
    }
    s.hex[u] = opts[0]!;
    fired('6.3');
    emit(ev, 'air', SIDE_IDS[b.units[u]!.side], `${label(b, u)} leaves ${b.map.id(h)} for ${b.map.id(opts[0]!)} (6.3)`, { unit: u, from: b.map.id(h), to: b.map.id(opts[0]!) });
  }
}
