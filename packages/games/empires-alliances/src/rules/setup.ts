/**
 * S3 3.4 Initial deployment by sector: each sector's units are dealt over its hexes. The text lets the
 * owner place them freely within the sector (deploy.ts asks for it); this deal (strongest first,
 * round-robin, artillery and specials spread the same way) always meets 6.1 when the sector can. It
 * numbers the units and is the opening of the `deploy: 'deal'` game option.
 */
import type { Profile } from '../pack/schema.ts';
import { isInfCav } from './units.ts';
import { stackLegal } from './stacking.ts';

/**
 * Deal `units` over `hexCount` hexes: Inf/Cav strongest first round-robin, then Field Artillery to the
 * hexes with the fewest Inf/Cav first, then Siege and Tank likewise. Returns per hex the indices into
 * `units`; throws when the sector cannot hold them under 6.1.
 */
export function dealSector(hexCount: number, units: readonly Profile[], already: readonly (readonly Profile[])[] = []): number[][] {
  const hexes: number[][] = Array.from({ length: hexCount }, () => []);
  const content = (k: number): Profile[] => [...(already[k] ?? []), ...hexes[k]!.map((i) => units[i]!)];
  const order = units.map((p, i) => ({ p, i })).sort((a, b) => b.p.attack + b.p.defense - (a.p.attack + a.p.defense) || a.i - b.i);
  for (const pass of ['infcav', 'fa', 'siege', 'tank', 'air'] as const) {
    for (const x of order.filter((y) => (pass === 'infcav' ? isInfCav(y.p.type) : y.p.type === pass))) {
      // The hex with the fewest of this kind (then the first) that can still take it.
      const same = (q: Profile): boolean => (pass === 'infcav' ? isInfCav(q.type) : q.type === pass);
      const target = hexes
        .map((_, k) => ({ k, n: content(k).filter(same).length }))
        .sort((a, b) => a.n - b.n || a.k - b.k)
        .find(({ k }) => stackLegal([...content(k), x.p]));
      if (!target) throw new Error(`the sector's ${hexCount} hexes cannot hold another ${x.p.type} unit under 6.1 stacking`);
      hexes[target.k]!.push(x.i);
    }
  }
  return hexes;
}
