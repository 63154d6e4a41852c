/**
 * How the local tournament pool scales: Blitz! scenario A, random vs random, played through
 * `runLocalTournament` on 1 and 2 game threads, with the embedded store (chdb in a temporary directory,
 * rows posted from the threads to this one) and without a store. Each round plays every case once, on
 * the same seeds, in a rotating order, so load elsewhere hits all of them; figures are median rounds.
 *
 * Two rates per case: `games/s` over the whole call (thread start-up, loading the bundled code in each thread, JIT
 * warm-up and the closing drain included: what a user waits for), and `steady games/s` over the second
 * half of the matches (the pool's throughput once its threads are warm). Scaling = 2-thread rate / 1-thread rate (target ≥ 1.8
 * on 2 cores).
 *
 * And the machine's own ceiling for the same work: each round's plan played again by 1, then 2,
 * separate processes side by side, sharing its matches as the pool's threads would, each in a plain
 * loop with no pool, no threads and no messages (bench/play-loop.ts), timed from a common start once
 * loaded. What 2 processes give over 1 is the most any pool could scale by on this machine for a run
 * of this length; the pool's 2-thread rates are reported as a share of it.
 *
 *   npm run bench:tournament
 *   BENCH_GAMES=200 BENCH_ROUNDS=3 npm run bench:tournament     # quicker
 *
 * Environment: BENCH_GAMES (games per case per round, default 1000), BENCH_ROUNDS (default 3),
 * BENCH_SEED (first seed, default 1), BENCH_RESULTS (markdown file to update, default bench/RESULTS.md;
 * `none` to skip), BENCH_OUT_DIR (default bench/out).
 */
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTournamentSpec, planTournament } from '@salient/scheduler';
import { openTelemetry, type Telemetry } from '@salient/telemetry';
import { runLocalTournament } from '@salient/scheduler/local';
import { bundleEntry } from '../packages/scheduler/src/bundle.ts';
import { envInt, median, updateResultsBlock, machine } from './support.ts';

const here = dirname(fileURLToPath(import.meta.url));
const TARGET_SCALING = 1.8;
/** Issue 30 item 5: the pool on 2 threads against the machine's own ceiling (the same games in 2 bare processes). */
const TARGET_SHARE = 0.95;

interface Case {
  store: boolean;
  threads: number;
  rounds: { gamesPerSec: number; steadyPerSec: number }[];
  kinds: Record<string, number>;
}

const label = (c: Case) => `${c.threads} thread${c.threads > 1 ? 's' : ''}, ${c.store ? 'embedded store' : 'no store'}`;

async function round(c: Case, t: Telemetry, r: number, firstSeed: number, games: number): Promise<void> {
  const id = `bench-${c.store ? 'store' : 'none'}-${c.threads}-${r}-${process.pid}`;
  const spec = await parseTournamentSpec(
    `id: ${id}\ngame: blitz\nscenarios: [A]\nentrants: [{ name: r1, bot: random }, { name: r2, bot: random }]\n` +
      `gamesPerPairing: ${games}\nsideSwap: false\nbaseSeed: ${firstSeed}\n`,
    'bench.yaml',
  );
  const plan = await planTournament(spec);
  let first: number | undefined;
  let last = 0;
  const started = performance.now();
  const res = await runLocalTournament({
    plan,
    threads: c.threads,
    ...(c.store ? { telemetry: t } : {}),
    onProgress: (p) => {
      // The second half: each thread's isolate compiled its hot code by then (fresh isolates warming
      // up side by side cost about twice as much per game as one alone, on this 2-core machine).
      if (p.played === Math.ceil(plan.matches.length / 2)) first = performance.now();
      if (p.played > 0) last = performance.now();
    },
  });
  const wall = performance.now() - started;
  for (const o of res.outcomes) c.kinds[o.kind] = (c.kinds[o.kind] ?? 0) + 1;
  c.rounds.push({ gamesPerSec: res.played / (wall / 1000), steadyPerSec: first !== undefined && last > first ? (res.played - Math.ceil(plan.matches.length / 2)) / ((last - first) / 1000) : 0 });
  process.stderr.write(`bench: ${label(c)}: ${res.played} games in ${(wall / 1000).toFixed(2)} s\n`);
}

type Loops = 'processes' | 'threads';

/** One loop of bench/play-loop.ts (its bundle), as a separate process or a thread of this one. */
interface Loop {
  /** Resolves when the loop has loaded. */
  ready: Promise<void>;
  /** Start; resolves with the times its games finished. */
  go(): Promise<number[]>;
}

function processLoop(bundle: string, env: Record<string, string>): Loop {
  const child = spawn(process.execPath, [bundle], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<string> => {
    const r = await lines.next();
    if (r.done) throw new Error(`bench: a ceiling process ended early (exit ${child.exitCode})`);
    return r.value;
  };
  return {
    ready: next().then(() => undefined),
    go: async () => {
      child.stdin.end('go\n');
      return JSON.parse(await next()) as number[];
    },
  };
}

function threadLoop(bundle: string, data: { seed: number; games: number; part: number; parts: number }): Loop {
  const thread = new Worker(bundle, { workerData: data });
  const message = () =>
    new Promise<unknown>((resolve, reject) => {
      thread.once('message', resolve);
      thread.once('error', reject);
    });
  const ready = message().then(() => undefined);
  return {
    ready,
    go: async () => {
      const done = message();
      thread.postMessage('go');
      const finished = (await done) as number[];
      await thread.terminate();
      return finished;
    },
  };
}

/**
 * The machine's ceiling for one round's work: the same plan (`games` games from `firstSeed`) shared
 * by `n` loops (separate processes, or threads of this process) as `n` pool threads would share it,
 * each playing its games one after another (bench/play-loop.ts), started together once loaded. Rates
 * as the pool's: all games over the time from the start to the last game, and the second half of the
 * games over the time they took.
 */
async function ceiling(bundle: string, loops: Loops, n: number, games: number, firstSeed: number): Promise<CeilingRound> {
  const spawned = performance.timeOrigin + performance.now();
  const all = Array.from({ length: n }, (_, part) =>
    loops === 'processes'
      ? processLoop(bundle, { BENCH_SEED: String(firstSeed), BENCH_GAMES: String(games), BENCH_PART: String(part), BENCH_PARTS: String(n) })
      : threadLoop(bundle, { seed: firstSeed, games, part, parts: n }),
  );
  await Promise.all(all.map((l) => l.ready));
  const go = performance.timeOrigin + performance.now();
  const finished = (await Promise.all(all.map((l) => l.go()))).flat().sort((a, b) => a - b);
  if (finished.length !== games) throw new Error(`bench: the ceiling loops played ${finished.length} games of ${games}`);
  const half = Math.ceil(games / 2);
  const last = finished[games - 1]!;
  process.stderr.write(`bench: ceiling, ${ceilingLabel(loops, n)}: ${games} games in ${((last - go) / 1000).toFixed(2)} s\n`);
  return {
    gamesPerSec: games / ((last - go) / 1000),
    fromStartPerSec: games / ((last - spawned) / 1000),
    steadyPerSec: (games - half) / ((last - finished[half - 1]!) / 1000),
  };
}

/**
 * One round of a ceiling case: `gamesPerSec` from the common start once every loop is loaded (the loops
 * play a game outside the plan before it), `fromStartPerSec` from the moment the loops were started
 * (processes spawned or threads created: code loaded, pack read, JIT cold), as the pool's whole call is
 * timed, and the second half of the games.
 */
interface CeilingRound {
  gamesPerSec: number;
  fromStartPerSec: number;
  steadyPerSec: number;
}

const ceilingLabel = (loops: Loops, n: number) =>
  loops === 'processes' ? (n > 1 ? `${n} bare processes side by side` : '1 bare process') : `${n} bare threads of one process`;

async function main(): Promise<void> {
  const games = envInt('BENCH_GAMES', 1000);
  const rounds = envInt('BENCH_ROUNDS', 3);
  const firstSeed = envInt('BENCH_SEED', 1);
  const resultsFile = process.env.BENCH_RESULTS ?? join(here, 'RESULTS.md');
  const outDir = process.env.BENCH_OUT_DIR ?? join(here, 'out');
  const tmp = mkdtempSync(join(tmpdir(), 'salient-bench-tournament-'));
  const t = await openTelemetry({ kind: 'embedded', path: join(tmp, 'clickhouse'), spoolDir: join(tmp, 'spool') });
  const cases: Case[] = [];
  for (const store of [false, true]) for (const threads of [1, 2]) cases.push({ store, threads, rounds: [], kinds: {} });
  // The ceiling's loops run the same kind of bundle as the pool's threads (not the sources through tsx).
  const loopBundle = await bundleEntry(join(here, 'play-loop.ts'), 'bench-play-loop');
  const ceilingCases: { loops: Loops; n: number }[] = [
    { loops: 'processes', n: 1 },
    { loops: 'processes', n: 2 },
    { loops: 'threads', n: 2 },
  ];
  const ceilings = new Map<string, CeilingRound[]>(ceilingCases.map((c) => [ceilingLabel(c.loops, c.n), []]));
  try {
    for (let r = 0; r < rounds; r++) {
      process.stderr.write(`bench: round ${r + 1}/${rounds}\n`);
      for (let k = 0; k < cases.length; k++) await round(cases[(k + r) % cases.length] as Case, t, r, firstSeed + r * games, games);
      for (let k = 0; k < ceilingCases.length; k++) {
        const c = ceilingCases[(k + r) % ceilingCases.length]!;
        ceilings.get(ceilingLabel(c.loops, c.n))!.push(await ceiling(loopBundle, c.loops, c.n, games, firstSeed + r * games));
      }
    }
  } finally {
    await t.close();
    rmSync(tmp, { recursive: true, force: true });
  }

  const rate = (c: Case) => median(c.rounds.map((x) => x.gamesPerSec));
  const steady = (c: Case) => median(c.rounds.map((x) => x.steadyPerSec));
  const find = (store: boolean, threads: number) => cases.find((c) => c.store === store && c.threads === threads) as Case;
  const meta = {
    ...machine(),
  };
  const rows = cases.map((c) => ({
    case: label(c),
    store: c.store,
    threads: c.threads,
    games: c.rounds.length * games,
    gamesPerSec: rate(c),
    steadyGamesPerSec: steady(c),
    kinds: c.kinds,
  }));
  const scaling = [false, true].map((store) => ({
    store,
    ratio: rate(find(store, 2)) / rate(find(store, 1)),
    steadyRatio: steady(find(store, 2)) / steady(find(store, 1)),
  }));
  const ceil = (n: number, loops: Loops = 'processes') => {
    const rs = ceilings.get(ceilingLabel(loops, n))!;
    return {
      gamesPerSec: median(rs.map((x) => x.gamesPerSec)),
      fromStartPerSec: median(rs.map((x) => x.fromStartPerSec)),
      steadyGamesPerSec: median(rs.map((x) => x.steadyPerSec)),
    };
  };
  const machineCeiling = {
    one: ceil(1),
    two: ceil(2),
    twoThreads: ceil(2, 'threads'),
    ratio: ceil(2).gamesPerSec / ceil(1).gamesPerSec,
    steadyRatio: ceil(2).steadyGamesPerSec / ceil(1).steadyGamesPerSec,
    /** The pool's 2-thread rates (no store) against two bare processes side by side. */
    poolShare: rate(find(false, 2)) / ceil(2).gamesPerSec,
    poolSteadyShare: steady(find(false, 2)) / ceil(2).steadyGamesPerSec,
    /** The same whole call against the bare processes timed the same way: from their start, loading included. */
    poolFromStartShare: rate(find(false, 2)) / ceil(2).fromStartPerSec,
  };
  const share = (x: number) => `${(100 * x).toFixed(0)}% (${x >= TARGET_SHARE ? 'meets' : '**below**'} the ${100 * TARGET_SHARE}% target)`;
  const fmt = (x: number) => x.toFixed(2);
  const verdict = (x: number) => (x >= TARGET_SCALING ? 'meets' : '**below**');
  const block = [
    `<!-- bench-tournament:${meta.date}|${meta.node}|${meta.cpu} -->`,
    `### Tournament pool · ${meta.date} · Node ${meta.node} · ${meta.cpu} (nproc ${meta.nproc}, ${meta.memGB} GB)`,
    '',
    `Blitz A, random vs random, through \`runLocalTournament\` (bench/tournament.bench.ts), ${games} games per case per round, ${rounds} rounds, cases alternating, seeds from ${firstSeed}; median round. ` +
      '`games/s` is the whole call (threads started, code loaded and warmed up in each, store drained); `steady` is the second half of the matches.',
    '',
    'Ceiling rows: `games/s` from a common start once every loop has loaded and played one game outside the plan; `from start` from the moment the loops were started (processes spawned or threads created), timed as the pool\'s whole call is.',
    '',
    '| case | games | games/s | from start games/s | steady games/s | endings |',
    '|---|---:|---:|---:|---:|---|',
    ...rows.map((r) => `| ${r.case} | ${r.games} | ${fmt(r.gamesPerSec)} | ${fmt(r.gamesPerSec)} | ${fmt(r.steadyGamesPerSec)} | ${Object.entries(r.kinds).map(([k, n]) => `${k} ${n}`).join(', ')} |`),
    ...ceilingCases.map(
      (c) =>
        `| ceiling: the same games in ${ceilingLabel(c.loops, c.n)} | ${rounds * games} | ${fmt(ceil(c.n, c.loops).gamesPerSec)} | ${fmt(ceil(c.n, c.loops).fromStartPerSec)} | ${fmt(ceil(c.n, c.loops).steadyGamesPerSec)} | |`,
    ),
    '',
    ...scaling.map(
      (s) => `Scaling 2 threads / 1 thread, ${s.store ? 'embedded store' : 'no store'}: ${fmt(s.ratio)} whole call (${verdict(s.ratio)} the ${TARGET_SCALING} target), ${fmt(s.steadyRatio)} steady (${verdict(s.steadyRatio)}).`,
    ),
    `Machine ceiling (the same games in plain loops, shared by separate processes, no pool): 2 processes / 1 = ${fmt(machineCeiling.ratio)} whole, ${fmt(machineCeiling.steadyRatio)} steady. ` +
      `The pool on 2 threads (no store) gives ${(100 * machineCeiling.poolShare).toFixed(0)}% of two bare processes' rate whole and ${(100 * machineCeiling.poolSteadyShare).toFixed(0)}% steady; ` +
      `two bare threads of one process give ${(100 * machineCeiling.twoThreads.gamesPerSec / machineCeiling.two.gamesPerSec).toFixed(0)}% and ${(100 * machineCeiling.twoThreads.steadyGamesPerSec / machineCeiling.two.steadyGamesPerSec).toFixed(0)}%.`,
    `Against the machine's ceiling timed alike (two bare processes from their start, loading included, as the pool's whole call; and the second halves), the pool on 2 threads (no store) gives ${share(machineCeiling.poolFromStartShare)} whole and ${share(machineCeiling.poolSteadyShare)} steady.`,
    '<!-- bench-tournament:end -->',
  ].join('\n');
  process.stdout.write(block + '\n');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'tournament-latest.json'), JSON.stringify({ ...meta, games, rounds, firstSeed, cases: rows, scaling, machineCeiling }, null, 2) + '\n');
  if (resultsFile !== 'none') updateResultsBlock(resultsFile, 'bench-tournament', `${meta.date}|${meta.node}|${meta.cpu}`, block, '# Benchmark results\n');
  const failed = rows.reduce((n, r) => n + (r.kinds.error ?? 0), 0);
  if (failed > 0) {
    process.stderr.write(`bench: ${failed} game(s) ended in an error; fix the game first.\n`);
    process.exitCode = 1;
  }
}

await main();
