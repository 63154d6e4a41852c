/**
 * The overview page's first paint and the JavaScript it loads, before and after a change to the
 * dashboard's web files and /vendor bundles, side by side in one run: the same server, store and
 * browser draw the page from the web files and the vendor.ts of a git revision (`BENCH_BEFORE`,
 * default `main`) and from the working tree, loads taking turns, each in a fresh browser context
 * (nothing cached). The store holds a small tournament (Blitz! A and B, random vs greedy, 4 games a
 * pairing) played here. The API comes from the server for both; the web files are read from disk for
 * both; /vendor comes from the server for the working tree, and from the revision's vendor.ts
 * (imported from a copy beside the current one, so it bundles the same installed packages) for the
 * revision, as that server sent it (gzipped only if it did).
 *
 * Per load: first contentful paint (the header), the view ready (its charts in the page: the view's
 * `data-ready`), the frame after it painted, and the script bytes fetched (as sent, gzipped where
 * the server gzips, and decoded). Also the /vendor bundles' sizes.
 *
 *   npm run bench:charts
 *   BENCH_BEFORE=d0a61bf BENCH_LOADS=20 npm run bench:charts
 *
 * Environment: BENCH_BEFORE (a git revision), BENCH_LOADS (loads of each, default 12).
 * It writes no RESULTS.md block: the figures are a ratio of two loads on one machine, printed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Route } from 'playwright-core';
import { SalientError } from '@salient/engine';
import { parseTournamentSpec, planTournament } from '@salient/scheduler';
import { runLocalTournament } from '@salient/scheduler/local';
import { openTelemetry } from '@salient/telemetry';
import { buildApp } from '../apps/api/src/index.ts';
import { plotBundle, vizBundle } from '../apps/api/src/vendor.ts';
import { envInt, median } from './support.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..');
const WEB = 'apps/api/web';
const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

/** The web files of `rev` (path under apps/api/web -> bytes), or of the working tree when rev is null. */
function webFiles(rev: string | null): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const names = rev
    ? execFileSync('git', ['ls-tree', '-r', '--name-only', rev, `${WEB}/`], { cwd: repo, encoding: 'utf8' }).split('\n').filter(Boolean)
    : execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', `${WEB}/`], { cwd: repo, encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const n of names) files.set(n.slice(WEB.length), rev ? execFileSync('git', ['show', `${rev}:${n}`], { cwd: repo, maxBuffer: 1 << 26 }) : readFileSync(join(repo, n)));
  return files;
}

/** In the page, from its start: when the view is ready, and the frame after that painted. */
const MARK_READY = `(() => {
  new MutationObserver((_, obs) => {
    if (document.getElementById('view')?.dataset.ready === undefined) return;
    obs.disconnect();
    window.__ready = performance.now();
    requestAnimationFrame(() => requestAnimationFrame(() => (window.__painted = performance.now())));
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-ready'] });
})();`;

interface Load {
  fcp: number;
  ready: number;
  painted: number;
  scriptSent: number;
  scriptDecoded: number;
  scripts: number;
}

/** A revision's vendor.ts as the page gets it: path under /vendor -> what that server sent. */
type Vendor = ((path: string) => Promise<{ body: string | Buffer; type: string } | undefined>) | null;

/** The vendor files of `rev`'s vendor.ts (null: the working tree's, from the server itself). */
async function vendorOf(rev: string | null): Promise<Vendor> {
  if (!rev) return null;
  const copy = join(repo, 'apps/api/src', `.bench-vendor-${process.pid}.ts`);
  writeFileSync(copy, execFileSync('git', ['show', `${rev}:apps/api/src/vendor.ts`], { cwd: repo }));
  let old: { vizBundle: () => Promise<{ body: string | Buffer; type: string }>; landTopology: (s: '50m' | '110m') => Promise<{ body: string | Buffer; type: string }> };
  try {
    old = await import(copy);
  } finally {
    rmSync(copy, { force: true });
  }
  return async (path) => (path === '/vendor/viz.js' ? old.vizBundle() : path === '/vendor/land-50m.json' ? old.landTopology('50m') : path === '/vendor/land-110m.json' ? old.landTopology('110m') : undefined);
}

async function load(browser: Browser, base: string, files: Map<string, Buffer>, vendor: Vendor): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(MARK_READY);
  await page.route(`${base}/**`, async (route: Route) => {
    const path = new URL(route.request().url()).pathname;
    if (path.startsWith('/api/') || (path.startsWith('/vendor/') && !vendor)) return route.continue();
    if (vendor) {
      const v = await vendor(path);
      if (path.startsWith('/vendor/')) return v ? route.fulfill({ body: typeof v.body === 'string' ? v.body : Buffer.from(v.body), contentType: v.type }) : route.fulfill({ status: 404, body: 'not found' });
    }
    const file = path === '/' ? '/index.html' : path;
    const body = files.get(file);
    return body ? route.fulfill({ body, contentType: TYPES[extname(file)] ?? 'application/octet-stream' }) : route.fulfill({ status: 404, body: 'not found' });
  });
  const sizes: Promise<[number, number]>[] = [];
  page.on('requestfinished', (r) => {
    if (r.resourceType() === 'script') sizes.push(r.sizes().then(async (s) => [s.responseBodySize, (await (await r.response())?.body())?.length ?? 0]));
  });
  await page.goto(`${base}/#/`, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction('window.__painted !== undefined', undefined, { timeout: 60_000 });
  if ((await page.locator('[data-testid=winrate-bar]').count()) === 0) throw new Error('the overview drew no win-rate bars');
  const t = (await page.evaluate(`({ fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN, ready: window.__ready, painted: window.__painted })`)) as { fcp: number; ready: number; painted: number };
  const s = await Promise.all(sizes);
  await context.close();
  return { ...t, scriptSent: s.reduce((a, [x]) => a + x, 0), scriptDecoded: s.reduce((a, [, y]) => a + y, 0), scripts: s.length };
}

async function main(): Promise<void> {
  if (!CHROMIUM) throw new SalientError('BAD_ARGUMENT', 'Chromium is missing: install the Debian chromium package (node scripts/ensure-system.mjs does).');
  const before = process.env.BENCH_BEFORE ?? 'main';
  const loads = envInt('BENCH_LOADS', 12);
  const sides = { before: { files: webFiles(before), vendor: await vendorOf(before) }, after: { files: webFiles(null), vendor: await vendorOf(null) } };
  const root = mkdtempSync(join(tmpdir(), 'salient-charts-bench-'));
  const telemetry = await openTelemetry({ kind: 'embedded', path: join(root, 'clickhouse'), spoolDir: join(root, 'spool') });
  const app = await buildApp({ telemetry, processMetrics: false });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const load0 = loadavg()[0]!;
  try {
    const plan = await planTournament(await parseTournamentSpec('id: charts-bench\ngame: blitz\nscenarios: [A, B]\nentrants: [random, greedy]\ngamesPerPairing: 4\nsideSwap: true\nbaseSeed: 21\n', 'charts-bench.yaml'));
    await runLocalTournament({ plan, threads: 2, telemetry });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    // Once each first: the server builds its bundles on their first request.
    for (const side of Object.values(sides)) await load(browser, base, side.files, side.vendor);
    const runs: Record<keyof typeof sides, Load[]> = { before: [], after: [] };
    for (let i = 0; i < loads; i++) for (const k of (i % 2 ? ['after', 'before'] : ['before', 'after']) as (keyof typeof sides)[]) runs[k].push(await load(browser, base, sides[k].files, sides[k].vendor));
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
    const ms = (n: number) => `${n.toFixed(0)} ms`;
    const med = (k: keyof typeof sides, f: keyof Load) => median(runs[k].map((r) => r[f]));
    console.log(`Overview page (#/), ${loads} loads each, fresh context each, 1280x900 headless Chromium; before = ${before}, after = working tree. Load average ${load0.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end, ${(await import('node:os')).availableParallelism()} cores.`);
    console.log('| | before | after | after / before |');
    console.log('|---|---:|---:|---:|');
    for (const [f, name, fmt] of [
      ['fcp', 'first contentful paint, median', ms],
      ['ready', 'view ready (charts in the page), median', ms],
      ['painted', 'view painted, median', ms],
      ['scriptSent', 'script bytes sent', kb],
      ['scriptDecoded', 'script bytes decoded', kb],
      ['scripts', 'script files', String],
    ] as [keyof Load, string, (n: number) => string][]) {
      const [b, a] = [med('before', f), med('after', f)];
      console.log(`| ${name} | ${fmt(b)} | ${fmt(a)} | ${(a / b).toFixed(2)} |`);
    }
    for (const [name, f] of [['viz.js', vizBundle], ['plot.js', plotBundle]] as const) {
      const v = await f();
      console.log(`/vendor/${name} now: ${kb(Buffer.byteLength(v.body))} minified, ${kb(v.gzip.length)} gzipped`);
    }
    const old = await sides.before.vendor?.('/vendor/viz.js');
    if (old) console.log(`/vendor/viz.js at ${before}: ${kb(Buffer.byteLength(old.body))} minified, ${kb(gzipSync(old.body).length)} if gzipped`);
  } finally {
    await browser.close();
    await app.close();
    await telemetry.close();
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
