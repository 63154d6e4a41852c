/** The benchmark script still runs and records its figures (a few games, into a temporary directory). */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tmp = mkdtempSync(join(tmpdir(), 'salient-bench-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function bench() {
  return spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', 'bench/blitz-a.bench.ts'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, BENCH_GAMES: '3', BENCH_ROUNDS: '1', BENCH_OUT_DIR: tmp, BENCH_RESULTS: join(tmp, 'RESULTS.md') },
  });
}

it('measures, writes latest.json and keeps one RESULTS.md block per day and machine', () => {
  const first = bench();
  expect(first.status, first.stderr).toBe(0);
  const latest = JSON.parse(readFileSync(join(tmp, 'latest.json'), 'utf8')) as { cases: Array<{ games: number; scale: number; decisionsPerSec: number }> };
  expect(latest.cases.length).toBeGreaterThanOrEqual(1);
  for (const c of latest.cases) {
    // Each case plays its share of BENCH_GAMES=3 (long scenarios are scaled down).
    expect(c.games).toBeGreaterThanOrEqual(Math.ceil(3 * c.scale));
    expect(c.decisionsPerSec).toBeGreaterThan(0);
  }
  expect(first.stdout).toMatch(/\| decisions\/s \|/);
  expect(bench().status).toBe(0);
  const md = readFileSync(join(tmp, 'RESULTS.md'), 'utf8');
  expect(md.match(/<!-- bench:end -->/g)).toHaveLength(1);
});
