/**
 * A small real cluster for fault tests and the fault benchmark: a redis-server, the Debian
 * clickhouse-server, and `salient worker` processes (apps/worker/src/main.ts, each forking sandboxed
 * match children), every one of them started here on free ports in a temporary directory and
 * stopped afterwards. Workers run in their own process groups so a kill takes a worker and its
 * children together, as a crashed host would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openTelemetry, telemetryConfigFromEnv } from '@salient/telemetry';
import { startClickHouseServer, type TestClickHouseServer } from '../../packages/telemetry/test/support/clickhouse-server.ts';
import { startRedisServer, type TestRedisServer } from './redis-server.ts';

export { waitFor } from '../../packages/scheduler/test/bullmq-support.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface WorkerProc {
  readonly name: string;
  readonly proc: ChildProcess;
  /** Its JSON log lines, as they came. */
  readonly log: Record<string, unknown>[];
  /** Resolves with the metrics port once the worker said it started. */
  readonly metricsPort: Promise<number>;
  readonly exited: Promise<void>;
  readonly alive: boolean;
  /** Its telemetry spool directory (SALIENT_SPOOL_DIR). */
  readonly spoolDir: string;
  /** Signal the worker's whole process group (worker and match children). */
  killGroup(signal: NodeJS.Signals): void;
  /** GET a path of its metrics server. */
  get(path: string): Promise<Response>;
}

export interface WorkerFlags {
  concurrency?: number;
  lockMs?: number;
  stalledMs?: number;
  graceMs?: number;
  /** Spool directory (default: one per worker name under the cluster's directory). */
  spoolDir?: string;
  env?: Record<string, string>;
}

export interface Cluster {
  readonly redis: TestRedisServer;
  readonly ch: TestClickHouseServer;
  readonly dir: string;
  readonly database: string;
  /** The environment workers get (ClickHouse server settings). */
  readonly env: Record<string, string | undefined>;
  readonly workers: WorkerProc[];
  startWorker(name: string, flags?: WorkerFlags): WorkerProc;
  /** Rows of a query on the test server (JSONEachRow), in the cluster's database. */
  rows<T>(sql: string): Promise<T[]>;
  /** What the store holds of a tournament: matches recorded (distinct ids) and copies beyond one per id. */
  stored(tournamentId: string): Promise<{ recorded: number; doubled: number; ids: string[] }>;
  dispose(): Promise<void>;
}

/**
 * Start Redis and ClickHouse. `migrate` (default true) creates the schema first, so workers do not
 * race to; a test of a store that is not there yet passes false.
 */
export async function startCluster(o: { database?: string; migrate?: boolean } = {}): Promise<Cluster> {
  const dir = await mkdtemp(join(tmpdir(), 'salient-cluster-'));
  const [redis, ch] = await Promise.all([startRedisServer(), startClickHouseServer()]);
  const database = o.database ?? 'salient_cluster';
  const env: Record<string, string | undefined> = {
    ...process.env,
    SALIENT_CLICKHOUSE_URL: ch.url,
    SALIENT_CLICKHOUSE_USER: 'default',
    SALIENT_CLICKHOUSE_PASSWORD: '',
    SALIENT_CLICKHOUSE_DATABASE: database,
  };
  if (o.migrate !== false) await (await openTelemetry(telemetryConfigFromEnv(env, dir))).close();
  const workers: WorkerProc[] = [];

  const rows = async <T>(sql: string): Promise<T[]> => {
    const res = await fetch(`${ch.url}/?database=${database}&query=${encodeURIComponent(`${sql} FORMAT JSONEachRow`)}`);
    const text = await res.text();
    if (!res.ok) throw new Error(`ClickHouse: ${text}`);
    return text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as T);
  };

  return {
    redis,
    ch,
    dir,
    database,
    env,
    workers,
    rows,
    stored: async (tournamentId) => {
      const found = await rows<{ match_id: string; n: string }>(
        `SELECT match_id, count() AS n FROM matches FINAL WHERE tournament = '${tournamentId.replace(/'/g, "\\'")}' GROUP BY match_id`,
      );
      return { recorded: found.length, doubled: found.reduce((d, r) => d + Number(r.n) - 1, 0), ids: found.map((r) => r.match_id).sort() };
    },
    startWorker: (name, f = {}) => {
      const w = spawnWorker(name, redis.url, { ...env, SALIENT_SPOOL_DIR: f.spoolDir ?? join(dir, `spool-${name}`), ...f.env }, f);
      workers.push(w);
      return w;
    },
    dispose: async () => {
      for (const w of workers) w.killGroup('SIGKILL');
      await Promise.all(workers.map((w) => w.exited));
      ch.resume();
      await Promise.all([redis.dispose(), ch.dispose()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function spawnWorker(name: string, redisUrl: string, env: Record<string, string | undefined>, f: WorkerFlags): WorkerProc {
  const args = ['--import', 'tsx', 'apps/worker/src/main.ts', '--redis', redisUrl, '--concurrency', String(f.concurrency ?? 2), '--metrics-port', '0', '--name', name];
  args.push('--lock-ms', String(f.lockMs ?? 2000), '--stalled-ms', String(f.stalledMs ?? 1000), '--grace-ms', String(f.graceMs ?? 2000));
  const proc = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const log: Record<string, unknown>[] = [];
  let resolvePort: (p: number) => void = () => {};
  let rejectPort: (e: Error) => void = () => {};
  const metricsPort = new Promise<number>((res, rej) => ((resolvePort = res), (rejectPort = rej)));
  metricsPort.catch(() => {}); // a worker killed before it started is a test's business, not an unhandled rejection
  let buf = '';
  proc.stderr?.on('data', (d: Buffer) => {
    buf += d.toString();
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        log.push(entry);
        if (entry.msg === 'worker started') resolvePort(entry.metricsPort as number);
      } catch {
        log.push({ msg: line });
      }
    }
  });
  const exited = new Promise<void>((resolve) =>
    proc.once('exit', (code, signal) => {
      rejectPort(new Error(`worker ${name} exited (${code ?? signal}) before starting: ${JSON.stringify(log.slice(-5))}`));
      resolve();
    }),
  );
  return {
    name,
    proc,
    log,
    metricsPort,
    exited,
    get alive() {
      return proc.exitCode === null && proc.signalCode === null;
    },
    spoolDir: env.SALIENT_SPOOL_DIR ?? '',
    killGroup: (signal) => {
      if (proc.pid === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
      try {
        process.kill(-proc.pid, signal);
      } catch {
        // already gone
      }
    },
    get: async (path) => fetch(`http://127.0.0.1:${await metricsPort}${path}`),
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
