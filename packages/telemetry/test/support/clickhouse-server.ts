/**
 * A real `clickhouse-server` (the Debian 18.16 package) for tests: free ports, a fresh temporary
 * directory, a minimal config, and the means to stop, kill and restart it on the same ports and data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CLICKHOUSE_SERVER_BIN = '/usr/sbin/clickhouse-server';

/** The password of the `salient` user every test server has (`default` has none). */
export const SALIENT_PASSWORD = 'salient-test-password';

export interface TestClickHouseServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly dir: string;
  readonly pid: number | undefined;
  /** True while the server process is alive. */
  readonly running: boolean;
  /** Graceful stop (SIGTERM, then SIGKILL after a few seconds). Idempotent. */
  stop(): Promise<void>;
  /** SIGKILL, as a crash would. Resolves when the process is gone. */
  kill(): Promise<void>;
  /** SIGSTOP: the server hangs, its sockets still accept connections that nobody answers. */
  pause(): void;
  /** SIGCONT after {@link pause}. */
  resume(): void;
  /** Start again on the same ports and data directory; resolves when /ping answers. */
  restart(): Promise<void>;
  /** Stop and remove the temporary directory. */
  dispose(): Promise<void>;
}

/** Start a server and wait until it answers /ping. */
export async function startClickHouseServer(): Promise<TestClickHouseServer> {
  if (!existsSync(CLICKHOUSE_SERVER_BIN)) {
    throw new Error(
      `${CLICKHOUSE_SERVER_BIN} is missing, so the ClickHouse server tests cannot run. ` +
        'Run `npm test` from the repository root: it installs the Debian clickhouse-server package first.',
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'salient-ch-'));
  const [httpPort, tcpPort] = await freePorts(2);
  await mkdir(join(dir, 'data'), { recursive: true });
  await mkdir(join(dir, 'tmp'), { recursive: true });
  await mkdir(join(dir, 'log'), { recursive: true });
  await writeFile(join(dir, 'config.xml'), configXml(dir, httpPort!, tcpPort!));
  await writeFile(join(dir, 'users.xml'), USERS_XML);
  const url = `http://127.0.0.1:${httpPort}`;

  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const launch = async (): Promise<void> => {
    const proc = spawn(CLICKHOUSE_SERVER_BIN, [`--config-file=${join(dir, 'config.xml')}`], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    child = proc;
    // A test process that dies without stopping its server (an uncaught error, a forgotten dispose)
    // must not leave it running. 'exit' handlers run on those exits; nothing helps against SIGKILL.
    const orphan = () => proc.kill('SIGKILL');
    process.once('exit', orphan);
    exited = new Promise((resolve) =>
      proc.once('exit', () => {
        process.off('exit', orphan);
        resolve();
      }),
    );
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (proc.exitCode !== null || proc.signalCode !== null) {
        throw new Error(`clickhouse-server exited early (code ${proc.exitCode}, signal ${proc.signalCode}) in ${dir}:\n${stderr}`);
      }
      if (await pingOk(url)) return;
      if (Date.now() > deadline) {
        proc.kill('SIGKILL');
        throw new Error(`clickhouse-server did not answer ${url}/ping within 30 s (data in ${dir}):\n${stderr}`);
      }
      await sleep(50);
    }
  };

  const signal = async (sig: NodeJS.Signals): Promise<void> => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill(sig);
    // A paused server would keep the signal pending until it runs again.
    if (sig !== 'SIGKILL') proc.kill('SIGCONT');
    if (sig === 'SIGKILL') return exited;
    const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  await launch();
  return {
    url,
    dir,
    get pid() {
      return child?.pid;
    },
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
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

/** Ports the OS says are free right now: bind to port 0, note the port, let it go. */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const s = createServer();
          s.once('error', reject);
          s.listen(0, '127.0.0.1', () => resolve(s));
        }),
    ),
  );
  const ports = servers.map((s) => {
    const a = s.address();
    if (a === null || typeof a === 'string') throw new Error('no port');
    return a.port;
  });
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/** GET /ping on a fresh connection: a kept-alive one would make the server wait for it when stopping. */
function pingOk(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpGet(`${url}/ping`, { agent: false, timeout: 1000 }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve(res.statusCode === 200 && body.startsWith('Ok.')));
      res.on('error', () => resolve(false));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `SALIENT_TEST_CLICKHOUSE_LOG=debug` to see in `<dir>/log/server.log` what the server did. */
const LOG_LEVEL = process.env.SALIENT_TEST_CLICKHOUSE_LOG ?? 'warning';

function configXml(dir: string, httpPort: number, tcpPort: number): string {
  return `<?xml version="1.0"?>
<yandex>
  <logger>
    <level>${LOG_LEVEL}</level>
    <log>${dir}/log/server.log</log>
    <errorlog>${dir}/log/error.log</errorlog>
    <console>0</console>
  </logger>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <users_config>${dir}/users.xml</users_config>
  <mark_cache_size>536870912</mark_cache_size>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <shutdown_wait_unfinished>0</shutdown_wait_unfinished>
</yandex>
`;
}

const USERS_XML = `<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>::/0</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
    <salient>
      <password>${SALIENT_PASSWORD}</password>
      <networks><ip>::/0</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </salient>
  </users>
  <quotas><default></default></quotas>
</yandex>
`;
