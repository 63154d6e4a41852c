/**
 * A simple evaluation for the greedy bot: objective areas held, material (unit Size on the map,
 * weighted by combat factors), and a win/loss term. Scored from `power`'s side.
 */
import type { PackIndex } from './pack-index.ts';
import { face, onMap, sideOf } from './query.ts';
import type { BlitzState } from './state.ts';

export function evaluate(p: PackIndex, s: BlitzState, power: string): number {
  const side = sideOf(p, s, power);
  if (s.winner) return s.winner === side ? 1000 : -1000;
  let v = 0;
  for (const [, u] of onMap(s)) {
    const f = face(p, u);
    const worth = u.size + 0.5 * ((f.land ?? 0) + (f.air ?? 0) + (f.naval ?? 0));
    v += sideOf(p, s, u.power) === side ? worth : -worth;
  }
  const objectives = s.scenario === 'A' ? ['paris', 'poland'] : (p.countryLands.get('germany') ?? []);
  for (const [land, c] of Object.entries(s.control)) {
    if (c === 'neutral') continue;
    const mine = sideOf(p, s, c) === side;
    const w = objectives.includes(land) ? 25 : 3;
    v += mine ? w : -w;
  }
  return v;
}
