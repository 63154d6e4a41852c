/**
 * The VP count search bots use (`model.evaluate`, src/rules/vp-supply.ts) is S3 3.71's count: on
 * positions along random games on the bundled map, under both readings of the `vp-supply` ruling,
 * `vpScore` equals `centralVp(vpPlaces(...))` and the backward search `suppliedAt` says what the full
 * 14.2 trace (`supplyOf`) says, for the victory places and for hexes drawn all over the map.
 */
import { describe, expect, it } from 'vitest';
import { empiresAlliances as game } from '../src/game.ts';
import { bundled } from './helpers.ts';
import { boardOf } from '../src/rules/board.ts';
import { supplyOf, vpPlaces } from '../src/rules/flow.ts';
import type { EaState } from '../src/rules/state.ts';
import { centralVp } from '../src/rules/victory.ts';
import { suppliedAt, vpScore } from '../src/rules/vp-supply.ts';

/** Every `every`-th state of a random game (a fixed LCG, so the positions are the same each run). */
function positions(seed: number, every: number, rulings?: string): EaState[] {
  const pack = bundled();
  let s = game.setup('1918', pack, rulings ? { rulings } : {});
  let x = seed;
  const rnd = (n: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), (x >>> 8) % n);
  const out: EaState[] = [];
  for (let i = 0; ; i++) {
    const p = game.pending(s);
    if (p.kind === 'terminal') break;
    if (i % every === 0) out.push(s);
    s = game.apply(s, p.kind === 'decision' ? p.options[rnd(p.options.length)]! : p.outcomes[rnd(p.outcomes.length)]!.outcome).state;
  }
  out.push(s);
  return out;
}

describe('3.71 VP for search bots (vp-supply.ts) against the full supply trace', () => {
  for (const rulings of [undefined, 'vp-supply=occupant-path']) {
    it(`counts the same VP and traces the same supply along random games (${rulings ?? 'default rulings'})`, () => {
      let checked = 0;
      let unsupplied = 0;
      for (const seed of [rulings ? 17 : 3]) {
        for (const s of positions(seed, 53, rulings)) {
          const b = boardOf(s.key);
          const full = centralVp(vpPlaces(b, s));
          expect(vpScore(b, s)).toBe(full);
          for (const side of [0, 1] as const) {
            const dist = supplyOf(b, s, side);
            const hexes = [...b.vp.map((p) => p.hex), ...Array.from({ length: 60 }, (_, i) => b.map.hexes[(i * 7919 + s.seq * 31 + side) % b.map.hexes.length]!)];
            for (const h of hexes) {
              const want = dist[h]! >= 0;
              if (!want) unsupplied++;
              expect(suppliedAt(b, s, side, h), `hex ${b.map.id(h)} side ${side} at step ${s.seq}`).toBe(want);
              checked++;
            }
          }
        }
      }
      // The positions must exercise both answers, or the comparison proves little.
      expect(checked).toBeGreaterThan(1000);
      expect(unsupplied).toBeGreaterThan(100);
      expect(checked - unsupplied).toBeGreaterThan(100);
    });
  }
});
