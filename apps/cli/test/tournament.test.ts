/**
 * `salient tournament run`, `list`, `status`, `export` and `salient replay` of an export, end to end: a
 * child process per command (with its own embedded store in a temporary directory, as a user's), started
 * from the CLI bundle the run builds once (test/support/cli-bundle.ts); one run goes through main.ts under
 * tsx, as `npm run salient` starts it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killTracked, spawnTracked } from './children.ts';
import { salientEntry } from '../../../test/support/salient-cli.ts';
import { parseTournamentSpec, planTournament } from '@salient/scheduler';
import { runLocalTournament } from '@salient/scheduler/local';
import { overviewOfQueueStatus } from '@salient/scheduler/overview';
import { statusLines } from '../src/commands/tournament-remote.ts';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(cli, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'salient-tournament-cli-'));
// Several embedded stores: removing them takes a while on a loaded machine.
afterAll(() => rmSync(tmp, { recursive: true, force: true }), 60_000);
// A test that fails before its child exits leaves no tournament run behind.
afterEach(killTracked, 30_000);
const SMOKE = join(root, 'examples/tournaments/blitz-smoke.yaml');
/**
 * The shipped SPRT example (greedy against random, 1000 matches planned) with hypotheses far apart
 * (nElo -100 against 0): greedy is well above both, so the test accepts H1 after about 13 pairs rather
 * than the example's ~135 (measured 2026-11-29). The tests below are about stopping, reruns and the
 * status text, not the SPRT's length; the example's own verdict is checked in the scheduler's BullMQ
 * test and the API's SPRT test.
 */
const QUICK_SPRT = readFileSync(join(root, 'examples/tournaments/blitz-sprt.yaml'), 'utf8').replace('stop: { rule: sprt, elo0: 0, elo1: 50,', 'stop: { rule: sprt, elo0: -100, elo1: 0,');
if (!QUICK_SPRT.includes('elo0: -100, elo1: 0,')) throw new Error('blitz-sprt.yaml changed its stop rule: update QUICK_SPRT');
const quickSprtFile = () => {
  const file = join(tmp, 'blitz-sprt.yaml');
  writeFileSync(file, QUICK_SPRT);
  return file;
};

/** The CLI's arguments after Node's: the CLI bundle built for the run (test/support/cli-bundle.ts). */
const args = (a: string[]) => [...salientEntry(), ...a];
const env = (store: string) => ({ ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', SALIENT_CLICKHOUSE_PATH: join(tmp, store, 'clickhouse'), SALIENT_SPOOL_DIR: join(tmp, store, 'spool') });

function salient(store: string, ...a: string[]) {
  const r = spawnSync(process.execPath, args(a), { cwd: cli, encoding: 'utf8', env: env(store) });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('salient tournament run', () => {
  it('plays the spec, prints standings, and a second run plays nothing and prints the same standings', () => {
    const first = salient('again', 'tournament', 'run', SMOKE, '--threads', '2');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(/Tournament blitz-smoke: 8 matches, 0 already recorded, 8 to play/);
    // Not a terminal: plain progress lines.
    expect(first.stderr).toMatch(/blitz-smoke: 8\/8 games/);
    expect(first.stdout).toMatch(/8\/8 matches \(8 played now on 2 thread\(s\)/);
    expect(first.stdout).toMatch(/entrant.*games.*W\/L\/D.*score %.*Allies W\/L\/D.*Axis W\/L\/D.*forfeits.*errors/);
    expect(first.stdout).toMatch(/│ random/);
    expect(first.stdout).toMatch(/│ greedy/);
    expect(first.stdout).toMatch(/Telemetry: /);

    const json = salient('again', 'tournament', 'run', SMOKE, '--json', '--quiet');
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe('');
    const r = JSON.parse(json.stdout) as { played: number; skipped: number; standings: { name: string; games: number; score: number }[] };
    expect(r).toMatchObject({ played: 0, skipped: 8, cancelled: false });
    expect(r.standings.map((s) => s.games)).toEqual([8, 8]);
    const table = first.stdout.split('\n').filter((l) => l.startsWith('│'));
    for (const s of r.standings) expect(table.some((l) => l.includes(` ${s.name} `) && l.includes(` ${(100 * s.score / s.games).toFixed(1)}% `))).toBe(true);

    // The same id with more games grows the tournament; with another spec it is refused, as the queue
    // refuses it (its matches would be counted with the recorded ones), and nothing is played.
    const smoke = readFileSync(SMOKE, 'utf8');
    const grown = join(tmp, 'smoke-6.yaml');
    writeFileSync(grown, smoke.replace('gamesPerPairing: 4', 'gamesPerPairing: 6'));
    const more = salient('again', 'tournament', 'run', grown, '--json', '--quiet');
    expect(more.code, more.stderr).toBe(0);
    expect(JSON.parse(more.stdout)).toMatchObject({ played: 4, skipped: 8 });
    const changed = join(tmp, 'smoke-a.yaml');
    writeFileSync(changed, smoke.replace('scenarios: [A, B]', 'scenarios: [A]').replace('gamesPerPairing: 4', 'gamesPerPairing: 8'));
    const refused = salient('again', 'tournament', 'run', changed, '--quiet');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/Tournament id 'blitz-smoke' is already recorded in .* with a different spec \(it differs in scenarios\)\. Give the changed spec a new id/);
    expect(salient('again', 'tournament', 'run', grown, '--json', '--quiet').stdout).toMatch(/"played": 0,/);
  });

  it('runs through the salient entry point (main.ts) too', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', 'tournament', 'run', SMOKE, '--quiet', '--json', '--threads', '1'], {
      cwd: root,
      encoding: 'utf8',
      env: env('main'),
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ tournamentId: 'blitz-smoke', matches: 8, played: 8, skipped: 0, finished: 8, threads: 1 });
  });

  it('stops an SPRT gauntlet when the test decides, says why and how much was left, and a rerun plays nothing', () => {
    const spec = quickSprtFile();
    const first = salient('sprt', 'tournament', 'run', spec, '--threads', '2');
    expect(first.code, first.stderr).toBe(0);
    // Progress lines carry the test; the last one says it stopped.
    expect(first.stderr).toMatch(/; LLR 0\.00 \(-2\.94, 2\.94\), 0 pairs\n/);
    expect(first.stderr).toMatch(/; LLR \d\.\d\d \(-2\.94, 2\.94\), \d+ pairs, H1 accepted, stopped\n/);
    expect(first.stdout).toMatch(/^SPRT greedy vs random, nElo \[-100, 0\], alpha 0\.05, beta 0\.05: /m);
    expect(first.stdout).toMatch(/^  \d+ pairs \[\d+, \d+, \d+, \d+, \d+\].*; Elo \+[\d.]+ ± [\d.]+ \(LOS [\d.]+%\); nElo /m);
    const stop = /^Stopped early: SPRT accepted H1 \(greedy vs random: candidate not weaker by more than 0 nElo\): LLR [\d.]+ ≥ 2\.94 after (\d+) pairs; (\d+) of 1000 planned matches left unplayed\.$/m.exec(first.stdout);
    expect(stop, first.stdout).not.toBeNull();
    const played = 1000 - Number(stop![2]);
    expect(first.stdout).toContain(`Tournament blitz-sprt: ${played}/1000 matches (${played} played now`);

    const again = salient('sprt', 'tournament', 'run', spec, '--json', '--quiet');
    expect(again.code, again.stderr).toBe(0);
    const r = JSON.parse(again.stdout) as { played: number; skipped: number; stopped: { reason: string; unplayed: number }; stop: { pairs: number; state: string } };
    expect(r).toMatchObject({ played: 0, skipped: played, stopped: { unplayed: 1000 - played }, stop: { rule: 'sprt', candidate: 'greedy', baseline: 'random' } });
    expect(r.stopped.reason).toContain(`after ${stop![1]} pairs`);
  }, 120_000);

  it('reports a bad spec in one line and exits 2', () => {
    const bad = join(tmp, 'bad.yaml');
    writeFileSync(bad, 'id: bad\ngame: blitz\nscenarios: [A]\nentrants: [random, nobody]\n');
    const r = salient('bad', 'tournament', 'run', bad, '--quiet');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^salient: [^\n]*bad\.yaml[\s\S]*Unknown bot 'nobody'/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('cancels on Ctrl-C, keeps what finished, and the next run plays only the rest', async () => {
    const spec = join(tmp, 'long.yaml');
    // The waiting seat is the test bot `crash` that never crashes (after=0) and waits 20 ms before
    // each of its ~50 decisions a game, so a game lasts about a second of wall time whatever the
    // machine's speed, at almost no CPU: 24 games on one thread take ~25 s, well past the progress
    // line (every 5 s) that the test cancels on, and the rest take ~10 s on two threads. (Before: 400
    // games of random against greedy, two runs of up to 400 games of CPU, which a fast machine could
    // also finish before the first line.)
    writeFileSync(spec, 'id: long\ngame: blitz\nscenarios: [A]\nentrants: [random, { name: waiter, bot: crash, params: { after: 0, sleep: 20 } }]\ngamesPerPairing: 24\nsideSwap: true\n');
    const child = spawnTracked(process.execPath, args(['tournament', 'run', spec, '--threads', '1', '--json']), { cwd: cli, env: env('cancel') });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        // Cancel once a progress line shows games finished: a worker thread takes a second or more
        // to start, so a fixed delay after the first line could cancel before any game ended.
        if (/long: [1-9]\d*\/24 games/.test(stderr) && !child.killed) child.kill('SIGINT');
      });
      child.on('exit', resolve);
    });
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/cancelling the tournament/);
    const cancelled = JSON.parse(stdout) as { played: number; finished: number; cancelled: boolean };
    expect(cancelled.cancelled).toBe(true);
    expect(cancelled.finished).toBeGreaterThan(0);
    expect(cancelled.played).toBeLessThan(24);
    const rest = salient('cancel', 'tournament', 'run', spec, '--json', '--quiet', '--threads', '2');
    expect(rest.code, rest.stderr).toBe(0);
    const r = JSON.parse(rest.stdout) as { played: number; skipped: number };
    expect(r.skipped).toBeGreaterThan(0);
    expect(r.played).toBeGreaterThan(0);
    expect(r.played + r.skipped).toBe(24);
    expect(r.skipped).toBe(cancelled.finished);
    // About 35 s of mostly waiting; a loaded two-core machine stretches the thread starts and the stores.
  }, 120_000);
});

describe('salient tournament status', () => {
  it('of a queue tournament its SPRT stopped: the state and why, the matches left unplayed, the test and the pairing', async () => {
    // The status the queue gives is the local run's outcomes with the stop record (see the BullMQ test).
    const plan = await planTournament(await parseTournamentSpec(QUICK_SPRT, 'blitz-sprt.yaml'));
    const run = await runLocalTournament({ plan, threads: 2 });
    const n = run.outcomes.length;
    const lines = statusLines(
      overviewOfQueueStatus(
        {
          tournamentId: plan.tournamentId,
          state: 'finished',
          stopped: { at: '2026-11-23T08:00:00.000Z', reason: run.stopped!.reason },
          stop: run.stop!,
          stopDecision: run.decision!,
          spec: plan.spec,
          counts: { total: 1000, waiting: 0, active: 0, delayed: 0, completed: n, failed: 0 },
          outcomes: run.outcomes,
          failed: [],
          entrants: ['random', 'greedy'],
          spool: [],
        },
        { detail: true },
      ),
    );
    expect(lines[0]).toBe(`Tournament blitz-sprt (Blitz SPRT, greedy against random), on the queue: stopped: SPRT accepted H1 after ${run.decision!.pairs} pairs.`);
    expect(lines[1]).toBe(`Matches: 1000 planned, ${n} finished, 0 failed, 0 running, 0 waiting, ${1000 - n} left unplayed (stopped).`);
    expect(lines[2]).toBe(`Stopped by its stop rule at 2026-11-23T08:00:00.000Z: ${run.stopped!.reason}.`);
    expect(lines[3]).toMatch(/^SPRT greedy vs random, nElo \[-100, 0\], alpha 0\.05, beta 0\.05: /);
    expect(lines[4]).toMatch(new RegExp(`^  ${run.stop!.pairs} pairs \\[${run.stop!.pentanomial.join(', ')}\\]`));
    // The pairing, the candidate first, with the SPRT's own pentanomial Elo (the same pairs).
    const text = lines.join('\n');
    expect(text).toMatch(new RegExp(`│ greedy vs random │ ${n} +│ \\d+/\\d+/\\d+ +│ [\\d.]+% +│ \\+[\\d.]+ ± [\\d.]+ +│ [\\d.]+% +│ [\\d.]+% +│ ${run.stop!.pairs} +│ \\[${run.stop!.pentanomial.join(', ')}\\]`));
  }, 60_000);
});

describe('tournament run exit codes for CI', () => {
  /** elo1: the exit-h0 test's random against random accepts H0 sooner the farther H1 is from 0. */
  const sprtSpec = (id: string, base: string, cand: string, games: number, elo1 = 50) => {
    const file = join(tmp, `${id}.yaml`);
    writeFileSync(
      file,
      `id: ${id}\ngame: blitz\nscenarios: [A]\nentrants:\n  - { name: base, bot: ${base} }\n  - { name: cand, bot: ${cand} }\n` +
        `format: gauntlet\nreference: base\ngamesPerPairing: ${games}\ndecisionCap: 2000\nstop: { rule: sprt, elo0: 0, elo1: ${elo1}, alpha: 0.05, beta: 0.05 }\n`,
    );
    return file;
  };

  it('--fail-on h0: exit 4 when the SPRT accepts H0, and again from the recorded verdict; 0 for --fail-on h1', () => {
    const spec = sprtSpec('exit-h0', 'random', 'random', 400, 200);
    const r = salient('exit', 'tournament', 'run', spec, '--quiet', '--threads', '2', '--fail-on', 'h0');
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/^salient: exit 4: the SPRT accepted H0 \(--fail-on h0\)\.$/m);
    expect(r.stdout).toMatch(/^State: stopped: SPRT accepted H0 after \d+ pairs\.$/m);
    const again = salient('exit', 'tournament', 'run', spec, '--quiet', '--json', '--fail-on', 'h0,undecided');
    expect(again.code, again.stderr).toBe(4);
    expect(JSON.parse(again.stdout)).toMatchObject({ played: 0, state: 'stopped', accepted: 'H0', exitCode: 4, exitReasons: ['the SPRT accepted H0 (--fail-on h0,undecided)'] });
    const h1 = salient('exit', 'tournament', 'run', spec, '--quiet', '--fail-on', 'h1');
    expect(h1.code, h1.stderr).toBe(0);
  }, 120_000);

  it('--fail-on undecided: exit 4 when the plan runs out first; --fail-on without an SPRT is refused', () => {
    const r = salient('exit', 'tournament', 'run', sprtSpec('exit-short', 'random', 'greedy', 4), '--quiet', '--json', '--fail-on', 'undecided');
    expect(r.code, r.stderr).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ played: 4, state: 'finished', exitCode: 4, exitReasons: ['the SPRT ran out of plan undecided (--fail-on undecided)'] });
    expect(JSON.parse(r.stdout).reason).toMatch(/^finished: all 4 matches played; SPRT undecided after 2 pairs$/);
    const plain = salient('exit', 'tournament', 'run', SMOKE, '--quiet', '--no-telemetry', '--fail-on', 'h0');
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/^salient: --fail-on checks an SPRT's verdict, but .*blitz-smoke\.yaml has no stop: sprt; drop --fail-on or add an SPRT to the spec\.$/m);
    const bad = salient('exit', 'tournament', 'run', SMOKE, '--fail-on', 'h2');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--fail-on.*expected h0, h1 or undecided/);
  }, 60_000);

  it('--max-forfeits N|P%: exit 5 when more matches than that end in a forfeit', () => {
    const spec = join(tmp, 'forfeits.yaml');
    writeFileSync(spec, 'id: forfeits\ngame: blitz\nscenarios: [A]\nentrants: [random, { name: crasher, bot: crash, params: { after: 1 } }]\ngamesPerPairing: 2\n');
    const over = salient('forfeits', 'tournament', 'run', spec, '--quiet', '--threads', '1', '--max-forfeits', '1');
    expect(over.code, over.stderr).toBe(5);
    expect(over.stderr).toMatch(/^salient: exit 5: 2 forfeit\(s\) in 2 finished matches is over --max-forfeits 1\.$/m);
    expect(over.stdout).toMatch(/^State: finished: all 2 matches played \(2 forfeits\)\.$/m);
    expect(salient('forfeits', 'tournament', 'run', spec, '--quiet', '--max-forfeits', '50%').code).toBe(5);
    const within = salient('forfeits', 'tournament', 'run', spec, '--quiet', '--max-forfeits', '2', '--max-errors', '0');
    expect(within.code, within.stderr).toBe(0);
    const bad = salient('forfeits', 'tournament', 'run', spec, '--max-forfeits', 'lots');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/expected a number of matches \(such as 3\) or a share of the finished matches \(such as 5%\), got 'lots'/);
  }, 60_000);
});

describe('tournament list, status from the store, export and replay of the export', () => {
  it('lists the tournament with its state, shows its status and results from the store, exports it, and replay verifies the export', () => {
    const run = salient('store', 'tournament', 'run', SMOKE, '--quiet', '--threads', '2', '--json');
    expect(run.code, run.stderr).toBe(0);
    const ran = JSON.parse(run.stdout) as { pairings: { first: string; second: string; games: number; elo: { elo: number } }[]; crossTable: unknown };
    expect(ran.pairings).toHaveLength(1);
    expect(ran.pairings[0]).toMatchObject({ first: 'random', second: 'greedy', games: 8, model: 'pentanomial', pairs: 4 });

    const list = salient('store', 'tournament', 'list', '--json');
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).tournaments).toEqual([
      { id: 'blitz-smoke', name: 'Blitz smoke (random vs greedy)', game: 'blitz', executor: 'local', state: 'finished', reason: 'finished: all 8 matches played', done: 8, planned: 8, lastActivity: expect.any(String), source: 'store' },
    ]);
    const text = salient('store', 'tournament', 'list');
    expect(text.stdout).toMatch(/│ blitz-smoke +│ blitz +│ local +│ finished: all 8 matches played +│ 8\/8 +│ \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC │/);

    const status = salient('store', 'tournament', 'status', 'blitz-smoke', '--json');
    expect(status.code, status.stderr).toBe(0);
    const s = JSON.parse(status.stdout);
    expect(s).toMatchObject({ id: 'blitz-smoke', executor: 'local', source: 'store', state: 'finished', counts: { planned: 8, done: 8 } });
    // The same results the run printed, from the store's matches.
    expect(s.pairings).toEqual(ran.pairings);
    expect(s.crossTable).toEqual(ran.crossTable);
    const unknown = salient('store', 'tournament', 'status', 'nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^salient: No tournament 'nope' in the telemetry store\. `salient tournament list` \(with --redis URL for a queue\) lists them\.$/m);

    const file = join(tmp, 'smoke.jsonl');
    const exported = salient('store', 'tournament', 'export', 'blitz-smoke', '--out', file);
    expect(exported.code, exported.stderr).toBe(0);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
    expect(lines).toHaveLength(8);
    expect(lines.map((l) => l.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const l of lines) {
      expect(l).toMatchObject({ format: 'salient-tournament-match/1', tournamentId: 'blitz-smoke', kind: 'completed', replay: { game: 'blitz', scenario: l.scenario, seed: l.seed } });
      expect(Object.values(l.entrants).sort()).toEqual(['greedy', 'random']);
      expect(Object.values(l.sides).sort()).toEqual(['loss', 'win']);
    }

    const all = salient('store', 'replay', file);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain(`8 of 8 match(es) in ${file} reproduce their recorded final state.`);
    const third = salient('store', 'replay', file, '--line', '3');
    expect(third.code, third.stderr).toBe(0);
    expect(third.stdout).toMatch(/OK: the replay reproduces the recorded final state\./);
    const byId = salient('store', 'replay', file, '--match', lines[5]!.matchId);
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.stdout).toContain(`seed ${lines[5]!.seed}`);

    // One line that does not reproduce (a tampered final hash), one that cannot be read: each named, exit 3.
    const bad = join(tmp, 'smoke-bad.jsonl');
    const tampered = { ...lines[1], replay: { ...lines[1]!.replay, finalHash: '0000000000000000' } };
    writeFileSync(bad, [lines[0], tampered, '{"format": "salient-tournament-match/1", "matchId": "broken",', lines[2]].map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
    const checked = salient('store', 'replay', bad);
    expect(checked.code).toBe(3);
    expect(checked.stdout).toMatch(new RegExp(`^line 2 ${lines[1]!.matchId} \\(scenario A, seed \\d+, completed\\): MISMATCH: final state hash [0-9a-f]+, recorded 0000000000000000$`, 'm'));
    expect(checked.stdout).toMatch(/^line 3: BAD: .*smoke-bad\.jsonl line 3:1:\d+: invalid JSON/m);
    expect(checked.stdout).toContain(`2 of 4 match(es) in ${bad} reproduce their recorded final state; 1 do not; 1 could not be checked.`);
    expect(salient('store', 'replay', bad, '--line', '9').stderr).toMatch(/has 4 line\(s\); there is no line 9/);
  }, 120_000);
});
