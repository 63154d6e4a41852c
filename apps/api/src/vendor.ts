/**
 * The libraries the web dashboard uses, served by this server itself (no CDN, nothing fetched off the
 * machine):
 *
 * - `/vendor/viz.js`, one ES module bundled by esbuild when first asked (well under a second, then kept
 *   in memory) from the npm packages `d3-zoom`, `d3-selection`, `d3-geo`, `d3-delaunay` and
 *   `topojson-client` for the replay's maps, and Observable Plot (`@observablehq/plot`, d3-based, SVG
 *   out) for the charts, only the marks they draw. One bundle, not two: the maps and Plot share d3
 *   modules (selection, array, interpolate, format…), and every page loads both (measured: 311 KiB
 *   minified for both together, 364 KiB as two bundles);
 * - `/vendor/plot.js`, a few lines that re-export Plot's part of viz.js, what the charts import;
 * - `/vendor/land-50m.json` and `/vendor/land-110m.json`, Natural Earth land at 1:50m and 1:110m from
 *   `world-atlas`.
 *
 * Every file is kept gzipped too, for the browsers that take it.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * What the charts import from './vendor/plot.js': only the marks they draw, so esbuild leaves out the
 * rest of Plot (about a third of it: geo, density, hexbin, trees, images…).
 */
export const PLOT_EXPORTS = ['plot', 'areaY', 'barX', 'barY', 'ruleX', 'ruleY', 'tickX', 'text', 'dot', 'line', 'tip', 'pointerX', 'pointerY'] as const;

/** What the dashboard imports from './vendor/viz.js': the maps' libraries and Plot's marks. */
const VIZ = [
  "export { zoom, zoomIdentity, zoomTransform } from 'd3-zoom';",
  "export { select, pointer } from 'd3-selection';",
  "export { geoArea, geoPath, geoProjection, geoBounds, geoCentroid } from 'd3-geo';",
  "export { Delaunay } from 'd3-delaunay';",
  "export { feature, mesh } from 'topojson-client';",
  `export { ${PLOT_EXPORTS.join(', ')} } from '@observablehq/plot';`,
].join('\n');

export interface VendorFile {
  body: string | Buffer;
  /** The body gzipped, for a request that accepts gzip. */
  gzip: Buffer;
  type: string;
  etag: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const bundles = new Map<string, Promise<VendorFile>>();
const lands = new Map<string, Promise<VendorFile>>();

const etagOf = (body: string | Buffer) => `"${createHash('sha256').update(body).digest('hex').slice(0, 20)}"`;
const fileOf = (body: string | Buffer, type: string): VendorFile => ({ body, gzip: gzipSync(body, { level: 9 }), type, etag: etagOf(body) });

/** The bundle of `entry` (an ES module's source), built once per process. */
function bundle(name: string, entry: string): Promise<VendorFile> {
  let built = bundles.get(name);
  if (!built) {
    built = (async () => {
      const { build } = await import('esbuild');
      const out = await build({
        stdin: { contents: entry, resolveDir: here, sourcefile: `${name}-entry.js`, loader: 'js' },
        bundle: true,
        format: 'esm',
        minify: true,
        target: 'es2020',
        write: false,
        legalComments: 'none',
        logLevel: 'silent',
      });
      return fileOf(out.outputFiles[0]!.text, 'text/javascript; charset=utf-8');
    })();
    bundles.set(name, built);
    // A failed build is not kept: the next request tries again.
    built.catch(() => bundles.delete(name));
  }
  return built;
}

/** The maps' and charts' libraries, /vendor/viz.js. */
export const vizBundle = (): Promise<VendorFile> => bundle('viz', VIZ);

let plot: VendorFile | undefined;
/** Plot's marks, /vendor/plot.js: re-exported from viz.js, which the browser loads once for both. */
export function plotBundle(): Promise<VendorFile> {
  plot ??= fileOf(`export { ${PLOT_EXPORTS.join(', ')} } from './viz.js';\n`, 'text/javascript; charset=utf-8');
  return Promise.resolve(plot);
}

/** Natural Earth land at `scale` (world-atlas land-50m.json or land-110m.json, TopoJSON). */
export function landTopology(scale: '50m' | '110m'): Promise<VendorFile> {
  let land = lands.get(scale);
  if (!land) {
    land = (async () => fileOf(await readFile(require.resolve(`world-atlas/land-${scale}.json`)), 'application/json'))();
    lands.set(scale, land);
    land.catch(() => lands.delete(scale));
  }
  return land;
}
