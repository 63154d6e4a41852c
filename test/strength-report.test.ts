/**
 * The strength ladder's report arithmetic (bench/strength-report.ts, used by `npm run bench:strength`)
 * on a handful of made-up outcomes whose counts, rates and intervals are worked out by hand below.
 */
import type { MatchOutcome } from '@salient/scheduler';
import { bradleyTerry } from '@salient/stats';
import { describe, expect, it } from 'vitest';
import { gamesPerScenario, proposal, ratings, report, tallyOutcomes, type Calibration, type ReportInput, type ReportLeg, type StoredMatch } from '../bench/strength-report.ts';

const machine = { date: '2026-11-30', node: 'v20.19.0', cpu: 'Test CPU', nproc: 2, memGB: 8 };
const round = (n: number) => Math.round(n);

describe('gamesPerScenario (BENCH_GAMES)', () => {
  it('is undefined for every scenario when unset, one number for all, or one per named scenario', () => {
    expect(gamesPerScenario(undefined)('A')).toBeUndefined();
    expect(gamesPerScenario(' ')('A')).toBeUndefined();
    const all = gamesPerScenario('20');
    expect([all('A'), all('1918')]).toEqual([20, 20]);
    const per = gamesPerScenario('A:40, B:20');
    expect([per('A'), per('B'), per('D')]).toEqual([40, 20, undefined]);
  });

  it('rejects an odd, too small or unreadable count, naming it', () => {
    for (const v of ['A:3', '3', '0', 'A:0', 'A:x', 'A:40,B:7', '2.5', 'A']) expect(() => gamesPerScenario(v), v).toThrow(/BENCH_GAMES: .*even whole number of at least 2/);
    expect(() => gamesPerScenario('A:40,B:7')).toThrow(/'B:7'/);
    expect(gamesPerScenario('A:2')('A')).toBe(2);
  });
});

describe('proposal (the calibration’s next iteration count)', () => {
  // Passes as the bench records them: total ms over the decisions at each iteration count.
  const pass = (iterations: number, msPerDecision: number, decisions = 10) => ({ iterations, ms: msPerDecision * decisions, decisions });

  it('recovers the iterations for the target on a power law t = a·i^k through two passes', () => {
    // t = 0.01 · i^1.5: 10 ms at 100, 80 ms at 400; 40 ms at i = (40 / 0.01)^(2/3) = 4000^(2/3) = 251.98.
    expect(proposal([pass(100, 10), pass(400, 80)], 40, round)).toBe(252);
    // The same from either order, and from two points on one side of the target (k still 1.5):
    // t = 2.5 ms at i = (250)^(2/3) = 39.69.
    expect(proposal([pass(400, 80), pass(100, 10)], 40, round)).toBe(252);
    expect(proposal([pass(100, 10), pass(400, 80)], 2.5, round)).toBe(40);
    // t = 0.5 · i (k = 1): 30 ms at 60.
    expect(proposal([pass(20, 10), pass(40, 20)], 30, round)).toBe(60);
  });

  it('brackets the target with the nearest passes on either side, not the last two', () => {
    // Passes at 100 (10 ms) and 400 (80 ms) bracket 40 ms; a third far above at 1600 (640 ms) would
    // give the same exponent here, so make it off the curve: 1600 at 1000 ms. Bracketing still uses
    // 100 and 400 and answers 252; the last two (1600, 400) would give k = ln(12.5)/ln 4 = 1.82 and 400 · 0.5^(1/1.82) = 273.
    expect(proposal([pass(100, 10), pass(1600, 1000), pass(400, 80)], 40, round)).toBe(252);
  });

  it('is proportional after one pass, at most a factor of 8 away, and clamped', () => {
    expect(proposal([pass(100, 10)], 25, round)).toBe(250);
    expect(proposal([pass(100, 1)], 100, round)).toBe(800);
    expect(proposal([pass(100, 100)], 1, round)).toBe(13); // 100 / 8 = 12.5
    expect(proposal([pass(100, 10)], 25, (n) => Math.min(200, Math.round(n)))).toBe(200);
  });

  it('takes the exponent as 1 where the passes give none that makes sense', () => {
    // Time falling with the iterations (k < 0): proportional from the pass nearer the target, 100 at 25 ms -> 120 at 30 ms.
    expect(proposal([pass(100, 25), pass(200, 20)], 30, round)).toBe(120);
    // Nearly flat (k = ln(1.1)/ln 2 = 0.14 < 0.2): the same, 200 at 22 ms -> 300 at 33 ms.
    expect(proposal([pass(100, 20), pass(200, 22)], 33, round)).toBe(300);
  });

  it('keeps the last iterations when no pass measured any time, and 1 with no passes', () => {
    expect(proposal([pass(100, 0), pass(150, 0)], 30, round)).toBe(150);
    expect(proposal([], 30, round)).toBe(1);
  });
});

// Two legs as the bench plays them: Blitz! A (4 games per pairing, calibrated) and E&A 1918 (2, iterations given).
const calibrationA: Calibration = {
  from: 300,
  chosen: 160,
  passes: [
    { iterations: 300, ms: 500, decisions: 10 },
    { iterations: 100, ms: 100, decisions: 10 },
  ],
  target: { ms: 400, decisions: 10 },
  games: 4,
  given: false,
  cap: 600,
};
const entrants = [
  { name: 'greedy', bot: 'greedy' },
  { name: 'mcts', bot: 'mcts:iterations=300,rollout=0' },
  { name: 'plan', bot: 'plan' },
];
const legs: ReportLeg[] = [
  { key: 'blitz/A', spec: { entrants, pairings: [['greedy', 'mcts'], ['mcts', 'plan']], gamesPerPairing: 4 }, plan: { tournamentId: 'tA' }, calibration: calibrationA },
  {
    key: 'empires-alliances/1918',
    spec: { entrants, pairings: [['mcts', 'plan']], gamesPerPairing: 2 },
    plan: { tournamentId: 't1918' },
    calibration: { from: 20, chosen: 40, passes: [], target: { ms: 0, decisions: 0 }, games: 0, given: true },
  },
];

function outcome(matchId: string, tournamentId: string, kind: MatchOutcome['kind'], entrantsBySide: Record<string, string>, sides: Record<string, string>, decisions: number): MatchOutcome {
  return { matchId, tournamentId, pairId: matchId, index: 0, scenario: tournamentId === 'tA' ? 'A' : '1918', seed: 1, kind, sides, entrants: entrantsBySide, scores: {}, decisions, impulses: 0, wallMs: 0 };
}

// A: mcts and plan on both sides of two seeds, and one greedy–mcts game that failed.
const outcomes: MatchOutcome[] = [
  outcome('a1', 'tA', 'completed', { Axis: 'mcts', Allies: 'plan' }, { Axis: 'win', Allies: 'loss' }, 20),
  outcome('a2', 'tA', 'completed', { Axis: 'plan', Allies: 'mcts' }, { Axis: 'win', Allies: 'loss' }, 20),
  outcome('a3', 'tA', 'completed', { Axis: 'mcts', Allies: 'plan' }, { Axis: 'loss', Allies: 'win' }, 20),
  outcome('a4', 'tA', 'completed', { Axis: 'plan', Allies: 'mcts' }, { Axis: 'draw', Allies: 'draw' }, 20),
  outcome('a5', 'tA', 'error', { Axis: 'greedy', Allies: 'mcts' }, {}, 20),
  outcome('e1', 't1918', 'adjudicated', { CP: 'mcts', AL: 'plan' }, { CP: 'loss', AL: 'win' }, 200),
];
// Think time: mcts 50 ms a match in A (10 decisions), plan 200 ms; the failed match's time counts too.
const stored = new Map<string, StoredMatch>([
  ['a1', { thinkMs: { Axis: 50, Allies: 200 }, decisions: { Axis: 10, Allies: 10 }, axisTookParis: true }],
  ['a2', { thinkMs: { Axis: 200, Allies: 50 }, decisions: { Axis: 10, Allies: 10 }, axisTookParis: true }],
  ['a3', { thinkMs: { Axis: 50, Allies: 200 }, decisions: { Axis: 10, Allies: 10 }, axisTookParis: false }],
  ['a4', { thinkMs: { Axis: 200, Allies: 50 }, decisions: { Axis: 10, Allies: 10 }, axisTookParis: true }],
  ['a5', { thinkMs: { Axis: 30, Allies: 70 }, decisions: { Axis: 10, Allies: 10 } }],
  ['e1', { thinkMs: { CP: 1000, AL: 5000 }, decisions: { CP: 100, AL: 100 } }],
]);
const input: ReportInput = {
  legs,
  outcomes,
  stored,
  threads: 2,
  wallS: 12,
  played: outcomes.length,
  tunedName: 'mcts',
  targetName: 'plan',
  specPaths: ['examples/tournaments/blitz-ladder.yaml', 'examples/tournaments/ea-ladder.yaml'],
  machine,
};

describe('tallyOutcomes', () => {
  const t = tallyOutcomes(legs, outcomes, stored);

  it('counts attack and defence by bot, scenario and overall (attacker: the Axis in A, the CP in 1918)', () => {
    const get = (k: string) => t.tallies.get(k);
    expect(get('mcts|attack|blitz/A')).toEqual({ games: 2, wins: 1, draws: 0 });
    expect(get('mcts|defence|blitz/A')).toEqual({ games: 2, wins: 0, draws: 1 });
    expect(get('plan|attack|blitz/A')).toEqual({ games: 2, wins: 1, draws: 1 });
    expect(get('plan|defence|blitz/A')).toEqual({ games: 2, wins: 1, draws: 0 });
    expect(get('mcts|attack|all')).toEqual({ games: 3, wins: 1, draws: 0 });
    expect(get('plan|defence|all')).toEqual({ games: 3, wins: 2, draws: 0 });
    // The failed match has no result: neither bot has a decided game from it.
    expect(get('greedy|attack|blitz/A')).toBeUndefined();
    expect(t.kinds).toEqual({ completed: 4, error: 1, adjudicated: 1 });
    expect(t.decisions).toBe(300);
  });

  it('rates the decided games only, each under its scenario key', () => {
    expect(t.rated).toHaveLength(5);
    expect(t.ratedBy.get('blitz/A')).toHaveLength(4);
    expect(t.ratedBy.get('empires-alliances/1918')).toEqual([
      { scenario: 'empires-alliances/1918', sides: [{ side: 'CP', bot: 'mcts', result: 'loss' }, { side: 'AL', bot: 'plan', result: 'win' }] },
    ]);
    const r = ratings(t);
    expect(r.fit?.bots.map((b) => b.bot).sort()).toEqual(['mcts', 'plan']);
    expect([...r.fits.keys()]).toEqual(['blitz/A', 'empires-alliances/1918']);
    expect(r.fit?.bots).toEqual(bradleyTerry(t.rated).bots);
  });

  it('adds think time per bot, the failed match included, and counts Paris for the Axis in A', () => {
    expect(t.times.get('mcts|blitz/A')).toEqual({ ms: 270, decisions: 50 });
    expect(t.times.get('plan|blitz/A')).toEqual({ ms: 800, decisions: 40 });
    expect(t.times.get('mcts|all')).toEqual({ ms: 1270, decisions: 150 });
    expect(t.times.get('greedy|all')).toEqual({ ms: 30, decisions: 10 });
    expect(t.paris.get('mcts')).toEqual({ games: 2, took: 1, won: 1 });
    expect(t.paris.get('plan')).toEqual({ games: 2, took: 2, won: 1 });
    expect(t.paris.has('greedy')).toBe(false);
  });
});

describe('report', () => {
  const text = report(input);
  const lines = text.split('\n');

  it('heads the block with the run and closes it', () => {
    expect(lines[0]).toBe('<!-- bench-strength:2026-11-30|v20.19.0|Test CPU -->');
    expect(lines[1]).toBe('### Bot strength ladder · 2026-11-30 · Node v20.19.0 · Test CPU (nproc 2, 8 GB)');
    expect(lines.at(-1)).toBe('<!-- bench-strength:end -->');
    expect(text).toContain(
      'on A, E&A 1918: 4 on A; 2 on E&A 1918 games per pairing per scenario (each seed played twice with the sides exchanged), pairings greedy–mcts, mcts–plan; 6 matches on 2 threads in 12 s (0.50 games/s, 25 decisions/s of both seats, store writes included). Endings: completed 4, error 1, adjudicated 1.',
    );
    expect(report({ ...input, played: 2 })).toContain('(2 played in this run on 2 threads in 12 s, the others found in the ledger or BENCH_STORE: no games/s for a resumed run)');
    expect(report({ ...input, threads: 1 })).toContain('6 matches on 1 thread in 12 s');
    expect(report({ ...input, played: 0 })).toContain('matches (all from the ledger or BENCH_STORE: none played in this run). Endings:');
  });

  it('tables the calibration and the ladder’s ms per decision', () => {
    // plan 400/10 = 40 ms in calibration; mcts at 300 and 100 iterations 50 and 10; in the ladder plan 800/40, mcts 270/50 (A), 5000/100 and 1000/100 (1918).
    expect(lines).toContain('| A | 4 | 40.00 | 300: 50.00; 100: 10.00 | 600 | 160 | 20.00 | 5.40 |');
    expect(lines).toContain('| E&A 1918 | given (BENCH_ITERATIONS) | – | – | – | 40 | 50.00 | 10.00 |');
    // A calibration read from the ledger says which machine measured it (no `|` inside a table cell).
    const recorded = legs.map((l) => (l.key === 'blitz/A' ? { ...l, calibration: { ...l.calibration!, recorded: '2026-11-29|v20.20.2|Other CPU' } } : l));
    expect(report({ ...input, legs: recorded })).toContain('| A | 4 (ledger: 2026-11-29 · v20.20.2 · Other CPU) | 40.00 | 300: 50.00; 100: 10.00 | 600 |');
    // A ledger line from before the cap was kept: the cap is not known, and the table says so.
    const capless = legs.map((l) => {
      if (l.key !== 'blitz/A') return l;
      const { cap: _, ...calibration } = l.calibration!;
      return { ...l, calibration };
    });
    expect(report({ ...input, legs: capless }).split('\n')).toContain('| A | 4 | 40.00 | 300: 50.00; 100: 10.00 | – | 160 | 20.00 | 5.40 |');
    expect(report({ ...input, legs: legs.map(({ calibration: _, ...l }) => l) })).toContain('No calibration: no spec has both `mcts` and `plan` (BENCH_EQUAL); mcts plays the spec\'s iterations.');
  });

  it('gives attack and defence with Wilson intervals and scores (a draw half)', () => {
    // Wilson 95%: 1 of 2 is 9.5%–90.5%, 0 of 2 is 0.0%–65.8%.
    expect(lines).toContain('| mcts | A | 2 | 1 (50.0%) | 9.5%–90.5% | 50.0% | 2 | 0 (0.0%) | 0.0%–65.8% | 25.0% |');
    expect(lines).toContain('| plan | A | 2 | 1 (50.0%) | 9.5%–90.5% | 75.0% | 2 | 1 (50.0%) | 9.5%–90.5% | 50.0% |');
    expect(lines).toContain('| mcts | E&A 1918 | 1 | 0 (0.0%) | 0.0%–79.3% | 0.0% | 0 | – | – | – |');
    expect(lines.some((l) => l.startsWith('| greedy | A |'))).toBe(false);
  });

  it('counts Paris taken by each bot as Germany in A', () => {
    // 2 of 2: 34.2%–100.0%.
    expect(lines).toContain('| mcts | 2 | 1 (50.0%) | 9.5%–90.5% | 1 (50.0%) |');
    expect(lines).toContain('| plan | 2 | 2 (100.0%) | 34.2%–100.0% | 1 (50.0%) |');
  });

  it('gives each bot’s time per decision and decisions per second of it', () => {
    // mcts: 1270 ms over 150 decisions = 8.47 ms, 118/s; plan 5800 over 140 = 41.43 ms, 24/s; greedy 30 over 10 in A only.
    expect(lines).toContain('| mcts | 8.47 (118) | 5.40 (185) | 10.00 (100) |');
    expect(lines).toContain('| plan | 41.43 (24) | 20.00 (50) | 50.00 (20) |');
    expect(lines).toContain('| greedy | 3.00 (333) | 3.00 (333) | – |');
  });
});

describe('report: ratings, side terms and the target', () => {
  // One scenario, two bots, each seed played from both sides (`n` seeds); `winner` says who wins each game.
  function ladder(n: number, winner: (axis: string, allies: string) => 'Axis' | 'Allies'): ReportInput {
    const leg: ReportLeg = { key: 'blitz/B', spec: { entrants: [{ name: 'x', bot: 'x' }, { name: 'y', bot: 'y' }], pairings: [['x', 'y']], gamesPerPairing: 2 * n }, plan: { tournamentId: 'tB' } };
    const os = Array.from({ length: n }, (_, i) =>
      (['x', 'y'] as const).map((axis) => {
        const allies = axis === 'x' ? 'y' : 'x';
        const w = winner(axis, allies);
        return outcome(`b${i}${axis}`, 'tB', 'completed', { Axis: axis, Allies: allies }, { Axis: w === 'Axis' ? 'win' : 'loss', Allies: w === 'Allies' ? 'win' : 'loss' }, 10);
      }),
    ).flat();
    return { ...input, legs: [leg], outcomes: os, stored: new Map(), played: os.length, tunedName: 'x', targetName: 'y' };
  }

  it('separates the side from the bots: the Allies win every game, so the bots are even and the Allies (attacking in B) favoured', () => {
    const text = report(ladder(5, () => 'Allies'));
    // By symmetry both strengths and their difference are exactly 0, with an interval symmetric about it.
    expect(text).toMatch(/^\| x \| 0 \| (-\d+) to \+(\d+) \| 10 \| 0 \(\1 to \+\2\) \|$/m);
    const diff = /^\| y − x \| 0 \| -(\d+) to \+(\d+) \|/m.exec(text);
    expect(diff?.[1]).toBe(diff?.[2]);
    expect(text).toMatch(/Target \(issue 31\): y − x ≥ \+200 Elo at equal time per decision, interval above 0: 0 \(-\d+ to \+\d+\), \*\*not met\*\*\./);
    const side = /^\| B \| Allies \(attacks\) \| (\d+\.\d)% \|/m.exec(text);
    expect(Number(side?.[1])).toBeGreaterThan(90);
    expect(text).toMatch(/^\| B \| Axis \| \d\.\d% \|/m);
  });

  it('meets the target when the target bot wins every game from both sides', () => {
    const text = report(ladder(10, (axis) => (axis === 'y' ? 'Axis' : 'Allies')));
    const m = /Target \(issue 31\): y − x ≥ \+200 Elo at equal time per decision, interval above 0: \+(\d+) \(\+(\d+) to \+(\d+)\), \*\*met\*\*\./.exec(text);
    expect(m, text).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(200);
    // Side terms even: each side won 10 of 20.
    expect(text).toMatch(/^\| B \| Allies \(attacks\) \| 50\.0% \|/m);
  });

  it('says the target is not measured when the target bot is not an entrant', () => {
    expect(report({ ...ladder(2, () => 'Axis'), targetName: 'plan' })).toContain('Target (issue 31): plan − x ≥ +200 Elo: not measured (`plan` is not an entrant of these specs).');
  });
});
