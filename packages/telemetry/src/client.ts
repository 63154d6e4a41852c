/**
 * Opening the ClickHouse store: a `@clickhouse/client` over either an embedded chdb connection or a
 * server's HTTP interface, with Salient's database created and selected.
 *
 * The embedded engine binds one data directory per process and refuses a second process on the same
 * directory, so the embedded client is opened once per process and shared (reference counted), and a
 * directory locked by another process is reported with that process's id and command line.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { join, resolve } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import { ClickHouseLogLevel, createClient, parseError, type ClickHouseClient, type ClickHouseSettings } from '@clickhouse/client';
import { SalientError } from '@salient/engine';
import { DEFAULT_DATABASE, describeConfig, withoutUrlCredentials, type EmbeddedConfig, type ServerConfig, type TelemetryConfig } from './config.ts';
import { isUnreachable, reason, serverError } from './failures.ts';
import { StoreLink, type StoreLinkOptions } from './link.ts';
import { EmbeddedLink, type Connection } from './embedded-link.ts';
import { ident } from './sql.ts';

/** An open ClickHouse store with Salient's database selected. */
export interface Store {
  readonly mode: 'embedded' | 'server';
  /** One line saying where the data is, for people. */
  readonly where: string;
  /** The database holding Salient's tables; queries name tables through it. */
  readonly database: string;
  readonly client: ClickHouseClient;
  /** A {@link SalientError} for a failure while doing `what`, saying where and what to do. */
  fail(what: string, e: unknown): SalientError;
  /** True when `e` means the store could not be reached (a server that is down), so rows may wait. */
  unreachable(e: unknown): boolean;
  /**
   * Whether the server is there as this process's writers last found it: while it is down they spool
   * at once, and it probes until the server answers (see {@link StoreLink}). Always up when embedded.
   */
  readonly link: StoreLink;
  /**
   * Where ad hoc SQL runs: a client and per-query settings under which ClickHouse itself runs the
   * query read-only (`readonly=1`: no writes, no settings changes, and on ClickHouse 18.16 no table
   * functions at all). See `ad-hoc-query.ts` for what read-only mode does not cover.
   */
  readOnly(): Promise<ReadOnlyAccess>;
  /**
   * Rows of a plain SELECT as JSONEachRow objects, the same as `client.query` gives, where the store has
   * a leaner way to ask (a server store, see {@link leanReader}); absent, reads go through `client`.
   */
  readonly select?: <T>(query: string) => Promise<T[]>;
  /** Release the client. Idempotent; the shared embedded client closes with its last user. */
  close(): Promise<void>;
}

/** A client whose queries ClickHouse runs read-only, with the settings to send with each query. */
export interface ReadOnlyAccess {
  readonly client: ClickHouseClient;
  readonly settings: ClickHouseSettings;
}

/** Open the store `config` names. See {@link openEmbedded} and {@link openServer}. */
export function openStore(config: TelemetryConfig, o: OpenServerOptions = {}): Promise<Store> {
  return config.kind === 'embedded' ? openEmbedded(config) : openServer(config, o);
}

const QUIET = { level: ClickHouseLogLevel.OFF };

/**
 * JSON handling of every client: rows the sink already encoded (strings; a JSONEachRow row is an
 * object, never a bare string) go out as they are, so a row is not encoded twice.
 */
/** Settings every query of a server store carries (see `openServer`). */
export const SERVER_READ_SETTINGS = { max_read_buffer_size: '65536' } as const;

const JSON_ROWS = { parse: JSON.parse, stringify: (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v)) };

interface SharedEmbedded {
  client: ClickHouseClient;
  /** This process's way to the engine: its own, or through the process that holds it. */
  link: EmbeddedLink;
  refs: number;
  /** The read-only session for ad hoc SQL, opened on first use. */
  reader?: ClickHouseClient;
}

/** The one embedded engine of this process, by absolute data path. */
const embedded = new Map<string, Promise<SharedEmbedded>>();

/**
 * Open (or share) the embedded store at `config.path`. Throws `TELEMETRY_LOCKED` when another process
 * holds that directory, when this process already has a different one open, or off the main thread.
 */
export async function openEmbedded(config: EmbeddedConfig): Promise<Store> {
  const path = resolve(config.path);
  if (!isMainThread) {
    // Each thread has its own module state, so the per-process cache cannot see the main thread's
    // engine, and sessions on one directory from several threads can hang.
    throw new SalientError(
      'TELEMETRY_LOCKED',
      `The embedded telemetry store (${path}) can only be opened on the main thread of a process. ` +
        'Send rows from worker threads to the main thread and write them there, or point SALIENT_CLICKHOUSE_URL at a ClickHouse server.',
    );
  }
  const other = [...embedded.keys()].find((p) => p !== path);
  if (other !== undefined) {
    throw new SalientError(
      'TELEMETRY_LOCKED',
      `This process already has the embedded telemetry store at ${other} open, and the embedded engine allows one data directory per process, ` +
        `so it cannot also open ${path}. Use one SALIENT_CLICKHOUSE_PATH per process, or point SALIENT_CLICKHOUSE_URL at a ClickHouse server.`,
    );
  }
  let pending = embedded.get(path);
  if (!pending) {
    pending = createEmbedded(path);
    embedded.set(path, pending);
    pending.catch(() => embedded.delete(path));
  }
  const shared = await pending;
  shared.refs++;
  let closed = false;
  const described = describeConfig(config);
  const where = () => (shared.link.holdsStore ? described : `${described} (held by process ${shared.link.holder}, reached through it)`);
  // Only a relayed store can be away (its holder exited and nobody could take the store over): the
  // writers then spool, and the link probes until the store answers again.
  const storeLink = new StoreLink(async () => {
    const r = await shared.link.main.ping({ select: true } as Parameters<Connection['ping']>[0]);
    if (!r.success) throw r.error;
  });
  return {
    mode: 'embedded',
    get where() {
      return where();
    },
    database: DEFAULT_DATABASE,
    client: shared.client,
    fail: (what, e) => (e instanceof SalientError ? e : new SalientError('IO', `The ${where()} failed while ${what}: ${reason(e)}`)),
    unreachable: isUnreachable,
    link: storeLink,
    readOnly: async () => {
      shared.reader ??= createClient({ connection: shared.link.reader, log: QUIET, json: JSON_ROWS });
      return { client: shared.reader, settings: {} };
    },
    close: async () => {
      if (closed) return;
      closed = true;
      storeLink.close();
      if (--shared.refs > 0) return;
      embedded.delete(path);
      const reader = shared.reader;
      delete shared.reader;
      await reader?.close().catch(() => {});
      await shared.client.close();
      await shared.link.close();
    },
  };
}

async function createEmbedded(path: string): Promise<SharedEmbedded> {
  mkdirSync(path, { recursive: true });
  // Here, or through the process that holds the store (see embedded-link.ts).
  let link: EmbeddedLink;
  try {
    link = await EmbeddedLink.open(path, openChdb, openReader, openReadSession);
  } catch (e) {
    if (e instanceof SalientError) throw e;
    throw new SalientError('IO', `The embedded telemetry store at ${path} could not be prepared: ${reason(e)}`);
  }
  // chdb types its connection against @clickhouse/client-common, which @clickhouse/client 1.23 now
  // bundles under its own declarations: the same shape, nominally different types.
  const client = createClient({ connection: link.main, log: QUIET, json: JSON_ROWS });
  return { client, link, refs: 0 };
}

/** The embedded engine on `path` in this process; `TELEMETRY_LOCKED` naming the holder when another process has it. */
async function openChdb(path: string): Promise<Connection> {
  // Loaded only here: the embedded engine is a large native library that server users never need.
  const { createChdbConnection } = await import('chdb/connection');
  try {
    return createChdbConnection({ path }) as unknown as Connection;
  } catch (e) {
    throw lockedError(path, e);
  }
}

/**
 * A second chdb session on the same data directory, read-only for as long as it lives. The embedded
 * connection applies per-query settings as `SET` on its session, which would last beyond the query
 * and would reach the sink's writes on a shared session; a session of its own can be read-only for
 * good (readonly=1 also forbids setting readonly back).
 */
async function openReader(path: string): Promise<Connection> {
  const { createChdbConnection } = await import('chdb/connection');
  const connection = createChdbConnection({ path }) as unknown as Connection;
  try {
    for (const query of [`USE ${ident(DEFAULT_DATABASE)}`, 'SET readonly = 1']) await connection.command({ query } as Parameters<Connection['command']>[0]);
  } catch (e) {
    await connection.close();
    throw new SalientError('IO', `A read-only session on the embedded telemetry store at ${path} could not be opened: ${reason(e)}`);
  }
  return connection;
}

/**
 * Another chdb session on the same data directory for the main session's plain reads, which the
 * holder runs there side by side (see `readOn` in embedded-link.ts); prepared as the main one is.
 */
async function openReadSession(path: string): Promise<Connection> {
  const { createChdbConnection } = await import('chdb/connection');
  const connection = createChdbConnection({ path }) as unknown as Connection;
  try {
    // One thread a read: the dashboard's reads are small, and a pipeline of two threads for one doubled
    // the engine's CPU (reading one match's page rows: ~7.5 ms with two, ~3.5 with one, on 2 cores).
    for (const query of [`USE ${ident(DEFAULT_DATABASE)}`, 'SET max_threads = 1']) await connection.command({ query } as Parameters<Connection['command']>[0]);
  } catch (e) {
    await connection.close();
    throw e;
  }
  return connection;
}

/** Explain a refused embedded open: the data directory's `status` file names the process holding it. */
function lockedError(path: string, e: unknown): SalientError {
  const holder = lockHolder(path);
  if (holder === undefined || holder.pid === process.pid) {
    return new SalientError(
      'TELEMETRY_LOCKED',
      `The embedded telemetry store at ${path} could not be opened (${reason(e)}). ` +
        'Another process may hold it; stop it, or point SALIENT_CLICKHOUSE_URL at a ClickHouse server.',
    );
  }
  const who = holder.cmdline ? `${holder.pid} (${holder.cmdline})` : `${holder.pid}`;
  return new SalientError(
    'TELEMETRY_LOCKED',
    `The embedded telemetry store at ${path} is in use by process ${who}. Stop that process, or point SALIENT_CLICKHOUSE_URL at a ClickHouse server.`,
  );
}

/** The live process named in `<path>/status`, if any, with its command line when readable. */
export function lockHolder(path: string): { pid: number; cmdline?: string } | undefined {
  let status: string;
  try {
    status = readFileSync(join(path, 'status'), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(/^PID:\s*(\d+)/m.exec(status)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: alive but not ours to signal; anything else: gone, so the status file is stale.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return cmdline ? { pid, cmdline } : { pid };
  } catch {
    return { pid };
  }
}

/** Options of {@link openServer}. */
export interface OpenServerOptions {
  /**
   * What opening does when the server cannot be reached (refused, or no answer within
   * `openTimeoutMs`): `fail` (default) throws `TELEMETRY_UNREACHABLE`; `spool` returns the store
   * with its link down, so writers spool, and the link keeps probing until the server answers, then
   * prepares it (`prepare`, e.g. migrations) and comes up.
   */
  whenUnreachable?: 'fail' | 'spool';
  /** Longest wait for each query of the opening checks (default 10 000 ms). */
  openTimeoutMs?: number;
  /** More to do once the server answers, before the link is up (migrations); run by the first open and by every probe until one succeeds. */
  prepare?: (store: Store) => Promise<void>;
  /** Probing while the server is away. */
  probe?: StoreLinkOptions;
}

/**
 * Connect to a server, check the credentials with a real query (a ping succeeds even with a wrong
 * password), create the database if missing and select it. See {@link OpenServerOptions} for a
 * server that is away.
 */
export async function openServer(given: ServerConfig, o: OpenServerOptions = {}): Promise<Store> {
  // Credentials travel in the client's options, never in a URL that messages and logs would show.
  const config = withoutUrlCredentials(given);
  const address = { url: config.url, username: config.username };
  const base = { url: config.url, username: config.username, password: config.password, log: QUIET, json: JSON_ROWS };
  const openTimeout = o.openTimeoutMs ?? 10_000;
  // Every check of the way in is bounded: a stopped server accepts connections and never answers.
  const prepareServer = async (): Promise<void> => {
    const admin = createClient({ ...base, request_timeout: openTimeout });
    try {
      await admin.query({ query: 'SELECT 1', format: 'JSONEachRow' }).then((r) => r.json());
      await admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${ident(config.database)}` });
    } catch (e) {
      throw serverError(address, `creating database ${config.database}`, e);
    } finally {
      await admin.close();
    }
  };
  // Reads use 64 KiB file buffers, not the server's 1 MiB default: a read of a few rows opens every
  // column it names, and each column's buffer cost more than its rows (one match's summary, 27 columns
  // of one 256-row granule: ~10 ms of the server's CPU, ~3.7 with 64 KiB; a FINAL read of every match
  // row 254 -> 56 ms; measured on ClickHouse 18.16 over 100 000 matches, bench/api.bench.ts's store).
  const client = createClient({ ...base, database: config.database, clickhouse_settings: SERVER_READ_SETTINGS });
  const lean = leanReader(config);
  let closed = false;
  const ready = async (): Promise<void> => {
    await prepareServer();
    await o.prepare?.(store);
  };
  const link = new StoreLink(ready, undefined, o.probe);
  const store: Store = {
    mode: 'server',
    where: describeConfig(config),
    database: config.database,
    client,
    fail: (what, e) => serverError(address, what, e),
    unreachable: isUnreachable,
    link,
    // Over HTTP each request has its own settings, so readonly=1 holds for that query alone.
    readOnly: async () => ({ client, settings: { readonly: '1' } }),
    select: lean.select,
    close: async () => {
      if (closed) return;
      closed = true;
      link.close();
      lean.close();
      await client.close();
    },
  };
  try {
    await ready();
  } catch (e) {
    if (o.whenUnreachable === 'spool' && isUnreachableError(e)) {
      link.down(e);
      return store;
    }
    await store.close();
    throw e;
  }
  return store;
}

/** Unreachable, whether still the client's error or already our `TELEMETRY_UNREACHABLE`. */
function isUnreachableError(e: unknown): boolean {
  return (e instanceof SalientError && e.code === 'TELEMETRY_UNREACHABLE') || isUnreachable(e);
}

/** Longest wait for an answer of {@link leanReader} (the client's own default request timeout). */
const LEAN_TIMEOUT_MS = 30_000;
/** Idle keep-alive sockets are closed before the server's own keep-alive timeout (3 s by default) closes them under a request. */
const LEAN_IDLE_MS = 2_000;

/**
 * Plain reads of a server store as bare keep-alive HTTP requests, with the settings of every read
 * ({@link SERVER_READ_SETTINGS}) in the URL. `client.query` costs the API ~2.3 ms of CPU a query
 * (its request set-up, abort signals and streams), a bare request ~0.6 ms (measured on the Debian
 * 18.16 server, `SELECT 1`, one at a time); the dashboard's reads are a query or two a request,
 * 8 in flight on 2 cores shared with the server, so that CPU is latency. The answer is the same:
 * JSONEachRow parsed line by line with `JSON.parse`, as the clients' `json` option does; an error is
 * the server's own (`parseError`, as the client reports it), a lost or silent server the same network
 * error or `Timeout error.` the client gives. A request on a kept socket that the server had closed
 * meanwhile is sent once more on a new one (a SELECT changes nothing).
 */
export function leanReader(config: Pick<ServerConfig, 'url' | 'username' | 'password' | 'database'>): { select: <T>(query: string) => Promise<T[]>; close: () => void } {
  const url = new URL(config.url);
  const secure = url.protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true, timeout: LEAN_IDLE_MS }) : new HttpAgent({ keepAlive: true, timeout: LEAN_IDLE_MS });
  const send = secure ? httpsRequest : httpRequest;
  // `[::1]` in a URL, `::1` to connect to.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const params = new URLSearchParams({ database: config.database, ...SERVER_READ_SETTINGS });
  const path = `${url.pathname.replace(/\/$/, '')}/?${params.toString()}`;
  const headers = {
    authorization: `Basic ${Buffer.from(`${config.username}:${config.password ?? ''}`).toString('base64')}`,
    'content-type': 'text/plain; charset=utf-8',
  };
  const once = (body: string): Promise<{ status: number; text: string; reused: boolean }> =>
    new Promise((resolve, reject) => {
      const req = send({ protocol: url.protocol, hostname, port: url.port, path, method: 'POST', agent, headers }, (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), reused: req.reusedSocket });
        });
        res.on('error', (e) => {
          clearTimeout(timer);
          reject(Object.assign(e, { reused: req.reusedSocket }));
        });
      });
      const timer = setTimeout(() => req.destroy(new Error('Timeout error.')), LEAN_TIMEOUT_MS);
      req.on('error', (e) => {
        clearTimeout(timer);
        reject(Object.assign(e, { reused: req.reusedSocket }));
      });
      req.end(body);
    });
  const select = async <T>(query: string): Promise<T[]> => {
    const body = `${query}\nFORMAT JSONEachRow`;
    let answer: { status: number; text: string };
    try {
      answer = await once(body);
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (!(e as { reused?: boolean }).reused || (code !== 'ECONNRESET' && code !== 'EPIPE')) throw e;
      answer = await once(body);
    }
    if (answer.status !== 200) throw parseError(answer.text);
    const out: T[] = [];
    for (const line of answer.text.split('\n')) {
      if (line === '') continue;
      try {
        out.push(JSON.parse(line) as T);
      } catch (e) {
        // An error met after the answer began comes at its end, as text.
        throw /^Code: \d+/.test(line) ? parseError(line) : e;
      }
    }
    return out;
  };
  return { select, close: () => agent.destroy() };
}
