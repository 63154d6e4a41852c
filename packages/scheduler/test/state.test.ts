/** One state per tournament with its reason, from the facts a reader gathered (queue or store). */
import { describe, expect, it } from 'vitest';
import { tournamentState, type StateFacts } from '../src/index.ts';

const base: StateFacts = {
  planned: 200,
  done: 0,
  running: 0,
  waiting: 200,
  failed: { infrastructure: 0, input: 0 },
  forfeits: 0,
  errors: 0,
  open: true,
  started: false,
  cancelled: false,
};

describe('tournamentState', () => {
  it('submitted, then running, then finished', () => {
    expect(tournamentState(base)).toEqual({ state: 'submitted', reason: 'submitted: 200 matches waiting for a worker' });
    expect(tournamentState({ ...base, started: true, done: 40, running: 2, waiting: 158, forfeits: 1 })).toEqual({
      state: 'running',
      reason: 'running: 40 of 200 matches done, 2 playing, 1 forfeit',
    });
    expect(tournamentState({ ...base, started: true, open: false, done: 200, waiting: 0, forfeits: 2, errors: 1 })).toEqual({
      state: 'finished',
      reason: 'finished: all 200 matches played (2 forfeits, 1 engine error)',
    });
  });

  it('stopped by the SPRT (whatever is still running) or by a cancel; a plan that ran out first is finished, undecided', () => {
    expect(tournamentState({ ...base, started: true, done: 270, running: 2, sprt: { accepted: 'H1', pairs: 135 } })).toEqual({ state: 'stopped', reason: 'stopped: SPRT accepted H1 after 135 pairs' });
    expect(tournamentState({ ...base, started: true, open: false, done: 40, cancelled: true })).toEqual({ state: 'stopped', reason: 'stopped: cancelled after 40 of 200 matches' });
    expect(tournamentState({ ...base, started: true, open: false, done: 200, sprt: { pairs: 100 } })).toEqual({ state: 'finished', reason: 'finished: all 200 matches played; SPRT undecided after 100 pairs' });
  });

  it('failed: matches failed for good once nothing is left to run, or a run that died; failures while running are told', () => {
    expect(tournamentState({ ...base, started: true, open: false, done: 197, waiting: 0, failed: { infrastructure: 3, input: 0 } })).toEqual({ state: 'failed', reason: 'failed: 3 matches failed (infrastructure)' });
    expect(tournamentState({ ...base, started: true, open: false, done: 198, waiting: 0, failed: { infrastructure: 1, input: 1 } }).reason).toBe('failed: 2 matches failed (1 infrastructure, 1 bad input)');
    expect(tournamentState({ ...base, started: true, done: 10, running: 1, failed: { infrastructure: 0, input: 2 } }).reason).toBe('running: 10 of 200 matches done, 1 playing, 2 failed (bad input)');
    expect(tournamentState({ ...base, started: true, open: false, done: 12, runFailed: 'its run stopped on an error' })).toEqual({ state: 'failed', reason: 'failed: its run stopped on an error' });
  });
});
