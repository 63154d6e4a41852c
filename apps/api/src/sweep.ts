/**
 * The strength-sweep report: does a scenario's balance hold as the bots get better, and at what
 * strength does the figure stop moving? Shared by `GET /api/balance/sweep`, `salient report balance
 * --sweep` and the dashboard's sweep chart.
 *
 * A `strength-sweep` tournament plays one bot against itself at rising levels of one parameter
 * (@salient/scheduler). For each scenario and level this reports each side's win rate with its 95%
 * Wilson interval, the draws, and how long games ran; then compares each level with the one below it:
 *
 * - **moved**: Pearson's χ² test on the outcome counts (first side won, second side won, drawn; with no
 *   draws this is the two-proportion z-test) separates the two levels at p < 0.05;
 * - **held**: the test does not separate them, *and* for every side the 95% interval of the change in
 *   its win rate (Newcombe's hybrid score interval, from the two Wilson intervals) lies inside
 *   ±margin: the data show the change is small, not merely that it is not shown to be large;
 * - **unclear**: neither (too few games to tell).
 *
 * A scenario's verdict reads the top of the sweep: *stopped moving at L* when every step from L upward
 * held (L is the lowest level whose figure the stronger levels confirm); *still moving* when the last
 * step moved; *not enough games* when the last step is unclear, or fewer than two levels have results.
 * The margin defaults to {@link SWEEP_MARGIN}: ten percentage points.
 */
import { chiSquaredHomogeneity, differenceInterval, wilson, type Interval } from '@salient/stats';
import { SalientError } from '@salient/engine';
import type { ScenarioKey, Telemetry, TelemetryFilter, WinRateRow } from '@salient/telemetry';
import type { SweepSpec, TournamentSpec } from '@salient/scheduler';
import { sidesOf, type BalanceSide } from './balance.ts';

/** Default margin: a change in a side's win rate smaller than this (shown by its interval) counts as none. */
export const SWEEP_MARGIN = 0.1;
/** Significance level of the test that separates two levels. */
export const SWEEP_ALPHA = 0.05;

/** One level's outcome counts on one scenario: wins per side (in the scenario's order) and draws. */
export interface SweepTally {
  sides: { side: string; wins: number }[];
  draws: number;
}

/** The change of one side's win rate from the level below to this one. */
export interface SweepChange {
  side: string;
  /** This level's win rate minus the level below's. */
  change: number;
  /** Newcombe's 95% interval on `change`. */
  interval: Interval;
}

export type StepVerdict = 'moved' | 'held' | 'unclear';

/** A level compared with the one below it. */
export interface SweepStep {
  from: number;
  to: number;
  /** χ² test of homogeneity on the two levels' outcome counts. */
  pValue: number;
  changes: SweepChange[];
  verdict: StepVerdict;
}

export type SweepStatus = 'stopped moving' | 'still moving' | 'not enough games';

export interface SweepVerdict {
  status: SweepStatus;
  /** With `stopped moving`: the lowest level the levels above confirm. */
  level?: number;
  /** The verdict in words, as the text report and the dashboard print it. */
  text: string;
}

/** A side at one level: its tally as the balance report gives it, without the net-of-strength figure (both seats are one bot). */
export type SweepLevelSide = Omit<BalanceSide, 'net'>;

export interface SweepLevel {
  level: number;
  /** level / the sweep's first level. */
  factor: number;
  /** Entrant name (`mcts iterations=800`; `mcts@800` in sweeps recorded before 2026-11-30) and bot spec. */
  entrant: string;
  bot: string;
  /** Matches with a result (completed, adjudicated, forfeit). */
  games: number;
  draws: number;
  /**
   * Of them, forfeits (a bot crashed, answered illegally or ran over its time): counted as a win for
   * the other side, as every report counts them, but a game nobody played out. Absent when unknown.
   */
  forfeits?: number;
  sides: SweepLevelSide[];
  /** Mean and median length, by the measures the store keeps (turns, impulses, decisions). */
  lengths: { metric: 'turns' | 'impulses' | 'decisions'; mean: number; p50: number; p90: number }[];
  /** Against the level below (absent on the first). */
  step?: SweepStep;
}

export interface SweepScenario extends ScenarioKey {
  tournament: string;
  /** The swept bot without its swept parameter, the parameter, and the levels planned. */
  bot: string;
  param: string;
  levels: SweepLevel[];
  verdict: SweepVerdict;
}

export interface SweepReport {
  filter: TelemetryFilter;
  margin: number;
  scenarios: SweepScenario[];
}

const gamesOf = (t: SweepTally) => t.sides.reduce((s, x) => s + x.wins, 0) + t.draws;

/** Compare level `to` (tally `b`) with level `from` (tally `a`). See the module comment for the rule. */
export function sweepStep(from: number, a: SweepTally, to: number, b: SweepTally, margin = SWEEP_MARGIN): SweepStep {
  const na = gamesOf(a);
  const nb = gamesOf(b);
  if (na === 0 || nb === 0) return { from, to, pValue: 1, changes: [], verdict: 'unclear' };
  const counts = (t: SweepTally) => Object.fromEntries([...t.sides.map((x) => [x.side, x.wins] as const), ['(draw)', t.draws] as const]);
  const { pValue } = chiSquaredHomogeneity(counts(a), counts(b));
  const changes = a.sides.map(({ side, wins }) => {
    const wb = b.sides.find((x) => x.side === side)?.wins ?? 0;
    return { side, change: wb / nb - wins / na, interval: differenceInterval(wins, na, wb, nb) };
  });
  const verdict: StepVerdict =
    pValue < SWEEP_ALPHA ? 'moved' : changes.every((c) => c.interval.low > -margin && c.interval.high < margin) ? 'held' : 'unclear';
  return { from, to, pValue, changes, verdict };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${(100 * Math.abs(x)).toFixed(1)}`;
/** `×4`, `×2.5`. */
export const factorText = (f: number) => `×${Number.isInteger(f) ? f : f.toPrecision(3).replace(/\.?0+$/, '')}`;

/**
 * The verdict on a sweep from its steps (each level against the one below, in rising order; `levels`
 * are all the levels, for naming where it stopped). `param` names the parameter in the text.
 */
export function sweepVerdict(levels: readonly { level: number; games: number; step?: SweepStep }[], param: string, margin = SWEEP_MARGIN): SweepVerdict {
  const played = levels.filter((l) => l.games > 0);
  const first = levels[0]?.level ?? 1;
  const name = (level: number) => `${param} ${level} (${factorText(level / first)})`;
  if (played.length < 2) {
    return { status: 'not enough games', text: `not enough games: ${played.length} of ${levels.length} levels have results; a verdict needs two.` };
  }
  const steps = levels.flatMap((l) => (l.step ? [l.step] : []));
  const last = steps[steps.length - 1];
  if (!last || last.verdict === 'unclear') {
    const to = last ? `${name(last.from)} to ${name(last.to)}` : 'the top levels';
    return {
      status: 'not enough games',
      text: `not enough games: from ${to} the change is neither separated by the test (p ≥ ${SWEEP_ALPHA}) nor shown to be within ±${pct(margin)}; play more games per level.`,
    };
  }
  if (last.verdict === 'moved') {
    const big = [...last.changes].sort((x, y) => Math.abs(y.change) - Math.abs(x.change))[0];
    const what = big ? `${big.side} ${signed(big.change)} points` : 'the outcomes changed';
    return { status: 'still moving', text: `still moving: from ${name(last.from)} to ${name(last.to)}, ${what} (p = ${last.pValue.toPrecision(2)}).` };
  }
  let k = steps.length - 1;
  while (k > 0 && steps[k - 1]?.verdict === 'held') k--;
  const level = steps[k]?.from ?? first;
  return {
    status: 'stopped moving',
    level,
    text: `stopped moving at ${name(level)}: every level above it is within ±${pct(margin)} of the one below (95% intervals) and no test separates them.`,
  };
}

/** One level's rows of `winRates` (both sides) as a tally and per-side figures. */
function levelSides(rows: readonly WinRateRow[], sides: readonly string[], powers: ReadonlyMap<string, string[]>): { tally: SweepTally; sides: SweepLevelSide[]; games: number } {
  const out = sides.map((side) => {
    const r = rows.filter((x) => x.side === side);
    const games = r.reduce((s, x) => s + x.games, 0);
    const wins = r.reduce((s, x) => s + x.wins, 0);
    const losses = r.reduce((s, x) => s + x.losses, 0);
    const draws = r.reduce((s, x) => s + x.draws, 0);
    return { side, powers: powers.get(side) ?? [], games, wins, losses, draws, winRate: games ? wins / games : 0, interval: wilson(wins, games) };
  });
  const games = Math.max(0, ...out.map((x) => x.games));
  const draws = Math.max(0, ...out.map((x) => x.draws));
  return { tally: { sides: out.map((x) => ({ side: x.side, wins: x.wins })), draws }, sides: out, games };
}

/** Build one scenario's sweep from each level's rows and lengths. */
export function sweepScenario(
  key: ScenarioKey & { tournament: string },
  sweep: SweepSpec,
  levels: readonly { level: number; entrant: string; bot: string; rows: readonly WinRateRow[]; lengths: SweepLevel['lengths']; forfeits?: number }[],
  o: { sides?: readonly string[]; powers?: ReadonlyMap<string, string[]>; margin?: number } = {},
): SweepScenario {
  const margin = o.margin ?? SWEEP_MARGIN;
  const sides = o.sides?.length ? [...o.sides] : [...new Set(levels.flatMap((l) => l.rows.map((r) => r.side)))].sort();
  const first = sweep.levels[0] ?? levels[0]?.level ?? 1;
  const built: SweepLevel[] = [];
  let below: { level: number; tally: SweepTally } | undefined;
  for (const l of levels) {
    const s = levelSides(l.rows, sides, o.powers ?? new Map());
    const step = below ? sweepStep(below.level, below.tally, l.level, s.tally, margin) : undefined;
    built.push({
      level: l.level,
      factor: l.level / first,
      entrant: l.entrant,
      bot: l.bot,
      games: s.games,
      draws: s.tally.draws,
      ...(l.forfeits !== undefined ? { forfeits: l.forfeits } : {}),
      sides: s.sides,
      lengths: l.lengths,
      ...(step ? { step } : {}),
    });
    below = { level: l.level, tally: s.tally };
  }
  return { ...key, bot: sweep.bot, param: sweep.param, levels: built, verdict: sweepVerdict(built, sweep.param, margin) };
}

/** A stored spec read back as a strength sweep, or undefined for any other tournament. */
function sweepOf(spec: unknown): (Pick<TournamentSpec, 'entrants' | 'scenarios'> & { sweep: SweepSpec }) | undefined {
  const s = spec as Partial<TournamentSpec> | null;
  if (!s || s.format !== 'strength-sweep' || !s.sweep || !Array.isArray(s.entrants) || !Array.isArray(s.sweep.levels)) return undefined;
  return s as Pick<TournamentSpec, 'entrants' | 'scenarios'> & { sweep: SweepSpec };
}

export interface SweepQuery {
  /** One tournament; without it, every strength-sweep tournament the filter's game and scenario select. */
  tournament?: string | undefined;
  game?: string | undefined;
  scenario?: string | undefined;
  margin?: number | undefined;
  /** Side -> powers for a scenario (default: from the game's bundled pack, as the balance report does). */
  sidesOf?: (k: ScenarioKey) => Promise<Map<string, string[]>>;
}

const keyOf = (k: ScenarioKey) => JSON.stringify([k.game, k.scenario, k.packHash, k.rulesVersion]);

/**
 * The sweep report from the store: `q.tournament` (which must be a strength sweep), or every strength
 * sweep recorded for `q.game` / `q.scenario`, newest first as the store lists tournaments. Each
 * tournament's scenarios are reported apart (two sweeps are two runs, even of the same bot).
 * Throws `BAD_ARGUMENT` when the named tournament is unknown or not a sweep.
 */
export async function sweepReport(t: Telemetry, q: SweepQuery = {}): Promise<SweepReport> {
  const margin = q.margin ?? SWEEP_MARGIN;
  if (!(margin > 0 && margin < 1)) throw new SalientError('BAD_ARGUMENT', `margin is ${margin}; give a fraction between 0 and 1, such as 0.1 (ten percentage points).`);
  const filter: TelemetryFilter = {
    ...(q.game !== undefined ? { game: q.game } : {}),
    ...(q.scenario !== undefined ? { scenario: q.scenario } : {}),
    ...(q.tournament !== undefined ? { tournament: q.tournament } : {}),
  };
  let specs: [string, NonNullable<ReturnType<typeof sweepOf>>][];
  if (q.tournament !== undefined) {
    const stored = await t.tournamentSpec(q.tournament);
    if (!stored) throw new SalientError('BAD_ARGUMENT', `no tournament '${q.tournament}' is recorded in ${t.where}; \`salient tournament list\` lists those that are.`);
    const s = sweepOf(stored.spec);
    if (!s) {
      const format = (stored.spec as { format?: unknown } | null)?.format;
      throw new SalientError('BAD_ARGUMENT', `tournament '${q.tournament}' is a ${String(format ?? 'round-robin')}, not a strength sweep; give a strength-sweep tournament, or drop --sweep for the balance report.`);
    }
    specs = [[q.tournament, s]];
  } else {
    const ids = (await t.tournaments(filter, 1000)).map((x) => x.id);
    const stored = await t.tournamentSpecs(ids);
    specs = ids.flatMap((id) => {
      const s = sweepOf(stored.get(id)?.spec);
      return s ? [[id, s] as [string, NonNullable<ReturnType<typeof sweepOf>>]] : [];
    });
  }
  const scenarios: SweepScenario[] = [];
  for (const [id, s] of specs) {
    const base: TelemetryFilter = { ...filter, tournament: id };
    const rows = await t.winRates(base);
    const byLevel = s.sweep.levels.map((level, i) => {
      // Level i is entrant i (the spec check makes it so), however the levels are named: `mcts
      // iterations=800`, or `mcts@800` in a sweep recorded before they were renamed.
      const e = s.entrants[i];
      return { level, entrant: e?.name ?? String(level), bot: e?.bot ?? '', rows: rows.filter((r) => e !== undefined && r.bot.startsWith(`${e.bot}@`)) };
    });
    const lengths = await Promise.all(byLevel.map((l) => (l.bot ? t.gameLengths({ ...base, bot: l.bot }) : Promise.resolve([]))));
    const keys = new Map<string, ScenarioKey>();
    for (const r of rows) keys.set(keyOf(r), { game: r.game, scenario: r.scenario, packId: r.packId, packHash: r.packHash, rulesVersion: r.rulesVersion });
    const ordered = [...keys.values()].sort((a, b) => s.scenarios.indexOf(a.scenario) - s.scenarios.indexOf(b.scenario));
    for (const k of ordered) {
      const powers = await (q.sidesOf ?? sidesOf)(k);
      // Forfeits by level: the store's tournament summary of that level's matches on this scenario.
      const forfeits = await Promise.all(
        byLevel.map(async (l) => (l.bot ? ((await t.tournaments({ ...base, scenario: k.scenario, bot: l.bot }, 1))[0]?.kinds['forfeit'] ?? 0) : 0)),
      );
      scenarios.push(
        sweepScenario(
          { ...k, tournament: id },
          s.sweep,
          byLevel.map((l, i) => ({
            ...l,
            forfeits: forfeits[i] ?? 0,
            rows: l.rows.filter((r) => keyOf(r) === keyOf(k)),
            lengths: (lengths[i] ?? []).filter((x) => keyOf(x) === keyOf(k)).map(({ metric, mean, p50, p90 }) => ({ metric, mean, p50, p90 })),
          })),
          { ...(powers.size ? { sides: [...powers.keys()], powers } : {}), margin },
        ),
      );
    }
  }
  return { filter, margin, scenarios };
}

const range = (i: Interval) => `${pct(i.low)}–${pct(i.high)}`;

/** The report as lines for a terminal. */
export function sweepLines(r: SweepReport): string[] {
  if (!r.scenarios.length) {
    return ['No strength-sweep results recorded for this filter. Run one with `salient report balance --sweep --scenario A --bot mcts:rollout=0 --param iterations --levels 25,100,400 --games 20`, or `salient tournament run` a strength-sweep spec (examples/tournaments/blitz-sweep.yaml).'];
  }
  const out: string[] = [];
  for (const s of r.scenarios) {
    out.push(`${s.game} · Scenario ${s.scenario} · pack ${s.packId} ${s.packHash.slice(0, 8)} · rules ${s.rulesVersion} · sweep of ${s.bot} over ${s.param} (tournament ${s.tournament})`);
    for (const l of s.levels) {
      const turns = l.lengths.find((x) => x.metric === 'turns');
      const imp = l.lengths.find((x) => x.metric === 'impulses');
      const len = turns ? `; last turn mean ${turns.mean.toFixed(1)}${imp ? `, impulses mean ${imp.mean.toFixed(1)}` : ''}` : '';
      const lost = l.forfeits ? `, ${l.forfeits} forfeited (counted as won by the other side)` : '';
      // The entrant only when its name says more than the level (sweeps name levels `mcts iterations=8`).
      const entrant = l.entrant.endsWith(` ${s.param}=${l.level}`) ? '' : `, ${l.entrant}`;
      out.push(`  ${s.param} ${l.level} (${factorText(l.factor)}${entrant}): ${l.games} game${l.games === 1 ? '' : 's'}${l.draws ? `, ${l.draws} drawn` : ''}${lost}${len}`);
      for (const side of l.sides) {
        const powers = side.powers.length ? ` (${side.powers.join(', ')})` : '';
        out.push(`    ${side.side}${powers}: won ${side.wins} of ${side.games}, ${pct(side.winRate)} (${range(side.interval)})`);
      }
      if (l.step && l.step.changes.length) {
        const ch = l.step.changes.map((c) => `${c.side} ${signed(c.change)} (${signed(c.interval.low)} to ${signed(c.interval.high)})`).join(', ');
        out.push(`    vs ${s.param} ${l.step.from}: ${l.step.verdict}; change in points ${ch}; p = ${l.step.pValue.toPrecision(2)}`);
      } else if (l.step) out.push(`    vs ${s.param} ${l.step.from}: ${l.step.verdict} (a level has no results)`);
    }
    out.push(`  Verdict: ${s.verdict.text}`);
    const forfeited = s.levels.reduce((n, l) => n + (l.forfeits ?? 0), 0);
    if (forfeited) {
      out.push(
        `  Warning: ${forfeited} of ${s.levels.reduce((n, l) => n + l.games, 0)} games were forfeits, not played out (\`salient tournament list\` and the match list say why); a figure resting on them says how the bot copes with its limits, not how the scenario plays.`,
      );
    }
    out.push('');
  }
  out.push(
    `Rule: two levels "held" when a χ² test on their outcomes does not separate them (p ≥ ${SWEEP_ALPHA}) and each side's change in win rate has a 95% interval inside ±${pct(r.margin)}; "moved" when the test separates them (p < ${SWEEP_ALPHA}).`,
  );
  return out;
}
