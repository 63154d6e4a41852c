/**
 * Evidence of the bots' strength (issue 31, part 3): the ladder of examples/tournaments/blitz-ladder.yaml
 * (Blitz! A and B), blitz-ladder-d.yaml (D) and ea-ladder.yaml (Empires & Alliances 1918, the planner at its
 * default budget; ea-ladder-small.yaml is the first 1918 ladder, at a tenth of it), side-swapped
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
 * (default: all cores), BENCH_SPECS (comma-separated spec files, default the three ladder specs; one game
 * each, several specs may share entrant names), BENCH_SCENARIOS (comma-separated scenario ids to keep),
 * BENCH_EQUAL (`tuned,target`: entrant names; default `mcts,plan`; calibration is skipped where a spec
 * lacks either), BENCH_ITERATIONS (`A:600,1918:40`: the tuned bot's iterations per scenario, skipping
 * its calibration there), BENCH_CALIBRATION (seeds per calibration pass, each played from both sides;
 * default 1), BENCH_CALIBRATION_PASSES (default 3), BENCH_CALIBRATION_CAP (decisions a calibration game may last; default 600: A and B whole,
 * the first part of D and 1918), BENCH_STORE (directory of the embedded store, kept, so a run stopped
 * part way resumes: the same specs and iterations give the same match ids whatever BENCH_GAMES, so a
 * run with fewer games finds them in the store and one with more adds to them; default a temporary
 * one, removed), BENCH_RESULTS (markdown file to update, default bench/RESULTS.md; `none` to skip),
 * BENCH_LEDGER (the ledger of matches played and calibrations, default bench/data/strength-ledger.jsonl;
 * `none` for none: see strength-ledger.ts), BENCH_LEDGER_FLUSH_S (how often a leg's finished matches
 * are appended to it while the leg runs, default 300 s; the rest when the leg ends).
 *
 * The ledger makes the ladder a piece of work many runs share, on any machines: a run plays only the
 * matches the ledger lacks and appends them, and a scenario calibrated once keeps its iterations (they
 * are part of the match ids). Commit the ledger after a run. To calibrate a scenario again, give its
 * iterations (BENCH_ITERATIONS) or start another ledger file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runReplay, type AnyGame, type LoadedPack } from '@salient/engine';
import { createBot, parseBotSpec } from '@salient/bots';
import { findScenario } from '@salient/catalog';
import { runMatch, type Bot, type BotFactory } from '@salient/runner';
import { loadTournamentSpec, planTournament, resolveGamePack, type MatchOutcome, type TournamentPlan, type TournamentSpec } from '@salient/scheduler';
import { runLocalTournament } from '@salient/scheduler/local';
import { openTelemetry, tournamentMatchReplays, type Telemetry } from '@salient/telemetry';
import { appendLedger, calibrationKey, LEDGER_VERSION, outcomeOf, readLedger, type LedgerMatch } from './strength-ledger.ts';
import { CALIBRATION_SEED, gamesPerScenario, list, perDecision, proposal, report, type Calibration, type StoredMatch, type Timing } from './strength-report.ts';
import { envInt, machine, updateResultsBlock } from './support.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/** How often a leg's finished matches go into the ledger while it runs, ms. */
const LEDGER_FLUSH_MS = envInt('BENCH_LEDGER_FLUSH_S', 300) * 1000;

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

async function main(): Promise<void> {
  const specPaths = list(process.env.BENCH_SPECS).length
    ? list(process.env.BENCH_SPECS)
    : ['blitz-ladder.yaml', 'blitz-ladder-d.yaml', 'ea-ladder.yaml'].map((f) => join(root, 'examples', 'tournaments', f));
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
  const ledgerFile = process.env.BENCH_LEDGER ?? join(here, 'data', 'strength-ledger.jsonl');
  const ledger = ledgerFile === 'none' ? undefined : readLedger(ledgerFile);
  const m = machine();
  const machineKey = `${m.date}|${m.node}|${m.cpu}`;

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
      const given = givenIterations.get(leg.scenario);
      const recorded = given === undefined ? ledger?.calibrations.get(calibrationKey(leg.key, tuned.bot, target.bot)) : undefined;
      if (recorded) {
        leg.calibration = {
          from: Number(parseBotSpec(tuned.bot).params.iterations ?? 200),
          chosen: recorded.chosen,
          passes: recorded.passes.map((p) => ({ iterations: p.iterations, ms: p.msPerDecision, decisions: 1 })),
          target: { ms: recorded.targetMsPerDecision, decisions: 1 },
          games: recorded.games,
          given: false,
          recorded: recorded.machine,
          ...(recorded.cap !== undefined ? { cap: recorded.cap } : {}),
        };
        process.stderr.write(`  calibration ${leg.key}: ${tunedName} at ${recorded.chosen} iterations, from the ledger (measured on ${recorded.machine})\n`);
      } else {
        leg.calibration = await calibrate(leg, tuned.bot, target.bot, given, calibrationSeeds, calibrationCap, calibrationPasses);
        const c = leg.calibration;
        // Given iterations are recorded too (once), so a run elsewhere plays the same matches without being told.
        if (ledger && !ledger.calibrations.has(calibrationKey(leg.key, tuned.bot, target.bot))) {
          appendLedger(ledger, [
            {
              type: 'calibration',
              v: LEDGER_VERSION,
              leg: leg.key,
              tuned: tuned.bot,
              target: target.bot,
              chosen: c.chosen,
              passes: c.passes.map((p) => ({ iterations: p.iterations, msPerDecision: perDecision(p) })),
              targetMsPerDecision: perDecision(c.target),
              games: c.games,
              ...(c.cap !== undefined ? { cap: c.cap } : {}),
              machine: c.given ? `${machineKey} (given by BENCH_ITERATIONS)` : machineKey,
            },
          ]);
        }
      }
      const bot = withIterations(tuned.bot, leg.calibration.chosen);
      leg.spec = { ...leg.spec, id: `${leg.spec.id}-i${leg.calibration.chosen}`, entrants: leg.spec.entrants.map((e) => (e === tuned ? { ...e, bot } : e)) };
    }
    leg.plan = await planTournament(leg.spec);
  }

  const total = legs.reduce((n, l) => n + l.plan!.matches.length, 0);
  const keep = process.env.BENCH_STORE;
  const dir = keep || mkdtempSync(join(tmpdir(), 'salient-bench-strength-'));
  const t = await openTelemetry({ kind: 'embedded', path: join(dir, 'clickhouse'), spoolDir: join(dir, 'spool') });
  const known = (l: Leg) => (ledger ? l.plan!.matches.filter((x) => ledger.matches.has(x.id)).length : 0);
  process.stderr.write(
    `${total} matches on ${threads} threads (${legs.map((l) => `${l.key}: ${l.plan!.matches.length}, ${known(l)} in the ledger`).join('; ')}); store ${dir}${ledger ? `; ledger ${ledger.file}` : ''}\n`,
  );
  const started = performance.now();
  const outcomes: MatchOutcome[] = [];
  const stored = new Map<string, StoredMatch>();
  let played = 0;
  try {
    let before = 0;
    for (const leg of legs) {
      let lastLine = 0;
      const plan = leg.plan!;
      const recorded = ledger ? plan.matches.flatMap((x) => ledger.matches.get(x.id) ?? []) : [];
      const toPlay = ledger ? plan.matches.filter((x) => !ledger.matches.has(x.id)) : plan.matches;
      for (const r of recorded) {
        outcomes.push(outcomeOf(r, outcomes.length));
        stored.set(r.matchId, { thinkMs: r.thinkMs, decisions: r.bySide, ...(r.paris !== undefined ? { axisTookParis: r.paris } : {}) });
      }
      // The ledger takes the matches finished so far every few minutes, not only when the leg ends, so a
      // run stopped part way (a session's end, a kill) keeps what it played, whatever BENCH_STORE.
      let flushedAt = performance.now();
      let flushing: Promise<void> | undefined;
      const flush = async (done: readonly MatchOutcome[]): Promise<void> => {
        const fresh = done.filter((o) => !ledger!.matches.has(o.matchId));
        if (!fresh.length) return;
        const found = await storedMatches(t, leg, new Set(fresh.map((o) => o.matchId)));
        // A match whose rows have not reached the store yet waits for the next flush (or the leg's end).
        appendLedger(ledger!, fresh.flatMap((o) => ledgerLine(leg.key, o, found.get(o.matchId), machineKey) ?? []));
      };
      const result = await runLocalTournament({
        plan: { ...plan, matches: toPlay },
        threads,
        telemetry: t,
        onProgress: (p) => {
          const now = performance.now();
          if (ledger && !flushing && now - flushedAt >= LEDGER_FLUSH_MS) {
            flushedAt = now;
            flushing = flush(p.outcomes)
              .catch((e: unknown) => void process.stderr.write(`  ledger: could not append the finished matches yet (${(e as Error).message}); they are appended when the leg ends\n`))
              .finally(() => (flushing = undefined));
          }
          if (now - lastLine < 15_000 && p.done < p.total) return;
          lastLine = now;
          const s = (now - started) / 1000;
          // The leg's matches in the ledger are done before it starts (p counts only those played or found in the store).
          const done = before + recorded.length + p.done;
          // Time to go at this run's rate so far (matches found in the store take none).
          const rate = (played + p.played) / s;
          process.stderr.write(`  ${leg.key}: ${p.done}/${p.total}; all ${done}/${total} matches, ${s.toFixed(0)} s, about ${rate > 0 ? ((total - done) / rate).toFixed(0) : '?'} s to go\n`);
        },
      });
      await flushing;
      before += plan.matches.length;
      played += result.played;
      outcomes.push(...result.outcomes);
      for (const [id, s] of await storedMatches(t, leg)) if (!stored.has(id)) stored.set(id, s);
      if (ledger) {
        const rest = result.outcomes.filter((o) => !ledger.matches.has(o.matchId));
        appendLedger(ledger, rest.flatMap((o) => ledgerLine(leg.key, o, stored.get(o.matchId), machineKey) ?? []));
      }
    }
  } finally {
    await t.close();
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
  const wallS = (performance.now() - started) / 1000;
  const block = report({ legs, outcomes, stored, threads, wallS, played, tunedName, targetName, specPaths, machine: m });
  process.stdout.write(block + '\n');
  const file = process.env.BENCH_RESULTS || join(here, 'RESULTS.md');
  if (file !== 'none') updateResultsBlock(file, 'bench-strength', `${m.date}|${m.node}|${m.cpu}`, block, '# Benchmark results\n');
}

/**
 * The ledger line of a match this run played or found in its store; none for an error or a cancelled
 * match (those are played again) or one whose replay the store lacks.
 */
function ledgerLine(leg: string, o: MatchOutcome, s: StoredMatch | undefined, machineKey: string): LedgerMatch | undefined {
  if (!s || (o.kind !== 'completed' && o.kind !== 'adjudicated' && o.kind !== 'forfeit')) return undefined;
  return {
    type: 'match',
    v: LEDGER_VERSION,
    leg,
    matchId: o.matchId,
    tournamentId: o.tournamentId,
    scenario: o.scenario,
    seed: o.seed,
    kind: o.kind,
    sides: o.sides,
    entrants: o.entrants,
    decisions: o.decisions,
    thinkMs: s.thinkMs,
    bySide: s.decisions,
    ...(s.axisTookParis !== undefined ? { paris: s.axisTookParis } : {}),
    machine: machineKey,
  };
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
  return { from, chosen: next, passes, target: targetTime, games: gamesPlayed, given: false, cap };
}

/**
 * Think time and decisions per side of every match of `leg` in the store (or of those in `only`), and
 * in Blitz! A whether Germany took Paris.
 */
async function storedMatches(t: Telemetry, leg: Leg, only?: ReadonlySet<string>): Promise<Map<string, StoredMatch>> {
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
      if (only && !only.has(match.matchId)) continue;
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

await main();
