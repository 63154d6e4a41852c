/**
 * A tournament's results as users of tournament managers (cutechess-cli, fastchess) read them, from
 * match outcomes keyed by entrant name: per pairing the score, Elo difference with its 95% interval,
 * LOS and draw ratio; a cross-table (entrant x entrant scores); and the standings split by scenario
 * (each split by side in its rows). Every executor and reader (the end of `tournament run`,
 * `tournament status`, the API) computes them here, so they say the same thing.
 *
 * Counting follows `standings`: completed, adjudicated and forfeited matches count (a forfeit is a
 * loss for the side that forfeited); `error` and `cancelled` ones count for no one's score.
 */
import { pentanomialCell, pentanomialElo, trinomialElo, type EloEstimate, type GameScore } from '@salient/stats';
import { pairingsOf } from './plan.ts';
import { standings, type StandingsRow } from './standings.ts';
import type { MatchOutcome, TournamentSpec } from './types.ts';

/** What the results need to know of the tournament besides its outcomes. */
export interface ResultsContext {
  /** Entrant names, in spec order. */
  entrants: readonly string[];
  /** Pairings as [first, second] (figures are the first's). Default: every pair of entrants met in the outcomes. */
  pairings?: readonly (readonly [string, string])[];
  /** Scenario ids in spec order. Default: in order of first appearance in the outcomes. */
  scenarios?: readonly string[];
  /** Whether games were played in side-swapped pairs (Elo from the pair counts then). */
  sideSwap?: boolean;
}

/** One pairing, from its first entrant's point of view. */
export interface PairingResult {
  first: string;
  second: string;
  /** Counted games (completed, adjudicated, forfeit) and the first entrant's wins, losses and draws in them. */
  games: number;
  wins: number;
  losses: number;
  draws: number;
  /** Wins + draws / 2. */
  score: number;
  /** 100 * score / games; null before any counted game. */
  scorePct: number | null;
  /** Drawn share of the counted games; null before any. */
  drawRatio: number | null;
  /**
   * Elo of `first` over `second`, its 95% interval and the likelihood that `first` is the stronger
   * (LOS); null before any counted game (or, with side swap, before any complete pair).
   */
  elo: EloEstimate | null;
  /**
   * How `elo` was computed: from the complete side-swapped pairs (`pentanomial`, as fastchess does by
   * default: the two games of a seed are not independent) or from the games (`trinomial`, as cutechess-cli).
   */
  model: 'pentanomial' | 'trinomial';
  /** Side swap: complete pairs counted, and their counts scoring 0, ½, 1, 1½, 2 for `first`. */
  pairs?: number;
  pentanomial?: [number, number, number, number, number];
  /** Matches of this pairing that ended in a forfeit (by either entrant), in an engine error. */
  forfeits: number;
  errors: number;
}

/** One cell of the cross-table: the row entrant's results against the column entrant. */
export interface CrossCell {
  games: number;
  wins: number;
  losses: number;
  draws: number;
  score: number;
}

export interface CrossTable {
  /** Rows and columns, in standings order. */
  entrants: string[];
  /** row -> column -> results; absent where the two never met. */
  cells: Record<string, Record<string, CrossCell>>;
}

export interface ScenarioStandings {
  scenario: string;
  /** Standings over that scenario's matches; each row has its results by side. */
  standings: StandingsRow[];
}

export interface TournamentResults {
  standings: StandingsRow[];
  byScenario: ScenarioStandings[];
  pairings: PairingResult[];
  crossTable: CrossTable;
}

const COUNTED = new Set<MatchOutcome['kind']>(['completed', 'adjudicated', 'forfeit']);

/**
 * The results context of `spec`. A gauntlet's pairings put the challenger first (its Elo over the
 * reference, as an SPRT's candidate over its baseline); the others are as planned.
 */
export function resultsContextOf(spec: TournamentSpec): ResultsContext {
  // A strength sweep's levels each play themselves: mirror matches, no pairing to score (its report is
  // the sweep report, `salient report balance --sweep`).
  const pairings =
    spec.format === 'strength-sweep' ? [] : pairingsOf(spec).map(([a, b]) => (spec.format === 'gauntlet' ? ([b, a] as const) : ([a, b] as const)));
  return { entrants: spec.entrants.map((e) => e.name), pairings, scenarios: spec.scenarios, sideSwap: spec.sideSwap };
}

/** The results of `outcomes` (any order; a repeated match id counts once). */
export function tournamentResults(outcomes: readonly MatchOutcome[], ctx: ResultsContext): TournamentResults {
  const unique = [...new Map(outcomes.map((o) => [o.matchId, o])).values()].sort((a, b) => a.index - b.index);
  const table = standings(unique, ctx.entrants);
  const names = table.map((r) => r.name);
  const scenarios = ctx.scenarios ?? [...new Set(unique.map((o) => o.scenario))];
  const byScenario = scenarios.map((scenario) => ({ scenario, standings: standings(unique.filter((o) => o.scenario === scenario), ctx.entrants) }));

  // Who met whom, keyed by the unordered pair.
  const key = (a: string, b: string) => JSON.stringify(a < b ? [a, b] : [b, a]);
  const met = new Map<string, MatchOutcome[]>();
  for (const o of unique) {
    const who = [...new Set(Object.values(o.entrants))];
    if (who.length !== 2) continue; // a mirror match (or more seats than two entrants) is no pairing
    const k = key(who[0]!, who[1]!);
    met.set(k, [...(met.get(k) ?? []), o]);
  }
  const pairings: (readonly [string, string])[] = ctx.pairings
    ? [...ctx.pairings]
    : [...met.keys()]
        .map((k) => (JSON.parse(k) as [string, string]).sort((a, b) => names.indexOf(a) - names.indexOf(b)) as [string, string])
        .sort((a, b) => names.indexOf(a[0]) - names.indexOf(b[0]) || names.indexOf(a[1]) - names.indexOf(b[1]));
  const results = pairings.map(([first, second]) => pairingResult(first, second, met.get(key(first, second)) ?? [], ctx.sideSwap ?? false));

  const cells: CrossTable['cells'] = {};
  for (const p of results) {
    if (p.games === 0) continue;
    (cells[p.first] ??= {})[p.second] = { games: p.games, wins: p.wins, losses: p.losses, draws: p.draws, score: p.score };
    (cells[p.second] ??= {})[p.first] = { games: p.games, wins: p.losses, losses: p.wins, draws: p.draws, score: p.games - p.score };
  }
  return { standings: table, byScenario, pairings: results, crossTable: { entrants: names, cells } };
}

function pairingResult(first: string, second: string, matches: readonly MatchOutcome[], sideSwap: boolean): PairingResult {
  let wins = 0;
  let losses = 0;
  let draws = 0;
  let forfeits = 0;
  let errors = 0;
  /** pairId -> the first entrant's score in each game of it (null: no result). */
  const pairs = new Map<string, (GameScore | null)[]>();
  for (const o of matches) {
    if (o.kind === 'forfeit') forfeits++;
    if (o.kind === 'error') errors++;
    const side = Object.keys(o.entrants).find((s) => o.entrants[s] === first);
    const result = side === undefined ? undefined : o.sides[side];
    const score: GameScore | null = !COUNTED.has(o.kind) ? null : result === 'win' ? 1 : result === 'draw' ? 0.5 : result === 'loss' ? 0 : null;
    if (score === 1) wins++;
    else if (score === 0.5) draws++;
    else if (score === 0) losses++;
    if (o.kind !== 'cancelled') pairs.set(o.pairId, [...(pairs.get(o.pairId) ?? []), score]);
  }
  const games = wins + losses + draws;
  const score = wins + draws / 2;
  const base = { first, second, games, wins, losses, draws, score, scorePct: games ? (100 * score) / games : null, drawRatio: games ? draws / games : null, forfeits, errors };
  if (!sideSwap) return { ...base, model: 'trinomial', elo: games ? trinomialElo(wins, draws, losses) : null };
  // As the SPRT counts them: a pair counts once both games have a result.
  const counts: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  for (const s of pairs.values()) {
    if (s.length === 2 && s[0] !== null && s[1] !== null) counts[pentanomialCell(s[0]!, s[1]!)]++;
  }
  const n = counts.reduce((a, c) => a + c, 0);
  return { ...base, model: 'pentanomial', pairs: n, pentanomial: counts, elo: n ? pentanomialElo(counts) : null };
}

/** Matches that finished (not cancelled), and of them those forfeited and those that ended in an engine error. */
export function problemCounts(outcomes: readonly MatchOutcome[]): { finished: number; forfeits: number; errors: number } {
  let finished = 0;
  let forfeits = 0;
  let errors = 0;
  for (const o of new Map(outcomes.map((x) => [x.matchId, x])).values()) {
    if (o.kind === 'cancelled') continue;
    finished++;
    if (o.kind === 'forfeit') forfeits++;
    else if (o.kind === 'error') errors++;
  }
  return { finished, forfeits, errors };
}
