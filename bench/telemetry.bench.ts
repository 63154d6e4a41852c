/**
 * What storing telemetry costs: Blitz! scenario A, random bots on both seats, played one after another
 * with `runMatch` on one thread, side by side in one run with
 *
 *   - `none`: no sink, the baseline every overhead is measured against;
 *   - `counting`: a sink that keeps nothing, so what the runner pays to build the rows (state hashes,
 *     summaries, row objects) is told apart from what the store costs;
 *   - `embedded`: the embedded ClickHouse sink (chdb over a temporary data directory), as configured
 *     by default: finished matches written in background batches (see the sink's `lingerMs` and
 *     `batchRows`), the game never waiting for the store unless a full batch queues behind another;
 *   - `embedded-linger`: the same store with `lingerMs: BENCH_LINGER_MS` (default 250), so batches go
 *     out during a round rather than mostly at its end;
 *   - `server`, `server-linger`: the same two against a ClickHouse server (the Debian
 *     clickhouse-server, started on free ports in a temporary directory by the telemetry package's
 *     test helper).
 *
 * and the same games played in a worker thread (the layout of tournaments: the thread that owns the store
 * owns it alone, and games post their rows to it), with
 *
 *   - `worker-none`: no sink, the baseline of the worker cases;
 *   - `worker-embedded`, `worker-server`: a `RemoteSink` in the worker (`encoding: 'lines'`) encoding
 *     the rows as the store writes them and posting them (one message per finished match; decisions sampled at the store
 *     sink's rate before they are encoded) to this thread, where `serveSink` hands the lines to the
 *     store's default sink, which batches and inserts them. A round is timed from telling the worker
 *     to play until the worker reported its games, every batch was fed to the sink and the sink drained;
 *   - `worker-embedded-rows`: the same into the embedded store, but the worker's `RemoteSink` posts the
 *     runner's rows as they are (`encoding: 'rows'`, one JSON text per match) and this thread encodes
 *     them: less work on the game thread, more on the store's, for comparing where the encoding runs;
 *   - `worker-embedded-packed`: the same with the rows packed as JSON arrays of their fields
 *     (`encoding: 'packed'`, the RemoteSink's default), unpacked and encoded on this thread.
 *
 * One game worker plays every worker case, and the worker layout's rounds come after the one-thread
 * layout's, so no idle isolate tidies its heap next to the case being timed.
 *
 * Every case plays the same seeds in a round and the cases alternate over the rounds, so a burst of
 * load elsewhere hits all of them; games/s is the median round, the overhead the median over rounds of
 * each round's drop against the baseline's same round (a store case's CPU time is counted until its
 * store runs no merge: the merges its inserts started are its own), and the target is a drop of at most
 * 10% against no sink (for the worker cases: against the worker without a sink). Rows/s counts the impulse, event, decision and match rows the sink inserted
 * (as the client sent them) per second of a round, median round. Every insert is timed (wall time; with
 * background writes the game goes on meanwhile), and so is the drain that closes each round, which
 * waits for whatever the sink still holds to be written: that wait is part of the round's time.
 *
 * Wall-clock rates on a shared VM swing by tens of percent when the host takes the cores away, so each
 * round also counts CPU time: this process's (the games, the sink, the worker thread, V8's helper
 * threads and chdb's threads) and, in the server cases, the ClickHouse server process's. CPU ms per
 * game against the baseline is what telemetry costs a machine whose every core plays games; the
 * games/s figure is what it costs one game thread with a core to spare, the layout measured here.
 *
 *   npm run bench:telemetry
 *   BENCH_GAMES=40 BENCH_ROUNDS=3 npm run bench:telemetry     # quicker
 *
 * Environment: BENCH_GAMES (games per case, default 200), BENCH_ROUNDS (default 5), BENCH_SEED (first
 * seed, default 1), BENCH_SINKS (cases, comma-separated, default all of the above; `none` always runs, and
 * `worker-none` whenever a worker case is asked), BENCH_BATCH_ROWS and BENCH_DECISION_SAMPLE (given to every store sink; default: the sink's defaults),
 * BENCH_LINGER_MS (for the `-linger` cases, default 250), BENCH_STORE_LINGER_MS (`lingerMs` of every other store sink; default: the sink's), BENCH_WRITE_SHARE (`writeShare` of every store sink; default: the sink's; 1 writes as often as linger allows), BENCH_MAX_UNACKED (the worker's RemoteSink bound, default its own), BENCH_OUT_DIR (default bench/out),
 * BENCH_RESULTS (markdown file to update, default bench/RESULTS.md; `none` to skip). The JSON holds the
 * one-thread cases under `cases` and the worker-thread cases under `workerCases`.
 * Run with `node --import tsx --expose-gc` (the npm script does).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { LoadedPack } from '@salient/engine';
import { blitz } from '@salient/game-blitz';
import { createBot } from '@salient/bots';
import { blitzPack, envInt, median, ownCpuMs, processCpuMs, statCpuMs, updateResultsBlock, machine } from './support.ts';
import { runMatch, type DecisionRow, type EventRow, type ImpulseRow, type MatchRow, type TelemetrySink } from '@salient/runner';
import type { ClickHouseSink, LinesSink, ServedSink, Telemetry } from '@salient/telemetry';

const here = dirname(fileURLToPath(import.meta.url));
const SEATS = { Axis: 'random', Allies: 'random' } as const;
/** Targets (issue 30, item 2): games/s and the game thread's CPU time at most 10% worse with telemetry, the CPU time of every thread and the server at most 20%. */
const TARGET_OVERHEAD_PCT = 10;
const TARGET_TOTAL_CPU_PCT = 20;
/** ClickHouseSink's default decisionSample: the worker sends the decisions a default store sink keeps. */
const DEFAULT_DECISION_SAMPLE = 0.1;
/** Where the telemetry package's test helper finds the server; checked first for a clearer message. */
const CLICKHOUSE_SERVER_BIN = '/usr/sbin/clickhouse-server';
const TABLES = ['impulses', 'events', 'decisions', 'matches'] as const;
type Table = (typeof TABLES)[number];
type TableCounts = Record<Table, number>;
const SINKS = ['none', 'counting', 'embedded', 'embedded-linger', 'server', 'server-linger', 'worker-none', 'worker-embedded', 'worker-server', 'worker-embedded-rows', 'worker-embedded-packed'] as const;
type SinkKind = (typeof SINKS)[number];
const inWorker = (kind: SinkKind) => kind.startsWith('worker-');
/** The case every other case of the same layout is measured against. */
const baselineOf = (kind: SinkKind): SinkKind => (inWorker(kind) ? 'worker-none' : 'none');
type SinkOptions = NonNullable<Parameters<Telemetry['sink']>[0]>;

const zero = (): TableCounts => ({ impulses: 0, events: 0, decisions: 0, matches: 0 });
const sum = (r: TableCounts) => TABLES.reduce((a, t) => a + r[t], 0);
const isStore = (kind: SinkKind) => kind !== 'none' && kind !== 'counting' && kind !== 'worker-none';

/** Keeps nothing, counts what the runner hands it. */
class CountingSink implements TelemetrySink {
  readonly rows = zero();
  impulse(_: ImpulseRow): void {
    this.rows.impulses++;
  }
  event(_: EventRow): void {
    this.rows.events++;
  }
  decision(_: DecisionRow): void {
    this.rows.decisions++;
  }
  match(_: MatchRow): void {
    this.rows.matches++;
  }
}

/** CPU ms and name of each thread of this process now, by thread id; empty where /proc cannot be read. */
function threadCpu(): Map<string, { comm: string; ms: number }> {
  const out = new Map<string, { comm: string; ms: number }>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      out.set(tid, { comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ms: statCpuMs(stat) });
    } catch {
      // the thread ended meanwhile: its time is in `ended`
    }
  }
  return out;
}

/** Where a round's CPU time went, by thread group (ms). */
interface ThreadSplit {
  /** The thread playing the games. */
  game: number;
  /** In the worker layout, the main thread: the store's side (serveSink, the sink, the client). */
  main: number;
  /** Other threads named `node`: V8's helper threads (GC, compiler) and libuv's pool (with whatever chdb runs there). */
  helpers: number;
  /** Threads with other names: chdb's. */
  named: number;
  /** Threads that ended during the round (the process's time less its live threads'). */
  ended: number;
}
const SPLIT_KEYS = ['game', 'main', 'helpers', 'named', 'ended'] as const;

/** Split the CPU time between two {@link threadCpu} snapshots; `gameTid` is the game thread's id. */
function splitCpu(before: Map<string, { comm: string; ms: number }>, after: Map<string, { comm: string; ms: number }>, gameTid: string, ownMs: number): ThreadSplit {
  const main = String(process.pid);
  const split: ThreadSplit = { game: 0, main: 0, helpers: 0, named: 0, ended: 0 };
  let live = 0;
  for (const [tid, t] of after) {
    const ms = t.ms - (before.get(tid)?.ms ?? 0);
    live += ms;
    if (tid === gameTid) split.game += ms;
    else if (tid === main) split.main += ms;
    else if (t.comm === 'node') split.helpers += ms;
    else split.named += ms;
  }
  split.ended = Math.max(0, ownMs - live);
  return split;
}

/** One timed round of one case; the reported figures are medians over rounds. */
interface Round {
  gamesPerSec: number;
  /** CPU time per game: this process's, plus the ClickHouse server's in the server cases. */
  cpuMsPerGame: number;
  /** Of which the server process's (0 without a server). */
  serverCpuMsPerGame: number;
  /** This process's CPU time per game by thread group (zeros where /proc cannot be read). */
  threads: ThreadSplit;
  /** Rows inserted (or, for the counting sink, handed over) per second of the round. */
  rowsPerSec: number | undefined;
  /** Time spent in inserts (call to resolve), per game. */
  awaitMsPerGame: number | undefined;
  /** Time spent in the sink's row methods, per game. */
  sinkMsPerGame: number | undefined;
  /** Time the round's closing drain waited (writing what the sink still held), per game. */
  drainMsPerGame: number | undefined;
}

interface Case {
  kind: SinkKind;
  label: string;
  sink: TelemetrySink | undefined;
  /** Write whatever the sink still holds (part of the timed round, so lingering rows are paid for). */
  drain(): Promise<void>;
  /** For stores: wait until the store runs no merge (counted in the round's CPU time, not its wall time). */
  settled?: () => Promise<void>;
  /** Time spent in the sink's row methods while timed (ms). */
  sinkMs: number;
  sinkTime(f: () => void): void;
  /** Rows counted so far; undefined when the case has no rows. */
  rowsNow(): TableCounts | undefined;
  /** For stores: inserts, the time spent awaiting them and the rows they carried, while the case is timed. */
  inserts: { count: number; ms: number; rows: TableCounts } | undefined;
  games: number;
  rows: TableCounts | undefined;
  readonly rounds: Round[];
  readonly kinds: Record<string, number>;
  /** For the worker cases: the thread playing the games (one for all of them). */
  worker?: GameWorker;
  /** For the worker cases with a store: start serving the worker's rows to this case's store sink. */
  serve?: () => ServedSink;
  /** The ClickHouse server process whose CPU time is charged to this case, if any. */
  serverPid?: number;
}

/** How a worker case's rows reach the store: see {@link PlayCommand}. */
type Remote = false | 'lines' | 'rows' | 'packed';
/** How the rows of a worker case reach the main thread. */
const remoteOf = (kind: SinkKind): Remote => (kind === 'worker-none' ? false : kind.endsWith('-rows') ? 'rows' : kind.endsWith('-packed') ? 'packed' : 'lines');

/** What the main thread tells a game worker, and what it answers. */
interface PlayCommand {
  /**
   * `remote`: rows through the worker's RemoteSink (to whichever store sink the main thread serves), encoded
   * as lines in the worker (`lines`) or posted as the runner's rows for the store's thread to encode (`rows` as
   * JSON objects, `packed` as JSON arrays of their fields); else no sink.
   */
  benchPlay: { firstSeed: number; games: number; remote: Remote };
}
interface PlayedReport {
  benchPlayed: Record<string, number>;
  error?: string;
}
/** The worker's first message: its thread id, to tell its CPU time apart. */
interface TidReport {
  benchTid: string;
}
interface GameWorker {
  thread: Worker;
  /** The worker's thread id ('' until it said). */
  tid(): string;
  play(firstSeed: number, games: number, remote: Remote): Promise<Record<string, number>>;
  close(): Promise<void>;
}

/**
 * Start this very file as a game worker. Loaded through tsx's API from an eval'd entry, since a
 * worker given a `.ts` file directly is not guaranteed to go through the tsx loader.
 */
function startWorker(data: { decisionSample: number; maxUnacked?: number }): Worker {
  const entry = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(fileURLToPath(import.meta.url))}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(entry, { eval: true, workerData: { benchWorker: data } });
}

function gameWorker(thread: Worker): GameWorker {
  let waiting: { resolve: (k: Record<string, number>) => void; reject: (e: Error) => void } | undefined;
  const fail = (e: Error) => {
    waiting?.reject(e);
    waiting = undefined;
  };
  let tid = '';
  thread.on('message', (m: unknown) => {
    if (m && typeof m === 'object' && 'benchTid' in m) tid = (m as TidReport).benchTid;
    const r = m as PlayedReport;
    if (!r || typeof r !== 'object' || !('benchPlayed' in r)) return;
    const w = waiting;
    waiting = undefined;
    if (r.error) w?.reject(new Error(`game worker: ${r.error}`));
    else w?.resolve(r.benchPlayed);
  });
  thread.on('error', fail);
  thread.on('exit', (code) => fail(new Error(`game worker exited (${code})`)));
  return {
    thread,
    tid: () => tid,
    play: (firstSeed, games, remote) =>
      new Promise((resolve, reject) => {
        waiting = { resolve, reject };
        thread.postMessage({ benchPlay: { firstSeed, games, remote } } satisfies PlayCommand);
      }),
    close: async () => {
      await thread.terminate();
    },
  };
}

/**
 * The game worker's side: plays what it is told, its rows through a RemoteSink to the main thread if
 * asked. One worker plays every worker case, so no idle thread of another case (its V8 tidying its
 * heap) runs alongside the one being timed.
 */
async function workerMain(port: NonNullable<typeof parentPort>, data: { decisionSample: number; maxUnacked?: number }): Promise<void> {
  let tid = '';
  try {
    tid = readlinkSync('/proc/thread-self').split('/').pop() ?? '';
  } catch {
    // no /proc: no split by thread
  }
  port.postMessage({ benchTid: tid } satisfies TidReport);
  const { RemoteSink } = await import('@salient/telemetry');
  const bound = data.maxUnacked ? { maxUnacked: data.maxUnacked } : {};
  // All send the decisions the store keeps: `rows` and `packed` at the store sink's rate too, so it samples nothing more.
  const sinks = {
    lines: new RemoteSink(port, { decisionSample: data.decisionSample, encoding: 'lines', ...bound }),
    rows: new RemoteSink(port, { decisionSample: data.decisionSample, encoding: 'rows', ...bound }),
    packed: new RemoteSink(port, { decisionSample: data.decisionSample, encoding: 'packed', ...bound }),
  };
  const pack = blitzPack();
  const c = newCase('none', 'worker');
  port.on('message', (m: unknown) => {
    const cmd = (m as Partial<PlayCommand>)?.benchPlay;
    if (!cmd) return;
    c.sink = cmd.remote ? sinks[cmd.remote] : undefined;
    void (async () => {
      const kinds: Record<string, number> = {};
      try {
        for (let i = 0; i < cmd.games; i++) {
          const r = await play(c, pack, cmd.firstSeed + i);
          kinds[r.kind] = (kinds[r.kind] ?? 0) + 1;
        }
        port.postMessage({ benchPlayed: kinds } satisfies PlayedReport);
      } catch (e) {
        port.postMessage({ benchPlayed: kinds, error: String((e as Error).stack ?? e) } satisfies PlayedReport);
      }
    })();
  });
}

function envNumber(name: string): number | undefined {
  const v = process.env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number, 0 or more, got '${v}'`);
  return n;
}

function envSinks(): SinkKind[] {
  const raw = process.env.BENCH_SINKS;
  if (raw === undefined || raw === '') return [...SINKS];
  const asked = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of asked) {
    if (!(SINKS as readonly string[]).includes(s)) throw new Error(`BENCH_SINKS: unknown case '${s}'; use a comma-separated list of ${SINKS.join(', ')}`);
  }
  // The baselines are what every overhead is measured against, so they always run.
  const worker = asked.some((s) => s.startsWith('worker-'));
  return SINKS.filter((s) => s === 'none' || (worker && s === 'worker-none') || asked.includes(s));
}

/** Median of the defined values, or undefined when there are none. */
function medianOf(xs: ReadonlyArray<number | undefined>): number | undefined {
  const d = xs.filter((x): x is number => x !== undefined);
  return d.length ? median(d) : undefined;
}

function newCase(kind: SinkKind, label: string): Case {
  const c: Case = {
    kind,
    label,
    sink: undefined,
    drain: async () => {},
    sinkMs: 0,
    sinkTime: (f) => {
      if (timed !== c) return f();
      const t0 = performance.now();
      f();
      c.sinkMs += performance.now() - t0;
    },
    rowsNow: () => undefined,
    inserts: undefined,
    games: 0,
    rows: undefined,
    rounds: [],
    kinds: {},
  };
  return c;
}

/** The case being timed; inserts are charged to it. */
let timed: Case | undefined;

/** One open store, shared by its cases (the embedded engine allows one data directory per process). */
interface Store {
  telemetry: Telemetry;
  /** The server process, for the server cases. */
  pid?: number;
  /** Wait until the store runs no merge of its tables (at most 30 s), so the merges a case's inserts started are that case's. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

async function openStore(kind: 'embedded' | 'server', tmp: string): Promise<Store> {
  // Loaded only when a store is measured, so `BENCH_SINKS=none,counting` runs without chdb.
  const { openTelemetry } = await import('@salient/telemetry');
  let telemetry: Telemetry;
  let stopServer = async () => {};
  let pid: number | undefined;
  if (kind === 'embedded') {
    telemetry = await openTelemetry({ kind: 'embedded', path: join(tmp, 'chdb'), spoolDir: join(tmp, 'spool-embedded') });
  } else {
    const { SALIENT_PASSWORD, startClickHouseServer } = await import('../packages/telemetry/test/support/clickhouse-server.ts');
    const server = await startClickHouseServer();
    stopServer = () => server.dispose();
    pid = server.pid;
    try {
      telemetry = await openTelemetry({
        kind: 'server',
        url: server.url,
        username: 'salient',
        password: SALIENT_PASSWORD,
        database: 'salient_bench',
        spoolDir: join(tmp, 'spool-server'),
      });
    } catch (e) {
      await stopServer();
      throw e;
    }
  }
  // Time every insert and count the rows it carries, charged to the case being timed: that tells
  // waiting on the store from the work of building rows, and counts rows as they are sent.
  const client = telemetry.client;
  const insert = client.insert.bind(client);
  client.insert = (async (params: Parameters<typeof insert>[0]) => {
    const t0 = performance.now();
    const r = await insert(params);
    const ins = timed?.inserts;
    if (ins) {
      ins.count++;
      ins.ms += performance.now() - t0;
      const table = params.table.split('.').pop() as Table;
      if (table in ins.rows && Array.isArray(params.values)) ins.rows[table] += params.values.length;
    }
    return r;
  }) as typeof client.insert;
  const merging = async (): Promise<number> => {
    const rs = await client.query({ query: `SELECT count() AS n FROM system.merges WHERE database = '${telemetry.database}'`, format: 'JSONEachRow' });
    const [row] = await rs.json<{ n: number | string }>();
    return Number(row?.n ?? 0);
  };
  return {
    telemetry,
    ...(pid === undefined ? {} : { pid }),
    settled: async () => {
      const until = performance.now() + 30_000;
      while ((await merging()) > 0 && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    close: async () => {
      await telemetry.close();
      await stopServer();
    },
  };
}

function storeCase(kind: SinkKind, label: string, store: Store, options: SinkOptions): Case {
  const sink: ClickHouseSink = store.telemetry.sink(options);
  const c = newCase(kind, label);
  // Time the sink's row methods (turning the runner's rows into ClickHouse records and buffering
  // them), which run on the game's thread, apart from the inserts, which are timed in openStore.
  const timedSink: TelemetrySink & LinesSink = {
    lines: (rows) => c.sinkTime(() => sink.lines(rows)),
    impulse: (row) => c.sinkTime(() => sink.impulse(row)),
    event: (row) => c.sinkTime(() => sink.event(row)),
    decision: (row) => c.sinkTime(() => sink.decision(row)),
    keepsDecision: (matchId, seq) => {
      let kept = false;
      c.sinkTime(() => (kept = sink.keepsDecision(matchId, seq)));
      return kept;
    },
    match: (row) => c.sinkTime(() => sink.match(row)),
    flush: () => sink.flush(),
  };
  c.sink = timedSink;
  c.drain = () => sink.drain();
  c.settled = () => store.settled();
  c.inserts = { count: 0, ms: 0, rows: zero() };
  c.rowsNow = () => ({ ...(c.inserts as NonNullable<Case['inserts']>).rows });
  if (store.pid !== undefined) c.serverPid = store.pid;
  return c;
}

async function play(c: Case, pack: LoadedPack, seed: number) {
  const seats = Object.fromEntries(Object.entries(SEATS).map(([seat, spec]) => [seat, createBot(spec)]));
  return runMatch({ game: blitz, pack, scenario: 'A', seed, seats, seatSpecs: { ...SEATS }, ...(c.sink ? { sink: c.sink } : {}) });
}

async function round(c: Case, pack: LoadedPack, firstSeed: number, games: number): Promise<void> {
  globalThis.gc?.();
  const rowsBefore = c.rowsNow();
  const awaitedBefore = c.inserts?.ms ?? 0;
  const sinkBefore = c.sinkMs;
  timed = c;
  const cpu0 = ownCpuMs();
  const threads0 = threadCpu();
  const server0 = processCpuMs(c.serverPid) ?? 0;
  const t0 = performance.now();
  if (c.worker) {
    const served = c.serve?.();
    try {
      const kinds = await c.worker.play(firstSeed, games, served === undefined ? false : remoteOf(c.kind));
      for (const [k, n] of Object.entries(kinds)) c.kinds[k] = (c.kinds[k] ?? 0) + n;
      // Every batch the worker posted came before its report: feed them all to the sink, then drain.
      await served?.settled();
    } finally {
      served?.stop();
    }
  } else {
    for (let i = 0; i < games; i++) {
      const r = await play(c, pack, firstSeed + i);
      c.kinds[r.kind] = (c.kinds[r.kind] ?? 0) + 1;
    }
  }
  const tDrain = performance.now();
  await c.drain();
  const drainMs = performance.now() - tDrain;
  const ms = performance.now() - t0;
  // The merges the round's inserts started belong to its CPU time, not to its wall time: in a long run
  // they overlap the games that follow.
  await c.settled?.();
  const serverMs = (processCpuMs(c.serverPid) ?? 0) - server0;
  const threads1 = threadCpu();
  const ownMs = ownCpuMs() - cpu0;
  const cpuMs = ownMs + serverMs;
  const split = splitCpu(threads0, threads1, c.worker ? c.worker.tid() : String(process.pid), ownMs);
  timed = undefined;
  const rowsAfter = c.rowsNow();
  c.games += games;
  if (rowsAfter) {
    const gained = Object.fromEntries(TABLES.map((t) => [t, rowsAfter[t] - (rowsBefore?.[t] ?? 0)])) as TableCounts;
    c.rows = Object.fromEntries(TABLES.map((t) => [t, (c.rows?.[t] ?? 0) + gained[t]])) as TableCounts;
  }
  c.rounds.push({
    gamesPerSec: (games * 1000) / ms,
    cpuMsPerGame: cpuMs / games,
    serverCpuMsPerGame: serverMs / games,
    threads: Object.fromEntries(SPLIT_KEYS.map((k) => [k, split[k] / games])) as unknown as ThreadSplit,
    rowsPerSec: rowsAfter && ((sum(rowsAfter) - sum(rowsBefore ?? zero())) * 1000) / ms,
    awaitMsPerGame: c.inserts && (c.inserts.ms - awaitedBefore) / games,
    sinkMsPerGame: c.inserts && (c.sinkMs - sinkBefore) / games,
    drainMsPerGame: c.inserts && drainMs / games,
  });
}

interface Row {
  kind: SinkKind;
  label: string;
  games: number;
  gamesPerSec: number;
  overheadPct: number | undefined;
  msPerGame: number;
  cpuMsPerGame: number;
  serverCpuMsPerGame: number;
  /** CPU ms per game by thread group, median round for each. */
  threads: ThreadSplit;
  /** Rise of CPU ms per game against the baseline of the same layout. */
  cpuOverheadPct: number | undefined;
  /** Rise of the game thread's CPU ms per game against the baseline of the same layout (median of per-round ratios). */
  gameThreadOverheadPct: number | undefined;
  rows: TableCounts | undefined;
  rowsPerSec: number | undefined;
  /** For the stores: inserts per game, the mean time awaiting one, and the time awaiting them per game (median round). */
  insertsPerGame: number | undefined;
  msPerInsert: number | undefined;
  awaitMsPerGame: number | undefined;
  sinkMsPerGame: number | undefined;
  drainMsPerGame: number | undefined;
  kinds: Record<string, number>;
}

/** A percentage, marked when a store's is over its target. */
const pct = (n: number | undefined, target: number, store: boolean) =>
  n === undefined ? '—' : `${fmt(n, 1)}%${store && n > target ? ' **over target**' : ''}`;
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const opt = (n: number | undefined, digits: number) => (n === undefined ? '—' : fmt(n, digits));

interface Meta {
  date: string;
  node: string;
  cpu: string;
  nproc: number;
  memGB: number;
  rounds: number;
  firstSeed: number;
  sinkOptions: SinkOptions;
  lingerMs: number;
}

function markdown(meta: Meta, rows: Row[]): string {
  const over = rows.filter((r) => isStore(r.kind) && (r.overheadPct ?? 0) > TARGET_OVERHEAD_PCT);
  const options = Object.keys(meta.sinkOptions).length ? `\`${JSON.stringify(meta.sinkOptions)}\`` : 'the sink defaults';
  return [
    `<!-- bench-telemetry:${meta.date}|${meta.node}|${meta.cpu} -->`,
    `### Telemetry · ${meta.date} · Node ${meta.node} · ${meta.cpu} (nproc ${meta.nproc}, ${meta.memGB} GB)`,
    '',
    `Blitz A, random vs random, seeds from ${meta.firstSeed}, sequential \`runMatch\`, in two layouts: **one thread** (games and store sink on the main thread) ` +
      `and **worker thread** (games in a worker thread whose \`RemoteSink\` encodes the rows as ClickHouse lines and posts them, one message per finished match, to the main thread, where \`serveSink\` hands them to the store sink; ` +
      `decisions sampled in the worker at the store's rate; event rows for the event types Blitz! lists (\`telemetryEvents\`), every event counted per impulse; a round ends when the worker reported, every batch was fed and the sink drained). Every case plays the same seeds in a round, ` +
      `the cases of a layout alternate over ${meta.rounds} rounds (the one-thread layout's rounds first, then the worker's, whose cases share one game worker), and games/s, ms/game, rows/s and the time awaiting inserts are median rounds. ` +
      `Overhead is the median over rounds of the drop in games/s against no sink in the same layout and round (target ≤ ${TARGET_OVERHEAD_PCT}%). ` +
      `A round's wall time ends when its sink drained; its CPU time when the store also runs no merge, so the merges its inserts started are charged to it. Rows: impulses / events / decisions / matches ` +
      `inserted by the store sinks (decisions are sampled), or handed to the counting sink. Store sinks: ${options}; ` +
      `the \`linger\` cases add \`lingerMs: ${meta.lingerMs}\`. Time in inserts is wall time from call to resolve; the sink writes in the ` +
      `background, so most of it overlaps games. Each round ends with a drain that writes what the sink still holds; the time it waits is ` +
      `part of the round (and shown per game). The ClickHouse server runs on the same machine. ` +
      `CPU ms/game is the median round's CPU time per game of this process (all its threads: games, sinks, chdb) plus, in the server cases, the server process's (in brackets); ` +
      `CPU overhead is its rise against no sink in the same layout (target ≤ ${TARGET_TOTAL_CPU_PCT}%): what telemetry costs a machine whose every core plays games, where games/s measures one game thread with a core to spare. ` +
      `Game-thread CPU is the thread that plays the games alone (from /proc/self/task/*/stat), and its overhead the median over rounds of its rise against the same round without a sink (target ≤ ${TARGET_OVERHEAD_PCT}%): ` +
      `what telemetry costs the games themselves when the store's work runs elsewhere (another thread, process or machine), less sensitive than games/s to load from other processes.`,
    '',
    '| layout | sink | games | games/s | overhead | ms/game | game-thread CPU ms/game | game-thread CPU overhead | CPU ms/game | CPU overhead | rows (impulses / events / decisions / matches) | rows/s | inserts/game | ms per insert | ms in inserts per game | ms in sink row methods per game | ms waiting for the closing drain per game | endings |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map((r) => {
      const overhead =
        r.overheadPct === undefined ? '—' : `${fmt(r.overheadPct, 1)}%${isStore(r.kind) && r.overheadPct > TARGET_OVERHEAD_PCT ? ' **over target**' : ''}`;
      const stored = r.rows ? `${fmt(sum(r.rows))} (${TABLES.map((t) => fmt(r.rows?.[t] ?? 0)).join(' / ')})` : '—';
      const kinds = Object.entries(r.kinds)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      return (
        `| ${inWorker(r.kind) ? 'worker thread' : 'one thread'} | ${r.label} | ${r.games} | ${fmt(r.gamesPerSec, 2)} | ${overhead} | ${fmt(r.msPerGame, 2)} ` +
        `| ${r.threads.game > 0 ? fmt(r.threads.game, 2) : '—'} | ${pct(r.gameThreadOverheadPct, TARGET_OVERHEAD_PCT, isStore(r.kind))} ` +
        `| ${fmt(r.cpuMsPerGame, 2)}${r.serverCpuMsPerGame > 0 ? ` (${fmt(r.serverCpuMsPerGame, 2)})` : ''} | ${pct(r.cpuOverheadPct, TARGET_TOTAL_CPU_PCT, isStore(r.kind))} | ${stored} | ${opt(r.rowsPerSec, 0)} ` +
        `| ${opt(r.insertsPerGame, 2)} | ${opt(r.msPerInsert, 2)} | ${opt(r.awaitMsPerGame, 2)} | ${opt(r.sinkMsPerGame, 2)} | ${opt(r.drainMsPerGame, 2)} | ${kinds} |`
      );
    }),
    '',
    'CPU ms per game by thread, median round of each: the **game thread** (in the one-thread layout also the store side), the **main thread** of the worker layout ' +
      "(the store side: `serveSink`, the sink, the client), the process's other `node` threads (V8's GC and compiler helpers, and libuv's pool, with whatever chdb runs there), chdb's own named threads, " +
      'threads that ended during the round, and the ClickHouse server process.',
    '',
    '| layout | sink | game thread | main thread (worker layout) | V8 and libuv helpers | chdb threads | ended threads | ClickHouse server | all |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${inWorker(r.kind) ? 'worker thread' : 'one thread'} | ${r.label} | ${SPLIT_KEYS.map((k) => fmt(r.threads[k], 2)).join(' | ')} | ${fmt(r.serverCpuMsPerGame, 2)} | ${fmt(r.cpuMsPerGame, 2)} |`,
    ),
    '',
    !rows.some((r) => isStore(r.kind))
      ? 'No store was measured (BENCH_SINKS).'
      : over.length === 0
        ? `Every store is within the ${TARGET_OVERHEAD_PCT}% target.`
        : `Over the ${TARGET_OVERHEAD_PCT}% target: ${over.map(layoutLabel).join('; ')}. Where the time goes, per game against no sink in the same layout: ` +
          over.map((r) => whereTimeGoes(r, rows)).join('; ') +
          '.',
    `<!-- bench-telemetry:end -->`,
  ].join('\n');
}

/**
 * `label +X ms (Y ms waiting for the closing drain, ...)`: the extra time per game of one store, split
 * by where it went. Inserts run in the background, so their wall time is not subtracted; only the
 * drain that closes each round waits for them.
 */
function whereTimeGoes(r: Row, rows: readonly Row[]): string {
  const base = rows.find((x) => x.kind === baselineOf(r.kind)) as Row;
  const counting = inWorker(r.kind) ? undefined : rows.find((x) => x.kind === 'counting');
  const extra = r.msPerGame - base.msPerGame;
  const drain = r.drainMsPerGame ?? 0;
  const records = r.sinkMsPerGame ?? 0;
  const parts = [
    `${fmt(drain, 2)} ms waiting for the drain that closes the round (${fmt(r.insertsPerGame ?? 0, 2)} inserts per game, ${fmt(r.msPerInsert ?? 0, 1)} ms each)`,
    `${fmt(records, 2)} ms in the sink's row methods${inWorker(r.kind) ? ' (on the main thread, alongside the games)' : ''}`,
  ];
  let rest = extra - drain - records;
  if (counting) {
    const building = counting.msPerGame - base.msPerGame;
    parts.push(`${fmt(building, 2)} ms building rows in the runner (the counting sink)`);
    rest -= building;
  }
  parts.push(`${fmt(rest, 2)} ms other (background inserts' work on the game thread and CPU, garbage collection, noise)`);
  return `${layoutLabel(r)} +${fmt(extra, 2)} ms (${parts.join(', ')})`;
}

function layoutLabel(r: { kind: SinkKind; label: string }): string {
  return `${inWorker(r.kind) ? 'worker thread' : 'one thread'} · ${r.label}`;
}

/** Replace the block of the same date, Node and CPU in RESULTS.md, or append a new one. */
function updateResults(file: string, block: string, key: string): void {
  updateResultsBlock(file, 'bench-telemetry', key, block, '# Benchmark results\n');
}

async function main(): Promise<void> {
  const games = envInt('BENCH_GAMES', 200);
  const rounds = envInt('BENCH_ROUNDS', 5);
  const firstSeed = envInt('BENCH_SEED', 1);
  const batchRows = envNumber('BENCH_BATCH_ROWS');
  const decisionSample = envNumber('BENCH_DECISION_SAMPLE');
  const lingerMs = envNumber('BENCH_LINGER_MS') ?? 250;
  const storeLingerMs = envNumber('BENCH_STORE_LINGER_MS');
  const writeShare = envNumber('BENCH_WRITE_SHARE');
  const sinkOptions: SinkOptions = {
    ...(writeShare === undefined ? {} : { writeShare }),
    ...(batchRows === undefined ? {} : { batchRows }),
    ...(decisionSample === undefined ? {} : { decisionSample }),
    ...(storeLingerMs === undefined ? {} : { lingerMs: storeLingerMs }),
  };
  const kinds = envSinks();
  const outDir = process.env.BENCH_OUT_DIR || join(here, 'out');
  const resultsFile = process.env.BENCH_RESULTS || join(here, 'RESULTS.md');
  if (!globalThis.gc) process.stderr.write('bench: note: run with --expose-gc for a collected heap before each round\n');
  if (kinds.some((k) => k.startsWith('server')) && !existsSync(CLICKHOUSE_SERVER_BIN)) {
    throw new Error(
      `the server cases need ${CLICKHOUSE_SERVER_BIN}, which is missing: run \`node scripts/ensure-system.mjs\` ` +
        '(installs the Debian clickhouse-server package as root) or leave them out, e.g. BENCH_SINKS=none,counting,embedded,embedded-linger',
    );
  }

  const pack = blitzPack();
  const tmp = mkdtempSync(join(tmpdir(), 'salient-bench-telemetry-'));
  const stores: Partial<Record<'embedded' | 'server', Store>> = {};
  const cases: Case[] = [];
  let worker: GameWorker | undefined;
  const maxUnacked = envNumber('BENCH_MAX_UNACKED');
  const sharedWorker = () =>
    (worker ??= gameWorker(startWorker({ decisionSample: sinkOptions.decisionSample ?? DEFAULT_DECISION_SAMPLE, ...(maxUnacked ? { maxUnacked } : {}) })));
  try {
    for (const kind of kinds) {
      process.stderr.write(`bench: setting up '${kind}'\n`);
      if (kind === 'none') cases.push(newCase('none', 'none'));
      else if (kind === 'counting') {
        const sink = new CountingSink();
        const c = newCase('counting', 'counting sink (rows built, not stored)');
        c.sink = sink;
        c.rowsNow = () => ({ ...sink.rows });
        cases.push(c);
      } else if (kind === 'worker-none') {
        const c = newCase('worker-none', 'no sink');
        c.worker = sharedWorker();
        cases.push(c);
      } else if (inWorker(kind)) {
        const { serveSink } = await import('@salient/telemetry');
        const where = kind.startsWith('worker-embedded') ? 'embedded' : 'server';
        const store = (stores[where] ??= await openStore(where, tmp));
        const name =
          kind === 'worker-embedded-rows'
            ? "rows to the main thread unencoded (RemoteSink encoding 'rows'), encoded there, embedded ClickHouse (chdb)"
            : kind === 'worker-embedded-packed'
              ? "rows to the main thread packed (RemoteSink encoding 'packed'), encoded there, embedded ClickHouse (chdb)"
              : where === 'embedded'
              ? 'rows to the main thread, embedded ClickHouse (chdb)'
              : 'rows to the main thread, ClickHouse server (Debian 18.16)';
        const c = storeCase(kind, name, store, sinkOptions);
        const storeSink = c.sink as TelemetrySink & { drain(): Promise<void> };
        c.sink = undefined;
        c.worker = sharedWorker();
        c.serve = () => serveSink((c.worker as GameWorker).thread, storeSink);
        cases.push(c);
      } else {
        const where = kind.startsWith('embedded') ? 'embedded' : 'server';
        const store = (stores[where] ??= await openStore(where, tmp));
        const name = where === 'embedded' ? 'embedded ClickHouse (chdb)' : 'ClickHouse server (Debian 18.16)';
        const linger = kind.endsWith('-linger');
        cases.push(storeCase(kind, linger ? `${name}, linger ${lingerMs} ms` : name, store, linger ? { ...sinkOptions, lingerMs } : sinkOptions));
      }
    }
    // Warm-up: JIT for the game and each sink's code path, tables created, connections open.
    for (const c of cases) {
      const warm = Math.min(20, Math.ceil(games / 10));
      if (c.worker) {
        const served = c.serve?.();
        await c.worker.play(1_000_000_000, warm, served === undefined ? false : remoteOf(c.kind));
        await served?.settled();
        served?.stop();
      } else for (let i = 0; i < warm; i++) await play(c, pack, 1_000_000_000 + i);
      await c.drain();
    }

    // The one-thread layout first, then the worker layout: the game worker is idle (and its heap
    // being tidied) only before its own cases.
    const per = Math.ceil(games / rounds);
    for (const layout of [cases.filter((c) => !c.worker), cases.filter((c) => c.worker)]) {
      if (layout.length === 0) continue;
      for (let r = 0; r < rounds; r++) {
        process.stderr.write(`bench: ${layout[0]?.worker ? 'worker thread' : 'one thread'}, round ${r + 1}/${rounds}\n`);
        // Rotate the order too, so no case always runs right after the store that leaves the most work behind.
        for (let k = 0; k < layout.length; k++) await round(layout[(k + r) % layout.length] as Case, pack, firstSeed + r * per, per);
      }
    }

    // Overheads are medians of each round's ratio to the baseline's same round: the host's speed drifts
    // between rounds far more than within one.
    const baseCase = (kind: SinkKind) => cases.find((c) => c.kind === baselineOf(kind)) as Case;
    const paired = (c: Case, f: (r: Round) => number) => median(c.rounds.map((r, i) => f(r) / f(baseCase(c.kind).rounds[i] as Round)));
    const rows: Row[] = cases.map((c) => {
      const gps = median(c.rounds.map((r) => r.gamesPerSec));
      return {
        kind: c.kind,
        label: c.label,
        games: c.games,
        gamesPerSec: gps,
        overheadPct: c.kind === baselineOf(c.kind) ? undefined : (1 - paired(c, (r) => r.gamesPerSec)) * 100,
        msPerGame: 1000 / gps,
        cpuMsPerGame: median(c.rounds.map((r) => r.cpuMsPerGame)),
        serverCpuMsPerGame: median(c.rounds.map((r) => r.serverCpuMsPerGame)),
        threads: Object.fromEntries(SPLIT_KEYS.map((k) => [k, median(c.rounds.map((r) => r.threads[k]))])) as unknown as ThreadSplit,
        cpuOverheadPct: c.kind === baselineOf(c.kind) ? undefined : (paired(c, (r) => r.cpuMsPerGame) - 1) * 100,
        gameThreadOverheadPct: c.kind === baselineOf(c.kind) || !c.rounds.every((r, i) => r.threads.game > 0 && (baseCase(c.kind).rounds[i]?.threads.game ?? 0) > 0)
          ? undefined
          : (paired(c, (r) => r.threads.game) - 1) * 100,
        rows: c.rows,
        rowsPerSec: medianOf(c.rounds.map((r) => r.rowsPerSec)),
        insertsPerGame: c.inserts && c.inserts.count / c.games,
        msPerInsert: c.inserts && (c.inserts.count ? c.inserts.ms / c.inserts.count : 0),
        awaitMsPerGame: medianOf(c.rounds.map((r) => r.awaitMsPerGame)),
        sinkMsPerGame: medianOf(c.rounds.map((r) => r.sinkMsPerGame)),
        drainMsPerGame: medianOf(c.rounds.map((r) => r.drainMsPerGame)),
        kinds: c.kinds,
      };
    });

    const meta: Meta = {
      ...machine(),
      rounds,
      firstSeed,
      sinkOptions,
      lingerMs,
    };
    const block = markdown(meta, rows);
    process.stdout.write(block + '\n');
    mkdirSync(outDir, { recursive: true });
    // `cases`: the one-thread layout; `workerCases`: the worker-thread layout (its own baseline).
    const json = { ...meta, cases: rows.filter((r) => !inWorker(r.kind)), workerCases: rows.filter((r) => inWorker(r.kind)) };
    writeFileSync(join(outDir, 'telemetry-latest.json'), JSON.stringify(json, null, 2) + '\n');
    if (resultsFile !== 'none') updateResults(resultsFile, block, `${meta.date}|${meta.node}|${meta.cpu}`);
    process.stderr.write(`bench: wrote ${join(outDir, 'telemetry-latest.json')}${resultsFile !== 'none' ? ` and ${resultsFile}` : ''}\n`);
    const failed = rows.reduce((n, r) => n + (r.kinds.error ?? 0), 0);
    if (failed > 0) {
      process.stderr.write(`bench: ${failed} game(s) ended in an error; the figures include them, fix the game first.\n`);
      process.exitCode = 1;
    }
  } finally {
    await worker?.close();
    for (const [where, store] of Object.entries(stores)) {
      await store.close().catch((e: unknown) => process.stderr.write(`bench: closing the ${where} store failed: ${String(e)}\n`));
    }
    rmSync(tmp, { recursive: true, force: true });
  }
}

const benchWorker = (workerData as { benchWorker?: { decisionSample: number; maxUnacked?: number } } | null)?.benchWorker;
if (!isMainThread && parentPort && benchWorker) await workerMain(parentPort, benchWorker);
else await main();
