/**
 * The sink's `writeShare`: after a background write that took W ms, the next one waits until
 * W × (1 − share) / share ms have passed, so the store spends at most that share of the time on this
 * sink's writes; `drain` does not wait, and every match still lands. On the real embedded store, with
 * each batch timed from its first insert to the end of the dashboard's counting (its last statement).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTelemetry, type Telemetry } from '../src/index.ts';
import { playBlitz, rowsOf } from './support/matches.ts';

let root = '';
let t: Telemetry;
/** Each batch written: when its first statement was sent and when its last one answered. */
const writes: { start: number; end: number }[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'salient-write-share-'));
  t = await openTelemetry({ kind: 'embedded', path: join(root, 'clickhouse'), spoolDir: join(root, 'spool') });
  const client = t.client;
  const insert = client.insert.bind(client);
  const command = client.command.bind(client);
  // A batch is the tables' inserts, then the counting command that writes match_facts (insert.ts).
  client.insert = (async (p: Parameters<typeof insert>[0]) => {
    const last = writes.at(-1);
    if (!last || last.end > 0) writes.push({ start: Date.now(), end: 0 });
    return insert(p);
  }) as typeof client.insert;
  client.command = (async (p: Parameters<typeof command>[0]) => {
    const r = await command(p);
    const last = writes.at(-1);
    if (/INSERT INTO \S+match_facts/.test(p.query) && last && last.end === 0) last.end = Date.now();
    return r;
  }) as typeof client.command;
});

afterAll(async () => {
  await t?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('writeShare', () => {
  it('rests the store W × (1 − share) / share after a write of W ms, and every match lands', async () => {
    const share = 0.25;
    // A match may wait 1 ms for company: without writeShare nearly every match would be a write of its own.
    // A full batch is written at once, rest or not (by design), so batches never fill here: on a quiet
    // machine the games of a 4 s rest came to the default 20,000 rows and were written 1 s early.
    const sink = t.sink({ lingerMs: 1, writeShare: share, batchRows: 10_000_000 });
    writes.length = 0;
    const ids: string[] = [];
    // At least 4 s, and on a busy machine (the first write after opening can take a second or two,
    // then rests three times that) until a third write began, or at most 30 s.
    const until = Date.now() + 4000;
    const cap = Date.now() + 30_000;
    for (let seed = 1; (Date.now() < until || writes.length < 3) && Date.now() < cap; seed++) ids.push((await playBlitz(seed, sink)).result.matchId);
    const background = writes.length;
    await sink.drain();
    expect(writes.every((w) => w.end >= w.start && w.end > 0)).toBe(true);
    // Several background writes, and fewer of them than matches: the rests gathered matches into batches.
    expect(background).toBeGreaterThanOrEqual(2);
    expect(background).toBeLessThan(ids.length);
    for (let i = 1; i < background; i++) {
      const before = writes[i - 1]!;
      const rest = (before.end - before.start) * ((1 - share) / share);
      // Date.now() is whole milliseconds, and the sink's clock read is a moment before or after ours.
      expect(writes[i]!.start - before.end).toBeGreaterThanOrEqual(Math.floor(rest) - 3);
    }
    const landed = await rowsOf(t, `SELECT count() AS n FROM (SELECT DISTINCT match_id FROM ${t.database}.matches)`);
    expect(Number(landed[0]?.n)).toBe(ids.length);
  }, 60_000);

  it('writes as soon as linger allows with writeShare 1, and refuses a share outside (0, 1]', async () => {
    const sink = t.sink({ lingerMs: 1, writeShare: 1 });
    writes.length = 0;
    const n = 12;
    for (let seed = 1001; seed < 1001 + n; seed++) {
      await playBlitz(seed, sink);
      // Give the background write time to start and end between matches.
      for (const until = Date.now() + 2000; (writes.length === 0 || writes.at(-1)!.end === 0) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 5));
    }
    await sink.drain();
    // No rest: every match, played after the last write ended, went out in a write of its own.
    expect(writes.length).toBe(n);
    expect(() => t.sink({ writeShare: 0 })).toThrow(/writeShare must be a share of the time above 0 and at most 1; got 0/);
    expect(() => t.sink({ writeShare: 1.5 })).toThrow(/got 1.5/);
  }, 60_000);
});
