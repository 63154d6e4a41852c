/** 14 Supply on the synthetic front: paths, the escalation L1 -> L2 -> eliminated (14.1), the city delay (14.63). */
import { describe, expect, it } from 'vitest';
import { supplyOf } from '../../src/rules/flow.ts';
import { arrange, playNoBuys as play, SCHEMES, start, unitsOf } from '../support/play.ts';

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  describe('14.2 supply paths', () => {
    it('every unit of the set-up is in supply', () => {
      const { s, b } = start(undefined, scheme);
      for (const side of [0, 1] as const) {
        const dist = supplyOf(b, s, side);
        for (let u = 0; u < s.hex.length; u++) if (s.hex[u]! >= 0 && b.units[u]!.side === side) expect(dist[s.hex[u]!], `unit ${u}`).toBeGreaterThanOrEqual(0);
      }
    });
    it('an enemy ZOC ring cuts a unit off', () => {
      const { s, b } = start(undefined, scheme);
      const fr = unitsOf(b, s, { nation: 'FR', type: 'inf' })[0]!;
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' });
      // A French corps deep in Germany, ringed by German ZOC.
      const t = arrange(b, s, { [fr]: '2843', [ge[0]!]: '2641', [ge[1]!]: '2645', [ge[2]!]: '3041', [ge[3]!]: '3045' });
      expect(supplyOf(b, t, 1)[t.hex[fr]!]).toBe(-1);
    });
  });

  describe('14.1 the Supply Phase', () => {
    it('takes an unsupplied unit to L1, then L2, then eliminates it', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' });
      const fr = unitsOf(b, s, { nation: 'FR', type: 'inf' })[0]!;
      let t = arrange(b, s, { [fr]: '2843', [ge[0]!]: '2641', [ge[1]!]: '2645', [ge[2]!]: '3041', [ge[3]!]: '3045' });
      const toAlliedSupply = (x: typeof t) => {
        let y = play(x, 'done', 'done').s; // CP moves and fights nothing
        return y;
      };
      t = toAlliedSupply(t);
      expect(t.sup[fr]).toBe(1);
      // Finish the Allied segment, morale, April: to the next Allied segment.
      let y = play(t, 'done', 'done', 'die 1', 'die 1', 'die 1', 'die 1', 'die 5').s;
      y = play(y, 'done', 'done').s;
      expect(y.sup[fr]).toBe(2);
      y = play(y, 'done', 'done', 'die 5', 'done', 'done').s;
      expect(y.hex[fr]).toBe(-1);
    });
  });
});
