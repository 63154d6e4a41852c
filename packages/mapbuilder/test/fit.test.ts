/** The fitting pieces on synthetic data: affine and similarity recover known transforms, the warp interpolates, hex look-up inverts centres. */
import { describe, expect, it } from 'vitest';
import { rrccSkewed, rrccOffsetRows } from '@salient/hexmap';
import { applyAffine, affineShape, fitAffine, fitSimilarity, fitWarp, warpAt, type Pair } from '../src/fit.ts';
import { centreOf, idAt, formatId } from '../src/hexgeom.ts';

const pts: [number, number][] = [[0, 0], [10, 1], [3, 7], [-4, 5], [8, -6], [2, 2], [-7, -3]];

describe('fits', () => {
  it('recovers an affine map exactly, and reports its shear', () => {
    const m = [1.2, 0.7, 5, -0.3, 0.9, -2] as const;
    const pairs: Pair[] = pts.map((p) => ({ from: p, to: applyAffine({ m }, p), weight: 1 }));
    const t = fitAffine(pairs);
    t.m.forEach((v, i) => expect(v).toBeCloseTo(m[i]!, 9));
    expect(affineShape(t).skewDeg).toBeGreaterThan(10);
  });

  it('recovers a rotation-and-scale map with the similarity fit, with no shear', () => {
    const a = 2 * Math.cos(0.3), b = 2 * Math.sin(0.3);
    const pairs: Pair[] = pts.map(([x, y]) => ({ from: [x, y], to: [a * x - b * y + 1, b * x + a * y - 4], weight: 1 }));
    const t = fitSimilarity(pairs, false);
    for (const p of pairs) {
      const q = applyAffine(t, p.from);
      expect(q[0]).toBeCloseTo(p.to[0], 9);
      expect(q[1]).toBeCloseTo(p.to[1], 9);
    }
    expect(affineShape(t).skewDeg).toBeCloseTo(0, 6);
    expect(affineShape(t).anisotropy).toBeCloseTo(1, 6);
  });

  it('interpolates the displacements exactly with lambda 0 and smooths with lambda > 0', () => {
    const d: [number, number][] = pts.map(([x, y]) => [Math.sin(x), Math.cos(y)]);
    const exact = fitWarp(pts, d, 0);
    pts.forEach((p, i) => {
      const v = warpAt(exact, p);
      expect(v[0]).toBeCloseTo(d[i]![0], 8);
      expect(v[1]).toBeCloseTo(d[i]![1], 8);
    });
    const smooth = fitWarp(pts, d, 10);
    const err = pts.reduce((s, p, i) => s + Math.hypot(warpAt(smooth, p)[0] - d[i]![0], warpAt(smooth, p)[1] - d[i]![1]), 0);
    expect(err).toBeGreaterThan(0.01);
  });
});

describe('hex look-up', () => {
  it('finds every hex from its own centre and from points near it, under each layout', () => {
    for (const scheme of [rrccSkewed, rrccOffsetRows('odd'), rrccOffsetRows('even')]) {
      for (let row = 10; row < 20; row++) {
        for (let col = 20; col < 30; col++) {
          const [x, y] = centreOf(scheme, row, col);
          expect(idAt(scheme, x, y)).toBe(formatId(row, col));
          expect(idAt(scheme, x + 0.3, y - 0.2)).toBe(formatId(row, col));
        }
      }
    }
  });

  it('puts 2751 beside 2851 and 2852 under rrcc-offset-even', () => {
    const s = rrccOffsetRows('even');
    const c = centreOf(s, 27, 51);
    for (const col of [51, 52]) {
      const n = centreOf(s, 28, col);
      expect(Math.hypot(n[0] - c[0], n[1] - c[1])).toBeCloseTo(1, 9);
    }
  });
});
