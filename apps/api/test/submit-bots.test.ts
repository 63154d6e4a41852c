/**
 * Submitting through the API must not run programs on the workers (issue 26): a spec whose entrant is
 * `cmd:...` or an `http(s)://` bot on a host the operator did not allow is a 400 naming the entrant,
 * and a bot registered in the operator's bots file (`ext:<name>`) is queued. Real redis-server and an
 * embedded ClickHouse store.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadBotsFile } from '@salient/bots';
import { openTelemetry, type Telemetry } from '@salient/telemetry';
import { tournamentStatus } from '@salient/scheduler/bullmq';
import { startRedisServer, type TestRedisServer } from '../../../test/support/redis-server.ts';
import { buildApp } from '../src/index.ts';

const TOKEN = 'bots-test-token-0123456789';
/** A real pack directory (the bundled one's files), once refused and once allowed by the bots file. */
const BUNDLED_PACK = fileURLToPath(new URL('../../../packages/games/blitz/packs/approximation', import.meta.url));
let ALLOWED_PACK = '';
let root = '';
let telemetry: Telemetry;
let redis: TestRedisServer;
let app: FastifyInstance;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'salient-api-bots-'));
  ALLOWED_PACK = join(root, 'allowed-pack');
  cpSync(BUNDLED_PACK, ALLOWED_PACK, { recursive: true });
  writeFileSync(
    join(root, 'bots.yaml'),
    'bots:\n  pybot: { command: [python3, random_bot.py], version: "3" }\nallow:\n  commands: ["python3 examples/bots/random_bot.py"]\n  hosts: ["10.0.0.5:8765"]\n' +
      `  packs: [${JSON.stringify(ALLOWED_PACK)}]\n`,
  );
  const [t, r] = await Promise.all([openTelemetry({ kind: 'embedded', path: join(root, 'clickhouse'), spoolDir: join(root, 'spool') }), startRedisServer()]);
  telemetry = t;
  redis = r;
  app = await buildApp({ telemetry, tokens: [TOKEN], redis: redis.url, bots: await loadBotsFile(join(root, 'bots.yaml')), processMetrics: false, writeRateLimit: { max: 100, timeWindowMs: 60_000 } });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await telemetry?.close();
  await redis?.dispose();
  if (root) rmSync(root, { recursive: true, force: true });
});

const submit = (id: string, entrant: string) =>
  app.inject({
    method: 'POST',
    url: '/api/tournaments',
    headers: { authorization: `Bearer ${TOKEN}` },
    payload: { spec: `id: ${id}\ngame: blitz\nscenarios: [A]\nentrants:\n  - random\n  - { name: them, bot: ${JSON.stringify(entrant)} }\ngamesPerPairing: 2\n` },
  });

/** The submission was refused as a bad spec whose only problem is the second entrant's bot; nothing was queued. */
async function expectRefused(id: string, entrant: string, ...patterns: RegExp[]): Promise<void> {
  const r = await submit(id, entrant);
  expect(r.statusCode, r.body).toBe(400);
  const body = r.json() as { error: string; issues: { path: string; message: string }[] };
  expect(body.error).toBe('BAD_SPEC');
  expect(body.issues).toHaveLength(1);
  expect(body.issues[0]?.path).toBe('entrants[1].bot');
  for (const p of patterns) expect(body.issues[0]?.message).toMatch(p);
  await expect(tournamentStatus(id, { connection: redis.url })).rejects.toMatchObject({ code: 'UNKNOWN_TOURNAMENT' });
}

describe('POST /api/tournaments and external bots', () => {
  it('refuses a cmd: entrant: the operator must register it', async () => {
    await expectRefused(
      'api-shell',
      "cmd:sh -c 'touch /tmp/salient-pwned'",
      /^cmd:sh -c 'touch \/tmp\/salient-pwned' runs a command on whichever worker plays it/,
      /The operator must register the bot in the bots file .*bots\.yaml, e\.g\. bots: \{ my-bot: \{ command: \["sh","-c","touch \/tmp\/salient-pwned"\] \} \}, and the spec then names it ext:my-bot/,
      /allow\.commands/,
    );
  });

  it('refuses an http bot on a host the operator did not allow', async () => {
    await expectRefused('api-host', 'http://169.254.169.254:80/latest', /calls 169\.254\.169\.254:80 from whichever worker plays it/, /allow\.hosts/);
  });

  it('refuses an ext: name the bots file does not register, listing the registered ones', async () => {
    await expectRefused('api-unknown', 'ext:nope', /Unknown registered bot 'nope'.*registers ext:pybot/);
  });

  it('queues a registered bot, and the command lines and hosts the operator allows', async () => {
    for (const [id, bot] of [
      ['api-registered', 'ext:pybot'],
      ['api-allowed-cmd', 'cmd:python3 examples/bots/random_bot.py'],
      ['api-allowed-host', 'http://10.0.0.5:8765/bot'],
    ] as const) {
      const r = await submit(id, bot);
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toMatchObject({ tournamentId: id, matches: 2 });
    }
    const s = await tournamentStatus('api-registered', { connection: redis.url });
    expect(s.entrants).toEqual(['random', 'them']);
    expect(s.counts.waiting).toBe(2);
  });

  it('refuses a pack directory the operator did not list (it would be read on the workers), and takes one it lists', async () => {
    const withPack = (id: string, pack: string) =>
      app.inject({
        method: 'POST',
        url: '/api/tournaments',
        headers: { authorization: `Bearer ${TOKEN}` },
        payload: { spec: `id: ${id}\ngame: blitz\npack: ${JSON.stringify(pack)}\nscenarios: [A]\nentrants: [random, greedy]\ngamesPerPairing: 2\n` },
      });
    for (const [id, pack] of [
      ['api-pack-dir', BUNDLED_PACK],
      ['api-pack-etc', '/etc'],
      ['api-pack-none', '/no/such/dir'],
    ] as const) {
      const r = await withPack(id, pack);
      expect(r.statusCode, r.body).toBe(400);
      const body = r.json() as { issues: { path: string; message: string }[] };
      expect(body.issues).toEqual([{ path: 'pack', message: expect.stringMatching(/is a directory on the machine that plays the spec.*bundled packs \(approximation\).*allow\.packs/) }]);
      await expect(tournamentStatus(id, { connection: redis.url })).rejects.toMatchObject({ code: 'UNKNOWN_TOURNAMENT' });
    }
    const ok = await withPack('api-pack-allowed', ALLOWED_PACK);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await withPack('api-pack-bundled', 'approximation')).statusCode).toBe(200);
  });
});
