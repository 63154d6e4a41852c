/**
 * The scheduler's shared shapes: a planned match (everything a worker anywhere needs to play it, as
 * plain JSON so it travels in a BullMQ job or a worker-thread message), a tournament plan, and the
 * outcome a worker reports back. Both executors (local pool, BullMQ) speak these.
 */
import type { JsonObject } from '@salient/engine';

/** One match of a tournament, fully resolved. Plain JSON. */
export interface PlannedMatch {
  /** Deterministic match id (telemetry `match_id`, BullMQ job id): same spec -> same ids. */
  id: string;
  tournamentId: string;
  /** Position in the plan (0-based); executors report in this order when they can. */
  index: number;
  /** Shared by the two games of a side-swapped pair (same seed, sides exchanged); equals `id` otherwise. */
  pairId: string;
  /** Game id, pack (bundled id or directory), scenario id, scenario options. */
  game: string;
  pack: string;
  scenario: string;
  options?: JsonObject;
  seed: number;
  /** Side id -> bot spec that `createBot` understands (`random`, `greedy:depth=1`). */
  seats: Record<string, string>;
  /** Side id -> entrant name from the spec (for standings). */
  entrants: Record<string, string>;
  decisionCap?: number;
  decisionTimeoutMs?: number;
  /** Per-seat time bank and strikes (`MatchSpec.timeBankMs`, `strikes`); absent: the runner's defaults. */
  timeBankMs?: number;
  strikes?: number;
}

/** How a finished match came out, as the executors report it and standings count it. Plain JSON. */
export interface MatchOutcome {
  matchId: string;
  tournamentId: string;
  pairId: string;
  index: number;
  scenario: string;
  seed: number;
  /** Runner termination kind: completed, adjudicated, forfeit, error, cancelled. */
  kind: 'completed' | 'adjudicated' | 'forfeit' | 'error' | 'cancelled';
  /** Side id -> outcome (`win`, `loss`, `draw`); empty for `error` and `cancelled`. */
  sides: Record<string, string>;
  /** Side id -> entrant name (copied from the plan). */
  entrants: Record<string, string>;
  /** Score per power (empty for `error` and `cancelled`). */
  scores: Record<string, number>;
  decisions: number;
  impulses: number;
  wallMs: number;
  /** Why a forfeit or error happened, for the user. */
  detail?: string;
  /** Which worker played it (host:pid or thread id). */
  worker?: string;
}

/**
 * How entrants are paired. `strength-sweep`: one bot at rising strength, each level playing itself
 * (the entrants are the levels, made from {@link SweepSpec}).
 */
export type TournamentFormat = 'round-robin' | 'gauntlet' | 'pairings' | 'strength-sweep';

/**
 * What a `strength-sweep` varies: one bot parameter over rising levels. Each level is an entrant named
 * `<bot name> <param>=<level>` (`mcts iterations=800`; `mcts@800` in sweeps recorded before
 * 2026-11-30) whose bot spec is `bot` with `param` set to the level.
 */
export interface SweepSpec {
  /** The bot spec without the swept parameter, parameters sorted by key (`mcts:rollout=0`). */
  bot: string;
  /** The parameter that sets the bot's strength (`iterations`, `evals`). */
  param: string;
  /** Its values, rising (at least two). */
  levels: number[];
}

/** One entrant of a normalized spec. */
export interface EntrantSpec {
  /** Unique within the tournament; standings and `PlannedMatch.entrants` use it. */
  name: string;
  /** Full bot spec for `createBot`, spec params merged in, parameters sorted by key (`greedy:chance=0`). */
  bot: string;
  /** The bot's version: the registered one, or as pinned by the spec (must then match). */
  version?: string;
}

/** When to stop a tournament early. `fixed`: never, the plan is played to its end. */
export type StopSpec =
  | { rule: 'fixed' }
  | {
      rule: 'sprt';
      /**
       * Elo difference of the null and alternative hypotheses (elo0 < elo1), in normalized Elo as
       * fishtest uses it. Needs a gauntlet of two entrants (the reference is the baseline) with side swap.
       */
      elo0: number;
      elo1: number;
      /** False positive and false negative rates, each in (0, 0.5]. */
      alpha: number;
      beta: number;
    };

/**
 * A checked tournament spec with every default filled in (see `parseTournamentSpec` for the
 * meaning of each field). Plain JSON; checking it again gives it back unchanged.
 */
export interface TournamentSpec {
  id: string;
  name?: string;
  game: string;
  /** Bundled pack id, or the absolute path of a pack directory. */
  pack: string;
  scenarios: string[];
  /** Scenario options; absent when empty. */
  options?: JsonObject;
  entrants: EntrantSpec[];
  format: TournamentFormat;
  /** Entrant every other entrant plays (`gauntlet` only). */
  reference?: string;
  /** Entrant name pairs (`pairings` only). */
  pairings?: [string, string][];
  /** The bot, parameter and levels (`strength-sweep` only); `entrants` are then its levels. */
  sweep?: SweepSpec;
  /** Games per pairing per scenario (counting both games of a side-swapped pair). */
  gamesPerPairing: number;
  sideSwap: boolean;
  /** The seeds every pairing plays, in round order (gamesPerPairing / 2 with side swap, else gamesPerPairing). */
  seeds: number[];
  decisionTimeoutMs?: number;
  decisionCap?: number;
  timeBankMs?: number;
  strikes?: number;
  stop: StopSpec;
}

/** A tournament planned into matches, in play order. Plain JSON. */
export interface TournamentPlan {
  tournamentId: string;
  spec: TournamentSpec;
  /** Hash of everything in the spec that decides how the matches are played (not `id` or `name`). */
  specHash: string;
  matches: PlannedMatch[];
}
