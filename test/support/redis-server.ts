/**
 * A real `redis-server` (Debian package, /usr/bin/redis-server) for tests: a free port, a fresh
 * temporary directory, append-only persistence with an fsync per write (so a kill loses nothing
 * acknowledged) and `noeviction` (BullMQ needs its keys kept), and the means to stop, kill and
 * restart it on the same port and data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts } from '../../packages/telemetry/test/support/clickhouse-server.ts';

export const REDIS_SERVER_BIN = '/usr/bin/redis-server';

export interface TestRedisServer {
  /** `redis://127.0.0.1:<port>` (`redis://:<password>@127.0.0.1:<port>` with a password) */
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  readonly pid: number | undefined;
  readonly running: boolean;
  /** Graceful stop (SIGTERM, SIGKILL after 5 s). Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash would. */
  kill(): Promise<void>;
  /** Stop (if running) and start again on the same port and directory; resolves when PING answers. */
  restart(): Promise<void>;
  /** Stop and remove the directory. Idempotent. */
  dispose(): Promise<void>;
}

/**
 * `appendfsync`: `always` (default: the tests kill Redis and must lose nothing) or `everysec` (what
 * infra/redis/redis.conf runs in production; the queue benchmark uses it).
 */
export async function startRedisServer(o: { appendfsync?: 'always' | 'everysec'; password?: string } = {}): Promise<TestRedisServer> {
  if (!existsSync(REDIS_SERVER_BIN)) {
    throw new Error(`${REDIS_SERVER_BIN} is missing, so the Redis tests cannot run. Install the Debian redis-server package (apt-get install redis-server).`);
  }
  const dir = await mkdtemp(join(tmpdir(), 'salient-redis-'));
  const [port] = await freePorts(1);
  // `password`: clients must AUTH (requirepass); the URL then carries it, as users would write it.
  const url = o.password === undefined ? `redis://127.0.0.1:${port}` : `redis://:${encodeURIComponent(o.password)}@127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const args = [
    '--port', String(port),
    '--bind', '127.0.0.1',
    '--dir', dir,
    '--appendonly', 'yes',
    '--appendfsync', o.appendfsync ?? 'always',
    '--save', '',
    '--maxmemory-policy', 'noeviction',
    '--protected-mode', 'no',
    '--daemonize', 'no',
    '--logfile', join(dir, 'redis.log'),
    ...(o.password === undefined ? [] : ['--requirepass', o.password]),
  ];

  const launch = async (): Promise<void> => {
    const proc = spawn(REDIS_SERVER_BIN, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child = proc;
    const orphan = () => proc.kill('SIGKILL');
    process.once('exit', orphan);
    exited = new Promise((resolve) =>
      proc.once('exit', () => {
        process.off('exit', orphan);
        resolve();
      }),
    );
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) {
        throw new Error(`redis-server exited early (code ${proc.exitCode}, signal ${proc.signalCode}) in ${dir}:\n${stderr}`);
      }
      if (await pingOk(port!, o.password)) return;
      if (Date.now() > deadline) {
        proc.kill('SIGKILL');
        throw new Error(`redis-server did not answer PING on ${url} within 15 s (log in ${dir}/redis.log)`);
      }
      await new Promise((r) => setTimeout(r, 30));
    }
  };

  const signal = async (sig: NodeJS.Signals): Promise<void> => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill(sig);
    if (sig === 'SIGKILL') return exited;
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  await launch();
  return {
    url,
    port: port!,
    dir,
    get pid() {
      return child?.pid;
    },
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
    restart: async () => {
      await signal('SIGTERM');
      await launch();
    },
    dispose: async () => {
      await signal('SIGTERM');
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** PING over a raw socket: true when the server answers +PONG (not -LOADING while it reads the AOF). */
function pingOk(port: number, password?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    let buf = '';
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1000, () => done(false));
    s.on('error', () => done(false));
    s.on('connect', () => s.write(password === undefined ? 'PING\r\n' : `AUTH ${password}\r\nPING\r\n`));
    s.on('data', (d) => {
      buf += d.toString();
      const replies = buf.split('\r\n').slice(0, -1);
      if (replies.length >= (password === undefined ? 1 : 2)) done(replies.at(-1)?.startsWith('+PONG') ?? false);
    });
  });
}
