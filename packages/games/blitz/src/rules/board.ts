/**
 * The map view for the dashboard's replay viewer: every land and sea area at its position from the
 * pack (the bundled pack's positions are geographic estimates, marked in its map.json), land borders
 * and sea borders as links, and at each moment who controls each land and which units stand where.
 */
import type { BoardFrame, BoardLayout, BoardUnit, BoardView, LoadedPack } from '@salient/engine';
import type { PackFiles } from '../pack/schema.ts';
import { packOf } from './pack-index.ts';
import type { BlitzState } from './state.ts';

/** Where a unit stands on the map: a land, or a sea (`sea:<id>`); aboard, in the pool or gone: nowhere. */
function areaOf(at: string): string | undefined {
  if (at.startsWith('sea:')) return at.slice(4);
  if (at === 'pool' || at === 'gone' || at.includes(':')) return undefined;
  return at;
}

export const blitzBoard: BoardView<BlitzState, PackFiles> = {
  layout(pack: LoadedPack<PackFiles>): BoardLayout {
    const map = pack.data.map;
    return {
      areas: [
        ...map.lands.map((l) => ({ id: l.id, name: l.name, kind: 'land' as const, lon: l.position.lon, lat: l.position.lat, group: l.country, ...(l.shape ? { shape: l.shape } : {}) })),
        ...map.seas.map((s) => ({ id: s.id, name: s.name, kind: 'sea' as const, lon: s.position.lon, lat: s.position.lat, ...(s.shape ? { shape: s.shape } : {}) })),
      ],
      links: [...map.borders, ...map.seaBorders].map(([a, b]) => [a, b] as [string, string]),
    };
  },

  frame(s: BlitzState): BoardFrame {
    const p = packOf(s.pack);
    const units: Record<string, BoardUnit[]> = {};
    for (const [id, u] of Object.entries(s.units)) {
      const area = areaOf(u.at);
      if (area === undefined) continue;
      const type = p.unit.get(u.def)?.type ?? u.def;
      (units[area] ??= []).push({ id, power: u.power, label: `${type} ${u.size}` });
    }
    for (const list of Object.values(units)) list.sort((a, b) => a.power.localeCompare(b.power) || a.id.localeCompare(b.id));
    return { control: { ...s.control }, units };
  },
};
