/**
 * Evidence of the search bot's strength: the gauntlet of examples/tournaments/blitz-strength.yaml (MCTS
 * against random and against greedy on Blitz! A and B, side-swapped pairs, 200 games per pairing per
 * scenario) played by the local tournament pool, then reported as
 * - MCTS's score against each opponent (wins, draws as half) with a 95% Wilson interval on the win
 *   rate, overall, per scenario and per side it played, against the issue's targets (≥ 90% of games
 *   against random, ≥ 60% against greedy);
 * - Bradley–Terry strengths with a side term per scenario (packages/stats), which separate how strong
 *   a bot is from how much its side was favoured: both Blitz scenarios are far from even in this pack;
 * - the run's games/s and decisions/s. The search's own rate (iterations/s inside `decide`) is measured
 *   one thread at a time by `npm run bench:mcts`, which plays the same MCTS parameters.
 *
 *   npm run bench:strength                      # the full gauntlet (800 games; about 25 min on 2 cores)
 *   BENCH_GAMES=20 npm run bench:strength       # 20 games per pairing per scenario, a quick look
 *
 * Environment: BENCH_GAMES (games per pairing per scenario, even; default the spec's 200), BENCH_THREADS
 * (default: all cores), BENCH_SPEC (default examples/tournaments/blitz-strength.yaml), BENCH_RESULTS
 * (markdown file to update, default bench/RESULTS.md; `none` to skip).
 */
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';
import { loadTournamentSpec, planTournament, type MatchOutcome, type TournamentSpec } from '@salient/scheduler';
import { runLocalTournament } from '@salient/scheduler/local';
import { bradleyTerry, eloDifference, wilson, type RatedMatch } from '@salient/stats';
import { envInt, machine, updateResultsBlock } from './support.ts';

const here = dirname(fileURLToPath(import.meta.url));
const TARGETS: Record<string, number> = { random: 0.9, greedy: 0.6 };

interface Tally {
  games: number;
  wins: number;
  draws: number;
  /** Games not decided by play (errors, cancels): counted as games, never as wins. */
  undecided: number;
}

const empty = (): Tally => ({ games: 0, wins: 0, draws: 0, undecided: 0 });
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function add(t: Tally, result: string | undefined): void {
  t.games++;
  if (result === 'win') t.wins++;
  else if (result === 'draw') t.draws++;
  else if (result === undefined) t.undecided++;
}

function cells(t: Tally): string {
  const i = wilson(t.wins, t.games);
  const score = (t.wins + t.draws / 2) / Math.max(1, t.games);
  return `${t.games} | ${t.wins} (${pct(t.wins / Math.max(1, t.games))}) | ${pct(i.low)}–${pct(i.high)} | ${pct(score)}`;
}

async function main(): Promise<void> {
  const specPath = process.env.BENCH_SPEC || join(here, '..', 'examples', 'tournaments', 'blitz-strength.yaml');
  const loaded = await loadTournamentSpec(specPath);
  const games = envInt('BENCH_GAMES', loaded.gamesPerPairing);
  // The spec's seeds, cut to what BENCH_GAMES asks for (each seed is played twice, sides exchanged).
  const seeds = Array.from({ length: games / 2 }, (_, i) => (loaded.seeds[0] ?? 1) + i);
  const spec: TournamentSpec = { ...loaded, id: `${loaded.id}-bench-${games}`, gamesPerPairing: games, seeds };
  const plan = await planTournament(spec);
  const threads = envInt('BENCH_THREADS', availableParallelism());
  const reference = spec.reference ?? spec.entrants[0]!.name;
  const searchSpec = spec.entrants.find((e) => e.name === reference)!;
  process.stderr.write(`${plan.matches.length} matches on ${threads} threads (${specPath})\n`);

  const started = performance.now();
  let lastLine = 0;
  const result = await runLocalTournament({
    plan,
    threads,
    onProgress: (p) => {
      const now = performance.now();
      if (now - lastLine < 15_000 && p.done < p.total) return;
      lastLine = now;
      const s = (now - started) / 1000;
      process.stderr.write(`  ${p.done}/${p.total} matches, ${s.toFixed(0)} s, about ${p.done ? (((p.total - p.done) * s) / p.done).toFixed(0) : '?'} s to go\n`);
    },
  });
  const wallS = (performance.now() - started) / 1000;

  // Tallies of the reference bot: by opponent; by opponent and scenario; by opponent, scenario and its side.
  const tallies = new Map<string, Tally>();
  const tally = (key: string) => tallies.get(key) ?? (tallies.set(key, empty()), tallies.get(key)!);
  const rated: RatedMatch[] = [];
  const kinds: Record<string, number> = {};
  let decisions = 0;
  for (const o of result.outcomes) {
    kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
    decisions += o.decisions;
    const side = Object.keys(o.entrants).find((x) => o.entrants[x] === reference);
    const opponent = Object.values(o.entrants).find((x) => x !== reference);
    if (!side || !opponent) continue;
    const res = decidedResult(o, side);
    add(tally(opponent), res);
    add(tally(`${opponent}|${o.scenario}`), res);
    add(tally(`${opponent}|${o.scenario}|${side}`), res);
    if (res !== undefined) {
      rated.push({ scenario: `${spec.game}/${o.scenario}`, sides: Object.entries(o.entrants).map(([s, bot]) => ({ side: s, bot, result: o.sides[s] as 'win' | 'loss' | 'draw' })) });
    }
  }
  const fit = bradleyTerry(rated);
  const opponents = spec.entrants.map((e) => e.name).filter((n) => n !== reference);
  const sidesOf = (scenario: string) => [...new Set(plan.matches.filter((m) => m.scenario === scenario).flatMap((m) => Object.keys(m.entrants)))].sort();

  const m = machine();
  const lines = [
    `<!-- bench-strength:${m.date}|${m.node}|${m.cpu} -->`,
    `### Search bot strength · ${m.date} · Node ${m.node} · ${m.cpu} (nproc ${m.nproc}, ${m.memGB} GB)`,
    '',
    `\`${reference}\` = \`${searchSpec.bot}\` in the gauntlet of \`${relative(join(here, '..'), specPath)}\` ` +
      `(${games} games per pairing per scenario: ${games / 2} seed${games === 2 ? '' : 's'}, each played twice with the sides exchanged), ` +
      `${plan.matches.length} matches on ${threads} threads in ${wallS.toFixed(0)} s (${(plan.matches.length / wallS).toFixed(2)} games/s, ` +
      `${(decisions / wallS).toFixed(0)} decisions/s of both seats; the search's iterations/s are in the MCTS block). Endings: ` +
      `${Object.entries(kinds)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}. Wins of \`${reference}\` with a 95% Wilson interval; score counts a draw as half.`,
    '',
    `| ${reference} against | scenario | side | games | wins | 95% interval | score | target |`,
    '|---|---|---|---:|---:|---|---:|---|',
  ];
  for (const opp of opponents) {
    const target = TARGETS[opp];
    const all = tally(opp);
    const met = target === undefined ? '' : `≥ ${pct(target)}: ${all.wins / Math.max(1, all.games) >= target ? '**met**' : '**not met**'}`;
    lines.push(`| ${opp} | A and B | both | ${cells(all)} | ${met} |`);
    for (const sc of spec.scenarios) {
      lines.push(`| ${opp} | ${sc} | both | ${cells(tally(`${opp}|${sc}`))} | |`);
      for (const side of sidesOf(sc)) lines.push(`| ${opp} | ${sc} | ${side} | ${cells(tally(`${opp}|${sc}|${side}`))} | |`);
    }
  }
  lines.push(
    '',
    `Bradley–Terry strengths over these ${rated.length} decided games (Elo scale, relative to the average of the ${fit.bots.length} bots; a side term per scenario, Firth's penalty):`,
    '',
    '| bot | Elo | 95% interval | games |',
    '|---|---:|---|---:|',
    ...fit.bots.map((b) => `| ${b.bot} | ${signed(b.elo)} | ${signed(b.interval.low)} to ${signed(b.interval.high)} | ${b.games} |`),
    '',
    '| difference | Elo | 95% interval |',
    '|---|---:|---|',
    ...opponents.map((opp) => {
      const d = eloDifference(fit, reference, opp);
      return `| ${reference} − ${opp} | ${signed(d.elo)} | ${signed(d.interval.low)} to ${signed(d.interval.high)} |`;
    }),
    '',
    '| scenario | side | wins between equal bots | 95% interval |',
    '|---|---|---:|---|',
    ...fit.sides.map((s) => `| ${s.scenario.slice(spec.game.length + 1)} | ${s.side} | ${pct(s.winProbabilityEven)} | ${pct(s.winProbabilityInterval.low)}–${pct(s.winProbabilityInterval.high)} |`),
    `<!-- bench-strength:end -->`,
  );
  const block = lines.join('\n');
  process.stdout.write(block + '\n');
  const file = process.env.BENCH_RESULTS || join(here, 'RESULTS.md');
  if (file !== 'none') updateResultsBlock(file, 'bench-strength', `${m.date}|${m.node}|${m.cpu}`, block, '# Benchmark results\n');
}

/** `win`, `loss` or `draw` for `side` when the game was decided by play or adjudication; undefined otherwise. */
function decidedResult(o: MatchOutcome, side: string): string | undefined {
  const r = o.sides[side];
  return r === 'win' || r === 'loss' || r === 'draw' ? r : undefined;
}

function signed(x: number): string {
  const t = x.toFixed(0);
  return t === '0' || t === '-0' ? '0' : x > 0 ? `+${t}` : t;
}

await main();
