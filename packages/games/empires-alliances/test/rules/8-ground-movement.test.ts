/** 8 Ground movement on the synthetic front: MF after Mud (20.22, ruling mud-mf), enemy units, EZOC (8.3), one hex always (8.4), stacking at the end (6.1). */
import { describe, expect, it } from 'vitest';
import { destinations } from '../../src/rules/flow.ts';
import { arrange, SCHEMES, start, unitsOf } from '../support/play.ts';

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  describe('8 ground movement', () => {
    it('a 4-6-4 in March Mud moves at most 3 hexes; under mud-mf=halve-up at most 2', () => {
      for (const [rulings, max] of [[undefined, 3], ['mud-mf=halve-up', 2]] as const) {
        const { s, b } = start(rulings, scheme);
        const u = unitsOf(b, s, { nation: 'GE' }).find((x) => b.units[x]!.prof.id === 'ge-inf-464')!;
        const t = arrange(b, s, { [u]: '2442' });
        const from = t.hex[u]!;
        const far = Math.max(...destinations(b, t, u).map((h) => b.map.grid.distance(from, h)));
        expect(far).toBeLessThanOrEqual(max);
        expect(far).toBeGreaterThanOrEqual(max - 1);
      }
    });

    it('never enters a hex with enemy units, and stops short of the neutral Netherlands', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' })[0]!;
      const fr = unitsOf(b, s, { nation: 'FR', type: 'inf' })[0]!;
      const t = arrange(b, s, { [ge]: '1945', [fr]: '1946' });
      const dest = destinations(b, t, ge).map((h) => b.map.id(h));
      expect(dest).not.toContain('1946');
      expect(dest.some((id) => Number(id.slice(0, 2)) <= 17)).toBe(false);
    });

    it('may always move one hex (8.4) even when its MP would not pay for it', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' })[0]!;
      const t = arrange(b, s, { [ge]: '2442' });
      t.sup[ge] = 2; // unsupplied L2 and Mud: MF 1 at best
      const dest = destinations(b, t, ge);
      expect(dest.length).toBeGreaterThanOrEqual(1);
      expect(dest.every((h) => b.map.grid.distance(t.hex[ge]!, h) === 1)).toBe(true);
    });

    it('6.1/6.2 ends only where the stack stays legal', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' });
      const t = arrange(b, s, { [ge[0]!]: '2442', [ge[1]!]: '2443', [ge[2]!]: '2443', [ge[3]!]: '2443' });
      expect(destinations(b, t, ge[0]!).map((h) => b.map.id(h))).not.toContain('2443');
    });
  });
});
