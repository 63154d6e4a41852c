/**
 * Bot ratings from finished matches: the match record both rating methods read, its validation, and
 * openskill's running ratings. The maximum-likelihood fit that separates bot strength from side
 * advantage lives in `bradley-terry.ts`; this file is the quick, familiar leaderboard.
 *
 * Why two methods: openskill (Weng–Lin, Plackett–Luce model) is what players of online games know
 * and updates one match at a time, but it reads the matches as a sequence, so the same matches in
 * another order give other ratings, and it has no notion of a side. In an unbalanced scenario the
 * bot that happened to draw the strong side more often looks stronger. The Bradley–Terry fit uses
 * every match at once and estimates each scenario's side advantage next to the bot strengths.
 */
import { ordinal, rate, rating, type Rating } from 'openskill';

/** How one side's game ended. */
export type MatchResult = 'win' | 'loss' | 'draw';

/** One side of a match: which side of the scenario, which bot played it, how it ended for that side. */
export interface RatedSide {
  /** The scenario's side, such as `Axis`; distinct within a match. */
  side: string;
  /** The bot's name with its version, such as `mcts:iterations=800@1`. */
  bot: string;
  result: MatchResult;
}

/** One finished game of a scenario, as plain data. */
export interface RatedMatch {
  /** Opaque key; matches with the same key share side advantages (callers pass `game/scenario`). */
  scenario: string;
  /** At least two sides, each named once. */
  sides: readonly RatedSide[];
}

const RESULTS: ReadonlySet<string> = new Set<MatchResult>(['win', 'loss', 'draw']);

/**
 * Throws a RangeError naming the first malformed match (its index, scenario and side) and how to
 * fix it. `caller` prefixes the message so the user knows which computation rejected the data.
 * Checked: at least two sides; non-empty scenario, side and bot names; a known result; no side
 * named twice; and not every side won, or every side lost, which no game between sides produces
 * and usually means the runner recorded results from one side's point of view.
 */
export function validateMatches(caller: string, matches: readonly RatedMatch[]): void {
  if (!Array.isArray(matches)) {
    throw new RangeError(`${caller}: expected an array of matches; got ${typeof matches}.`);
  }
  matches.forEach((match, i) => {
    const where = `${caller}: match ${i}`;
    if (typeof match !== 'object' || match === null) {
      throw new RangeError(`${where} is ${String(match)}; pass { scenario, sides: [{ side, bot, result }, ...] }.`);
    }
    if (typeof match.scenario !== 'string' || match.scenario === '') {
      throw new RangeError(`${where} has no scenario key; pass a non-empty string such as 'game/scenario'.`);
    }
    const at = `${where} (scenario '${match.scenario}')`;
    // Array.isArray narrows a readonly array to any[], so keep the declared type by hand.
    const sides: readonly RatedSide[] = Array.isArray(match.sides) ? match.sides : [];
    if (sides.length < 2) {
      const count = sides.length;
      throw new RangeError(`${at} has ${count} side(s); a rated match needs at least two sides. Leave unfinished or solo games out.`);
    }
    const seen = new Set<string>();
    sides.forEach((s, j) => {
      if (typeof s !== 'object' || s === null || typeof s.side !== 'string' || s.side === '') {
        throw new RangeError(`${at}: side ${j} has no side name; pass the scenario's side, such as 'Axis'.`);
      }
      if (seen.has(s.side)) {
        throw new RangeError(`${at}: side '${s.side}' appears twice; each side of a match must be named once.`);
      }
      seen.add(s.side);
      if (typeof s.bot !== 'string' || s.bot === '') {
        throw new RangeError(`${at}: side '${s.side}' has no bot name; pass the bot that played it, such as 'random@1'.`);
      }
      if (!RESULTS.has(s.result)) {
        throw new RangeError(`${at}: side '${s.side}' has result '${String(s.result)}'; use 'win', 'loss' or 'draw'.`);
      }
    });
    const first = sides[0]?.result;
    if (first !== 'draw' && sides.every((s) => s.result === first)) {
      throw new RangeError(
        `${at}: every side has result '${String(first)}'; at least one side must differ (or all draw). Check that results are recorded per side.`,
      );
    }
  });
}

/** Settings passed to openskill; each defaults to openskill's own. */
export interface OpenSkillOptions {
  /** Starting mean; default 25. */
  mu?: number;
  /** Starting standard deviation; default 25/3. */
  sigma?: number;
  /** Performance noise within one game; default 25/6. */
  beta?: number;
  /** Added to sigma before each game so ratings can keep moving; default 25/300. */
  tau?: number;
}

export interface OpenSkillRating {
  bot: string;
  mu: number;
  sigma: number;
  /** mu − 3σ: a rating the bot is very likely above; what the leaderboard sorts by. */
  ordinal: number;
  /** Matches that updated this rating (mirror matches are not counted). */
  games: number;
}

export interface OpenSkillResult {
  /** Highest ordinal first; ties by bot name. */
  bots: OpenSkillRating[];
  /** Matches left out because one bot played more than one side (see `openskillRatings`). */
  mirrorMatches: number;
}

/** Rank for openskill: lower is better, equal ranks tie. */
const RANK: Readonly<Record<MatchResult, number>> = { win: 1, draw: 2, loss: 3 };

/**
 * openskill ratings after playing `matches` in the order given, starting every bot at the default
 * rating. Each side is a team of one player, its bot; winners rank first, drawn sides tie after them,
 * losers tie last. Deterministic: the same matches in the same order give the same ratings.
 *
 * Two limits to keep in mind when reading the numbers:
 * - The result depends on the order of the matches (a later match moves ratings more than an early
 *   one would have, once sigma has shrunk), so pass them in the order they were played.
 * - Sides are invisible to it: a bot that often drew the stronger side of an unbalanced scenario is
 *   rated too high. Use `bradleyTerry` where side advantage matters.
 *
 * Matches where one bot played more than one side (mirror matches, often run to measure side
 * advantage) are left out and counted in `mirrorMatches`: a game against itself says nothing about a
 * bot's strength, and openskill would update the one rating twice with opposite results.
 * An empty list gives no ratings. Throws RangeError for malformed matches (see `validateMatches`).
 */
export function openskillRatings(matches: readonly RatedMatch[], options: OpenSkillOptions = {}): OpenSkillResult {
  validateMatches('openskillRatings', matches);
  const model = openskillModel(options);
  const ratings = new Map<string, Rating>();
  const games = new Map<string, number>();
  let mirrorMatches = 0;
  for (const match of matches) {
    const bots = match.sides.map((s) => s.bot);
    if (new Set(bots).size !== bots.length) {
      mirrorMatches += 1;
      continue;
    }
    const teams = bots.map((bot) => [ratings.get(bot) ?? rating(undefined, model)]);
    const updated = rate(teams, { ...model, rank: match.sides.map((s) => RANK[s.result]) });
    updated.forEach((team, i) => {
      const bot = bots[i];
      const next = team[0];
      if (bot === undefined || next === undefined) return;
      ratings.set(bot, next);
      games.set(bot, (games.get(bot) ?? 0) + 1);
    });
  }
  const bots = [...ratings].map(([bot, r]) => ({
    bot,
    mu: r.mu,
    sigma: r.sigma,
    ordinal: ordinal(r),
    games: games.get(bot) ?? 0,
  }));
  bots.sort((a, b) => b.ordinal - a.ordinal || (a.bot < b.bot ? -1 : a.bot > b.bot ? 1 : 0));
  return { bots, mirrorMatches };
}

/** Only the options actually given, so openskill's defaults apply to the rest. */
function openskillModel(options: OpenSkillOptions): OpenSkillOptions {
  const model: OpenSkillOptions = {};
  for (const key of ['mu', 'sigma', 'beta', 'tau'] as const) {
    const value = options[key];
    if (value === undefined) continue;
    const lowest = key === 'mu' ? -Infinity : 0;
    const ok = Number.isFinite(value) && (key === 'sigma' ? value > 0 : value >= lowest);
    if (!ok) {
      const need = key === 'mu' ? 'a finite number' : key === 'sigma' ? 'a number above 0' : 'a number of 0 or more';
      throw new RangeError(`openskillRatings: option ${key} is ${String(value)}; pass ${need}, or leave it out for openskill's default.`);
    }
    model[key] = value;
  }
  return model;
}
