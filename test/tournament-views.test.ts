/**
 * One tournament, one story: the dashboard API (`GET /api/tournaments/:id`, the list) and the command
 * line (`salient tournament status`, `list`) give the same state, the same reason, the same SPRT verdict
 * and counts and the same results, for a tournament run locally (read from the store) and for one run
 * by queue workers (read from Redis; before, the API replayed the stored spec against the store while
 * `status` read the workers' outcomes). Real processes, a real redis-server, real embedded stores.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { salientEntry } from './support/salient-cli.ts';
import { buildApp } from '@salient/api';
import { openTelemetry } from '@salient/telemetry';
import { startWorker, tournamentStatus, type MatchWorker } from '@salient/scheduler/bullmq';
import { waitFor } from '../packages/scheduler/test/bullmq-support.ts';
import { startRedisServer, type TestRedisServer } from './support/redis-server.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const TOKEN = 'views-test-token-0123456789';
/** Random against random on Blitz A: the SPRT accepts H0 after some 70 pairs (about 150 quick games). */
const SPEC =
  'id: views\ngame: blitz\nscenarios: [A]\nentrants:\n  - { name: base, bot: random }\n  - { name: cand, bot: random }\n' +
  'format: gauntlet\nreference: base\ngamesPerPairing: 400\ndecisionCap: 2000\nstop: { rule: sprt, elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05 }\n';

let tmp = '';
let redis: TestRedisServer;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'salient-views-'));
  writeFileSync(join(tmp, 'views.yaml'), SPEC);
  redis = await startRedisServer();
}, 60_000);

afterAll(async () => {
  await redis?.dispose();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}, 60_000);

/** `salient ...` through main.ts, with its own embedded store under `store`. */
function salient(store: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [...salientEntry(), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', SALIENT_CLICKHOUSE_PATH: join(tmp, store, 'clickhouse'), SALIENT_SPOOL_DIR: join(tmp, store, 'spool'), SALIENT_REDIS_URL: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The test's verdict and counts, as both readers must give them. */
const verdict = (s: Record<string, any>) => ({
  state: s.state,
  accepted: s.accepted,
  reason: s.reason,
  pairs: s.pairs,
  pentanomial: s.pentanomial,
  pendingPairs: s.pendingPairs,
  voidedPairs: s.voidedPairs,
  matchesSeen: s.matchesSeen,
  matches: s.matches,
  llr: s.llr,
});

describe('the API and the CLI tell one story of a tournament', () => {
  let localPairs = 0;

  it('run locally: status, list, the page and the API list agree on the state, the SPRT and the results', async () => {
    const run = salient('local', 'tournament', 'run', join(tmp, 'views.yaml'), '--quiet', '--threads', '2');
    expect(run.code, run.stderr).toBe(0);
    const status = salient('local', 'tournament', 'status', 'views', '--json');
    expect(status.code, status.stderr).toBe(0);
    const s = JSON.parse(status.stdout);
    const list = JSON.parse(salient('local', 'tournament', 'list', '--json').stdout).tournaments as Record<string, any>[];
    expect(s).toMatchObject({ executor: 'local', source: 'store', state: 'stopped' });
    localPairs = Number(/^stopped: SPRT accepted H0 after (\d+) pairs$/.exec(s.reason)?.[1]);
    expect(localPairs).toBeGreaterThan(10);

    // The store is the CLI's no more: the API opens it now.
    const telemetry = await openTelemetry({ kind: 'embedded', path: join(tmp, 'local', 'clickhouse'), spoolDir: join(tmp, 'local', 'spool') });
    const app = await buildApp({ telemetry, processMetrics: false });
    try {
      const page = (await app.inject({ method: 'GET', url: '/api/tournaments/views' })).json();
      const listed = (await app.inject({ method: 'GET', url: '/api/tournaments' })).json().tournaments as Record<string, any>[];
      expect(verdict(page.sprt)).toEqual(verdict(s.sprt));
      expect(page.sprt.accepted).toBe('H0');
      expect({ state: page.state, reason: page.reason }).toEqual({ state: s.state, reason: s.reason });
      expect(page.counts).toEqual(s.counts);
      expect(page.results.pairings).toEqual(s.pairings);
      expect(page.results.crossTable).toEqual(s.crossTable);
      for (const row of [list.find((t) => t.id === 'views'), listed.find((t) => t.id === 'views')]) {
        expect(row).toMatchObject({ state: s.state, reason: s.reason, done: s.counts.done, planned: 400, executor: 'local' });
      }
    } finally {
      await app.close();
      await telemetry.close();
    }
  }, 180_000);

  it('run by queue workers: status and the page read the same outcomes, give the same verdict and counts, and the local run\'s verdict', async () => {
    const telemetry = await openTelemetry({ kind: 'embedded', path: join(tmp, 'api', 'clickhouse'), spoolDir: join(tmp, 'api', 'spool') });
    const app = await buildApp({ telemetry, tokens: [TOKEN], redis: redis.url, processMetrics: false });
    // Workers without telemetry: the store has the API's record of the submission and no match, as
    // when workers write to a ClickHouse server this API does not read, or their spools hold them.
    let worker: MatchWorker | undefined;
    try {
      worker = await startWorker({ connection: redis.url, concurrency: 2, telemetry: false });
      const submitted = await app.inject({ method: 'POST', url: '/api/tournaments', headers: { authorization: `Bearer ${TOKEN}` }, payload: { spec: SPEC } });
      expect(submitted.statusCode, submitted.body).toBe(200);
      // Stopped, and the jobs running at the decision ended.
      let last: unknown;
      await waitFor(
        'the SPRT to stop the tournament and its last jobs to end',
        async () => {
          const st = await tournamentStatus('views', { connection: redis.url });
          last = { counts: st.counts, stopped: st.stopped, seen: st.stop?.matchesSeen, pairs: st.stop?.pairs };
          const settled = st.stopped && st.counts.active + st.counts.waiting + st.counts.delayed === 0;
          return settled ? st : undefined;
        },
        150_000,
        500,
      ).catch((e: Error) => {
        throw new Error(`${e.message}; last seen: ${JSON.stringify(last)}`);
      });
      const page = (await app.inject({ method: 'GET', url: '/api/tournaments/views' })).json();
      const listed = (await app.inject({ method: 'GET', url: '/api/tournaments' })).json().tournaments as Record<string, any>[];
      const status = salient('cli', 'tournament', 'status', 'views', '--redis', redis.url, '--json');
      expect(status.code, status.stderr).toBe(0);
      const s = JSON.parse(status.stdout);
      const list = salient('cli', 'tournament', 'list', '--redis', redis.url, '--no-telemetry', '--json');
      expect(list.code, list.stderr).toBe(0);

      expect(verdict(page.sprt)).toEqual(verdict(s.sprt));
      expect(s).toMatchObject({ executor: 'queue', source: 'queue', state: 'stopped' });
      // The workers decide at the pair the local pool does (when that test ran first).
      if (localPairs) expect(s.reason).toBe(`stopped: SPRT accepted H0 after ${localPairs} pairs`);
      expect(page.sprt.pairs).toBeGreaterThanOrEqual(localPairs);
      expect({ state: page.state, reason: page.reason }).toEqual({ state: s.state, reason: s.reason });
      expect(page.counts).toEqual(s.counts);
      expect(page.progress).toMatchObject({ source: 'queue', state: 'stopped', total: 400, completed: s.counts.done, unplayed: s.counts.unplayed });
      expect(page.results.pairings).toEqual(s.pairings);
      for (const row of [JSON.parse(list.stdout).tournaments.find((t: { id: string }) => t.id === 'views'), listed.find((t) => t.id === 'views')]) {
        expect(row).toMatchObject({ state: 'stopped', reason: s.reason, done: s.counts.done, planned: 400, executor: 'queue', source: 'queue' });
      }
    } finally {
      await worker?.close({ graceMs: 1000 });
      await app.close();
      await telemetry.close();
    }
  }, 240_000);

  it('a queue tournament submitted from the CLI is recorded in its store and listed as submitted, from the queue and from the store alike', () => {
    // No worker runs now: it stays submitted.
    writeFileSync(join(tmp, 'later.yaml'), 'id: views-later\ngame: blitz\nscenarios: [A]\nentrants: [random, greedy]\ngamesPerPairing: 2\n');
    const sub = salient('submitter', 'tournament', 'submit', join(tmp, 'later.yaml'), '--redis', redis.url, '--json');
    expect(sub.code, sub.stderr).toBe(0);
    expect(JSON.parse(sub.stdout)).toMatchObject({ tournamentId: 'views-later', matches: 2, recorded: true });
    const want = { id: 'views-later', executor: 'queue', state: 'submitted', reason: 'submitted: 2 matches waiting for a worker', done: 0, planned: 2 };
    const fromQueue = JSON.parse(salient('submitter', 'tournament', 'list', '--redis', redis.url, '--json').stdout).tournaments as Record<string, unknown>[];
    expect(fromQueue.find((t) => t.id === 'views-later')).toMatchObject({ ...want, source: 'queue' });
    const fromStore = JSON.parse(salient('submitter', 'tournament', 'list', '--json').stdout).tournaments as Record<string, unknown>[];
    expect(fromStore).toEqual([expect.objectContaining({ ...want, source: 'store' })]);
    const text = salient('submitter', 'tournament', 'list');
    expect(text.stdout).toMatch(/│ views-later +│ blitz +│ queue +│ submitted: 2 matches waiting for a worker +│ 0\/2 +│/);
  }, 120_000);
});
