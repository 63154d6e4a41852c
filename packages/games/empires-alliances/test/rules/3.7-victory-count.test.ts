/** S3 3.71 on the synthetic front: the count at the start, and half a point for a place cut off. */
import { describe, expect, it } from 'vitest';
import { vpPlaces } from '../../src/rules/flow.ts';
import { centralVp } from '../../src/rules/victory.ts';
import { arrange, game, SCHEMES, start, unitsOf } from '../support/play.ts';

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  describe('S3 3.7 the count (3.71)', () => {
    it('starts at 8: St Quentin and the Brussels and Antwerp garrisons, and the five German cities', () => {
      const { s, b } = start(undefined, scheme);
      expect(centralVp(vpPlaces(b, s))).toBe(8);
      expect(game.adjudicate(s).sides).toEqual({ CP: 'loss', AL: 'win' });
    });
    it('counts half for a German-held place that cannot trace supply', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' })[0]!;
      // German infantry in Reims, behind the French lines of sectors F and G.
      const t = arrange(b, s, { [ge]: '2755' }, true);
      const reims = vpPlaces(b, t)[b.vp.findIndex((p) => p.name === 'Reims')]!;
      expect(reims).toMatchObject({ germanInfantry: true, supplied: false });
    });
  });
});
