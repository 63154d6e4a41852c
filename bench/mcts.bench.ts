/**
 * The MCTS bot: how fast it searches (iterations/s and decisions/s inside its own `decide`) and how it
 * fares against the random bot, on Dice Race (the reference), Blitz! A and B from each seat, and the
 * full game with both sides searching; and the planner (`plan`, default budget) on Blitz! A from each
 * seat, its evaluations/s in the iterations column (an evaluation is one plan played through an impulse
 * and the reply, so the rates of the two bots are not comparable unit for unit: compare ms a decision).
 *
 *   npm run bench:mcts                  # 20 seeds per Blitz case, 1 full game
 *   BENCH_GAMES=5 npm run bench:mcts    # quicker
 *
 * Environment: BENCH_GAMES (Blitz seeds per case, default 20; Dice Race plays 5 times as many side-swapped
 * pairs), BENCH_FULL (full games, default 1), BENCH_RESULTS (markdown file to update, default
 * bench/RESULTS.md; `none` to skip). Win counts come with a 95% Wilson interval. These are small
 * samples for a first look; a bot's strength is settled by tournaments of side-swapped pairs.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnyGame, LoadedPack } from '@salient/engine';
import { diceRace, diceRacePack } from '@salient/engine/testing';
import { blitz } from '@salient/game-blitz';
import { runMatch, type BotFactory } from '@salient/runner';
import { createBot, parseBotSpec, planStats } from '@salient/bots';
import { wilson } from '@salient/stats';
import { blitzPack, envInt, machine, updateResultsBlock } from './support.ts';

const here = dirname(fileURLToPath(import.meta.url));

interface Case {
  label: string;
  game: AnyGame;
  pack: LoadedPack;
  scenario: string;
  /** Seat -> bot spec; the seats named in `searching` are the searching bots measured (mcts or plan). */
  seats: Record<string, string>;
  searching: string[];
  /** The seats whose wins are counted (the searching ones against random). */
  counted: string[];
  seeds: number;
}

interface Row {
  label: string;
  games: number;
  wins: number;
  searched: number;
  iterations: number;
  searchMs: number;
  wallMs: number;
  endings: Record<string, number>;
}

/**
 * A factory whose bots time their `decide` and count the decisions that were searched (more than one
 * option) and the work done: mcts's iterations (its budget, spent in full), or the evaluations the
 * planner reports it spent (`planStats`: a whole impulse's budget when it starts, none while a plan is followed).
 */
function timed(spec: string, row: Row): BotFactory {
  const inner = createBot(spec);
  const iterations = Number(parseBotSpec(spec).params.iterations ?? 200);
  return (ctx) => {
    const bot = inner(ctx);
    const stats = planStats(bot);
    return {
      name: bot.name,
      version: bot.version,
      decide(request, signal) {
        const before = stats?.evaluations ?? 0;
        const t0 = performance.now();
        const answer = bot.decide(request, signal);
        row.searchMs += performance.now() - t0;
        if (stats) row.iterations += stats.evaluations - before;
        if (request.options.length > 1) {
          row.searched++;
          if (!stats) row.iterations += iterations;
        }
        return answer;
      },
    };
  };
}

async function run(c: Case): Promise<Row> {
  const row: Row = { label: c.label, games: 0, wins: 0, searched: 0, iterations: 0, searchMs: 0, wallMs: 0, endings: {} };
  const t0 = performance.now();
  for (let seed = 1; seed <= c.seeds; seed++) {
    const seats = Object.fromEntries(Object.entries(c.seats).map(([seat, spec]) => [seat, c.searching.includes(seat) ? timed(spec, row) : createBot(spec)]));
    const r = await runMatch({ game: c.game, pack: c.pack, scenario: c.scenario, seed, seats, seatSpecs: c.seats, decisionTimeoutMs: 3_600_000 });
    row.games++;
    row.endings[r.kind] = (row.endings[r.kind] ?? 0) + 1;
    if (r.kind === 'completed' && c.counted.some((seat) => r.result.sides[seat] === 'win')) row.wins++;
  }
  row.wallMs = performance.now() - t0;
  process.stderr.write(`${c.label}: ${row.wins}/${row.games} wins, ${Math.round(row.wallMs / 1000)} s\n`);
  return row;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const fmt = (x: number) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toFixed(1));

async function main(): Promise<void> {
  const games = envInt('BENCH_GAMES', 20);
  const fullGames = envInt('BENCH_FULL', 1);
  const pack = blitzPack();
  const mcts = 'mcts:iterations=100';
  // The parameters of the strength gauntlet (examples/tournaments/blitz-strength.yaml), so its rates are these.
  const blitzMcts = 'mcts:iterations=300,rollout=0';
  const fullSpec = 'mcts:iterations=8,rollout=4';
  const planSpec = 'plan';
  const cases: Case[] = [
    ...(['A', 'B'] as const).flatMap((side) => [
      {
        label: `Dice Race, ${mcts} as ${side} vs random`,
        game: diceRace,
        pack: diceRacePack,
        scenario: 'standard',
        seats: side === 'A' ? { A: mcts, B: 'random' } : { A: 'random', B: mcts },
        searching: [side],
        counted: [side],
        seeds: games * 5,
      },
    ]),
    ...(['A', 'B'] as const).flatMap((scenario) =>
      (['Axis', 'Allies'] as const).map((side) => ({
        label: `Blitz ${scenario}, ${blitzMcts} as ${side} vs random`,
        game: blitz,
        pack,
        scenario,
        seats: side === 'Axis' ? { Axis: blitzMcts, Allies: 'random' } : { Axis: 'random', Allies: blitzMcts },
        searching: [side],
        counted: [side],
        seeds: games,
      })),
    ),
    // The planner at its default budget, where the issue asks for it: Germany must plan Paris in A.
    ...(['Axis', 'Allies'] as const).map((side) => ({
      label: `Blitz A, ${planSpec} as ${side} vs random`,
      game: blitz,
      pack,
      scenario: 'A',
      seats: side === 'Axis' ? { Axis: planSpec, Allies: 'random' } : { Axis: 'random', Allies: planSpec },
      searching: [side],
      counted: [side],
      seeds: games,
    })),
    {
      label: `Blitz full game, ${fullSpec} on both sides`,
      game: blitz,
      pack,
      scenario: 'full',
      seats: { Axis: fullSpec, Allies: fullSpec },
      searching: ['Axis', 'Allies'],
      counted: ['Axis'],
      seeds: fullGames,
    },
  ];
  const rows: Row[] = [];
  for (const c of cases) rows.push(await run(c));

  const m = machine();
  const lines = [
    `<!-- bench-mcts:${m.date}|${m.node}|${m.cpu} -->`,
    `### MCTS bot · ${m.date} · Node ${m.node} · ${m.cpu} (nproc ${m.nproc}, ${m.memGB} GB)`,
    '',
    'Seeds from 1, one thread. Search rates count only decisions with more than one option (a single option is answered at once); ' +
      'iterations/s is iterations (for plan: evaluations, one plan played through its impulse and the reply) over the time spent in the bot; ' +
      'ms a searched decision is that time over those decisions (the planner spends its budget when an impulse starts and follows the plan after). Wins of the searching seat against random, with a 95% Wilson interval ' +
      '(the full-game row counts Axis wins, both sides searching).',
    '',
    '| case | games | wins | 95% interval | searched decisions/s | iterations/s (plan: evaluations/s) | ms a searched decision | wall s | endings |',
    '|---|---:|---:|---|---:|---:|---:|---:|---|',
    ...rows.map((r) => {
      const { low: lo, high: hi } = wilson(r.wins, r.games);
      const s = r.searchMs / 1000;
      return `| ${r.label} | ${r.games} | ${r.wins} (${pct(r.wins / r.games)}) | ${pct(lo)}–${pct(hi)} | ${fmt(r.searched / s)} | ${fmt(r.iterations / s)} | ${fmt(r.searchMs / r.searched)} | ${fmt(r.wallMs / 1000)} | ${Object.entries(r.endings)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')} |`;
    }),
    `<!-- bench-mcts:end -->`,
  ];
  const block = lines.join('\n');
  process.stdout.write(block + '\n');
  const file = process.env.BENCH_RESULTS || join(here, 'RESULTS.md');
  if (file !== 'none') updateResultsBlock(file, 'bench-mcts', `${m.date}|${m.node}|${m.cpu}`, block, '# Benchmark results\n');
}

await main();
