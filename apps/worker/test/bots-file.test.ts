/**
 * A write token or Redis access must not be a shell on every worker (issue 26). A real worker
 * process (`apps/worker/src/main.ts`, forking its sandboxed match children) on a real redis-server,
 * started with a bots file (SALIENT_BOTS_FILE) and secrets in its environment: jobs put on the queue
 * directly whose seats run a command or call a host the file does not allow fail for good without
 * running anything; an allowed command and a registered bot play, and neither sees the worker's
 * environment.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { submitTournament, type TournamentStatus } from '@salient/scheduler/bullmq';
import { startRedisServer, type TestRedisServer } from '../../../test/support/redis-server.ts';
import { blitzPlan, waitFinished } from '../../../packages/scheduler/test/bullmq-support.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const RANDOM_BOT = join(ROOT, 'examples/bots/random_bot.py');
/**
 * The Python interpreter itself: a \`python3\` on PATH may be a wrapper (a pyenv shim) that sets
 * variables of its own, which would blur what Salient passed.
 */
const PYTHON = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim();
/** In the worker's environment; no bot may see any of these values. */
const SECRETS = {
  SALIENT_CLICKHOUSE_PASSWORD: 'ch-secret-9157',
  SALIENT_CLICKHOUSE_URL: 'http://default:ch-url-secret-9157@127.0.0.1:1',
  SALIENT_API_TOKENS: 'api-token-9157',
  PGPASSWORD: 'pg-secret-9157',
  AWS_SECRET_ACCESS_KEY: 'aws-secret-9157',
};

let redis: TestRedisServer;
let dir: string;
let worker: ChildProcess;
const log: Record<string, unknown>[] = [];
/** Requests the host that no bots file allows received. */
let hits = 0;
let server: Server;

/** A Python wrapper that writes its environment and cwd to argv[1], then becomes the example random bot. */
const ENV_DUMP = `import json, os, sys
with open(sys.argv[1], "w") as f:
    json.dump({"env": dict(os.environ), "cwd": os.getcwd()}, f)
os.execv(sys.executable, [sys.executable, sys.argv[2]])
`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'salient-worker-bots-'));
  writeFileSync(join(dir, 'env_dump.py'), ENV_DUMP);
  writeFileSync(
    join(dir, 'bots.yaml'),
    [
      'bots:',
      // Relative to this file's directory, which is also the bot's working directory.
      `  envbot: { command: ["${PYTHON}", env_dump.py, ext-env.json, "${RANDOM_BOT}"], env: { BOT_LEVEL: "2" }, version: "1" }`,
      'allow:',
      `  commands: ["${PYTHON} ${join(dir, 'env_dump.py')} ${join(dir, 'cmd-env.json')} ${RANDOM_BOT}"]`,
    ].join('\n'),
  );
  server = createServer((_req, res) => {
    hits++;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  redis = await startRedisServer();
  worker = spawn(process.execPath, ['--import', 'tsx', 'apps/worker/src/main.ts', '--redis', redis.url, '--metrics-port', '0', '--no-telemetry', '--name', 'bots-worker'], {
    cwd: ROOT,
    env: { ...process.env, ...SECRETS, SALIENT_BOTS_FILE: join(dir, 'bots.yaml') },
    stdio: ['ignore', 'ignore', 'pipe'],
    // Its own group, so the test can stop it with its match children.
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    let buf = '';
    worker.stderr?.on('data', (d: Buffer) => {
      buf += d.toString();
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          log.push(entry);
          if (entry.msg === 'worker started') resolve();
        } catch {
          log.push({ msg: line });
        }
      }
    });
    worker.once('exit', (code) => reject(new Error(`the worker exited (${code}) before starting: ${JSON.stringify(log.slice(-3))}`)));
  });
}, 60_000);

afterAll(async () => {
  if (worker?.pid !== undefined && worker.exitCode === null) {
    const exited = new Promise((r) => worker.once('exit', r));
    process.kill(-worker.pid, 'SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    try {
      process.kill(-worker.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  server?.close();
  await redis?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Submit one pair-less match of Blitz A (Axis `axis`, Allies random), capped short, and wait for its tournament to end. */
async function playOne(id: string, axis: string): Promise<TournamentStatus> {
  const plan = blitzPlan(id, [[axis, 'random', 1]]);
  for (const m of plan.matches) m.decisionCap = 30;
  await submitTournament(plan, { connection: redis.url, backoffMs: 200 });
  return waitFinished(id, redis.url, 45_000);
}

/** The environment and working directory a bot wrote, checked to hold nothing of the worker's. */
function reportedEnvironment(file: string, extra: readonly string[] = []): { env: Record<string, string>; cwd: string } {
  const r = JSON.parse(readFileSync(file, 'utf8')) as { env: Record<string, string>; cwd: string };
  const allowed = /^(PATH|HOME|USER|LOGNAME|LANG|LANGUAGE|TZ|TMPDIR|LC_[A-Z]+)$/;
  expect(Object.keys(r.env).filter((k) => !allowed.test(k) && !extra.includes(k))).toEqual([]);
  const text = JSON.stringify(r.env);
  for (const v of Object.values(SECRETS)) expect(text).not.toContain(v);
  expect(r.env.PATH).toBeTruthy();
  return r;
}

describe('a worker with a bots file', () => {
  it('refuses a job whose seat runs a command it does not allow: failed for good, the command never run', async () => {
    const marker = join(dir, 'pwned');
    const s = await playOne('t-shell', `cmd:sh -c 'touch ${marker}'`);
    expect(s.outcomes).toEqual([]);
    expect(s.failed).toHaveLength(1);
    expect(s.failed[0]?.attempts).toBe(1);
    expect(s.failed[0]?.reason).toMatch(/^BOT_NOT_ALLOWED: match t-shell:m0, seat Axis: cmd:sh -c .* runs a command on whichever worker plays it/);
    expect(s.failed[0]?.reason).toContain(`register the bot in the bots file ${join(dir, 'bots.yaml')}`);
    expect(existsSync(marker)).toBe(false);
    // The queue shows the job failed before the worker's `failed` handler has logged it (and its stdout reached us).
    await vi.waitFor(() => expect(log).toContainEqual(expect.objectContaining({ msg: 'match job failed', willRetry: false })), { timeout: 10_000, interval: 50 });
  });

  it('refuses a job whose seat calls a host it does not allow, without calling it', async () => {
    const { port } = server.address() as AddressInfo;
    const s = await playOne('t-host', `http://127.0.0.1:${port}/bot`);
    expect(s.failed).toHaveLength(1);
    expect(s.failed[0]?.attempts).toBe(1);
    expect(s.failed[0]?.reason).toMatch(new RegExp(`^BOT_NOT_ALLOWED: .*calls 127\\.0\\.0\\.1:${port} from whichever worker`));
    expect(hits).toBe(0);
  });

  it('refuses a job whose match would read a pack directory the bots file does not list', async () => {
    const plan = blitzPlan('t-pack', [['random', 'random', 1]]);
    for (const m of plan.matches) m.pack = '/etc';
    await submitTournament(plan, { connection: redis.url, backoffMs: 200 });
    const s = await waitFinished('t-pack', redis.url, 45_000);
    expect(s.failed).toHaveLength(1);
    expect(s.failed[0]).toMatchObject({ attempts: 1, fault: 'match' });
    expect(s.failed[0]?.reason).toMatch(/^PACK_NOT_ALLOWED: match t-pack:m0: pack '\/etc' is a directory on the machine that plays the spec/);
  });

  it('plays an allowed command line, and the bot sees none of the worker environment', async () => {
    const s = await playOne('t-allowed', `cmd:${PYTHON} ${join(dir, 'env_dump.py')} ${join(dir, 'cmd-env.json')} ${RANDOM_BOT}`);
    expect(s.failed).toEqual([]);
    expect(s.outcomes.map((o) => o.kind)).toEqual(['adjudicated']);
    reportedEnvironment(join(dir, 'cmd-env.json'));
  });

  it("plays a registered bot (ext:), in its file's directory with its own env and nothing of the worker's", async () => {
    const s = await playOne('t-registered', 'ext:envbot');
    expect(s.failed).toEqual([]);
    expect(s.outcomes.map((o) => o.kind)).toEqual(['adjudicated']);
    const { env, cwd } = reportedEnvironment(join(dir, 'ext-env.json'), ['BOT_LEVEL']);
    expect(env.BOT_LEVEL).toBe('2');
    expect(cwd).toBe(dir);
  });
});
