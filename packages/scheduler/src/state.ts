/**
 * One state per tournament, with its reason, whoever asks (the CLI's `tournament list` and `status`,
 * the API's list and page, the dashboard): `submitted` (on the queue, nothing started), `running`,
 * `stopped` (its SPRT decided, or it was cancelled), `finished` (its plan played out) or `failed` (matches
 * failed for good, or its runner died). The readers gather the facts (from the queue, or the store);
 * this turns them into the state and a one-line reason such as "stopped: SPRT accepted H1 after 135
 * pairs" or "failed: 3 matches failed (infrastructure)".
 */

export type TournamentState = 'submitted' | 'running' | 'stopped' | 'finished' | 'failed';

export const TOURNAMENT_STATES: readonly TournamentState[] = ['submitted', 'running', 'stopped', 'finished', 'failed'];

/** What is known of a tournament, from the queue or the store. */
export interface StateFacts {
  /** Matches in the plan. */
  planned: number;
  /** Matches finished with a result or an engine error (cancelled ones are not done). */
  done: number;
  /** Matches being played now (as far as the source can tell). */
  running: number;
  /** Matches handed to no one yet. */
  waiting: number;
  /** Matches failed for good without being played (queue jobs): by the infrastructure, or for bad input. */
  failed: { infrastructure: number; input: number };
  forfeits: number;
  errors: number;
  /** Whether its runner is still at work: queue jobs waiting or running; a local run heard of recently. */
  open: boolean;
  /** Whether any match has been handed out (a queue tournament with none is `submitted`). */
  started: boolean;
  /** Cancelled (queue flag, or a local run cancelled with Ctrl-C). */
  cancelled: boolean;
  /** The SPRT: the hypothesis accepted and after how many pairs, or undecided after how many. */
  sprt?: { accepted?: 'H0' | 'H1'; pairs: number; reason?: string };
  /** A local run that ended on an error, or whose runner went quiet: why (it is `failed`). */
  runFailed?: string;
}

export interface StateReport {
  state: TournamentState;
  /** `<state>: <why>`, one line. */
  reason: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The state and its reason; see the file comment for the order in which facts decide it. */
export function tournamentState(f: StateFacts): StateReport {
  const extras = [f.forfeits ? plural(f.forfeits, 'forfeit') : '', f.errors ? plural(f.errors, 'engine error') : ''].filter(Boolean);
  const withExtras = extras.length ? ` (${extras.join(', ')})` : '';
  const failed = f.failed.infrastructure + f.failed.input;
  const failedWhy =
    f.failed.infrastructure && f.failed.input
      ? `${f.failed.infrastructure} infrastructure, ${f.failed.input} bad input`
      : f.failed.infrastructure
        ? 'infrastructure'
        : 'bad input';
  if (f.sprt?.accepted) return { state: 'stopped', reason: `stopped: SPRT accepted ${f.sprt.accepted} after ${plural(f.sprt.pairs, 'pair')}` };
  if (f.cancelled) return { state: 'stopped', reason: `stopped: cancelled after ${f.done} of ${plural(f.planned, 'match', 'matches')}${withExtras}` };
  if (f.open) {
    if (!f.started) return { state: 'submitted', reason: `submitted: ${plural(f.planned, 'match', 'matches')} waiting for a worker` };
    const more = [f.running ? `${f.running} playing` : '', failed ? `${failed} failed (${failedWhy})` : '', ...extras].filter(Boolean);
    return { state: 'running', reason: `running: ${f.done} of ${plural(f.planned, 'match', 'matches')} done${more.length ? `, ${more.join(', ')}` : ''}` };
  }
  if (f.runFailed !== undefined) return { state: 'failed', reason: `failed: ${f.runFailed}` };
  if (failed) return { state: 'failed', reason: `failed: ${plural(failed, 'match', 'matches')} failed (${failedWhy})` };
  const played = f.done >= f.planned ? `all ${plural(f.planned, 'match', 'matches')} played` : `${f.done} of ${plural(f.planned, 'match', 'matches')} played`;
  const sprt = f.sprt ? `; SPRT undecided after ${plural(f.sprt.pairs, 'pair')}` : '';
  return { state: 'finished', reason: `finished: ${played}${withExtras}${sprt}` };
}
