import { describe, expect, it } from 'vitest';
import { hexBoardLayout, loadHexMap, SideFeature, syntheticMapJson } from '../src/index.ts';

import { small } from './support/small-map.ts';

describe('hexBoardLayout', () => {
  it('gives every hex with its printed id, the grid centre, terrain, country, name and port; features, cities and rail by printed id', () => {
    const map = loadHexMap(small());
    const l = hexBoardLayout(map);
    expect(l).toMatchObject({ scheme: 'rrcc-skewed', orientation: 'pointy' });
    expect(l.terrains).toEqual([
      { id: 'clear', name: 'Clear', water: false },
      { id: 'forest', name: 'Forest', water: false },
      { id: 'sea', name: 'Sea', water: true },
    ]);
    expect(l.hexes.map((h) => h.id).sort()).toEqual(['2652', '2750', '2751', '2851', '2852']);
    const byId = new Map(l.hexes.map((h) => [h.id, h]));
    expect(byId.get('2751')).toEqual({ id: '2751', x: expect.closeTo(map.grid.centreX[map.hex('2751')]!, 3), y: expect.closeTo(map.grid.centreY[map.hex('2751')]!, 3), terrain: 'forest', group: 'FR', name: 'Argonne' });
    expect(byId.get('2851')).toMatchObject({ port: true, group: 'FR' });
    expect(byId.get('2652')).toEqual({ id: '2652', x: expect.any(Number), y: expect.any(Number), terrain: 'sea' });
    // Neighbours are one unit apart; 2851 lies SE of 2751 under rrcc-skewed (row+1, same column).
    const [a, b] = [byId.get('2751')!, byId.get('2851')!];
    expect(Math.hypot(b.x - a.x, b.y - a.y)).toBeCloseTo(1, 3);
    expect(b.y).toBeGreaterThan(a.y);
    expect(b.x).toBeGreaterThan(a.x);
    expect(l.hexsides).toEqual([
      { a: '2751', b: '2851', features: ['river'], name: 'Aisne' },
      { a: '2851', b: '2852', features: ['major-river', 'border'] },
    ].map((s) => (map.grid.index(s.a) < map.grid.index(s.b) ? s : { ...s, a: s.b, b: s.a })).sort((x, y) => map.grid.index(x.a) - map.grid.index(y.a)));
    expect(l.cities).toEqual([{ hex: '2851', name: 'Verdun', kind: 'minor' }]);
    expect(l.rail.map((p) => [...p].sort())).toEqual([['2750', '2751']]);
  });

  it('draws only what `include` keeps: hexsides and rail need both their hexes drawn', () => {
    const map = loadHexMap(small());
    const l = hexBoardLayout(map, { include: (h) => map.id(h) !== '2851' });
    expect(l.hexes.map((h) => h.id)).not.toContain('2851');
    expect(l.hexsides).toEqual([]);
    expect(l.cities).toEqual([]);
    expect(l.rail).toHaveLength(1);
    expect(hexBoardLayout(map, { water: (t) => t === 'forest' }).terrains.map((t) => t.water)).toEqual([false, true, false]);
  });

  it('on a large map: each featured hexside once, every feature bit there, centres from the grid', () => {
    const map = loadHexMap(syntheticMapJson({ rows: [10, 30], cols: [0, 24], seed: 3 }));
    const l = hexBoardLayout(map);
    expect(l.hexes).toHaveLength(map.hexCount);
    const seen = new Set<number>();
    let featured = 0;
    for (const s of l.hexsides) {
      const side = map.sideOf(s.a, s.b);
      expect(seen.has(side), `${s.a}|${s.b}`).toBe(false);
      seen.add(side);
      expect(s.features.length).toBeGreaterThan(0);
    }
    for (let s = 0; s < map.grid.sideCount; s++) {
      const [a, b] = map.grid.sideHexes(s);
      if (b < 0 || !map.onMap[a] || !map.onMap[b]) continue;
      if ((map.sideFeatures[s]! & ~SideFeature.RAIL) !== 0) featured++;
    }
    expect(featured).toBeGreaterThan(0);
    expect(seen.size).toBe(featured);
    for (const h of l.hexes) {
      const i = map.hex(h.id);
      expect(h.x).toBeCloseTo(map.grid.centreX[i]!, 3);
      expect(h.y).toBeCloseTo(map.grid.centreY[i]!, 3);
    }
    // The same map gives the same layout.
    expect(JSON.stringify(hexBoardLayout(loadHexMap(syntheticMapJson({ rows: [10, 30], cols: [0, 24], seed: 3 }))))).toBe(JSON.stringify(l));
  });
});
