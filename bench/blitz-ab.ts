/**
 * A/B of Blitz! speed in one process: the code of another checkout (BENCH_AB_BASE, e.g. a
 * `git archive main` unpacked with node_modules linked) against this one, game by game in turn, same
 * seeds, so both see the same machine load. Random bots on both seats through each side's own
 * `runMatch` and game; then the bare loop (`pending` + `applyOwned`, random picks from the bots'
 * streams); with BENCH_AB_MODES=mcts, the MCTS bot (BENCH_AB_MCTS, default as bench/mcts.bench.ts searches
 * Blitz) as the Axis against random, the same games on both sides when the two play alike, so the ratio
 * is that of search speed. Time is CPU time of the main thread where Linux gives it. Scenarios from
 * BENCH_AB_SCENARIOS (default A,B,full; the full game plays a fifth as many games, at least one).
 *
 *   BENCH_AB_BASE=/tmp/base BENCH_GAMES=10 node --import tsx bench/blitz-ab.ts
 */
import { abRates, loadSides, randomLoop, type AbSide } from './ab-support.ts';
import { envInt } from './support.ts';

const sides = await loadSides('packages/games/blitz', 'blitz');

/** The MCTS bot's search (as bench/mcts.bench.ts sets it for Blitz) for the Axis against random. */
const MCTS = process.env.BENCH_AB_MCTS ?? 'mcts:iterations=300,rollout=0';
async function runner(x: AbSide, scenario: string, seed: number, mcts = false): Promise<number> {
  const axis = mcts ? MCTS : 'random';
  const seats = { Axis: x.createBot(axis), Allies: x.createBot('random') };
  const m = await x.runMatch({ game: x.game, pack: x.pack as never, scenario, seed, seats, seatSpecs: { Axis: axis, Allies: 'random' }, decisionTimeoutMs: 600_000 });
  return m.decisions;
}

const games = envInt('BENCH_GAMES', 10);
const seed0 = envInt('BENCH_SEED', 1);
for (const scenario of (process.env.BENCH_AB_SCENARIOS ?? 'A,B,full').split(',')) {
  const n = scenario === 'full' ? Math.max(1, Math.round(games / 5)) : games;
  for (const mode of (process.env.BENCH_AB_MODES ?? 'runner,loop').split(',') as ('runner' | 'loop' | 'mcts')[]) {
    const { rates: rate, decisions } = await abRates(sides, n, seed0, 1, (x, seed) => (mode === 'loop' ? randomLoop(x, scenario, seed) : runner(x, scenario, seed, mode === 'mcts')));
    console.log(`${scenario} ${mode}: base ${Math.round(rate[0]!)} decisions/CPU-s, this ${Math.round(rate[1]!)}; this/base ${(rate[1]! / rate[0]!).toFixed(3)} (${n} games each, ${decisions} decisions)`);
  }
}
