/**
 * Credentials never leak (issue 26, item 4). A real clickhouse-server whose `salient` user has a
 * password, given inside SALIENT_CLICKHOUSE_URL as users write it; a real redis-server whose password
 * is in its URL; a write token. The API in this process (its pino log into a buffer), a worker, and
 * `salient serve` and `salient query` as processes are asked for /health, refused writes with tokens
 * in the query string, good writes, and reads while ClickHouse is down. Every log line, banner, error
 * and answer (status, headers, body) is then searched for every secret.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createLogger } from '@salient/api';
import { openTelemetry, telemetryConfigFromEnv } from '@salient/telemetry';
import { connectRedis } from '@salient/scheduler/bullmq';
import { runWorkerProcess } from '@salient/worker';
import { SALIENT_PASSWORD, startClickHouseServer, type TestClickHouseServer } from '../packages/telemetry/test/support/clickhouse-server.ts';
import { startRedisServer, type TestRedisServer } from './support/redis-server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TOKEN = 'write-token-3f9c1b7e5a';
const WRONG_TOKEN = 'guessed-token-8d2e4a';
const REDIS_PASSWORD = 'redis-password-51e0c';
const WRONG_CH_PASSWORD = 'wrong-clickhouse-password-77aa';
const WRONG_REDIS_PASSWORD = 'wrong-redis-password-19bd';
const SECRETS = [SALIENT_PASSWORD, TOKEN, WRONG_TOKEN, REDIS_PASSWORD, WRONG_CH_PASSWORD, WRONG_REDIS_PASSWORD];
const SPEC = 'id: creds\ngame: blitz\nscenarios: [A]\nentrants: [random, greedy]\ngamesPerPairing: 2\nsideSwap: true\n';

let ch: TestClickHouseServer;
let redis: TestRedisServer;
let root = '';
/** The server's URL with the `salient` user's password in it. */
let chUrl = '';

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'salient-credentials-'));
  [ch, redis] = await Promise.all([startClickHouseServer(), startRedisServer({ password: REDIS_PASSWORD })]);
  chUrl = ch.url.replace('http://', `http://salient:${encodeURIComponent(SALIENT_PASSWORD)}@`);
}, 60_000);

afterAll(async () => {
  await Promise.all([ch?.dispose(), redis?.dispose()]);
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Fails naming the secret and where it showed, if any secret is in any of `texts`. */
function expectNoSecret(texts: readonly string[]): void {
  for (const text of texts) for (const secret of SECRETS) expect(text.includes(secret), `${secret} in: ${text.slice(0, 400)}`).toBe(false);
}

describe('credentials never leak', () => {
  it('the API and a worker in this process: no password or token in any log line, answer or error', async () => {
    const config = telemetryConfigFromEnv({ SALIENT_CLICKHOUSE_URL: chUrl, SALIENT_CLICKHOUSE_DATABASE: 'salient_creds_api', SALIENT_SPOOL_DIR: join(root, 'spool-api') }, root);
    expect(config).toMatchObject({ kind: 'server', url: ch.url, username: 'salient', password: SALIENT_PASSWORD });
    const shown: string[] = [];
    const lines: string[] = [];
    const logger = createLogger('info', new Writable({ write: (chunk, _enc, done) => (lines.push(...String(chunk).split('\n').filter(Boolean)), done()) }));
    const telemetry = await openTelemetry(config);
    expect(telemetry.where).toBe(`ClickHouse server ${ch.url} (user salient, database salient_creds_api)`);
    const app = await buildApp({ telemetry, tokens: [TOKEN], redis: redis.url, logger, processMetrics: false });
    const ask = async (method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}, payload?: object) => {
      const r = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      shown.push(`${r.statusCode} ${JSON.stringify(r.headers)} ${r.body}`);
      return r;
    };
    try {
      const health = await ask('GET', '/health');
      expect(health.statusCode).toBe(200);
      expect(health.json().clickhouse.where).toBe(telemetry.where);
      for (const query of [`token=${TOKEN}`, `access_token=${WRONG_TOKEN}`, `api_key=${WRONG_TOKEN}&password=${WRONG_TOKEN}`, `scenario=A&auth=${WRONG_TOKEN}`]) {
        expect((await ask('POST', `/api/tournaments/creds/cancel?${query}`, {}, {})).statusCode).toBe(401);
      }
      expect((await ask('POST', '/api/tournaments', { authorization: `Bearer ${WRONG_TOKEN}` }, { spec: SPEC })).statusCode).toBe(401);
      expect((await ask('POST', '/api/tournaments', { authorization: `Bearer ${TOKEN}` }, { spec: SPEC })).statusCode).toBe(200);
      expect((await ask('GET', `/api/tournaments/creds?token=${TOKEN}`)).statusCode).toBe(200);
      await ch.stop();
      expect((await ask('GET', '/health')).statusCode).toBe(503);
      expect((await ask('GET', '/api/matches')).json()).toMatchObject({ error: 'TELEMETRY_UNREACHABLE' });
      expect((await ask('POST', '/api/tournaments/creds/cancel', { authorization: `Bearer ${TOKEN}` }, {})).statusCode).toBe(200);
    } finally {
      await app.close();
      await telemetry.close();
      await ch.restart();
    }
    // Refused logins and wrong passwords say who and where, never the password.
    const chRefused = await openTelemetry(telemetryConfigFromEnv({ SALIENT_CLICKHOUSE_URL: ch.url.replace('http://', `http://salient:${WRONG_CH_PASSWORD}@`) }, root)).catch((e: Error) => e);
    expect(chRefused).toMatchObject({ code: 'TELEMETRY_AUTH', message: expect.stringContaining(`The ClickHouse server at ${ch.url} refused user 'salient'`) });
    const redisRefused = await connectRedis(redis.url.replace(encodeURIComponent(REDIS_PASSWORD), WRONG_REDIS_PASSWORD), 2000).catch((e: Error) => e);
    expect(redisRefused).toMatchObject({ code: 'QUEUE_UNREACHABLE' });
    shown.push((chRefused as Error).message, (redisRefused as Error).message);
    // A worker on the Redis with a password: its log lines name Redis without it.
    const workerLog: Record<string, unknown>[] = [];
    const worker = await runWorkerProcess({ redis: redis.url, metricsPort: 0, telemetry: false, handleSignals: false, name: 'creds', log: (l) => workerLog.push(l) });
    await worker.close();
    expect(workerLog.find((l) => l.msg === 'worker started')?.redis).toBe(`redis://127.0.0.1:${redis.port}`);

    expect(lines.some((l) => l.includes(`token=***`) && l.includes('access_token') === false)).toBe(true);
    expect(lines.some((l) => l.includes('access_token=***'))).toBe(true);
    expectNoSecret([...lines, ...shown, ...workerLog.map((l) => JSON.stringify(l))]);
  }, 120_000);

  it('`salient serve` and `salient query` as processes: the banner names the URL\'s user; no password or token in any output or answer', async () => {
    const env = {
      ...process.env,
      NO_COLOR: '1',
      SALIENT_CLICKHOUSE_URL: chUrl,
      SALIENT_CLICKHOUSE_USER: '',
      SALIENT_CLICKHOUSE_PASSWORD: '',
      SALIENT_CLICKHOUSE_DATABASE: 'salient_creds_cli',
      SALIENT_SPOOL_DIR: join(root, 'spool-cli'),
      SALIENT_API_TOKENS: TOKEN,
      SALIENT_REDIS_URL: redis.url,
    };
    const shown: string[] = [];
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', 'serve', '--port', '0', '--log', 'info'], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          const m = /Salient API on (http:\/\/\S+\/) /.exec(stderr);
          if (m) resolve(m[1] as string);
        });
        child.on('exit', (code) => reject(new Error(`serve exited (${code}) before listening:\n${stderr}`)));
      });
      expect(stderr).toContain(`Store: ClickHouse server ${ch.url} (user salient, database salient_creds_cli).`);
      const ask = async (path: string, init: RequestInit = {}) => {
        const r = await fetch(`${url}${path}`, init);
        shown.push(`${r.status} ${JSON.stringify([...r.headers])} ${await r.text()}`);
        return r.status;
      };
      const post = (path: string, headers: Record<string, string> = {}) => ask(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
      expect(await ask('health')).toBe(200);
      expect(await post(`api/tournaments/none/cancel?token=${TOKEN}`)).toBe(401);
      expect(await post(`api/tournaments/none/cancel?access_token=${WRONG_TOKEN}`)).toBe(401);
      expect(await post('api/tournaments/none/cancel', { authorization: `Bearer ${WRONG_TOKEN}` })).toBe(401);
      expect(await post('api/tournaments/none/cancel', { authorization: `Bearer ${TOKEN}` })).toBe(404);
      await ch.stop();
      expect(await ask('health')).toBe(503);
      expect(await ask(`api/win-rates?token=${TOKEN}`)).toBe(503);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      // A command that fails to reach the server says where it looked, without the password.
      const query = spawnSync(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', 'query', 'SELECT 1'], { cwd: ROOT, env, encoding: 'utf8' });
      expect(query.status).toBe(2);
      expect(query.stderr).toContain(`Cannot reach the ClickHouse server at ${ch.url}`);
      shown.push(query.stdout, query.stderr);
    } finally {
      child.kill('SIGKILL');
      await ch.restart();
    }
    const logLines = stdout.split('\n').filter(Boolean);
    expect(logLines.some((l) => l.includes('token=***'))).toBe(true);
    expectNoSecret([stderr, ...logLines, ...shown]);
  }, 120_000);
});
