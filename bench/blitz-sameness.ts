/**
 * Sameness check for speed work on Blitz!: prints, per scenario and seed, hashes of everything a game
 * produces, so the output of two versions of the code can be compared with `diff`.
 *
 * - `runner`: a random-vs-random match through `runMatch` with an in-memory sink: the replay (log and
 *   final hash), every impulse, event and decision row (timings left out: they are the clock's, not
 *   the game's), and the option labels of every decision as the bot saw them.
 * - `loop`: the bare loop (`pending` + `applyOwned`) from the same seed, its own LCG picking: every
 *   option list in order, every event and boundary, the final state hash.
 * - `apply`: the same loop through `apply` (the copying path MCTS uses), hashing the state before and
 *   after each step (apply must not change its input), every power's `observe`, `position`, and on
 *   every 7th step `model.evaluate` for every power, `summarize` and `adjudicate`.
 * - `greedy`: greedy against random from each side (greedy reads `model.evaluate` for every option).
 *
 *   node --import tsx bench/blitz-sameness.ts > /tmp/after.txt     # then diff against the same from before
 *
 * Environment: BENCH_SAMENESS_SEEDS (A and B, default 12; the other scenarios play a sixth as many, the
 * full game a twelfth, at least one), BENCH_SAMENESS_GREEDY (greedy seeds of A and B, default 2),
 * BENCH_SAMENESS_SCENARIOS (comma-separated, default A,B,C,D,E,F,full), BENCH_SEED (default 1).
 */
import { createBot } from '@salient/bots';
import { canonicalJson, hashJson, hashString, type AnyGame, type Json } from '@salient/engine';
import { blitz } from '@salient/game-blitz';
import { InMemorySink, runMatch } from '@salient/runner';
import { blitzPack, envInt } from './support.ts';
import { labelled, strip } from './sameness-support.ts';

const pack = blitzPack();
const game = blitz as unknown as AnyGame;

const lcg = (x: number) => (Math.imul(x, 1103515245) + 12345) >>> 0;

/** The bare loop through `applyOwned` (`owned`) or `apply`, picking with an LCG from `seed`. */
function loop(scenario: string, seed: number, owned: boolean, powers: string[]): string {
  let s = game.setup(scenario, pack);
  let x = seed;
  const trace: string[] = [];
  let steps = 0;
  for (;;) {
    const q = game.pending(s);
    if (q.kind === 'terminal') {
      trace.push(canonicalJson(q.result));
      break;
    }
    x = lcg(x);
    let c: unknown;
    if (q.kind === 'decision') {
      trace.push(q.power, q.prompt, q.options.map((o) => game.encode(o)).join(','));
      c = q.options[(x >>> 16) % q.options.length];
    } else {
      trace.push(q.prompt, q.stream, q.outcomes.map((o) => `${game.encode(o.outcome)}=${o.p}`).join(','));
      c = q.outcomes[(x >>> 16) % q.outcomes.length]!.outcome;
    }
    let step;
    if (owned) step = game.applyOwned!(s, c);
    else {
      const before = hashJson(s);
      step = game.apply(s, c);
      if (hashJson(s) !== before) trace.push('MUTATED');
      const n = step.state;
      trace.push(hashJson(n), canonicalJson(game.position(n)));
      for (const pw of powers) trace.push(hashJson(game.observe(n, pw) as Json));
      if (steps % 7 === 0) {
        for (const pw of powers) trace.push(String(game.model!.evaluate(n, pw)));
        trace.push(canonicalJson(game.summarize?.(n) ?? null));
        if (game.pending(n).kind !== 'terminal') trace.push(canonicalJson(game.adjudicate(n)));
      }
    }
    trace.push(JSON.stringify(step.events), step.boundary ?? '');
    s = step.state;
    steps++;
  }
  return `${owned ? 'loop ' : 'apply'} ${scenario} seed ${seed}: steps ${steps} final ${hashJson(s)} trace ${hashString(trace.join('\n'))}`;
}

const seedsAB = envInt('BENCH_SAMENESS_SEEDS', 12);
const greedySeeds = envInt('BENCH_SAMENESS_GREEDY', 2);
const seed0 = envInt('BENCH_SEED', 1);
const scenarios = (process.env.BENCH_SAMENESS_SCENARIOS || 'A,B,C,D,E,F,full').split(',');
const infos = game.scenarios(pack);

for (const scenario of scenarios) {
  const seeds = scenario === 'A' || scenario === 'B' ? seedsAB : Math.max(1, Math.round(seedsAB / (scenario === 'full' ? 12 : 6)));
  const sides = infos.find((i) => i.id === scenario)!.sides;
  const powers = sides.flatMap((sd) => sd.powers);
  for (let seed = seed0; seed < seed0 + seeds; seed++) {
    const labels: string[] = [];
    const sink = new InMemorySink();
    const seats = Object.fromEntries(sides.map((sd) => [sd.id, labelled(labels)]));
    const seatSpecs = Object.fromEntries(sides.map((sd) => [sd.id, 'random']));
    const r = await runMatch({ game, pack, scenario, seed, seats, seatSpecs, sink });
    const rows = canonicalJson({
      impulses: sink.impulses.map((x) => strip(x, ['thinkMsBySeat'])),
      events: sink.events,
      decisions: sink.decisions.map((x) => strip(x, ['thinkMs'])),
      matches: sink.matches.map((m) => ({ ...m, result: { ...m.result, wallMs: 0, thinkMsBySeat: {} }, startedAt: 0, endedAt: 0 })),
    });
    console.log(`runner ${scenario} seed ${seed}: ${r.kind} decisions ${r.decisions} draws ${r.chanceDraws} impulses ${r.impulses} final ${r.finalHash} log ${hashJson(r.replay.log as never)} rows ${hashString(rows)} labels ${hashString(labels.join('\n'))}`);
    console.log(loop(scenario, seed, true, powers));
    // The copying path is slow (a hash per observe): the first seeds only.
    if (seed < seed0 + Math.max(1, seeds >> 2)) console.log(loop(scenario, seed, false, powers));
  }
  if (scenario !== 'A' && scenario !== 'B') continue;
  for (let seed = seed0; seed < seed0 + greedySeeds; seed++) {
    for (const side of sides) {
      const other = sides.find((sd) => sd !== side)!;
      const r = await runMatch({
        game,
        pack,
        scenario,
        seed,
        seats: { [side.id]: createBot('greedy'), [other.id]: createBot('random') },
        seatSpecs: { [side.id]: 'greedy', [other.id]: 'random' },
        decisionTimeoutMs: 600_000,
      });
      const winner = r.kind === 'completed' ? Object.entries(r.result.sides).find(([, v]) => v === 'win')?.[0] : r.kind;
      console.log(`greedy ${scenario} ${side.id} seed ${seed}: ${r.kind} winner ${winner} decisions ${r.decisions} final ${r.finalHash} log ${hashJson(r.replay.log as never)}`);
    }
  }
}
