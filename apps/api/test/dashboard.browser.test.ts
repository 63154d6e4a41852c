/**
 * The web dashboard in a real headless Chromium (Debian `chromium`, driven by playwright-core), served
 * by the real API over a real embedded store holding a real small tournament. Screenshots of every
 * view go to test-artifacts/dashboard/ at the repository root.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openTelemetry, type Telemetry } from '@salient/telemetry';
import { parseTournamentSpec, planTournament, type MatchOutcome } from '@salient/scheduler';
import { runLocalTournament } from '@salient/scheduler/local';
import { buildApp } from '../src/index.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const ARTIFACTS = join(repo, 'test-artifacts/dashboard');
/** The Debian package's browser binary (/usr/bin/chromium is a shell wrapper around it). */
const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));

let root = '';
let telemetry: Telemetry;
let outcomes: MatchOutcome[];
let app: FastifyInstance;
let base = '';
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];
const failed: string[] = [];
const foreign: string[] = [];

beforeAll(async () => {
  if (!CHROMIUM) throw new Error('Chromium is missing: install the Debian chromium package (npm test does, through scripts/ensure-system.mjs).');
  mkdirSync(ARTIFACTS, { recursive: true });
  root = mkdtempSync(join(tmpdir(), 'salient-dashboard-'));
  telemetry = await openTelemetry({ kind: 'embedded', path: join(root, 'clickhouse'), spoolDir: join(root, 'spool') });
  const plan = await planTournament(
    await parseTournamentSpec('id: web-test\ngame: blitz\nscenarios: [A, B]\nentrants: [random, greedy]\ngamesPerPairing: 4\nsideSwap: true\nbaseSeed: 21\n', 'web-test.yaml'),
  );
  outcomes = (await runLocalTournament({ plan, threads: 2, telemetry })).outcomes;
  app = await buildApp({ telemetry, processMetrics: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('requestfailed', (r) => failed.push(r.url()));
  page.on('request', (r) => !r.url().startsWith(base) && r.url() !== 'about:blank' && foreign.push(r.url()));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await telemetry?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Open a route and wait until its view has drawn (or shown an error). */
async function open(hash: string): Promise<void> {
  // A fresh load each time (a goto that changes only the hash would wait for a load that never comes).
  await page.goto('about:blank');
  await page.goto(`${base}/${hash}`, { waitUntil: 'domcontentloaded' });
  await page.waitForFunction((h) => {
    const v = document.getElementById('view');
    return v?.dataset.ready === h.split('?')[0] || document.querySelector('[data-testid=error]') !== null;
  }, hash || '#/');
  const errors = await page.locator('[data-testid=error]').allTextContents();
  expect(errors, `error shown on ${hash}`).toEqual([]);
}

const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

describe('the web dashboard in headless Chromium', () => {
  it('overview: the win-rate bars carry the tournament\'s own counts', async () => {
    await open('#/');
    const bars = await page.locator('[data-testid=winrate-bar]').evaluateAll((els) =>
      els.map((e) => ({ scenario: e.getAttribute('data-scenario'), side: e.getAttribute('data-side'), games: Number(e.getAttribute('data-games')), wins: Number(e.getAttribute('data-wins')), rate: Number(e.getAttribute('data-rate')) })),
    );
    const expected = new Map<string, { games: number; wins: number }>();
    for (const o of outcomes) {
      for (const [side, result] of Object.entries(o.sides)) {
        const e = expected.get(`${o.scenario}/${side}`) ?? { games: 0, wins: 0 };
        e.games++;
        if (result === 'win') e.wins++;
        expected.set(`${o.scenario}/${side}`, e);
      }
    }
    expect(bars).toHaveLength(expected.size);
    for (const b of bars) {
      expect({ games: b.games, wins: b.wins }, `${b.scenario}/${b.side}`).toEqual(expected.get(`${b.scenario}/${b.side}`));
      expect(b.rate).toBeCloseTo(b.wins / b.games, 10);
    }
    const bots = await page.locator('[data-testid=bot-table] tbody tr').count();
    expect(bots).toBe(2);
    await shot('overview');
  });

  it('a filter narrows the overview to one scenario', async () => {
    await open('#/');
    await page.selectOption('[data-testid=filter-scenario]', 'B');
    await page.waitForFunction(() => location.hash.includes('scenario=B') && document.getElementById('view')?.dataset.ready === '#/');
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=winrate-bar]')].every((e) => e.getAttribute('data-scenario') === 'B'));
    expect(await page.locator('[data-testid=winrate-bar]').count()).toBeGreaterThan(0);
  });

  it('lengths and curves draw their charts', async () => {
    await open('#/lengths');
    expect(await page.locator('[data-testid=histogram] rect').count()).toBeGreaterThan(3);
    await shot('lengths');
    await open('#/curves?scenario=A');
    expect(await page.locator('[data-testid=line-chart] path[data-series]').count()).toBeGreaterThan(1);
    await shot('curves');
  });

  it('the tournament page shows standings adding up to its games, and its progress', async () => {
    await open('#/tournaments');
    expect(await page.locator('[data-testid=tournament-table] a', { hasText: 'web-test' }).count()).toBe(1);
    await open('#/tournaments/web-test');
    const games = await page.locator('[data-testid=standings] tbody tr').evaluateAll((rows) => rows.reduce((a, r) => a + Number(r.children[1]?.textContent), 0));
    expect(games).toBe(outcomes.length * 2);
    expect(await page.locator('[data-testid=progress]').getAttribute('aria-valuenow')).toBe(String(outcomes.length));
    await shot('tournament');
  });

  it('a match replays on its map: every area drawn, stepping changes the frame and its events, play advances', async () => {
    await open('#/matches');
    expect(await page.locator('[data-testid=match-link]').count()).toBe(outcomes.length);
    await shot('matches');
    const id = (outcomes.find((o) => o.scenario === 'A') as MatchOutcome).matchId;
    await open(`#/matches/${id}`);
    const board = (await (await fetch(`${base}/api/matches/${id}/board`)).json()) as { layout: { areas: unknown[] }; frames: { events: { power: string; text: string }[] }[] };
    expect(await page.locator('[data-testid=board] [data-testid=area]').count()).toBe(board.layout.areas.length);
    expect(await page.locator('[data-testid=board] [data-testid=unit]').count()).toBeGreaterThan(0);
    const label = page.locator('[data-testid=frame-label]');
    expect(await label.textContent()).toMatch(/^Start/);
    await page.click('[data-testid=step-next]');
    expect(await label.textContent()).toMatch(/^Impulse 1 of /);
    // The events listed are the first impulse's.
    const shown = await page.locator('[data-testid=events] li').allTextContents();
    const first = board.frames[1]?.events ?? [];
    if (first.length) expect(shown).toEqual(first.map((e) => `${e.power ? `${e.power}: ` : ''}${e.text}`));
    await page.keyboard.press('ArrowRight');
    expect(await label.textContent()).toMatch(/^Impulse 2 of /);
    await shot('replay');
    await page.click('[data-testid=play]');
    await page.waitForFunction(() => /^Impulse ([4-9]|\d\d)/.test(document.querySelector('[data-testid=frame-label]')?.textContent ?? ''), undefined, { timeout: 10_000 });
    await page.click('[data-testid=play]');
    await page.click('[data-testid=step-last]');
    expect(await label.textContent()).toContain(`Impulse ${board.frames.length - 1} of ${board.frames.length - 1}`);
  });

  it('an unknown match shows the API\'s message, not a blank page', async () => {
    await page.goto('about:blank');
  await page.goto(`${base}/#/matches/no-such-match`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('[data-testid=error]');
    expect(await page.locator('[data-testid=error]').textContent()).toContain("No match 'no-such-match'");
  });

  it('loaded with no console errors, no failed requests, and nothing from outside this server', () => {
    // The unknown match's 404 is the one error the browser logs, on purpose.
    expect(consoleErrors.filter((e) => !/404/.test(e))).toEqual([]);
    expect(failed).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
