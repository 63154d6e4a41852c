/**
 * A child of bench/tournament.bench.ts, run from its esbuild bundle: plays its share of a bench plan's
 * Blitz! A random-vs-random games one after another (no pool, no messages between games), for the
 * machine's own ceiling on the work the pool is given. Runs as a separate process (talking over
 * stdin/stdout) or as a worker thread (talking over its port). Loads, says `ready`, waits for `go`
 * so that every loop starts at once, plays the plan's matches whose index is `part` modulo `parts`
 * (as a pool of that many threads would share them), and answers with the wall-clock time (ms since
 * the epoch) at which each of its games finished.
 *
 * Process environment: BENCH_SEED (the plan's base seed), BENCH_GAMES (games in the plan), BENCH_PART,
 * BENCH_PARTS. A thread gets the same as `workerData` ({ seed, games, part, parts }).
 */
import { createInterface } from 'node:readline';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { parseTournamentSpec, planTournament, playPlanned } from '@salient/scheduler';

export interface LoopData {
  seed: number;
  games: number;
  part: number;
  parts: number;
}

const fromEnv = (): LoopData => {
  const n = (name: string, fallback: number) => {
    const v = Number(process.env[name] ?? fallback);
    if (!Number.isInteger(v) || v < 0) throw new Error(`${name} must be a whole number; got ${process.env[name]}.`);
    return v;
  };
  return { seed: n('BENCH_SEED', 1), games: n('BENCH_GAMES', 1000), part: n('BENCH_PART', 0), parts: n('BENCH_PARTS', 1) };
};

const data: LoopData = isMainThread ? fromEnv() : (workerData as LoopData);
if (!(data.part < data.parts)) throw new Error(`part ${data.part} of ${data.parts}: the part must be below the number of parts.`);
const entrants = 'entrants: [{ name: r1, bot: random }, { name: r2, bot: random }]\nsideSwap: false\n';
const spec = await parseTournamentSpec(`id: bench-ceiling\ngame: blitz\nscenarios: [A]\n${entrants}gamesPerPairing: ${data.games}\nbaseSeed: ${data.seed}\n`, 'bench-ceiling.yaml');
const mine = (await planTournament(spec)).matches.filter((_, i) => i % data.parts === data.part);
// Load the game and pack before the start, with a game from outside the plan.
const load = await parseTournamentSpec(`id: bench-ceiling-load\ngame: blitz\nscenarios: [A]\n${entrants}gamesPerPairing: 1\nbaseSeed: ${data.seed + 10_000_000}\n`, 'load.yaml');
await playPlanned((await planTournament(load)).matches[0]!);

const play = async (): Promise<number[]> => {
  const finished: number[] = [];
  for (const m of mine) {
    await playPlanned(m);
    finished.push(performance.timeOrigin + performance.now());
  }
  return finished;
};

if (parentPort) {
  const port = parentPort;
  port.once('message', () => void play().then((finished) => port.postMessage(finished)));
  port.postMessage('ready');
} else {
  process.stdout.write('ready\n');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) if (line.trim() === 'go') break;
  lines.close();
  process.stdout.write(JSON.stringify(await play()) + '\n');
}
