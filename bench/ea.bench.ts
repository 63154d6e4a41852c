/**
 * Throughput of one core for Empires & Alliances, Scenario 3 (1918), on the bundled approximation pack
 * (its map of about 3,700 hexes): random bots on both seats through `runMatch` (single thread, no
 * telemetry sink), and the bare game loop (`pending` + `applyOwned`, no runner) for the cost of the rules
 * alone; then greedy against random, once from each side, for the cost of a greedy decision (its one-ply
 * lookahead on `model.evaluate`). Reports decisions/s (wall clock, and per CPU second of the main
 * thread, which a loaded machine distorts less; `process.cpuUsage`, every thread, off Linux), games/s, the state's size and peak memory (issue 28 §6:
 * ≥ 30,000 decisions/s, a random game under a second; greedy ≤ 0.5 ms a decision).
 *
 *   npm run bench:ea                   # 50 games per case
 *   BENCH_GAMES=10 npm run bench:ea    # quicker
 *
 * Environment: BENCH_GAMES (default 50), BENCH_GREEDY_GAMES (default 1 per side; 0 skips greedy),
 * BENCH_SEED (default 1), BENCH_RESULTS (default bench/RESULTS.md; `none` to skip).
 */
import { loadavg } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBot } from '@salient/bots';
import { RngStreams, SalientError } from '@salient/engine';
import { empiresAlliances } from '@salient/game-empires-alliances';
import { runMatch } from '@salient/runner';
import { envInt, machine, threadCpuClock, threadCpuMs, updateResultsBlock } from './support.ts';

const here = dirname(fileURLToPath(import.meta.url));

function pack() {
  const r = empiresAlliances.checkPack(empiresAlliances.bundledPacks.approximation);
  if (!r.ok) throw new SalientError('BAD_PACK', 'the bundled E&A pack fails its schema', r.issues);
  return r.pack;
}

/** Games of each path played before measuring. */
const WARM_UP = 6;

const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

async function main(): Promise<void> {
  const games = envInt('BENCH_GAMES', 50);
  const seed0 = envInt('BENCH_SEED', 1);
  const p = pack();
  const loadBefore = loadavg()[0]!;
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  // Warm-up of both paths (the JIT keeps optimising the rules for several games; warming only the
  // runner would hand the bare loop, measured second, code the runner's games had to warm).
  for (let i = 0; i < WARM_UP; i++) await runMatch({ game: empiresAlliances, pack: p, scenario: '1918', seed: 10_000 + i, seats: { CP: createBot('random'), AL: createBot('random') }, seatSpecs: { CP: 'random', AL: 'random' } });
  for (let i = 0; i < WARM_UP; i++) {
    let s = empiresAlliances.setup('1918', p);
    let y = 10_000 + i;
    for (;;) {
      const q = empiresAlliances.pending(s);
      if (q.kind === 'terminal') break;
      y = (Math.imul(y, 1103515245) + 12345) >>> 0;
      const c = q.kind === 'decision' ? q.options[(y >>> 16) % q.options.length]! : q.outcomes[(y >>> 16) % q.outcomes.length]!.outcome;
      s = empiresAlliances.applyOwned!(s, c).state;
    }
  }

  // CPU time of the main thread (the rules and the runner), where Linux gives it: V8's GC helper
  // threads, which `process.cpuUsage` counts too, are left out (see `cpuClock` in the output).
  const cpuClock = threadCpuClock();
  const cpuMs = (since: number) => threadCpuMs() - since;
  // Through the runner.
  let decisions = 0;
  let c0 = threadCpuMs();
  let t0 = performance.now();
  for (let i = 0; i < games; i++) {
    const r = await runMatch({ game: empiresAlliances, pack: p, scenario: '1918', seed: seed0 + i, seats: { CP: createBot('random'), AL: createBot('random') }, seatSpecs: { CP: 'random', AL: 'random' } });
    decisions += r.decisions;
    sample();
  }
  const runnerMs = performance.now() - t0;
  const runnerCpu = cpuMs(c0);

  // The bare loop, playing the same games: chance from the runner's streams, each side's pick as the
  // random bot makes it from its seat's stream (seats are named after the powers here).
  let loopDecisions = 0;
  let stateBytes = 0;
  c0 = threadCpuMs();
  t0 = performance.now();
  for (let i = 0; i < games; i++) {
    const streams = new RngStreams(seed0 + i);
    let s = empiresAlliances.setup('1918', p);
    if (i === 0) stateBytes = JSON.stringify(s).length;
    for (;;) {
      const q = empiresAlliances.pending(s);
      if (q.kind === 'terminal') break;
      let c: string;
      if (q.kind === 'chance') c = streams.get(q.stream).sample(q.outcomes);
      else {
        loopDecisions++;
        c = q.options[streams.get(`bot:${q.power}`).int(0, q.options.length - 1)]!;
      }
      s = empiresAlliances.applyOwned!(s, c).state;
    }
    sample();
  }
  const loopMs = performance.now() - t0;
  const loopCpu = cpuMs(c0);

  // Greedy against random, from each side: the greedy seat's decisions and the CPU its `decide` used.
  const greedyGames = process.env.BENCH_GREEDY_GAMES === '0' ? 0 : envInt('BENCH_GREEDY_GAMES', 1);
  let greedyDecisions = 0;
  let greedyCpu = 0;
  let greedyThink = 0;
  const timed = (factory: ReturnType<typeof createBot>): ReturnType<typeof createBot> => (ctx) => {
    const bot = factory(ctx);
    const decide = bot.decide.bind(bot);
    return {
      ...bot,
      decide: (request, signal) => {
        const c = threadCpuMs();
        const answer = decide(request, signal);
        greedyCpu += cpuMs(c);
        return answer;
      },
    };
  };
  for (let i = 0; i < greedyGames; i++) {
    for (const side of ['CP', 'AL'] as const) {
      const seats = side === 'CP' ? { CP: timed(createBot('greedy')), AL: createBot('random') } : { CP: createBot('random'), AL: timed(createBot('greedy')) };
      const r = await runMatch({ game: empiresAlliances, pack: p, scenario: '1918', seed: seed0 + i, seats, seatSpecs: side === 'CP' ? { CP: 'greedy', AL: 'random' } : { CP: 'random', AL: 'greedy' }, decisionTimeoutMs: 600_000 });
      greedyDecisions += r.replay.log.filter((e) => e.by === side).length;
      greedyThink += r.thinkMsBySeat[side] ?? 0;
      sample();
    }
  }

  const m = machine();
  const load = `load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end on ${m.nproc} cores`;
  const rate = (n: number, ms: number) => Math.round((n / ms) * 1000).toLocaleString('en-US');
  const rows = [
    `| runner, random vs random | ${games} | ${rate(decisions, runnerMs)} | ${rate(decisions, runnerCpu)} | ${((games / runnerMs) * 1000).toFixed(2)} | ${(runnerMs / games).toFixed(0)} | ${Math.round(decisions / games)} |`,
    `| bare loop (pending + applyOwned) | ${games} | ${rate(loopDecisions, loopMs)} | ${rate(loopDecisions, loopCpu)} | ${((games / loopMs) * 1000).toFixed(2)} | ${(loopMs / games).toFixed(0)} | ${Math.round(loopDecisions / games)} |`,
    ...(greedyGames > 0
      ? [`| greedy seat vs random (one game a side), its decisions only | ${2 * greedyGames} | ${rate(greedyDecisions, greedyThink)} | ${rate(greedyDecisions, greedyCpu)} (${(greedyCpu / greedyDecisions).toFixed(2)} ms each) | | | ${Math.round(greedyDecisions / (2 * greedyGames))} |`]
      : []),
  ];
  const key = `${m.date}|${m.node}|${m.cpu.split(' ').slice(0, 2).join(' ')}`;
  const block = [
    `<!-- bench-ea:${key} -->`,
    `### Empires & Alliances 1918 · ${m.date} · Node ${m.node} · ${m.cpu} (nproc ${m.nproc}, ${m.memGB} GB)`,
    '',
    `Scenario 3 on the bundled approximation pack (rules ${empiresAlliances.rulesVersion}), random bots on both seats, seeds from ${seed0}, one thread, after a ${WARM_UP}-game warm-up of each path. State at set-up: ${stateBytes.toLocaleString('en-US')} bytes of JSON. Peak RSS ${mb(peakRss)} MB, peak heapUsed ${mb(peakHeap)} MB. Machine ${load} (figures taken under load understate the rules' speed; compare on a quiet machine). CPU time: ${cpuClock}. The bare loop plays the same games as the runner (same seeds and streams: ${loopDecisions === decisions ? 'same decision count' : `decision counts differ: ${loopDecisions} vs ${decisions}`}); runner over bare loop: ${(decisions / runnerCpu / (loopDecisions / loopCpu)).toFixed(2)} per CPU second.`,
    '',
    '| case | games | decisions/s | decisions/CPU-s | games/s | ms/game | decisions/game |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    `<!-- bench-ea:end -->`,
  ].join('\n');
  console.log(block);
  const out = process.env.BENCH_RESULTS ?? join(here, 'RESULTS.md');
  if (out !== 'none') updateResultsBlock(out, 'bench-ea', key, block, '# Benchmark results\n\n');
}

await main();
