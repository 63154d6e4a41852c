/**
 * Fitting projected coordinates to hex coordinates: weighted least-squares similarity and affine
 * transforms, and a regularised thin-plate spline warp on top of them so that every anchor lands in
 * its printed hex.
 */
import { solve } from './linalg.ts';

/** A 2-D point. */
export type Pt = readonly [number, number];

/** One correspondence: `from` (projected place) should map to `to` (hex centre), with a weight. */
export interface Pair {
  readonly from: Pt;
  readonly to: Pt;
  readonly weight: number;
}

/** x' = a x + b y + c, y' = d x + e y + f. */
export interface Affine {
  readonly m: readonly [number, number, number, number, number, number];
}

export function applyAffine(t: Affine, p: Pt): [number, number] {
  const [a, b, c, d, e, f] = t.m;
  return [a * p[0] + b * p[1] + c, d * p[0] + e * p[1] + f];
}

export function invertAffine(t: Affine): Affine {
  const [a, b, c, d, e, f] = t.m;
  const det = a * e - b * d;
  const ia = e / det, ib = -b / det, id = -d / det, ie = a / det;
  return { m: [ia, ib, -(ia * c + ib * f), id, ie, -(id * c + ie * f)] };
}

/** Weighted least-squares affine transform (6 parameters). */
export function fitAffine(pairs: readonly Pair[]): Affine {
  const n = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const bx = [0, 0, 0];
  const by = [0, 0, 0];
  for (const { from, to, weight: w } of pairs) {
    const v = [from[0], from[1], 1];
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) n[i]![j]! += w * v[i]! * v[j]!;
      bx[i]! += w * v[i]! * to[0];
      by[i]! += w * v[i]! * to[1];
    }
  }
  const px = solve(n, bx);
  const py = solve(n, by);
  return { m: [px[0]!, px[1]!, px[2]!, py[0]!, py[1]!, py[2]!] };
}

/**
 * Weighted least-squares similarity (rotation, uniform scale, translation; orientation may be mirrored
 * when `mirror`): the conformal fit, which cannot hide a shear. x' = a x - b y + c, y' = b x + a y + f
 * (mirror: y' = -(b x + a y) + f after flipping y).
 */
export function fitSimilarity(pairs: readonly Pair[], mirror: boolean): Affine {
  const s = mirror ? -1 : 1;
  const n = [
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
  ];
  const rhs = [0, 0, 0, 0];
  for (const { from, to, weight: w } of pairs) {
    const x = from[0];
    const y = s * from[1];
    // unknowns [a, b, c, f]; rows: X = a x - b y + c ; Y = b x + a y + f
    const rows: [number[], number][] = [
      [[x, -y, 1, 0], to[0]],
      [[y, x, 0, 1], to[1]],
    ];
    for (const [v, t] of rows) {
      for (let i = 0; i < 4; i++) {
        for (let j = 0; j < 4; j++) n[i]![j]! += w * v[i]! * v[j]!;
        rhs[i]! += w * v[i]! * t;
      }
    }
  }
  const [a, b, c, f] = solve(n, rhs) as [number, number, number, number];
  // back to the plain affine form in unflipped y
  return { m: [a, -b * s, c, b, a * s, f] };
}

/** Scale along the two principal directions and the shear angle of an affine's linear part. */
export function affineShape(t: Affine): { scaleMax: number; scaleMin: number; anisotropy: number; skewDeg: number; rotationDeg: number } {
  const [a, b, , d, e] = t.m;
  // singular values of [[a b][d e]]
  const s1 = Math.hypot(a + e, d - b) / 2;
  const s2 = Math.hypot(a - e, d + b) / 2;
  const scaleMax = s1 + s2;
  const scaleMin = Math.abs(s1 - s2);
  // angle between images of the x and y axes (90 for no shear)
  const ang = (Math.acos((a * b + d * e) / (Math.hypot(a, d) * Math.hypot(b, e))) * 180) / Math.PI;
  return { scaleMax, scaleMin, anisotropy: scaleMax / scaleMin, skewDeg: Math.abs(90 - ang), rotationDeg: (Math.atan2(d, a) * 180) / Math.PI };
}

/** Thin-plate spline radial basis r^2 log r (0 at r = 0). */
function u(r2: number): number {
  return r2 <= 0 ? 0 : 0.5 * r2 * Math.log(r2);
}

/** A 2-D displacement field: at `p`, add the returned vector. */
export interface Warp {
  readonly centres: readonly Pt[];
  readonly wx: readonly number[];
  readonly wy: readonly number[];
  readonly ax: readonly [number, number, number];
  readonly ay: readonly [number, number, number];
  readonly lambda: number;
}

/**
 * Regularised thin-plate spline through displacements `d[i]` at `centres[i]` (same units as the
 * points). `lambda` trades exactness for smoothness (0 interpolates exactly).
 */
export function fitWarp(centres: readonly Pt[], d: readonly Pt[], lambda: number): Warp {
  const n = centres.length;
  const size = n + 3;
  const a: number[][] = Array.from({ length: size }, () => new Array<number>(size).fill(0));
  for (let i = 0; i < n; i++) {
    const pi = centres[i]!;
    for (let j = 0; j < n; j++) {
      const pj = centres[j]!;
      a[i]![j] = u((pi[0] - pj[0]) ** 2 + (pi[1] - pj[1]) ** 2) + (i === j ? lambda : 0);
    }
    a[i]![n] = 1;
    a[i]![n + 1] = pi[0];
    a[i]![n + 2] = pi[1];
    a[n]![i] = 1;
    a[n + 1]![i] = pi[0];
    a[n + 2]![i] = pi[1];
  }
  const bx = [...d.map((v) => v[0]), 0, 0, 0];
  const by = [...d.map((v) => v[1]), 0, 0, 0];
  const sx = solve(a, bx);
  const sy = solve(a, by);
  return {
    centres,
    wx: sx.slice(0, n),
    wy: sy.slice(0, n),
    ax: [sx[n]!, sx[n + 1]!, sx[n + 2]!],
    ay: [sy[n]!, sy[n + 1]!, sy[n + 2]!],
    lambda,
  };
}

/** The displacement of the warp at `p`. */
export function warpAt(w: Warp, p: Pt): [number, number] {
  let dx = w.ax[0] + w.ax[1] * p[0] + w.ax[2] * p[1];
  let dy = w.ay[0] + w.ay[1] * p[0] + w.ay[2] * p[1];
  for (let i = 0; i < w.centres.length; i++) {
    const c = w.centres[i]!;
    const k = u((p[0] - c[0]) ** 2 + (p[1] - c[1]) ** 2);
    dx += w.wx[i]! * k;
    dy += w.wy[i]! * k;
  }
  return [dx, dy];
}
