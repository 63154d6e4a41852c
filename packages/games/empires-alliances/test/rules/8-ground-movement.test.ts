/** 8 Ground movement on the synthetic front: MF after Mud (20.22, ruling mud-mf), enemy units, EZOC (8.3), one hex always (8.4) and its exception for unsupplied units (ruling unsupplied-move), stacking at the end (6.1). */
import { describe, expect, it } from 'vitest';
import { destinations, supplySources } from '../../src/rules/flow.ts';
import { arrange, nb, SCHEMES, start, unitsOf } from '../support/play.ts';

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

    it('8.4 exception: an unsupplied unit\'s one-hex move may not take it farther (in hexes) from its nearest supply source', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' }).find((x) => b.units[x]!.prof.move === 4)!;
      const fr = unitsOf(b, s, { nation: 'FR', type: 'inf' });
      let checked = 0;
      // French corps east and west of the German one: it and its four other neighbours are in enemy ZOC, so each
      // step costs 2 MP (8.3), more than the 1 MP it has unsupplied (L2) in Mud: every move is a one-hex move (8.4).
      for (const x of ['2442', '2642', '3042', '2342', '2842']) {
        const ids = (['NE', 'NW', 'SW', 'SE'] as const).map((d) => nb(b, x, d));
        const t = arrange(b, s, { [ge]: x, [fr[0]!]: nb(b, x, 'W'), [fr[1]!]: nb(b, x, 'E') });
        const sources = supplySources(b, t, 0).all;
        const far = (id: string) => Math.min(...sources.map((h) => b.map.grid.distance(b.map.hex(id), h)));
        expect(destinations(b, t, ge).map((h) => b.map.id(h)), 'supplied: MF 3 pays for each').toEqual(expect.arrayContaining(ids));
        t.sup[ge] = 2;
        const want = ids.filter((id) => far(id) <= far(x)).sort();
        if (want.length === 0 || want.length === ids.length) continue;
        expect(destinations(b, t, ge).map((h) => b.map.id(h)).sort(), `from ${x}`).toEqual(want);
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
    });

    it('6.1/6.2 ends only where the stack stays legal', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' });
      const t = arrange(b, s, { [ge[0]!]: '2442', [ge[1]!]: '2443', [ge[2]!]: '2443', [ge[3]!]: '2443' });
      expect(destinations(b, t, ge[0]!).map((h) => b.map.id(h))).not.toContain('2443');
    });
  });
});
