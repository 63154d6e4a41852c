/**
 * The evaluation search bots use (src/rules/evaluate.ts), on positions from the S3 set-up (the pack's
 * fixed deal) where one option is plainly better: it must prefer that one. Positions are reached by
 * real decisions where they can be, else made by the smallest edit of the set-up, said in the test;
 * each comparison is one an evaluation without the term under test gets wrong or calls even.
 */
import { describe, expect, it } from 'vitest';
import { empiresAlliances as game } from '../src/game.ts';
import { boardOf } from '../src/rules/board.ts';
import { pressure } from '../src/rules/evaluate.ts';
import { HEX, type EaState } from '../src/rules/state.ts';
import { suppliedAt } from '../src/rules/vp-supply.ts';
import { bundled } from './helpers.ts';

const dealt = (): EaState => game.setup('1918', bundled(), { deploy: 'deal' });
const value = (s: EaState, power: 'CP' | 'AL') => game.model!.evaluate(s, power);
const hexOf = (s: EaState, id: string) => boardOf(s.key).map.hex(id);
const idOf = (s: EaState, h: number) => boardOf(s.key).map.id(h);

/** Verdun (2851), held by French corps 73 alone, with the German stacks of 2750 and 2850 next to it. */
const VERDUN = '2851';
const FRENCH_AT_VERDUN = 73;

describe('evaluation (a heuristic for bots)', () => {
  it('the Central Powers take an undefended VP place rather than move elsewhere', () => {
    // Edit: a German infantry corps (unit 44) put at 2256, behind the British line, next to Calais
    // (2155), an Allied place of 3.71 with no unit in it. Then real decisions: the Central Powers' first
    // Movement Phase, that corps picked to move; of its destinations, Calais must be valued highest
    // (above staying next to it too: a place is scored by whoever stands in it at the end, 3.71).
    const s = dealt();
    s.hex[44] = hexOf(s, '2256');
    const picked = game.apply(s, 'move 44').state;
    const p = game.pending(picked);
    if (p.kind !== 'decision') throw new Error('no move-to question');
    expect(p.options).toContain('to 2155');
    const scored = p.options.map((o) => ({ o, v: value(game.apply(picked, o).state, 'CP') }));
    const calais = scored.find((x) => x.o === 'to 2155')!.v;
    for (const x of scored) if (x.o !== 'to 2155') expect(calais, x.o).toBeGreaterThan(x.v);
  });

  it('a unit that cannot trace supply (14.2) is worth less than the same unit that can', () => {
    // Edit: a German infantry corps (unit 1) put in a hex of Germany (1841) or of France (2560), each
    // at least three hexes from every unit and VP place, and checked to change no Allied unit's
    // supply; its worth is the value with it there less the value with it removed from play.
    const s0 = dealt();
    const b = boardOf(s0.key);
    const alliedSupplied = (s: EaState) => s.hex.filter((h, u) => h >= 0 && b.units[u]!.side === 1 && suppliedAt(b, s, 1, h)).length;
    const without = structuredClone(s0);
    without.hex[1] = HEX.REMOVED;
    const worth = (id: string) => {
      const s = structuredClone(s0);
      s.hex[1] = hexOf(s, id);
      expect(alliedSupplied(s)).toBe(alliedSupplied(without));
      return { supplied: suppliedAt(b, s, 0, s.hex[1]!), worth: value(s, 'CP') - value(without, 'CP') };
    };
    const fed = worth('1841');
    const cut = worth('2560');
    expect(fed.supplied).toBe(true);
    expect(cut.supplied).toBe(false);
    expect(fed.worth).toBeGreaterThan(cut.worth + 0.3);
    expect(cut.worth).toBeGreaterThan(0);
  });

  it('the Allies keep the defender of a VP place with German stacks next to it', () => {
    // Edit: the French corps at Verdun moved to 3052 (next to no VP place), leaving Verdun empty with
    // the German stacks of 2750 and 2850 next to it; against the set-up as dealt.
    const kept = dealt();
    const stripped = dealt();
    stripped.hex[FRENCH_AT_VERDUN] = hexOf(stripped, '3052');
    expect(idOf(kept, kept.hex[FRENCH_AT_VERDUN]!)).toBe(VERDUN);
    expect(value(kept, 'AL')).toBeGreaterThan(value(stripped, 'AL'));
    expect(value(kept, 'CP')).toBeLessThan(value(stripped, 'CP'));
    // The pressure term: diminishing in the attackers, near 1 against an empty place, 0 with none.
    expect(pressure(0, 5)).toBe(0);
    expect(pressure(30, 0)).toBeGreaterThan(0.95);
    expect(pressure(20, 4) - pressure(10, 4)).toBeLessThan(pressure(10, 4) - pressure(0, 4));
  });
});
