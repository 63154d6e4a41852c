/**
 * A stored match's final hash read alone (`matchFinalHash`, what the API's board cache keys on) is the
 * hash of the summary `matchSummary` reads, on the Debian 18.16 server: the highest copy counted, a
 * match stored but not counted, and no match at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchSummary, migrate, openStore, type Store } from '../src/index.ts';
import { matchFinalHash } from '../src/queries.ts';
import { SALIENT_PASSWORD, startClickHouseServer, type TestClickHouseServer } from './support/clickhouse-server.ts';

let server: TestClickHouseServer;
let store: Store;

beforeAll(async () => {
  server = await startClickHouseServer();
  store = await openStore({ kind: 'server', url: server.url, username: 'salient', password: SALIENT_PASSWORD, database: 'salient', spoolDir: '' });
  await migrate(store);
  const fact = (id: string, ver: number, hash: string) => ({ match_id: id, game: 'g', scenario: 'A', kind: 'completed', sides: ['x'], outcomes: ['win'], side_bots: ['random@1'], started_at: 1_800_000_000, ended_at: 1_800_000_060 + ver, final_hash: hash, sign: 1, ver });
  // Counted twice: the higher `ver` is the copy the summary shows, whatever the order they landed in.
  await store.client.insert({ table: 'salient.match_facts', format: 'JSONEachRow', values: [fact('counted', 2, 'h-two'), fact('counted', 1, 'h-one'), fact('once', 1, 'h-once')] });
  // Stored but not counted (yet): only the matches table has it.
  await store.client.insert({ table: 'salient.matches', format: 'JSONEachRow', values: [{ match_id: 'stored', game: 'g', scenario: 'A', kind: 'completed', final_hash: 'h-stored' }] });
}, 120_000);

afterAll(async () => {
  await store?.close();
  await server?.dispose();
}, 60_000);

describe('the final hash of a stored match', () => {
  it.each([
    ['counted', 'h-two'],
    ['once', 'h-once'],
    ['stored', 'h-stored'],
  ])('of %s is its summary’s (%s)', async (id, hash) => {
    const summary = await matchSummary(store, id);
    expect(summary?.finalHash).toBe(hash);
    expect(await matchFinalHash(store, id)).toBe(hash);
  });

  it('is undefined with no such match, as its summary is', async () => {
    expect(await matchSummary(store, 'nowhere')).toBeUndefined();
    expect(await matchFinalHash(store, 'nowhere')).toBeUndefined();
  });
});
