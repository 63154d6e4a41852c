import { describe, expect, it } from 'vitest';
import { createStopRule, standings, standingsText, type MatchOutcome } from '../src/index.ts';

let n = 0;
function outcome(kind: MatchOutcome['kind'], axis: [string, string?], allies: [string, string?], decisions: number, impulses: number, detail?: string): MatchOutcome {
  const [axisName, axisResult] = axis;
  const [alliesName, alliesResult] = allies;
  n++;
  return {
    matchId: `m${n}`,
    tournamentId: 't',
    pairId: `m${n}`,
    index: n,
    scenario: 'A',
    seed: n,
    kind,
    sides: axisResult && alliesResult ? { Axis: axisResult, Allies: alliesResult } : {},
    entrants: { Axis: axisName, Allies: alliesName },
    scores: {},
    decisions,
    impulses,
    wallMs: 1,
    ...(detail ? { detail } : {}),
  };
}

const OUTCOMES: MatchOutcome[] = [
  outcome('completed', ['A', 'win'], ['B', 'loss'], 10, 2),
  outcome('completed', ['B', 'draw'], ['A', 'draw'], 20, 4),
  outcome('forfeit', ['C', 'loss'], ['A', 'win'], 6, 1, 'Axis forfeits (timeout): took 12000 ms'),
  outcome('error', ['B'], ['C'], 3, 0, 'game threw'),
  outcome('cancelled', ['C'], ['B'], 0, 0),
  outcome('adjudicated', ['C', 'win'], ['B', 'loss'], 30, 6),
];

describe('standings', () => {
  it('counts a hand-worked example', () => {
    const rows = standings(OUTCOMES, ['A', 'B', 'C', 'D']);
    expect(rows.map((r) => r.name)).toEqual(['A', 'C', 'B', 'D']);
    const [a, c, b, d] = rows;
    // A: won 1 and 3, drew 2.
    expect(a).toEqual({
      name: 'A',
      games: 3,
      wins: 2,
      losses: 0,
      draws: 1,
      score: 2.5,
      scorePct: (100 * 2.5) / 3,
      bySide: { Axis: { games: 1, wins: 1, losses: 0, draws: 0 }, Allies: { games: 2, wins: 1, losses: 0, draws: 1 } },
      forfeits: 0,
      errors: 0,
      cancelled: 0,
      meanDecisions: 12,
      meanImpulses: 7 / 3,
    });
    // C: forfeited 3 (loss), won 6; seated in the error and the cancelled match.
    expect(c).toMatchObject({ games: 2, wins: 1, losses: 1, draws: 0, score: 1, scorePct: 50, forfeits: 1, errors: 1, cancelled: 1, meanDecisions: 18, meanImpulses: 3.5 });
    expect(c?.bySide).toEqual({ Axis: { games: 2, wins: 1, losses: 1, draws: 0 } });
    // B: lost 1 and 6, drew 2.
    expect(b).toMatchObject({ games: 3, wins: 0, losses: 2, draws: 1, score: 0.5, forfeits: 0, errors: 1, cancelled: 1, meanDecisions: 20, meanImpulses: 4 });
    expect(b?.bySide).toEqual({ Axis: { games: 1, wins: 0, losses: 0, draws: 1 }, Allies: { games: 2, wins: 0, losses: 2, draws: 0 } });
    // D never played.
    expect(d).toMatchObject({ games: 0, score: 0, scorePct: null, meanDecisions: null, meanImpulses: null, bySide: {} });
  });

  it('breaks score ties by name and lists entrants seen only in outcomes', () => {
    const rows = standings([outcome('completed', ['Zed', 'draw'], ['Amy', 'draw'], 1, 1)], ['Zed']);
    expect(rows.map((r) => [r.name, r.score])).toEqual([
      ['Amy', 0.5],
      ['Zed', 0.5],
    ]);
  });

  it('finds the forfeiting side from the result when the detail does not name it', () => {
    const rows = standings([outcome('forfeit', ['P', 'win'], ['Q', 'loss'], 1, 1)], ['P', 'Q']);
    expect(rows.find((r) => r.name === 'Q')?.forfeits).toBe(1);
    expect(rows.find((r) => r.name === 'P')?.forfeits).toBe(0);
  });

  it('draws an aligned plain text table', () => {
    const text = standingsText(standings(OUTCOMES, ['A', 'B', 'C', 'D']));
    const lines = text.split('\n');
    expect(lines).toHaveLength(2 + 4);
    expect(lines[0]).toMatch(/^#\s+Entrant\s+Games\s+W\s+L\s+D\s+Score\s+Score%\s+Allies W-L-D\s+Axis W-L-D\s+Forfeits\s+Errors\s+Cancelled\s+Decisions\s+Impulses$/);
    // Every column right-aligned up to the last, so every line is as long as the header.
    for (const l of lines) expect(l).toHaveLength((lines[0] as string).length);
    expect(lines[2]?.split(/\s+/)).toEqual(['1', 'A', '3', '2', '0', '1', '2.5', '83.3', '1-0-1', '1-0-0', '0', '0', '0', '12.0', '2.3']);
    expect(lines[5]?.split(/\s+/)).toEqual(['4', 'D', '0', '0', '0', '0', '0.0', '-', '-', '-', '0', '0', '0', '-', '-']);
  });
});

describe('stop rules', () => {
  it('fixed: stops once every planned match has an outcome, counting each match once', () => {
    const rule = createStopRule({ rule: 'fixed' }, { matches: 3 });
    const [first, second, third] = OUTCOMES as [MatchOutcome, MatchOutcome, MatchOutcome];
    rule.observe(first);
    rule.observe(first);
    rule.observe(second);
    expect(rule.decided()).toEqual({ stop: false });
    rule.observe(third);
    expect(rule.decided()).toEqual({ stop: true, reason: 'all 3 planned matches played' });
  });

  it('sprt: needs the candidate and baseline, then waits for both games of a pair (the rest in stop-rule.test.ts)', () => {
    const spec = { rule: 'sprt', elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05 } as const;
    expect(() => createStopRule(spec, { matches: 10 })).toThrow(/needs candidate and baseline/);
    const rule = createStopRule(spec, { matches: 10, candidate: 'A', baseline: 'B' });
    const [first, second] = OUTCOMES as [MatchOutcome, MatchOutcome];
    rule.observe(first);
    rule.observe(second);
    expect(rule.decided()).toEqual({ stop: false });
    expect(rule.status?.()).toMatchObject({ rule: 'sprt', pairs: 0, pendingPairs: 2, matchesSeen: 2 });
  });
});
