/** Geometry laws that must hold on every scheme, checked on random hexes with fast-check. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ccrrFlatOddQ, HexGrid, rrccOffsetRows, rrccSkewed, type HexScheme } from '../src/index.ts';

const ROWS = [10, 40] as const;
const COLS = [4, 30] as const;

for (const scheme of [rrccSkewed, rrccOffsetRows('odd'), rrccOffsetRows('even'), ccrrFlatOddQ] as HexScheme[]) {
  describe(scheme.name, () => {
    const g = new HexGrid(scheme, ROWS, COLS);
    const inBounds = [...g.inBounds.keys()].filter((h) => g.inBounds[h] === 1);
    const hex = fc.constantFrom(...inBounds);
    const dir = fc.integer({ min: 0, max: 5 });

    it('ids round-trip: id(index(x)) = x and index(id(h)) = h', () => {
      fc.assert(
        fc.property(fc.integer({ min: ROWS[0], max: ROWS[1] }), fc.integer({ min: COLS[0], max: COLS[1] }), (r, c) => {
          const id = scheme.format(r, c);
          expect(g.id(g.index(id))).toBe(id);
        }),
      );
      fc.assert(fc.property(hex, (h) => {
        expect(g.index(g.id(h))).toBe(h);
      }));
    });

    it('neighbours are symmetric: the neighbour in d has h in the opposite direction', () => {
      fc.assert(
        fc.property(hex, dir, (h, d) => {
          const nb = g.neighbour(h, d);
          expect(nb).toBeGreaterThanOrEqual(0);
          expect(g.neighbour(nb, (d + 3) % 6)).toBe(h);
          expect(g.distance(h, nb)).toBe(1);
        }),
      );
    });

    it('a hexside has one id from both hexes, names exactly those two, and a hex has six distinct sides', () => {
      fc.assert(
        fc.property(hex, dir, (h, d) => {
          const nb = g.neighbour(h, d);
          const s = g.side(h, d);
          expect(g.side(nb, (d + 3) % 6)).toBe(s);
          expect(g.sideBetween(nb, h)).toBe(s);
          expect([...g.sideHexes(s)].sort((a, b) => a - b)).toEqual([h, nb].sort((a, b) => a - b));
          expect(new Set([0, 1, 2, 3, 4, 5].map((k) => g.side(h, k))).size).toBe(6);
        }),
      );
    });

    it('distance is a metric, 1 exactly between neighbours', () => {
      fc.assert(
        fc.property(hex, hex, hex, (a, b, c) => {
          expect(g.distance(a, a)).toBe(0);
          expect(g.distance(a, b)).toBe(g.distance(b, a));
          if (a !== b) expect(g.distance(a, b)).toBeGreaterThan(0);
          expect(g.distance(a, c)).toBeLessThanOrEqual(g.distance(a, b) + g.distance(b, c));
          expect(g.distance(a, b) === 1).toBe(g.directionTo(a, b) >= 0);
        }),
      );
    });

    it('distance equals the breadth-first distance on the open grid', () => {
      fc.assert(
        fc.property(hex, (a) => {
          const dist = new Map<number, number>([[a, 0]]);
          const queue = [a];
          for (let i = 0; i < queue.length; i++) {
            const h = queue[i] as number;
            for (let d = 0; d < 6; d++) {
              const nb = g.neighbour(h, d);
              if (nb >= 0 && !dist.has(nb)) {
                dist.set(nb, (dist.get(h) as number) + 1);
                queue.push(nb);
              }
            }
          }
          // The margin surrounds the bounds, so paths through it are no shorter than inside them.
          for (const b of inBounds) expect(dist.get(b), `${g.id(a)} -> ${g.id(b)}`).toBe(g.distance(a, b));
        }),
        { numRuns: 20 },
      );
    });

    it('a line starts and ends at its ends, has distance + 1 hexes, each next to the last', () => {
      fc.assert(
        fc.property(hex, hex, (a, b) => {
          const line = g.line(a, b);
          expect(line).toHaveLength(g.distance(a, b) + 1);
          expect(line[0]).toBe(a);
          expect(line[line.length - 1]).toBe(b);
          for (let i = 1; i < line.length; i++) expect(g.distance(line[i - 1] as number, line[i] as number)).toBe(1);
          // Deterministic, and the same hexes from either end.
          expect(g.line(a, b)).toEqual(line);
          expect(g.line(b, a).reverse()).toEqual(line);
        }),
      );
    });

    it('within(h, k) is exactly the in-bounds hexes at distance <= k', () => {
      fc.assert(
        fc.property(hex, fc.integer({ min: 0, max: 6 }), (h, k) => {
          const got = g.within(h, k).sort((a, b) => a - b);
          expect(got).toEqual(inBounds.filter((x) => g.distance(h, x) <= k));
        }),
        { numRuns: 50 },
      );
    });

    it('neighbouring centres are one unit apart', () => {
      fc.assert(
        fc.property(hex, dir, (h, d) => {
          const a = g.centre(h);
          const b = g.centre(g.neighbour(h, d));
          expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeCloseTo(1, 9);
        }),
      );
    });
  });
}
