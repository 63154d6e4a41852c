/**
 * `salient tournament run` end to end: a child process per run (with its own embedded store in a
 * temporary directory, as a user's), the command registered on a fresh program the way main.ts does.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTournamentSpec, planTournament } from '@salient/scheduler';
import { runLocalTournament } from '@salient/scheduler/local';
import { statusLines } from '../src/commands/tournament-remote.ts';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(cli, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'salient-tournament-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const SMOKE = join(root, 'examples/tournaments/blitz-smoke.yaml');

/** A program with only `tournament` registered, errors reported as main.ts does. */
const ENTRY = `
import { Command } from 'commander';
import { registerTournament } from './src/commands/tournament.ts';
import { reportError } from './src/errors.ts';
const program = new Command('salient');
registerTournament(program);
try { await program.parseAsync(process.argv.slice(1), { from: 'user' }); } catch (e) { process.exitCode = reportError(e); }
`;
const args = (a: string[]) => ['--import', 'tsx', '--input-type=module', '-e', ENTRY, '--', ...a];
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
    const spec = join(root, 'examples/tournaments/blitz-sprt.yaml');
    const first = salient('sprt', 'tournament', 'run', spec, '--threads', '2');
    expect(first.code, first.stderr).toBe(0);
    // Progress lines carry the test; the last one says it stopped.
    expect(first.stderr).toMatch(/; LLR 0\.00 \(-2\.94, 2\.94\), 0 pairs\n/);
    expect(first.stderr).toMatch(/; LLR \d\.\d\d \(-2\.94, 2\.94\), \d+ pairs, H1 accepted, stopped\n/);
    expect(first.stdout).toMatch(/^SPRT greedy vs random, nElo \[0, 50\], alpha 0\.05, beta 0\.05: /m);
    expect(first.stdout).toMatch(/^  \d+ pairs \[\d+, \d+, \d+, \d+, \d+\].*; Elo \+[\d.]+ ± [\d.]+ \(LOS [\d.]+%\); nElo /m);
    const stop = /^Stopped early: SPRT accepted H1 \(greedy vs random: candidate stronger\): LLR [\d.]+ ≥ 2\.94 after (\d+) pairs; (\d+) of 1000 planned matches left unplayed\.$/m.exec(first.stdout);
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
    writeFileSync(spec, 'id: long\ngame: blitz\nscenarios: [A]\nentrants: [random, greedy]\ngamesPerPairing: 400\nsideSwap: true\n');
    const child = spawn(process.execPath, args(['tournament', 'run', spec, '--threads', '1', '--json']), { cwd: cli, env: env('cancel') });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        // The first progress line comes as play starts; give it a few games (a worker thread takes about
        // half a second to start here, and a whole run of 400 games about fifteen).
        if (/long: 0\/400 games/.test(stderr) && !child.killed) setTimeout(() => child.kill('SIGINT'), 1500);
      });
      child.on('exit', resolve);
    });
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/cancelling the tournament/);
    const cancelled = JSON.parse(stdout) as { played: number; finished: number; cancelled: boolean };
    expect(cancelled.cancelled).toBe(true);
    expect(cancelled.played).toBeLessThan(400);
    const rest = salient('cancel', 'tournament', 'run', spec, '--json', '--quiet', '--threads', '2');
    expect(rest.code, rest.stderr).toBe(0);
    const r = JSON.parse(rest.stdout) as { played: number; skipped: number };
    expect(r.skipped).toBeGreaterThan(0);
    expect(r.played + r.skipped).toBe(400);
    expect(r.skipped).toBe(cancelled.finished);
  });
});

describe('salient tournament status', () => {
  it('of a queue tournament its SPRT stopped: when and why, the matches left unplayed, and the test', async () => {
    // The status the queue gives is the local run's outcomes with the stop record (see the BullMQ test).
    const plan = await planTournament(await loadTournamentSpec(join(root, 'examples/tournaments/blitz-sprt.yaml')));
    const run = await runLocalTournament({ plan, threads: 2 });
    const n = run.outcomes.length;
    const lines = statusLines({
      tournamentId: plan.tournamentId,
      state: 'finished',
      stopped: { at: '2026-11-23T08:00:00.000Z', reason: run.stopped!.reason },
      stop: run.stop!,
      counts: { total: 1000, waiting: 0, active: 0, delayed: 0, completed: n, failed: 0 },
      outcomes: run.outcomes,
      failed: [],
      entrants: ['random', 'greedy'],
      spool: [],
    });
    expect(lines[0]).toBe(`Tournament blitz-sprt: finished (stopped 2026-11-23T08:00:00.000Z: ${run.stopped!.reason}).`);
    expect(lines[1]).toBe(`Matches: 1000 planned, ${n} finished, 0 failed, 0 running, 0 waiting, 0 waiting to retry, ${1000 - n} left unplayed by the stop rule.`);
    expect(lines[2]).toMatch(/^SPRT greedy vs random, nElo \[0, 50\], alpha 0\.05, beta 0\.05: /);
    expect(lines[3]).toMatch(new RegExp(`^  ${run.stop!.pairs} pairs \\[${run.stop!.pentanomial.join(', ')}\\]`));
  }, 60_000);
});
