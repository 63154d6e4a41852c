/**
 * Sameness check for speed work on Empires & Alliances and the runner: prints, per seed, hashes of
 * everything a game produces, so the output of two versions of the code can be compared with `diff`.
 *
 * - `runner`: a random-vs-random match through `runMatch` with an in-memory sink: the replay (log and
 *   final hash), every impulse, event and decision row (timings left out: they are the clock's, not
 *   the game's), and the option labels of every decision as the bot saw them.
 * - `loop`: the bare loop (`pending` + `applyOwned`) from the same seed, its own LCG picking: every
 *   option list in order, every event, the final state hash.
 * - `greedy`: greedy against random from each side on the first seed(s) (BENCH_SAMENESS_GREEDY, default 1;
 *   0 skips): the replay log and final hash (greedy reads `model.evaluate` for every option).
 *
 *   node --import tsx bench/ea-sameness.ts > /tmp/after.txt     # then diff against the same from main
 *
 * Environment: BENCH_SAMENESS_SEEDS (default 12), BENCH_SEED (default 1).
 */
import { createBot } from '@salient/bots';
import { canonicalJson, hashJson, hashString, SalientError } from '@salient/engine';
import { empiresAlliances } from '@salient/game-empires-alliances';
import { InMemorySink, runMatch } from '@salient/runner';
import { envInt } from './support.ts';
import { labelled, strip } from './sameness-support.ts';

const r0 = empiresAlliances.checkPack(empiresAlliances.bundledPacks.approximation);
if (!r0.ok) throw new SalientError('BAD_PACK', 'the bundled E&A pack fails its schema', r0.issues);
const pack = r0.pack;

const seeds = envInt('BENCH_SAMENESS_SEEDS', 12);
const seed0 = envInt('BENCH_SEED', 1);
for (let seed = seed0; seed < seed0 + seeds; seed++) {
  const labels: string[] = [];
  const sink = new InMemorySink();
  const r = await runMatch({ game: empiresAlliances, pack, scenario: '1918', seed, seats: { CP: labelled(labels), AL: labelled(labels) }, seatSpecs: { CP: 'random', AL: 'random' }, sink });
  const rows = canonicalJson({
    impulses: sink.impulses.map((x) => strip(x, ['thinkMsBySeat'])),
    events: sink.events,
    decisions: sink.decisions.map((x) => strip(x, ['thinkMs'])),
    matches: sink.matches.map((m) => ({ ...m, result: { ...m.result, wallMs: 0, thinkMsBySeat: {} }, startedAt: 0, endedAt: 0 })),
  });
  const runner = `runner seed ${seed}: ${r.kind} decisions ${r.decisions} draws ${r.chanceDraws} impulses ${r.impulses} final ${r.finalHash} log ${hashJson(r.replay.log as never)} rows ${hashString(rows)} labels ${hashString(labels.join('\n'))}`;

  // The bare loop.
  let s = empiresAlliances.setup('1918', pack);
  let x = seed;
  const trace: string[] = [];
  let steps = 0;
  for (;;) {
    const q = empiresAlliances.pending(s);
    if (q.kind === 'terminal') break;
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    let c: string;
    if (q.kind === 'decision') {
      trace.push(q.power, q.prompt, q.options.join(','));
      c = q.options[(x >>> 16) % q.options.length]!;
    } else {
      trace.push(q.prompt, String(q.outcomes.length));
      c = q.outcomes[(x >>> 16) % q.outcomes.length]!.outcome;
    }
    const step = empiresAlliances.applyOwned!(s, c);
    trace.push(JSON.stringify(step.events), step.boundary ?? '');
    s = step.state;
    steps++;
  }
  console.log(runner);
  console.log(`loop   seed ${seed}: steps ${steps} final ${hashJson(s as never)} trace ${hashString(trace.join('\n'))}`);
}

const greedySeeds = envInt('BENCH_SAMENESS_GREEDY', 1);
for (let seed = seed0; seed < seed0 + greedySeeds; seed++) {
  for (const side of ['CP', 'AL'] as const) {
    const seats = side === 'CP' ? { CP: createBot('greedy'), AL: createBot('random') } : { CP: createBot('random'), AL: createBot('greedy') };
    const r = await runMatch({ game: empiresAlliances, pack, scenario: '1918', seed, seats, seatSpecs: side === 'CP' ? { CP: 'greedy', AL: 'random' } : { CP: 'random', AL: 'greedy' }, decisionTimeoutMs: 600_000 });
    const winner = r.kind === 'completed' ? Object.entries(r.result.sides).find(([, v]) => v === 'win')?.[0] : r.kind;
    console.log(`greedy ${side} seed ${seed}: ${r.kind} winner ${winner} decisions ${r.decisions} final ${r.finalHash} log ${hashJson(r.replay.log as never)}`);
  }
}
