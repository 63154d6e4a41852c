/**
 * 17.24-17.27, 17.31-17.34 Replacement purchases on the synthetic front: the owner picks what to rebuild
 * from the Replacement Pool and, where the text leaves a choice, the city it appears in.
 */
import { describe, expect, it } from 'vitest';
import type { Board } from '../../src/rules/board.ts';
import { askBuy } from '../../src/rules/replacement-choice.ts';
import type { EaState } from '../../src/rules/state.ts';
import { game, opts, play, skipUntil, start } from '../support/play.ts';

const byProfile = (b: Board, id: string): number[] => b.units.flatMap((u, i) => (u.prof.id === id ? [i] : []));

/** A copy of `s` with units `us` in the Replacement Pool. */
function toPool(s: EaState, us: number[]): EaState {
  const t = JSON.parse(JSON.stringify(s)) as EaState;
  for (const u of us) t.hex[u] = -1;
  return t;
}

/** From the set-up (pool filled by `pool`) to the next Reinforcement Phase of `side` that asks for a purchase. */
function toPurchase(side: 0 | 1, pool: (b: Board) => number[]): { s: EaState; b: Board } {
  const { s, b } = start();
  const t = toPool(s, pool(b));
  return { s: skipUntil(t, (x) => x.ask.k === 'buy' && x.seg === side), b };
}

describe('17.24 the owner picks what to rebuild', () => {
  it('offers one purchase per counter type in the pool, lowest unit number first, then done; 17.32 Stosstruppen cost 6 Inf RPs', () => {
    const { s, b } = toPurchase(0, (b) => [...byProfile(b, 'ge-stoss-574').slice(0, 2), byProfile(b, 'ge-inf-464')[0]!, byProfile(b, 'ge-fa-333')[0]!]);
    expect(s.turn).toBe(1);
    const stoss = byProfile(b, 'ge-stoss-574')[0]!;
    const inf = byProfile(b, 'ge-inf-464')[0]!;
    const fa = byProfile(b, 'ge-fa-333')[0]!;
    expect(opts(s)).toEqual([...[stoss, inf, fa].sort((x, y) => x - y).map((u) => `buy ${u}`), 'done']);
    expect(game.pending(s)).toMatchObject({ kind: 'decision', power: 'CP', prompt: 'replace-unit' });
    const inf0 = s.rp.GE![0]!;
    const at = play(s, `buy ${stoss}`).s;
    expect(at.ask.k).toBe('place');
    expect(game.pending(at)).toMatchObject({ prompt: 'replace-at' });
    const city = opts(at)[0]!;
    const after = play(at, city).s;
    expect(b.map.id(after.hex[stoss]!)).toBe(city.slice(3));
    expect(after.rp.GE![0]).toBe(inf0 - 6);
    // 17.34: only one Stosstruppen a turn, though a second one waits in the pool.
    expect(opts(after).some((o) => o === `buy ${byProfile(b, 'ge-stoss-574')[1]}`)).toBe(false);
    expect(opts(after)).toContain(`buy ${inf}`);
  });

  it('17.24: a unit costs its attack factor, and only what the RPs cover is offered; done keeps the RPs (17.21)', () => {
    const { s, b } = toPurchase(0, (b) => [byProfile(b, 'ge-stoss-574')[0]!, byProfile(b, 'ge-inf-464')[0]!, byProfile(b, 'ge-fa-333')[0]!]);
    const t = JSON.parse(JSON.stringify(s)) as EaState;
    t.rp.GE = [4, 0, 0];
    // Ask the purchase again on the poorer state, as the phase does.
    askBuy(b, t);
    expect(opts(t)).toEqual([`buy ${byProfile(b, 'ge-inf-464')[0]}`, 'done']);
    const placed = play(t, opts(t)[0]!);
    const u = byProfile(b, 'ge-inf-464')[0]!;
    const done = placed.s.ask.k === 'place' ? play(placed.s, opts(placed.s)[0]!) : placed;
    const x = done.s;
    expect(x.hex[u]!).toBeGreaterThanOrEqual(0);
    expect(x.rp.GE).toEqual([0, 0, 0]);
    expect([...placed.events, ...done.events].find((ev) => ev.type === 'replacement')?.text).toMatch(/for 4 inf RP/);
    // Nothing left to buy: the phase goes on to movement by itself.
    expect(x.ask.k).toBe('move');
    const kept = play(s, 'done').s;
    expect(kept.rp.GE).toEqual(s.rp.GE);
    expect(kept.ask.k).toBe('move');
  });

  it('17.26, 17.33: artillery goes only to the first class of cities with room (major cities here; no capital in Germany on this map), one unit per city (17.25)', () => {
    const fas = (b: Board) => byProfile(b, 'ge-fa-333').slice(0, 2);
    const { s, b } = toPurchase(0, fas);
    const [a1, a2] = fas(b) as [number, number];
    const first = play(s, `buy ${a1}`).s;
    const sites = opts(first).map((o) => b.map.hex(o.slice(3)));
    expect(sites.length).toBeGreaterThan(1);
    for (const h of sites) expect(b.map.cities[b.map.city[h]!]!.size).toBe('major');
    expect([...sites].sort((x, y) => x - y)).toEqual(sites);
    const second = play(first, `at ${b.map.id(sites[0]!)}`).s;
    // Two 3-Art-RP units: 4 Art RPs in April pay for one only.
    expect(second.rp.GE![1]).toBe(s.rp.GE![1]! - 3);
    if (second.ask.k === 'buy') expect(opts(second)).not.toContain(`buy ${a2}`);
  });

  it('17.31: a US division comes back at a British or French port other than Calais (here only Le Havre: no place to choose)', () => {
    const us = (b: Board) => [byProfile(b, 'us-inf-574')[0]!];
    const { s, b } = start();
    const u = us(b)[0]!;
    // Bring the first US division in, then send it to the pool.
    let t = skipUntil(s, (x) => x.hex[u]! >= 0);
    t = toPool(t, [u]);
    t = skipUntil(t, (x) => x.ask.k === 'buy' && x.seg === 1 && (x.ask.opts as number[]).includes(u));
    const r = play(t, `buy ${u}`).s;
    expect(b.map.id(r.hex[u]!)).toBe('2561');
    expect(r.ask.k === 'place' ? r.ask.u : -1).not.toBe(u);
  });

  it('17.34: one Tank per country a turn', () => {
    const tanks = (b: Board) => byProfile(b, 'fr-tank-222').slice(0, 2);
    const { s, b } = toPurchase(1, tanks);
    const t = JSON.parse(JSON.stringify(s)) as EaState;
    t.rp.FR = [t.rp.FR![0]!, t.rp.FR![1]!, 4];
    askBuy(b, t);
    const [t1, t2] = tanks(b) as [number, number];
    expect(opts(t)).toContain(`buy ${t1}`);
    let x = play(t, `buy ${t1}`).s;
    if (x.ask.k === 'place') x = play(x, opts(x)[0]!).s;
    expect(x.hex[t1]!).toBeGreaterThanOrEqual(0);
    expect(x.rp.FR![2]).toBe(2);
    expect(x.ask.k === 'buy' ? opts(x) : []).not.toContain(`buy ${t2}`);
  });
});
