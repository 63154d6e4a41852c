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
  const latest = JSON.parse(readFileSync(join(tmp, 'latest.json'), 'utf8')) as { cases: Array<{ label: string; games: number; scale: number; decisionsPerSec: number }> };
  expect(latest.cases.length).toBeGreaterThanOrEqual(1);
  for (const c of latest.cases) {
    // Each case plays its share of BENCH_GAMES=3 (long scenarios are scaled down).
    expect(c.games).toBeGreaterThanOrEqual(Math.ceil(3 * c.scale));
    expect(c.decisionsPerSec).toBeGreaterThan(0);
  }
  expect(first.stdout).toMatch(/\| decisions\/s \|/);
  // The README says what `npm run bench` plays: the same scenarios the bench's cases are.
  const played = new Set(latest.cases.flatMap((c) => /^blitz (full game|\S+),/.exec(c.label)?.[1] ?? []).map((x) => (x === 'full game' ? 'full' : x)));
  const said = /^npm run bench\s+#(.*)$/m.exec(readFileSync(join(root, 'README.md'), 'utf8'))?.[1] ?? '';
  const named = new Set<string>();
  for (const [, a = 'A', b = 'A'] of said.matchAll(/\b([A-Z]) to ([A-Z])\b/g)) for (let c = a.charCodeAt(0); c <= b.charCodeAt(0); c++) named.add(String.fromCharCode(c));
  for (const [, x = ''] of said.matchAll(/Blitz! ([A-Z])\b(?! to)/g)) named.add(x);
  if (/full game/.test(said)) named.add('full');
  expect([...named].sort(), `README's npm run bench line: ${said}`).toEqual([...played].sort());
  expect(bench().status).toBe(0);
  const md = readFileSync(join(tmp, 'RESULTS.md'), 'utf8');
  expect(md.match(/<!-- bench:end -->/g)).toHaveLength(1);
  // Two runs of every scenario, the full game included: about 90 s on a loaded 2-core machine.
}, 300_000);
