/**
 * RemoteSink and serveSink: real Blitz! matches played in a worker thread, their rows posted to this
 * thread and written to an embedded store here (the layout ARCHITECTURE.md prescribes), exactly once;
 * the game side's backlog bound; store-side failures reported on the game side.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionRow, EventRow, ImpulseRow, MatchRow, TelemetrySink } from '@salient/runner';
import { SalientError } from '@salient/engine';
import { openTelemetry, RemoteSink, serveSink, type EncodedRows, type Telemetry } from '../src/index.ts';
import type { PlayRemoteData, PlayRemoteReport } from './fixtures/play-remote.ts';

let root = '';
let telemetry: Telemetry | undefined;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'salient-remote-'));
  telemetry = await openTelemetry({ kind: 'embedded', path: join(root, 'clickhouse'), spoolDir: join(root, 'spool') });
});

afterAll(async () => {
  await telemetry?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Play in a worker whose rows are served into `sink` on this thread; resolve with the worker's report once the sink closed. */
async function playInWorker(data: PlayRemoteData, sink: TelemetrySink & { drain?(): Promise<void> }) {
  const worker = new Worker(new URL('./fixtures/play-remote.mjs', import.meta.url), { workerData: data });
  const served = serveSink(worker, sink);
  try {
    const report = await new Promise<PlayRemoteReport>((resolve, reject) => {
      worker.on('message', (m: unknown) => {
        if ((m as PlayRemoteReport)?.salientTest === 'done') resolve(m as PlayRemoteReport);
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`worker exited (${code}) before reporting`)));
    });
    await served.closed;
    return { report, served };
  } finally {
    served.stop();
    await worker.terminate();
  }
}

async function count(t: Telemetry, table: string, ids: readonly string[]): Promise<number> {
  const rs = await t.client.query({
    query: `SELECT count() AS n FROM ${t.database}.${table} FINAL WHERE match_id IN {ids:Array(String)}`,
    query_params: { ids },
    format: 'JSONEachRow',
  });
  const [row] = await rs.json<{ n: string | number }>();
  return Number(row?.n ?? 0);
}

/** A store-side sink that keeps the encoded lines it is handed, by match and table, in order. */
class LinesCapture implements TelemetrySink {
  readonly byMatch = new Map<string, { impulses: string[]; events: string[]; decisions: string[]; match: string[] }>();
  count = 0;
  impulse(): void {}
  event(): void {}
  match(): void {}
  lines(rows: EncodedRows): void {
    let m = this.byMatch.get(rows.matchId);
    if (!m) this.byMatch.set(rows.matchId, (m = { impulses: [], events: [], decisions: [], match: [] }));
    for (const table of ['impulses', 'events', 'decisions'] as const) {
      for (const line of rows[table]) {
        m[table].push(line);
        this.count++;
      }
    }
    if (rows.match !== undefined) {
      m.match.push(rows.match);
      this.count++;
    }
  }
  /** The lines as parsed rows, times left out (measured, so they differ between two plays of a match). */
  tables(): Record<string, Record<string, unknown[]>> {
    const parse = (line: string) => {
      const { think_ms: _t, wall_ms: _w, started_at: _s, ended_at: _e, ...rest } = JSON.parse(line) as Record<string, unknown>;
      return rest;
    };
    const out: Record<string, Record<string, unknown[]>> = {};
    for (const [id, m] of this.byMatch) out[id] = Object.fromEntries(Object.entries(m).map(([t, lines]) => [t, lines.map(parse)]));
    return out;
  }
}

/** A store-side sink that takes its time over every flush (tests the transport, not ClickHouse). */
class SlowSink implements TelemetrySink {
  rows = 0;
  flushes = 0;
  constructor(
    private readonly ms: number,
    private readonly failAtFlush = -1,
  ) {}
  impulse(_: ImpulseRow): void {
    this.rows++;
  }
  event(_: EventRow): void {
    this.rows++;
  }
  decision(_: DecisionRow): void {
    this.rows++;
  }
  match(_: MatchRow): void {
    this.rows++;
  }
  async flush(): Promise<void> {
    if (this.flushes++ === this.failAtFlush) throw new SalientError('TELEMETRY_SCHEMA', 'store side: table impulses is missing');
    await new Promise((r) => setTimeout(r, this.ms));
  }
}

describe('RemoteSink from a worker thread to the store on the main thread', () => {
  it('writes every row of the matches the worker played, exactly once', async () => {
    const t = telemetry as Telemetry;
    const sink = t.sink({ decisionSample: 1 });
    const { report, served } = await playInWorker({ games: 12, firstSeed: 1, options: { decisionSample: 1 } }, sink);
    expect(report.errors).toEqual([]);
    expect(report.matches).toBe(12);
    expect(new Set(report.matchIds).size).toBe(12);
    // One message per finished match.
    expect(served.batches).toBe(12);
    expect(report.impulses).toBeGreaterThan(0);
    expect(report.events).toBeGreaterThan(0);
    // The drain at close wrote everything: no waiting on the sink's background writes here.
    expect(sink.backlogRows).toBe(0);
    expect(sink.buffered).toBe(0);
    const ids = report.matchIds;
    expect({
      matches: await count(t, 'matches', ids),
      impulses: await count(t, 'impulses', ids),
      events: await count(t, 'events', ids),
      decisions: await count(t, 'decisions', ids),
    }).toEqual({ matches: report.matches, impulses: report.impulses, events: report.events, decisions: report.decisions });
    // Exactly once: FINAL collapses re-sent rows, so the plain counts must agree too.
    const rs = await t.client.query({ query: `SELECT count() AS n FROM ${t.database}.impulses WHERE match_id IN {ids:Array(String)}`, query_params: { ids }, format: 'JSONEachRow' });
    expect(Number((await rs.json<{ n: string }>())[0]?.n)).toBe(report.impulses);
  });

  it('sends only the sampled decisions when told the store sink rate', async () => {
    const t = telemetry as Telemetry;
    const all = { n: 0 };
    const counting: TelemetrySink = { impulse: () => {}, event: () => {}, decision: () => void all.n++, match: () => {} };
    const { report } = await playInWorker({ games: 3, firstSeed: 50, options: { decisionSample: 0.1, encoding: 'rows' } }, counting);
    expect(report.errors).toEqual([]);
    expect(all.n).toBeGreaterThan(0);
    expect(all.n).toBeLessThan(report.decisions * 0.3);
    // The same three matches through a store sink sampling at 0.1 keep the same decisions.
    const sink = t.sink({ decisionSample: 0.1 });
    const second = await playInWorker({ games: 3, firstSeed: 50, options: { decisionSample: 0.1 } }, sink);
    expect(await count(t, 'decisions', second.report.matchIds)).toBe(all.n);
  });

  it('keeps at most maxUnacked batches outstanding: flush waits for a slow store', async () => {
    // 25 ms a batch: slow enough that the game side outruns it even when a loaded machine slows the
    // game thread (at 5 ms the store kept up in a full suite run, and nothing waited).
    const slow = new SlowSink(25);
    const { report } = await playInWorker({ games: 2, firstSeed: 7, options: { maxUnacked: 3, packRows: 1, encoding: 'rows' } }, slow);
    expect(report.errors).toEqual([]);
    expect(report.waits).toBeGreaterThan(0);
    // One over the bound at most: the batch just posted, before flush waits.
    expect(report.maxOutstanding).toBeLessThanOrEqual(4);
    expect(report.maxOutstanding).toBeGreaterThanOrEqual(3);
    expect(slow.rows).toBeGreaterThan(0);
  });

  it('posts the rows of an unfinished match once packRows of them are held', async () => {
    const counting = new SlowSink(0);
    const { report, served } = await playInWorker({ games: 2, firstSeed: 7, options: { packRows: 20, encoding: 'rows' } }, counting);
    expect(report.errors).toEqual([]);
    // A Blitz! A match has some 30 to 40 rows in all, the impulse rows 8 apart: more batches than matches.
    expect(served.batches).toBeGreaterThan(2);
    expect(counting.rows).toBe(report.impulses + report.events + report.decisions + report.matches);
  });

  it('encodes on the game thread when asked (lines): the same rows in the store as the store sink encoding them', async () => {
    const t = telemetry as Telemetry;
    // Lines encoded in the worker and rows encoded here, for the same seeds, into one store.
    const lines = await playInWorker({ games: 4, firstSeed: 70, options: { encoding: 'lines' } }, t.sink());
    expect(lines.report.errors).toEqual([]);
    const ids = lines.report.matchIds;
    const dump = async (table: string) => {
      const rs = await t.client.query({
        query: `SELECT * FROM ${t.database}.${table} FINAL WHERE match_id IN {ids:Array(String)} ORDER BY match_id, ${table === 'matches' ? 'match_id' : 'seq'}`,
        query_params: { ids },
        format: 'JSONEachRow',
      });
      // Think times are measured, so they differ between two plays of a match; everything else is the same.
      return (await rs.json<Record<string, unknown>>()).map(({ think_ms: _, ...rest }) => rest);
    };
    const before = { impulses: await dump('impulses'), events: await dump('events'), decisions: await dump('decisions') };
    expect(before.impulses.length).toBe(lines.report.impulses);
    expect(before.events.length).toBe(lines.report.events);
    // decisions sampled in the worker at the store sink's default rate: some, not all
    expect(before.decisions.length).toBeGreaterThan(0);
    expect(before.decisions.length).toBeLessThan(lines.report.decisions * 0.3);
    await t.client.command({ query: `TRUNCATE TABLE ${t.database}.impulses` });
    await t.client.command({ query: `TRUNCATE TABLE ${t.database}.events` });
    await t.client.command({ query: `TRUNCATE TABLE ${t.database}.decisions` });
    const rows = await playInWorker({ games: 4, firstSeed: 70, options: { encoding: 'rows' } }, t.sink());
    expect(rows.report.matchIds).toEqual(ids);
    expect({ impulses: await dump('impulses'), events: await dump('events'), decisions: await dump('decisions') }).toEqual(before);
  });

  it('packs the rows by default: the same rows in the store as from lines encoded on the game thread, match rows too', async () => {
    const t = telemetry as Telemetry;
    const tables = ['impulses', 'events', 'decisions', 'matches'] as const;
    const dump = async (table: string, ids: readonly string[]) => {
      const rs = await t.client.query({
        query: `SELECT * FROM ${t.database}.${table} FINAL WHERE match_id IN {ids:Array(String)} ORDER BY match_id, ${table === 'matches' ? 'match_id' : 'seq'}`,
        query_params: { ids },
        format: 'JSONEachRow',
      });
      // Times are measured (think, wall) or the clock's (start, end): they differ between two plays of a match.
      return (await rs.json<Record<string, unknown>>()).map(({ think_ms: _t, wall_ms: _w, started_at: _s, ended_at: _e, ...rest }) => rest);
    };
    const truncate = async () => {
      for (const table of tables) await t.client.command({ query: `TRUNCATE TABLE ${t.database}.${table}` });
    };
    await truncate();
    const lines = await playInWorker({ games: 4, firstSeed: 90, options: { encoding: 'lines' } }, t.sink());
    expect(lines.report.errors).toEqual([]);
    const ids = lines.report.matchIds;
    const before: Record<string, unknown[]> = {};
    for (const table of tables) before[table] = await dump(table, ids);
    expect(before.matches?.length).toBe(4);
    expect(before.impulses?.length).toBe(lines.report.impulses);
    await truncate();
    // packRows 7: pieces of unfinished matches are posted as well as whole ones.
    const packed = await playInWorker({ games: 4, firstSeed: 90, options: { packRows: 7 } }, t.sink());
    expect(packed.report.errors).toEqual([]);
    expect(packed.report.matchIds).toEqual(ids);
    expect(packed.served.batches).toBeGreaterThan(4);
    const after: Record<string, unknown[]> = {};
    for (const table of tables) after[table] = await dump(table, ids);
    expect(after).toEqual(before);
  });

  it('hands the store side every encoded line as it was encoded, whole matches or pieces of them', async () => {
    // packRows 5: the lines of unfinished matches are posted a few at a time, as well as whole matches.
    const whole = new LinesCapture();
    const pieces = new LinesCapture();
    const a = await playInWorker({ games: 3, firstSeed: 21, options: { decisionSample: 1, encoding: 'lines' } }, whole);
    const b = await playInWorker({ games: 3, firstSeed: 21, options: { decisionSample: 1, packRows: 5, encoding: 'lines' } }, pieces);
    expect([...a.report.errors, ...b.report.errors]).toEqual([]);
    expect(b.served.batches).toBeGreaterThan(a.served.batches);
    const r = b.report;
    expect(pieces.count).toBe(r.impulses + r.events + r.decisions + r.matches);
    expect(pieces.tables()).toEqual(whole.tables());
  });

  it('says what to do when encoded lines reach a sink that cannot take them', async () => {
    const { report } = await playInWorker({ games: 1, firstSeed: 3, options: { encoding: 'lines' } }, new SlowSink(0));
    expect(report.errors[0]).toMatchObject({ code: 'BAD_ARGUMENT', message: expect.stringContaining("create its RemoteSink with { encoding: 'rows' }") });
  });

  it('sends every strike whatever the sample, in every encoding', async () => {
    const position = { turn: 1, impulse: 1, phase: 'p', step: 's' };
    const decision = (seq: number, strike?: number): DecisionRow => ({
      matchId: 'struck',
      seq,
      impulseSeq: 0,
      position,
      power: 'GER',
      seat: 'Axis',
      prompt: 'rebase-pick',
      optionCount: 2,
      choice: 'done',
      thinkMs: 1,
      ...(strike === undefined ? {} : { strike, rationale: `timeout strike ${strike} of 3: ...` }),
    });
    for (const encoding of ['lines', 'rows', 'packed'] as const) {
      const posted: unknown[] = [];
      // packRows 1: flush posts what is held at once.
      const sink = new RemoteSink({ postMessage: (m) => void posted.push(m), on: () => undefined, off: () => undefined }, { decisionSample: 0, encoding, packRows: 1 });
      for (const [seq, strike] of [[0], [1, 1], [2], [3, 2]] as [number, number?][]) sink.decision(decision(seq, strike));
      await sink.flush();
      const sent = JSON.stringify(posted);
      const strikes = [...sent.matchAll(/\\?"strike\\?":(\d)/g)].map((m) => Number(m[1]));
      expect(strikes, encoding).toEqual([1, 2]);
    }
  });

  it('refuses a packRows that is not a whole number of at least 1', async () => {
    const { RemoteSink } = await import('../src/index.ts');
    const { MessageChannel } = await import('node:worker_threads');
    const ch = new MessageChannel();
    try {
      expect(() => new RemoteSink(ch.port1, { packRows: 0 })).toThrow(/packRows must be a whole number of at least 1; got 0/);
    } finally {
      ch.port1.close();
      ch.port2.close();
    }
  });

  it('does not wait for a store that keeps up with a generous bound', async () => {
    const fast = new SlowSink(0);
    const { report } = await playInWorker({ games: 2, firstSeed: 7, options: { maxUnacked: 100_000, encoding: 'rows' } }, fast);
    expect(report.errors).toEqual([]);
    expect(report.waits).toBe(0);
  });

  it('reports a failure on the store side to the game side, by the next flush', async () => {
    const failing = new SlowSink(1, 3);
    // One batch unacknowledged at most: match 5's flush waits for batch 4's answer, which carries the failure
    // (with the default backlog a fast game side could finish all five before it arrives: the failure then comes by close).
    const { report } = await playInWorker({ games: 5, firstSeed: 9, options: { encoding: 'rows', maxUnacked: 1 } }, failing);
    expect(report.matches).toBe(4);
    expect(report.errors[0]).toMatchObject({ code: 'TELEMETRY_SCHEMA', message: 'store side: table impulses is missing' });
    expect(report.errors[0]?.where).toBe('match 4');
  });

  it('reports a failure of the closing drain to the game side, by close', async () => {
    const sink: TelemetrySink & { drain(): Promise<void> } = {
      impulse: () => {},
      event: () => {},
      match: () => {},
      drain: async () => {
        throw new SalientError('TELEMETRY_AUTH', 'store side: drain refused');
      },
    };
    const { report } = await playInWorker({ games: 1, firstSeed: 3, options: { encoding: 'rows' } }, sink);
    expect(report.matches).toBe(1);
    expect(report.errors).toEqual([{ where: 'close', code: 'TELEMETRY_AUTH', message: 'store side: drain refused' }]);
  });
});
