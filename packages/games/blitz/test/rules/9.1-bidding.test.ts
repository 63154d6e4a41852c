/**
 * 9.1 Bidding for major powers, and the set-up option `optional` that switches section 9's rules on
 * (1.11: agreed before the game; the full game only). The bids stand for the auction: one per player
 * grouping, +3 to -3, summing to zero, added to each player's average once the game is over.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { decideByPoints } from '../../src/rules/victory-points.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { pack } from '../helpers.ts';

const full = (options: Record<string, unknown> = {}): BlitzState => blitz.setup('full', pack, options as never);

/** A finished-looking tally: the Axis player averages 10 VP, the Allied player 9. */
function scored(s0: BlitzState): BlitzState {
  const s = structuredClone(s0);
  s.vp = { GER: 11, JAP: 9, AFA: 12, USA: 9, USSR: 6 };
  return s;
}

function decide(s0: BlitzState): { s: BlitzState; events: GameEvent[] } {
  const s = scored(s0);
  const events: GameEvent[] = [];
  decideByPoints(packOf(s.pack), s, events, 'Turn 15 is complete');
  return { s, events };
}

describe('9 the set-up option optional', () => {
  it('is off by default: the state carries no optional rules and no bids', () => {
    const s = full();
    expect(s.optional).toBeUndefined();
    expect(s.bids).toBeUndefined();
  });

  it('takes a list, a comma-separated string (the CLI form) or a lone number, and keeps the ids sorted', () => {
    expect(full({ optional: ['9.9', '9.4'] }).optional).toEqual(['9.4', '9.9']);
    expect(full({ optional: '9.7,9.4, 9.1,9.4' }).optional).toEqual(['9.1', '9.4', '9.7']);
    expect(full({ optional: 9.4 }).optional).toEqual(['9.4']);
    expect(full({ optional: '9.1,9.3,9.4,9.6,9.7,9.8,9.9', players: 4 })).toMatchObject({ players: 4, optional: ['9.1', '9.3', '9.4', '9.6', '9.7', '9.8', '9.9'] });
  });

  it('refuses an unknown rule, a rule not implemented, and any scenario but the full game, saying what is allowed', () => {
    expect(() => full({ optional: '9.4,9.10' })).toThrow(/'9.10' is not an optional rule; they are 9.1-9.9, and this version implements 9.1, 9.2, 9.3, 9.4, 9.5, 9.6, 9.7, 9.8, 9.9/);
    expect(() => full({ optional: { a: 1 } })).toThrow(/takes optional rule ids as a list or a comma-separated string/);
    expect(() => blitz.setup('F', pack, { optional: '9.4' })).toThrow(/option 'optional' \(the optional rules of section 9\) is for the full game only: scenario F plays its own rules as they stand/);
    expect(() => blitz.setup('A', pack, { optional: '9.4', bids: 'x' })).toThrow(/options 'optional' and 'bids' .* for the full game only/);
    // The other options keep working alongside.
    expect(() => full({ optional: '9.4', weather: 'none' })).toThrow(/takes only the options 'players', 'optional' and 'bids'; got: weather/);
    expect(() => blitz.setup('F', pack, { weather: 'none' })).toThrow(/takes only the option 'players'/);
  });
});

describe('9.1 bids', () => {
  it('are given per player grouping of the chosen split, as an object or a string, in any order of powers', () => {
    expect(full({ optional: '9.1', bids: { 'GER+JAP': -2, 'AFA+USA+USSR': 2 } }).bids).toEqual({ 'GER+JAP': -2, 'AFA+USA+USSR': 2 });
    expect(full({ optional: '9.1', bids: 'JAP+GER:-2,USSR+USA+AFA:2' }).bids).toEqual({ 'GER+JAP': -2, 'AFA+USA+USSR': 2 });
    // A grouping left out bids 0.
    expect(full({ optional: '9.1', players: 4, bids: 'GER:-3,JAP:1,AFA+USA:2' }).bids).toEqual({ GER: -3, JAP: 1, 'AFA+USA': 2, USSR: 0 });
    // 9.1 without bids: everyone bid 0.
    expect(full({ optional: '9.1' }).bids).toBeUndefined();
  });

  it('must be whole numbers from +3 to -3 summing to zero, for groupings of this split, and only with 9.1', () => {
    expect(() => full({ optional: '9.1', bids: 'GER+JAP:-2,AFA+USA+USSR:1' })).toThrow(/must sum to zero \(9.1\); these sum to -1/);
    expect(() => full({ optional: '9.1', bids: 'GER+JAP:-4,AFA+USA+USSR:4' })).toThrow(/the bid for GER\+JAP must be a whole number from -3 to \+3; got -4/);
    expect(() => full({ optional: '9.1', bids: { 'GER+JAP': 0.5, 'AFA+USA+USSR': -0.5 } })).toThrow(/whole number/);
    expect(() => full({ optional: '9.1', bids: 'GER:-1,JAP+AFA+USA+USSR:1' })).toThrow(/'GER' is not a player grouping of this game; with 2 players they are GER\+JAP, AFA\+USA\+USSR/);
    expect(() => full({ optional: '9.1', bids: 'GER+JAP' })).toThrow(/is not GROUPING:BID/);
    expect(() => full({ optional: '9.4', bids: 'GER+JAP:-1,AFA+USA+USSR:1' })).toThrow(/option 'bids' needs optional rule 9.1/);
  });

  it('are added to each player\'s average when the game is over and can turn the result', () => {
    // Without bids the Axis player's 10 beats the Allied player's 9.
    const plain = decide(full());
    expect(plain.s.winner).toBe('Axis');
    expect(plain.s.reason).not.toMatch(/bid/);
    // With the Axis player having won the auction at -2, it ends on 8 against 11.
    const bid = decide(full({ optional: '9.1', bids: 'GER+JAP:-2,AFA+USA+USSR:2' }));
    expect(bid.s.winner).toBe('Allies');
    expect(bid.s.reason).toMatch(/AFA\+USA\+USSR 11 \(9 \+ bid 2\), GER\+JAP 8 \(10 - bid 2\) average VP per player with the bids of 9\.1/);
    const v = bid.events.find((e) => e.type === 'victory')!;
    expect(v.data).toMatchObject({ side: 'Allies', players: [{ powers: 'AFA+USA+USSR', average: 9, bid: 2, total: 11 }, { powers: 'GER+JAP', average: 10, bid: -2, total: 8 }] });
    // The bids never touch the powers' own points (8: the game still ends only at 15).
    expect(bid.s.vp).toEqual(scored(full()).vp);
  });

  it('with 9.1 on and no bids, every player bid 0; a tie on totals is a draw across sides', () => {
    expect(decide(full({ optional: '9.1' })).s.winner).toBe('Axis');
    const tie = structuredClone(full({ optional: '9.1', bids: 'GER+JAP:-1,AFA+USA+USSR:1' }));
    tie.vp = { GER: 10, JAP: 10, AFA: 8, USA: 8, USSR: 8 };
    decideByPoints(packOf(tie.pack), tie, [], 'Turn 15 is complete');
    expect(tie.draw).toBe(true);
    expect(tie.winner).toBeNull();
    expect(tie.reason).toMatch(/GER\+JAP 9 \(10 - bid 1\), AFA\+USA\+USSR 9 \(8 \+ bid 1\)/);
  });

  it('four players: each grouping its own bid', () => {
    const s = full({ optional: '9.1', players: 4, bids: 'GER:-3,JAP:1,AFA+USA:2,USSR:0' });
    const { s: end } = decide(s);
    // GER 11-3 = 8, JAP 9+1 = 10, AFA+USA 10.5+2 = 12.5, USSR 6.
    expect(end.winner).toBe('Allies');
    expect(end.reason).toMatch(/^Turn 15 is complete: AFA\+USA 12.5 \(10.5 \+ bid 2\), JAP 10 \(9 \+ bid 1\), GER 8 \(11 - bid 3\), USSR 6 \(6 \+ bid 0\)/);
  });
});

describe('9.1 example: four players bid for the groupings', () => {
  it('Germany at -3, the AFA and USA at 0, the USSR at +2, Japan at +1; with the 8 example\'s final points Japan (15 + 1) and the USSR (14 + 2) share the win across the sides (a draw), the Western Allies third, Germany last', () => {
    const s = structuredClone(full({ optional: '9.1', players: 4, bids: 'GER:-3,AFA+USA:0,USSR:2,JAP:1' }));
    s.vp = { GER: 12, JAP: 15, USSR: 14, AFA: 9, USA: 15 };
    decideByPoints(packOf(s.pack), s, [], 'a power reached 15 VP on Turn 12');
    expect(s.draw).toBe(true);
    expect(s.winner).toBeNull();
    expect(s.reason).toMatch(/^a power reached 15 VP on Turn 12: (JAP 16 \(15 \+ bid 1\), USSR 16 \(14 \+ bid 2\)|USSR 16 \(14 \+ bid 2\), JAP 16 \(15 \+ bid 1\)), AFA\+USA 12 \(12 \+ bid 0\), GER 9 \(12 - bid 3\)/);
  });
});
