import { describe, expect, it } from 'vitest';
import { SalientError } from '@salient/engine';
import { ccrrFlatOddQ, HexGrid, rrccOffsetRows, rrccSkewed } from '../src/index.ts';

const ea = new HexGrid(rrccSkewed, [10, 62], [4, 60]);
const ids = (g: HexGrid, hs: readonly number[]) => hs.map((h) => g.id(h));

describe('rrcc-skewed', () => {
  it('2751 borders 2851 and 2852 (22.11 Argonne hexsides)', () => {
    const h = ea.index('2751');
    const around = [0, 1, 2, 3, 4, 5].map((d) => ea.id(ea.neighbour(h, d)));
    expect(around).toEqual(['2750', '2650', '2651', '2752', '2852', '2851']);
    expect(ea.sideBetween(h, ea.index('2851'))).toBeGreaterThanOrEqual(0);
    expect(ea.sideBetween(h, ea.index('2852'))).toBeGreaterThanOrEqual(0);
    expect(ea.sideBetween(h, ea.index('2850'))).toBe(-1);
  });

  it('4709|4810 is one hexside (2.8 Crimea), the same id from both hexes', () => {
    const a = ea.index('4709');
    const b = ea.index('4810');
    const s = ea.sideBetween(a, b);
    expect(s).toBeGreaterThanOrEqual(0);
    expect(ea.sideBetween(b, a)).toBe(s);
    expect(new Set(ea.sideHexes(s))).toEqual(new Set([a, b]));
    expect(ea.directions[ea.directionTo(a, b)]).toBe('SW');
  });

  it('directions are E, NE, NW, W, SW, SE; rows grow south and columns west', () => {
    expect(ea.directions).toEqual(['E', 'NE', 'NW', 'W', 'SW', 'SE']);
    const h = ea.index('3030');
    const c = ea.centre(h);
    expect(ea.centre(ea.index('3029')).x).toBeGreaterThan(c.x); // lower column is east
    expect(ea.centre(ea.index('3130')).y).toBeGreaterThan(c.y); // higher row is south
    expect(c.x).toBeCloseTo(30 / 2 - 30);
    expect(c.y).toBeCloseTo((30 * Math.sqrt(3)) / 2);
    // 6025 (Straits) lies east of 3521 (Dubno) under this scheme.
    expect(ea.centre(ea.index('6025')).x).toBeGreaterThan(ea.centre(ea.index('3521')).x);
  });

  it('a line runs between neighbours from one end to the other', () => {
    const line = ea.line(ea.index('2751'), ea.index('3045'));
    expect(line).toHaveLength(10);
    expect(ids(ea, [line[0] as number, line[9] as number])).toEqual(['2751', '3045']);
  });

  it('a line along a hexside takes the hex on the east-south-east side (the documented tie rule)', () => {
    // 3030 -> 2928 runs exactly along the hexside between 3029 and 2929.
    expect(ids(ea, ea.line(ea.index('3030'), ea.index('2928')))).toEqual(['3030', '3029', '2928']);
    expect(ids(ea, ea.line(ea.index('2928'), ea.index('3030')))).toEqual(['2928', '3029', '3030']);
  });

  it('refuses malformed and out-of-grid ids with what a valid id looks like', () => {
    expect(() => ea.index('27a1')).toThrow(/'27a1' is not a hex id: rrcc-skewed ids are four digits RRCC/);
    expect(() => ea.index('0101')).toThrow(/Hex 0101 is outside the grid \(rows 10-62, columns 04-60\)/);
    try {
      ea.index('x');
    } catch (e) {
      expect(e).toBeInstanceOf(SalientError);
      expect((e as SalientError).code).toBe('BAD_ARGUMENT');
    }
    expect(ea.tryIndex('27a1')).toBe(-1);
  });
});

describe('rrcc-offset-even (the scheme of the E&A map)', () => {
  const g = new HexGrid(rrccOffsetRows('even'), [10, 68], [1, 67]);
  it('2751 borders 2851 and 2852 (22.11) and 4709|4810 is one hexside (2.8)', () => {
    const h = g.index('2751');
    expect([0, 1, 2, 3, 4, 5].map((d) => g.id(g.neighbour(h, d)))).toEqual(['2750', '2651', '2652', '2752', '2852', '2851']);
    const s = g.sideBetween(g.index('4709'), g.index('4810'));
    expect(s).toBeGreaterThanOrEqual(0);
    expect(g.sideBetween(g.index('4810'), g.index('4709'))).toBe(s);
  });
  it('even rows sit half a hex east of odd rows, so a straight column zig-zags', () => {
    expect(g.centre(g.index('2851')).x - g.centre(g.index('2751')).x).toBeCloseTo(0.5);
    const h = g.index('2850');
    expect([0, 1, 2, 3, 4, 5].map((d) => g.id(g.neighbour(h, d)))).toEqual(['2849', '2749', '2750', '2851', '2950', '2949']);
  });
});

describe('rrcc-offset-odd', () => {
  it('odd rows sit half a hex east of even rows', () => {
    const g = new HexGrid(rrccOffsetRows('odd'), [10, 62], [4, 60]);
    expect(g.centre(g.index('2751')).x - g.centre(g.index('2851')).x).toBeCloseTo(0.5);
    const h = g.index('2751');
    expect([0, 1, 2, 3, 4, 5].map((d) => g.id(g.neighbour(h, d)))).toEqual(['2750', '2650', '2651', '2752', '2851', '2850']);
  });
});

describe('ccrr-flat-odd-q', () => {
  it('flat-top columns: odd columns half a hex lower, directions NE N NW SW S SE', () => {
    const g = new HexGrid(ccrrFlatOddQ, [1, 20], [1, 20]);
    expect(g.directions).toEqual(['NE', 'N', 'NW', 'SW', 'S', 'SE']);
    expect(g.centre(g.index('0305')).y - g.centre(g.index('0205')).y).toBeCloseTo(0.5);
    expect(g.centre(g.index('0305')).x).toBeGreaterThan(g.centre(g.index('0205')).x);
    const odd = g.index('0305');
    expect([0, 1, 2, 3, 4, 5].map((d) => g.id(g.neighbour(odd, d)))).toEqual(['0405', '0304', '0205', '0206', '0306', '0406']);
    const even = g.index('0405');
    expect([0, 1, 2, 3, 4, 5].map((d) => g.id(g.neighbour(even, d)))).toEqual(['0504', '0404', '0304', '0305', '0406', '0505']);
  });
});
