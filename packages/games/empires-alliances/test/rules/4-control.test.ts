/** 4 Control: the 1918 start line (4.11), and control passing when a ground unit enters (4.2). */
import { describe, expect, it } from 'vitest';
import { ctl } from '../../src/rules/flow.ts';
import { arrange, play, SCHEMES, start, unitsOf } from '../support/play.ts';

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  describe('4.1 control by the start line (4.11)', () => {
    it('gives every sector hex to its side, Germany to the Central Powers and Paris to the Allies', () => {
      const { s, b } = start(undefined, scheme);
      for (const sec of b.scen.sectors) for (const id of sec.hexes) expect(ctl(b, s, b.map.hex(id))).toBe(sec.side === 'CP' ? 0 : 1);
      expect(ctl(b, s, b.city.get('Cologne')!)).toBe(0);
      expect(ctl(b, s, b.city.get('Lille')!)).toBe(0);
      expect(ctl(b, s, b.city.get('Paris')!)).toBe(1);
      expect(ctl(b, s, b.map.hex('1745'))).toBe(-1); // the Netherlands: nobody's
    });
  });

  describe('4.2 change of control', () => {
    it('passes to the side whose ground unit enters, even in passing', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' })[0]!;
      const t = arrange(b, s, { [ge]: '2051' });
      expect(ctl(b, t, b.map.hex('2053'))).toBe(1);
      const x = play(t, `move ${ge}`, 'to 2053');
      expect(ctl(b, x.s, b.map.hex('2053'))).toBe(0);
      expect(ctl(b, x.s, b.map.hex('2052'))).toBe(0);
    });
  });
});
