/** 9 Rail movement on the synthetic front: none in March 1918 (3.67), along own rail, capacity (9.5), foreign countries' capacity (9.51, 9.52), not from enemy ZOC (9.2). */
import { describe, expect, it } from 'vitest';
import { foreignRail, railDestinations } from '../../src/rules/flow.ts';
import { arrange, opts, play, SCHEMES, start, unitsOf } from '../support/play.ts';

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  const april = (s: ReturnType<typeof start>['s']) => {
    const t = JSON.parse(JSON.stringify(s)) as typeof s;
    t.turn = 1;
    t.wx = 'clear';
    return t;
  };

  describe('9 rail movement', () => {
    it('is not allowed in March 1918 (3.67)', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' })[0]!;
      const t = arrange(b, s, { [ge]: '2442' });
      expect(opts(t)).not.toContain(`rail ${ge}`);
      expect(opts(april(t))).toContain(`rail ${ge}`);
    });

    it('runs along the side\'s own rail, here the whole row-24 line inside Germany', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' })[0]!;
      const t = april(arrange(b, s, { [ge]: '2442' }));
      const dest = railDestinations(b, t, ge).map((h) => b.map.id(h));
      expect(dest).toContain('2450');
      expect(dest).not.toContain('2454'); // Allied rail
      const x = play(t, `rail ${ge}`, 'to 2450');
      expect(b.map.id(x.s.hex[ge]!)).toBe('2450');
      expect(x.s.rail.GE).toBe(2);
    });

    it('stops at the rail capacity of the net: Germany 12 corps a turn (9.5)', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' })[0]!;
      const t = april(arrange(b, s, { [ge]: '2442' }));
      t.rail = { GE: 24 };
      expect(opts(t)).not.toContain(`rail ${ge}`);
    });

    it('cannot entrain in an enemy ZOC (9.2)', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' })[0]!;
      const fr = unitsOf(b, s, { nation: 'FR', type: 'inf' })[0]!;
      const t = april(arrange(b, s, { [ge]: '2442', [fr]: '2443' }));
      expect(opts(t)).not.toContain(`rail ${ge}`);
    });
  });

  describe('9.51-9.52 rail capacity on another country\'s railroads', () => {
    it('9.51: a German corps railed into Belgium counts against Germany\'s capacity and Belgium\'s (for the Central Powers)', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' })[0]!;
      const t = april(arrange(b, s, { [ge]: '2144' }));
      const dest = railDestinations(b, t, ge).map((h) => b.map.id(h));
      const be = dest.find((id) => b.map.countryCode(b.map.hex(id)) === 'BE')!;
      expect(be).toBeDefined();
      expect(foreignRail(b, ge, b.map.hex(be))).toEqual({ key: 'BE@CP', net: 'BE', corps: 3 });
      expect(foreignRail(b, ge, b.map.hex('2142'))).toBeUndefined(); // its own net
      const x = play(t, `rail ${ge}`, `to ${be}`);
      expect(x.s.rail).toEqual({ GE: 2, 'BE@CP': 2 });
    });

    it('9.52: Germany (a major power, 12) may rail 6 corps on Belgium\'s railroads (a minor, 3) while they lead to its supply sources; 3 without that path', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' })[0]!;
      const t = april(arrange(b, s, { [ge]: '2144' }));
      const inBelgium = (x: typeof t) => railDestinations(b, x, ge).filter((h) => b.map.countryCode(h) === 'BE').length;
      const some = inBelgium(t);
      expect(some).toBeGreaterThan(0);
      t.rail = { 'BE@CP': 4 }; // 2 corps used: a third fits Belgium's own 3
      expect(inBelgium(t)).toBe(some);
      t.rail = { 'BE@CP': 10 }; // 5 corps used: a sixth fits only by 9.52
      expect(inBelgium(t)).toBe(some);
      t.rail = { 'BE@CP': 11 }; // 5½: a corps more would be 6½
      expect(inBelgium(t)).toBe(0);
      expect(railDestinations(b, t, ge).length).toBeGreaterThan(0); // Germany's own rail is still open
      // No German city held (the Allies' in the test): no path to a German source, Belgium's 3 corps only.
      const u = JSON.parse(JSON.stringify(t)) as typeof t;
      u.flip = [...new Set([...u.flip, ...b.map.cities.filter((c) => b.map.countryCode(c.hex) === 'GE').map((c) => c.hex)])].sort((p, q) => p - q);
      u.rail = { 'BE@CP': 4 };
      expect(inBelgium(u)).toBe(some);
      u.rail = { 'BE@CP': 6 };
      expect(inBelgium(u)).toBe(0);
    });

    it('9.51: a British corps railing in France uses France\'s 9 corps as well as Britain\'s', () => {
      const { s, b } = start(undefined, scheme);
      const gb = unitsOf(b, s, { nation: 'GB', type: 'inf' })[0]!;
      const t = april(arrange(b, s, { [gb]: '2457' }));
      const inFrance = (x: typeof t) => railDestinations(b, x, gb).filter((h) => b.map.countryCode(h) === 'FR').length;
      const some = inFrance(t);
      expect(some).toBeGreaterThan(0);
      const to = railDestinations(b, t, gb).find((h) => b.map.countryCode(h) === 'FR')!;
      expect(foreignRail(b, gb, to)).toEqual({ key: 'FR', net: 'FR', corps: 9 }); // shared with the French units' own count
      t.rail = { FR: 16 };
      expect(inFrance(t)).toBe(some);
      t.rail = { FR: 17 };
      expect(inFrance(t)).toBe(0);
      t.rail = {};
      t.seg = 1; // the Allied Movement Phase
      const x = play(t, `rail ${gb}`, `to ${b.map.id(to)}`);
      expect(x.s.rail).toEqual({ GB: 2, FR: 2 });
    });
  });
});
