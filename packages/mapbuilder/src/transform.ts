/**
 * lon/lat -> hex space: a conformal conic projection for Europe (d3-geo), a least-squares affine fit on
 * the anchors, then (when any anchor misses its hex) a regularised thin-plate-spline warp. The inverse
 * (hex space -> lon/lat) solves the forward map by Newton steps, so both directions agree.
 */
import { geoConicConformal, type GeoProjection } from 'd3-geo';
import type { HexScheme } from '@salient/hexmap';
import { CERTAINTY_WEIGHT, type Anchor } from './anchors.ts';
import { applyAffine, fitAffine, fitSimilarity, fitWarp, invertAffine, warpAt, affineShape, type Affine, type Pair, type Pt, type Warp } from './fit.ts';
import { centreOf, idAt, parseId } from './hexgeom.ts';

/** Lambert conformal conic with standard parallels 40N and 58N, central meridian 20E. */
export function europeProjection(): GeoProjection {
  return geoConicConformal().parallels([40, 58]).rotate([-20, 0]).center([0, 50]).scale(6371).translate([0, 0]);
}

export interface AnchorResidual {
  readonly hex: string;
  readonly place: string;
  readonly certainty: string;
  /** Distance from the anchor's image to its hex centre, hex widths. */
  readonly residual: number;
  /** The hex the anchor's image falls in. */
  readonly landsIn?: string;
}

export interface FitStats {
  readonly rms: number;
  readonly max: number;
  readonly over05: number;
  readonly residuals: readonly AnchorResidual[];
}

function stats(anchors: readonly Anchor[], images: readonly Pt[], targets: readonly Pt[], scheme: HexScheme | undefined): FitStats {
  const residuals = anchors.map((a, i) => {
    const im = images[i]!;
    const t = targets[i]!;
    const res: AnchorResidual = { hex: a.hex, place: a.place, certainty: a.certainty, residual: Math.hypot(im[0] - t[0], im[1] - t[1]) };
    return scheme ? { ...res, landsIn: idAt(scheme, im[0], im[1]) } : res;
  });
  const sq = residuals.reduce((s, r) => s + r.residual ** 2, 0);
  return {
    rms: Math.sqrt(sq / residuals.length),
    max: Math.max(...residuals.map((r) => r.residual)),
    over05: residuals.filter((r) => r.residual > 0.5).length,
    residuals,
  };
}

/** How well the anchors support one hex layout: similarity (conformal) and affine fits. */
export interface LayoutVerdict {
  readonly scheme: string;
  readonly similarity: { rms: number; max: number; over05: number };
  readonly affine: { rms: number; max: number; over05: number; anisotropy: number; skewDeg: number; rotationDeg: number };
}

function pairsFor(anchors: readonly Anchor[], proj: GeoProjection, scheme: HexScheme): Pair[] {
  return anchors.map((a) => {
    const p = proj([a.lon, a.lat]);
    if (!p) throw new Error(`anchor ${a.hex} (${a.place}) does not project`);
    const { row, col } = parseId(a.hex);
    return { from: [p[0], p[1]], to: centreOf(scheme, row, col), weight: CERTAINTY_WEIGHT[a.certainty] };
  });
}

/** Fits every layout in `schemes` and reports the residuals (nothing else is built from this). */
export function compareLayouts(anchors: readonly Anchor[], schemes: readonly HexScheme[]): LayoutVerdict[] {
  const proj = europeProjection();
  return schemes.map((scheme) => {
    const pairs = pairsFor(anchors, proj, scheme);
    const targets = pairs.map((p) => p.to);
    const sims = [false, true].map((mirror) => {
      const t = fitSimilarity(pairs, mirror);
      return stats(anchors, pairs.map((p) => applyAffine(t, p.from)), targets, undefined);
    });
    const sim = sims[0]!.rms <= sims[1]!.rms ? sims[0]! : sims[1]!;
    const aff = fitAffine(pairs);
    const as = stats(anchors, pairs.map((p) => applyAffine(aff, p.from)), targets, undefined);
    const shape = affineShape(aff);
    return {
      scheme: scheme.name,
      similarity: { rms: sim.rms, max: sim.max, over05: sim.over05 },
      affine: { rms: as.rms, max: as.max, over05: as.over05, anisotropy: shape.anisotropy, skewDeg: shape.skewDeg, rotationDeg: shape.rotationDeg },
    };
  });
}

/** The fitted lon/lat <-> hex-space transform for one layout. */
export interface HexTransform {
  readonly affine: Affine;
  readonly warp: Warp | undefined;
  readonly before: FitStats;
  readonly after: FitStats;
  /** lon/lat -> hex space (x east, y south, hex widths); undefined when it does not project. */
  forward(lon: number, lat: number): [number, number] | undefined;
  /** hex space -> lon/lat. */
  inverse(x: number, y: number): [number, number] | undefined;
}

/** Regularisation values tried, largest (smoothest) first; the first that puts every anchor in its hex wins. */
const LAMBDAS = [3, 1, 0.3, 0.1, 0.03, 0.01, 0.003, 0.001, 0];

export function fitTransform(anchors: readonly Anchor[], scheme: HexScheme): HexTransform {
  const proj = europeProjection();
  const pairs = pairsFor(anchors, proj, scheme);
  const targets = pairs.map((p) => p.to);
  const affine = fitAffine(pairs);
  const images = pairs.map((p) => applyAffine(affine, p.from));
  const before = stats(anchors, images, targets, scheme);
  let warp: Warp | undefined;
  let after = before;
  if (before.residuals.some((r) => r.landsIn !== r.hex)) {
    const d = images.map((im, i) => [targets[i]![0] - im[0], targets[i]![1] - im[1]] as Pt);
    for (const lambda of LAMBDAS) {
      const w = fitWarp(images, d, lambda);
      const moved = images.map((im) => {
        const v = warpAt(w, im);
        return [im[0] + v[0], im[1] + v[1]] as Pt;
      });
      const s = stats(anchors, moved, targets, scheme);
      warp = w;
      after = s;
      if (s.residuals.every((r) => r.landsIn === r.hex)) break;
    }
  }
  const inv = invertAffine(affine);
  const fw = (p: Pt): [number, number] => {
    const a = applyAffine(affine, p);
    if (!warp) return a;
    const v = warpAt(warp, a);
    return [a[0] + v[0], a[1] + v[1]];
  };
  return {
    affine,
    warp,
    before,
    after,
    forward(lon, lat) {
      const p = proj([lon, lat]);
      return p ? fw([p[0], p[1]]) : undefined;
    },
    inverse(x, y) {
      // Newton on the warped affine, starting from the plain affine inverse.
      let p = applyAffine(inv, [x, y]);
      if (warp) {
        for (let it = 0; it < 8; it++) {
          const f = fw(p);
          const ex = f[0] - x, ey = f[1] - y;
          if (Math.hypot(ex, ey) < 1e-9) break;
          const h = 1e-3;
          const fx = fw([p[0] + h, p[1]]);
          const fy = fw([p[0], p[1] + h]);
          const j00 = (fx[0] - f[0]) / h, j10 = (fx[1] - f[1]) / h, j01 = (fy[0] - f[0]) / h, j11 = (fy[1] - f[1]) / h;
          const det = j00 * j11 - j01 * j10;
          p = [p[0] - (j11 * ex - j01 * ey) / det, p[1] - (-j10 * ex + j00 * ey) / det];
        }
      }
      const ll = proj.invert?.(p);
      return ll ? [ll[0], ll[1]] : undefined;
    },
  };
}
