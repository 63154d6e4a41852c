/**
 * A synthetic Western Front for tests: rows 16-37, columns 40-62 in either RRCC scheme (`rrcc-skewed`,
 * or `rrcc-offset-even` as the bundled map.json uses, PLAN.md Next 6), the
 * scenario's sector hexes on their printed ids with the front between them, Germany east, Belgium and
 * France west, the Netherlands (neutral) in the north, sea on the west edge, the cities S3 names at
 * plausible hexes, a rail grid (with a spur to Le Havre, so that each side has a 14.3 full supply network). Not geography: a stand-in until packages/mapbuilder's map.json is in
 * the pack (PLAN.md).
 */
import { HexGrid, schemeByName } from '@salient/hexmap';
import { approximationPack } from '../../src/pack/bundled.ts';

/** The Central Powers' westernmost column in each row (from the S3 sector tables). */
const FRONT: Record<number, number> = { 22: 52, 23: 52, 24: 53, 25: 52, 26: 52, 27: 51, 28: 50, 29: 49, 30: 49, 31: 48, 32: 49, 33: 49 };
export const frontCol = (r: number): number => FRONT[r] ?? (r < 22 ? 51 : 49);

const CITIES: [string, string, 'major' | 'minor', boolean?][] = [
  ['Lille', '2250', 'major'],
  ['Brussels', '2049', 'minor'],
  ['Antwerp', '1950', 'major'],
  ['Essen', '1942', 'major'],
  ['Cologne', '2143', 'major'],
  ['Aachen', '2146', 'minor'],
  ['Frankfurt', '2741', 'major'],
  ['Metz', '2945', 'major'],
  ['Saarbrucken', '3045', 'minor'],
  ['Strassburg', '3345', 'major'],
  ['Stuttgart', '3541', 'major'],
  ['Calais', '2057', 'minor'],
  ['Amiens', '2458', 'minor'],
  ['Reims', '2755', 'minor'],
  ['Verdun', '2953', 'minor'],
  ['Nancy', '3253', 'minor'],
  ['Toul', '3155', 'minor'],
  ['Epinal', '3453', 'minor'],
  ['Belfort', '3651', 'minor'],
  ['Dijon', '3558', 'minor'],
  ['Paris', '2760', 'major', true],
  ['Le Havre', '2561', 'major'],
  // Rouen makes Paris, Rouen and Le Havre a 14.3 full supply network for the Allies (Germany's is Cologne, Frankfurt, Strassburg).
  ['Rouen', '2660', 'major'],
];
const PORTS = new Set(['1950', '2057', '2561']);

/** The two RRCC schemes the game-level tests run under: the first the test map's original, the second the shipped map's. */
export const FRONT_SCHEMES = ['rrcc-skewed', 'rrcc-offset-even'] as const;
export type FrontScheme = (typeof FRONT_SCHEMES)[number];

/** The synthetic front map as salient.hexmap/1 JSON, in `scheme` (the same printed ids, countries, cities and rail rule in both). */
export function frontMapJson(scheme: FrontScheme = 'rrcc-skewed'): Record<string, unknown> {
  const rows: [number, number] = [16, 37];
  const cols: [number, number] = [40, 62];
  const sc = schemeByName(scheme);
  const grid = new HexGrid(sc, rows, cols);
  const id = (r: number, c: number) => sc.format(r, c);
  const hexes: Record<string, unknown>[] = [];
  const country = (r: number, c: number): string | null => (c >= 62 ? null : r <= 17 ? 'NL' : r >= 37 && c <= 50 ? 'CH' : c <= frontCol(r) - 3 ? 'GE' : r <= 23 ? 'BE' : 'FR');
  for (let r = rows[0]; r <= rows[1]; r++) {
    for (let c = cols[0]; c <= cols[1]; c++) {
      const cc = country(r, c);
      const terrain = cc === null ? 'sea' : r >= 34 && c <= 46 ? 'mountain' : (r * 7 + c * 13) % 11 === 0 ? 'forest' : 'clear';
      const h: Record<string, unknown> = { id: id(r, c), terrain, country: cc };
      if (PORTS.has(id(r, c))) h.port = true;
      hexes.push(h);
    }
  }
  const hexsides: { between: [string, string]; features: string[] }[] = [];
  const rail: [string, string][] = [];
  const line: [string, string][] = [];
  for (let r = rows[0]; r <= rows[1]; r++) {
    for (let c = cols[0]; c <= cols[1]; c++) {
      const h = grid.indexOf(r, c);
      for (let d = 0; d < 3; d++) {
        const nb = grid.neighbour(h, d);
        if (nb < 0 || grid.inBounds[nb] !== 1) continue;
        const [r2, c2] = [grid.row(nb), grid.col(nb)];
        const a = country(r, c);
        const z = country(r2, c2);
        const features: string[] = [];
        if ((a === null) !== (z === null)) features.push('sea');
        else if (a !== z) features.push('border');
        // The Rhine: between columns 44 and 45 from row 28 south.
        if (r >= 28 && r2 >= 28 && Math.min(c, c2) === 44 && Math.max(c, c2) === 45) features.push('major-river');
        if (features.length) hexsides.push({ between: [id(r, c), id(r2, c2)], features });
        const cpA = c <= frontCol(r);
        const cpB = c2 <= frontCol(r2);
        if (a !== null && z !== null && a !== 'NL' && z !== 'NL' && cpA !== cpB) line.push([id(r, c), id(r2, c2)]);
      }
      if (country(r, c) === null) continue;
      if (r % 3 === 0 && c < cols[1] && country(r, c + 1) !== null) rail.push([id(r, c), id(r, c + 1)]);
      if (c % 4 === 0 && r < rows[1] && country(r + 1, c) !== null) rail.push([id(r, c), id(r + 1, c)]);
      if (id(r, c) === '2560') rail.push([id(r, c), '2561']); // Le Havre's spur to the column-60 line
    }
  }
  return {
    format: 'salient.hexmap/1',
    scheme,
    fidelity: 'synthetic',
    title: 'synthetic Western Front for the E&A rules tests',
    rows,
    cols,
    terrains: ['clear', 'forest', 'mountain', 'swamp', 'sea', 'lake'],
    hexes,
    hexsides,
    cities: CITIES.map(([name, hex, size, capital]) => ({ hex, name, size, ...(capital ? { capital: true } : {}), source: 'synthetic test map' })),
    rail,
    countries: { GE: { name: 'Germany' }, FR: { name: 'France' }, BE: { name: 'Belgium' }, NL: { name: 'Netherlands' }, CH: { name: 'Switzerland' } },
    lines: { 'start-line-1918': line },
    notes: ['synthetic: for rules tests only'],
  };
}

/** The bundled pack with the synthetic front map (in `scheme`) in place of map.json. */
export const frontPack = (scheme: FrontScheme = 'rrcc-skewed'): Record<string, unknown> => ({ ...JSON.parse(JSON.stringify(approximationPack)), map: frontMapJson(scheme) });
