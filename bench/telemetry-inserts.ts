/**
 * What one write of the telemetry sink costs the store, fixed and per row: the rows of real Blitz! A
 * games (random bots, every impulse and event row, decisions sampled as the sink does) are captured
 * once, then written by a `ClickHouseSink` in batches of B games (one `drain` per batch: the four
 * table inserts and the dashboard's counting of the matches), the batch sizes taken in turn so they
 * see the same machine. Every batch holds games not written before (a re-sent match costs the
 * counting less). For each write: the CPU time of this process (all threads: the client, chdb) and,
 * for the server, of the server process, during the write and then while the store merges what it
 * wrote (until system.merges is empty), less what the store burns idle (measured before). The
 * least-squares line through (rows, CPU) gives the fixed cost per write and the cost per row, and so
 * the model CPU/game = fixed × writes/game + per-row × rows/game + merges.
 *
 *   BENCH_STORES=embedded,server BENCH_BATCHES=1,30,300 BENCH_REPEATS=6 node --import tsx bench/telemetry-inserts.ts
 *
 * The CPU time of each table's insert is kept apart (the store's views of that table run in it), the
 * rest of a write being the dashboard's counting (`countMatches`). BENCH_DROP_VIEWS names materialized
 * views dropped in the bench's own store before the writes, to see what they cost (an experiment: the
 * dashboard needs them).
 *
 * BENCH_FEED=packed feeds the sink as `serveSink` does for a RemoteSink's `packed` batches (each
 * game packed beforehand, then `unpackRows` into the sink), so the encoding column also holds the
 * store thread's parsing and unpacking.
 *
 * BENCH_SETTINGS: ClickHouse settings sent with every insert, `name=value,...` (for trying insert
 * settings; each value as given, a number where it reads as one). BENCH_SYSTEM=1 also prints what
 * system.part_log and system.query_log (where the store keeps them) say of the last writes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SalientError } from '@salient/engine';
import { blitz } from '@salient/game-blitz';
import { createBot } from '@salient/bots';
import { runMatch, type DecisionRow, type EventRow, type ImpulseRow, type MatchRow, type TelemetrySink } from '@salient/runner';
import type { Telemetry } from '@salient/telemetry';
import { blitzPack, median, ownCpuMs, processCpuMs } from './support.ts';

type Call = { k: 'i'; r: ImpulseRow } | { k: 'e'; r: EventRow } | { k: 'd'; r: DecisionRow } | { k: 'm'; r: MatchRow };

/** Keeps every call the runner makes, per game. */
class CaptureSink implements TelemetrySink {
  calls: Call[] = [];
  impulse(r: ImpulseRow): void {
    this.calls.push({ k: 'i', r });
  }
  event(r: EventRow): void {
    this.calls.push({ k: 'e', r });
  }
  decision(r: DecisionRow): void {
    this.calls.push({ k: 'd', r });
  }
  match(r: MatchRow): void {
    this.calls.push({ k: 'm', r });
  }
}

function envList(name: string, fallback: string): string[] {
  return (process.env[name] || fallback)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function envSettings(): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const kv of envList('BENCH_SETTINGS', '')) {
    const [k, v] = kv.split('=');
    if (!k || v === undefined) throw new SalientError('BAD_ARGUMENT', `BENCH_SETTINGS: '${kv}' is not name=value`);
    out[k] = Number.isFinite(Number(v)) ? Number(v) : v;
  }
  return out;
}

interface OpenStore {
  telemetry: Telemetry;
  pid: number | undefined;
  close(): Promise<void>;
}

async function open(kind: 'embedded' | 'server', tmp: string): Promise<OpenStore> {
  const { openTelemetry } = await import('@salient/telemetry');
  if (kind === 'embedded') {
    const telemetry = await openTelemetry({ kind: 'embedded', path: join(tmp, 'chdb'), spoolDir: join(tmp, 'spool-embedded') });
    return { telemetry, pid: undefined, close: () => telemetry.close() };
  }
  const { SALIENT_PASSWORD, startClickHouseServer } = await import('../packages/telemetry/test/support/clickhouse-server.ts');
  const server = await startClickHouseServer();
  const telemetry = await openTelemetry({
    kind: 'server',
    url: server.url,
    username: 'salient',
    password: SALIENT_PASSWORD,
    database: 'salient_inserts',
    spoolDir: join(tmp, 'spool-server'),
  });
  return {
    telemetry,
    pid: server.pid,
    close: async () => {
      await telemetry.close();
      await server.dispose();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const stores = envList('BENCH_STORES', 'embedded,server') as ('embedded' | 'server')[];
  const batches = envList('BENCH_BATCHES', '1,30,300').map(Number);
  const repeats = Number(process.env.BENCH_REPEATS || 6);
  const settings = envSettings();
  const perStore = repeats * batches.reduce((a, b) => a + b, 0);
  const pack = blitzPack();
  // The games, played once; both stores write the same ones.
  const games: Call[][] = [];
  for (let i = 0; i < perStore; i++) {
    const sink = new CaptureSink();
    await runMatch({ game: blitz, pack, scenario: 'A', seed: 1 + i, seats: { Axis: createBot('random'), Allies: createBot('random') }, seatSpecs: { Axis: 'random', Allies: 'random' }, sink });
    games.push(sink.calls);
  }
  const packed = process.env.BENCH_FEED === 'packed';
  const { RowPacker, unpackRows } = await import('../packages/telemetry/src/packed-rows.ts');
  const batchesOf = packed
    ? games.map((calls) => {
        const p = new RowPacker();
        for (const c of calls) {
          if (c.k === 'i') p.impulse(c.r);
          else if (c.k === 'e') p.event(c.r);
          else if (c.k === 'd') p.decision(c.r);
          else p.match(c.r);
        }
        return p.take();
      })
    : [];
  const load0 = loadavg()[0] ?? 0;
  const out: string[] = [];
  for (const kind of stores) {
    const tmp = mkdtempSync(join(tmpdir(), 'salient-inserts-'));
    const store = await open(kind, tmp);
    const { telemetry, pid } = store;
    const cpu = () => ownCpuMs() + (processCpuMs(pid) ?? 0);
    const client = telemetry.client;
    const rowsOf = { n: 0 };
    /** The largest insert's rows of each table, for the probes. */
    const lastValues = new Map<string, unknown[]>();
    /** CPU ms of each table's inserts, and its rows, over the whole run. */
    const byTable = new Map<string, { ms: number; rows: number; inserts: number }>();
    const insert = client.insert.bind(client);
    client.insert = (async (params: Parameters<typeof insert>[0]) => {
      const rows = Array.isArray(params.values) ? params.values.length : 0;
      rowsOf.n += rows;
      const name = params.table.split('.').pop() as string;
      if (Array.isArray(params.values) && rows > (lastValues.get(name)?.length ?? 0)) lastValues.set(name, params.values as unknown[]);
      const c0 = cpu();
      const r = await insert({ ...params, ...(Object.keys(settings).length ? { clickhouse_settings: { ...params.clickhouse_settings, ...settings } } : {}) });
      const t = byTable.get(params.table.split('.').pop() as string) ?? { ms: 0, rows: 0, inserts: 0 };
      t.ms += cpu() - c0;
      t.rows += rows;
      t.inserts++;
      byTable.set(params.table.split('.').pop() as string, t);
      return r;
    }) as typeof client.insert;
    for (const view of envList('BENCH_DROP_VIEWS', '')) await client.command({ query: `DROP TABLE IF EXISTS ${telemetry.database}.${view}` });
    const merging = async (): Promise<number> => {
      const rs = await client.query({ query: `SELECT count() AS n FROM system.merges`, format: 'JSONEachRow' });
      const [row] = await rs.json<{ n: number | string }>();
      return Number(row?.n ?? 0);
    };
    const settle = async () => {
      const until = performance.now() + 30_000;
      // Merges start a little after a write: look twice, 100 ms apart, before calling it settled.
      for (let quiet = 0; quiet < 2 && performance.now() < until; ) {
        await sleep(100);
        quiet = (await merging()) > 0 ? 0 : quiet + 1;
      }
    };
    // What the store (and this process, waiting) burn doing nothing, per ms.
    await settle();
    const i0 = cpu();
    const t0 = performance.now();
    await sleep(3000);
    const idlePerMs = (cpu() - i0) / (performance.now() - t0);
    const sink = telemetry.sink({ lingerMs: 1e9, batchRows: 1e9 });
    let next = 0;
    const points: { games: number; rows: number; write: number; merge: number; encode: number }[] = [];
    for (let r = 0; r < repeats; r++) {
      for (let k = 0; k < batches.length; k++) {
        const b = batches[(k + r) % batches.length] as number;
        const e0 = cpu();
        for (let g = 0; g < b; g++) {
          if (packed) {
            const batch = batchesOf[next++];
            if (batch) unpackRows(batch, sink);
            await sink.flush();
            continue;
          }
          for (const c of games[next++] as Call[]) {
            if (c.k === 'i') sink.impulse(c.r);
            else if (c.k === 'e') sink.event(c.r);
            else if (c.k === 'd') sink.decision(c.r);
            else sink.match(c.r);
          }
          await sink.flush();
        }
        rowsOf.n = 0;
        const w0 = cpu();
        const wt = performance.now();
        await sink.drain();
        const w1 = cpu();
        const wt1 = performance.now();
        await settle();
        const m1 = cpu();
        const mt1 = performance.now();
        points.push({ games: b, rows: rowsOf.n, encode: w0 - e0, write: w1 - w0 - idlePerMs * (wt1 - wt), merge: m1 - w1 - idlePerMs * (mt1 - wt1) });
      }
    }
    // Least squares of write CPU on rows.
    const n = points.length;
    const mx = points.reduce((a, p) => a + p.rows, 0) / n;
    const my = points.reduce((a, p) => a + p.write, 0) / n;
    const sxy = points.reduce((a, p) => a + (p.rows - mx) * (p.write - my), 0);
    const sxx = points.reduce((a, p) => a + (p.rows - mx) ** 2, 0);
    const perRow = sxy / sxx;
    const fixed = my - perRow * mx;
    out.push(
      `### ${kind === 'embedded' ? 'embedded ClickHouse (chdb)' : 'ClickHouse server (Debian 18.16)'}${Object.keys(settings).length ? `, insert settings ${JSON.stringify(settings)}` : ''}${process.env.BENCH_DROP_VIEWS ? `, views dropped: ${process.env.BENCH_DROP_VIEWS}` : ''}`,
      '',
      `idle: ${(idlePerMs * 1000).toFixed(1)} ms CPU per s (subtracted). Fit over ${n} writes: **fixed ${fixed.toFixed(1)} ms per write, ${(perRow * 1000).toFixed(1)} µs per row**.`,
      '',
      `| games per write | rows per write (median) | write CPU ms (median) | per game | merge CPU ms after it (median) | per game | ${packed ? 'unpacking and encoding' : 'encoding'} in the sink, ms per game |`,
      '|---:|---:|---:|---:|---:|---:|---:|',
    );
    for (const b of batches) {
      const ps = points.filter((p) => p.games === b);
      const w = median(ps.map((p) => p.write));
      const m = median(ps.map((p) => p.merge));
      out.push(
        `| ${b} | ${median(ps.map((p) => p.rows))} | ${w.toFixed(1)} | ${(w / b).toFixed(3)} | ${m.toFixed(1)} | ${(m / b).toFixed(3)} | ${(median(ps.map((p) => p.encode)) / b).toFixed(3)} |`,
      );
    }
    const total = points.reduce((a, p) => a + p.write, 0);
    const written = points.reduce((a, p) => a + p.games, 0);
    let inTables = 0;
    out.push('', 'By table over every write (each insert with the views it feeds): CPU ms per insert, µs per row, ms per game.', '');
    for (const [table, t] of byTable) {
      inTables += t.ms;
      out.push(`- ${table}: ${t.inserts} inserts, ${(t.ms / t.inserts).toFixed(1)} ms per insert, ${((1000 * t.ms) / Math.max(1, t.rows)).toFixed(1)} µs per row, ${(t.ms / written).toFixed(3)} ms per game`);
    }
    out.push(`- the rest of the writes (the dashboard's counting, countMatches): ${((total - inTables) / points.length).toFixed(1)} ms per write, ${((total - inTables) / written).toFixed(3)} ms per game`, '');
    if (process.env.BENCH_PROBE === '1') {
      // The same rows into copies of each table: without its views (same engine), into a plain
      // MergeTree, and into a Null table (parsed, nothing stored): what parsing, storing and the
      // views each cost.
      out.push('Probes: the largest insert of each table again, into copies (median of 3, CPU ms, µs per row):', '');
      const db = telemetry.database;
      for (const [table, values] of lastValues) {
        const copies: Record<string, string> = {
          'same engine, no views': `CREATE TABLE ${db}.probe_same AS ${db}.${table}`,
          MergeTree: `CREATE TABLE ${db}.probe_mt AS ${db}.${table} ENGINE = MergeTree ORDER BY tuple()`,
          Null: `CREATE TABLE ${db}.probe_null AS ${db}.${table} ENGINE = Null`,
        };
        const cells: string[] = [];
        for (const [label, ddl] of Object.entries(copies)) {
          const probe = ddl.split(' ')[2] as string;
          const ms: number[] = [];
          for (let k = 0; k < 3; k++) {
            await client.command({ query: `DROP TABLE IF EXISTS ${probe}` });
            await client.command({ query: ddl });
            const c0 = cpu();
            await insert({ table: probe, values, format: 'JSONEachRow', ...(Object.keys(settings).length ? { clickhouse_settings: settings } : {}) });
            ms.push(cpu() - c0);
            await client.command({ query: `DROP TABLE IF EXISTS ${probe}` });
          }
          const m = median(ms);
          cells.push(`${label} ${m.toFixed(1)} ms (${((1000 * m) / values.length).toFixed(1)} µs/row)`);
        }
        // The same rows as JSONCompactEachRow (values in a fixed column order, no names), where the
        // store has that format, into a Null table: what parsing the names costs.
        const cols = Object.keys(JSON.parse(values[0] as string) as object);
        const compact = values.map((v) => JSON.stringify(Object.values(JSON.parse(v as string) as object)));
        const ms: number[] = [];
        try {
          for (let k = 0; k < 3; k++) {
            await client.command({ query: `DROP TABLE IF EXISTS ${db}.probe_null` });
            await client.command({ query: copies.Null as string });
            const c0 = cpu();
            await client.exec({ query: `INSERT INTO ${db}.probe_null (${cols.join(', ')}) FORMAT JSONCompactEachRow\n${compact.join('\n')}` });
            ms.push(cpu() - c0);
          }
          const m = median(ms);
          cells.push(`Null, JSONCompactEachRow ${m.toFixed(1)} ms (${((1000 * m) / values.length).toFixed(1)} µs/row; ${(compact.join('\n').length / values.join('\n').length).toFixed(2)} of the bytes)`);
        } catch (e) {
          cells.push(`JSONCompactEachRow: ${String((e as Error).message).split('\n')[0]?.slice(0, 100)}`);
        }
        await client.command({ query: `DROP TABLE IF EXISTS ${db}.probe_null` });
        out.push(`- ${table}, ${values.length} rows: ${cells.join('; ')}`);
      }
      out.push('');
    }
    if (process.env.BENCH_SYSTEM === '1') out.push(...(await systemFigures(telemetry)), '');
    await store.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  const load1 = loadavg()[0] ?? 0;
  process.stdout.write(`Telemetry writes, Blitz A random, ${repeats} rounds of batches of ${batches.join(', ')} games; load average ${load0.toFixed(2)} at the start, ${load1.toFixed(2)} at the end.\n\n${out.join('\n')}\n`);
}

/** What the store's own logs say of parts and queries, where it keeps them. */
async function systemFigures(telemetry: Telemetry): Promise<string[]> {
  const lines: string[] = [];
  const ask = async (title: string, sql: string) => {
    try {
      const rs = await telemetry.client.query({ query: sql, format: 'JSONEachRow' });
      const rows = await rs.json<Record<string, unknown>>();
      lines.push(`${title}:`, ...rows.map((r) => `  ${JSON.stringify(r)}`));
    } catch (e) {
      lines.push(`${title}: not available (${String((e as Error).message).split('\n')[0]?.slice(0, 160)})`);
    }
  };
  await ask('tables', `SELECT name, engine FROM system.tables WHERE database = '${telemetry.database}' ORDER BY name`);
  await ask(
    'part_log by table and event',
    `SELECT table, event_type, count() AS n, sum(rows) AS rows, round(avg(duration_ms), 1) AS avg_ms FROM system.part_log WHERE database = '${telemetry.database}' GROUP BY table, event_type ORDER BY n DESC`,
  );
  await ask(
    'query_log: inserts and other writes, by kind',
    `SELECT substring(query, 1, 60) AS q, count() AS n, round(avg(query_duration_ms), 1) AS avg_ms, sum(written_rows) AS written FROM system.query_log WHERE type = 2 AND query LIKE 'INSERT%' GROUP BY q ORDER BY n DESC LIMIT 20`,
  );
  return lines;
}

await main();
