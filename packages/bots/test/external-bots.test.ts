/**
 * External bots (docs/bot-protocol.md) with real processes and a real HTTP server: the example bots
 * play whole Blitz games, and misbehaving bots forfeit with the reason and what they sent, leaving no
 * process behind.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runReplay } from '@salient/engine';
import { blitz, type BlitzState } from '@salient/game-blitz';
import { InMemorySink, runMatch, type BotFactory, type MatchResult, type MatchSpec } from '@salient/runner';
import { parseTournamentSpec, planTournament, standings } from '@salient/scheduler';
import { runLocalTournament } from '@salient/scheduler/local';
import { createBot, splitCommandLine, type ExternalBot } from '../src/index.ts';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const nodeExample = join(repo, 'examples/bots/random-bot.mjs');
const pythonExample = join(repo, 'examples/bots/random_bot.py');
const hasPython = spawnSync('python3', ['--version']).status === 0;

const checked = blitz.checkPack(blitz.bundledPacks.approximation);
if (!checked.ok) throw new Error(`The bundled Blitz pack does not load: ${JSON.stringify(checked.issues)}`);
const pack = checked.pack;

const tmp = mkdtempSync(join(tmpdir(), 'salient-external-bots-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `cmd:` spec running `path` with this Node. */
const nodeCmd = (path: string) => `cmd:"${process.execPath}" "${path}"`;

/**
 * A Node bot script in the temp dir: answers the hello with `hello` (a JS expression), and runs
 * `decide` (JS statements; `msg` is the message, `n` counts decisions from 1) for every decision.
 */
function script(name: string, decide: string, hello = `{ type: 'hello', name: '${name}', version: '1', games: ['blitz'] }`, afterHello = ''): string {
  const path = join(tmp, `${name}.mjs`);
  writeFileSync(
    path,
    `import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
let n = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const msg = JSON.parse(line);
  if (msg.type === 'hello') { send(${hello}); ${afterHello} continue; }
  if (msg.type === 'end') break;
  n++;
  ${decide}
}
`,
  );
  return nodeCmd(path);
}

/** A match on Blitz scenario A; returns the result and every bot the factories made. */
async function play(seats: Record<string, string>, seed = 1, over: Partial<MatchSpec> = {}): Promise<{ r: MatchResult; bots: ExternalBot[]; sink: InMemorySink }> {
  const bots: ExternalBot[] = [];
  const factories: Record<string, BotFactory> = {};
  for (const [seat, spec] of Object.entries(seats)) {
    const f = createBot(spec);
    factories[seat] = (ctx) => {
      const b = f(ctx);
      bots.push(b as ExternalBot);
      return b;
    };
  }
  const sink = new InMemorySink();
  const r = await runMatch({ game: blitz, pack, scenario: 'A', seed, seats: factories, seatSpecs: seats, decisionTimeoutMs: 5000, sink, ...over });
  return { r, bots, sink };
}

/** Whether process `pid` is gone: no such process, or a zombie left to whoever adopted it. */
function gone(pid: number | undefined): boolean {
  if (pid === undefined) throw new Error('the bot never had a process');
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    // A killed grandchild is reparented; until its new parent reaps it, it is a zombie (state Z).
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** The processes of every external bot of a match are gone. */
function expectReaped(bots: readonly ExternalBot[]): void {
  const external = bots.filter((b) => b.pid !== undefined);
  expect(external.length).toBeGreaterThan(0);
  for (const b of external) expect(gone(b.pid), `bot ${b.name} (pid ${b.pid}) is still running`).toBe(true);
}

function forfeit(r: MatchResult): Extract<MatchResult, { kind: 'forfeit' }> {
  expect(r.kind, 'detail' in r ? r.detail : r.kind).toBe('forfeit');
  return r as Extract<MatchResult, { kind: 'forfeit' }>;
}

describe('command lines', () => {
  it('split into argv without a shell, with simple quoting', () => {
    expect(splitCommandLine(`python3 bot.py --depth=2 'a b' "c \\"d\\"" e\\ f`)).toEqual(['python3', 'bot.py', '--depth=2', 'a b', 'c "d"', 'e f']);
    expect(() => splitCommandLine(`python3 'bot.py`)).toThrow(/unclosed ' quote/);
    expect(() => createBot('cmd:   ')).toThrow(/has no command/);
    expect(() => createBot('http://')).toThrow(/not a valid URL/);
  });
});

describe('example bots', () => {
  it('the Node example plays a whole Blitz game against random, the same way for the same seed', async () => {
    const a = await play({ Axis: `cmd:node ${nodeExample}`, Allies: 'random' }, 7);
    expect(a.r.kind).toBe('completed');
    if (a.r.kind !== 'completed') return;
    expect(a.r.result.reason).toMatch(/victory/i);
    expect(a.r.bots).toEqual({ Axis: 'example-random-js@1', Allies: 'random@1' });
    expect(a.r.replay.seats.Axis).toBe(`cmd:node ${nodeExample}`);
    expectReaped(a.bots);
    const b = await play({ Axis: `cmd:node ${nodeExample}`, Allies: 'random' }, 7);
    expect(b.r.finalHash).toBe(a.r.finalHash);
    expect(b.r.replay.log).toEqual(a.r.replay.log);
  });

  it.runIf(hasPython)('the Python example plays a whole Blitz game against random over stdin/stdout', async () => {
    const { r, bots } = await play({ Axis: 'random', Allies: `cmd:python3 ${pythonExample}` }, 3);
    expect(r.kind).toBe('completed');
    expect(r.bots.Allies).toBe('example-random-py@1');
    expectReaped(bots);
    const again = await play({ Axis: 'random', Allies: `cmd:python3 ${pythonExample}` }, 3);
    expect(again.r.finalHash).toBe(r.finalHash);
  });

  it.runIf(hasPython)('the Python example plays a whole Blitz game over HTTP', async () => {
    const server = await startHttpBot();
    try {
      const { r } = await play({ Axis: server.url, Allies: 'random' }, 5);
      expect(r.kind, 'detail' in r ? r.detail : '').toBe('completed');
      expect(r.bots.Axis).toBe('example-random-py@1');
      expect(r.decisions).toBeGreaterThan(10);
    } finally {
      server.child.kill('SIGKILL');
    }
  });

  it('an HTTP bot answering a decision with an error status forfeits as a crash, quoting the body', async () => {
    const server = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const msg = JSON.parse(body) as { type: string; session?: string };
        expect(msg.session).toMatch(/^[0-9a-f-]{36}$/);
        if (msg.type === 'hello') res.end(JSON.stringify({ type: 'hello', name: 'flaky-http', version: '1', games: ['*'] }));
        else res.writeHead(500).end('database on fire');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bot`;
      const f = forfeit((await play({ Axis: url, Allies: 'random' })).r);
      expect(f.reason).toBe('crash');
      expect(f.detail).toContain(`Bot flaky-http@1 in seat Axis (power GER) answered decide 0 with HTTP 500 from ${url}: 'database on fire'`);
    } finally {
      server.close();
    }
  });

  it('an HTTP bot that redirects forfeits as a crash, and the redirect is not followed', async () => {
    let elsewhere = 0;
    const target = createHttpServer((_req, res) => {
      elsewhere++;
      res.end(JSON.stringify({ type: 'hello', name: 'elsewhere', version: '1', games: ['*'] }));
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const to = `http://127.0.0.1:${(target.address() as AddressInfo).port}/internal`;
    const server = createHttpServer((_req, res) => res.writeHead(307, { location: to }).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bot`;
      const f = forfeit((await play({ Axis: url, Allies: 'random' })).r);
      expect(f.reason).toBe('crash');
      expect(f.detail).toContain(`answered hello with a redirect (HTTP 307 to ${to}) from ${url}; redirects are not followed`);
      expect(elsewhere).toBe(0);
    } finally {
      server.close();
      target.close();
    }
  });

  it('a bot URL where nothing listens forfeits as a crash', async () => {
    const port = await freePort();
    const { r } = await play({ Axis: `http://127.0.0.1:${port}/bot`, Allies: 'random' });
    const f = forfeit(r);
    expect(f.reason).toBe('crash');
    expect(f.detail).toContain(`could not POST hello to http://127.0.0.1:${port}/bot (ECONNREFUSED); is the bot server running?`);
  });
});

/** A port nothing listens on (just closed). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The Python example in --http mode on a free port, once it listens. */
async function startHttpBot(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn('python3', [pythonExample, '--http', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let err = '';
    const t = setTimeout(() => reject(new Error(`the HTTP bot did not start listening within 10 s: ${err}`)), 10_000);
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(t);
        resolve(m[1] as string);
      }
    });
    child.once('exit', (code) => reject(new Error(`the HTTP bot exited with ${code}: ${err}`)));
  });
  return { child, url };
}

describe('misbehaving bots', () => {
  // Sleeps well past the budget on every decision, and leaves a grandchild behind that only a
  // process-group kill can reach.
  const sleeper = () =>
    script(
      'sleeper',
      `await new Promise((r) => setTimeout(r, 600)); send({ type: 'choice', index: msg.options.length - 1 });`,
      undefined,
      `const { spawn } = await import('node:child_process');
       const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
       (await import('node:fs')).writeFileSync(${JSON.stringify(join(tmp, 'grandchild.pid'))}, String(g.pid));`,
    );

  it('one that sleeps past the deadline forfeits with reason timeout, and its whole group is killed', async () => {
    const { r, bots } = await play({ Axis: sleeper(), Allies: 'random' }, 1, { decisionTimeoutMs: 200 });
    const f = forfeit(r);
    expect(f.reason).toBe('timeout');
    expect(f.seat).toBe('Axis');
    expect(f.detail).toMatch(/did not answer within 200 ms/);
    expect(r.decisions).toBe(0);
    expectReaped(bots);
    // The bot itself is reaped; its grandchild got the same SIGKILL but dies on its own time.
    const grandchild = Number(readFileSync(join(tmp, 'grandchild.pid'), 'utf8'));
    await expect.poll(() => gone(grandchild), { timeout: 3000, interval: 20 }).toBe(true);
  });

  it('with 3 strikes: two decisions play the first option, the third overrun forfeits', async () => {
    const { r, bots, sink } = await play({ Axis: sleeper(), Allies: 'random' }, 1, { decisionTimeoutMs: 150, timeBankMs: 100, strikes: 3 });
    const f = forfeit(r);
    expect(f.reason).toBe('timeout');
    expect(f.detail).toMatch(/strike 3 of 3/);
    const axis = sink.decisions.filter((d) => d.seat === 'Axis');
    expect(axis).toHaveLength(2);
    // The first strike had the bank too; after it, the bank is empty.
    expect(axis[0]?.rationale).toMatch(/^timeout strike 1 of 3: the bot did not answer within 250 ms \(150 ms \+ 100 ms bank\) .*played the first option$/);
    expect(axis[1]?.rationale).toMatch(/^timeout strike 2 of 3: the bot did not answer within 150 ms .*played the first option$/);
    // The first option was played each time (the bot itself answers the last, when it answers).
    const played: boolean[] = [];
    runReplay<BlitzState>(blitz, pack, r.replay, (entry, _i, before) => {
      if (entry.by !== 'GER') return;
      const p = blitz.pending(before);
      if (p.kind === 'decision') played.push(p.options.length > 0 && entry.choice === blitz.encode(p.options[0]!));
    });
    expect(played).toEqual([true, true]);
    expectReaped(bots);
  });

  it('one that crashes mid-game forfeits with reason crash, its exit code and stderr in the detail', async () => {
    const crasher = script('crasher', `if (n === 3) { process.stderr.write('out of fuel near Sedan\\n'); process.exit(3); } send({ type: 'choice', index: 0 });`);
    const { r, bots } = await play({ Axis: crasher, Allies: 'random' });
    const f = forfeit(r);
    expect(f.reason).toBe('crash');
    expect(f.detail).toMatch(/exited with code 3 before answering; its stderr ends: out of fuel near Sedan/);
    expect(r.replay.log.filter((e) => e.by === 'GER')).toHaveLength(2);
    expectReaped(bots);
  });

  it('one that prints garbage forfeits, the detail quoting it', async () => {
    const garbage = script('garbage', `process.stdout.write('I think I will attack Paris {\\n');`);
    const { r, bots } = await play({ Axis: garbage, Allies: 'random' });
    const f = forfeit(r);
    expect(f.reason).toBe('illegal');
    expect(f.detail).toContain(`sent 'I think I will attack Paris {' in answer to decide 0, which is not JSON`);
    expectReaped(bots);
  });

  it('one that answers an out-of-range index forfeits with reason illegal', async () => {
    const wild = script('wild', `send({ type: 'choice', index: 999 });`);
    const { r, bots } = await play({ Axis: wild, Allies: 'random' });
    const f = forfeit(r);
    expect(f.reason).toBe('illegal');
    expect(f.detail).toMatch(/answered index 999, but the legal indexes are 0\.\.\d+/);
    expectReaped(bots);
  });

  it('one that answers a label that is not offered forfeits with reason illegal', async () => {
    const { r } = await play({ Axis: script('labels', `send({ type: 'choice', label: 'conquer-the-moon' });`), Allies: 'random' });
    expect(forfeit(r).detail).toMatch(/answered label '"conquer-the-moon"', which is not among the \d+ legal options/);
  });

  it('one that exits right after the handshake forfeits as a crash', async () => {
    const quitter = script('quitter', `send({ type: 'choice', index: 0 });`, undefined, `process.exit(0);`);
    const { r, bots } = await play({ Axis: quitter, Allies: 'random' });
    const f = forfeit(r);
    expect(f.reason).toBe('crash');
    expect(f.detail).toMatch(/exited with code 0 before answering; it wrote nothing to stderr/);
    expect(r.bots.Axis).toBe('quitter@1');
    expectReaped(bots);
  });

  it('one whose handshake says it does not support the game forfeits before any move', async () => {
    const other = script('other-game', `send({ type: 'choice', index: 0 });`, `{ type: 'hello', name: 'wif-only', version: '2', games: ['wif-ce'] }`);
    const { r, bots } = await play({ Axis: 'random', Allies: other });
    const f = forfeit(r);
    expect(f.reason).toBe('crash');
    expect(f.seat).toBe('Allies');
    expect(f.detail).toMatch(/^Bot wif-only@2 in seat Allies does not support game blitz; its hello lists wif-ce/);
    expect(r.decisions).toBe(0);
    expect(f.result.sides).toEqual({ Axis: 'win', Allies: 'loss' });
    expectReaped(bots);
  });

  it('one that cannot be started forfeits as a crash saying why', async () => {
    const { r } = await play({ Axis: 'cmd:/nonexistent/salient-bot --fast', Allies: 'random' });
    const f = forfeit(r);
    expect(f.reason).toBe('crash');
    expect(f.detail).toMatch(/could not start '\/nonexistent\/salient-bot' \(spawn \/nonexistent\/salient-bot ENOENT\)/);
  });

  it('is killed when the match is cancelled mid-decision', async () => {
    const ctrl = new AbortController();
    const slow = script('slow', `await new Promise((r) => setTimeout(r, 60_000)); send({ type: 'choice', index: 0 });`);
    setTimeout(() => ctrl.abort(), 300);
    const { r, bots } = await play({ Axis: slow, Allies: 'random' }, 1, { decisionTimeoutMs: 60_000, signal: ctrl.signal });
    expect(r.kind).toBe('cancelled');
    expectReaped(bots);
  });

  it('one whose hello is refused for not listing the game is still recorded by the name its hello gave', async () => {
    const listless = script('listless', `send({ type: 'choice', index: 0 });`, `{ type: 'hello', name: 'listless-bot', version: '7', games: 'blitz' }`);
    const { r } = await play({ Axis: listless, Allies: 'random' });
    const f = forfeit(r);
    expect(f.detail).toMatch(/^Bot listless-bot@7 in seat Axis answered the hello with .*"games" must be a list of game ids/);
    expect(r.bots.Axis).toBe('listless-bot@7');
    const other = script('other-game-2', `send({ type: 'choice', index: 0 });`, `{ type: 'hello', name: 'wif-only', version: '2', games: ['wif-ce'] }`);
    const second = await play({ Axis: 'random', Allies: other });
    expect(second.r.bots.Allies).toBe('wif-only@2');
    expect(forfeit(second.r).detail).toBe('Bot wif-only@2 in seat Allies does not support game blitz; its hello lists wif-ce');
  });
});

describe('index and label in one answer', () => {
  it('agreeing, they choose that option; disagreeing, the answer is illegal and says both', async () => {
    const both = script('both', `const i = msg.options.length - 1; send({ type: 'choice', index: i, label: msg.labels[i] });`);
    const agreed = await play({ Axis: both, Allies: 'random' });
    expect(['completed', 'adjudicated'], 'detail' in agreed.r ? agreed.r.detail : '').toContain(agreed.r.kind);
    const torn = script('torn', `send({ type: 'choice', index: 0, label: msg.labels[msg.labels.length - 1] });`);
    const f = forfeit((await play({ Axis: torn, Allies: 'random' })).r);
    expect(f.reason).toBe('illegal');
    expect(f.detail).toMatch(/answered index 0 \('[^']+'\) and label '[^']+', which is option \d+; send one of them, or both for the same option/);
  });
});

describe('late answers: one slow answer costs one strike', () => {
  it('over stdin/stdout: the next decide is sent, and its clock starts, once the late answer came', async () => {
    // Takes 2.5 s over a 1 s budget on its first decision, then answers at once: had the next clock
    // started at the strike, the next answer (read only after the late one) would be 1.5 s late too.
    const once = script('slow-once', `if (n === 1) await new Promise((r) => setTimeout(r, 2500)); send({ type: 'choice', index: msg.options.length - 1 });`);
    const { r, sink, bots } = await play({ Axis: once, Allies: 'random' }, 1, { decisionTimeoutMs: 1000, strikes: 3 });
    expect(['completed', 'adjudicated'], 'detail' in r ? r.detail : '').toContain(r.kind);
    const struck = sink.decisions.filter((d) => d.rationale?.startsWith('timeout strike'));
    expect(struck.map((d) => [d.seq, d.strike])).toEqual([[0, 1]]);
    expect(r.strikesBySeat).toEqual({ Axis: 1, Allies: 0 });
    // The second decision was charged from its own decide, not from the strike.
    const second = sink.decisions.filter((d) => d.seat === 'Axis')[1];
    expect(second?.thinkMs).toBeLessThan(1000);
    expectReaped(bots);
  });

  it('over HTTP, a server busy with the late answer: the request stays open for it, and the next is sent after', async () => {
    // A server that blocks its only thread for 2.5 s on its first decision, as a single-threaded bot does.
    const path = join(tmp, 'busy-http.mjs');
    writeFileSync(
      path,
      `import { createServer } from 'node:http';
let n = 0;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    const msg = JSON.parse(body);
    let out = {};
    if (msg.type === 'hello') out = { type: 'hello', name: 'busy-http', version: '1', games: ['*'] };
    else if (msg.type === 'decide') {
      if (++n === 1) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2500);
      out = { type: 'choice', index: msg.options.length - 1 };
    }
    res.end(JSON.stringify(out));
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write('http://127.0.0.1:' + server.address().port + '/bot\\n'));
`,
    );
    const child = spawn(process.execPath, [path], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout?.once('data', (d: Buffer) => resolve(d.toString().trim()));
        child.once('exit', (code) => reject(new Error(`the HTTP bot exited with ${code}`)));
      });
      const { r, sink } = await play({ Axis: url, Allies: 'random' }, 1, { decisionTimeoutMs: 1000, strikes: 3 });
      expect(['completed', 'adjudicated'], 'detail' in r ? r.detail : '').toContain(r.kind);
      expect(sink.decisions.filter((d) => d.rationale?.startsWith('timeout strike')).map((d) => d.seq)).toEqual([0]);
      expect(r.strikesBySeat).toEqual({ Axis: 1, Allies: 0 });
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a late answer that never comes forfeits (timeout) once the grace is over, without further strikes', async () => {
    const hung = script('hung', `if (n === 1) await new Promise((r) => setTimeout(r, 60_000)); send({ type: 'choice', index: 0 });`);
    const { r, bots } = await play({ Axis: hung, Allies: 'random' }, 1, { decisionTimeoutMs: 300, strikes: 3, startTimeoutMs: 1200 });
    const f = forfeit(r);
    expect(f.reason).toBe('timeout');
    expect(f.detail).toMatch(/still owed its late answer to decision 0 \(timeout strike 1 of 3\) 1200 ms after the strike/);
    expect(r.strikesBySeat).toEqual({ Axis: 1, Allies: 0 });
    expectReaped(bots);
  });
});

describe('in a tournament', () => {
  it('a crashing external bot against random: every match is played, its forfeits counted in the standings', async () => {
    const crasher = script('tour-crasher', `if (n === 2) { process.stderr.write('tournament crash\\n'); process.exit(4); } send({ type: 'choice', index: 0 });`);
    const spec = await parseTournamentSpec(
      JSON.stringify({ id: 'external-bots', game: 'blitz', scenarios: ['A'], entrants: ['random', { name: 'crasher', bot: crasher }], gamesPerPairing: 2, timeBankMs: 500, strikes: 2 }),
      'test.json',
    );
    expect(spec.entrants[1]?.bot).toBe(crasher);
    const plan = await planTournament(spec);
    expect(plan.matches.every((m) => m.timeBankMs === 500 && m.strikes === 2)).toBe(true);
    const run = await runLocalTournament({ plan, threads: 1 });
    expect(run.played).toBe(2);
    expect(run.outcomes.map((o) => o.kind)).toEqual(['forfeit', 'forfeit']);
    expect(run.outcomes[0]?.detail).toMatch(/exited with code 4 before answering; its stderr ends: tournament crash/);
    const table = standings(run.outcomes, ['random', 'crasher']);
    expect(table.find((x) => x.name === 'crasher')).toMatchObject({ games: 2, losses: 2, forfeits: 2 });
    expect(table.find((x) => x.name === 'random')).toMatchObject({ games: 2, wins: 2, forfeits: 0 });
  });

  it('a game thread terminated mid-match (a cancel past its grace) leaves no bot process behind', async () => {
    // The external bot notes its pid as it starts and does not exit when its stdin closes; the other seat
    // searches long enough to block its thread, so the cancel cannot reach the match and the pool
    // terminates the thread, which runs no exit hook.
    const pidFile = join(tmp, 'terminated.pid');
    const path = join(tmp, 'pid-noter.mjs');
    writeFileSync(
      path,
      `import { createInterface } from 'node:readline';
import { writeFileSync } from 'node:fs';
writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
// Like a bot deep in thought: it would not notice its stdin closing.
setInterval(() => {}, 1000);
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
for await (const line of createInterface({ input: process.stdin })) {
  const msg = JSON.parse(line);
  if (msg.type === 'hello') send({ type: 'hello', name: 'pid-noter', version: '1', games: ['blitz'] });
  else if (msg.type === 'end') break;
  else send({ type: 'choice', index: 0 });
}
`,
    );
    const spec = await parseTournamentSpec(
      JSON.stringify({
        id: 'external-terminated',
        game: 'blitz',
        scenarios: ['A'],
        entrants: [{ name: 'noter', bot: nodeCmd(path) }, { name: 'stuck', bot: 'mcts', params: { iterations: 1_000_000 } }],
        gamesPerPairing: 2,
      }),
      'test.json',
    );
    const ctrl = new AbortController();
    const run = runLocalTournament({ plan: await planTournament(spec), threads: 1, signal: ctrl.signal, cancelGraceMs: 200 });
    await expect.poll(() => existsSync(pidFile), { timeout: 20_000, interval: 50 }).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((r) => setTimeout(r, 500));
    expect(gone(pid), 'the bot should be running while its match is').toBe(false);
    ctrl.abort();
    const result = await run;
    expect(result.outcomes.filter((o) => o.kind === 'completed')).toHaveLength(0);
    await expect.poll(() => gone(pid), { timeout: 3000, interval: 20 }).toBe(true);
  }, 60_000);
});
