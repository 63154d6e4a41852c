/**
 * `play --telemetry`, `report` and `query` against a real embedded ClickHouse store (chdb) in a
 * temporary directory, each command a separate process as a user would run them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { salientEntry } from '../../../test/support/salient-cli.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const tmp = mkdtempSync(join(tmpdir(), 'salient-cli-telemetry-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function salient(...args: string[]) {
  const r = spawnSync(process.execPath, [...salientEntry(), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, SALIENT_CLICKHOUSE_URL: '', SALIENT_CLICKHOUSE_PATH: join(tmp, 'clickhouse'), SALIENT_SPOOL_DIR: join(tmp, 'spool') },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('telemetry from the command line', () => {
  it('report on an empty store says so and how to fill it', () => {
    const r = salient('report');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/No matches recorded/);
    expect(r.stdout).toMatch(/--telemetry/);
  });

  it('play --telemetry records a match; playing it again does not count it twice', () => {
    for (let i = 0; i < 2; i++) {
      const r = salient('play', '--scenario', 'A', '--seed', '5', '--seat', 'Axis=greedy', '--quiet', '--telemetry');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^Telemetry: embedded ClickHouse in /m);
    }
    salient('play', '--scenario', 'A', '--seed', '6', '--quiet', '--telemetry');
    const q = salient('query', 'SELECT count() AS n, uniqExact(match_id) AS u FROM matches FINAL', '--json');
    expect(q.code, q.stderr).toBe(0);
    const rows = JSON.parse(q.stdout) as { n: unknown; u: unknown }[];
    expect(rows.map((x) => [Number(x.n), Number(x.u)])).toEqual([[2, 2]]);
  });

  it('report gives win rates by scenario, side and bot, filtered by bot', () => {
    const r = salient('report', '--json', '--bot', 'greedy');
    expect(r.code, r.stderr).toBe(0);
    const { winRates } = JSON.parse(r.stdout) as { winRates: { side: string; bot: string; games: number; wins: number; losses: number }[] };
    expect(winRates.map((w) => [w.side, w.bot, w.games])).toEqual([['Axis', 'greedy@2', 1]]);
    expect(winRates[0]!.wins + winRates[0]!.losses).toBe(1);
    const t = salient('report', '--scenario', 'A');
    expect(t.stdout).toMatch(/Win rates \(scenario A\)/);
    expect(t.stdout).toMatch(/│ Allies +│ random@1 │ 2 /);
    expect(t.stdout).toMatch(/Game lengths/);
  });

  it('replay --match re-runs a stored match, and --save writes its replay file', () => {
    const q = salient('query', "SELECT match_id FROM matches FINAL WHERE seed = 5", '--json');
    const id = (JSON.parse(q.stdout) as { match_id: string }[])[0]?.match_id ?? '';
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    const saved = join(tmp, 'stored.replay.json');
    const r = salient('replay', '--match', id, '--save', saved, '--turns');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Turn 1/);
    expect(r.stdout).toMatch(/OK: the replay reproduces the recorded final state/);
    // the saved file is byte for byte the one `play --replay` writes for that game
    const played = join(tmp, 'played.replay.json');
    expect(salient('play', '--scenario', 'A', '--seed', '5', '--seat', 'Axis=greedy', '--quiet', '--replay', played).code).toBe(0);
    expect(readFileSync(saved, 'utf8')).toBe(readFileSync(played, 'utf8'));
    expect(salient('replay', saved).stdout).toMatch(/OK: the replay reproduces/);

    const missing = salient('replay', '--match', 'no-such-match');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^salient: No match 'no-such-match' in the telemetry store \(embedded ClickHouse in .*\)\. List some with: salient query/);
    const both = salient('replay', saved, '--match', id);
    expect([both.code, both.stderr]).toEqual([2, expect.stringMatching(/takes a file or --match ID, not both/)]);
    const neither = salient('replay');
    expect([neither.code, neither.stderr]).toEqual([2, expect.stringMatching(/needs a replay file, or --match ID/)]);
  });

  it('query prints a table, and refuses anything but reading', () => {
    const r = salient('query', 'SELECT scenario, count() AS n FROM matches FINAL GROUP BY scenario');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/│ A +│ 2 │/);
    const bad = salient('query', 'DROP TABLE matches');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^salient: Query refused\. Only read-only queries/);
    // Refused before it runs: the embedded engine would write the file itself, read-only mode or not.
    const outfile = join(tmp, 'out.txt');
    const write = salient('query', `SELECT match_id FROM matches /* hidden */ into\n OutFile '${outfile}' APPEND`);
    expect(write.code).toBe(2);
    expect(write.stderr).toMatch(/^salient: Query refused\. INTO OUTFILE would write a file/);
    expect(existsSync(outfile)).toBe(false);
    const typo = salient('query', 'SELECT nope FROM matches');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/rejected the query/);
    expect(typo.stderr).not.toMatch(/\n\s+at /);
  });

  it('report balance --sweep plays a tiny sweep into the store and reports it; --tournament reads it back; bad flags are named', () => {
    const args = ['report', 'balance', '--sweep', '--game', 'dice-race', '--scenario', 'standard', '--bot', 'mcts:rollout=0', '--param', 'iterations', '--levels', '1,8', '--games', '4', '--threads', '1', '--timeout', '60000'];
    const r = salient(...args, '--json');
    expect(r.code, r.stderr).toBe(0);
    // Progress goes to stderr, the report to stdout.
    expect(r.stderr).toMatch(/Strength sweep (t-[0-9a-f]+): mcts:rollout=0 over iterations 1, 8 on standard, 4 games a level: 8 matches, 0 already recorded, 8 to play/);
    const report = JSON.parse(r.stdout) as { scenarios: { tournament: string; scenario: string; levels: { level: number; entrant: string; games: number; sides: { side: string; wins: number }[] }[]; verdict: { status: string } }[] };
    expect(report.scenarios).toHaveLength(1);
    const s = report.scenarios[0]!;
    expect(s.levels.map((l) => [l.level, l.entrant, l.games])).toEqual([
      [1, 'mcts iterations=1', 4],
      [8, 'mcts iterations=8', 4],
    ]);
    for (const l of s.levels) expect(l.sides.reduce((n, x) => n + x.wins, 0)).toBe(4);
    // Four games a level cannot settle anything.
    expect(s.verdict.status).toBe('not enough games');
    // Read back by tournament, as text; the same flags again play nothing more.
    const text = salient('report', 'balance', '--sweep', '--tournament', s.tournament);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^dice-race · Scenario standard · .* sweep of mcts:rollout=0 over iterations/m);
    expect(text.stdout).toMatch(/^ {2}iterations 8 \(×8\): 4 games/m);
    expect(text.stdout).toMatch(/^ {2}Verdict: not enough games/m);
    // A larger --games grows the recorded sweep under its id (the spec's hash counts the games): only
    // the new games are played; a smaller one plays nothing and reports all that is recorded.
    const grown = salient(...args.map((a, i) => (args[i - 1] === '--games' ? '6' : a)));
    expect(grown.code, grown.stderr).toBe(0);
    expect(grown.stderr).toContain(`Strength sweep ${s.tournament}: mcts:rollout=0 over iterations 1, 8 on standard, 6 games a level (growing the sweep recorded with 4): 12 matches, 8 already recorded, 4 to play`);
    expect(grown.stdout).toMatch(/^ {2}iterations 8 \(×8\): 6 games/m);
    const fewer = salient(...args.map((a, i) => (args[i - 1] === '--games' ? '2' : a)));
    expect(fewer.code, fewer.stderr).toBe(0);
    expect(fewer.stderr).toContain(`Strength sweep ${s.tournament} is recorded with 6 games a level, more than the 2 asked: nothing to play`);
    expect(fewer.stdout).toMatch(/^ {2}iterations 1 \(×1\): 6 games/m);

    const bad = salient('report', 'balance', '--sweep', '--game', 'dice-race', '--scenario', 'standard', '--bot', 'mcts', '--param', 'iterations', '--levels', '8,1');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--levels\[1\]: is 1, not above the level before it \(8\)/);
    const noTime = salient('report', 'balance', '--sweep', '--game', 'dice-race', '--scenario', 'standard', '--bot', 'mcts', '--param', 'iterations', '--levels', '1,8', '--timeout', '0');
    // A malformed option value is a command-line usage error: exit 1, as for every option (README, exit codes).
    expect([noTime.code, noTime.stderr]).toEqual([1, expect.stringMatching(/--timeout <ms>' argument '0' is invalid/)]);
    const half = salient('report', 'balance', '--sweep', '--scenario', 'standard', '--levels', '1,8');
    expect([half.code, half.stderr]).toEqual([2, expect.stringMatching(/missing --bot, --param\b/)]);
    const notSweep = salient('report', 'balance', '--sweep', '--tournament', 'nope');
    expect([notSweep.code, notSweep.stderr]).toEqual([2, expect.stringMatching(/no tournament 'nope' is recorded/)]);
    const noSweepFlag = salient('report', 'balance', '--levels', '1,8');
    expect([noSweepFlag.code, noSweepFlag.stderr]).toEqual([2, expect.stringMatching(/--levels only go with `salient report balance --sweep`/)]);
  }, 240_000);
});
