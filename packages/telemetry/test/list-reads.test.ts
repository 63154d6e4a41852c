/**
 * The match list as a server reads it (the first page and pages after a cursor in one statement of
 * `match_list_packed`, pages at an offset by the minutes), and the bare HTTP reads of a server store,
 * on the Debian 18.16 server: pages at every offset and by cursor against the list worked out from
 * `match_list`'s own rows, over matches crowded into a few minutes and seconds, copies taken back and
 * matches played again; and the lean reads' answers and failures against the client's.
 */
import { createClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMatches, migrate, openStore, type Store, type TelemetryFilter } from '../src/index.ts';
import { leanReader } from '../src/client.ts';
import { SALIENT_PASSWORD, startClickHouseServer, type TestClickHouseServer } from './support/clickhouse-server.ts';

/** A `match_facts` row of game `g` (a copy `sign` +1 counted, -1 taken back) at version `ver`. */
const matchFact = (id: string, scenario: string, sign: number, ended: number, ver: number) => ({
  match_id: id,
  game: 'g',
  scenario,
  kind: 'completed',
  sides: ['x', 'y'],
  outcomes: ['win', 'loss'],
  side_bots: ['random@1', 'greedy@1'],
  started_at: ended - 5,
  ended_at: ended,
  sign,
  ver,
});

let server: TestClickHouseServer;
let store: Store;

beforeAll(async () => {
  server = await startClickHouseServer();
  store = await openStore({ kind: 'server', url: server.url, username: 'salient', password: SALIENT_PASSWORD, database: 'salient', spoolDir: '' });
  await migrate(store);
  // 240 matches: bursts of 60 in one minute, ten to a second, spread over two scenarios; then 12 copies
  // taken back (sign -1 after +1, as countMatches does for a match counted again) of which 6 land again later.
  const base = 1_800_000_000;
  const fact = (i: number, sign: number, ended: number) => matchFact(`m${String(i).padStart(4, '0')}`, i % 3 === 0 ? 'B' : 'A', sign, ended, 1);
  const ended = (i: number) => base - Math.floor(i / 60) * 600 - Math.floor((i % 60) / 10);
  await store.client.insert({ table: 'salient.match_facts', format: 'JSONEachRow', values: Array.from({ length: 240 }, (_, i) => fact(i, 1, ended(i))) });
  const back = [3, 4, 59, 60, 61, 119, 120, 150, 151, 200, 238, 239];
  await store.client.insert({ table: 'salient.match_facts', format: 'JSONEachRow', values: back.map((i) => fact(i, -1, ended(i))) });
  await store.client.insert({ table: 'salient.match_facts', format: 'JSONEachRow', values: back.filter((_, k) => k % 2 === 0).map((i) => fact(i, 1, base + 30 + i)) });
}, 120_000);

afterAll(async () => {
  await store?.close();
  await server?.dispose();
}, 60_000);

/** The list from `match_list`'s rows: each key's signs summed, live keys newest first (as [id, end time]). */
async function reference(scenario?: string): Promise<string[]> {
  const rows = await (
    await store.client.query({
      query: `SELECT match_id FROM salient.match_list ${scenario ? `WHERE scenario = '${scenario}'` : ''} GROUP BY rev_ended, match_id HAVING sum(sign) > 0 ORDER BY rev_ended, match_id`,
      format: 'JSONEachRow',
    })
  ).json<{ match_id: string }>();
  return rows.map((r) => r.match_id);
}

/**
 * Every page of the list under `filter`, for each of `pages`' limits at offsets `step` apart and (where
 * `cursor`) walked by cursor from the first page to the last, against the live rows now.
 */
async function pagesAsLive(filter: TelemetryFilter, pages: { limit: number; step: number; cursor: boolean }[] = [{ limit: 7, step: 13, cursor: true }, { limit: 50, step: 23, cursor: true }]): Promise<void> {
  const want = await reference(filter.scenario);
  for (const { limit, step, cursor } of pages) {
    for (let offset = 0; offset <= want.length + 1; offset += step) {
      const page = await listMatches(store, filter, { limit, offset });
      expect(page.total).toBe(want.length);
      expect(page.matches.map((m) => m.matchId)).toEqual(want.slice(offset, offset + limit));
    }
    if (!cursor) continue;
    const walked: string[] = [];
    let after: string | undefined;
    for (let n = 0; n < 300; n++) {
      const page = await listMatches(store, filter, { limit, ...(after ? { after } : {}) });
      expect(page.total).toBe(want.length);
      walked.push(...page.matches.map((m) => m.matchId));
      if (!page.next) break;
      after = page.next;
    }
    expect(walked).toEqual(want);
  }
}

describe('the match list on a server', () => {
  it.each([[{}], [{ scenario: 'A' }], [{ scenario: 'B', game: 'g' }]] as [TelemetryFilter][])('pages at every offset and by cursor as the list of live rows, filter %j', async (filter) => {
    expect((await reference(filter.scenario)).length).toBeGreaterThan(50);
    await pagesAsLive(filter, [
      { limit: 1, step: 29, cursor: false },
      { limit: 7, step: 11, cursor: true },
      { limit: 50, step: 17, cursor: true },
    ]);
  }, 300_000);

  it('gives each row its newest copy, as the packed summary says', async () => {
    const page = await listMatches(store, {}, { limit: 3 });
    // The matches played again ended last (base + 30 + i): m0238, m0151, m0120.
    const at = (i: number) => new Date((1_800_000_000 + 30 + i) * 1000).toISOString().replace('.000', '');
    const bots = { x: 'random@1', y: 'greedy@1' };
    expect(page.matches.map((m) => [m.matchId, m.endedAt, m.scenario, m.sideBots])).toEqual([
      ['m0238', at(238), 'A', bots],
      ['m0151', at(151), 'A', bots],
      ['m0120', at(120), 'B', bots],
    ]);
  });
});

describe('lean reads of a server store', () => {
  it('answer as the client does: 64-bit integers as strings, arrays, floats, text with line breaks', async () => {
    const sql = `SELECT toInt64(9007199254740993) AS big, [1.5, -2] AS xs, 'a\\nb\\tc"' AS s, nan AS f, toUInt8(3) AS u FROM system.one`;
    const viaClient = await (await store.client.query({ query: sql, format: 'JSONEachRow' })).json();
    expect(store.select).toBeDefined();
    expect(await store.select!(sql)).toEqual(viaClient);
    expect(await store.select!('SELECT 1 AS x FROM system.one WHERE 0')).toEqual([]);
  });

  it('still read after the sockets they keep sat idle past the server closing them', async () => {
    expect(await store.select!('SELECT 1 AS x')).toEqual([{ x: 1 }]);
    await new Promise((r) => setTimeout(r, 3500));
    expect(await store.select!('SELECT 2 AS x')).toEqual([{ x: 2 }]);
  });

  it('wait for a read that outlasts the time an idle kept socket is closed after', async () => {
    expect(await store.select!('SELECT sleep(2.5) AS s, 3 AS x')).toEqual([{ s: 0, x: 3 }]);
  });

  it("fail with the server's own error, as the client's reads do", async () => {
    const sql = 'SELECT no_such_column FROM salient.match_list';
    const e = await store.select!(sql).then(() => undefined, (x: unknown) => x);
    const c = await store.client.query({ query: sql, format: 'JSONEachRow' }).then(async (r) => { await r.json(); }).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(Error);
    expect(c).toBeInstanceOf(Error);
    expect((e as Error).message).toMatch(/no_such_column/);
    expect((e as Error).message).toBe((c as Error).message);
    await expect(listMatches({ ...store, database: 'no_such_db' }, {}, {})).rejects.toThrow(/ClickHouse at .* failed while listing matches: .*no_such_db/);
  });

  it('say the server is unreachable when nothing listens, and wrong credentials as such', async () => {
    const { url } = server;
    const port = Number(new URL(url).port);
    const gone = leanReader({ url: `http://127.0.0.1:${port === 1 ? 2 : 1}`, username: 'salient', password: SALIENT_PASSWORD, database: 'salient' });
    await expect(listMatches({ ...store, select: gone.select }, {}, {})).rejects.toMatchObject({ code: 'TELEMETRY_UNREACHABLE' });
    gone.close();
    const wrong = leanReader({ url, username: 'salient', password: 'not-it', database: 'salient' });
    await expect(listMatches({ ...store, select: wrong.select }, {}, {})).rejects.toMatchObject({ code: 'TELEMETRY_AUTH' });
    wrong.close();
    // The client itself agrees on the wrong password (the check the lean reads copy).
    const c = createClient({ url, username: 'salient', password: 'not-it' });
    await expect(c.query({ query: 'SELECT 1', format: 'JSONEachRow' })).rejects.toThrow();
    await c.close();
  });
});

describe('the match list as writes land', () => {
  const filters: TelemetryFilter[] = [{}, { scenario: 'A' }, { scenario: 'B', game: 'g' }];
  const fact = (id: string, scenario: string, sign: number, ended: number) => matchFact(id, scenario, sign, ended, 2);
  /** Written as another process would: straight into the store, unknown to this one's reads. */
  const write = (values: ReturnType<typeof fact>[]) => store.client.insert({ table: 'salient.match_facts', format: 'JSONEachRow', values });
  const base = 1_800_000_000;

  it('counts a large insert by minute in a row per minute and scenario (migration 12), whatever the merges did', async () => {
    const count = async (table: string) =>
      Number((await (await store.client.query({ query: `SELECT count() AS n FROM salient.${table} WHERE rev_minute > 0`, format: 'JSONEachRow' })).json<{ n: string }>())[0]!.n);
    const before = await count('list_minutes');
    // 120 matches in one insert, over two minutes and two scenarios.
    await write(Array.from({ length: 120 }, (_, i) => fact(`b${String(i).padStart(4, '0')}`, i % 2 ? 'A' : 'B', 1, base - 6000 - (i % 2 ? 0 : 61))));
    expect(await count('list_minutes')).toBeLessThanOrEqual(before + 2);
    for (const f of filters) await pagesAsLive(f);
  }, 300_000);

  it('are the live pages after each kind of write another process may make', async () => {
    for (const f of filters) await pagesAsLive(f);
    // New matches in the newest minute: every page at an offset moves down.
    await write([fact('n0001', 'A', 1, base + 100), fact('n0002', 'B', 1, base + 101), fact('n0003', 'A', 1, base + 101)]);
    for (const f of filters) await pagesAsLive(f);
    // A match taken back in an old minute and landed again in the newest: the total stays.
    await write([fact('m0100', 'A', -1, base - 600 - 4), fact('m0100', 'A', 1, base + 102)]);
    for (const f of filters) await pagesAsLive(f);
    // One match taken back and another landed in the same old minute: every minute's count stays.
    await write([fact('m0130', 'A', -1, base - 1200 - 1), fact('n0004', 'A', 1, base - 1200 - 1)]);
    for (const f of filters) await pagesAsLive(f);
    // A match landed late, ending before most (a spool delivered long after): the pages after it move.
    await write([fact('n0005', 'B', 1, base - 1800 - 2), fact('n0006', 'B', 1, base - 3000)]);
    for (const f of filters) await pagesAsLive(f);
    // The oldest matches taken back: the last pages shorten, the total falls.
    const oldest = (await reference()).slice(-3);
    const rows = await (
      await store.client.query({ query: `SELECT match_id, scenario, toUInt32(ended_at) AS e FROM salient.match_list WHERE match_id IN (${oldest.map((m) => `'${m}'`).join(', ')})`, format: 'JSONEachRow' })
    ).json<{ match_id: string; scenario: string; e: number }>();
    await write(rows.map((r) => fact(r.match_id, r.scenario, -1, Number(r.e))));
    for (const f of filters) await pagesAsLive(f);
  }, 300_000);
});
