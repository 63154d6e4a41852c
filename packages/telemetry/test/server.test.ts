/**
 * A ClickHouse server (the Debian 18.16 package, the oldest we support) on free ports in a temporary
 * directory: the store contract, bad credentials, an unreachable server, and a server that dies
 * mid-run and comes back.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MatchResult } from '@salient/runner';
import { openTelemetry, type ServerConfig } from '../src/index.ts';
import { freePorts, SALIENT_PASSWORD, startClickHouseServer, type TestClickHouseServer } from './support/clickhouse-server.ts';
import { expectedCounts, playBlitz, storedCounts, type Played } from './support/matches.ts';
import { storeContract } from './support/store-contract.ts';

let server: TestClickHouseServer;
let root = '';

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'salient-server-'));
  server = await startClickHouseServer();
});

// A test that fails while the server is down must not take the next ones with it.
beforeEach(async () => {
  if (!server.running) await server.restart();
});

afterAll(async () => {
  await server?.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const config = (over: Partial<ServerConfig> = {}): ServerConfig => ({
  kind: 'server',
  url: server.url,
  username: 'salient',
  password: SALIENT_PASSWORD,
  database: 'salient_test',
  spoolDir: join(root, 'spool'),
  ...over,
});

describe('ClickHouse server telemetry store', () => {
  storeContract(() => config());

  it('refuses bad credentials, naming the user, the server and the variables to set', async () => {
    const error = await openTelemetry(config({ password: 'not-the-password' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TELEMETRY_AUTH' });
    const message = (error as Error).message;
    expect(message).toContain(`The ClickHouse server at ${server.url} refused user 'salient'`);
    expect(message).toContain('Wrong password for user salient');
    expect(message).toContain('Set SALIENT_CLICKHOUSE_USER and SALIENT_CLICKHOUSE_PASSWORD');
  });

  it('says which server it cannot reach and what to do', async () => {
    const [port] = await freePorts(1);
    const url = `http://127.0.0.1:${port}`;
    await expect(openTelemetry(config({ url }))).rejects.toMatchObject({
      code: 'TELEMETRY_UNREACHABLE',
      message: expect.stringMatching(new RegExp(`^Cannot reach the ClickHouse server at ${url} \\(.*ECONNREFUSED.*\\)\\. Start it, or fix SALIENT_CLICKHOUSE_URL`)),
    });
  });

  it('throws other failures into the match with a clear message, keeping the finished match in the spool', async () => {
    const spoolDir = join(root, 'spool-broken');
    const t = await openTelemetry(config({ database: 'salient_broken', spoolDir }));
    try {
      await t.client.command({ query: 'DROP TABLE salient_broken.events' });
      // lingerMs 0: the failing write happens in the match's last flush, so the match gets the error
      const error = await playBlitz(601, t.sink({ lingerMs: 0 })).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'IO' });
      expect((error as Error).message).toMatch(new RegExp(`^ClickHouse at ${server.url} failed while inserting \\d+ row\\(s\\) into salient_broken\\.events: .*salient_broken\\.events.*doesn't exist`));
      expect((await t.pendingSpool()).length).toBe(1);
      // and the spool refuses to lose it: delivery stops with the same error
      await expect(t.deliverSpool()).rejects.toMatchObject({ code: 'IO', message: expect.stringContaining('salient_broken.events') });
      expect((await t.pendingSpool()).length).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('spools the matches played while the server is down and delivers them once when it is back', async () => {
    const spoolDir = join(root, 'spool-kill');
    const t = await openTelemetry(config({ database: 'salient_kill', spoolDir }));
    try {
      // ~35 rows by the second turn (fewer or more with the sampled decisions, which depend on the match
      // id): 12 makes the sink insert several times during the first turn, so the second match is
      // partly in when the server dies
      const sink = t.sink({ batchRows: 12, decisionSample: 0.5, lingerMs: 0, retry: { retries: 1, delayMs: 20 } });
      const played: Played[] = [];
      // a match with the server up, then the server dies as the second reaches its second turn
      played.push(await playBlitz(301, sink));
      let killing: Promise<void> | undefined;
      played.push(
        await playBlitz(302, sink, {
          // Once its first rows have landed (nothing held back from the store), or at the latest on Turn 3.
          onStep: (s) => {
            if (!killing && ((s.position.turn >= 2 && sink.backlogRows === 0) || s.position.turn >= 3)) killing = server.kill();
          },
        }),
      );
      await killing;
      played.push(await playBlitz(303, sink));

      // every match finished normally; the two that met the dead server wait in the spool, one file each
      expect(played.map((p) => p.result.kind)).toEqual(['completed', 'completed', 'completed']);
      const down = played.slice(1).map((p) => p.result.matchId);
      expect(sink.spooled.map((s) => s.matchId)).toEqual(down);
      expect((await t.pendingSpool()).map((s) => s.matchId).sort()).toEqual([...down].sort());
      expect(readdirSync(spoolDir).sort()).toEqual(down.map((id) => `${id}.jsonl`).sort());
      // the second match's spool holds only what had not landed; the third's holds everything
      const spooledImpulses = sink.spooled.map((s) => readFileSync(s.file, 'utf8').split('\n').filter((l) => l.startsWith('{"table":"impulses"')).length);
      expect(spooledImpulses[0]).toBeLessThan(played[1]!.result.impulses);
      expect(spooledImpulses.slice(1)).toEqual(played.slice(2).map((p) => p.result.impulses));

      await server.restart();
      // delivered by this process as soon as the server answers, with nothing more played
      await waitFor('the spool to be delivered', async () => ((await t.pendingSpool()).length === 0 ? true : undefined));
      expect(t.link().up).toBe(true);
      played.push(await playBlitz(304, sink));
      expect(await t.pendingSpool()).toEqual([]);
      expect(readdirSync(spoolDir)).toEqual([]);
      await expectStored(t, played, 0.5);

      // delivering again finds nothing, and nothing doubled
      expect(await t.deliverSpool()).toEqual({ delivered: [], pending: [] });
      await expectStored(t, played, 0.5);
    } finally {
      await t.close();
    }
  });

  it('reports a failure of a background write from the next flush or drain, keeping the match in the spool', async () => {
    const spoolDir = join(root, 'spool-broken-bg');
    const t = await openTelemetry(config({ database: 'salient_broken_bg', spoolDir }));
    try {
      await t.client.command({ query: 'DROP TABLE salient_broken_bg.events' });
      const sink = t.sink({ lingerMs: 60_000 });
      // the match itself does not wait for the store, so it ends normally
      const played = await playBlitz(602, sink);
      expect(played.result.kind).toBe('completed');
      await expect(sink.drain()).rejects.toMatchObject({ code: 'IO', message: expect.stringContaining('salient_broken_bg.events') });
      expect((await t.pendingSpool()).map((s) => s.matchId)).toEqual([played.result.matchId]);
      // reported once: the next drain has nothing more to say
      await expect(sink.drain()).resolves.toBeUndefined();

      // a write the timer started fails while the next match is played: that match's next flush throws
      const quick = t.sink({ lingerMs: 1 });
      const failing = await playBlitz(603, quick);
      // Its write failed once the match went to the spool (then the failure is kept for the next flush):
      // waited for, not a fixed pause, which a loaded machine outran.
      for (const until = Date.now() + 30_000; !quick.spooled.some((x) => x.matchId === failing.result.matchId) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 10));
      await expect(playBlitz(604, quick)).rejects.toMatchObject({ code: 'IO', message: expect.stringContaining('salient_broken_bg.events') });
    } finally {
      await t.close().catch(() => undefined);
    }
  });

  it('spools exactly the matches of a background batch that met a dead server, and delivers them once later', async () => {
    const spoolDir = join(root, 'spool-bg');
    const t = await openTelemetry(config({ database: 'salient_bg', spoolDir }));
    try {
      const sink = t.sink({ lingerMs: 60_000, decisionSample: 0.5, retry: { retries: 0, delayMs: 0 } });
      const landed = await playBlitz(311, sink);
      await sink.drain();
      // two matches wait in the pending batch; the server dies before it is written
      const lost = [await playBlitz(312, sink), await playBlitz(313, sink)];
      expect(sink.buffered).toBe(2);
      await server.kill();
      // the batch is written (and fails) in the background; an outage is not an error
      await sink.drain();
      expect(sink.spooled.map((s) => s.matchId)).toEqual(lost.map((p) => p.result.matchId));
      expect((await t.pendingSpool()).map((s) => s.matchId).sort()).toEqual(lost.map((p) => p.result.matchId).sort());
      for (const s of sink.spooled) {
        const tables = readFileSync(s.file, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { table: string }).table);
        expect(tables.filter((x) => x === 'matches')).toHaveLength(1);
        expect(tables.at(-1)).toBe('matches');
      }

      await server.restart();
      // this process delivers them once the server answers; the next match lands as usual
      await waitFor('the spool to be delivered', async () => ((await t.pendingSpool()).length === 0 ? true : undefined));
      const after = await playBlitz(314, sink);
      await sink.drain();
      expect(await t.pendingSpool()).toEqual([]);
      await expectStored(t, [landed, ...lost, after], 0.5);
      expect(sink.spooled).toHaveLength(2);
      // exactly once: no second copy of any row even before merges (FINAL aside)
      const [raw] = (await (
        await t.client.query({ query: `SELECT count() AS n, uniqExact(match_id) AS u FROM salient_bg.matches`, format: 'JSONEachRow' })
      ).json()) as { n: string; u: string }[];
      expect([Number(raw!.n), Number(raw!.u)]).toEqual([4, 4]);
    } finally {
      await t.close();
    }
  });

  it('opened while the server is down (whenUnreachable: spool): matches spool at once, and this process migrates and delivers them when it answers', async () => {
    const spoolDir = join(root, 'spool-late');
    await server.stop();
    const events: string[] = [];
    const started = Date.now();
    const t = await openTelemetry(config({ database: 'salient_late', spoolDir }), {
      whenUnreachable: 'spool',
      probe: { probeMs: 200, maxProbeMs: 400 },
      onLink: (e) => events.push(e.kind),
    });
    try {
      expect(Date.now() - started).toBeLessThan(5000);
      expect(t.link()).toMatchObject({ up: false, error: expect.stringMatching(/ECONNREFUSED|connect/) });
      const sink = t.sink({ decisionSample: 0.5, lingerMs: 0 });
      const t0 = Date.now();
      const played = [await playBlitz(501, sink), await playBlitz(502, sink), await playBlitz(503, sink)];
      // nothing waits on the absent server: three quick matches, all spooled
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(played.map((p) => p.result.kind)).toEqual(['completed', 'completed', 'completed']);
      expect((await t.pendingSpool()).map((m) => m.matchId).sort()).toEqual(played.map((p) => p.result.matchId).sort());
      await expect(t.winRates()).rejects.toMatchObject({ code: 'TELEMETRY_UNREACHABLE' });

      await server.restart();
      await waitFor('the spool to be delivered', async () => ((await t.pendingSpool()).length === 0 ? true : undefined));
      expect(t.link().up).toBe(true);
      expect(events).toEqual(['up', 'delivered']);
      expect(t.migrations.version).toBeGreaterThan(0);
      await expectStored(t, played, 0.5);
    } finally {
      await t.close();
    }
  });

  it('a hung server (SIGSTOP) holds a writer for the write timeout once, then matches spool without waiting until it answers again', async () => {
    const spoolDir = join(root, 'spool-hung');
    const t = await openTelemetry(config({ database: 'salient_hung', spoolDir }), { whenUnreachable: 'spool', probe: { probeMs: 200, maxProbeMs: 400 }, openTimeoutMs: 1000 });
    try {
      const sink = t.sink({ decisionSample: 0.5, lingerMs: 0, retry: { retries: 2, delayMs: 50, timeoutMs: 1500 } });
      const played = [await playBlitz(511, sink)];
      server.pause();
      const t0 = Date.now();
      played.push(await playBlitz(512, sink));
      const first = Date.now() - t0;
      // one timeout, not one per table or per attempt
      expect(first).toBeLessThan(1500 * 2 + 1000);
      expect(t.link().up).toBe(false);
      const t1 = Date.now();
      played.push(await playBlitz(513, sink), await playBlitz(514, sink));
      expect(Date.now() - t1).toBeLessThan(1500);
      expect((await t.pendingSpool()).map((m) => m.matchId).sort()).toEqual(played.slice(1).map((p) => p.result.matchId).sort());
      server.resume();
      await waitFor('the spool to be delivered', async () => ((await t.pendingSpool()).length === 0 ? true : undefined));
      await expectStored(t, played, 0.5);
    } finally {
      server.resume();
      await t.close();
    }
  });

  it('a damaged spool file is set aside, said, and holds up no other match', async () => {
    const spoolDir = join(root, 'spool-damaged');
    const t = await openTelemetry(config({ database: 'salient_damaged', spoolDir }), { whenUnreachable: 'spool', probe: { probeMs: 60_000 } });
    try {
      const sink = t.sink({ decisionSample: 0.5, lingerMs: 0, retry: { retries: 0, delayMs: 0 } });
      await server.kill();
      const played = [await playBlitz(521, sink), await playBlitz(522, sink)];
      // Sorted oldest first: the damaged file comes before the good ones.
      writeFileSync(join(spoolDir, '0-damaged.jsonl'), '{"table":"impulses","row":{}}\nnot json\n');
      utimesSync(join(spoolDir, '0-damaged.jsonl'), new Date(0), new Date(0));
      await server.restart();
      const r = await t.deliverSpool();
      expect(r.delivered.sort()).toEqual(played.map((p) => p.result.matchId).sort());
      expect(r.pending).toEqual([]);
      expect(r.rejected).toEqual([{ file: join(spoolDir, 'rejected', '0-damaged.jsonl'), why: expect.stringMatching(/0-damaged\.jsonl line 2 is not a telemetry row/) }]);
      expect(readdirSync(join(spoolDir, 'rejected'))).toEqual(['0-damaged.jsonl']);
      await expectStored(t, played, 0.5);
    } finally {
      await t.close();
    }
  });

  it('delivers what an earlier run spooled when telemetry is next opened', async () => {
    const spoolDir = join(root, 'spool-open');
    const cfg = config({ database: 'salient_reopen', spoolDir });
    const t = await openTelemetry(cfg);
    const sink = t.sink({ decisionSample: 1, lingerMs: 0, redeliver: false, retry: { retries: 0, delayMs: 0 } });
    const before = await playBlitz(401, sink);
    await server.kill();
    const during = [await playBlitz(402, sink), await playBlitz(403, sink)];
    await t.close();
    expect(sink.spooled.map((s) => s.matchId)).toEqual(during.map((p) => p.result.matchId));

    // still down: opening fails clearly and the spool stays
    await expect(openTelemetry(cfg)).rejects.toMatchObject({ code: 'TELEMETRY_UNREACHABLE' });
    await server.restart();
    const again = await openTelemetry(cfg);
    try {
      expect(again.spoolAtOpen.delivered.sort()).toEqual(during.map((p) => p.result.matchId).sort());
      expect(again.spoolAtOpen.pending).toEqual([]);
      await expectStored(again, [before, ...during], 1);
    } finally {
      await again.close();
    }
  });
});

async function expectStored(t: Awaited<ReturnType<typeof openTelemetry>>, played: readonly Played[], rate: number): Promise<void> {
  const ids = (r: MatchResult) => r.matchId;
  expect(new Set(played.map((p) => ids(p.result))).size).toBe(played.length);
  for (const p of played) expect(await storedCounts(t, p.result.matchId)).toEqual(expectedCounts(p, rate));
}
