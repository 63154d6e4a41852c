/**
 * The operator's bots file (docs/bot-protocol.md, "Registered bots"): its format and its refusals by
 * path, the allow rules a spec from elsewhere is held to, and the clean environment every bot
 * process gets, checked with real bot processes that report what they were given.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SalientError } from '@salient/engine';
import { blitz } from '@salient/game-blitz';
import { runMatch, type BotFactory } from '@salient/runner';
import { botEnvironment, createBot, loadBotsFile, parseBotsFile, refusedBot, NO_EXTERNAL_BOTS, type ExternalBots } from '../src/index.ts';

const tmp = mkdtempSync(join(tmpdir(), 'salient-bots-file-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const checked = blitz.checkPack(blitz.bundledPacks.approximation);
if (!checked.ok) throw new Error('The bundled Blitz pack does not load');
const pack = checked.pack;

/** The problems of a bad bots file, as `path: message` lines. */
function problems(text: string): string[] {
  try {
    parseBotsFile(text, '/etc/salient/bots.yaml', '/etc/salient');
  } catch (e) {
    expect(e).toBeInstanceOf(SalientError);
    expect((e as SalientError).code).toBe('BAD_CONFIG');
    return (e as SalientError).issues.map((i) => `${i.path}: ${i.message}`);
  }
  throw new Error('the file was accepted');
}

describe('the bots file', () => {
  it('registers command bots (cwd from the file directory) and URL bots, and lists what else is allowed', () => {
    const f = parseBotsFile(
      [
        'bots:',
        '  pybot: { command: [python3, random_bot.py], version: "1" }',
        '  sub: { command: [./bot, --fast], cwd: bots/sub, env: { BOT_LEVEL: "2" } }',
        '  abs: { command: [bot], cwd: /opt/bots }',
        '  remote: { url: "http://10.0.0.5:8765/bot" }',
        'allow:',
        '  commands: ["python3  examples/bots/random_bot.py", "cmd:node \'my bot.mjs\'"]',
        '  hosts: ["10.0.0.5:8765", "Bots.Example.org:443"]',
        '  packs: [packs/mine, /srv/packs/theirs]',
      ].join('\n'),
      '/etc/salient/bots.yaml',
      '/etc/salient',
    );
    expect(f.bots).toEqual({
      pybot: { command: ['python3', 'random_bot.py'], cwd: '/etc/salient', env: {}, version: '1' },
      sub: { command: ['./bot', '--fast'], cwd: '/etc/salient/bots/sub', env: { BOT_LEVEL: '2' } },
      abs: { command: ['bot'], cwd: '/opt/bots', env: {} },
      remote: { url: 'http://10.0.0.5:8765/bot' },
    });
    expect(f.allow).toEqual({
      commands: [['python3', 'examples/bots/random_bot.py'], ['node', 'my bot.mjs']],
      hosts: ['10.0.0.5:8765', 'bots.example.org:443'],
      packs: ['/etc/salient/packs/mine', '/srv/packs/theirs'],
    });
    // JSON is read as JSON, strictly, like every JSON document (a trailing comma is refused by line); an empty file registers nothing.
    expect(parseBotsFile('{"bots": {"a": {"url": "https://x.org/b"}}}', 'b.json', '/').bots).toEqual({ a: { url: 'https://x.org/b' } });
    expect(() => parseBotsFile('{"bots": {},}', 'b.json', '/')).toThrow(/^b\.json:1:13: invalid JSON: trailing comma/);
    expect(parseBotsFile('# nothing yet\n', 'b.yaml', '/')).toMatchObject({ bots: {}, allow: { commands: [], hosts: [] } });
  });

  it('refuses unknown fields and every other mistake at once, each by its path and line', () => {
    const found = problems(
      [
        'bots:',
        '  pybot: { comand: [python3, bot.py], version: 1 }',
        '  "bad name": { url: "ftp://x" }',
        '  both: { command: [x], url: "http://h:1/" }',
        '  web: { url: "http://h:1/", cwd: here }',
        '  leak: { command: [x], env: { SALIENT_CLICKHOUSE_PASSWORD: "p" } }',
        'allow: { hosts: [nope], command: [] }',
        'extra: 1',
      ].join('\n'),
    );
    expect(found).toEqual([
      expect.stringMatching(/^bots\["bad name"\]: a bot name is letters.* \(line 3, column \d+\)$/),
      expect.stringMatching(/^bots\.pybot\.version: must be a string \(quote numbers: "1"\)/),
      expect.stringMatching(/^bots\.pybot\.comand: unknown field 'comand'; .*fields here: command, url, cwd, env, version\) \(line 2, column \d+\)$/),
      expect.stringMatching(/^bots\["bad name"\]\.url: must be an http:\/\/ or https:\/\/ URL/),
      expect.stringMatching(/^bots\.both: give either command .* or url .*, exactly one/),
      expect.stringMatching(/^bots\.web\.cwd: only a command bot has cwd/),
      expect.stringMatching(/^bots\.leak\.env\.SALIENT_CLICKHOUSE_PASSWORD: SALIENT_\* variables are never passed to bots/),
      expect.stringMatching(/^allow\.hosts\[0\]: must be host:port/),
      expect.stringMatching(/^allow\.command: unknown field 'command'; .*fields here: commands, hosts, packs\)/),
      expect.stringMatching(/^extra: unknown field 'extra'; .*fields here: bots, allow\) \(line 8, column \d+\)$/),
    ]);
    expect(problems('bots:\n  none: { version: "1" }\n')).toEqual([expect.stringMatching(/^bots\.none: give either command/)]);
    expect(() => parseBotsFile('bots: [\n', '/etc/salient/bots.yaml', '/etc/salient')).toThrow(/^\/etc\/salient\/bots\.yaml:\d+:\d+: invalid YAML: /);
  });

  it('a file that cannot be read is a BAD_CONFIG naming it', async () => {
    await expect(loadBotsFile(join(tmp, 'missing.yaml'))).rejects.toMatchObject({ code: 'BAD_CONFIG', message: expect.stringMatching(/Cannot read the bots file .*missing\.yaml \(ENOENT\)/) });
  });
});

describe('what a spec from elsewhere may use', () => {
  const bots = parseBotsFile(
    'bots:\n  pybot: { command: [python3, bot.py] }\nallow:\n  commands: ["python3 examples/bots/random_bot.py"]\n  hosts: ["10.0.0.5:8765", "bots.example.org:443"]\n',
    '/etc/salient/bots.yaml',
    '/etc/salient',
  );

  it('built-in bots, registered names, and exactly the allowed command lines and hosts', () => {
    for (const ok of [
      'random',
      'greedy:chance=0',
      'ext:pybot',
      'cmd:python3 examples/bots/random_bot.py',
      "cmd:'python3'   examples/bots/random_bot.py", // the same words
      'http://10.0.0.5:8765/bot',
      'https://bots.example.org/any/path',
      'https://BOTS.example.org:443/x',
    ]) {
      expect(refusedBot(ok, bots), ok).toBeUndefined();
    }
  });

  it('anything else, saying who must register it and how', () => {
    const sh = refusedBot("cmd:sh -c 'touch /tmp/x'", bots);
    expect(sh).toMatch(/^cmd:sh -c 'touch \/tmp\/x' runs a command on whichever worker plays it/);
    expect(sh).toContain('The operator must register the bot in the bots file /etc/salient/bots.yaml, e.g. bots: { my-bot: { command: ["sh","-c","touch /tmp/x"] } }');
    expect(sh).toContain('ext:my-bot');
    expect(sh).toContain('allow.commands');
    expect(refusedBot('cmd:python3 examples/bots/random_bot.py --other', bots)).toMatch(/runs a command/);
    expect(refusedBot('http://10.0.0.5:8766/bot', bots)).toMatch(/^http:\/\/10\.0\.0\.5:8766\/bot calls 10\.0\.0\.5:8766 from whichever worker .* or list 10\.0\.0\.5:8766 under allow\.hosts/);
    expect(refusedBot('http://bots.example.org/bot', bots)).toMatch(/calls bots\.example\.org:80/);
    expect(refusedBot('ext:nope', bots)).toBe('ext:nope is not a registered bot: the bots file /etc/salient/bots.yaml registers ext:pybot.');
    expect(refusedBot('cmd:python3 examples/bots/random_bot.py', NO_EXTERNAL_BOTS)).toMatch(/in a bots file \(none is configured: set SALIENT_BOTS_FILE or pass --bots FILE\)/);
  });

  it('an unknown ext: name is UNKNOWN_BOT listing the registered ones', () => {
    expect(() => createBot('ext:nope', bots)).toThrow(/Unknown registered bot 'nope' \(ext:nope\): the bots file \/etc\/salient\/bots\.yaml registers ext:pybot/);
    expect(() => createBot('ext:pybot')).toThrow(/no bots file is configured. Name one with SALIENT_BOTS_FILE=FILE or --bots FILE/);
  });
});

describe('the environment of a bot process', () => {
  /** A Node bot that writes its environment (JSON) to `out`, then always picks the first option. */
  const envBot = join(tmp, 'env-bot.mjs');
  writeFileSync(
    envBot,
    `import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
writeFileSync(process.argv[2], JSON.stringify({ env: process.env, cwd: process.cwd() }));
for await (const line of createInterface({ input: process.stdin })) {
  const msg = JSON.parse(line);
  if (msg.type === 'hello') process.stdout.write(JSON.stringify({ type: 'hello', name: 'env-bot', version: '1', games: ['*'] }) + '\\n');
  else if (msg.type === 'decide') process.stdout.write(JSON.stringify({ type: 'choice', index: 0 }) + '\\n');
  else break;
}
`,
  );
  const SECRETS = { SALIENT_CLICKHOUSE_PASSWORD: 'ch-secret-4711', SALIENT_API_TOKENS: 'api-token-4711', SALIENT_REDIS_URL: 'redis://:redis-secret-4711@r:6379', AWS_SECRET_ACCESS_KEY: 'aws-secret-4711' };

  /** Play a short match with `spec` as Axis while this process's environment holds the secrets. */
  async function reported(spec: string, out: string, external?: ExternalBots): Promise<{ env: Record<string, string>; cwd: string }> {
    const saved = { ...process.env };
    Object.assign(process.env, SECRETS, { LC_ALL: 'C.UTF-8', TZ: 'UTC' });
    try {
      const seats: Record<string, BotFactory> = { Axis: createBot(spec, external), Allies: createBot('random') };
      const r = await runMatch({ game: blitz, pack, scenario: 'A', seed: 1, seats, seatSpecs: { Axis: spec, Allies: 'random' }, decisionCap: 20, decisionTimeoutMs: 5000 });
      expect(r.kind, 'detail' in r ? r.detail : r.kind).toBe('adjudicated');
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    }
    return JSON.parse(readFileSync(out, 'utf8')) as { env: Record<string, string>; cwd: string };
  }

  const expectClean = (env: Record<string, string>, extra: readonly string[] = []) => {
    const allowed = /^(PATH|HOME|USER|LOGNAME|LANG|LANGUAGE|TZ|TMPDIR|LC_[A-Z]+)$/;
    expect(Object.keys(env).filter((k) => !allowed.test(k) && !extra.includes(k))).toEqual([]);
    const text = JSON.stringify(env);
    for (const v of Object.values(SECRETS)) expect(text).not.toContain(v);
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.LC_ALL).toBe('C.UTF-8');
    expect(env.TZ).toBe('UTC');
  };

  it('a cmd: bot gets PATH, HOME, the locale and TZ from Salient, and nothing else', async () => {
    const out = join(tmp, 'cmd-env.json');
    const { env } = await reported(`cmd:"${process.execPath}" "${envBot}" "${out}"`, out);
    expectClean(env);
  });

  it("a registered bot gets the same plus its entry's env, in its cwd (the file's directory by default)", async () => {
    const dir = join(tmp, 'operator');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'env-bot.mjs'), readFileSync(envBot));
    writeFileSync(join(dir, 'bots.yaml'), `bots:\n  envbot: { command: ["${process.execPath}", env-bot.mjs, out.json], env: { BOT_LEVEL: "2" } }\n`);
    const { env, cwd } = await reported('ext:envbot', join(dir, 'out.json'), await loadBotsFile(join(dir, 'bots.yaml')));
    expectClean(env, ['BOT_LEVEL']);
    expect(env.BOT_LEVEL).toBe('2');
    expect(cwd).toBe(dir);
  });

  it('botEnvironment keeps only the listed variables, and never a SALIENT_* one', () => {
    expect(botEnvironment({ X: '1', SALIENT_Y: 'no' }, { PATH: '/bin', HOME: '/h', LC_CTYPE: 'C', SALIENT_CLICKHOUSE_PASSWORD: 'p', PGPASSWORD: 'q', NODE_OPTIONS: '--inspect' })).toEqual({
      PATH: '/bin',
      HOME: '/h',
      LC_CTYPE: 'C',
      X: '1',
    });
  });
});
