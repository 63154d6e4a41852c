/**
 * `/api/matches/:id` read in one query (migration 10's match pages) answers exactly what the three
 * reads of the sink's tables answered before, byte for byte, on both stores (chdb and the Debian 18.16
 * server): matches written over several batches, some of their rows delivered again (a whole match's
 * rows, and every third row alone), a match of no rows, and a match not stored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySink } from '@salient/runner';
import { countMatches, openTelemetry, type Telemetry, type TelemetryConfig } from '@salient/telemetry';
import { SALIENT_PASSWORD, startClickHouseServer, type TestClickHouseServer } from '../../../packages/telemetry/test/support/clickhouse-server.ts';
import { playBlitz, rowsOf, tee } from '../../../packages/telemetry/test/support/matches.ts';
import { referenceMatchDetail } from '../../../packages/telemetry/test/support/match-reference.ts';
import { buildApp } from '../src/index.ts';

let root = '';
let server: TestClickHouseServer | undefined;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'salient-match-detail-'));
  server = await startClickHouseServer();
});
afterAll(async () => {
  await server?.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
}, 30_000);

const stores: [string, () => TelemetryConfig][] = [
  ['embedded store (chdb)', () => ({ kind: 'embedded', path: join(root, 'clickhouse'), spoolDir: join(root, 'spool-e') })],
  [
    'ClickHouse server (Debian 18.16)',
    () => ({ kind: 'server', url: server!.url, username: 'salient', password: SALIENT_PASSWORD, database: 'salient_match_detail', spoolDir: join(root, 'spool-s') }),
  ],
];

describe.each(stores)('one match in one query on the %s', (_name, config) => {
  let t: Telemetry;
  beforeAll(async () => {
    t = await openTelemetry(config());
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers what the reads of the sink tables answered, after batches and rows delivered twice', async () => {
    // Small batches: each match's rows land over several writes, so over several page rows.
    const sink = t.sink({ batchRows: 6, lingerMs: 0, writeShare: 1 });
    const ids: string[] = [];
    for (const seed of [901, 902, 903, 904]) ids.push((await playBlitz(seed, tee(sink, new InMemorySink()), { scenario: seed % 2 ? 'A' : 'B' })).result.matchId);
    await sink.drain();
    const [a, b, c] = ids as [string, string, string];
    const db = t.database;
    // Delivered twice: one match's rows again in one block, another's every third row again.
    for (const table of ['impulses', 'events']) {
      await t.client.command({ query: `INSERT INTO ${db}.${table} SELECT * FROM ${db}.${table} WHERE match_id = '${a}'` });
      await t.client.command({ query: `INSERT INTO ${db}.${table} SELECT * FROM ${db}.${table} WHERE match_id = '${b}' AND seq % 3 = 0` });
    }
    // A match whose strings hold the characters the pages pack with, quotes, backslashes, line breaks and non-ASCII text.
    const odd = `'a\\x1a0\\x1a\\x1d\\x1e\\x1f\\x1a3 \\' " \\\\ \\n\\t é 😀 \\x1a'`;
    const copy = async (table: string, changes: Record<string, string>) => {
      const names = (await rowsOf(t, `DESCRIBE TABLE ${db}.${table}`)).map((r) => String(r.name));
      await t.client.command({ query: `INSERT INTO ${db}.${table} (${names.join(', ')}) SELECT ${names.map((x) => changes[x] ?? x).join(', ')} FROM ${db}.${table} WHERE match_id = '${c}'` });
    };
    await copy('matches', { match_id: `'${c}-odd'`, detail: odd, powers: `arrayMap(p -> concat(p, ${odd}), powers)` });
    await copy('impulses', { match_id: `'${c}-odd'`, phase: odd, active_powers: `[${odd}, '']`, extra_keys: `arrayMap(k -> concat(${odd}, k), extra_keys)` });
    await copy('events', { match_id: `'${c}-odd'`, text: `concat(text, ${odd})`, power: odd });
    ids.push(`${c}-odd`);
    await countMatches(t);
    // A match row with no impulse or event rows of its own, not counted yet (its summary read from `matches`).
    const cols = (await rowsOf(t, `DESCRIBE TABLE ${db}.matches`)).map((r) => String(r.name));
    await t.client.command({ query: `INSERT INTO ${db}.matches (${cols.join(', ')}) SELECT ${cols.map((x) => (x === 'match_id' ? `'${c}-bare'` : x)).join(', ')} FROM ${db}.matches WHERE match_id = '${c}' LIMIT 1` });
    ids.push(`${c}-bare`);
    for (const id of [a, b]) {
      const [pages] = await rowsOf(t, `SELECT count() AS n FROM ${db}.match_pages WHERE match_id = '${id}' AND part = 0`);
      expect(Number(pages!.n), id).toBeGreaterThan(2);
    }

    const now = await buildApp({ telemetry: t, processMetrics: false });
    const before = await buildApp({ telemetry: { ...t, matchDetail: (id) => referenceMatchDetail(t, t.match, id) }, processMetrics: false });
    try {
      for (const id of ids) {
        const [x, y] = await Promise.all([now, before].map((app) => app.inject({ method: 'GET', url: `/api/matches/${id}` })));
        expect(x!.statusCode, id).toBe(200);
        expect(x!.body, id).toBe(y!.body);
      }
      const shown = (await now.inject({ method: 'GET', url: `/api/matches/${a}` })).json() as { impulses: unknown[]; events: unknown[] };
      expect(shown.impulses.length).toBeGreaterThan(5);
      expect(shown.events.length).toBeGreaterThan(3);
      expect((await now.inject({ method: 'GET', url: `/api/matches/${c}-bare` })).json()).toMatchObject({ impulses: [], events: [] });
      const strange = (await now.inject({ method: 'GET', url: `/api/matches/${c}-odd` })).json() as { events: { text: string }[]; impulses: { activePowers: string[] }[] };
      expect(strange.events[0]!.text).toContain('a\x1a0\x1a\x1d\x1e\x1f\x1a3 \' " \\ \n\t é 😀 \x1a');
      expect(strange.impulses[0]!.activePowers[1]).toBe('');
      expect((await now.inject({ method: 'GET', url: '/api/matches/no-such-match' })).statusCode).toBe(404);
      // The readers of one part alone agree too.
      const ref = (await referenceMatchDetail(t, t.match, b))!;
      expect(await t.impulses(b)).toEqual(ref.impulses);
      expect(await t.events(b)).toEqual(ref.events);
    } finally {
      await now.close();
      await before.close();
    }
  }, 120_000);
});
