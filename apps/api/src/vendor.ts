/**
 * The map libraries the web dashboard uses, served by this server itself (no CDN, nothing fetched off
 * the machine): `/vendor/viz.js`, one ES module bundled from the npm packages `d3-zoom`,
 * `d3-selection`, `d3-geo`, `d3-delaunay` and `topojson-client` by esbuild when first asked (about 0.1 s, then kept
 * in memory), and `/vendor/land-50m.json` and `/vendor/land-110m.json`, Natural Earth land at 1:50m and
 * 1:110m from `world-atlas`.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What the dashboard imports from './vendor/viz.js'. */
const ENTRY = [
  "export { zoom, zoomIdentity, zoomTransform } from 'd3-zoom';",
  "export { select, pointer } from 'd3-selection';",
  "export { geoPath, geoProjection, geoBounds, geoCentroid } from 'd3-geo';",
  "export { Delaunay } from 'd3-delaunay';",
  "export { feature, mesh } from 'topojson-client';",
].join('\n');

export interface VendorFile {
  body: string | Buffer;
  type: string;
  etag: string;
}

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
let viz: Promise<VendorFile> | undefined;
const lands = new Map<string, Promise<VendorFile>>();

const etagOf = (body: string | Buffer) => `"${createHash('sha256').update(body).digest('hex').slice(0, 20)}"`;

/** The bundle, built once per process. */
export function vizBundle(): Promise<VendorFile> {
  viz ??= (async () => {
    const { build } = await import('esbuild');
    const out = await build({
      stdin: { contents: ENTRY, resolveDir: here, sourcefile: 'viz-entry.js', loader: 'js' },
      bundle: true,
      format: 'esm',
      minify: true,
      target: 'es2020',
      write: false,
      legalComments: 'none',
      logLevel: 'silent',
    });
    const body = out.outputFiles[0]!.text;
    return { body, type: 'text/javascript; charset=utf-8', etag: etagOf(body) };
  })();
  // A failed build is not kept: the next request tries again.
  viz.catch(() => (viz = undefined));
  return viz;
}

/** Natural Earth land at `scale` (world-atlas land-50m.json or land-110m.json, TopoJSON). */
export function landTopology(scale: '50m' | '110m'): Promise<VendorFile> {
  let land = lands.get(scale);
  if (!land) {
    land = (async () => {
      const body = await readFile(require.resolve(`world-atlas/land-${scale}.json`));
      return { body, type: 'application/json', etag: etagOf(body) };
    })();
    lands.set(scale, land);
    land.catch(() => lands.delete(scale));
  }
  return land;
}
