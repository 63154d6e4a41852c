/**
 * The evaluation the greedy bot looks one ply ahead with. Scored from `power`'s side:
 * - win/loss dominates;
 * - objective areas (A: Paris and Poland; B: the German areas) count heavily, other areas a little;
 * - material: unit Size plus half its factors;
 * - land units closer to the objectives they must take (or hold) are worth a little more;
 * - an announced, unresolved Ground Attack is credited with its rough odds on the target.
 * A heuristic for bots, not a rule of the game.
 */
import { scenarioDef, type PackIndex } from './pack-index.ts';
import { face, isLand, landNeighbours, onMap, sideOf } from './query.ts';
import type { BlitzState, SideId } from './state.ts';

function objectives(p: PackIndex, s: BlitzState): string[] {
  return s.scenario === 'A' ? ['paris', 'poland'] : (p.countryLands.get('germany') ?? []).filter((l) => l in s.control);
}

/** The side that must take the objectives (A: Axis; B: Allies). */
const attackerOf = (s: BlitzState): SideId => (s.scenario === 'A' ? 'Axis' : 'Allies');

const distCache = new Map<string, Map<string, number>>();

/** Land-graph distance from every area to the nearest objective (memoized per pack and scenario). */
function distances(p: PackIndex, s: BlitzState): Map<string, number> {
  const key = `${p.hash}|${s.scenario}`;
  let d = distCache.get(key);
  if (d) return d;
  d = new Map(objectives(p, s).map((o) => [o, 0]));
  const queue = [...d.keys()];
  while (queue.length) {
    const n = queue.shift()!;
    for (const { to } of landNeighbours(p, s, n)) {
      if (!d.has(to)) {
        d.set(to, d.get(n)! + 1);
        queue.push(to);
      }
    }
  }
  distCache.set(key, d);
  return d;
}

/** Distance of a location to the nearest objective; a unit aboard a TRS at sea is one step from its coasts. */
function reach(p: PackIndex, s: BlitzState, at: string, dist: Map<string, number>): number {
  let loc = at;
  if (loc.startsWith('trs:')) loc = s.units[loc.slice(4)]?.at ?? loc;
  // Only coasts in play count: areas outside the scenario are no one's objective.
  if (loc.startsWith('sea:')) return 1 + Math.min(4, ...[...(p.coastOf.get(loc.slice(4)) ?? [])].filter((l) => l in s.control).map((l) => dist.get(l) ?? 4));
  return dist.get(loc) ?? 4;
}

export function evaluate(p: PackIndex, s: BlitzState, power: string): number {
  const side = sideOf(p, s, power);
  if (s.winner) return s.winner === side ? 1000 : -1000;
  const sign = (x: SideId) => (x === side ? 1 : -1);
  const obj = objectives(p, s);
  const dist = distances(p, s);
  let v = 0;
  for (const [, u] of onMap(s)) {
    const f = face(p, u);
    const us = sideOf(p, s, u.power);
    v += sign(us) * (u.size + 0.5 * ((f.land ?? 0) + (f.air ?? 0) + (f.naval ?? 0)));
    if (isLand(p, u)) v += sign(us) * (1.5 / (1 + reach(p, s, u.at, dist)));
  }
  for (const [land, c] of Object.entries(s.control)) {
    if (c === 'neutral') continue;
    v += sign(sideOf(p, s, c)) * (obj.includes(land) ? 25 : 3);
  }
  // C: victory points so far, and the Convoy damage that will score at this turn's end.
  for (const [pw, n] of Object.entries(s.vp ?? {})) v += sign(sideOf(p, s, pw)) * 20 * n;
  for (const c of p.files.map.convoys ?? []) {
    const dmg = s.convoys?.[c.id] ?? 0;
    const owner = scenarioDef(p, s.scenario).powers.find((x) => x.nations.includes(c.nation));
    if (dmg && owner) v -= sign(owner.side) * 15 * dmg;
  }
  const atk = attackerOf(s);
  for (const a of s.attacks) {
    if (a.resolved) continue;
    const lf = (ids: string[]) => ids.reduce((t, x) => t + (s.units[x] && s.units[x]!.size > 0 ? (face(p, s.units[x]!).land ?? 0) : 0), 0);
    const att = lf([...a.attackers, ...a.dropped]);
    const def = onMap(s).filter(([, u]) => u.at === a.target && isLand(p, u)).reduce((t, [, u]) => t + (face(p, u).land ?? 0), 0);
    const odds = att / (att + def + 1);
    v += sign(s.side) * odds * (obj.includes(a.target) ? 12 : 2) * (s.side === atk ? 1 : 0.5);
  }
  return v;
}
