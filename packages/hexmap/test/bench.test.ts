/** bench/hexmap.bench.ts still runs, checks the typed-array reach against the naive one, and writes its block. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'salient-hexmap-bench-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

it('measures every case and keeps one RESULTS.md block per day and machine', () => {
  const run = () =>
    spawnSync(process.execPath, ['--import', 'tsx', 'bench/hexmap.bench.ts'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, BENCH_ROUNDS: '1', BENCH_MS: '1', BENCH_OUT_DIR: tmp, BENCH_RESULTS: join(tmp, 'RESULTS.md') },
    });
  const first = run();
  expect(first.status, first.stderr).toBe(0);
  const latest = JSON.parse(readFileSync(join(tmp, 'hexmap-latest.json'), 'utf8')) as { hexes: number; cases: Array<{ label: string; usPerOp: number }> };
  expect(latest.hexes).toBeGreaterThan(3500);
  expect(latest.cases.length).toBeGreaterThanOrEqual(8);
  for (const c of latest.cases) expect(c.usPerOp, c.label).toBeGreaterThan(0);
  expect(first.stdout).toMatch(/\| µs per op \(median round\) \| fastest round \| CPU µs per op \(median round\) \|/);
  expect(run().status).toBe(0);
  expect(readFileSync(join(tmp, 'RESULTS.md'), 'utf8').match(/<!-- bench-hexmap:end -->/g)).toHaveLength(1);
}, 120_000);
