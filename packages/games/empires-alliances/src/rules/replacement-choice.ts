/**
 * 17.24-17.27 and 17.31-17.34: the owner's replacement purchases. In the Reinforcement Phase, after
 * the RPs and reinforcements are in (flow.ts `reinforcementPhase`), the phasing player picks units from
 * the Replacement Pool one at a time (`buy U`), each paid with its attack factor in RPs of its kind
 * (17.22, 17.24, 17.32), then where it is placed (`at HHHH`) when the text leaves a choice, or `done`.
 *
 * Where a replacement may go (17.25, 17.26, 17.31, 17.33): a controlled, supplied city of its home
 * country, one replacement per city a turn (17.25; reinforcements have their own limit, 17.12), by priority: the capital, then the
 * cities that generate Artillery RPs, then the other cities; the owner chooses among the cities of the
 * first class that has room. The pack gives no list of RP-generating cities, so major cities stand for
 * the Artillery RP cities (an approximation, PLAN.md); Artillery and Tanks go only to those (17.33). US
 * units go to any British or French port but Calais (17.31); British and Commonwealth units to Britain,
 * three a turn (2.3, 17.25). A placed unit must fit the stacking limits
 * at once (stricter than 17.27, which lets it overstack until the end of the Movement Phase).
 *
 * Options stay short: one `buy` per counter profile (the lowest-numbered unit of it in the pool, as
 * units of one profile are alike), in ascending unit number, then `done`.
 */
import type { Board, SideNo } from './board.ts';
import { SIDE_IDS } from './board.ts';
import { emit, type Events } from './events.ts';
import { arrivesInBritain, ctl, label, listAt, occIndex, sectorOk, supplyOf, type Occ } from './flow.ts';
import { placeName } from './sea.ts';
import { replacementCost } from './replacements.ts';
import { nationsMayStack, stackLegal } from './stacking.ts';
import { HEX, type EaState } from './state.ts';

/** 3.52: Canadian and Australian units draw on the Commonwealth pool (`CA`). */
export const rpPool = (n: string): string => (n === 'AU' ? 'CA' : n);

const KIND = { inf: 0, art: 1, tank: 2 } as const;

/** 17.26: a city's priority class: 0 the capital, 1 an Artillery RP city (major cities stand for them), 2 any other. */
function cityClass(b: Board, h: number): number {
  const c = b.map.cities[b.map.city[h]!]!;
  return c.capital ? 0 : c.size === 'major' ? 1 : 2;
}

/** Country codes a unit of `nation` is replaced in (17.25, 17.31): its own; the US and Commonwealth in the Allied home countries. */
function homeOf(b: Board, nation: string): ReadonlySet<string> {
  if (nation === 'US' || nation === 'CA' || nation === 'AU') return b.home[1];
  return new Set([nation === 'GE' || nation === 'AH' ? 'GE' : nation]);
}

/**
 * 17.25, 17.26, 17.31, 17.33: the cities unit `u` may be placed in now, ascending: those of the first
 * priority class with room. `dist` is the side's supply (14.2).
 */
export function replacementSites(b: Board, s: EaState, u: number, dist: Int32Array, occ: Occ = occIndex(b, s)): number[] {
  const d = b.units[u]!;
  // 2.3, 17.25: British and Commonwealth replacements are placed in Britain, three a turn in London.
  if (arrivesInBritain(d.nation)) return s.used.filter((h) => h === HEX.BRITAIN).length < 3 ? [HEX.BRITAIN] : [];
  const home = homeOf(b, d.nation);
  const us = d.nation === 'US';
  const artOnly = d.prof.type === 'fa' || d.prof.type === 'siege' || d.prof.type === 'tank';
  let best = 3;
  let out: number[] = [];
  for (const c of b.map.cities) {
    const h = c.hex;
    if (!home.has(b.map.countryCode(h) ?? '') || c.name === 'Calais') continue;
    if (us ? (b.map.flags[h]! & 1) === 0 : false) continue; // 17.31: any British or French port
    const cls = us ? 0 : cityClass(b, h);
    if (cls > best || (artOnly && !us && cls > 1)) continue; // 17.33
    if (ctl(b, s, h) !== d.side || dist[h]! < 0 || s.used.includes(h) || !sectorOk(b, s, u, h)) continue;
    const here = listAt(occ, h).map((x) => b.units[x]!.prof);
    here.push(d.prof);
    if (!stackLegal(here) || !nationsMayStack(here)) continue;
    if (cls < best) {
      best = cls;
      out = [];
    }
    out.push(h);
  }
  return out.sort((x, y) => x - y);
}

/** 17.24, 17.32, 17.34, 3.52: pool units `side` may buy now (one per profile, the lowest number), each with a place to go. */
export function buyable(b: Board, s: EaState, side: SideNo, dist: Int32Array): number[] {
  const out: number[] = [];
  const seen = new Set<string>();
  let stoss = 0;
  const tanks = new Set<string>();
  const occ = occIndex(b, s);
  for (const u of s.rq) {
    if (b.units[u]!.prof.type === 'stoss') stoss++;
    if (b.units[u]!.prof.type === 'tank') tanks.add(b.units[u]!.nation);
  }
  for (let u = 0; u < s.hex.length; u++) {
    const d = b.units[u]!;
    if (d.side !== side || s.hex[u] !== HEX.POOL || d.prof.type === 'air' || seen.has(d.prof.id)) continue;
    seen.add(d.prof.id); // units of one profile are alike: the first decides for all
    const rp = s.rp[rpPool(d.nation)];
    if (!rp) continue; // 3.52: no replacements for A-H and Belgium
    const cost = replacementCost(d.prof);
    if (rp[KIND[cost.kind]]! < cost.amount) continue;
    if (d.prof.type === 'stoss' && stoss >= 1) continue; // 17.34
    if (d.prof.type === 'tank' && tanks.has(d.nation)) continue;
    if (replacementSites(b, s, u, dist, occ).length === 0) continue;
    out.push(u);
  }
  return out;
}

/** Ask the phasing player for a purchase if one is possible; false when there is nothing to buy (the phase goes on). */
export function askBuy(b: Board, s: EaState): boolean {
  const opts = buyable(b, s, s.seg, supplyOf(b, s, s.seg));
  if (opts.length === 0) return false;
  s.ask = { k: 'buy', opts };
  return true;
}

/** `buy U`: pay for it, then place it at once when only one city may take it, else ask where. */
export function buy(b: Board, s: EaState, u: number, ev: Events): boolean {
  const opts = replacementSites(b, s, u, supplyOf(b, s, s.seg));
  if (opts.length === 1) {
    placeReplacement(b, s, u, opts[0]!, ev);
    return askBuy(b, s);
  }
  s.ask = { k: 'place', u, opts };
  return true;
}

/** `at HHHH`: pay the RPs and put the unit there (17.24, 17.25); then the next purchase, if any. */
export function placeReplacement(b: Board, s: EaState, u: number, h: number, ev: Events): void {
  const d = b.units[u]!;
  const cost = replacementCost(d.prof);
  const rp = s.rp[rpPool(d.nation)]!;
  rp[KIND[cost.kind]] = rp[KIND[cost.kind]]! - cost.amount;
  s.hex[u] = h;
  s.sup[u] = 0;
  s.mor[u] = 0;
  s.ent[u] = 0;
  s.used.push(h);
  s.rq.push(u);
  emit(ev, 'replacement', SIDE_IDS[d.side], `${label(b, u)} is rebuilt ${h === HEX.BRITAIN ? 'in' : 'at'} ${placeName(b, h)} for ${cost.amount} ${cost.kind} RP`, { unit: u, hex: h === HEX.BRITAIN ? 'Britain' : b.map.id(h) });
}
