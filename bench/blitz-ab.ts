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
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SalientError } from '@salient/engine';
import { envInt, threadCpuMs } from './support.ts';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const baseDir = process.env.BENCH_AB_BASE;
if (!baseDir) throw new SalientError('BAD_ARGUMENT', 'BENCH_AB_BASE must name the other checkout');

interface Side {
  name: string;
  game: typeof import('@salient/game-blitz').blitz;
  runMatch: typeof import('@salient/runner').runMatch;
  createBot: typeof import('@salient/bots').createBot;
  RngStreams: typeof import('@salient/engine').RngStreams;
}
async function load(name: string, dir: string): Promise<Side> {
  const game = (await import(join(dir, 'packages/games/blitz/src/index.ts'))).blitz;
  const { runMatch } = await import(join(dir, 'packages/runner/src/index.ts'));
  const { createBot } = await import(join(dir, 'packages/bots/src/index.ts'));
  const { RngStreams } = await import(join(dir, 'packages/engine/src/index.ts'));
  return { name, game, runMatch, createBot, RngStreams };
}
const sides = [await load('base', resolve(baseDir)), await load('this', here)];

const packs = new Map<Side, unknown>();
function packOf(x: Side): unknown {
  let p = packs.get(x);
  if (!p) {
    const id = Object.keys(x.game.bundledPacks)[0] as string;
    const r = x.game.checkPack(x.game.bundledPacks[id]);
    if (!r.ok) throw new SalientError('BAD_PACK', 'the bundled Blitz pack fails its schema', r.issues);
    packs.set(x, (p = r.pack));
  }
  return p;
}
/** The MCTS bot's search (as bench/mcts.bench.ts sets it for Blitz) for the Axis against random. */
const MCTS = process.env.BENCH_AB_MCTS ?? 'mcts:iterations=300,rollout=0';
async function runner(x: Side, scenario: string, seed: number, mcts = false): Promise<number> {
  const axis = mcts ? MCTS : 'random';
  const seats = { Axis: x.createBot(axis), Allies: x.createBot('random') };
  const m = await x.runMatch({ game: x.game, pack: packOf(x) as never, scenario, seed, seats, seatSpecs: { Axis: axis, Allies: 'random' }, decisionTimeoutMs: 600_000 });
  return m.decisions;
}
function loop(x: Side, scenario: string, seed: number): number {
  const p = packOf(x);
  const streams = new x.RngStreams(seed);
  let s = x.game.setup(scenario, p as never);
  let d = 0;
  for (;;) {
    const q = x.game.pending(s);
    if (q.kind === 'terminal') break;
    let c: unknown;
    if (q.kind === 'chance') c = streams.get(q.stream).sample(q.outcomes);
    else {
      d++;
      c = q.options[streams.get(`bot:${q.power}`).int(0, q.options.length - 1)]!;
    }
    s = x.game.applyOwned!(s, c as never).state;
  }
  return d;
}

const games = envInt('BENCH_GAMES', 10);
const seed0 = envInt('BENCH_SEED', 1);
for (const scenario of (process.env.BENCH_AB_SCENARIOS ?? 'A,B,full').split(',')) {
  const n = scenario === 'full' ? Math.max(1, Math.round(games / 5)) : games;
  for (const mode of (process.env.BENCH_AB_MODES ?? 'runner,loop').split(',') as ('runner' | 'loop' | 'mcts')[]) {
    const tot = sides.map(() => ({ d: 0, ms: 0 }));
    for (let i = -1; i < n; i++) {
      for (let k = 0; k < sides.length; k++) {
        const j = (i + k) & 1 ? 1 - k : k; // alternate which side goes first
        const x = sides[j]!;
        const seed = i < 0 ? 10_000 + i : seed0 + i;
        const t0 = threadCpuMs();
        const d = mode === 'loop' ? loop(x, scenario, seed) : await runner(x, scenario, seed, mode === 'mcts');
        const ms = threadCpuMs() - t0;
        if (i >= 0) {
          tot[j]!.d += d;
          tot[j]!.ms += ms;
        }
      }
    }
    const rate = tot.map((t) => t.d / (t.ms / 1000));
    console.log(`${scenario} ${mode}: base ${Math.round(rate[0]!)} decisions/CPU-s, this ${Math.round(rate[1]!)}; this/base ${(rate[1]! / rate[0]!).toFixed(3)} (${n} games each, ${tot[0]!.d} decisions)`);
  }
}
