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
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SalientError } from '@salient/engine';
import { envInt, threadCpuMs } from './support.ts';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const baseDir = process.env.BENCH_AB_BASE;
if (!baseDir) throw new SalientError('BAD_ARGUMENT', 'BENCH_AB_BASE must name the other checkout');

interface Side {
  name: string;
  game: typeof import('@salient/game-empires-alliances').empiresAlliances;
  runMatch: typeof import('@salient/runner').runMatch;
  createBot: typeof import('@salient/bots').createBot;
  RngStreams: typeof import('@salient/engine').RngStreams;
}
async function load(name: string, dir: string): Promise<Side> {
  const game = (await import(join(dir, 'packages/games/empires-alliances/src/index.ts'))).empiresAlliances;
  const { runMatch } = await import(join(dir, 'packages/runner/src/index.ts'));
  const { createBot } = await import(join(dir, 'packages/bots/src/index.ts'));
  const { RngStreams } = await import(join(dir, 'packages/engine/src/index.ts'));
  return { name, game, runMatch, createBot, RngStreams };
}
const sides = [await load('base', resolve(baseDir)), await load('this', here)];

async function runner(x: Side, seed: number): Promise<number> {
  const m = await x.runMatch({ game: x.game, pack: packOf(x) as never, scenario: '1918', seed, seats: { CP: x.createBot('random'), AL: x.createBot('random') }, seatSpecs: { CP: 'random', AL: 'random' } });
  return m.decisions;
}
const packs = new Map<Side, unknown>();
function packOf(x: Side): unknown {
  let p = packs.get(x);
  if (!p) {
    const r = x.game.checkPack(x.game.bundledPacks.approximation);
    if (!r.ok) throw new SalientError('BAD_PACK', 'the bundled E&A pack fails its schema', r.issues);
    packs.set(x, (p = r.pack));
  }
  return p;
}
function loop(x: Side, seed: number): number {
  const p = packOf(x);
  const streams = new x.RngStreams(seed);
  let s = x.game.setup('1918', p as never);
  let d = 0;
  for (;;) {
    const q = x.game.pending(s);
    if (q.kind === 'terminal') break;
    let c: string;
    if (q.kind === 'chance') c = streams.get(q.stream).sample(q.outcomes);
    else {
      d++;
      c = q.options[streams.get(`bot:${q.power}`).int(0, q.options.length - 1)]!;
    }
    s = x.game.applyOwned!(s, c).state;
  }
  return d;
}

const games = envInt('BENCH_GAMES', 10);
const seed0 = envInt('BENCH_SEED', 1);
for (const mode of (process.env.BENCH_AB_MODES ?? 'runner,loop').split(',') as ('runner' | 'loop')[]) {
  const tot = sides.map(() => ({ d: 0, ms: 0 }));
  for (let i = -3; i < games; i++) {
    for (let k = 0; k < sides.length; k++) {
      const j = (i + k) & 1 ? 1 - k : k; // alternate which side goes first
      const x = sides[j]!;
      const t0 = threadCpuMs();
      const d = mode === 'runner' ? await runner(x, i < 0 ? 10_000 + i : seed0 + i) : loop(x, i < 0 ? 10_000 + i : seed0 + i);
      const ms = threadCpuMs() - t0;
      if (i >= 0) {
        tot[j]!.d += d;
        tot[j]!.ms += ms;
      }
    }
  }
  const rate = tot.map((t) => t.d / (t.ms / 1000));
  console.log(`${mode}: base ${Math.round(rate[0]!)} decisions/CPU-s, this ${Math.round(rate[1]!)}; this/base ${(rate[1]! / rate[0]!).toFixed(3)} (${games} games each, ${tot[0]!.d} decisions)`);
}
