/**
 * `npm run bench:faults`: tournaments under real faults, long versions of test/faults.test.ts, on a
 * redis-server, the Debian clickhouse-server and `salient worker` processes started here. For each
 * fault: matches planned, recorded in ClickHouse (after the spools were delivered), recorded twice,
 * lost, jobs the queue gave up on, the most matches spooled at once, and the wall time; written to
 * bench/RESULTS.md (`BENCH_RESULTS=none` to skip) and bench/out/faults-latest.json.
 *
 * `BENCH_MATCHES` (default 1000) sets the size of the long runs; `BENCH_HANG_MS` (default 40000) how
 * long ClickHouse is stopped (SIGSTOP) mid-run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster } from '../test/support/cluster.ts';
import { localKills, redisRestarts, stallThenRetry, storeDownAtStart, storeOutage, workerKills, type FaultFigures } from '../test/support/fault-runs.ts';
import { envInt, machine, updateResultsBlock } from './support.ts';

const here = dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  const n = envInt('BENCH_MATCHES', 1000);
  const hangMs = envInt('BENCH_HANG_MS', 40_000);
  const meta = machine();
  const runs: FaultFigures[] = [];
  const say = (f: FaultFigures) => {
    runs.push(f);
    process.stderr.write(`${f.fault}: planned ${f.planned}, recorded ${f.recorded}, doubled ${f.doubled}, lost ${f.lost}, failed jobs ${f.failedJobs}, spooled at most ${f.spooledPeak}, ${(f.wallMs / 1000).toFixed(1)} s\n`);
  };
  const c = await startCluster({ database: 'salient_faults_bench', migrate: false });
  try {
    process.stderr.write(`fault runs on ${meta.cpu} (nproc ${meta.nproc}): ${n} matches per long run\n`);
    const down = await storeDownAtStart(c, Math.min(n, 200), ['down-1', 'down-2']);
    for (const w of down.workers) w.killGroup('SIGTERM');
    await Promise.all(down.workers.map((w) => w.exited));
    say(down.figures);
    say(await storeOutage(c, n, { killAtMs: 5000, downMs: 10_000, hangAtMs: 20_000, hangMs, workers: 2 }));
    say((await stallThenRetry(c, 3)).figures);
    say(await workerKills(c, n, { kills: 5, everyMs: 4000, workers: 3 }));
    say(await redisRestarts(c, n, { downMs: 3000, everyMs: 5000 }));
    say(await localKills(c, n, { kills: 4, everyMs: 8000 }));
  } finally {
    await c.dispose();
  }

  const rows = runs.map((f) => `| ${f.fault} | ${f.planned} | ${f.recorded} | ${f.doubled} | ${f.lost} | ${f.failedJobs} | ${f.spooledPeak} | ${(f.wallMs / 1000).toFixed(1)} | ${f.notes.join('; ')} |`);
  const block = [
    `<!-- bench-faults:${meta.date}|${meta.node}|${meta.cpu} -->`,
    `### Faults · ${meta.date} · Node ${meta.node} · ${meta.cpu} (nproc ${meta.nproc}, ${meta.memGB} GB)`,
    '',
    `\`BENCH_MATCHES=${n} BENCH_HANG_MS=${hangMs} npm run bench:faults\`: real redis-server, clickhouse-server 18.16 and \`salient worker\` processes (concurrency 2, lock 2 s, the default 10 s write timeout) on this machine; Blitz A, side-swapped pairs, one seat pacing its decisions (2 ms) so a match lasts about a tenth of a second. Recorded: distinct matches in ClickHouse (FINAL) once the spools were delivered; doubled: copies beyond one; failed jobs: matches whose job the queue gave up on (the stall run then retries them).`,
    '',
    '| fault | planned | recorded | doubled | lost | failed jobs | spooled at most | wall s | what happened |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '<!-- bench-faults:end -->',
  ].join('\n');
  process.stdout.write(block + '\n');
  const outDir = process.env.BENCH_OUT_DIR || join(here, 'out');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'faults-latest.json'), JSON.stringify({ ...meta, matches: n, hangMs, runs }, null, 2) + '\n');
  const resultsFile = process.env.BENCH_RESULTS || join(here, 'RESULTS.md');
  if (resultsFile !== 'none') updateResultsBlock(resultsFile, 'bench-faults', `${meta.date}|${meta.node}|${meta.cpu}`, block, '# Benchmark results\n');
  const bad = runs.filter((f) => f.lost > 0 || f.doubled > 0);
  if (bad.length) {
    process.stderr.write(`FAILED: ${bad.map((f) => f.fault).join('; ')} lost or doubled matches\n`);
    process.exitCode = 1;
  }
}

await main();
