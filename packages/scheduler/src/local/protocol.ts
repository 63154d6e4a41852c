/** Messages between the local pool and its game threads (they carry `pool`, so the port can carry the sink's too). */
import type { MatchOutcome, PlannedMatch } from '../types.ts';

export type ToThread = { pool: 'play'; match: PlannedMatch } | { pool: 'abort' } | { pool: 'close' }
  /** For tests (`dieOn`): exit the thread as if it crashed. */
  | { pool: 'die' };
export type ToPool =
  | { pool: 'ready' }
  | { pool: 'done'; outcome: MatchOutcome }
  /** `playPlanned` threw (bad names, a store failure): the match cannot be played here. */
  | { pool: 'failed'; matchId: string; error: string }
  | { pool: 'closed'; error?: string };
