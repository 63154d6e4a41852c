/**
 * Tournament results as tournament managers print them: per pairing W/L/D, Elo ± and LOS, draw ratio
 * (pentanomial with side swap, trinomial without), a cross-table, standings by scenario and side.
 * Hand-worked examples; the Elo figures themselves are @salient/stats' (checked there).
 */
import { describe, expect, it } from 'vitest';
import { pentanomialElo, trinomialElo } from '@salient/stats';
import { problemCounts, resultsContextOf, tournamentResults, type MatchOutcome, type TournamentSpec } from '../src/index.ts';

let n = 0;
/** A game of scenario `scenario`: `axis` entrant's result first, then `allies`'; `pair` shares a seed. */
function game(scenario: string, axis: string, allies: string, axisResult: 'win' | 'loss' | 'draw' | null, pair?: string, kind: MatchOutcome['kind'] = 'completed'): MatchOutcome {
  n++;
  const other = { win: 'loss', loss: 'win', draw: 'draw' } as const;
  return {
    matchId: `m${n}`,
    tournamentId: 't',
    pairId: pair ?? `m${n}`,
    index: n,
    scenario,
    seed: n,
    kind,
    sides: axisResult ? { Axis: axisResult, Allies: other[axisResult] } : {},
    entrants: { Axis: axis, Allies: allies },
    scores: {},
    decisions: 1,
    impulses: 1,
    wallMs: 1,
  };
}

describe('tournamentResults', () => {
  it('a round robin of three without side swap: W/L/D, trinomial Elo, draw ratio, cross-table, by scenario and side', () => {
    const outcomes = [
      game('A', 'x', 'y', 'win'),
      game('A', 'y', 'x', 'draw'),
      game('B', 'x', 'y', 'win'),
      game('B', 'y', 'x', 'loss'),
      game('A', 'x', 'z', 'loss'),
      game('B', 'z', 'x', 'win'),
      game('A', 'y', 'z', 'draw'),
      game('A', 'z', 'y', null, undefined, 'error'),
      game('B', 'y', 'z', 'win', undefined, 'forfeit'),
      game('B', 'z', 'y', null, undefined, 'cancelled'),
    ];
    const r = tournamentResults(outcomes, { entrants: ['x', 'y', 'z'], pairings: [['x', 'y'], ['x', 'z'], ['y', 'z']], scenarios: ['A', 'B'], sideSwap: false });
    const [xy, xz, yz] = r.pairings;
    // x against y: won 3, drew 1 (x's view).
    expect(xy).toMatchObject({ first: 'x', second: 'y', games: 4, wins: 3, losses: 0, draws: 1, score: 3.5, scorePct: 87.5, drawRatio: 0.25, model: 'trinomial', forfeits: 0, errors: 0 });
    expect(xy!.elo).toEqual(trinomialElo(3, 1, 0));
    expect(xy!.pentanomial).toBeUndefined();
    expect(xz).toMatchObject({ games: 2, wins: 0, losses: 2, draws: 0, score: 0, drawRatio: 0 });
    expect(xz!.elo!.elo).toBeLessThan(0);
    // y against z: a draw, a forfeit z lost (y's win), an error and a cancelled game that count for no one.
    expect(yz).toMatchObject({ games: 2, wins: 1, losses: 0, draws: 1, drawRatio: 0.5, forfeits: 1, errors: 1 });

    // x 3.5 of 6, z 2.5 of 4 (both wins against x), y 2 of 6.
    expect(r.standings.map((s) => s.name)).toEqual(['x', 'z', 'y']);
    expect(r.crossTable.entrants).toEqual(['x', 'z', 'y']);
    expect(r.crossTable.cells.x).toEqual({ y: { games: 4, wins: 3, losses: 0, draws: 1, score: 3.5 }, z: { games: 2, wins: 0, losses: 2, draws: 0, score: 0 } });
    expect(r.crossTable.cells.y!.x).toEqual({ games: 4, wins: 0, losses: 3, draws: 1, score: 0.5 });
    expect(r.crossTable.cells.z!.y).toEqual({ games: 2, wins: 0, losses: 1, draws: 1, score: 0.5 });
    expect(r.crossTable.cells.x!.x).toBeUndefined();
    // The cross-table's row totals are the standings' scores.
    for (const s of r.standings) expect(Object.values(r.crossTable.cells[s.name] ?? {}).reduce((a, c) => a + c.score, 0)).toBe(s.score);

    expect(r.byScenario.map((b) => b.scenario)).toEqual(['A', 'B']);
    const xA = r.byScenario[0]!.standings.find((s) => s.name === 'x')!;
    expect(xA).toMatchObject({ games: 3, wins: 1, losses: 1, draws: 1, bySide: { Axis: { games: 2, wins: 1, losses: 1, draws: 0 }, Allies: { games: 1, wins: 0, losses: 0, draws: 1 } } });
    const xB = r.byScenario[1]!.standings.find((s) => s.name === 'x')!;
    expect(xB).toMatchObject({ games: 3, wins: 2, losses: 1, draws: 0 });
    // Split by scenario, the counts add up to the whole.
    for (const s of r.standings) {
      const parts = r.byScenario.map((b) => b.standings.find((x) => x.name === s.name)!);
      expect(parts.reduce((a, p) => a + p.games, 0)).toBe(s.games);
      expect(parts.reduce((a, p) => a + p.score, 0)).toBe(s.score);
    }
    expect(problemCounts(outcomes)).toEqual({ finished: 9, forfeits: 1, errors: 1 });
  });

  it('side-swapped pairs: Elo from the pentanomial of complete pairs, a pair with an error or a lone game not counted', () => {
    const outcomes = [
      game('A', 'base', 'cand', 'loss', 'p1'), // cand wins as Allies
      game('A', 'cand', 'base', 'win', 'p1'), // and as Axis: a 2
      game('A', 'base', 'cand', 'win', 'p2'),
      game('A', 'cand', 'base', 'win', 'p2'), // split: a 1
      game('A', 'base', 'cand', 'draw', 'p3'),
      game('A', 'cand', 'base', 'win', 'p3'), // 1½
      game('A', 'base', 'cand', 'loss', 'p4'),
      game('A', 'cand', 'base', null, 'p4', 'error'), // voided
      game('A', 'base', 'cand', 'win', 'p5'), // lone game, waiting for its other half
    ];
    const spec = {
      entrants: [{ name: 'base', bot: 'random' }, { name: 'cand', bot: 'greedy' }],
      format: 'gauntlet',
      reference: 'base',
      scenarios: ['A'],
      sideSwap: true,
    } as unknown as TournamentSpec;
    const ctx = resultsContextOf(spec);
    // The challenger first, as an SPRT's candidate over its baseline.
    expect(ctx.pairings).toEqual([['cand', 'base']]);
    const [p] = tournamentResults(outcomes, ctx).pairings;
    expect(p).toMatchObject({ first: 'cand', second: 'base', games: 8, wins: 5, losses: 2, draws: 1, model: 'pentanomial', pairs: 3, pentanomial: [0, 0, 1, 1, 1], errors: 1 });
    expect(p!.elo).toEqual(pentanomialElo([0, 0, 1, 1, 1]));
    expect(p!.drawRatio).toBe(1 / 8);
  });

  it('no pairings given: every pair of entrants that met, in standings order; no games yet gives no estimate', () => {
    // A mirror match (c against itself) is no pairing.
    const r = tournamentResults([game('A', 'b', 'a', 'win'), game('A', 'c', 'c', 'win')], { entrants: ['a', 'b', 'c'] });
    expect(r.standings.map((s) => s.name)).toEqual(['b', 'c', 'a']);
    expect(r.pairings.map((p) => [p.first, p.second])).toEqual([['b', 'a']]);
    const none = tournamentResults([], { entrants: ['a', 'b'], pairings: [['a', 'b']], sideSwap: true });
    expect(none.pairings[0]).toMatchObject({ games: 0, elo: null, scorePct: null, drawRatio: null, pairs: 0 });
    expect(none.crossTable).toEqual({ entrants: ['a', 'b'], cells: {} });
  });
});
