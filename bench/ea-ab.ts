/**
 * A/B of Empires & Alliances speed in one process: the code of another checkout (BENCH_AB_BASE, e.g. a
 * `git archive main` unpacked with node_modules linked) against this one, game by game in turn, same
 * seeds, so both see the same machine load. Random bots on both seats through each side's own
 * `runMatch` and game; then the bare loop (`pending` + `applyOwned`, random picks from the bots'
 * streams, so the same games as through the runner). Time is CPU time of the main thread
 * (/proc/thread-self/schedstat: GC helper threads not counted) where Linux gives it.
 *
 *   BENCH_AB_BASE=/tmp/base BENCH_GAMES=10 node --import tsx bench/ea-ab.ts
 */
import { abRates, loadSides, randomLoop, type AbSide } from './ab-support.ts';
import { envInt } from './support.ts';

const sides = await loadSides('packages/games/empires-alliances', 'empiresAlliances', 'approximation');

async function runner(x: AbSide, seed: number): Promise<number> {
  const m = await x.runMatch({ game: x.game, pack: x.pack as never, scenario: '1918', seed, seats: { CP: x.createBot('random'), AL: x.createBot('random') }, seatSpecs: { CP: 'random', AL: 'random' } });
  return m.decisions;
}

const games = envInt('BENCH_GAMES', 10);
const seed0 = envInt('BENCH_SEED', 1);
for (const mode of (process.env.BENCH_AB_MODES ?? 'runner,loop').split(',') as ('runner' | 'loop')[]) {
  const { rates: rate, decisions } = await abRates(sides, games, seed0, 3, (x, seed) => (mode === 'runner' ? runner(x, seed) : randomLoop(x, '1918', seed)));
  console.log(`${mode}: base ${Math.round(rate[0]!)} decisions/CPU-s, this ${Math.round(rate[1]!)}; this/base ${(rate[1]! / rate[0]!).toFixed(3)} (${games} games each, ${decisions} decisions)`);
}
