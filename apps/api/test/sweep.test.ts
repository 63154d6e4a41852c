/**
 * The strength-sweep report's arithmetic on known tallies: the χ² step test against the two-proportion
 * z-test worked by hand, each step verdict, and the stopped-moving rule on cases each way (Newcombe's
 * interval, which the steps use, is checked against his published values in packages/stats).
 */
import { describe, expect, it } from 'vitest';
import type { WinRateRow } from '@salient/telemetry';
import { factorText, sweepLines, sweepScenario, sweepStep, sweepVerdict, type SweepStep, type SweepTally } from '../src/index.ts';

const tally = (axis: number, allies: number, draws = 0): SweepTally => ({
  sides: [
    { side: 'Axis', wins: axis },
    { side: 'Allies', wins: allies },
  ],
  draws,
});

describe('sweepStep', () => {
  it('without draws its test is the two-proportion z-test: 30/100 against 45/100 gives p = 0.0285 (z = 2.191), moved', () => {
    const s = sweepStep(10, tally(30, 70), 40, tally(45, 55));
    expect(s.pValue).toBeCloseTo(0.02846, 4);
    expect(s.verdict).toBe('moved');
    expect(s.changes.map((c) => [c.side, Number(c.change.toFixed(2))])).toEqual([
      ['Axis', 0.15],
      ['Allies', -0.15],
    ]);
  });

  it('held: 0 of 100 then 1 of 100 for the Axis — not separated, and each change within ±10 points', () => {
    const s = sweepStep(1, tally(0, 100), 4, tally(1, 99));
    expect(s.pValue).toBeGreaterThan(0.05);
    for (const c of s.changes) {
      expect(c.interval.low).toBeGreaterThan(-0.1);
      expect(c.interval.high).toBeLessThan(0.1);
    }
    expect(s.verdict).toBe('held');
    // The same figures with a tighter margin cannot show so small a change: unclear.
    expect(sweepStep(1, tally(0, 100), 4, tally(1, 99), 0.03).verdict).toBe('unclear');
  });

  it('unclear: 2 of 10 then 3 of 10 — not separated, but the interval is far wider than the margin', () => {
    expect(sweepStep(1, tally(2, 8), 4, tally(3, 7)).verdict).toBe('unclear');
  });

  it('counts draws as an outcome of their own, and a level with no games makes the step unclear', () => {
    // Same wins for each side, draws replacing losses of both: the outcome mix changed.
    const s = sweepStep(1, tally(50, 50, 0), 4, tally(25, 25, 50));
    expect(s.verdict).toBe('moved');
    expect(sweepStep(1, tally(0, 0), 4, tally(5, 5)).verdict).toBe('unclear');
  });
});

const step = (from: number, to: number, verdict: SweepStep['verdict']): SweepStep => ({ from, to, pValue: verdict === 'moved' ? 0.001 : 0.5, changes: [{ side: 'Axis', change: 0.3, interval: { low: 0.2, high: 0.4 } }], verdict });

describe('sweepVerdict: has it stopped moving?', () => {
  const levels = (...v: SweepStep['verdict'][]) => [{ level: 25, games: 40 }, ...v.map((x, i) => ({ level: 25 * 4 ** (i + 1), games: 40, step: step(25 * 4 ** i, 25 * 4 ** (i + 1), x) }))];

  it('moved then held: stopped moving at ×4', () => {
    const v = sweepVerdict(levels('moved', 'held'), 'iterations');
    expect(v).toMatchObject({ status: 'stopped moving', level: 100 });
    expect(v.text).toMatch(/^stopped moving at iterations 100 \(×4\)/);
  });

  it('held all the way: stopped moving at the first level', () => {
    expect(sweepVerdict(levels('held', 'held'), 'iterations')).toMatchObject({ status: 'stopped moving', level: 25 });
  });

  it('held, moved, held: only the run of held steps at the top counts, so it stopped at ×16', () => {
    expect(sweepVerdict(levels('held', 'moved', 'held'), 'iterations')).toMatchObject({ status: 'stopped moving', level: 400 });
  });

  it('the last step moved: still moving, however the steps below went', () => {
    const v = sweepVerdict(levels('held', 'moved'), 'iterations');
    expect(v.status).toBe('still moving');
    expect(v.text).toMatch(/from iterations 100 \(×4\) to iterations 400 \(×16\), Axis \+30\.0 points/);
  });

  it('the last step unclear, or fewer than two levels with games: not enough games', () => {
    expect(sweepVerdict(levels('moved', 'unclear'), 'iterations').status).toBe('not enough games');
    const one = sweepVerdict([{ level: 25, games: 40 }, { level: 100, games: 0 }], 'iterations');
    expect(one.status).toBe('not enough games');
    expect(one.text).toMatch(/1 of 2 levels have results/);
  });

  it('names levels by their factor over the first', () => {
    expect([1, 4, 2.5, 16].map(factorText)).toEqual(['×1', '×4', '×2.5', '×16']);
  });
});

describe('sweepScenario', () => {
  const key = { game: 'blitz', scenario: 'A', packId: 'approximation', packHash: 'abcdef0123456789', rulesVersion: '1' };
  const rows = (bot: string, axis: number, allies: number, draws: number): WinRateRow[] => {
    const games = axis + allies + draws;
    return [
      { ...key, side: 'Axis', bot, games, wins: axis, losses: allies, draws, winRate: axis / games },
      { ...key, side: 'Allies', bot, games, wins: allies, losses: axis, draws, winRate: allies / games },
    ];
  };

  it('reports each side per level with its Wilson interval and the draws, and the verdict over the levels', () => {
    const s = sweepScenario({ ...key, tournament: 't' }, { bot: 'mcts:rollout=0', param: 'iterations', levels: [10, 40, 160] }, [
      { level: 10, entrant: 'mcts iterations=10', bot: 'mcts:iterations=10,rollout=0', rows: rows('mcts:iterations=10,rollout=0@1', 2, 96, 2), lengths: [] },
      { level: 40, entrant: 'mcts iterations=40', bot: 'mcts:iterations=40,rollout=0', rows: rows('mcts:iterations=40,rollout=0@1', 30, 70, 0), lengths: [] },
      { level: 160, entrant: 'mcts iterations=160', bot: 'mcts:iterations=160,rollout=0', rows: rows('mcts:iterations=160,rollout=0@1', 31, 69, 0), lengths: [], forfeits: 3 },
    ], { sides: ['Axis', 'Allies'], powers: new Map([['Axis', ['GER']], ['Allies', ['AFA']]]) });
    expect(s.levels.map((l) => [l.level, l.factor, l.games, l.draws])).toEqual([
      [10, 1, 100, 2],
      [40, 4, 100, 0],
      [160, 16, 100, 0],
    ]);
    const axis = s.levels[0]!.sides[0]!;
    expect(axis).toMatchObject({ side: 'Axis', powers: ['GER'], wins: 2, games: 100, winRate: 0.02 });
    expect(axis.interval.low).toBeCloseTo(0.0055, 4);
    expect(axis.interval.high).toBeCloseTo(0.0700, 4);
    expect(s.levels.map((l) => l.step?.verdict)).toEqual([undefined, 'moved', 'unclear']);
    // 30 → 31 of 100: not separated, but 100 games cannot show the change is within ±10 points.
    expect(s.verdict.status).toBe('not enough games');
    const text = sweepLines({ filter: {}, margin: 0.1, scenarios: [s] }).join('\n');
    expect(text).toMatch(/^ {4}Axis \(GER\): won 2 of 100, 2\.0% \(0\.6%–7\.0%\)$/m);
    expect(text).toMatch(/iterations 10 \(×1\): 100 games, 2 drawn/);
    expect(text).toMatch(/Verdict: not enough games/);
    // Forfeits are counted as the store counts them, and said.
    expect(text).toMatch(/iterations 160 \(×16\): 100 games, 3 forfeited \(counted as won by the other side\)/);
    expect(text).toMatch(/Warning: 3 of 300 games were forfeits, not played out/);
    // An entrant whose name says more than its level is named.
    const named = { ...s, levels: s.levels.map((l, i) => (i === 0 ? { ...l, entrant: 'baseline' } : l)) };
    expect(sweepLines({ filter: {}, margin: 0.1, scenarios: [named] }).join('\n')).toMatch(/iterations 10 \(×1, baseline\): 100 games/);
    // A level of one game says "1 game".
    const single = { ...s, levels: s.levels.map((l, i) => (i === 2 ? { ...l, games: 1, forfeits: 0 } : l)) };
    expect(sweepLines({ filter: {}, margin: 0.1, scenarios: [single] }).join('\n')).toMatch(/iterations 160 \(×16\): 1 game;?$/m);
  });
});
