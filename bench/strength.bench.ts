/**
 * Evidence of the bots' strength (issue 31, part 3): the ladder of examples/tournaments/blitz-ladder.yaml
 * (Blitz! A, B and D) and examples/tournaments/ea-ladder.yaml (Empires & Alliances 1918), side-swapped
 * pairs on shared seeds, played by the local tournament pool into an embedded telemetry store, then
 * reported as
 * - Bradley–Terry strengths over every scenario at once with a side term per scenario (packages/stats),
 *   which separate how strong a bot is from how much its side was favoured (A and B are far from even
 *   in this pack), each bot and each difference with a 95% interval, overall and per scenario, and the
 *   issue's target: the planner at least 200 Elo above MCTS at equal time per decision, interval above 0;
 * - each bot's attack and defence win rates with 95% Wilson intervals. The attacker is the side that
 *   has to take ground to win: in A the Axis (Germany must hold Paris and Poland), in B the Allies (they
 *   must conquer Germany by Turn 11), in D the Axis (Barbarossa: Germany invades the USSR, first to 15 VP,
 *   and its VP come from what it takes) and in E&A 1918 the Central Powers (their VP count the Allied
 *   places German infantry occupies at the end, 3.71/3.72: the German spring offensives);
 * - how often each bot playing Germany in A takes Paris: the game's own record, each A game's stored
 *   replay re-run without its bots (milliseconds a game) and Paris's controller read after every step,
 *   so a Paris taken and lost again counts, which the final position or result would hide;
 * - equal time per decision: before the ladder, a calibration plays the two bots of `BENCH_EQUAL`
 *   (default `mcts,plan`) against each other on each scenario, one game at a time in this thread,
 *   measures each one's mean ms per decision (every decision it is asked, single options included), and
 *   sets the first one's `iterations` for that scenario so its time matches the second's: a first pass
 *   at the spec's iterations, then passes at counts fitted to those before (a power law through two
 *   points, see `proposal`), the chosen count fitted after the last (deterministic iterations, not an
 *   `ms` cap, so every game replays from its seed). Calibration counts CPU time (see `timed`): this
 *   machine is shared, and wall time per decision moved by a factor of several between runs under
 *   other work. The ladder's own games then say what each bot spent per decision (the runner's think
 *   time per seat, wall time, from the store);
 * - the run's games/s and decisions/s, and each bot's decisions per second of its own think time. The
 *   search rates inside `decide` (MCTS's iterations/s, the planner's evaluations/s) are measured one
 *   thread at a time by `npm run bench:mcts`.
 *
 * Pairings: adjacent rungs, random–greedy, greedy–mcts, mcts–plan, plus plan–greedy, rather than all six.
 * Bradley–Terry only needs the graph of pairings to be connected; the chain puts every bot on one scale,
 * the extra plan–greedy edge closes a cycle (greedy–mcts–plan) so the figure the issue asks for, plan −
 * mcts, rests on the direct games and on an indirect path through greedy. The pairings left out are
 * random against a search bot: it loses nearly every game there whichever side it has (the earlier
 * gauntlet: MCTS won all 200 it defended against random), so they say little about the ratings, and each
 * costs as much as a search bot's game on one side; the budget goes to the pairings near the top.
 *
 *   npm run bench:strength                                # the full ladder: 200 games per pairing per scenario (hours on 2 cores)
 *   BENCH_GAMES=10 npm run bench:strength                 # 10 games per pairing per scenario, a quick look
 *   BENCH_SCENARIOS=A,B BENCH_GAMES=20 npm run bench:strength
 *
 * Environment: BENCH_GAMES (games per pairing per scenario, even: one number, or one per scenario as
 * `A:40,B:40,D:4,1918:4`; default each spec's), BENCH_THREADS
 * (default: all cores), BENCH_SPECS (comma-separated spec files, default the two ladder specs; one game
 * each, several specs may share entrant names), BENCH_SCENARIOS (comma-separated scenario ids to keep),
 * BENCH_EQUAL (`tuned,target`: entrant names; default `mcts,plan`; calibration is skipped where a spec
 * lacks either), BENCH_ITERATIONS (`A:600,1918:40`: the tuned bot's iterations per scenario, skipping
 * its calibration there), BENCH_CALIBRATION (seeds per calibration pass, each played from both sides;
 * default 1), BENCH_CALIBRATION_PASSES (default 3), BENCH_CALIBRATION_CAP (decisions a calibration game may last; default 600: A and B whole,
 * the first part of D and 1918), BENCH_STORE (directory of the embedded store, kept, so a run stopped
 * part way resumes: the same specs and iterations give the same match ids whatever BENCH_GAMES, so a
 * run with fewer games finds them in the store and one with more adds to them; default a temporary
 * one, removed), BENCH_RESULTS (markdown file to update, default bench/RESULTS.md; `none` to skip).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runReplay, type AnyGame, type LoadedPack } from '@salient/engine';
import { createBot, parseBotSpec } from '@salient/bots';
import { findScenario } from '@salient/catalog';
import { runMatch, type Bot, type BotFactory } from '@salient/runner';
import { loadTournamentSpec, planTournament, resolveGamePack, type MatchOutcome, type TournamentPlan, type TournamentSpec } from '@salient/scheduler';
import { runLocalTournament } from '@salient/scheduler/local';
import { openTelemetry, tournamentMatchReplays, type Telemetry } from '@salient/telemetry';
import { bradleyTerry, eloDifference, wilson, type BradleyTerryResult, type RatedMatch } from '@salient/stats';
import { envInt, machine, updateResultsBlock } from './support.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/** The side that has to take ground to win, per `game/scenario` (see the file comment). */
const ATTACKER: Readonly<Record<string, string>> = { 'blitz/A': 'Axis', 'blitz/B': 'Allies', 'blitz/D': 'Axis', 'empires-alliances/1918': 'CP' };
/** The issue's target for the tuned bot's rival over it, in Elo. */
const TARGET_ELO = 200;
/** Seeds of the calibration games, far from the ladder's, so the iterations are not fitted to its games. */
const CALIBRATION_SEED = 1_000_001;

/** One scenario of one spec, as the ladder plays it. */
interface Leg {
  spec: TournamentSpec;
  specPath: string;
  scenario: string;
  /** `game/scenario`, the Bradley–Terry scenario key. */
  key: string;
  game: AnyGame;
  pack: LoadedPack;
  /** Side ids in the scenario's order, and the powers of each. */
  sides: readonly [string, string];
  powersOf: ReadonlyMap<string, string>;
  plan?: TournamentPlan;
  calibration?: Calibration;
}

interface Timing {
  ms: number;
  decisions: number;
}

interface Calibration {
  /** Iterations of the tuned bot before and after, and the passes measured. */
  from: number;
  chosen: number;
  /** ms per decision of the tuned bot at each pass's iterations, and of the target over all passes. */
  passes: { iterations: number; ms: number; decisions: number }[];
  target: Timing;
  games: number;
  /** Given by BENCH_ITERATIONS instead of measured. */
  given: boolean;
}

interface Tally {
  games: number;
  wins: number;
  draws: number;
}

const perDecision = (t: Timing) => t.ms / Math.max(1, t.decisions);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const list = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);

async function main(): Promise<void> {
  const specPaths = list(process.env.BENCH_SPECS).length
    ? list(process.env.BENCH_SPECS)
    : [join(root, 'examples', 'tournaments', 'blitz-ladder.yaml'), join(root, 'examples', 'tournaments', 'ea-ladder.yaml')];
  const onlyScenarios = new Set(list(process.env.BENCH_SCENARIOS));
  const [tunedName = 'mcts', targetName = 'plan'] = list(process.env.BENCH_EQUAL || 'mcts,plan');
  const givenIterations = new Map(
    list(process.env.BENCH_ITERATIONS).map((x) => {
      const [sc, n] = x.split(':');
      const v = Number(n);
      if (!sc || !Number.isSafeInteger(v) || v < 1) throw new Error(`BENCH_ITERATIONS: '${x}' is not scenario:iterations (such as A:600)`);
      return [sc, v] as const;
    }),
  );
  const calibrationSeeds = envInt('BENCH_CALIBRATION', 1);
  const calibrationCap = envInt('BENCH_CALIBRATION_CAP', 600);
  const calibrationPasses = envInt('BENCH_CALIBRATION_PASSES', 3);
  const threads = envInt('BENCH_THREADS', availableParallelism());

  // Every scenario of every spec, with the games the run asks for.
  const legs: Leg[] = [];
  const gamesFor = gamesPerScenario(process.env.BENCH_GAMES);
  for (const specPath of specPaths) {
    const loaded = await loadTournamentSpec(specPath);
    const { game, pack } = await resolveGamePack(loaded.game, loaded.pack);
    for (const scenario of loaded.scenarios) {
      if (onlyScenarios.size && !onlyScenarios.has(scenario)) continue;
      const games = gamesFor(scenario) ?? loaded.gamesPerPairing;
      const seeds = Array.from({ length: games / 2 }, (_, i) => (loaded.seeds[0] ?? 1) + i);
      const info = findScenario(game, pack, scenario);
      const sides = info.sides.map((s) => s.id) as [string, string];
      const powersOf = new Map(info.sides.flatMap((s) => s.powers.map((p) => [p, s.id] as const)));
      const spec: TournamentSpec = { ...loaded, id: `${loaded.id}-${scenario}`, scenarios: [scenario], gamesPerPairing: games, seeds };
      legs.push({ spec, specPath, scenario, key: `${loaded.game}/${scenario}`, game, pack, sides, powersOf });
    }
  }
  if (!legs.length) throw new Error(`no scenario left: BENCH_SCENARIOS=${[...onlyScenarios].join(',')} names none of the specs' scenarios`);

  // Calibration, then the plans with the tuned bot's iterations per scenario.
  for (const leg of legs) {
    const tuned = leg.spec.entrants.find((e) => e.name === tunedName);
    const target = leg.spec.entrants.find((e) => e.name === targetName);
    if (tuned && target) {
      leg.calibration = await calibrate(leg, tuned.bot, target.bot, givenIterations.get(leg.scenario), calibrationSeeds, calibrationCap, calibrationPasses);
      const bot = withIterations(tuned.bot, leg.calibration.chosen);
      leg.spec = { ...leg.spec, id: `${leg.spec.id}-i${leg.calibration.chosen}`, entrants: leg.spec.entrants.map((e) => (e === tuned ? { ...e, bot } : e)) };
    }
    leg.plan = await planTournament(leg.spec);
  }

  const total = legs.reduce((n, l) => n + l.plan!.matches.length, 0);
  const keep = process.env.BENCH_STORE;
  const dir = keep || mkdtempSync(join(tmpdir(), 'salient-bench-strength-'));
  const t = await openTelemetry({ kind: 'embedded', path: join(dir, 'clickhouse'), spoolDir: join(dir, 'spool') });
  process.stderr.write(`${total} matches on ${threads} threads (${legs.map((l) => `${l.key}: ${l.plan!.matches.length}`).join(', ')}); store ${dir}\n`);
  const started = performance.now();
  const outcomes: MatchOutcome[] = [];
  const stored = new Map<string, StoredMatch>();
  let played = 0;
  try {
    let before = 0;
    for (const leg of legs) {
      let lastLine = 0;
      const result = await runLocalTournament({
        plan: leg.plan!,
        threads,
        telemetry: t,
        onProgress: (p) => {
          const now = performance.now();
          if (now - lastLine < 15_000 && p.done < p.total) return;
          lastLine = now;
          const s = (now - started) / 1000;
          const done = before + p.done;
          // Time to go at this run's rate so far (matches found in the store take none).
          const rate = (played + p.played) / s;
          process.stderr.write(`  ${leg.key}: ${p.done}/${p.total}; all ${done}/${total} matches, ${s.toFixed(0)} s, about ${rate > 0 ? ((total - done) / rate).toFixed(0) : '?'} s to go\n`);
        },
      });
      before += leg.plan!.matches.length;
      played += result.played;
      outcomes.push(...result.outcomes);
      for (const [id, m] of await storedMatches(t, leg)) stored.set(id, m);
    }
  } finally {
    await t.close();
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
  const wallS = (performance.now() - started) / 1000;
  const block = report({ legs, outcomes, stored, threads, wallS, played, tunedName, targetName, specPaths });
  process.stdout.write(block + '\n');
  const file = process.env.BENCH_RESULTS || join(here, 'RESULTS.md');
  const m = machine();
  if (file !== 'none') updateResultsBlock(file, 'bench-strength', `${m.date}|${m.node}|${m.cpu}`, block, '# Benchmark results\n');
}

/**
 * BENCH_GAMES as a function of the scenario: one even number for every scenario (`20`), or a number per
 * scenario (`A:40,B:40,D:4,1918:4`; a scenario not named plays its spec's games).
 */
function gamesPerScenario(v: string | undefined): (scenario: string) => number | undefined {
  const check = (n: number, what: string) => {
    if (!Number.isSafeInteger(n) || n < 2 || n % 2) throw new Error(`BENCH_GAMES: ${what} must be an even whole number of at least 2 (each seed is played from both sides)`);
    return n;
  };
  if (v === undefined || v.trim() === '') return () => undefined;
  if (!v.includes(':')) {
    const n = check(Number(v), `'${v}'`);
    return () => n;
  }
  const by = new Map(
    list(v).map((x) => {
      const [sc = '', n = ''] = x.split(':');
      return [sc, check(Number(n), `'${x}'`)] as const;
    }),
  );
  return (scenario) => by.get(scenario);
}

/** `spec` with its `iterations` parameter set to `n` (parameters sorted by key, as specs normalize them). */
function withIterations(spec: string, n: number): string {
  const { name, params } = parseBotSpec(spec);
  const merged: Record<string, string> = { ...params, iterations: String(n) };
  return `${name}:${Object.keys(merged)
    .sort()
    .map((k) => `${k}=${merged[k]}`)
    .join(',')}`;
}

/**
 * A bot factory whose bots add their CPU time in `decide` and their decisions to `t`. CPU time, not
 * wall time: on a shared machine a decision's wall time grows with whatever else runs, and the two
 * bots would be compared under different loads; the process's CPU time (this thread plays alone
 * during calibration) counts only the bot's own work.
 */
function timed(spec: string, t: Timing): BotFactory {
  const make = createBot(spec);
  return (ctx) => {
    const bot = make(ctx);
    const out: Bot = {
      name: bot.name,
      version: bot.version,
      decide: async (request, signal) => {
        const s = process.cpuUsage();
        try {
          return await bot.decide(request, signal);
        } finally {
          const d = process.cpuUsage(s);
          t.ms += (d.user + d.system) / 1000;
          t.decisions++;
        }
      },
    };
    if (bot.start) out.start = (signal) => bot.start!(signal);
    if (bot.idle) out.idle = (signal) => bot.idle!(signal);
    if (bot.close) out.close = (ending) => bot.close!(ending);
    return out;
  };
}

/**
 * The tuned bot's iterations on `leg`'s scenario for the target's time per decision (see the file
 * comment): each of up to `passCount` passes plays `seeds` seeds from both sides, the two bots against
 * each other, one game at a time in this thread; each pass's iterations come from those before it
 * ({@link proposal}), and so does the count chosen after the last.
 */
async function calibrate(leg: Leg, tuned: string, target: string, given: number | undefined, seeds: number, cap: number, passCount: number): Promise<Calibration> {
  const from = Number(parseBotSpec(tuned).params.iterations ?? 200);
  if (given !== undefined) return { from, chosen: given, passes: [], target: { ms: 0, decisions: 0 }, games: 0, given: true };
  const targetTime: Timing = { ms: 0, decisions: 0 };
  const passes: Calibration['passes'] = [];
  let gamesPlayed = 0;
  const pass = async (iterations: number): Promise<number> => {
    const mine: Timing = { ms: 0, decisions: 0 };
    for (let i = 0; i < seeds; i++) {
      for (const swap of [false, true]) {
        const [a, b] = swap ? [leg.sides[1], leg.sides[0]] : leg.sides;
        await runMatch({
          game: leg.game,
          pack: leg.pack,
          scenario: leg.scenario,
          seed: CALIBRATION_SEED + i,
          seats: { [a]: timed(withIterations(tuned, iterations), mine), [b]: timed(target, targetTime) },
          decisionCap: cap,
        });
        gamesPlayed++;
      }
    }
    passes.push({ iterations, ...mine });
    process.stderr.write(`  calibration ${leg.key}: ${tuned.split(':')[0]} at ${iterations} iterations ${perDecision(mine).toFixed(2)} ms a decision, ${target} ${perDecision(targetTime).toFixed(2)}\n`);
    return perDecision(mine);
  };
  const clamp = (n: number) => Math.min(1_000_000, Math.max(1, Math.round(n)));
  // One game first, not counted: the first pass would otherwise pay for compiling the bots' and the
  // game's code (it measured twice the CPU per decision of a later pass at the same iterations).
  await runMatch({
    game: leg.game,
    pack: leg.pack,
    scenario: leg.scenario,
    seed: CALIBRATION_SEED - 1,
    seats: { [leg.sides[0]]: createBot(tuned), [leg.sides[1]]: createBot(target) },
    decisionCap: cap,
  });
  let next = from;
  for (let k = 0; k < passCount; k++) {
    if (passes.some((p) => p.iterations === next)) break;
    await pass(next);
    next = proposal(passes, perDecision(targetTime), clamp);
  }
  return { from, chosen: next, passes, target: targetTime, games: gamesPlayed, given: false };
}

/**
 * The iterations whose time per decision should be `target`, from the passes so far. Time per decision
 * grows faster than the iterations (a bigger tree is deeper, and each iteration then applies more
 * steps: in one calibration on Blitz! A, 300 iterations cost MCTS 19 times the CPU of 46, not 6.5), so the curve is
 * taken as a power law, t = a × iterations^k, through two measured points: the nearest on either side
 * of the target when the passes bracket it, else the last two; after one pass, proportional.
 */
function proposal(passes: readonly { iterations: number; ms: number; decisions: number }[], target: number, clamp: (n: number) => number): number {
  const pts = passes.map((p) => ({ i: p.iterations, t: perDecision(p) })).filter((p) => p.t > 0);
  const last = pts[pts.length - 1];
  if (!last) return passes[passes.length - 1]?.iterations ?? 1;
  const below = pts.filter((p) => p.t <= target).sort((a, b) => b.t - a.t)[0];
  const above = pts.filter((p) => p.t > target).sort((a, b) => a.t - b.t)[0];
  const [p, q] = below && above ? [below, above] : pts.length >= 2 ? [pts[pts.length - 2]!, last] : [last, last];
  const k = p.i !== q.i ? Math.log(q.t / p.t) / Math.log(q.i / p.i) : 1;
  const exponent = Number.isFinite(k) && k > 0.2 ? k : 1;
  // From the point nearer the target, at most a factor of 8 away from it.
  const near = Math.abs(Math.log(p.t / target)) < Math.abs(Math.log(q.t / target)) ? p : q;
  return clamp(near.i * Math.min(8, Math.max(1 / 8, (target / near.t) ** (1 / exponent))));
}

/** What the store holds of a match beyond its outcome: think time and decisions per side, and Paris in A. */
interface StoredMatch {
  thinkMs: Record<string, number>;
  decisions: Record<string, number>;
  /** Blitz! A: whether the Axis held Paris after any step. */
  axisTookParis?: boolean;
}

/** Think time and decisions per side of every match of `leg`, and in Blitz! A whether Germany took Paris. */
async function storedMatches(t: Telemetry, leg: Leg): Promise<Map<string, StoredMatch>> {
  const out = new Map<string, StoredMatch>();
  const tid = leg.plan!.tournamentId;
  const select = t.select ?? (async <T>(query: string) => (await (await t.client.query({ query, format: 'JSONEachRow' })).json()) as T[]);
  const rows = await select<{ match_id: string; seats: string[]; think_ms: number[] }>(
    `SELECT match_id, seats, think_ms FROM ${t.database}.matches FINAL WHERE tournament = '${tid}'`,
  );
  const think = new Map(rows.map((r) => [r.match_id, Object.fromEntries(r.seats.map((s, i) => [s, Number(r.think_ms[i] ?? 0)]))]));
  const parisKey = leg.key === 'blitz/A';
  let after: string | undefined;
  for (;;) {
    const page = await tournamentMatchReplays(t, tid, { ...(after !== undefined ? { after } : {}), limit: 200 });
    if (!page.length) break;
    for (const { match, replay } of page) {
      after = match.matchId;
      const decisions: Record<string, number> = {};
      for (const e of replay.log) {
        const side = leg.powersOf.get(e.by);
        if (side !== undefined) decisions[side] = (decisions[side] ?? 0) + 1;
      }
      const m: StoredMatch = { thinkMs: think.get(match.matchId) ?? {}, decisions };
      if (parisKey && match.kind !== 'cancelled' && match.kind !== 'error') {
        let took = false;
        // Re-run without bots: the log's choices applied in order, Paris's controller read after each.
        runReplay<{ control: Record<string, string> }>(leg.game, leg.pack, replay, (_e, _i, _before, step) => {
          if (step.state.control.paris === 'GER') took = true;
        });
        m.axisTookParis = took;
      }
      out.set(match.matchId, m);
    }
  }
  return out;
}

interface ReportInput {
  legs: Leg[];
  outcomes: MatchOutcome[];
  stored: Map<string, StoredMatch>;
  threads: number;
  wallS: number;
  played: number;
  tunedName: string;
  targetName: string;
  specPaths: string[];
}

function report(r: ReportInput): string {
  const { legs, outcomes, stored, tunedName, targetName } = r;
  const legOf = new Map(legs.map((l) => [l.plan!.tournamentId, l]));
  const rated: RatedMatch[] = [];
  const ratedBy = new Map<string, RatedMatch[]>();
  const kinds: Record<string, number> = {};
  const tallies = new Map<string, Tally>();
  const tally = (k: string) => tallies.get(k) ?? (tallies.set(k, { games: 0, wins: 0, draws: 0 }), tallies.get(k)!);
  const times = new Map<string, Timing>();
  const time = (k: string) => times.get(k) ?? (times.set(k, { ms: 0, decisions: 0 }), times.get(k)!);
  const paris = new Map<string, { games: number; took: number; won: number }>();
  let decisions = 0;
  for (const o of outcomes) {
    const leg = legOf.get(o.tournamentId)!;
    kinds[o.kind] = (kinds[o.kind] ?? 0) + 1;
    decisions += o.decisions;
    const s = stored.get(o.matchId);
    for (const [side, bot] of Object.entries(o.entrants)) {
      if (s) {
        for (const k of [`${bot}|${leg.key}`, `${bot}|all`]) {
          time(k).ms += s.thinkMs[side] ?? 0;
          time(k).decisions += s.decisions[side] ?? 0;
        }
      }
      const res = o.sides[side];
      if (res !== 'win' && res !== 'loss' && res !== 'draw') continue;
      const role = ATTACKER[leg.key] === side ? 'attack' : 'defence';
      for (const k of [`${bot}|${role}|${leg.key}`, `${bot}|${role}|all`]) {
        const x = tally(k);
        x.games++;
        if (res === 'win') x.wins++;
        if (res === 'draw') x.draws++;
      }
      if (leg.key === 'blitz/A' && side === 'Axis' && s?.axisTookParis !== undefined) {
        const p = paris.get(bot) ?? (paris.set(bot, { games: 0, took: 0, won: 0 }), paris.get(bot)!);
        p.games++;
        if (s.axisTookParis) p.took++;
        if (res === 'win') p.won++;
      }
    }
    const sides = Object.entries(o.entrants).map(([side, bot]) => ({ side, bot, result: o.sides[side] }));
    if (sides.every((x) => x.result === 'win' || x.result === 'loss' || x.result === 'draw')) {
      const m = { scenario: leg.key, sides: sides as RatedMatch['sides'] };
      rated.push(m);
      (ratedBy.get(leg.key) ?? (ratedBy.set(leg.key, []), ratedBy.get(leg.key)!)).push(m);
    }
  }

  const bots = [...new Set(legs.flatMap((l) => l.spec.entrants.map((e) => e.name)))];
  const pairings = [...new Set(legs.flatMap((l) => (l.spec.pairings ?? []).map(([a, b]) => `${a}|${b}`)))].map((p) => p.split('|') as [string, string]);
  const fit = rated.length ? bradleyTerry(rated) : undefined;
  const fits = new Map<string, BradleyTerryResult>();
  for (const [k, ms] of ratedBy) fits.set(k, bradleyTerry(ms));
  const keys = legs.map((l) => l.key);
  const short = (k: string) => (k.startsWith('blitz/') ? k.slice(6) : k === 'empires-alliances/1918' ? 'E&A 1918' : k);

  const m = machine();
  const lines = [
    `<!-- bench-strength:${m.date}|${m.node}|${m.cpu} -->`,
    `### Bot strength ladder · ${m.date} · Node ${m.node} · ${m.cpu} (nproc ${m.nproc}, ${m.memGB} GB)`,
    '',
    `The ladder of ${r.specPaths.map((p) => `\`${relative(root, p)}\``).join(' and ')} on ${keys.map(short).join(', ')}: ` +
      `${gamesText(legs.map((l) => [short(l.key), l.spec.gamesPerPairing]))} games per pairing per scenario (each seed played twice with the sides exchanged), pairings ` +
      `${pairings.map(([a, b]) => `${a}–${b}`).join(', ')}; ${outcomes.length} matches ` +
      (r.played === outcomes.length
        ? `on ${r.threads} threads in ${r.wallS.toFixed(0)} s (${(outcomes.length / r.wallS).toFixed(2)} games/s, ${(decisions / r.wallS).toFixed(0)} decisions/s of both seats, store writes included). `
        : `(${r.played} played in this run on ${r.threads} threads in ${r.wallS.toFixed(0)} s, the others found in BENCH_STORE: no games/s for a resumed run). `) +
      `Endings: ` +
      `${Object.entries(kinds)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}. Bots: ${bots.map((b) => `\`${b}\` = ${[...new Set(legs.flatMap((l) => l.spec.entrants.filter((e) => e.name === b).map((e) => `\`${e.bot}\`${legs.length > 1 ? ` (${legs.filter((x) => x.spec.entrants.some((y) => y.name === b && y.bot === e.bot)).map((x) => short(x.key)).join(', ')})` : ''}`)))].join(', ')}`).join('; ')}.`,
  ];

  // Equal time per decision.
  const calibrated = legs.filter((l) => l.calibration);
  lines.push('');
  if (!calibrated.length) {
    lines.push(`No calibration: no spec has both \`${tunedName}\` and \`${targetName}\` (BENCH_EQUAL); ${tunedName} plays the spec's iterations.`);
  } else {
    lines.push(
      `Equal time per decision: \`${tunedName}\`'s iterations per scenario set so its mean ms per decision matches \`${targetName}\`'s, measured in CPU ms in calibration games ` +
        `of the two against each other (seeds from ${CALIBRATION_SEED}, both sides, one game at a time in the main thread, at most ${envInt('BENCH_CALIBRATION_CAP', 600)} decisions a game); ` +
        `then what each spent per decision in the ladder's own games (the runner's think time per seat, wall ms, over the decisions it was asked, two games at a time on a shared machine).`,
      '',
      `| scenario | calibration games | ${targetName} CPU ms/decision | ${tunedName} passes (iterations: CPU ms/decision) | ${tunedName} iterations chosen | ladder: ${targetName} wall ms/decision | ladder: ${tunedName} wall ms/decision |`,
      '|---|---:|---:|---|---:|---:|---:|',
    );
    for (const l of calibrated) {
      const c = l.calibration!;
      const ladder = (b: string) => {
        const x = time(`${b}|${l.key}`);
        return x.decisions ? perDecision(x).toFixed(2) : '–';
      };
      lines.push(
        `| ${short(l.key)} | ${c.given ? 'given (BENCH_ITERATIONS)' : c.games} | ${c.given ? '–' : perDecision(c.target).toFixed(2)} | ${c.passes.map((p) => `${p.iterations}: ${perDecision(p).toFixed(2)}`).join('; ') || '–'} | ${c.chosen} | ${ladder(targetName)} | ${ladder(tunedName)} |`,
      );
    }
  }

  // Ratings.
  if (fit) {
    lines.push(
      '',
      `Bradley–Terry strengths over the ${rated.length} decided games, every scenario at once with a side term per scenario (Elo scale, relative to the average of the ${fit.bots.length} bots; Firth's penalty; 95% intervals), and per scenario:`,
      '',
      `| bot | all: Elo | 95% interval | games | ${keys.map((k) => `${short(k)}: Elo (95% interval)`).join(' | ')} |`,
      `|---|---:|---|---:|${keys.map(() => '---|').join('')}`,
      ...fit.bots.map((b) => {
        const per = keys.map((k) => {
          const x = fits.get(k)?.bots.find((y) => y.bot === b.bot);
          return x ? `${signed(x.elo)} (${signed(x.interval.low)} to ${signed(x.interval.high)})` : '–';
        });
        return `| ${b.bot} | ${signed(b.elo)} | ${signed(b.interval.low)} to ${signed(b.interval.high)} | ${b.games} | ${per.join(' | ')} |`;
      }),
      '',
      `| difference | all: Elo | 95% interval | ${keys.map((k) => `${short(k)}: Elo (95% interval)`).join(' | ')} |`,
      `|---|---:|---|${keys.map(() => '---|').join('')}`,
    );
    // Each pairing as the later entrant minus the earlier (the ladder's rungs upward); the target pair first, as target − tuned.
    const diffs: [string, string][] = pairings.map(([a, b]) => [b, a]).filter(([a, b]) => !(new Set([a, b]).has(tunedName) && new Set([a, b]).has(targetName))) as [string, string][];
    if (bots.includes(tunedName) && bots.includes(targetName)) diffs.unshift([targetName, tunedName]);
    for (const [a, b] of diffs) {
      const d = tryDiff(fit, a, b);
      if (!d) continue;
      const per = keys.map((k) => {
        const x = fits.get(k) && tryDiff(fits.get(k)!, a, b);
        return x ? `${signed(x.elo)} (${signed(x.interval.low)} to ${signed(x.interval.high)})` : '–';
      });
      lines.push(`| ${a} − ${b} | ${signed(d.elo)} | ${signed(d.interval.low)} to ${signed(d.interval.high)} | ${per.join(' | ')} |`);
    }
    const target = tryDiff(fit, targetName, tunedName);
    lines.push(
      '',
      target
        ? `Target (issue 31): ${targetName} − ${tunedName} ≥ +${TARGET_ELO} Elo at equal time per decision, interval above 0: ${signed(target.elo)} (${signed(target.interval.low)} to ${signed(target.interval.high)}), ` +
            `**${target.elo >= TARGET_ELO && target.interval.low > 0 ? 'met' : 'not met'}**.`
        : `Target (issue 31): ${targetName} − ${tunedName} ≥ +${TARGET_ELO} Elo: not measured (\`${targetName}\` ${bots.includes(targetName) ? 'has no decided games' : 'is not an entrant of these specs'}).`,
      '',
      '| scenario | side | wins between equal bots | 95% interval |',
      '|---|---|---:|---|',
      ...fit.sides.map((s) => `| ${short(s.scenario)} | ${s.side}${ATTACKER[s.scenario] === s.side ? ' (attacks)' : ''} | ${pct(s.winProbabilityEven)} | ${pct(s.winProbabilityInterval.low)}–${pct(s.winProbabilityInterval.high)} |`),
    );
  }

  // Attack and defence.
  lines.push(
    '',
    `Each bot's wins attacking and defending (attacker: ${keys.map((k) => `${short(k)} ${ATTACKER[k] ?? '?'}`).join(', ')}), decided games, 95% Wilson interval on the win rate; a draw counts half in the score:`,
    '',
    `| bot | scenario | attack: games | wins | 95% interval | score | defence: games | wins | 95% interval | score |`,
    '|---|---|---:|---:|---|---:|---:|---:|---|---:|',
  );
  const cells = (t: Tally) => {
    if (!t.games) return '0 | – | – | –';
    const i = wilson(t.wins, t.games);
    return `${t.games} | ${t.wins} (${pct(t.wins / t.games)}) | ${pct(i.low)}–${pct(i.high)} | ${pct((t.wins + t.draws / 2) / t.games)}`;
  };
  for (const b of bots) {
    for (const k of [...(keys.length > 1 ? ['all'] : []), ...keys]) {
      const a = tally(`${b}|attack|${k}`);
      const d = tally(`${b}|defence|${k}`);
      if (!a.games && !d.games) continue;
      lines.push(`| ${b} | ${k === 'all' ? 'all' : short(k)} | ${cells(a)} | ${cells(d)} |`);
    }
  }

  // Paris.
  if (keys.includes('blitz/A')) {
    lines.push(
      '',
      `Germany in A: how often each bot took Paris (held it after any step of the game: each stored replay re-run without its bots), and won (Paris and Poland held at once):`,
      '',
      '| bot as Germany | games | took Paris | 95% interval | won |',
      '|---|---:|---:|---|---:|',
      ...bots.flatMap((b) => {
        const p = paris.get(b);
        if (!p) return [];
        const i = wilson(p.took, p.games);
        return [`| ${b} | ${p.games} | ${p.took} (${pct(p.took / p.games)}) | ${pct(i.low)}–${pct(i.high)} | ${p.won} (${pct(p.won / p.games)}) |`];
      }),
    );
  }

  // Time.
  lines.push(
    '',
    `Each bot's time in the ladder's games (the runner's think time per seat; two games at a time, store writes beside them), ms per decision and decisions per second of its own time; the search rates inside \`decide\` (MCTS's iterations/s, the planner's evaluations/s) are in the MCTS block (\`npm run bench:mcts\`, one thread):`,
    '',
    `| bot | ${[...(keys.length > 1 ? ['all'] : []), ...keys].map((k) => `${k === 'all' ? 'all' : short(k)}: ms/decision (decisions/s)`).join(' | ')} |`,
    `|---|${[...(keys.length > 1 ? ['all'] : []), ...keys].map(() => '---:|').join('')}`,
    ...bots.map((b) => {
      const per = [...(keys.length > 1 ? ['all'] : []), ...keys].map((k) => {
        const x = time(`${b}|${k}`);
        return x.decisions ? `${perDecision(x).toFixed(2)} (${x.ms > 0 ? ((1000 * x.decisions) / x.ms).toFixed(0) : '∞'})` : '–';
      });
      return `| ${b} | ${per.join(' | ')} |`;
    }),
    `<!-- bench-strength:end -->`,
  );
  return lines.join('\n');
}

/** `20`, or `40 on A and B, 4 on D and E&A 1918` when the scenarios differ. */
function gamesText(per: [string, number][]): string {
  const counts = [...new Set(per.map(([, n]) => n))];
  if (counts.length === 1) return String(counts[0]);
  return counts.map((n) => `${n} on ${per.filter(([, m]) => m === n).map(([k]) => k).join(', ')}`).join('; ');
}

function tryDiff(fit: BradleyTerryResult, a: string, b: string): ReturnType<typeof eloDifference> | undefined {
  return fit.bots.some((x) => x.bot === a) && fit.bots.some((x) => x.bot === b) ? eloDifference(fit, a, b) : undefined;
}

function signed(x: number): string {
  const t = x.toFixed(0);
  return t === '0' || t === '-0' ? '0' : x > 0 ? `+${t}` : t;
}

await main();
