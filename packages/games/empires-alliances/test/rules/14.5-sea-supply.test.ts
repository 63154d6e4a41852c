/**
 * 14.5 Sea supply on the synthetic front: the Allies' ports (Calais 2057, Le Havre 2561) are a limited
 * source fed from London across the sea, 6 corps per unused corps of sea capacity (14.53).
 */
import { describe, expect, it } from 'vitest';
import type { Board } from '../../src/rules/board.ts';
import { supplySources, unitsInSupply } from '../../src/rules/flow.ts';
import type { EaState } from '../../src/rules/state.ts';
import { arrange, nb, SCHEMES, start, unitsOf } from '../support/play.ts';

const CALAIS = '2057';

/** `s` with Antwerp the Central Powers' (as on the real 1918 front) and, optionally, every other Allied home city but Calais lost. */
function position(b: Board, s: EaState, onlyCalais = false): EaState {
  const t = JSON.parse(JSON.stringify(s)) as EaState;
  const flip = new Set(t.flip);
  const a = b.city.get('Antwerp')!;
  if (b.startCtl[a] === 1) flip.add(a);
  if (onlyCalais) for (const c of b.map.cities) if (b.startCtl[c.hex] === 1 && c.name !== 'Calais') flip.add(c.hex);
  t.flip = [...flip].sort((x, y) => x - y);
  t.turn = 1;
  t.wx = 'clear';
  t.sea = {};
  return t;
}

const seaSource = (b: Board, s: EaState, side: 0 | 1) => supplySources(b, s, side).limited.find((l) => l.rule === '14.53');

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  describe('14.5 sea supply', () => {
    it('14.51-14.53: the Allied ports feed 6 corps per unused corps of sea capacity (Britain 3, France 2, the US 2 under sea-allies=western-allies)', () => {
      const { s, b } = start(undefined, scheme);
      const t = position(b, arrange(b, s, {}));
      const src = seaSource(b, t, 1)!;
      expect(src.hexes.map((h) => b.map.id(h))).toEqual([CALAIS, '2561']);
      expect(src.halves).toBe(6 * 2 * (3 + 2 + 2));
      t.sea = { GB: 2, FR: 4 }; // 14.53: capacity used for sea movement this turn does not supply
      expect(seaSource(b, t, 1)!.halves).toBe(6 * 2 * (3 - 1 + 0 + 2));
      const strict = position(b, arrange(b, start('sea-allies=british-only', scheme).s, {}));
      expect(seaSource(b, strict, 1)!.halves).toBe(6 * 2 * 3); // 14.52: only the seas (and countries) that sail
      expect(seaSource(b, t, 0)).toBeUndefined(); // Germany: no Supply Source across the Baltic
    });

    it('14.51: a port with an enemy unit in it does not count', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' })[0]!;
      const t = position(b, arrange(b, s, { [ge]: CALAIS }));
      expect(seaSource(b, t, 1)!.hexes.map((h) => b.map.id(h))).toEqual(['2561']);
    });

    it('14.53: a pocket around Calais is fed by sea while there is sea capacity, by the city alone when it is spent', () => {
      const { s, b } = start(undefined, scheme);
      const brit = [...unitsOf(b, s, { nation: 'GB', type: 'inf' }), ...unitsOf(b, s, { nation: 'CA' }), ...unitsOf(b, s, { nation: 'AU' })].slice(0, 12);
      expect(brit).toHaveLength(12);
      const hexes = [CALAIS, nb(b, CALAIS, 'E'), nb(b, CALAIS, 'NE'), nb(b, CALAIS, 'SE')];
      const place: Record<number, string> = {};
      brit.forEach((u, i) => (place[u] = hexes[i % 4]!));
      const t = position(b, arrange(b, s, place), true);
      expect(supplySources(b, t, 1).full).toEqual([]); // no network left
      const fed = (x: EaState) => Array.from(unitsInSupply(b, x, 1, brit)).filter((v, u) => v === 1 && brit.includes(u)).length;
      expect(fed(t)).toBe(12);
      t.sea = { GB: 6, FR: 4, US: 4 };
      expect(seaSource(b, t, 1)!.halves).toBe(0);
      expect(fed(t)).toBeLessThan(12);
      expect(fed(t)).toBeGreaterThanOrEqual(3); // Calais, a minor city, still feeds 3 corps (14.42)
    });
  });
});
