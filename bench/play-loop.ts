/**
 * A child of bench/tournament.bench.ts: plays Blitz! A random-vs-random games one after another in
 * this process's main thread (no pool, no threads, no messages), for the machine's own ceiling on
 * this workload. Loads, says `ready`, waits for `go` on stdin so that every child starts at once,
 * plays until BENCH_SECONDS have passed, and prints one JSON line: games finished in the first and
 * the second half of that window.
 *
 * Environment: BENCH_SEED (first seed), BENCH_SECONDS (window length).
 */
import { createInterface } from 'node:readline';
import { parseTournamentSpec, planTournament, playPlanned } from '@salient/scheduler';
import { envInt } from './support.ts';

const seed = envInt('BENCH_SEED', 1);
const seconds = envInt('BENCH_SECONDS', 8);
const spec = await parseTournamentSpec(
  `id: bench-ceiling\ngame: blitz\nscenarios: [A]\nentrants: [{ name: r1, bot: random }, { name: r2, bot: random }]\n` +
    `gamesPerPairing: ${Math.max(1000, seconds * 1000)}\nsideSwap: false\nbaseSeed: ${seed}\n`,
  'bench-ceiling.yaml',
);
const plan = await planTournament(spec);
// Load the game and pack before the window opens.
await playPlanned(plan.matches[plan.matches.length - 1]!);
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line.trim() === 'go') break;
lines.close();

const start = performance.now();
const end = start + seconds * 1000;
const half = start + (seconds * 1000) / 2;
let firstHalf = 0;
let secondHalf = 0;
for (const m of plan.matches) {
  await playPlanned(m);
  const t = performance.now();
  if (t > end) break;
  if (t <= half) firstHalf++;
  else secondHalf++;
}
if (performance.now() <= end) throw new Error(`the plan ran out before ${seconds} s; plan more games`);
process.stdout.write(JSON.stringify({ firstHalf, secondHalf }) + '\n');
