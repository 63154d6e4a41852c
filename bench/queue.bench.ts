/**
 * The BullMQ path against the local pool, same games, same worker count, in one run.
 *
 * Blitz A, random vs random, a plan of BENCH_GAMES matches (default 400) per case; cases alternate over
 * BENCH_ROUNDS rounds (default 3), each round with its own seeds so neither path replays cached work:
 *   - `local`: `runLocalTournament` with BENCH_WORKERS game threads (default: the cores);
 *   - `bullmq`: a real redis-server (started here, AOF with fsync every second as in infra/), the plan
 *     submitted as a flow (timed apart) in jobs of a batch of side-swapped pairs (BENCH_BATCH pairs;
 *     default: as `submitTournament` sizes them, from a probe game), then one `startWorker` with
 *     concurrency BENCH_WORKERS (sandboxed: one child process per concurrent job); the clock runs from
 *     the worker's start until the last outcome is reported, as the local pool's runs from its threads' start;
 *   - `bullmq k=1`: the same with one pair per job, as before batches (BENCH_UNBATCHED=0 leaves it out).
 * All without telemetry, so the ratio is the cost of the queue itself (Redis round trips, locks, the
 * child processes), not of the store. Target: bullmq/local ≥ 0.97 (issue 30, item 3).
 *
 *   npm run bench:queue
 *   BENCH_GAMES=200 BENCH_ROUNDS=2 npm run bench:queue     # quicker
 *
 * Writes bench/out/queue-latest.json and a block in bench/RESULTS.md (BENCH_RESULTS=none to skip).
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planTournament, parseTournamentSpec, type MatchOutcome, type TournamentPlan } from '@salient/scheduler';
import { runLocalTournament } from '@salient/scheduler/local';
import { startWorker, submitTournament, tournamentStatus } from '@salient/scheduler/bullmq';
import { startRedisServer } from '../test/support/redis-server.ts';
import { envInt, median, ownCpuMs, processCpuMs, updateResultsBlock, machine } from './support.ts';

const here = dirname(fileURLToPath(import.meta.url));

async function planFor(round: number, games: number, id: string): Promise<TournamentPlan> {
  // random vs random has one pairing; side-swapped pairs on shared seeds, as tournaments play them.
  const spec = await parseTournamentSpec(
    JSON.stringify({
      id,
      game: 'blitz',
      scenarios: ['A'],
      entrants: [{ name: 'random-a', bot: 'random' }, { name: 'random-b', bot: 'random' }],
      format: 'round-robin',
      gamesPerPairing: games,
      sideSwap: true,
      baseSeed: 1 + round * games,
    }),
    'bench.json',
  );
  return planTournament(spec);
}

interface RoundFigure {
  games: number;
  wallMs: number;
  gamesPerSec: number;
  /** CPU the redis-server process used during the case, per game (BullMQ only; a job plays a side-swapped pair). */
  redisCpuMsPerGame?: number;
  /** CPU of everything but Redis, per game: this process (with its game threads, or as the BullMQ worker) and its child processes. */
  cpuMsPerGame: number;
  /** BullMQ: of `cpuMsPerGame`, the worker process's own (not its sandboxed children's). */
  workerCpuMsPerGame?: number;
  /** BullMQ: wall time to submit the plan (before the clock starts, a probe game included), per game. */
  submitMsPerGame?: number;
  /** BullMQ: side-swapped pairs per job. */
  batchPairs?: number;
}

/** CPU so far of this process's live child processes (the sandboxed match children), from /proc. */
function childrenCpuMs(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(f[1]) === process.pid) total += processCpuMs(Number(pid)) ?? 0;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

async function runLocal(plan: TournamentPlan, workers: number): Promise<RoundFigure> {
  const t0 = performance.now();
  const cpu0 = ownCpuMs();
  const r = await runLocalTournament({ plan, threads: workers });
  const wallMs = performance.now() - t0;
  const cpuMs = ownCpuMs() - cpu0;
  check(plan, r.outcomes);
  return { games: r.outcomes.length, wallMs, gamesPerSec: (r.outcomes.length / wallMs) * 1000, cpuMsPerGame: cpuMs / r.outcomes.length };
}

async function runQueue(plan: TournamentPlan, redis: string, workers: number, redisPid?: number, batchPairs?: number): Promise<RoundFigure> {
  // The plan goes into the queue first, as from another machine, and is timed on its own: what is
  // compared with the local pool is the workers' throughput on a queue holding the tournament.
  const s0 = performance.now();
  const submitted = await submitTournament(plan, { connection: redis, ...(batchPairs !== undefined ? { batchPairs } : {}) });
  const submitMs = performance.now() - s0;
  // Count endings from the worker's own events: polling the status (which reads every outcome back)
  // while the games run would take CPU from them.
  let ended = 0;
  let allEnded: () => void = () => {};
  const done = new Promise<void>((resolve) => (allEnded = resolve));
  const t0 = performance.now();
  const c0 = processCpuMs(redisPid);
  // The children are forked for the first jobs, after this point, so all their CPU belongs to the case.
  const cpu0 = ownCpuMs();
  const worker = await startWorker({
    connection: redis,
    concurrency: workers,
    telemetry: false,
    name: 'bench',
    onMatch: (e) => {
      if (e.kind === 'completed' || !e.willRetry) if ((ended += e.kind === 'completed' ? e.outcomes.length : e.matches) === plan.matches.length) allEnded();
    },
  });
  try {
    await done;
    const wallMs = performance.now() - t0;
    const c1 = processCpuMs(redisPid);
    const workerCpuMs = ownCpuMs() - cpu0;
    const childrenMs = childrenCpuMs();
    const s = await tournamentStatus(plan.tournamentId, { connection: redis });
    if (s.counts.failed > 0) throw new Error(`bench: ${s.counts.failed} match job(s) failed: ${JSON.stringify(s.failed.slice(0, 3))}`);
    check(plan, s.outcomes);
    return {
      games: s.outcomes.length,
      wallMs,
      gamesPerSec: (s.outcomes.length / wallMs) * 1000,
      ...(c0 !== undefined && c1 !== undefined ? { redisCpuMsPerGame: (c1 - c0) / plan.matches.length } : {}),
      cpuMsPerGame: (workerCpuMs + childrenMs) / plan.matches.length,
      workerCpuMsPerGame: workerCpuMs / plan.matches.length,
      submitMsPerGame: submitMs / plan.matches.length,
      batchPairs: submitted.batchPairs,
    };
  } finally {
    await worker.close();
  }
}

/** Every planned match came back once, completed (random bots never forfeit). */
function check(plan: TournamentPlan, outcomes: readonly MatchOutcome[]): void {
  const ids = new Set(outcomes.map((o) => o.matchId));
  if (ids.size !== plan.matches.length || outcomes.length !== plan.matches.length) {
    throw new Error(`bench: ${plan.matches.length} matches planned, ${outcomes.length} outcomes (${ids.size} distinct)`);
  }
  const bad = outcomes.filter((o) => o.kind !== 'completed');
  if (bad.length) throw new Error(`bench: ${bad.length} match(es) did not complete, e.g. ${JSON.stringify(bad[0])}`);
}

async function main(): Promise<void> {
  const games = envInt('BENCH_GAMES', 400);
  const rounds = envInt('BENCH_ROUNDS', 3);
  const workers = envInt('BENCH_WORKERS', availableParallelism());
  const batch = process.env.BENCH_BATCH ? envInt('BENCH_BATCH', 1) : undefined;
  const unbatched = process.env.BENCH_UNBATCHED !== '0';
  if (games % 2) throw new Error('BENCH_GAMES must be even (side-swapped pairs)');
  const redis = await startRedisServer({ appendfsync: 'everysec' });
  const local: RoundFigure[] = [];
  const queue: RoundFigure[] = [];
  const single: RoundFigure[] = [];
  try {
    // Warm-up: the processor bundle is built, threads and children start, the JIT sees both paths.
    process.stderr.write('bench: warm-up\n');
    await runLocal(await planFor(1000, 20, 'bench-warm-local'), workers);
    await runQueue(await planFor(1001, 20, 'bench-warm-queue'), redis.url, workers);
    for (let r = 0; r < rounds; r++) {
      const plan = await planFor(r, games, `bench-r${r}`);
      // Same seeds on every path, different tournament ids so nothing is skipped or deduplicated.
      const qplan = await planFor(r, games, `bench-q${r}`);
      const splan = await planFor(r, games, `bench-s${r}`);
      const cases = unbatched ? ['local', 'queue', 'single'] : ['local', 'queue'];
      // Each round starts the rotation one further, so no case always runs first or last.
      const order = cases.map((_, i) => cases[(i + r) % cases.length]!);
      for (const which of order) {
        process.stderr.write(`bench: round ${r + 1}/${rounds} ${which}\n`);
        if (which === 'local') local.push(await runLocal(plan, workers));
        else if (which === 'queue') queue.push(await runQueue(qplan, redis.url, workers, redis.pid, batch));
        else single.push(await runQueue(splan, redis.url, workers, redis.pid, 1));
      }
    }
  } finally {
    await redis.dispose();
  }
  const ratios = local.map((l, i) => (queue[i] as RoundFigure).gamesPerSec / l.gamesPerSec);
  const singleRatios = single.map((q, i) => q.gamesPerSec / (local[i] as RoundFigure).gamesPerSec);
  const meta = {
    ...machine(),
  };
  const fmt = (x: number) => x.toFixed(1);
  const fmtOpt = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(3));
  const medianDefined = (xs: (number | undefined)[]) => {
    const d = xs.filter((x): x is number => x !== undefined);
    return d.length ? median(d) : undefined;
  };
  const ks = [...new Set(queue.map((q) => q.batchPairs))].join(', ');
  // CPU per game, the local pool's over the queue's (worker, children and redis-server): the work each
  // path spends on a game, which a loaded machine (other processes taking the cores) skews far less
  // than games per second, where a path of more processes gets a bigger share of the cores.
  const cpuRatio = (l: RoundFigure, q: RoundFigure) => l.cpuMsPerGame / (q.cpuMsPerGame + (q.redisCpuMsPerGame ?? 0));
  const row = (label: string, l: RoundFigure, q: RoundFigure, ratio: number) =>
    `| ${label} | ${q.batchPairs ?? '—'} | ${fmt(l.gamesPerSec)} | ${fmt(q.gamesPerSec)} | ${ratio.toFixed(3)} | ${cpuRatio(l, q).toFixed(3)} | ${l.cpuMsPerGame.toFixed(3)} | ${q.cpuMsPerGame.toFixed(3)} | ${fmtOpt(q.workerCpuMsPerGame)} | ${fmtOpt(q.redisCpuMsPerGame)} | ${fmtOpt(q.submitMsPerGame)} |`;
  const medianRow = (label: string, qs: RoundFigure[], rs: number[]) =>
    `| ${label} | ${[...new Set(qs.map((q) => q.batchPairs))].join(', ')} | ${fmt(median(local.map((l) => l.gamesPerSec)))} | ${fmt(median(qs.map((q) => q.gamesPerSec)))} | **${median(rs).toFixed(3)}**${median(rs) >= 0.97 ? '' : ' (under target)'} | ${median(local.map((l, i) => cpuRatio(l, qs[i] as RoundFigure))).toFixed(3)} | ${median(local.map((l) => l.cpuMsPerGame)).toFixed(3)} | ${median(qs.map((q) => q.cpuMsPerGame)).toFixed(3)} | ${fmtOpt(medianDefined(qs.map((q) => q.workerCpuMsPerGame)))} | ${fmtOpt(medianDefined(qs.map((q) => q.redisCpuMsPerGame)))} | ${fmtOpt(medianDefined(qs.map((q) => q.submitMsPerGame)))} |`;
  const block = [
    `<!-- bench-queue:${meta.date}|${meta.node}|${meta.cpu} -->`,
    `### Queue vs local pool · ${meta.date} · Node ${meta.node} · ${meta.cpu} (nproc ${meta.nproc}, ${meta.memGB} GB)`,
    '',
    `Blitz A, random vs random, side-swapped pairs, ${games} games per case and round, ${rounds} rounds rotating the order, no telemetry (the queue's own cost). ` +
      `**local**: \`runLocalTournament\` with ${workers} game thread(s). **BullMQ**: a redis-server on this machine (AOF, fsync every second as infra/redis/redis.conf), the plan submitted as a flow in jobs of k side-swapped pairs (k = ${ks}${batch === undefined ? ', sized by `submitTournament` from a probe game' : ', BENCH_BATCH'}), then one \`startWorker\` with concurrency ${workers} (one sandboxed child process per concurrent job); timed from the worker's start to the last outcome (the submit, with its probe game, is timed apart: last column)${unbatched ? '. **BullMQ k=1**: the same with one pair per job (as before batches)' : ''}. Target: BullMQ/local ≥ 0.97.`,
    '',
    '| round | k | local games/s | BullMQ games/s | BullMQ / local | CPU per game, local / BullMQ (with Redis) | local CPU ms per game | BullMQ worker + children CPU ms per game | of which the worker process | redis-server CPU ms per game | submit ms per game |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...local.map((l, i) => row(String(i + 1), l, queue[i] as RoundFigure, ratios[i] as number)),
    ...(unbatched ? local.map((l, i) => row(`${i + 1}, k=1`, l, single[i] as RoundFigure, singleRatios[i] as number)) : []),
    medianRow('median', queue, ratios),
    ...(unbatched ? [medianRow('median, k=1', single, singleRatios)] : []),
    `<!-- bench-queue:end -->`,
  ].join('\n');
  process.stdout.write(block + '\n');
  const outDir = process.env.BENCH_OUT_DIR || join(here, 'out');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'queue-latest.json'), JSON.stringify({ ...meta, games, rounds, workers, local, queue, single, ratios, singleRatios }, null, 2) + '\n');
  const resultsFile = process.env.BENCH_RESULTS || join(here, 'RESULTS.md');
  if (resultsFile !== 'none') updateResultsBlock(resultsFile, 'bench-queue', `${meta.date}|${meta.node}|${meta.cpu}`, block, '# Benchmark results\n');
}

await main();
