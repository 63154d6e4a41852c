/**
 * Planning: a checked spec becomes the list of matches, in play order, with ids that depend only on
 * the spec. The order keeps a partial run balanced: seed rounds outermost, then scenarios, then
 * pairings, the two games of a side-swapped pair next to each other; so after any whole round every
 * pairing has played the same seeds on every scenario from both sides.
 */
import { hashJson, type JsonObject } from '@salient/engine';
import { resolveTournamentSpec, type SpecOptions } from './spec.ts';
import { createStopRule, stopContextOf } from './stop-rule.ts';
import { hashedEntrantNames } from './sweep-level.ts';
import type { EntrantSpec, PlannedMatch, TournamentPlan, TournamentSpec } from './types.ts';

/**
 * Plan `spec` (normalized by `parseTournamentSpec`; it is checked again here, with `o`). Without
 * `o.bots`, `ext:<name>` entrants are taken as given: they were checked when the spec was parsed, and
 * a stored spec planned again elsewhere (the API's SPRT view) has no bots file to check them against;
 * playing one that is not registered fails then. Deterministic: the same
 * spec gives the same ids in the same order on any machine.
 *
 * - Match id: hash of the tournament id, game, rules version, pack content hash, options, decision
 *   cap and timeout, time bank and strikes (when given), scenario, seed, and side -> (entrant, bot
 *   spec, version); a sweep's level goes in under its former name (see sweep-level.ts).
 * - Pair id: the same without the seating, so both games of a side-swapped pair share it; without side
 *   swap it equals the match id.
 * - Without side swap, the pairing's first entrant takes the first side on even seed rounds and the
 *   second side on odd ones.
 *
 * Throws `BAD_SPEC` for a bad spec, and for `stop: sprt` on a tournament that is not a two-entrant
 * gauntlet with side swap.
 */
export async function planTournament(spec: TournamentSpec, o: Omit<SpecOptions, 'baseDir'> = {}): Promise<TournamentPlan> {
  const r = await resolveTournamentSpec(spec, `tournament spec ${spec.id}`, { ...o, registeredAsGiven: o.bots === undefined });
  const s = r.spec;
  const tournamentId = s.id;
  const byName = new Map(s.entrants.map((e) => [e.name, e] as const));
  const pairs = pairingsOf(s).map(([a, b]) => [byName.get(a), byName.get(b)] as [EntrantSpec, EntrantSpec]);
  const basis = {
    tournamentId,
    game: s.game,
    rulesVersion: r.game.rulesVersion,
    packHash: r.pack.info.hash,
    options: s.options ?? {},
    decisionCap: s.decisionCap ?? null,
    decisionTimeoutMs: s.decisionTimeoutMs ?? null,
    // Only when given, so the ids of specs written before these fields existed stay the same.
    ...(s.timeBankMs !== undefined ? { timeBankMs: s.timeBankMs } : {}),
    ...(s.strikes !== undefined ? { strikes: s.strikes } : {}),
  };
  // Checks the stop rule can run on this plan (sprt: a two-entrant gauntlet with side swap).
  createStopRule(s.stop, stopContextOf(s));
  // A sweep's levels by their former names (`mcts@800`), so its match ids did not change when they were renamed.
  const hashed = new Map(hashedEntrantNames(s.format === 'strength-sweep' ? s.sweep : undefined, s.entrants).map((n, i) => [s.entrants[i]?.name, n] as const));
  const who = (e: EntrantSpec) => ({ name: hashed.get(e.name) ?? e.name, bot: e.bot, version: e.version ?? null });

  const matches: PlannedMatch[] = [];
  const add = (scenario: string, seed: number, sides: readonly [string, string], first: EntrantSpec, second: EntrantSpec, pairId?: string) => {
    const [s0, s1] = sides;
    const seats = { [s0]: first.bot, [s1]: second.bot };
    const entrants = { [s0]: first.name, [s1]: second.name };
    const id = hashJson({ ...basis, scenario, seed, seating: { [s0]: who(first), [s1]: who(second) } });
    matches.push({
      id,
      tournamentId,
      index: matches.length,
      pairId: pairId ?? id,
      game: s.game,
      pack: s.pack,
      scenario,
      ...(s.options ? { options: s.options as JsonObject } : {}),
      seed,
      seats,
      entrants,
      ...(s.decisionCap !== undefined ? { decisionCap: s.decisionCap } : {}),
      ...(s.decisionTimeoutMs !== undefined ? { decisionTimeoutMs: s.decisionTimeoutMs } : {}),
      ...(s.timeBankMs !== undefined ? { timeBankMs: s.timeBankMs } : {}),
      ...(s.strikes !== undefined ? { strikes: s.strikes } : {}),
    });
  };

  s.seeds.forEach((seed, round) => {
    for (const scenario of s.scenarios) {
      const sides = r.sides.get(scenario);
      if (!sides) throw new Error(`planTournament: no sides for checked scenario ${scenario}`);
      for (const [a, b] of pairs) {
        if (s.sideSwap) {
          const pairId = hashJson({ ...basis, scenario, seed, pair: [who(a), who(b)] });
          add(scenario, seed, sides, a, b, pairId);
          add(scenario, seed, sides, b, a, pairId);
        } else if (round % 2 === 0) add(scenario, seed, sides, a, b);
        else add(scenario, seed, sides, b, a);
      }
    }
  });

  // A collision would make two matches one job and one telemetry row; the spec checks rule it out.
  if (new Set(matches.map((m) => m.id)).size !== matches.length) throw new Error(`planTournament: duplicate match ids in ${tournamentId}`);
  return { tournamentId, spec: s, specHash: r.specHash, matches };
}

/** The pairings a spec plays, as entrant names in seating order of the first game. */
export function pairingsOf(spec: TournamentSpec): [string, string][] {
  const names = spec.entrants.map((e) => e.name);
  switch (spec.format) {
    case 'round-robin':
      return names.flatMap((a, i) => names.slice(i + 1).map((b) => [a, b] as [string, string]));
    case 'gauntlet': {
      const ref = spec.reference ?? '';
      return names.filter((n) => n !== ref).map((n) => [ref, n] as [string, string]);
    }
    case 'pairings':
      return (spec.pairings ?? []).map(([a, b]) => [a, b] as [string, string]);
    case 'strength-sweep':
      // Each level plays itself: a mirror match, so no side swap (it would replay the same game).
      return names.map((n) => [n, n] as [string, string]);
  }
}
