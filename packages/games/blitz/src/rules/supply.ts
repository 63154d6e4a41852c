/**
 * Supply lines (1.7, from Scenario D on; switched on per scenario with `supply`). A unit is in supply
 * when a line runs from its area to a source: a friendly land area of one of its power's home
 * countries or of its own home country, over friendly land areas (across borders and Land Routes, not
 * Air Routes) and friendly seas (a sea is friendly unless an enemy air unit, BB, CV or SUB is there and
 * none of your side's units are; a live Convoy of yours counts as yours). Units at sea are always in
 * supply. Supply is judged when a unit starts to move.
 *
 * Out of supply (1.7): a land unit cannot move; no unit joins a land combat; an air unit cannot move to
 * sea; a TRS carries and embarks nothing; a naval unit moves only 1; nothing is built there; each
 * defending land unit out of supply gives the attackers two white triangles (6.2). Rebasing is allowed.
 */
import { scenarioDef, unitDef, type PackIndex } from './pack-index.ts';
import { controllerSide, enemy, isLand, sideOf, typeOf, unitsAt } from './query.ts';
import { seaNeighbours } from './geometry.ts';
import type { BlitzState, SideId } from './state.ts';
import { fired } from './sections.ts';

/** Whether this scenario uses supply lines. */
export const usesSupply = (p: PackIndex, s: BlitzState): boolean => scenarioDef(p, s.scenario).supply === true;

/** 1.5: a sea is friendly to `side` unless armed enemy units hold it alone. */
export function friendlySea(p: PackIndex, s: BlitzState, sea: string, side: SideId): boolean {
  const here = unitsAt(s, `sea:${sea}`);
  const armedEnemy = here.some(([, u]) => sideOf(p, s, u.power) === enemy(side) && ['AIR', 'BB', 'CV', 'SUB'].includes(typeOf(p, u)));
  if (!armedEnemy) return true;
  return here.some(([, u]) => sideOf(p, s, u.power) === side);
}

/** Home countries of a power: those of its nations (1.1). */
export function homeCountries(p: PackIndex, s: BlitzState, power: string): Set<string> {
  const nations = scenarioDef(p, s.scenario).powers.find((x) => x.id === power)?.nations ?? [];
  return new Set(p.files.map.countries.filter((c) => c.homeOf && nations.includes(c.homeOf)).map((c) => c.id));
}

/**
 * Land areas in play that `power`'s units of home country `home` can trace supply from: every area
 * connected to a source by friendly land and sea. Computed afresh each time: states change inside an
 * apply (a move can restore another unit's supply), and the maps are small.
 */
export function suppliedAreas(p: PackIndex, s: BlitzState, power: string, home: string): Set<string> {
  return new Set([...supplyReach(p, s, power, home)].filter((x) => !x.startsWith('sea:')));
}

/** Sea areas in play a supply line of `power` reaches (7.4: from a Lend Lease unit's home country to its sea). */
export function suppliedSeas(p: PackIndex, s: BlitzState, power: string, home: string): Set<string> {
  return new Set([...supplyReach(p, s, power, home)].filter((x) => x.startsWith('sea:')).map((x) => x.slice(4)));
}

/** Every land (`id`) and sea (`sea:id`) a supply line of `power` from its home countries (and `home`) reaches. */
function supplyReach(p: PackIndex, s: BlitzState, power: string, home: string): Set<string> {
  const side = sideOf(p, s, power);
  const homes = homeCountries(p, s, power);
  homes.add(home);
  const inPlay = Object.keys(s.control);
  const friendly = (land: string) => controllerSide(p, s, land) === side;
  const seen = new Set<string>();
  const queue: string[] = [];
  for (const land of inPlay) {
    if (friendly(land) && homes.has(p.land.get(land)!.country)) {
      seen.add(land);
      queue.push(land);
    }
  }
  const sc = scenarioDef(p, s.scenario);
  while (queue.length) {
    const n = queue.shift()!;
    const next: string[] = [];
    if (n.startsWith('sea:')) {
      const sea = n.slice(4);
      for (const l of p.coastOf.get(sea) ?? []) if (l in s.control && friendly(l)) next.push(l);
      for (const t of seaNeighbours(p, s, sea, side)) if (friendlySea(p, s, t, side)) next.push(`sea:${t}`);
    } else {
      for (const b of [...(p.borders.get(n) ?? []), ...(p.landRoutes.get(n) ?? [])]) if (b in s.control && friendly(b)) next.push(b);
      for (const sea of p.land.get(n)!.coast) if (sc.seas.includes(sea) && friendlySea(p, s, sea, side)) next.push(`sea:${sea}`);
    }
    for (const x of next) {
      if (!seen.has(x)) {
        seen.add(x);
        queue.push(x);
      }
    }
  }
  return seen;
}

/** Whether unit `id` is in supply now (always, where the scenario has no supply rule). */
export function inSupply(p: PackIndex, s: BlitzState, id: string): boolean {
  if (!usesSupply(p, s)) return true;
  const u = s.units[id]!;
  if (u.at.startsWith('sea:')) return true;
  const at = u.at.startsWith('trs:') ? s.units[u.at.slice(4)]!.at : u.at;
  if (at.startsWith('sea:')) return true;
  if (suppliedAreas(p, s, u.power, unitDef(p, u.def).home).has(at)) return true;
  fired('1.7', s.scenario);
  return false;
}

/** Whether a unit could be built or placed in `land` by `power` (1.7: not where supply cannot reach). */
export function areaInSupply(p: PackIndex, s: BlitzState, power: string, home: string, land: string): boolean {
  return !usesSupply(p, s) || suppliedAreas(p, s, power, home).has(land);
}

/** 6.2: two white triangles for the attackers per defending land unit out of supply. */
export function outOfSupplyDefenders(p: PackIndex, s: BlitzState, ids: readonly string[]): number {
  if (!usesSupply(p, s)) return 0;
  return ids.filter((x) => isLand(p, s.units[x]!) && !inSupply(p, s, x)).length;
}
