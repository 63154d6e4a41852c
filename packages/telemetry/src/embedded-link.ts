/**
 * One embedded store, many processes. The embedded engine lets one process open a data directory;
 * until now every other command that wanted the store (`play --telemetry`, `report`, `tournament run`
 * while `serve` ran) was refused. Now the process that holds the store serves it to the others: it
 * listens on a loopback port and writes the port and a secret token to `<store>/salient-relay.json`
 * (readable by its user alone), and a process that finds the store held sends its ClickHouse calls
 * there. The calls are the ones `@clickhouse/client` makes of its connection (query, insert,
 * command, exec, ping), run by the holder on its own engine: the same SQL, the same deterministic row
 * keys, so the same exactly-once guarantees as a write of the holder's own.
 *
 * {@link EmbeddedLink} is that connection, for both roles: local (this process holds the engine, and
 * relays for the others) or remote (another process does). A remote link that loses its holder (it
 * exited) takes the store over itself if it can, or finds the next holder, and carries on; a call it
 * cannot place anywhere fails as unreachable, so a sink spools it, as for a server that went away.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parseError, type ClickHouseClientConfigOptions } from '@clickhouse/client';
import { SalientError } from '@salient/engine';
import { DEFAULT_DATABASE } from './config.ts';
import { ident } from './sql.ts';

/** The connection shape `@clickhouse/client` takes (chdb's embedded connection implements it too). */
export type Connection = NonNullable<ClickHouseClientConfigOptions['connection']>;
type QueryParams = Parameters<Connection['query']>[0];
type InsertParams = Parameters<Connection['insert']>[0];
type ExecParams = Parameters<Connection['exec']>[0];
type CommandParams = Parameters<Connection['command']>[0];

/**
 * How many sessions of its own the holder runs the main session's plain reads on, side by side (see
 * `readOn`), from SALIENT_EMBEDDED_READ_SESSIONS: unset or empty is 2, 0 runs them on the main session
 * as before (to compare); anything but a whole number from 0 to 64 is a `BAD_CONFIG` error.
 */
export function readSessionCount(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 2;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 64) {
    throw new SalientError('BAD_CONFIG', `SALIENT_EMBEDDED_READ_SESSIONS=${JSON.stringify(value)} is invalid: give how many sessions the embedded store reads on, a whole number from 0 (reads on the main session) to 64, or unset it for 2.`);
  }
  return n;
}

/** One of those sessions, and how many reads it runs now. */
interface ReadSession {
  conn: Promise<Connection>;
  running: number;
}

/** What the relay file says. */
export interface RelayInfo {
  pid: number;
  port: number;
  token: string;
  startedAt: string;
}

export const RELAY_FILE = 'salient-relay.json';

/** Which of the holder's sessions runs a call: the writer's, or the read-only one of ad hoc SQL. */
export type RelaySession = 'main' | 'reader';
type Op = 'query' | 'exec' | 'command' | 'insert' | 'ping';

/** A call as it travels: the connection method, its session, and the parameters that can travel. */
interface Call {
  op: Op;
  session: RelaySession;
  query?: string;
  clickhouse_settings?: Record<string, unknown>;
  query_params?: Record<string, unknown>;
  query_id?: string;
  values?: string;
}

/** The relay file of `path` if a live process other than this one wrote it. */
export function readRelay(path: string): RelayInfo | undefined {
  let info: RelayInfo;
  try {
    info = JSON.parse(readFileSync(join(path, RELAY_FILE), 'utf8')) as RelayInfo;
  } catch {
    return undefined;
  }
  if (!Number.isInteger(info.pid) || info.pid === process.pid || !Number.isInteger(info.port) || typeof info.token !== 'string') return undefined;
  try {
    process.kill(info.pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return undefined;
  }
  return info;
}

async function text(values: unknown): Promise<string> {
  if (values === undefined) return '';
  if (typeof values === 'string') return values;
  let out = '';
  for await (const chunk of values as AsyncIterable<unknown>) out += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
  return out;
}

const ok = (query_id: string) => ({ query_id, response_headers: {}, http_status_code: 200 });

/** Errors that mean the holder is gone (its port closed): the link looks for the store anew. */
function holderGone(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE';
}

/** Opens the embedded engine on `path` in this process (chdb), or throws if another process holds it. */
export type OpenLocal = (path: string) => Promise<Connection>;

/**
 * The embedded store's connection for this process: local (it holds the engine and relays for the
 * others) or remote (through the process that does). `main` and `reader` are the two sessions'
 * connections to hand `createClient`.
 */
export class EmbeddedLink {
  private local: { main: Connection; reader?: Promise<Connection>; readSessions: ReadSession[]; server: Server; info: RelayInfo } | undefined;
  private remote: RelayInfo | undefined;
  private acquiring: Promise<void> | undefined;
  private closed = false;
  /** How many read sessions (see `readOn`), from SALIENT_EMBEDDED_READ_SESSIONS. */
  private readonly readSessionLimit = readSessionCount(process.env.SALIENT_EMBEDDED_READ_SESSIONS);
  private readonly onExit = () => this.removeRelayFile();

  private constructor(
    readonly path: string,
    private readonly openLocal: OpenLocal,
    private readonly openReader: (path: string) => Promise<Connection>,
    private readonly openRead: (path: string) => Promise<Connection>,
  ) {}

  /**
   * Reach the store at `path`: through a live holder if there is one (no second open is tried, so the
   * engine prints nothing), else by opening it here, else through the holder that opened it meanwhile.
   * Throws what `openLocal` throws (`TELEMETRY_LOCKED`) when none of that works.
   */
  static async open(path: string, openLocal: OpenLocal, openReader: (path: string) => Promise<Connection>, openRead: (path: string) => Promise<Connection> = openReader): Promise<EmbeddedLink> {
    const link = new EmbeddedLink(path, openLocal, openReader, openRead);
    await link.acquire();
    return link;
  }

  /** Whether this process holds the engine (else it goes through process {@link holder}). */
  get holdsStore(): boolean {
    return this.local !== undefined;
  }

  /** The pid of the process that holds the engine. */
  get holder(): number {
    return this.local ? process.pid : (this.remote?.pid ?? 0);
  }

  readonly main: Connection = this.facade('main');
  readonly reader: Connection = this.facade('reader');

  /** Stop relaying and release the engine (if held). Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const l = this.local;
    this.local = undefined;
    if (!l) return;
    process.off('exit', this.onExit);
    this.removeRelayFile(l.info);
    await new Promise<void>((resolve) => l.server.close(() => resolve()));
    l.server.closeAllConnections();
    await l.reader?.then((r) => r.close()).catch(() => {});
    await Promise.all(l.readSessions.map((r) => r.conn.then((c) => c.close()).catch(() => {})));
    await l.main.close();
  }

  /** Find the store: a live holder's relay, else the engine here, else a holder that just started. */
  private acquire(): Promise<void> {
    return (this.acquiring ??= (async () => {
      try {
        const relay = readRelay(this.path);
        if (relay && (await this.reachable(relay))) {
          this.remote = relay;
          return;
        }
        try {
          await this.becomeHolder();
        } catch (e) {
          const late = readRelay(this.path);
          if (late && (await this.reachable(late))) {
            this.remote = late;
            return;
          }
          throw e;
        }
      } finally {
        this.acquiring = undefined;
      }
    })());
  }

  private async reachable(relay: RelayInfo): Promise<boolean> {
    try {
      await this.post(relay, { op: 'ping', session: 'main' });
      return true;
    } catch {
      return false;
    }
  }

  /** Open the engine here, prepare its session as every embedded store is, and relay for others. */
  private async becomeHolder(): Promise<void> {
    const main = await this.openLocal(this.path);
    try {
      for (const query of [`CREATE DATABASE IF NOT EXISTS ${ident(DEFAULT_DATABASE)}`, `USE ${ident(DEFAULT_DATABASE)}`]) {
        await main.command({ query, query_id: randomBytes(8).toString('hex') });
      }
    } catch (e) {
      await main.close();
      throw e;
    }
    const token = randomBytes(24).toString('base64url');
    const server = createServer((req, res) => void this.serve(token, req, res));
    // A holder with nothing else to do may exit: those it served find the store anew.
    server.unref();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const info: RelayInfo = { pid: process.pid, port: (server.address() as AddressInfo).port, token, startedAt: new Date().toISOString() };
    this.local = { main, readSessions: [], server, info };
    this.remote = undefined;
    // Written atomically, readable by this user alone: the token is what lets a process in.
    const file = join(this.path, RELAY_FILE);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(info) + '\n', { mode: 0o600 });
    renameSync(tmp, file);
    process.on('exit', this.onExit);
  }

  private removeRelayFile(info = this.local?.info): void {
    if (!info) return;
    try {
      const current = JSON.parse(readFileSync(join(this.path, RELAY_FILE), 'utf8')) as RelayInfo;
      if (current.pid === info.pid && current.port === info.port) rmSync(join(this.path, RELAY_FILE), { force: true });
    } catch {
      // gone already
    }
  }

  /** The holder's side of a relayed call. */
  private async serve(token: string, req: IncomingMessage, res: import('node:http').ServerResponse): Promise<void> {
    const given = Buffer.from(String(req.headers.authorization ?? '').replace(/^Bearer /, ''));
    const want = Buffer.from(token);
    if (req.method !== 'POST' || req.url !== '/call' || given.length !== want.length || !timingSafeEqual(given, want)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('not a Salient store relay call\n');
      return;
    }
    let call: Call;
    try {
      call = JSON.parse(await text(req)) as Call;
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad relay call\n');
      return;
    }
    try {
      const { body, meta } = await this.runLocal(call);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-salient-relay': JSON.stringify(meta) }).end(body);
    } catch (e) {
      const err = e as { message?: string; code?: unknown; type?: unknown };
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: err.message ?? String(e), code: err.code, type: err.type }));
    }
  }

  /** Reads of the main session answered already, or being answered (see {@link ReadCache}). */
  private readonly reads = new ReadCache();

  /** Run `call` on this process's engine: a read through the cache, a write after telling the cache. */
  private runLocal(call: Call): Promise<{ body: Buffer; meta: Record<string, unknown> }> {
    if (call.session === 'main' && call.op === 'query' && ReadCache.cacheable(call)) {
      if (!ReadCache.enabled) return this.runEngine(call, true);
      return this.reads.read(call, () => this.runEngine(call, true)).then(({ body, meta }) => ({ body, meta: { ...meta, ...(call.query_id ? { query_id: call.query_id } : {}) } }));
    }
    if (call.session === 'main' && call.op !== 'ping') return this.reads.write(() => this.runEngine(call));
    return this.runEngine(call);
  }

  /**
   * The session a plain read of the main session runs on: one of `readSessionLimit` sessions of
   * its own on the same data (the least busy, one thread a read), so reads run side by side (the
   * engine runs one statement at a time a session: eight readers of one match each queued behind one
   * another on the main session, ~1.5-1.8x the p95 of two sessions); the main session itself while a
   * write is under way there, so a read asked during a write waits for it as before.
   */
  private async readOn(l: NonNullable<EmbeddedLink['local']>): Promise<{ conn: Connection; done: () => void }> {
    if (this.reads.busy || this.readSessionLimit < 1) return { conn: l.main, done: () => {} };
    let s = l.readSessions.find((r) => r.running === 0);
    if (!s && l.readSessions.length < this.readSessionLimit) {
      const conn = this.openRead(this.path);
      s = { conn, running: 0 };
      l.readSessions.push(s);
      // One that cannot be opened is dropped; the read goes to the main session.
      conn.catch(() => l.readSessions.splice(l.readSessions.indexOf(s!), 1));
    }
    s ??= l.readSessions.reduce((a, b) => (b.running < a.running ? b : a));
    const session = s;
    session.running++;
    try {
      return { conn: await session.conn, done: () => void session.running-- };
    } catch {
      session.running--;
      return { conn: l.main, done: () => {} };
    }
  }

  /** Run `call` on this process's engine (`read`: a plain SELECT of the main session, see {@link readOn}). */
  private async runEngine(call: Call, read = false): Promise<{ body: Buffer; meta: Record<string, unknown> }> {
    const l = this.local;
    if (!l) throw Object.assign(new Error('this process no longer holds the embedded store'), { code: 'ECONNRESET' });
    if (read) {
      const { conn, done } = await this.readOn(l);
      try {
        const r = await conn.query({ query: call.query ?? '', ...(call.query_id ? { query_id: call.query_id } : {}) } as QueryParams);
        return { body: await collect(r.stream as Readable), meta: { query_id: r.query_id } };
      } finally {
        done();
      }
    }
    const conn = call.session === 'reader' ? await (l.reader ??= this.openReader(this.path)) : l.main;
    const base = {
      query: call.query ?? '',
      ...(call.clickhouse_settings ? { clickhouse_settings: call.clickhouse_settings } : {}),
      ...(call.query_params ? { query_params: call.query_params } : {}),
      ...(call.query_id ? { query_id: call.query_id } : {}),
    } as QueryParams;
    switch (call.op) {
      case 'ping': {
        const r = await conn.ping({ select: true } as Parameters<Connection['ping']>[0]);
        if (!r.success) throw r.error;
        return { body: Buffer.alloc(0), meta: {} };
      }
      case 'query': {
        const r = await conn.query(base);
        return { body: await collect(r.stream as Readable), meta: { query_id: r.query_id } };
      }
      case 'exec': {
        const r = await conn.exec({ ...base, ...(call.values !== undefined ? { values: Readable.from([call.values]) } : {}) } as ExecParams);
        return { body: await collect(r.stream as Readable), meta: { query_id: r.query_id, summary: r.summary } };
      }
      case 'command': {
        const r = await conn.command(base as CommandParams);
        return { body: Buffer.alloc(0), meta: { query_id: r.query_id, summary: r.summary } };
      }
      case 'insert': {
        const r = await conn.insert({ ...base, values: call.values ?? '' } as InsertParams);
        return { body: Buffer.alloc(0), meta: { query_id: r.query_id, summary: r.summary } };
      }
    }
  }

  /** A call from this process: here if it holds the engine, else through the holder (finding it anew if it went away). */
  private async call(call: Call): Promise<{ body: Buffer; meta: Record<string, unknown> }> {
    for (let attempt = 0; ; attempt++) {
      if (this.closed) throw new SalientError('IO', `The embedded telemetry store at ${this.path} was closed by this process.`);
      if (this.local) return this.runLocal(call);
      const relay = this.remote;
      if (!relay) {
        await this.acquire();
        continue;
      }
      try {
        return await this.post(relay, call);
      } catch (e) {
        if (!holderGone(e) || attempt >= 1) throw e;
        // The holder exited: take the store over, or reach whoever did.
        this.remote = undefined;
        try {
          await this.acquire();
        } catch {
          throw e;
        }
      }
    }
  }

  private post(relay: RelayInfo, call: Call): Promise<{ body: Buffer; meta: Record<string, unknown> }> {
    const payload = JSON.stringify(call);
    return new Promise((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port: relay.port, path: '/call', method: 'POST', agent: false, headers: { authorization: `Bearer ${relay.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
        (res) => {
          collect(res).then((body) => {
            if (res.statusCode === 200) {
              let meta: Record<string, unknown> = {};
              try {
                meta = JSON.parse(String(res.headers['x-salient-relay'] ?? '{}')) as Record<string, unknown>;
              } catch {
                // none
              }
              resolve({ body, meta });
            } else if (res.statusCode === 500) {
              let e: { message?: string; code?: unknown; type?: unknown } = {};
              try {
                e = JSON.parse(body.toString('utf8')) as typeof e;
              } catch {
                e = { message: body.toString('utf8') };
              }
              // The engine's own error, as the holder's client would have seen it.
              const err = parseError(e.message ?? 'the store relay failed');
              if (typeof e.code === 'string' && !(err as { code?: string }).code) Object.assign(err, { code: e.code });
              reject(err);
            } else reject(new SalientError('TELEMETRY_LOCKED', `The process holding the embedded telemetry store at ${this.path} refused a relayed call (HTTP ${res.statusCode}: ${body.toString('utf8').trim()}).`));
          }, reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  private facade(session: RelaySession): Connection {
    const params = (p: QueryParams): Omit<Call, 'op' | 'session'> => ({
      query: p.query,
      ...(p.clickhouse_settings ? { clickhouse_settings: p.clickhouse_settings as Record<string, unknown> } : {}),
      ...(p.query_params ? { query_params: p.query_params } : {}),
      ...(p.query_id ? { query_id: p.query_id } : {}),
    });
    const id = (p: { query_id?: string | undefined }, meta: Record<string, unknown>) => String(meta.query_id ?? p.query_id ?? '');
    return {
      ping: async () => {
        try {
          await this.call({ op: 'ping', session });
          return { success: true };
        } catch (e) {
          return { success: false, error: e instanceof Error ? e : new Error(String(e)) };
        }
      },
      query: async (p) => {
        const { body, meta } = await this.call({ op: 'query', session, ...params(p) });
        return { stream: readable(body), ...ok(id(p, meta)) };
      },
      exec: async (p) => {
        const values = p.values === undefined ? undefined : await text(p.values);
        const { body, meta } = await this.call({ op: 'exec', session, ...params(p), ...(values !== undefined ? { values } : {}) });
        return { stream: readable(body), ...ok(id(p, meta)), summary: meta.summary as never };
      },
      command: async (p) => {
        const { meta } = await this.call({ op: 'command', session, ...params(p) });
        return { ...ok(id(p, meta)), summary: meta.summary as never };
      },
      insert: async (p) => {
        const values = await text(p.values);
        const { meta } = await this.call({ op: 'insert', session, ...params(p), values });
        return { ...ok(id(p, meta)), summary: meta.summary as never };
      },
      close: async () => {},
    } as Connection;
  }
}

function collect(stream: AsyncIterable<unknown>): Promise<Buffer> {
  return (async () => {
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : Buffer.from(c as Uint8Array));
    return Buffer.concat(chunks);
  })();
}

function readable(body: Buffer): Readable {
  const r = Readable.from([body]);
  // An unread result closed by the client must not become an uncaught error (as chdb's own buffers).
  r.on('error', () => {});
  return r;
}

/**
 * Answers of the embedded engine's main session to reads, kept until the next write. The engine runs
 * one statement at a time a session and costs a few milliseconds a statement however small, so the
 * dashboard's reads, asked again and again (several views, several viewers, a page that refreshes),
 * queue behind one another (on the holder's few read sessions, see `readOn`); the same read asked
 * while nothing was written since has the same answer.
 *
 * Exact because every write to the store goes through this process: the engine's data directory is
 * held by this process alone, and the other processes' calls are relayed here (see the file comment).
 * A write (an insert, a command, an exec, a query that is not a plain SELECT) moves the generation on
 * when it starts and again when it ends, and empties the cache; a read is kept only if no write started
 * or ended while it ran, so an answer that may or may not have seen a write is never reused. Reads
 * asked while the same read runs wait for its answer. Only plain SELECTs without settings or
 * parameters are kept (a setting is applied to the session with `SET`, which a kept answer would skip),
 * and none that reads the `system` database or the clock (see {@link ReadCache.cacheable}),
 * answers up to {@link ReadCache.MAX_ANSWER} bytes and {@link ReadCache.MAX_BYTES} in all. Background
 * merges change no answer of a query that counts each row once (FINAL, or sums of signs), which is how
 * every query of this package reads.
 */
export class ReadCache {
  /** Off with SALIENT_EMBEDDED_READ_CACHE=0 (to measure the engine's own time, as bench:api does). */
  static readonly enabled = process.env.SALIENT_EMBEDDED_READ_CACHE !== '0';
  static readonly MAX_ANSWER = 1 << 20;
  static readonly MAX_BYTES = 32 << 20;
  private generation = 0;
  private writing = 0;

  /** Whether a write is under way. */
  get busy(): boolean {
    return this.writing > 0;
  }
  private bytes = 0;
  private readonly kept = new Map<string, { body: Buffer; meta: Record<string, unknown> }>();
  private readonly running = new Map<string, Promise<{ body: Buffer; meta: Record<string, unknown> }>>();

  /**
   * A read that can be kept: a plain SELECT (or WITH ... SELECT), no settings, no parameters, and an
   * answer that only a write can change: nothing from the `system` database (merges, parts, processes
   * and the like change in the background; a wait for merges to end read a kept "1" for ever) and no
   * function of the clock or of chance.
   */
  static cacheable(call: Pick<Call, 'query' | 'clickhouse_settings' | 'query_params'>): boolean {
    const settings = Object.keys(call.clickhouse_settings ?? {}).filter((k) => call.clickhouse_settings?.[k] !== undefined);
    const query = call.query ?? '';
    return (
      settings.length === 0 &&
      Object.keys(call.query_params ?? {}).length === 0 &&
      /^\s*(SELECT|WITH)\b/i.test(query) &&
      !/\bsystem\s*\.|\b(now|now64|today|yesterday|rand\w*|generateUUID\w*|uptime|currentDatabase|queryID|serverUUID)\s*\(/i.test(query)
    );
  }

  /** How many answers are kept (for tests). */
  get size(): number {
    return this.kept.size;
  }

  /** The answer to `call`: kept, being worked out, or worked out now by `run`. */
  read(call: Pick<Call, 'query'>, run: () => Promise<{ body: Buffer; meta: Record<string, unknown> }>): Promise<{ body: Buffer; meta: Record<string, unknown> }> {
    const key = call.query ?? '';
    const kept = this.kept.get(key);
    if (kept) return Promise.resolve(kept);
    const running = this.running.get(key);
    if (running) return running;
    const generation = this.generation;
    const clean = this.writing === 0;
    const p = run().then(
      (answer) => {
        if (this.running.get(key) === p) this.running.delete(key);
        if (clean && this.writing === 0 && this.generation === generation && answer.body.length <= ReadCache.MAX_ANSWER) {
          while (this.bytes + answer.body.length > ReadCache.MAX_BYTES && this.kept.size > 0) {
            const [oldest, a] = this.kept.entries().next().value as [string, { body: Buffer }];
            this.kept.delete(oldest);
            this.bytes -= a.body.length;
          }
          this.kept.set(key, answer);
          this.bytes += answer.body.length;
        }
        return answer;
      },
      (e: unknown) => {
        if (this.running.get(key) === p) this.running.delete(key);
        throw e;
      },
    );
    // Only reads begun with no write under way may be shared: a read begun during one may miss it.
    if (clean) this.running.set(key, p);
    return p;
  }

  /** Run a write: what was kept, and reads under way, are not reused past it. */
  async write<T>(run: () => Promise<T>): Promise<T> {
    this.moveOn();
    this.writing++;
    try {
      return await run();
    } finally {
      this.writing--;
      this.moveOn();
    }
  }

  private moveOn(): void {
    this.generation++;
    this.kept.clear();
    this.running.clear();
    this.bytes = 0;
  }
}
