/**
 * `salient tournament submit --batch K` / `--job-seconds S`: how many side-swapped pairs a queue job
 * carries. A bad value is refused before Redis is reached; a good one cuts the plan into that many
 * pairs a job, said in the output, and a second submission keeps the first one's size.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { salientEntry } from '../../../test/support/salient-cli.ts';
import { startRedisServer, type TestRedisServer } from '../../../test/support/redis-server.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const tmp = mkdtempSync(join(tmpdir(), 'salient-cli-batch-'));
let redis: TestRedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
}, 60_000);
afterAll(async () => {
  await redis?.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

function salient(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...salientEntry(), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const spec = join(tmp, 'spec.yaml');
writeFileSync(spec, 'id: cli-batch\ngame: blitz\nscenarios: [A]\nentrants: [random, greedy]\ngamesPerPairing: 14\n');

describe('salient tournament submit --batch', () => {
  it('refuses a batch that is not a whole number of pairs, or job seconds that are not above 0, before reaching Redis', () => {
    for (const [flag, value] of [['--batch', '0'], ['--batch', '2.5'], ['--job-seconds', '-1']] as const) {
      const r = salient('tournament', 'submit', spec, '--redis', 'redis://127.0.0.1:1', '--no-telemetry', flag, value);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${flag} ${value}: give a`);
      expect(r.stderr).not.toMatch(/Redis/);
    }
  });

  it('cuts the plan into jobs of K pairs and says so; submitting again keeps that size', () => {
    const first = salient('tournament', 'submit', spec, '--redis', redis.url, '--no-telemetry', '--batch', '3', '--json');
    expect(first.code, first.stderr).toBe(0);
    // 14 games: 7 side-swapped pairs in jobs of 3, 3 and 1.
    expect(JSON.parse(first.stdout)).toMatchObject({ tournamentId: 'cli-batch', matches: 14, jobs: 3, batchPairs: 3, added: 14 });
    const again = salient('tournament', 'submit', spec, '--redis', redis.url, '--no-telemetry', '--batch', '5');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^Tournament cli-batch: 14 matches in 3 job\(s\) of 3 pair\(s\), 0 added to redis:\/\/127\.0\.0\.1:\d+\/? \(14 already there\)\.$/m);
  });
});
