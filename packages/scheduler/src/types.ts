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
