/** Messages between the local pool and its game threads (they carry `pool`, so the port can carry the sink's too). */
import type { MatchOutcome, PlannedMatch } from '../types.ts';

/**
 * `play` queues a match in the thread (played in order); `abort` stops the running one and drops the
 * queued ones; `drop` (a stop rule decided) drops the queued ones and lets the running one finish.
 */
export type ToThread =
  /** `die` (tests, `dieOn`): exit the thread as if it crashed when this match comes up. */
  | { pool: 'play'; match: PlannedMatch; die?: boolean }
  | { pool: 'abort' }
  | { pool: 'drop' }
  | { pool: 'close' };
export type ToPool =
  | { pool: 'ready' }
  | { pool: 'done'; outcome: MatchOutcome }
  /** `playPlanned` threw (bad names, a store failure): the match cannot be played here. */
  | { pool: 'failed'; matchId: string; error: string }
  /** Handed out but dropped unplayed on `abort` or `drop`. */
  | { pool: 'dropped'; matchId: string }
  | { pool: 'closed'; error?: string }
  /** An external bot's process group started (`alive`) or was killed and reaped: the pool kills what a terminated thread leaves. */
  | { pool: 'bot-process'; pid: number; alive: boolean };
