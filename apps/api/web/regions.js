// Regions on real geography for area maps (Blitz!): a projection fitted to the areas, Natural Earth
// land (served by this server: ./vendor/land-50m.json), and each area drawn as the part of the land (or
// of the sea) nearer to its position than to any other area of its kind, within a reach of it. The
// shapes are generated: an approximation of the printed map, which the viewer says.
import { Delaunay, feature, geoPath, geoProjection } from './vendor/viz.js';

const lands = new Map();
/** Natural Earth land as GeoJSON at `scale` ('50m' for a region, '110m' for the world: less to paint), fetched once per page. */
export function loadLand(scale = '50m') {
  if (!lands.has(scale)) {
    const land = fetch(`./vendor/land-${scale}.json`)
      .then((r) => {
        if (!r.ok) throw new Error(`land outlines: HTTP ${r.status}`);
        return r.json();
      })
      .then((t) => feature(t, t.objects.land));
    land.catch(() => lands.delete(scale));
    lands.set(scale, land);
  }
  return lands.get(scale);
}

/**
 * An equirectangular projection with longitudes shrunk by the cosine of the middle latitude of
 * `points` ([lon, lat]), so shapes keep roughly their proportions away from the equator, fitted to
 * `points` inside `width` with `pad` around; the map is as tall as they need at that width, within
 * [minHeight, maxHeight]. Returns { projection, height, project(lon, lat) }.
 */
export function fitProjection(points, width, pad, minHeight, maxHeight) {
  const lats = points.map((p) => p[1]);
  const k = Math.cos(((Math.min(...lats) + Math.max(...lats)) / 2) * (Math.PI / 180));
  const raw = (lambda, phi) => [lambda * k, phi];
  raw.invert = (x, y) => [x / k, y];
  const multi = { type: 'MultiPoint', coordinates: points };
  const unit = geoProjection(raw).scale(1).translate([0, 0]);
  const [[x0, y0], [x1, y1]] = geoPath(unit).bounds(multi);
  const [w, h] = [x1 - x0 || 1, y1 - y0 || 1];
  const height = Math.round(Math.min(maxHeight, Math.max(minHeight, ((width - 2 * pad) * h) / w + 2 * pad)));
  const projection = geoProjection(raw).fitExtent(
    [
      [pad, pad],
      [width - pad, height - pad],
    ],
    multi,
  );
  return { projection, height, project: (lon, lat) => projection([lon, lat]) };
}

/** The typical distance from a point to its nearest neighbour (the lower quartile), 0 for fewer than two. */
export function nearestSpacing(points) {
  if (points.length < 2) return 0;
  const d = Delaunay.from(points);
  const nearest = points.map((p, i) => {
    let best = Infinity;
    for (const j of d.neighbors(i)) best = Math.min(best, Math.hypot(points[j][0] - p[0], points[j][1] - p[1]));
    return best;
  });
  nearest.sort((a, b) => a - b);
  return nearest[Math.floor(nearest.length / 4)];
}

/**
 * The regions of `sites` ([{ id, x, y }]) in the rectangle [x0, y0, x1, y1]: the Voronoi cell of each
 * as an SVG path, kept within about `reach` of its site (unnamed filler sites are added on a grid
 * wherever no site is within `reach`; their cells are not drawn), and which pairs of sites have
 * touching cells (`touches(a, b)` by id).
 */
export function cells(sites, [x0, y0, x1, y1], reach = Infinity) {
  if (sites.length === 0) return { path: () => '', touches: () => false };
  const index = new Map(sites.map((s, i) => [s.id, i]));
  const points = sites.map((s) => [s.x, s.y]);
  if (Number.isFinite(reach) && reach > 0) {
    const near = Delaunay.from(points);
    const step = reach * 0.75;
    for (let y = y0 - step; y <= y1 + step; y += step) {
      for (let x = x0 - step; x <= x1 + step; x += step) {
        const [px, py] = points[near.find(x, y)];
        if (Math.hypot(px - x, py - y) > reach) points.push([x, y]);
      }
    }
  }
  const voronoi = Delaunay.from(points).voronoi([x0, y0, x1, y1]);
  return {
    path: (id) => voronoi.renderCell(index.get(id)) || '',
    touches: (a, b) => {
      const [i, j] = [index.get(a), index.get(b)];
      if (i === undefined || j === undefined) return false;
      for (const n of voronoi.neighbors(i)) if (n === j) return true;
      return false;
    },
  };
}

/** The SVG path of `geo` (GeoJSON) under `projection`. */
export const pathOf = (projection, geo) => geoPath(projection)(geo) ?? '';
