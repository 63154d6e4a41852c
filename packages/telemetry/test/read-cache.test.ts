/**
 * The embedded store's kept reads (ReadCache in embedded-link.ts): a read is answered again only while
 * nothing was written since it ran, never past a write that started or ended while it ran; identical
 * reads under way share one run. With a fake engine (deferred answers), and on the real embedded store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReadCache, readSessionCount } from '../src/embedded-link.ts';
import { openTelemetry } from '../src/index.ts';

type Answer = { body: Buffer; meta: Record<string, unknown> };

/** A fake engine: each run answers when told to, with the number of runs so far. */
function engine() {
  let runs = 0;
  const waiting: (() => void)[] = [];
  return {
    get runs() {
      return runs;
    },
    run: (): Promise<Answer> => {
      const n = ++runs;
      return new Promise((resolve) => waiting.push(() => resolve({ body: Buffer.from(String(n)), meta: {} })));
    },
    /** Answer every run under way. */
    answer: async () => {
      for (const w of waiting.splice(0)) w();
      await new Promise((r) => setImmediate(r));
    },
  };
}
const text = async (p: Promise<Answer>) => (await p).body.toString();
const q = { query: 'SELECT 1 FORMAT JSONEachRow' };

describe('ReadCache', () => {
  it('answers a read again until a write, and shares a read under way', async () => {
    const c = new ReadCache();
    const e = engine();
    const [a, b] = [c.read(q, e.run), c.read(q, e.run)];
    await e.answer();
    expect([await text(a), await text(b)]).toEqual(['1', '1']);
    expect(await text(c.read(q, e.run))).toBe('1');
    expect(e.runs).toBe(1);
    const w = c.write(async () => 'written');
    expect(await w).toBe('written');
    const after = c.read(q, e.run);
    await e.answer();
    expect(await text(after)).toBe('2');
    expect(e.runs).toBe(2);
  });

  it('keeps no answer of a read that a write started or ended during', async () => {
    const c = new ReadCache();
    const e = engine();
    // Begun before the write, answered after it began: not kept.
    const before = c.read(q, e.run);
    let finish!: () => void;
    const w = c.write(() => new Promise<void>((r) => (finish = r)));
    // Begun during the write: neither shared with the one before nor kept.
    const during = c.read(q, e.run);
    expect(e.runs).toBe(2);
    await e.answer();
    expect([await text(before), await text(during)]).toEqual(['1', '2']);
    finish();
    await w;
    const next = c.read(q, e.run);
    await e.answer();
    expect(await text(next)).toBe('3');
    expect(c.size).toBe(1);
    // A failed read is not kept either.
    const bad = new ReadCache();
    await expect(bad.read(q, () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(bad.size).toBe(0);
  });

  it('keeps plain SELECTs only, and no answer over the size bound', async () => {
    expect(ReadCache.cacheable({ query: ' select 1' })).toBe(true);
    expect(ReadCache.cacheable({ query: 'WITH 1 AS x SELECT x' })).toBe(true);
    expect(ReadCache.cacheable({ query: 'INSERT INTO t SELECT 1' })).toBe(false);
    expect(ReadCache.cacheable({ query: 'SELECT 1', clickhouse_settings: { readonly: 1 } })).toBe(false);
    expect(ReadCache.cacheable({ query: 'SELECT 1', clickhouse_settings: { readonly: undefined } })).toBe(true);
    expect(ReadCache.cacheable({ query: 'SELECT {x:UInt8}', query_params: { x: 1 } })).toBe(false);
    // Answers that change without a write: the system tables (merges end in the background), the clock.
    expect(ReadCache.cacheable({ query: "SELECT count() AS n FROM system.merges WHERE database = 'salient'" })).toBe(false);
    expect(ReadCache.cacheable({ query: 'SELECT name FROM system . parts' })).toBe(false);
    expect(ReadCache.cacheable({ query: 'SELECT now64(6) AS t' })).toBe(false);
    expect(ReadCache.cacheable({ query: 'SELECT rand() AS r' })).toBe(false);
    expect(ReadCache.cacheable({ query: 'SELECT count() FROM matches WHERE systematic = 1' })).toBe(true);
    const c = new ReadCache();
    const big = Buffer.alloc(ReadCache.MAX_ANSWER + 1);
    await c.read(q, async () => ({ body: big, meta: {} }));
    expect(c.size).toBe(0);
  });
});

describe('kept reads on the embedded store', () => {
  let root = '';
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('see every write: inserts, commands, and inserts by SELECT', async () => {
    root = mkdtempSync(join(tmpdir(), 'salient-read-cache-'));
    const t = await openTelemetry({ kind: 'embedded', path: join(root, 'clickhouse'), spoolDir: join(root, 'spool') });
    try {
      const count = async () => Number((await (await t.client.query({ query: 'SELECT count() AS n FROM rc_t', format: 'JSONEachRow' })).json<{ n: string }>())[0]?.n);
      await t.client.command({ query: 'CREATE TABLE rc_t (x UInt32) ENGINE = MergeTree ORDER BY x' });
      expect(await count()).toBe(0);
      expect(await count()).toBe(0);
      await t.client.insert({ table: 'rc_t', values: [{ x: 1 }, { x: 2 }], format: 'JSONEachRow' });
      expect(await count()).toBe(2);
      await t.client.command({ query: 'INSERT INTO rc_t SELECT number FROM numbers(5)' });
      expect(await count()).toBe(7);
      // Reads asked together while a write runs see it or not, but the next read after it does.
      const [, during] = await Promise.all([t.client.command({ query: 'INSERT INTO rc_t SELECT number FROM numbers(3)' }), count()]);
      expect([7, 10]).toContain(during);
      expect(await count()).toBe(10);
      await t.client.command({ query: 'TRUNCATE TABLE rc_t' });
      expect(await count()).toBe(0);
      // No write between them, yet the clock moved: a read of the clock is not kept.
      const clock = async () => (await (await t.client.query({ query: 'SELECT toString(now64(6)) AS t', format: 'JSONEachRow' })).json<{ t: string }>())[0]?.t;
      const t1 = await clock();
      await new Promise((r) => setTimeout(r, 5));
      expect(await clock()).not.toBe(t1);
    } finally {
      await t.close();
    }
  });

  it('run plain reads on read sessions of their own (one thread a read), side by side, and see what the main session wrote', async () => {
    if (!root) root = mkdtempSync(join(tmpdir(), 'salient-read-cache-'));
    const t = await openTelemetry({ kind: 'embedded', path: join(root, 'sessions'), spoolDir: join(root, 'spool-sessions') });
    try {
      const read = async (sql: string) => (await (await t.client.query({ query: sql, format: 'JSONEachRow' })).json<Record<string, string | number>>())[0];
      // A setting of the session the read ran on: the read sessions run one thread a read.
      const threads = async (tag: number) => Number((await read(`SELECT getSetting('max_threads') AS n, ${tag} AS tag`))?.n);
      const many = await Promise.all([1, 2, 3, 4].map(threads));
      expect(many).toEqual([1, 1, 1, 1]);
      await t.client.command({ query: 'CREATE TABLE rs_t (x UInt32) ENGINE = MergeTree ORDER BY x' });
      await t.client.insert({ table: 'rs_t', values: [{ x: 1 }, { x: 2 }, { x: 3 }], format: 'JSONEachRow' });
      const counts = await Promise.all([1, 2, 3, 4].map(async (k) => Number((await read(`SELECT count() AS n, ${k} AS k FROM rs_t`))?.n)));
      expect(counts).toEqual([3, 3, 3, 3]);
    } finally {
      await t.close();
    }
  });
});

describe('SALIENT_EMBEDDED_READ_SESSIONS', () => {
  it('is 2 when unset or empty, the number given when it is a whole number from 0 to 64', () => {
    expect(readSessionCount(undefined)).toBe(2);
    expect(readSessionCount(' ')).toBe(2);
    expect(readSessionCount('0')).toBe(0);
    expect(readSessionCount('3')).toBe(3);
  });

  it('refuses anything else with a BAD_CONFIG error that names the variable and the value', () => {
    for (const bad of ['two', '-1', '1.5', '65']) {
      expect(() => readSessionCount(bad)).toThrow(expect.objectContaining({ code: 'BAD_CONFIG', message: expect.stringContaining(`SALIENT_EMBEDDED_READ_SESSIONS="${bad}" is invalid`) }));
    }
  });
});
