/** 9 Rail movement on the synthetic front: none in March 1918 (3.67), along own rail, capacity (9.5), not from enemy ZOC (9.2). */
import { describe, expect, it } from 'vitest';
import { railDestinations } from '../../src/rules/flow.ts';
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
});
