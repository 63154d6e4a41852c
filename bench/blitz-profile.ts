/**
 * A random Blitz! game loop to profile (issue 30.1): the bare loop (`pending` + `applyOwned`, picks
 * from the bots' random streams, as bench/ab-support.ts `randomLoop`) for BENCH_GAMES seeds of one
 * scenario, printing decisions per second. Run under the profiler:
 *
 *   BENCH_SCENARIO=full BENCH_GAMES=5 node --cpu-prof --cpu-prof-interval 250 --cpu-prof-dir=/tmp/prof --import tsx bench/blitz-profile.ts
 *
 * Environment: BENCH_SCENARIO (default A), BENCH_GAMES (default 20), BENCH_SEED (default 1).
 */
import { RngStreams, type AnyGame } from '@salient/engine';
import { blitz } from '@salient/game-blitz';
import { blitzPack, envInt } from './support.ts';

const pack = blitzPack();
const game = blitz as unknown as AnyGame;
const scenario = process.env.BENCH_SCENARIO || 'A';
const games = envInt('BENCH_GAMES', 20);
const seed0 = envInt('BENCH_SEED', 1);
let decisions = 0;
const t0 = performance.now();
for (let seed = seed0; seed < seed0 + games; seed++) {
  const streams = new RngStreams(seed);
  let s = game.setup(scenario, pack);
  for (;;) {
    const q = game.pending(s);
    if (q.kind === 'terminal') break;
    let c: unknown;
    if (q.kind === 'chance') c = streams.get(q.stream).sample(q.outcomes);
    else {
      decisions++;
      c = q.options[streams.get(`bot:${q.power}`).int(0, q.options.length - 1)]!;
    }
    s = game.applyOwned!(s, c as never).state;
  }
}
const ms = performance.now() - t0;
console.log(`${scenario}: ${games} games, ${decisions} decisions in ${ms.toFixed(0)} ms: ${Math.round((decisions / ms) * 1000)} decisions/s`);
