/**
 * Throughput of one core: Blitz! scenarios A to F and the full game, random bots on both seats, N seeds played one after
 * another with `runMatch` (single thread, no telemetry sink). Dice Race is measured in the same run as
 * a reference, so the ratio of the two is comparable across machines even when absolute figures are not.
 *
 *   npm run bench                      # 200 games per case
 *   BENCH_GAMES=50 npm run bench       # quicker
 *
 * Environment: BENCH_GAMES (default 200; the Dice Race reference plays 10 times as many, since its games
 * are tiny and a run of a tenth of a second would make a noisy reference), BENCH_SEED (first seed, default 1), BENCH_OUT_DIR (default
 * bench/out), BENCH_RESULTS (markdown file to update, default bench/RESULTS.md; `none` to skip),
 * BENCH_ROUNDS (default 5: the cases alternate in rounds and the median round is reported).
 * Run with `node --import tsx --expose-gc` (the npm script does) so each case starts from a collected heap.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, availableParallelism, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyGame, LoadedPack } from '@salient/engine';
import { diceRace, diceRacePack } from '@salient/engine/testing';
import { blitz } from '@salient/game-blitz';
import { runMatch, type MatchResult } from '@salient/runner';
import { createBot } from '@salient/bots';
import { blitzPack, envInt, median, updateResultsBlock } from './support.ts';

const here = dirname(fileURLToPath(import.meta.url));

interface Case {
  label: string;
  /** Games per `BENCH_GAMES`. */
  scale: number;
  game: AnyGame;
  pack: LoadedPack;
  scenario: string;
  seats: Record<string, string>;
}

interface Figures {
  label: string;
  /** Games per `BENCH_GAMES` for this case. */
  scale: number;
  games: number;
  wallMs: number;
  decisions: number;
  chanceDraws: number;
  decisionsPerSec: number;
  gamesPerSec: number;
  chanceDrawsPerSec: number;
  meanDecisionsPerGame: number;
  peakRssMB: number;
  peakHeapUsedMB: number;
  kinds: Record<string, number>;
}

async function play(c: Case, seed: number): Promise<MatchResult> {
  const seats = Object.fromEntries(Object.entries(c.seats).map(([seat, spec]) => [seat, createBot(spec)]));
  return runMatch({ game: c.game, pack: c.pack, scenario: c.scenario, seed, seats, seatSpecs: c.seats });
}

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/** Running totals of one case over all its rounds. */
class Tally {
  games = 0;
  wallMs = 0;
  decisions = 0;
  chanceDraws = 0;
  peakRss = 0;
  peakHeap = 0;
  readonly kinds: Record<string, number> = {};
  /** Per-round rates, whose medians are reported. */
  readonly rounds: Array<{ decisionsPerSec: number; gamesPerSec: number; chanceDrawsPerSec: number }> = [];

  constructor(readonly c: Case) {}

  /** Play `games` seeds from `firstSeed` as one timed round. */
  async round(firstSeed: number, games: number): Promise<void> {
    let decisions = 0;
    let draws = 0;
    const t0 = performance.now();
    for (let i = 0; i < games; i++) {
      const r = await play(this.c, firstSeed + i);
      decisions += r.decisions;
      draws += r.chanceDraws;
      this.kinds[r.kind] = (this.kinds[r.kind] ?? 0) + 1;
      const m = process.memoryUsage();
      this.peakRss = Math.max(this.peakRss, m.rss);
      this.peakHeap = Math.max(this.peakHeap, m.heapUsed);
    }
    const ms = performance.now() - t0;
    this.games += games;
    this.wallMs += ms;
    this.decisions += decisions;
    this.chanceDraws += draws;
    this.rounds.push({ decisionsPerSec: (decisions * 1000) / ms, gamesPerSec: (games * 1000) / ms, chanceDrawsPerSec: (draws * 1000) / ms });
  }

  figures(): Figures {
    return {
      label: this.c.label,
      scale: this.c.scale,
      games: this.games,
      wallMs: Math.round(this.wallMs),
      decisions: this.decisions,
      chanceDraws: this.chanceDraws,
      decisionsPerSec: Math.round(median(this.rounds.map((r) => r.decisionsPerSec))),
      gamesPerSec: Math.round(median(this.rounds.map((r) => r.gamesPerSec)) * 100) / 100,
      chanceDrawsPerSec: Math.round(median(this.rounds.map((r) => r.chanceDrawsPerSec))),
      meanDecisionsPerGame: Math.round((this.decisions / this.games) * 10) / 10,
      peakRssMB: mb(this.peakRss),
      peakHeapUsedMB: mb(this.peakHeap),
      kinds: this.kinds,
    };
  }
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

function markdown(
  meta: { date: string; node: string; cpu: string; nproc: number; memGB: number; games: number; rounds: number; firstSeed: number },
  rows: Figures[],
  ratio: number,
): string {
  const lines = [
    `<!-- bench:${meta.date}|${meta.node}|${meta.cpu} -->`,
    `### ${meta.date} · Node ${meta.node} · ${meta.cpu} (nproc ${meta.nproc}, ${meta.memGB} GB)`,
    '',
    `Seeds from ${meta.firstSeed}, one thread, sequential \`runMatch\`, no telemetry sink, after a short JIT warm-up. ` +
      `The cases alternate over ${meta.rounds} rounds; rates are the median round.`,
    '',
    '| case | games | decisions/s | games/s | chance draws/s | mean decisions/game | peak RSS MB | peak heapUsed MB | endings |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.games} | ${fmt(r.decisionsPerSec)} | ${fmt(r.gamesPerSec)} | ${fmt(r.chanceDrawsPerSec)} | ${fmt(r.meanDecisionsPerGame)} | ${r.peakRssMB} | ${r.peakHeapUsedMB} | ${Object.entries(r.kinds)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')} |`,
    ),
    '',
    `Blitz A decisions/s relative to the Dice Race reference (median of the per-round ratios): ${ratio.toFixed(4)}.`,
    `<!-- bench:end -->`,
  ];
  return lines.join('\n');
}

/** Replace the block of the same date, Node and CPU in RESULTS.md, or append a new one. */
function updateResults(file: string, block: string, key: string): void {
  const header =
    '# Benchmark results\n\nRecorded by `npm run bench` (bench/blitz-a.bench.ts). One block per date, Node version and CPU;\n' +
    'a re-run on the same day and machine replaces its block. Compare machines by the Dice Race ratio, not absolute figures.\n';
  updateResultsBlock(file, 'bench', key, block, header);
}

async function main(): Promise<void> {
  const games = envInt('BENCH_GAMES', 200);
  const firstSeed = envInt('BENCH_SEED', 1);
  const rounds = envInt('BENCH_ROUNDS', 5);
  const outDir = process.env.BENCH_OUT_DIR || join(here, 'out');
  const resultsFile = process.env.BENCH_RESULTS || join(here, 'RESULTS.md');
  if (!globalThis.gc) process.stderr.write('bench: note: run with --expose-gc for a collected heap before each case\n');

  const cases: Case[] = [
    { label: 'dice-race standard (reference)', scale: 10, game: diceRace, pack: diceRacePack, scenario: 'standard', seats: { A: 'random', B: 'random' } },
    { label: 'blitz A, random vs random', scale: 1, game: blitz, pack: blitzPack(), scenario: 'A', seats: { Axis: 'random', Allies: 'random' } },
    // Every implemented scenario, so each has its games/s, decisions/s and memory on record.
    { label: 'blitz B, random vs random', scale: 1, game: blitz, pack: blitzPack(), scenario: 'B', seats: { Axis: 'random', Allies: 'random' } },
    { label: 'blitz C, random vs random', scale: 1, game: blitz, pack: blitzPack(), scenario: 'C', seats: { Axis: 'random', Allies: 'random' } },
    // D games are ten times longer than A's (three powers, Turns 3-12): half as many.
    { label: 'blitz D, random vs random', scale: 0.5, game: blitz, pack: blitzPack(), scenario: 'D', seats: { Axis: 'random', Allies: 'random' } },
    { label: 'blitz E, random vs random', scale: 0.5, game: blitz, pack: blitzPack(), scenario: 'E', seats: { Axis: 'random', Allies: 'random' } },
    // F is the longest (four powers, Turns 1-15): a quarter as many.
    { label: 'blitz F, random vs random', scale: 0.25, game: blitz, pack: blitzPack(), scenario: 'F', seats: { Axis: 'random', Allies: 'random' } },
    // The full game (five powers on the whole world, Turns 1-15): a tenth as many.
    { label: 'blitz full game, random vs random', scale: 0.1, game: blitz, pack: blitzPack(), scenario: 'full', seats: { Axis: 'random', Allies: 'random' } },
  ];
  // Rounds alternate between the cases, so a burst of load from elsewhere on the machine hits both
  // and the per-round ratio stays meaningful; rates are medians over rounds.
  const tallies = cases.map((c) => new Tally(c));
  for (const t of tallies) for (let i = 0; i < Math.min(20, Math.ceil((games * t.c.scale) / 10)); i++) await play(t.c, 1_000_000_000 + i);
  const ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    process.stderr.write(`bench: round ${r + 1}/${rounds}\n`);
    for (const t of tallies) {
      globalThis.gc?.();
      const per = Math.ceil((games * t.c.scale) / rounds);
      await t.round(firstSeed + r * per, per);
    }
    const [ref, main] = [tallies[0] as Tally, tallies[1] as Tally];
    ratios.push((main.rounds[r]?.decisionsPerSec ?? 0) / (ref.rounds[r]?.decisionsPerSec ?? 1));
  }
  const figures = tallies.map((t) => t.figures());
  const ratio = median(ratios);

  const cpu = cpus()[0]?.model.trim().replace(/\s+/g, ' ') ?? 'unknown CPU';
  const meta = {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    cpu,
    nproc: availableParallelism(),
    memGB: Math.round(totalmem() / 2 ** 30),
    games,
    rounds,
    firstSeed,
  };
  const block = markdown(meta, figures, ratio);
  process.stdout.write(block + '\n');

  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'latest.json'), JSON.stringify({ ...meta, cases: figures, decisionsPerSecRatioToReference: ratio }, null, 2) + '\n');
  if (resultsFile !== 'none') updateResults(resultsFile, block, `${meta.date}|${meta.node}|${meta.cpu}`);
  process.stderr.write(`bench: wrote ${join(outDir, 'latest.json')}${resultsFile !== 'none' ? ` and ${resultsFile}` : ''}\n`);
  const failed = figures.reduce((n, f) => n + (f.kinds.error ?? 0), 0);
  if (failed > 0) {
    process.stderr.write(`bench: ${failed} game(s) ended in an error; the figures include them, fix the game first.\n`);
    process.exitCode = 1;
  }
}

await main();
