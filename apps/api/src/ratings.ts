/**
 * Bot ratings from the stored results: a Bradley–Terry fit with a side-advantage term per scenario
 * (bot strength net of which side it happened to play, and each side's win probability between equal
 * bots), and openskill ratings over the matches in the order they ended. Scenarios are never mixed
 * across packs or rules versions: each (game, scenario, pack, rules version) has its own side terms.
 */
import { bradleyTerry, openskillRatings, type RatedMatch } from '@salient/stats';
import type { MatchResultRow, ScenarioKey, Telemetry, TelemetryFilter } from '@salient/telemetry';

export interface Ratings {
  matches: number;
  bradleyTerry?: {
    converged: boolean;
    iterations: number;
    bots: { bot: string; elo: number; interval: { low: number; high: number }; games: number }[];
    sides: (ScenarioKey & { side: string; winProbabilityEven: number; interval: { low: number; high: number }; games: number })[];
  };
  openskill?: { bots: { bot: string; mu: number; sigma: number; ordinal: number; games: number }[]; mirrorMatches: number };
}

/** Ratings of the bots in `rows` (decided matches, in the order they ended). */
export function ratingsOf(rows: readonly MatchResultRow[]): Ratings {
  const keys = new Map<string, ScenarioKey>();
  const matches: RatedMatch[] = rows.map((r) => {
    const key: ScenarioKey = { game: r.game, scenario: r.scenario, packId: r.packId, packHash: r.packHash, rulesVersion: r.rulesVersion };
    const id = JSON.stringify([r.game, r.scenario, r.packHash, r.rulesVersion]);
    keys.set(id, key);
    return { scenario: id, sides: r.sides };
  });
  if (!matches.length) return { matches: 0 };
  // A match where one bot played every side says nothing of bots against each other, but everything
  // of the sides (the bots are equal by construction): Bradley–Terry takes it; openskill leaves it out.
  const bt = bradleyTerry(matches);
  const os = openskillRatings(matches);
  return {
    matches: rows.length,
    bradleyTerry: {
      converged: bt.converged,
      iterations: bt.iterations,
      bots: bt.bots.map((b) => ({ bot: b.bot, elo: b.elo, interval: b.interval, games: b.games })).sort((a, b) => b.elo - a.elo),
      sides: bt.sides.map((s) => ({ ...(keys.get(s.scenario) as ScenarioKey), side: s.side, winProbabilityEven: s.winProbabilityEven, interval: s.winProbabilityInterval, games: s.games })),
    },
    openskill: { bots: [...os.bots].sort((a, b) => b.ordinal - a.ordinal), mirrorMatches: os.mirrorMatches },
  };
}

/**
 * `compute` over the matches a filter selects, remembered until those matches change: the ratings
 * (openskill is sequential over every match: 0.6 s for 100 000) and the balance report (four scans and
 * the ratings) are what a dashboard asks again and again. The stamp (`matchesVersion`) costs a count;
 * `limit` filters are kept, least recent dropped.
 */
export function versionedCache<T>(compute: (t: Telemetry, filter: TelemetryFilter) => Promise<T>, limit = 32): (t: Telemetry, filter: TelemetryFilter) => Promise<T> {
  const memo = new Map<string, { version: string; value: Promise<T> }>();
  return async (t, filter) => {
    const key = JSON.stringify(filter, (_k, v: unknown) => (v instanceof Date ? v.toISOString() : v));
    const version = await t.matchesVersion(filter);
    const hit = memo.get(key);
    if (hit && hit.version === version) {
      memo.delete(key);
      memo.set(key, hit);
      return hit.value;
    }
    const value = compute(t, filter);
    memo.set(key, { version, value });
    value.catch(() => memo.delete(key));
    while (memo.size > limit) memo.delete(memo.keys().next().value as string);
    return value;
  };
}

/** Ratings of the matches a filter selects, remembered until they change (see `versionedCache`). */
export function ratingsCache(limit = 32): (t: Telemetry, filter: TelemetryFilter) => Promise<Ratings> {
  return versionedCache(async (t, filter) => ratingsOf(await t.results(filter)), limit);
}
