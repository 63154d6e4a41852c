/** S3 3.6 special rules on the synthetic front: British and French sectors by row (3.62), March Mud (3.66). */
import { describe, expect, it } from 'vitest';
import { destinations } from '../../src/rules/flow.ts';
import { arrange, SCHEMES, start, unitsOf } from '../support/play.ts';

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  describe('S3 3.6 sectors (3.62)', () => {
    it('keeps British units in rows 24 and north, and French units in rows 25 and south, in March', () => {
      const { s, b } = start(undefined, scheme);
      const gb = unitsOf(b, s, { nation: 'GB', type: 'inf' })[0]!;
      const fr = unitsOf(b, s, { nation: 'FR', type: 'inf' })[0]!;
      const t = arrange(b, s, { [gb]: '2458', [fr]: '2759' });
      expect(destinations(b, t, gb).every((h) => b.map.grid.row(h) <= 24)).toBe(true);
      expect(destinations(b, t, fr).every((h) => b.map.grid.row(h) >= 25)).toBe(true);
    });
    it('lets each use the next row from May 1918', () => {
      const { s, b } = start(undefined, scheme);
      const gb = unitsOf(b, s, { nation: 'GB', type: 'inf' })[0]!;
      const t = arrange(b, s, { [gb]: '2458' });
      t.turn = 2; // May 1918
      t.wx = 'clear';
      const rows = destinations(b, t, gb).map((h) => b.map.grid.row(h));
      expect(Math.max(...rows)).toBe(25);
    });
  });

  describe('S3 3.6 March Mud (3.66)', () => {
    it('sets the weather of the first turn to Mud', () => {
      expect(start(undefined, scheme).s.wx).toBe('mud');
    });
  });
});

describe('S3 3.61 area of the map used', () => {
  it('opens only Germany, France, Britain, Belgium and Luxembourg: Austria-Hungary is at war (3.2) but off the area, neutrals closed', async () => {
    const { empiresAlliances: game } = await import('../../src/game.ts');
    const { approximationPack } = await import('../../src/pack/bundled.ts');
    const { boardOf } = await import('../../src/rules/board.ts');
    const checked = game.checkPack(approximationPack);
    if (!checked.ok) throw new Error('bundled pack is invalid');
    const b = boardOf(game.setup('1918', checked.pack, { deploy: 'deal' }).key);
    const byCountry = new Map<string, number[]>();
    for (const h of b.map.hexes) {
      const c = b.map.countryCode(h);
      if (c !== undefined && b.mp[h]! < 255) byCountry.set(c, [...(byCountry.get(c) ?? []), b.neutral[h]!]);
    }
    for (const c of ['GE', 'FR', 'BE', 'LU']) expect(byCountry.get(c)!.every((x) => x === 0), c).toBe(true);
    for (const c of ['AH', 'NL', 'CH', 'IT']) expect(byCountry.get(c)!.every((x) => x === 1), c).toBe(true);
  });
});
