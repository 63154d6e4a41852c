/**
 * What the one-process A/B benches (bench/ea-ab.ts, bench/blitz-ab.ts) share: each side's code loaded
 * from its checkout (BENCH_AB_BASE, then this one), its bundled pack checked once, the bare random loop,
 * and the timing of both sides game by game in turn on the same seeds, by main-thread CPU time.
 */
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SalientError } from '@salient/engine';
import type { Game } from '@salient/engine';
import { threadCpuMs } from './support.ts';

/** One side of an A/B: a game and the runner, bots and random streams of the same checkout. */
export interface AbSide {
  name: string;
  game: Game;
  runMatch: typeof import('@salient/runner').runMatch;
  createBot: typeof import('@salient/bots').createBot;
  RngStreams: typeof import('@salient/engine').RngStreams;
  /** The checkout's bundled pack, checked. */
  pack: unknown;
}

/**
 * Both sides: the checkout BENCH_AB_BASE names ('base'), then this one ('this'), each with the game
 * exported as `exportName` from `gameDir` (e.g. packages/games/blitz) and the bundled pack `packId`
 * (default its first).
 */
export async function loadSides(gameDir: string, exportName: string, packId?: string): Promise<AbSide[]> {
  const baseDir = process.env.BENCH_AB_BASE;
  if (!baseDir) throw new SalientError('BAD_ARGUMENT', 'BENCH_AB_BASE must name the other checkout');
  const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const load = async (name: string, dir: string): Promise<AbSide> => {
    const game = (await import(join(dir, gameDir, 'src/index.ts')))[exportName] as Game;
    const { runMatch } = await import(join(dir, 'packages/runner/src/index.ts'));
    const { createBot } = await import(join(dir, 'packages/bots/src/index.ts'));
    const { RngStreams } = await import(join(dir, 'packages/engine/src/index.ts'));
    const id = packId ?? (Object.keys(game.bundledPacks ?? {})[0] as string);
    const r = game.checkPack(game.bundledPacks?.[id]);
    if (!r.ok) throw new SalientError('BAD_PACK', `the bundled ${game.id} pack '${id}' of ${name} fails its schema`, r.issues);
    return { name, game, runMatch, createBot, RngStreams, pack: r.pack };
  };
  return [await load('base', resolve(baseDir)), await load('this', here)];
}

/** A random game played by the bare loop (`pending` + `applyOwned`, picks from the bots' streams): its decisions. */
export function randomLoop(x: AbSide, scenario: string, seed: number): number {
  const streams = new x.RngStreams(seed);
  let s = x.game.setup(scenario, x.pack as never);
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

/**
 * Decisions per CPU-second of each side: `play(side, seed)` (its decisions) for `games` seeds from
 * `seed0` after `warmup` seeds from 10 000 - warmup not counted, the sides alternating which goes first.
 */
export async function abRates(sides: readonly AbSide[], games: number, seed0: number, warmup: number, play: (x: AbSide, seed: number) => number | Promise<number>): Promise<{ rates: number[]; decisions: number }> {
  const tot = sides.map(() => ({ d: 0, ms: 0 }));
  for (let i = -warmup; i < games; i++) {
    for (let k = 0; k < sides.length; k++) {
      // Both sides play seed i, the one going first alternating with i. (Until 2026-11-29 this read
      // `(i + k) & 1`, which had one side play seed i twice: each side played every other seed.)
      const j = i & 1 ? 1 - k : k;
      const t0 = threadCpuMs();
      const d = await play(sides[j]!, i < 0 ? 10_000 + i : seed0 + i);
      const ms = threadCpuMs() - t0;
      if (i >= 0) {
        tot[j]!.d += d;
        tot[j]!.ms += ms;
      }
    }
  }
  return { rates: tot.map((t) => t.d / (t.ms / 1000)), decisions: tot[0]!.d };
}
