/**
 * The comparison on hand-made game records, where the answer is known by construction: where a game
 * first diverges, how a game's result is named, when distributions count as shifted, and that runs
 * of different suites are refused.
 */
import { describe, expect, it } from 'vitest';
import { compareRuns, divergence, formatReport, resultOf, toBaseline, type GameRecord, type SuiteRun } from '../src/index.ts';

function game(key: string, o: Partial<GameRecord> = {}): GameRecord {
  const impulseLog = o.impulseLog ?? [
    { at: '1.1 a/x', turn: 1, hash: `${key}-h1`, choices: ['c1', 'c2'], events: ['GER: moves', 'GER: attacks Paris'], scores: { GER: 1, AFA: 2 } },
    { at: '1.2 a/x', turn: 1, hash: `${key}-h2`, choices: ['c3'], events: ['AFA: moves'], scores: { GER: 2, AFA: 2 } },
    { at: '2.1 a/x', turn: 2, hash: `${key}-h3`, choices: ['c4'], events: ['GER: wins'], scores: { GER: 5, AFA: 2 } },
  ];
  return {
    key,
    scenario: 'A',
    seed: 1,
    seats: { Axis: 'random', Allies: 'greedy' },
    bots: { Axis: 'random@1', Allies: 'greedy@1' },
    kind: 'completed',
    sides: { Axis: 'win', Allies: 'loss' },
    reason: 'Axis took Paris',
    turns: 2,
    impulses: impulseLog.length,
    decisions: 4,
    finalHash: `${key}-final`,
    impulseLog,
    ...o,
  };
}

const facts = { game: 'blitz', rulesVersion: '1', pack: { id: 'p', version: '1', fidelity: 'approximation', hash: 'packhash' }, engineVersion: '1', bots: ['greedy@1', 'random@1'] };
const run = (games: GameRecord[], o: Partial<SuiteRun> = {}): SuiteRun => ({ suite: { id: 's', specHash: 'spec' }, facts, games, wallMs: 1, ...o });

describe('divergence', () => {
  it('names the first impulse whose state hash differs, and there the first different choice and event', () => {
    const a = game('g');
    const log = a.impulseLog.map((x) => ({ ...x, choices: [...x.choices], events: [...x.events] }));
    log[1] = { ...log[1]!, hash: 'other', choices: ['c3'], events: ['AFA: moves', 'AFA: attacks'] };
    log[2] = { ...log[2]!, hash: 'other2' };
    const d = divergence(a, { ...a, impulseLog: log, finalHash: 'x' });
    expect(d).toMatchObject({ index: 1, at: { baseline: '1.2 a/x', current: '1.2 a/x' }, event: { index: 1, current: 'AFA: attacks' } });
    expect(d?.event?.baseline).toBeUndefined();
    expect(d?.choice).toBeUndefined();
  });

  it('by play, when the pack changed: hashes are ignored, the first impulse with other choices, events or scores is named', () => {
    const a = game('g');
    const rehashed = a.impulseLog.map((x) => ({ ...x, hash: `${x.hash}-newpack` }));
    expect(divergence(a, { ...a, impulseLog: rehashed, finalHash: 'new' }, { byState: false })).toBeUndefined();
    expect(divergence(a, { ...a, impulseLog: rehashed, finalHash: 'new' })?.index).toBe(0);
    const scored = rehashed.map((x, i) => (i === 2 ? { ...x, scores: { GER: 4, AFA: 2 } } : x));
    expect(divergence(a, { ...a, impulseLog: scored }, { byState: false })).toMatchObject({ index: 2, at: { baseline: '2.1 a/x' } });
    const chose = rehashed.map((x, i) => (i === 0 ? { ...x, choices: ['c1', 'other'] } : x));
    expect(divergence(a, { ...a, impulseLog: chose }, { byState: false })?.choice).toEqual({ index: 1, baseline: 'c2', current: 'other' });
  });

  it('a game that ends differently after identical impulses diverges at its end; a game that stops early at the missing impulse', () => {
    const a = game('g');
    expect(divergence(a, { ...a, finalHash: 'other' })).toMatchObject({ index: 3, at: {} });
    expect(divergence(a, { ...a, impulseLog: a.impulseLog.slice(0, 2), impulses: 2 })).toMatchObject({ index: 2, at: { baseline: '2.1 a/x' } });
    expect(divergence(a, game('g'))).toBeUndefined();
  });
});

describe('resultOf', () => {
  it('names the winning side, a draw, or how the match ended without a result', () => {
    expect(resultOf(game('a'))).toBe('Axis win');
    expect(resultOf(game('a', { sides: { Axis: 'draw', Allies: 'draw' } }))).toBe('draw');
    expect(resultOf(game('a', { kind: 'forfeit', sides: { Axis: 'loss', Allies: 'win' } }))).toBe('Allies win (forfeit)');
    expect(resultOf(game('a', { kind: 'error', sides: {} }))).toBe('error');
  });
});

describe('compareRuns', () => {
  /** n games of scenario A, the Axis winning the first `axisWins` of them, each `impulses` long. */
  function games(n: number, axisWins: number, impulses: (i: number) => number = () => 3): GameRecord[] {
    return Array.from({ length: n }, (_, i) =>
      game(`g${i}`, {
        seed: i,
        sides: i < axisWins ? { Axis: 'win', Allies: 'loss' } : { Axis: 'loss', Allies: 'win' },
        reason: i < axisWins ? 'Axis took Paris' : 'Allies held',
        impulses: impulses(i),
        finalHash: `g${i}-${i < axisWins}`,
      }),
    );
  }

  it('identical runs: nothing moved, no game changed, no test significant', () => {
    const g = games(60, 30, (i) => 3 + (i % 4));
    const r = compareRuns(toBaseline(run(g)), run(g.map((x) => ({ ...x }))));
    expect(r.moved).toBe(false);
    expect(r.changed).toEqual([]);
    expect(r.unchanged).toBe(60);
    expect(r.tests.length).toBeGreaterThan(0);
    expect(r.tests.every((t) => !t.significant && t.p >= 0.25)).toBe(true);
    expect(formatReport(r)).toMatch(/^OK: Nothing moved: all 60 games are identical/);
    // Identical numbers: the Anderson–Darling p is only known to be at least 0.25, and says so.
    const ad = r.tests.filter((t) => t.test === 'anderson-darling');
    expect(ad.length).toBeGreaterThan(0);
    for (const t of ad) expect(t.pFrom).toBe('at least 0.25');
    expect(formatReport(r, { all: true })).toMatch(/A–D p ≥ 0\.2500, adjusted ≥ \d\.\d{4};/);
  });

  it('the Axis winning 80% instead of 30% is a shifted result with a large effect; the changed games are listed', () => {
    const r = compareRuns(toBaseline(run(games(100, 30))), run(games(100, 80)));
    expect(r.moved).toBe(true);
    expect(r.changed.map((c) => c.key)).toEqual(Array.from({ length: 50 }, (_, i) => `g${30 + i}`));
    const result = r.tests.find((t) => t.feature === 'result');
    expect(result).toMatchObject({ test: 'chi-squared', significant: true });
    // 2×2 table [[30, 70], [80, 20]]: χ² = 200·(30·20 − 70·80)² / (100·100·110·90) = 50.505…, V = √(χ²/200)
    expect(result?.statistic).toBeCloseTo(50.50505, 4);
    expect(result?.effect.value).toBeCloseTo(Math.sqrt(50.50505 / 200), 4);
    expect(result?.baseline).toEqual({ kind: 'counts', n: 100, counts: { 'Axis win': 30, 'Allies win': 70 } });
    expect(formatReport(r)).toMatch(/^MOVED: 50 of 100 games changed; \d+ of \d+ distributions shifted/);
  });

  it('longer games are a shifted length distribution; adjusted p-values are never below the raw ones', () => {
    const r = compareRuns(toBaseline(run(games(80, 40, (i) => 3 + (i % 3)))), run(games(80, 40, (i) => 6 + (i % 3))));
    const t = r.tests.find((x) => x.feature === 'impulses');
    expect(t).toMatchObject({ test: 'anderson-darling', significant: true, effect: { name: 'KS D', value: 1 } });
    expect(t?.meanShift).toBeCloseTo(3, 9);
    for (const x of r.tests) expect(x.pAdjusted).toBeGreaterThanOrEqual(x.p - 1e-12);
  });

  it('refuses a baseline of another suite, or one that holds other games, saying what to do', () => {
    const g = games(10, 5);
    expect(() => compareRuns(toBaseline(run(g)), run(g, { suite: { id: 's2', specHash: 'other' } }))).toThrow(/another suite.*--update-baseline/s);
    expect(() => compareRuns(toBaseline(run(g)), run(g.slice(1)))).toThrow(/1 only in the baseline, such as 'g0'.*--update-baseline/s);
    expect(() => compareRuns(toBaseline(run(g)), run(g), { q: 2 })).toThrow(/q must be a false discovery rate/);
  });
});
