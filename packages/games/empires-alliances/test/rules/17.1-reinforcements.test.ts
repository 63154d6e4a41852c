/** 17.1 Reinforcements on the synthetic front: the S3 3.511 French corps at Dijon in April 1918, the US by port (17.31). */
import { describe, expect, it } from 'vitest';
import { game, play, SCHEMES, skipUntil, start } from '../support/play.ts';

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  describe('17.1 reinforcements', () => {
    it('bring the French 4-6-4 to Dijon and the first US division to a port in the April Allied segment', () => {
      const { s, b } = start(undefined, scheme);
      const april = skipUntil(s, (x) => x.turn === 1 && x.seg === 1 && x.phase === 'move');
      const fr = b.units.findIndex((u) => u.nation === 'FR' && u.arrives === b.first + 1);
      expect(b.map.id(april.hex[fr]!)).toBe(b.map.id(b.city.get('Dijon')!));
      const us = b.units.findIndex((u) => u.nation === 'US' && u.arrives === b.first + 1);
      expect(b.map.flags[april.hex[us]!]! & 1).toBe(1); // a port
      expect(game.position(april)).toMatchObject({ turn: 2, impulse: 2 });
      void play;
    });
    it('keep later arrivals off the map until their month', () => {
      const { s, b } = start(undefined, scheme);
      const ah = b.units.findIndex((u) => u.nation === 'AH');
      expect(s.hex[ah]).toBe(-2);
    });
  });
});
