/**
 * How long the replay viewer takes to show a frame, in a real headless Chromium (Debian `chromium`
 * through playwright-core), for the largest maps Salient draws: Blitz! full game (138 areas as regions
 * on Natural Earth land) and Empires & Alliances 1918 (its hex map). One random-vs-random match of
 * each is stored in an embedded ClickHouse store, the dashboard API serves it, and the page steps
 * through the match: every impulse, then steps spread over the whole match (step mode), then events.
 * For each stop: the script time of the viewer plus the style and layout it forces (the time until a
 * layout read returns), and the time to the next painted frame (two animation frames after the change).
 * Target (issue 29): ≤ 50 ms a frame.
 *
 *   npm run bench:viewer
 *   BENCH_STEPS=100 npm run bench:viewer      # fewer steps sampled (default 300)
 *
 * Environment: BENCH_SEED (default 3), BENCH_STEPS, BENCH_MAPS (`blitz`, `ea` or both, the default: `blitz,ea`),
 * BENCH_TRACE_DIR (keep each mode's Chromium trace there, to open in chrome://tracing or Perfetto),
 * BENCH_RESULTS (default bench/RESULTS.md; `none` to skip).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { createBot } from '@salient/bots';
import { SalientError } from '@salient/engine';
import { resolveGamePack } from '@salient/scheduler';
import { runMatch } from '@salient/runner';
import { openTelemetry } from '@salient/telemetry';
import { buildApp } from '../apps/api/src/index.ts';
import { envInt, machine, updateResultsBlock } from './support.ts';

const here = dirname(fileURLToPath(import.meta.url));
const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));

/** In the page: step the slider through up to `sample` stops of the current mode, timing each. */
const STEP_THROUGH = `async (sample) => {
  const slider = document.querySelector('[data-testid=slider]');
  const map = document.querySelector('[data-testid=board]');
  const n = Number(slider.max) + 1;
  const stops = n <= sample ? [...Array(n).keys()] : Array.from({ length: sample }, (_, k) => Math.round((k * (n - 1)) / (sample - 1)));
  const sync = [];
  const painted = [];
  const frame = () => new Promise((r) => requestAnimationFrame(() => r(undefined)));
  for (const [i, k] of stops.entries()) {
    await frame();
    performance.mark('salient-stop-' + i);
    const t = performance.now();
    slider.value = String(k);
    slider.dispatchEvent(new Event('input'));
    map.getBoundingClientRect();
    map.querySelector('g')?.getBBox();
    sync.push(performance.now() - t);
    await frame();
    await frame();
    painted.push(performance.now() - t);
  }
  return { n, sync, painted };
}`;

/** Trace categories for the frames' CPU time: the renderer's tasks, raster tasks and the stops' marks. */
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  tid: number;
}

/**
 * CPU milliseconds of each stop from a Chromium trace: the renderer main thread's tasks (the viewer's
 * script, style, layout, paint, commit) and the raster tasks, each counted for the stop during which it
 * ended (stops begin at their `salient-stop-<i>` marks). Thread time, not wall time, so a busy machine
 * slows it little: the figure says how much work a frame is, where "to paint" says how long it took here.
 */
function cpuPerStop(trace: Buffer, stops: number): number[] {
  const parsed = JSON.parse(trace.toString()) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const marks: number[] = [];
  let main = -1;
  for (const e of events) {
    const m = /^salient-stop-(\d+)$/.exec(e.name);
    if (!m) continue;
    marks[Number(m[1])] = e.ts;
    main = e.tid;
  }
  const out = Array.from({ length: stops }, () => 0);
  if (marks.length !== stops) throw new SalientError('BAD_ARGUMENT', `The trace holds ${marks.length} stop marks, expected ${stops}: tracing missed part of the run.`);
  for (const e of events) {
    if (e.ph !== 'X' || e.tdur === undefined) continue;
    if (!((e.name === 'RunTask' && e.tid === main) || e.name === 'RasterTask')) continue;
    const end = e.ts + (e.dur ?? 0);
    // The stop whose mark is the last before the task's end.
    let lo = 0;
    let hi = stops - 1;
    if (end <= marks[0]!) continue;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (marks[mid]! < end) lo = mid;
      else hi = mid - 1;
    }
    out[lo]! += e.tdur / 1000;
  }
  return out;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};

async function main(): Promise<void> {
  if (!CHROMIUM) throw new SalientError('BAD_ARGUMENT', 'Chromium is missing: install the Debian chromium package (node scripts/ensure-system.mjs does).');
  const seed = envInt('BENCH_SEED', 3);
  const sample = envInt('BENCH_STEPS', 300);
  const root = mkdtempSync(join(tmpdir(), 'salient-viewer-bench-'));
  const telemetry = await openTelemetry({ kind: 'embedded', path: join(root, 'clickhouse'), spoolDir: join(root, 'spool') });
  const app = await buildApp({ telemetry, processMetrics: false });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const load0 = loadavg()[0]!;
  const rows: string[] = [];
  try {
    const all = [
      { id: 'bench-blitz-full', game: 'blitz', pack: 'approximation', scenario: 'full', seats: ['Axis', 'Allies'], name: 'Blitz! full game (area map, regions)' },
      { id: 'bench-ea-1918', game: 'empires-alliances', pack: 'approximation', scenario: '1918', seats: ['CP', 'AL'], name: 'Empires & Alliances 1918 (hex map)' },
    ];
    const only = (process.env.BENCH_MAPS ?? 'blitz,ea').split(',').map((x) => x.trim());
    const cases = all.filter((x) => only.some((o) => x.id === `bench-${o === 'ea' ? 'ea-1918' : `${o}-full`}`));
    if (cases.length === 0) throw new SalientError('BAD_ARGUMENT', `BENCH_MAPS=${process.env.BENCH_MAPS} names no map; use blitz, ea or both (blitz,ea).`);
    for (const c of cases) {
      const { game, pack } = await resolveGamePack(c.game, c.pack);
      await runMatch({ game, pack, scenario: c.scenario, seed, seats: Object.fromEntries(c.seats.map((s) => [s, createBot('random')])), seatSpecs: Object.fromEntries(c.seats.map((s) => [s, 'random'])), matchId: c.id, sink: telemetry.sink() });
    }
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    for (const c of cases) {
      const t0 = Date.now();
      await page.goto(`${base}/#/matches/${c.id}`, { waitUntil: 'domcontentloaded' });
      await page.waitForSelector('[data-testid=board]', { timeout: 120_000 });
      if (c.game === 'blitz') {
        await page.click('[data-testid=fit-all]');
        await page.waitForSelector('[data-testid=board][data-regions]', { timeout: 60_000 });
      }
      const loadMs = Date.now() - t0;
      for (const mode of ['impulse', 'step', 'event'] as const) {
        await page.click(`[data-testid=mode-${mode}]`);
        // The page's side as source text: a function passed to page.evaluate would carry tsx's helpers with it.
        await browser.startTracing(page, { categories: TRACE_CATEGORIES });
        const r = (await page.evaluate(`(${STEP_THROUGH})(${sample})`)) as { n: number; sync: number[]; painted: number[] };
        const trace = await browser.stopTracing();
        if (process.env.BENCH_TRACE_DIR) writeFileSync(join(process.env.BENCH_TRACE_DIR, `${c.id}-${mode}.json`), trace);
        const cpu = cpuPerStop(trace, r.sync.length);
        rows.push(
          `| ${c.name} | ${mode} | ${r.n.toLocaleString('en-US')} | ${r.sync.length} | ${pct(cpu, 50).toFixed(1)} | ${pct(cpu, 95).toFixed(1)} | ${Math.max(...cpu).toFixed(1)} | ${pct(r.sync, 50).toFixed(1)} | ${pct(r.sync, 95).toFixed(1)} | ${pct(r.painted, 50).toFixed(1)} | ${pct(r.painted, 95).toFixed(1)} | ${mode === 'impulse' ? `${(loadMs / 1000).toFixed(1)} s` : ''} |`,
        );
        console.log(rows.at(-1));
      }
    }
  } finally {
    await browser.close();
    await app.close();
    await telemetry.close();
    rmSync(root, { recursive: true, force: true });
  }
  const m = machine();
  const key = `${m.date}|${m.node}|${m.cpu.split(' ').slice(0, 2).join(' ')}`;
  const block = [
    `<!-- bench-viewer:${key} -->`,
    `### Replay viewer frames · ${m.date} · Node ${m.node} · ${m.cpu} (nproc ${m.nproc}, ${m.memGB} GB)`,
    '',
    `\`npm run bench:viewer\`: one random-vs-random match of each (seed ${seed}) stored in the embedded store, the dashboard served by this process and drawn in headless Chromium (1280×900, no GPU), the same machine. Per stop: **frame CPU**, the CPU time of the frame from a Chromium trace (the renderer's tasks: the viewer's script, style, layout, paint and commit, and the raster tasks; thread time, so a busy machine changes it little); **script + layout**, wall time from setting the slider until a layout read returns; **to paint**, wall time until two animation frames later (at least two frame intervals, about 33 ms, whatever the work). Up to ${sample} stops per mode spread over the match. Load average ${load0.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end on ${m.nproc} cores. Target (issue 29): ≤ 50 ms a frame. Milliseconds.`,
    '',
    '| map | mode | stops in the match | stops timed | frame CPU p50 | p95 | max | script + layout p50 | p95 | to paint p50 | p95 | page to first map |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    `<!-- bench-viewer:end -->`,
  ].join('\n');
  console.log(block);
  const out = process.env.BENCH_RESULTS ?? join(here, 'RESULTS.md');
  if (out !== 'none') updateResultsBlock(out, 'bench-viewer', key, block, '# Benchmark results\n\n');
}

await main();
