import { describe, expect, it } from 'vitest';
import type { MatchOutcome } from '../src/index.ts';
import { leaders } from '../src/local/index.ts';

/** A finished match: `entrants` by side, `won` the winning side (or 'draw', or 'error' for none). */
function outcome(i: number, entrants: Record<string, string>, won: string): MatchOutcome {
  const sides = won === 'error' ? {} : Object.fromEntries(Object.keys(entrants).map((s) => [s, won === 'draw' ? 'draw' : s === won ? 'win' : 'loss']));
  return { matchId: `m${i}`, tournamentId: 't', pairId: `p${i}`, index: i, scenario: 'A', seed: i, kind: won === 'error' ? 'error' : 'completed', sides, entrants, scores: {}, decisions: 1, impulses: 1, wallMs: 1 };
}

describe('progress leaders', () => {
  it('ranks entrants by score, a draw counting half, and keeps the top ones', () => {
    const o = [
      outcome(0, { Axis: 'greedy', Allies: 'random' }, 'Axis'),
      outcome(1, { Axis: 'random', Allies: 'greedy' }, 'draw'),
      outcome(2, { Axis: 'mcts', Allies: 'greedy' }, 'Allies'),
    ];
    expect(leaders(o, 3)).toBe('greedy 83.3%, random 25.0%, mcts 0.0%');
    expect(leaders(o, 1)).toBe('greedy 83.3%');
  });

  it("shows a sweep's levels (each playing itself) as wins by side, not their 50%", () => {
    const o = [
      outcome(0, { Axis: 'plan evals=100', Allies: 'plan evals=100' }, 'Axis'),
      outcome(1, { Axis: 'plan evals=25', Allies: 'plan evals=25' }, 'Allies'),
      outcome(2, { Axis: 'plan evals=100', Allies: 'plan evals=100' }, 'Axis'),
      outcome(3, { Axis: 'plan evals=25', Allies: 'plan evals=25' }, 'draw'),
      outcome(4, { Axis: 'plan evals=400', Allies: 'plan evals=400' }, 'error'),
      outcome(5, { Axis: 'plan evals=100', Allies: 'plan evals=100' }, 'Allies'),
    ];
    // Levels in numeric order (25 before 100), the errored match left out.
    expect(leaders(o, 3)).toBe('plan evals=25: Allies 1, Axis 0, 1 drawn; plan evals=100: Allies 1, Axis 2');
  });
});
