import { describe, expect, it } from 'vitest';
import { SalientError } from '@salient/engine';
import { pentanomial, sprt, sprtElo, type GameScore } from '@salient/stats';
import { parseTournamentSpec, type MatchOutcome } from '../src/index.ts';
import { createStopRule, replayStopRule, stopContextOf, type StopRule } from '../src/stop-rule.ts';
import type { PlannedMatch, TournamentSpec } from '../src/types.ts';

const CANDIDATE = 'greedy';
const BASELINE = 'random';
const SPRT = { rule: 'sprt', elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05 } as const;
const RESULT = { 1: 'win', 0.5: 'draw', 0: 'loss' } as const;
const OTHER = { win: 'loss', draw: 'draw', loss: 'win' } as const;

let made = 0;
/** One game of pair `pairId`, the candidate on `side`, scoring `score` for it (null: no result). */
function game(pairId: string, side: 'Axis' | 'Allies', score: GameScore | null, kind: MatchOutcome['kind'] = score === null ? 'error' : 'completed'): MatchOutcome {
  const other = side === 'Axis' ? 'Allies' : 'Axis';
  made++;
  return {
    matchId: `m${made}`,
    tournamentId: 't',
    pairId,
    index: made,
    scenario: 'A',
    seed: made,
    kind,
    sides: score === null ? {} : { [side]: RESULT[score], [other]: OTHER[RESULT[score]] },
    entrants: { [side]: CANDIDATE, [other]: BASELINE },
    scores: {},
    decisions: 1,
    impulses: 1,
    wallMs: 1,
  };
}

/** Both games of a fresh pair: the candidate scores `a` on Axis, then `b` on Allies. */
function pair(a: GameScore | null, b: GameScore | null): [MatchOutcome, MatchOutcome] {
  const id = `p${made}`;
  return [game(id, 'Axis', a), game(id, 'Allies', b)];
}

const rule = (matches = 1_000_000, spec: { elo0: number; elo1: number } = SPRT): StopRule =>
  createStopRule({ ...SPRT, ...spec }, { matches, candidate: CANDIDATE, baseline: BASELINE });

/** Feed pairs cycling through `pattern` until the rule stops (or `limit` pairs); the pairs fed. */
function feedUntilStop(r: StopRule, pattern: readonly [GameScore, GameScore][], limit: number): [GameScore, GameScore][] {
  const fed: [GameScore, GameScore][] = [];
  for (let i = 0; i < limit && !r.decided().stop; i++) {
    const p = pattern[i % pattern.length] as [GameScore, GameScore];
    for (const o of pair(...p)) r.observe(o);
    fed.push(p);
  }
  return fed;
}

describe('sprt stop rule', () => {
  it('accepts H1 for a clearly stronger candidate, at the first pair whose LLR reaches the upper bound', () => {
    const r = rule();
    // Per four pairs the candidate wins both, wins and draws twice, and splits once.
    const fed = feedUntilStop(r, [[1, 1], [1, 0.5], [0.5, 1], [1, 0]], 10_000);
    const n = fed.length;
    const at = sprt(pentanomial(fed), SPRT);
    const before = sprt(pentanomial(fed.slice(0, -1)), SPRT);
    expect(at.state).toBe('H1');
    expect(before.state).toBe('continue');
    expect(r.decided()).toEqual({
      stop: true,
      accepted: 'H1',
      pairs: n,
      reason: `SPRT accepted H1 (greedy vs random: candidate stronger): LLR ${at.llr.toFixed(2)} ≥ 2.94 after ${n} pairs`,
    });
    const s = r.status?.();
    expect(s).toMatchObject({ rule: 'sprt', candidate: CANDIDATE, baseline: BASELINE, state: 'H1', pairs: n, pendingPairs: 0, voidedPairs: 0, matchesSeen: 2 * n });
    expect(s?.llr).toBe(at.llr);
    expect(s?.pentanomial).toEqual(pentanomial(fed));
    expect(s?.elo.elo).toBeGreaterThan(100);
    expect(s?.elo.los).toBeGreaterThan(0.99);
    expect(s?.nelo.ci.low).toBeGreaterThan(0);
    // Decided: the estimate that allows for the early stop comes with it, as fishtest reports a stopped test.
    expect(s?.sprtElo).toEqual(sprtElo(pentanomial(fed), SPRT));
    expect(s?.sprtElo?.elo).toBeLessThan(s?.elo.elo as number);
    const undecided = rule();
    for (const o of pair(1, 0)) undecided.observe(o);
    expect(undecided.status?.().sprtElo).toBeUndefined();
  });

  it('accepts H0 for an equal candidate with bounds elo0 = 0, elo1 = 5', () => {
    const r = rule();
    // Symmetric pair scores 0 : 0.5 : 1 : 1.5 : 2 as 1 : 2 : 4 : 2 : 1, so no Elo difference.
    const equal: [GameScore, GameScore][] = [[0, 0], [0, 0.5], [0.5, 0], [0.5, 0.5], [1, 0], [0, 1], [0.5, 0.5], [1, 0.5], [0.5, 1], [1, 1]];
    const fed = feedUntilStop(r, equal, 100_000);
    const at = sprt(pentanomial(fed), SPRT);
    expect(at.state).toBe('H0');
    expect(sprt(pentanomial(fed.slice(0, -1)), SPRT).state).toBe('continue');
    expect(r.decided().accepted).toBe('H0');
    expect(r.decided().reason).toBe(`SPRT accepted H0 (greedy vs random: candidate not stronger): LLR ${at.llr.toFixed(2)} ≤ -2.94 after ${fed.length} pairs`);
    // Stopped part-way through a cycle, so the estimate is near zero but not exactly.
    expect(Math.abs(r.status?.().elo.elo ?? 99)).toBeLessThan(1);
    expect(fed.length).toBeGreaterThan(1000);
  });

  it('accepts H0 quickly for a clearly weaker candidate, saying so when elo0 is below zero', () => {
    const r = rule(1_000_000, { elo0: -10, elo1: 10 });
    feedUntilStop(r, [[0, 0], [0, 0.5], [0.5, 0]], 10_000);
    expect(r.decided().reason).toMatch(/^SPRT accepted H0 \(greedy vs random: candidate weaker\): LLR -\d\.\d\d ≤ -2\.94 after \d+ pairs$/);
  });

  it('counts a pair only once both games are in, in either order and interleaved with other pairs', () => {
    const r = rule();
    const pairs = [pair(1, 1), pair(0.5, 0), pair(1, 0.5)];
    for (const [first] of pairs) r.observe(first);
    expect(r.status?.()).toMatchObject({ pairs: 0, pendingPairs: 3, pentanomial: [0, 0, 0, 0, 0], matchesSeen: 3 });
    expect(r.status?.().llr).toBeCloseTo(0, 3);
    // Second games arrive in another order.
    r.observe(pairs[2]![1]);
    r.observe(pairs[0]![1]);
    expect(r.status?.()).toMatchObject({ pairs: 2, pendingPairs: 1, pentanomial: [0, 0, 0, 1, 1] });
    r.observe(pairs[1]![1]);
    expect(r.status?.()).toMatchObject({ pairs: 3, pendingPairs: 0, pentanomial: [0, 1, 0, 1, 1], matchesSeen: 6 });
    expect(r.status?.().llr).toBe(sprt([0, 1, 0, 1, 1], SPRT).llr);
  });

  it('scores from the candidate’s side whichever side it plays', () => {
    const r = rule();
    // Candidate wins on Axis, loses on Allies; then draws on Allies after winning on Axis, fed Allies first.
    for (const o of pair(1, 0)) r.observe(o);
    const [axis, allies] = pair(1, 0.5);
    r.observe(allies);
    r.observe(axis);
    expect(r.status?.().pentanomial).toEqual([0, 0, 1, 1, 0]);
  });

  it('counts a forfeit as recorded, voids a pair with an error or cancelled game, and counts a repeated outcome once', () => {
    const r = rule();
    const id = 'pf';
    r.observe(game(id, 'Axis', 0, 'forfeit')); // the candidate forfeited: a loss
    r.observe(game(id, 'Allies', 1, 'forfeit')); // the baseline forfeited: a win
    const [ok, broken] = pair(1, null);
    r.observe(ok);
    r.observe(broken);
    r.observe(broken);
    const cancelled = pair(null, null).map((o) => ({ ...o, kind: 'cancelled' as const }));
    for (const o of cancelled) r.observe(o);
    r.observe(ok);
    expect(r.status?.()).toMatchObject({ pairs: 1, voidedPairs: 2, pendingPairs: 0, pentanomial: [0, 0, 1, 0, 0], matchesSeen: 6 });
  });

  it('stops undecided when the plan runs out first', () => {
    const r = rule(6);
    const all = [pair(1, 0), pair(0.5, 0.5), pair(0, 1)].flat();
    for (const o of all.slice(0, 5)) r.observe(o);
    expect(r.decided()).toEqual({ stop: false });
    r.observe(all[5]!);
    const llr = sprt([0, 0, 3, 0, 0], SPRT).llr;
    expect(r.decided()).toEqual({ stop: true, pairs: 3, reason: `all 6 planned matches played; SPRT undecided: LLR ${llr.toFixed(2).replace('-0.00', '0.00')} between -2.94 and 2.94 after 3 pairs` });
  });

  it('keeps its decision once made, while the status follows the games still finishing', () => {
    const r = rule();
    feedUntilStop(r, [[1, 1]], 10_000);
    const decision = r.decided();
    expect(decision.reason).toMatch(/^SPRT accepted H1/);
    const pairs = r.status?.().pairs ?? 0;
    for (let i = 0; i < 3 * pairs; i++) for (const o of pair(0, 0)) r.observe(o);
    expect(r.decided()).toEqual(decision);
    // The pairs of the decision are latched with it.
    expect(decision.pairs).toBe(pairs);
    expect(r.status?.().state).not.toBe('H1');
    expect(r.status?.().pairs).toBe(4 * pairs);
  });

  it('refuses outcomes of other entrants, a third game in a pair, and a context without the two entrants', () => {
    const r = rule();
    const stranger = { ...game('px', 'Axis', 1), entrants: { Axis: 'greedy', Allies: 'someone' } };
    expect(() => r.observe(stranger)).toThrow(/seats Axis: greedy, Allies: someone, not greedy against random/);
    const [a, b] = pair(1, 1);
    r.observe(a);
    r.observe(b);
    expect(() => r.observe({ ...a, matchId: 'extra' })).toThrow(/third match of pair/);
    expect(() => createStopRule(SPRT, { matches: 10 })).toThrow(/needs candidate and baseline .* stopContextOf\(spec\)/);
  });
});

describe('stopContextOf', () => {
  const GAUNTLET = 'scenarios: [A, B]\nentrants: [random, greedy]\nformat: gauntlet\nreference: random\ngamesPerPairing: 6\n';

  it('fixed: just the number of planned matches', async () => {
    const s = await parseTournamentSpec(GAUNTLET, 's.yaml');
    expect(stopContextOf(s)).toEqual({ matches: 3 * 2 * 2 });
  });

  it('sprt on a two-entrant gauntlet: the reference is the baseline, the other the candidate', async () => {
    const s = await parseTournamentSpec(`${GAUNTLET}stop: { rule: sprt, elo0: 0, elo1: 5 }\n`, 's.yaml');
    const ctx = stopContextOf(s);
    expect(ctx).toEqual({ matches: 12, candidate: 'greedy', baseline: 'random' });
    expect(createStopRule(s.stop, ctx).decided()).toEqual({ stop: false });
  });

  it('refuses an SPRT it cannot run, saying what to change', async () => {
    const issues = async (yaml: string) => {
      const s = await parseTournamentSpec(yaml, 's.yaml');
      try {
        stopContextOf(s);
      } catch (e) {
        if (!(e instanceof SalientError)) throw e;
        expect(e.code).toBe('BAD_SPEC');
        expect(e.message).toMatch(/stop: sprt cannot run on this tournament; fix the spec and try again\.$/);
        return e.issues.map((i) => `${i.path}: ${i.message}`);
      }
      throw new Error('expected stopContextOf to refuse the spec');
    };
    const sprtStop = 'stop: { rule: sprt, elo0: 0, elo1: 5 }\n';
    expect(await issues(`scenarios: [A]\nentrants: [random, greedy]\n${sprtStop}`)).toEqual([
      'format: is round-robin, but stop: sprt needs format: gauntlet with reference: <the baseline>, so the test knows which entrant is the candidate (for example format: gauntlet, reference: random to test greedy against random).',
    ]);
    expect(await issues(`scenarios: [A]\nentrants: [random, greedy, { name: g2, bot: greedy }]\nformat: gauntlet\nreference: random\n${sprtStop}`)).toEqual([
      'entrants: stop: sprt tests one candidate against the reference, but this gauntlet has 2 (greedy, g2); run one tournament per candidate, or use stop: fixed.',
    ]);
    expect(await issues(`${GAUNTLET}sideSwap: false\n${sprtStop}`)).toEqual(['sideSwap: is false, but stop: sprt counts side-swapped pairs; set sideSwap: true (the default).']);
  });
});

describe('replayStopRule: the decision as the executors take it, in plan order', () => {
  /** A plan of `n` side-swapped pairs of the gauntlet, and their outcomes: a clearly stronger candidate. */
  function stronger(n: number) {
    const pattern: [GameScore, GameScore][] = [[1, 1], [1, 0.5], [0.5, 1], [1, 0]];
    const outcomes = Array.from({ length: n }, (_, i) => pair(...pattern[i % 4]!)).flat();
    const spec = {
      id: 't', game: 'blitz', pack: 'approximation', scenarios: ['A'], format: 'gauntlet', reference: BASELINE, sideSwap: true, gamesPerPairing: 2 * n,
      seeds: Array.from({ length: n }, (_, i) => i + 1), entrants: [{ name: BASELINE, bot: 'random' }, { name: CANDIDATE, bot: 'greedy' }], stop: SPRT,
    } as unknown as TournamentSpec;
    const matches = outcomes.map((o) => ({ id: o.matchId }) as PlannedMatch);
    return { plan: { spec, matches }, outcomes };
  }

  it('decides on the outcomes before the first missing one; those after it count in the figures only', () => {
    const { plan, outcomes } = stronger(400);
    const all = replayStopRule(plan, outcomes);
    expect(all.decision).toMatchObject({ stop: true, accepted: 'H1' });
    const at = all.decision.pairs!;
    // The first game is missing: no decision yet (the executors wait for it), but every pair after it is counted.
    const holed = replayStopRule(plan, outcomes.slice(1));
    expect(holed.decision).toEqual({ stop: false });
    expect(holed.status).toMatchObject({ pairs: 399, pendingPairs: 1, state: 'H1' });
    // A hole after the deciding pair changes nothing of the decision.
    const late = replayStopRule(plan, outcomes.filter((_, i) => i !== 2 * at + 3));
    expect(late.decision).toEqual(all.decision);
  });
});
