/**
 * `stop: sprt` on the local pool, end to end on real Blitz games and the real embedded store: the pool
 * stops handing out matches once the test decides, at the pair the plan-order counts say (the same on
 * one thread or four), leaves the rest unplayed, and a rerun finds the test decided and plays nothing;
 * the store's matches give the same decision back (what the API reports).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTelemetry, recordedMatches, type Telemetry } from '@salient/telemetry';
import { pentanomial, sprt, type GameScore } from '@salient/stats';
import { parseTournamentSpec, planTournament, replayStopRule, sprtText, type MatchOutcome, type TournamentPlan } from '../src/index.ts';
import { outcomeFromRecord, runLocalTournament, stopPart } from '../src/local/index.ts';

let root = '';
let telemetry: Telemetry;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'salient-sprt-run-'));
  telemetry = await openTelemetry({ kind: 'embedded', path: join(root, 'clickhouse'), spoolDir: join(root, 'spool') });
});
afterAll(async () => {
  await telemetry?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

type Bounds = { elo0: number; elo1: number; alpha: number; beta: number };
const BOUNDS: Bounds = { elo0: 0, elo1: 50, alpha: 0.05, beta: 0.05 };
/**
 * Greedy against random with hypotheses far apart and below it (nElo -100 against 0, as the CLI's
 * tournament test does): the LLR's drift per pair grows with (elo1 - elo0) and with how far the true
 * nElo lies above their middle, so greedy (far above both) is accepted after 16 pairs rather than 73 at
 * [0, 50] (measured 2026-11-30 on one thread: 33 games in 17 s against 147 in 51 s, at load 15). The
 * claim is the same at any bounds: the pool stops at the pair the plan-order counts say, on one thread
 * or four. [0, 50] stays for H0 (random against random) below.
 */
const QUICK_H1: Bounds = { elo0: -100, elo1: 0, alpha: 0.05, beta: 0.05 };

/** A gauntlet of `candidate` against `baseline` (the reference) on Blitz scenario A, up to 200 pairs. */
async function plan(id: string, baseline: string, candidate: string, bounds: Bounds = BOUNDS): Promise<TournamentPlan> {
  return planTournament(
    await parseTournamentSpec(
      `id: ${id}\ngame: blitz\nscenarios: [A]\n` +
        `entrants:\n  - { name: base, bot: ${baseline} }\n  - { name: cand, bot: ${candidate} }\n` +
        `format: gauntlet\nreference: base\ngamesPerPairing: 400\ndecisionCap: 2000\n` +
        `stop: { rule: sprt, elo0: ${bounds.elo0}, elo1: ${bounds.elo1}, alpha: ${bounds.alpha}, beta: ${bounds.beta} }\n`,
      'test.yaml',
    ),
  );
}

/**
 * Where the test must stop, worked out here from the outcomes alone: pairs completed in plan order,
 * scored from the candidate's seat, counted until the LLR first leaves its bounds.
 */
function expectedStop(outcomes: readonly MatchOutcome[], bounds: Bounds = BOUNDS): { pairs: number; state: 'H0' | 'H1' } | undefined {
  const byPair = new Map<string, MatchOutcome[]>();
  const done: [GameScore, GameScore][] = [];
  for (const o of [...outcomes].sort((a, b) => a.index - b.index)) {
    const games = byPair.get(o.pairId) ?? [];
    games.push(o);
    byPair.set(o.pairId, games);
    if (games.length < 2) continue;
    const score = (g: MatchOutcome): GameScore => {
      const side = Object.keys(g.entrants).find((s) => g.entrants[s] === 'cand') as string;
      return g.sides[side] === 'win' ? 1 : g.sides[side] === 'draw' ? 0.5 : 0;
    };
    done.push([score(games[0]!), score(games[1]!)]);
    const r = sprt(pentanomial(done), { ...bounds, model: 'normalized' });
    if (r.state !== 'continue') return { pairs: done.length, state: r.state };
  }
  return undefined;
}

describe('stop: sprt on the local pool', () => {
  it('greedy against random: accepts H1 at the same pair on one thread and on four, leaving the rest of the plan unplayed', async () => {
    const p = await plan('sprt-h1', 'random', 'greedy', QUICK_H1);
    const seen: string[] = [];
    // Games finished when the test decided: those after it are only what the threads already held.
    const doneAtStop = new Map<number, number>();
    const one = await runLocalTournament({
      plan: p,
      threads: 1,
      onProgress: (x) => {
        seen.push(stopPart(x));
        if (x.stopped !== undefined && !doneAtStop.has(1)) doneAtStop.set(1, x.done);
      },
    });
    const four = await runLocalTournament({ plan: p, threads: 4, onProgress: (x) => void (x.stopped !== undefined && !doneAtStop.has(4) && doneAtStop.set(4, x.done)) });
    for (const [threads, r] of [[1, one], [4, four]] as const) {
      const want = expectedStop(r.outcomes, QUICK_H1);
      expect(want?.state).toBe('H1');
      expect(r.stopped?.reason).toMatch(new RegExp(`^SPRT accepted H1 \\(cand vs base: candidate not weaker by more than 0 nElo\\): LLR \\d+\\.\\d\\d ≥ 2\\.94 after ${want!.pairs} pairs$`));
      // Matches already handed out finish (a thread holds two: the one it plays and the next, which
      // it drops unless started); nothing after them is played. Games that finished ahead of their
      // turn before the decision count too, and how many there are depends on timing, not on the rule.
      expect(r.outcomes.length).toBeGreaterThanOrEqual(2 * want!.pairs);
      expect(doneAtStop.get(threads)).toBeGreaterThanOrEqual(2 * want!.pairs);
      expect(r.outcomes.length - doneAtStop.get(threads)!).toBeLessThanOrEqual(2 * threads - 1);
      expect(r.stopped?.unplayed).toBe(p.matches.length - r.outcomes.length);
      expect(r.stop).toMatchObject({ rule: 'sprt', candidate: 'cand', baseline: 'base', matchesSeen: r.outcomes.length, matches: 400 });
      expect(r.stop!.pairs).toBeGreaterThanOrEqual(want!.pairs);
    }
    expect(four.stopped?.reason).toBe(one.stopped?.reason);
    // Progress showed the test as it went: pairs rising from 0, and the stop.
    expect(seen[0]).toBe('LLR 0.00 (-2.94, 2.94), 0 pairs');
    expect(seen.at(-1)).toMatch(/, H1 accepted, stopped$/);
    const [head, figures] = sprtText(one.stop!);
    expect(head).toMatch(/^SPRT cand vs base, nElo \[-100, 0\], alpha 0\.05, beta 0\.05: /);
    expect(figures).toMatch(new RegExp(`^  ${one.stop!.pairs} pairs \\[${one.stop!.pentanomial.join(', ')}\\].*; Elo \\+\\d`));
  }, 120_000);

  it('random against random: accepts H0; recorded in the store, a rerun plays nothing, and the stored matches give the same decision', async () => {
    const p = await plan('sprt-h0', 'random', 'random');
    const first = await runLocalTournament({ plan: p, threads: 3, telemetry });
    const want = expectedStop(first.outcomes);
    expect(want?.state).toBe('H0');
    expect(first.stopped?.reason).toMatch(new RegExp(`^SPRT accepted H0 \\(cand vs base: candidate not stronger\\): LLR -\\d+\\.\\d\\d ≤ -2\\.94 after ${want!.pairs} pairs$`));

    const again = await runLocalTournament({ plan: p, threads: 3, telemetry });
    expect(again.played).toBe(0);
    expect(again.skipped).toBe(first.outcomes.length);
    expect(again.stopped?.reason).toBe(first.stopped?.reason);

    const byId = new Map(p.matches.map((m) => [m.id, m]));
    const stored = (await recordedMatches(telemetry, p.tournamentId)).map((r) => outcomeFromRecord(byId.get(r.matchId)!, r));
    expect(stored).toHaveLength(first.outcomes.length);
    const replayed = replayStopRule(p, stored);
    expect(replayed.decision).toEqual({ stop: true, accepted: 'H0', pairs: expect.any(Number), reason: first.stopped!.reason });
    expect(first.stopped!.reason).toContain(`after ${replayed.decision.pairs} pairs`);
    expect(replayed.status).toEqual(first.stop);
    const [t] = await telemetry.tournaments({ tournament: p.tournamentId });
    expect(t).toMatchObject({ state: 'finished', planned: 400, matches: first.outcomes.length });
  }, 120_000);
});
