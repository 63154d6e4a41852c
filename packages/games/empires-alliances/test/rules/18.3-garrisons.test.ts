/** 18.3 Garrisons on the synthetic front, under both grid schemes: which cities need one (18.31), what counts, and the Infantry RP lost for each one short at the end of the segment (18.32). */
import { describe, expect, it } from 'vitest';
import { garrisonCities, garrisonShort } from '../../src/rules/garrisons.ts';
import type { EaState } from '../../src/rules/state.ts';
import { arrange, playNoBuys as play, SCHEMES, start, unitsOf } from '../support/play.ts';

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  const names = (b: ReturnType<typeof start>['b'], hs: number[]) => hs.map((h) => b.map.cities[b.map.city[h]!]!.name).sort();

  describe('18.3 which cities (18.31)', () => {
    it('asks the Central Powers for Brussels and the French and Belgian major cities they hold; the Allies for none at the start', () => {
      const { s, b } = start(undefined, scheme);
      const cp = garrisonCities(b, s, 0);
      expect(names(b, cp)).toContain('Brussels');
      for (const h of cp) {
        const c = b.map.cities[b.map.city[h]!]!;
        expect(c.size === 'major' || c.name === 'Brussels').toBe(true);
        expect(['FR', 'BE']).toContain(b.map.countryCode(h));
      }
      // Lille (major) counts while the Central Powers hold it, and not once the Allies do.
      const lille = b.map.hex('2250');
      const t = JSON.parse(JSON.stringify(s)) as EaState;
      if (!cp.includes(lille)) t.flip = [...t.flip, lille].sort((x, y) => x - y);
      expect(garrisonCities(b, t, 0)).toContain(lille);
      t.flip = t.flip.includes(lille) ? t.flip.filter((h) => h !== lille) : [...t.flip, lille].sort((x, y) => x - y);
      expect(garrisonCities(b, t, 0)).not.toContain(lille);
      expect(garrisonCities(b, s, 1)).toEqual([]);
    });

    it('asks the Allies for a German major city they take (Cologne), not a minor one (Aachen)', () => {
      const { s, b } = start(undefined, scheme);
      const t = JSON.parse(JSON.stringify(s)) as EaState;
      t.flip = [b.map.hex('2143'), b.map.hex('2146')].sort((x, y) => x - y);
      expect(names(b, garrisonCities(b, t, 1))).toEqual(['Cologne']);
    });
  });

  describe('18.3 what garrisons (18.31)', () => {
    it('takes one infantry or cavalry corps; artillery does not count', () => {
      const { s, b } = start(undefined, scheme);
      const fr = unitsOf(b, s, { nation: 'FR', type: 'fa' })[0]!;
      const cav = unitsOf(b, s, { nation: 'FR', type: 'cav' })[0]!;
      let t = arrange(b, s, { [fr]: '2143' });
      t.flip = [b.map.hex('2143')];
      expect(names(b, garrisonShort(b, t, 1))).toEqual(['Cologne']);
      t = arrange(b, s, { [fr]: '2143', [cav]: '2143' });
      t.flip = [b.map.hex('2143')];
      expect(garrisonShort(b, t, 1)).toEqual([]);
    });
  });

  describe('18.3 the shortfall (18.32)', () => {
    it('costs Germany 1 Infantry RP per city short at the end of its segment, taken off the next turn\'s RPs', () => {
      const { s, b } = start(undefined, scheme);
      // Empty Brussels: it is short, with any other city left without a corps.
      const keep: Record<number, string> = {};
      for (let u = 0; u < s.hex.length; u++) if (s.hex[u]! >= 0 && b.map.id(s.hex[u]!) !== '2049') keep[u] = b.map.id(s.hex[u]!);
      const t = arrange(b, s, keep);
      const want = garrisonShort(b, t, 0).length;
      expect(names(b, garrisonShort(b, t, 0))).toContain('Brussels');
      const before = t.rp.GE![0]!;
      const x = play(t, 'done', 'done');
      expect(x.events.filter((e) => e.type === 'garrison')).toHaveLength(want);
      expect(x.s.rp.GE![0]).toBe(before - want);
    });

    it('costs nothing when every city has its corps', () => {
      const { s, b } = start(undefined, scheme);
      const spare = unitsOf(b, s, { nation: 'GE', type: 'inf' });
      const place: Record<number, string> = {};
      garrisonCities(b, s, 0).forEach((h, i) => (place[spare[i]!] = b.map.id(h)));
      const t = arrange(b, s, place);
      expect(garrisonShort(b, t, 0)).toEqual([]);
      const x = play(t, 'done', 'done');
      expect(x.events.filter((e) => e.type === 'garrison')).toEqual([]);
      expect(x.s.rp.GE![0]).toBe(t.rp.GE![0]);
    });
  });
});
