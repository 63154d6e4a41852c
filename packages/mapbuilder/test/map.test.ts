/**
 * Checks on the committed E&A approximate map (always run: they need no geodata): it loads with
 * @salient/hexmap, every anchor is where anchors.json says, the S3 set-up facts hold on it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkHexMap, loadHexMap, SideFeature, schemeByName } from '@salient/hexmap';
import { EA_PATHS, REPO_ROOT, fitTransform, readAnchors } from '../src/index.ts';
import { idAt } from '../src/hexgeom.ts';

const raw = JSON.parse(readFileSync(join(REPO_ROOT, EA_PATHS.map), 'utf8')) as { scheme: string; cities: { hex: string; name: string }[]; rail: [string, string][]; lines: Record<string, [string, string][]> };
const map = loadHexMap(raw, { source: EA_PATHS.map });
const anchors = readAnchors(join(REPO_ROOT, EA_PATHS.anchors)).anchors;
const WEST = new Set(['FR', 'BE', 'LU', 'GE']);
const line = raw.lines['start-line-1918'] ?? [];
const lineSides = new Set(line.map(([a, b]) => map.sideOf(a, b)));

/** Hexes reachable from `start` over western land without crossing the start line. */
function sideOf(start: string): Set<number> {
  const seen = new Set<number>([map.hex(start)]);
  const queue = [map.hex(start)];
  for (let i = 0; i < queue.length; i++) {
    const h = queue[i]!;
    for (let d = 0; d < 6; d++) {
      const n = map.neighbours[h * 6 + d]!;
      if (n < 0 || seen.has(n)) continue;
      if (!WEST.has(map.countryCode(n) ?? '') || lineSides.has(map.grid.sideBetween(h, n))) continue;
      seen.add(n);
      queue.push(n);
    }
  }
  return seen;
}

describe('committed E&A approximate map', () => {
  it('is a valid salient.hexmap/1 map of about 3,800 hexes', () => {
    const check = checkHexMap(raw, { source: EA_PATHS.map });
    expect(check.ok ? [] : check.issues).toEqual([]);
    expect(map.hexCount).toBeGreaterThan(3000);
    expect(map.hexCount).toBeLessThan(4500);
  });

  it('puts every anchor on a land hex of the country its rule needs', () => {
    for (const a of anchors) {
      const h = map.hex(a.hex);
      expect(map.terrainName(h), a.hex).not.toMatch(/^(sea|lake)$/);
      if (a.country) expect(map.countryCode(h), `${a.hex} ${a.place}`).toBe(a.country);
    }
  });

  it('maps every anchor place into its printed hex with the fit from anchors.json', () => {
    const scheme = schemeByName(raw.scheme);
    const t = fitTransform(anchors, scheme);
    for (const a of anchors) {
      const p = t.forward(a.lon, a.lat)!;
      expect(idAt(scheme, p[0], p[1]), `${a.hex} ${a.place}`).toBe(a.hex);
    }
  });

  it('keeps 2751 beside 2851 and 2852 (22.11) and 4709/4810 a hexside (2.8)', () => {
    expect(map.grid.sideBetween(map.hex('2751'), map.hex('2851'))).toBeGreaterThanOrEqual(0);
    expect(map.grid.sideBetween(map.hex('2751'), map.hex('2852'))).toBeGreaterThanOrEqual(0);
    expect(map.grid.sideBetween(map.hex('4709'), map.hex('4810'))).toBeGreaterThanOrEqual(0);
    expect(map.sideHas(map.sideOf('4709', '4810'), SideFeature.RAIL)).toBe(true);
  });

  it('has one continuous 1918 start line with every S3 sector hex on its side and near it', () => {
    expect(line.length).toBeGreaterThan(10);
    const german = sideOf('2453');
    const allied = sideOf('2454');
    for (const h of german) expect(allied.has(h)).toBe(false);
    const onLine = new Set(line.flat().map((id) => map.hex(id)));
    for (const a of anchors.filter((x) => x.side)) {
      const h = map.hex(a.hex);
      expect((a.side === 'german' ? german : allied).has(h), `${a.hex} sector ${a.sector}`).toBe(true);
      // on the line, or at most two hexes behind it (the rear hexes of a sector)
      const d = Math.min(...[...onLine].map((l) => map.grid.distance(h, l)));
      expect(d, `${a.hex} sector ${a.sector}`).toBeLessThanOrEqual(2);
    }
    // the front hexes of each row touch the line
    for (const id of ['2151', '2152', '2252', '2253', '2352', '2353', '2453', '2454', '2552', '2553', '2652', '2653', '2751', '2752', '2850', '2851', '2949', '2950', '3049', '3050', '3148', '3149', '3249', '3250', '3349', '3350']) {
      expect(onLine.has(map.hex(id)), id).toBe(true);
    }
  });

  it('has the S3 railheads on rail', () => {
    const railHexes = new Set(raw.rail.flat());
    for (const id of ['2352', '2552', '2652', '2751', '2850', '3349']) expect(railHexes.has(id), id).toBe(true);
  });

  it('has the 15 S3 victory places as cities, each on the side that holds it in March 1918', () => {
    const byName = new Map(raw.cities.map((c) => [c.name, c.hex]));
    const german = sideOf('2453');
    const allied = sideOf('2454');
    const held = { german: ['Lille', 'St Quentin', 'Antwerp', 'Brussels', 'Metz', 'Strassburg', 'Cologne', 'Aachen', 'Saarbrucken'], allied: ['Reims', 'Nancy', 'Verdun', 'Paris', 'Calais', 'Amiens'] };
    expect(byName.get('St Quentin')).toBe('2453');
    for (const [side, names] of Object.entries(held)) {
      for (const n of names) {
        const id = byName.get(n);
        expect(id, n).toBeDefined();
        expect((side === 'german' ? german : allied).has(map.hex(id!)), `${n} (${id}) on the ${side} side`).toBe(true);
      }
    }
  });
});
