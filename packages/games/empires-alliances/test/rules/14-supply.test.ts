/**
 * 14 Supply on the synthetic front: paths, the escalation L1 -> L2 -> eliminated (14.1), the city delay
 * (14.63), full supply networks (14.3) and limited sources with their capacities (14.4, ruling
 * limited-overload).
 */
import { SupplySearch } from '@salient/hexmap';
import { describe, expect, it } from 'vitest';
import type { Board } from '../../src/rules/board.ts';
import { fastOf } from '../../src/rules/fast.ts';
import { controlMap, occupied, supplyOf, supplySources, unitsInSupply, zocOf } from '../../src/rules/flow.ts';
import { gaugeMap } from '../../src/rules/railheads.ts';
import type { EaState } from '../../src/rules/state.ts';
import { CAPACITY_HALVES, shareLimited, sourcesOf, unitSupply, type SourceInputs } from '../../src/rules/supply-sources.ts';
import { arrange, nb, playNoBuys as play, SCHEMES, start, unitsOf } from '../support/play.ts';

const cityHex = (b: Board, name: string): number => b.map.cities.find((c) => c.name === name)!.hex;
const names = (b: Board, hexes: readonly number[]): string[] => hexes.map((h) => b.map.cities[b.map.city[h]!]!.name).sort();
/** A side's source inputs as flow.ts reads them, copied so a test may change them. */
function inputs(b: Board, s: EaState, side: 0 | 1): SourceInputs {
  const e = (1 - side) as 0 | 1;
  return { ezoc: Uint8Array.from(zocOf(b, s, e)), theirs: Uint8Array.from(occupied(b, s, e)), control: Int8Array.from(controlMap(b, s)), gauge: Int8Array.from(gaugeMap(b, s)) };
}
const six = (b: Board, h: number): number[] => Array.from({ length: 6 }, (_, d) => b.map.neighbours[h * 6 + d]!).filter((x) => x >= 0);

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  describe('14.2 supply paths', () => {
    it('every unit of the set-up is in supply', () => {
      const { s, b } = start(undefined, scheme);
      for (const side of [0, 1] as const) {
        const dist = supplyOf(b, s, side);
        for (let u = 0; u < s.hex.length; u++) if (s.hex[u]! >= 0 && b.units[u]!.side === side) expect(dist[s.hex[u]!], `unit ${u}`).toBeGreaterThanOrEqual(0);
      }
    });
    it('an enemy ZOC ring cuts a unit off', () => {
      const { s, b } = start(undefined, scheme);
      const fr = unitsOf(b, s, { nation: 'FR', type: 'inf' })[0]!;
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' });
      // A French corps deep in Germany, ringed by German ZOC.
      const t = arrange(b, s, { [fr]: '2843', [ge[0]!]: '2641', [ge[1]!]: '2645', [ge[2]!]: '3041', [ge[3]!]: '3045' });
      expect(supplyOf(b, t, 1)[t.hex[fr]!]).toBe(-1);
    });
  });

  describe('14.1 the Supply Phase', () => {
    it('takes an unsupplied unit to L1, then L2, then eliminates it', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' });
      const fr = unitsOf(b, s, { nation: 'FR', type: 'inf' })[0]!;
      let t = arrange(b, s, { [fr]: '2843', [ge[0]!]: '2641', [ge[1]!]: '2645', [ge[2]!]: '3041', [ge[3]!]: '3045' });
      const toAlliedSupply = (x: typeof t) => {
        let y = play(x, 'done', 'done').s; // CP moves and fights nothing
        return y;
      };
      t = toAlliedSupply(t);
      expect(t.sup[fr]).toBe(1);
      // Finish the Allied segment, morale, April: to the next Allied segment.
      let y = play(t, 'done', 'done', 'die 1', 'die 1', 'die 1', 'die 1', 'die 5').s;
      y = play(y, 'done', 'done').s;
      expect(y.sup[fr]).toBe(2);
      y = play(y, 'done', 'done', 'die 5', 'done', 'done').s;
      expect(y.hex[fr]).toBe(-1);
    });
  });

  describe('14.3 full supply sources', () => {
    it('the set-up: Cologne, Frankfurt and Strassburg are the Central Powers\' network, Le Havre, Rouen and Paris the Allies\'; the other home cities are limited', () => {
      const { s, b } = start(undefined, scheme);
      const cp = supplySources(b, s, 0);
      expect(names(b, cp.full)).toEqual(['Cologne', 'Frankfurt', 'Strassburg']);
      // Essen, Metz and Stuttgart are major cities off the rail: 14.41, 6 corps each; Aachen and Saarbrucken minor: 14.42, 3 corps.
      expect(Object.fromEntries(cp.limited.map((l) => [names(b, l.hexes)[0], l.halves / 2]))).toEqual({ Essen: 6, Metz: 6, Stuttgart: 6, Aachen: 3, Saarbrucken: 3 });
      const al = supplySources(b, s, 1);
      expect(names(b, al.full)).toEqual(['Le Havre', 'Paris', 'Rouen']);
      // Lille, Brussels and Antwerp are held by the Central Powers: no sources for the Allies.
      expect(names(b, al.limited.flatMap((l) => l.hexes))).toEqual(['Amiens', 'Belfort', 'Calais', 'Dijon', 'Epinal', 'Nancy', 'Reims', 'Toul', 'Verdun']);
      expect(al.limited.every((l) => l.halves === 6)).toBe(true);
      expect(al.all.length).toBe(al.full.length + al.limited.length);
    });

    it('a city in enemy ZOC leaves the network, and two cities are no network: all become limited sources', () => {
      const { s, b } = start(undefined, scheme);
      const fr = unitsOf(b, s, { nation: 'FR', type: 'inf' })[0]!;
      const t = arrange(b, s, { [fr]: nb(b, '2741', 'SE') }, true);
      const cp = supplySources(b, t, 0);
      expect(cp.full).toEqual([]);
      const frankfurt = cp.limited.find((l) => l.hexes[0] === cityHex(b, 'Frankfurt'));
      expect(frankfurt?.halves).toBe(12); // 14.41: still open on its other sides
      expect(names(b, cp.limited.flatMap((l) => l.hexes))).toContain('Cologne');
    });

    it('the cities must be linked by rail free of enemy ZOC: cutting row 22 splits Cologne off and ends the network', () => {
      const { s, b } = start(undefined, scheme);
      const x = inputs(b, s, 0);
      const row22 = b.map.hexes.filter((h) => b.map.grid.row(h) === 22 && b.map.countryCode(h) === 'GE');
      for (const h of row22.filter((h) => b.map.grid.col(h) <= 44)) x.ezoc[h] = 1;
      expect(names(b, sourcesOf(b, s, 0, x).full)).toEqual(['Cologne', 'Frankfurt', 'Strassburg']); // the column-48 line still links them
      for (const h of row22) x.ezoc[h] = 1;
      expect(sourcesOf(b, s, 0, x).full).toEqual([]);
      // Enemy units on the rail cut it the same way, and so does a rail hex the side does not control.
      const y = inputs(b, s, 0);
      for (const h of row22) y.theirs[h] = 1;
      expect(sourcesOf(b, s, 0, y).full).toEqual([]);
      const z = inputs(b, s, 0);
      for (const h of row22) z.control[h] = 1;
      expect(sourcesOf(b, s, 0, z).full).toEqual([]);
    });
  });

  describe('14.4 limited supply sources', () => {
    it('a city stops being one only when every adjacent non-neutral land hex is enemy-held or in enemy ZOC', () => {
      const { s, b } = start(undefined, scheme);
      const saar = cityHex(b, 'Saarbrucken');
      const x = inputs(b, s, 0);
      const around = six(b, saar);
      expect(around.length).toBe(6);
      for (const h of around.slice(1)) x.ezoc[h] = 1;
      x.ezoc[saar] = 1; // the city itself in enemy ZOC does not close it
      expect(sourcesOf(b, s, 0, x).limited.some((l) => l.hexes[0] === saar)).toBe(true);
      x.theirs[around[0]!] = 1; // the last hex held by an enemy unit
      expect(sourcesOf(b, s, 0, x).limited.some((l) => l.hexes[0] === saar)).toBe(false);
      // Le Havre by the sea: its sea neighbours do not count; in enemy ZOC it leaves the Allied network, then closes with its land neighbours.
      const havre = cityHex(b, 'Le Havre');
      const y = inputs(b, s, 1);
      y.ezoc[havre] = 1;
      const land = six(b, havre).filter((h) => b.mp[h] !== 255);
      expect(land.length).toBeLessThan(6);
      expect(sourcesOf(b, s, 1, y).limited.find((l) => l.hexes[0] === havre)?.halves).toBe(12);
      for (const h of land) y.ezoc[h] = 1;
      const set = sourcesOf(b, s, 1, y);
      expect(set.full).toEqual([]);
      expect(set.limited.some((l) => l.hexes[0] === havre)).toBe(false);
    });

    it('capacities: a minor city feeds 3 corps, a major city 6, a box 6; non-US divisions and 1-factor artillery count half; nearest first, then unit number', () => {
      expect(CAPACITY_HALVES).toEqual({ major: 12, minor: 6, box: 12 });
      const { s, b } = start(undefined, scheme);
      const f = fastOf(b);
      const corps = unitsOf(b, s, { side: 1 }).filter((u) => f.ground[u] === 1 && f.halves[u] === 2);
      const halfs = unitsOf(b, s, { side: 1 }).filter((u) => f.ground[u] === 1 && f.halves[u] === 1);
      expect(halfs.length).toBeGreaterThanOrEqual(2);
      const dijon = cityHex(b, 'Dijon');
      const ring1 = six(b, dijon);
      const search = new SupplySearch(b.map);
      const trace = (src: readonly number[]) => search.run({ sources: src, limit: 5 });
      const place = (list: [number, number][]) => {
        const t = arrange(b, s, Object.fromEntries(list.map(([u, h]) => [u, b.map.id(h)])));
        return t;
      };
      // Four corps next to Dijon (all one hex away): a minor city feeds three, the lowest numbers.
      const four = corps.slice(0, 4);
      let t = place(four.map((u, i) => [u, ring1[i]!]));
      let fed = unitSupply(t, f, { full: [], limited: [{ hexes: [dijon], halves: CAPACITY_HALVES.minor, rule: '14.42' }], all: [dijon] }, four, trace);
      expect(four.map((u) => fed[u])).toEqual([1, 1, 1, 0]);
      // Nearer first: the highest-numbered corps on the city itself (0 hexes) is fed before the others.
      t = place([...four.slice(0, 3).map((u, i): [number, number] => [u, ring1[i]!]), [four[3]!, dijon]]);
      fed = unitSupply(t, f, { full: [], limited: [{ hexes: [dijon], halves: CAPACITY_HALVES.minor, rule: '14.42' }], all: [dijon] }, four, trace);
      expect(four.map((u) => fed[u])).toEqual([1, 1, 0, 1]);
      // Two corps and two half-corps units make 3 corps: all fed.
      const mix = [...corps.slice(0, 2), ...halfs.slice(0, 2)];
      t = place(mix.map((u, i) => [u, ring1[i]!]));
      fed = unitSupply(t, f, { full: [], limited: [{ hexes: [dijon], halves: CAPACITY_HALVES.minor, rule: '14.42' }], all: [dijon] }, mix, trace);
      expect(mix.map((u) => fed[u])).toEqual([1, 1, 1, 1]);
      // A major city (or a box) feeds six corps of seven; a full source feeds all seven and uses no capacity.
      const seven = corps.slice(0, 7);
      const ring2 = b.map.hexes.filter((h) => b.map.grid.distance(h, dijon) === 2 && b.mp[h] !== 255);
      t = place(seven.map((u, i) => [u, i < 6 ? ring1[i]! : ring2[0]!]));
      fed = unitSupply(t, f, { full: [], limited: [{ hexes: [dijon], halves: CAPACITY_HALVES.major, rule: '14.41' }], all: [dijon] }, seven, trace);
      expect(seven.map((u) => fed[u])).toEqual([1, 1, 1, 1, 1, 1, 0]);
      fed = unitSupply(t, f, { full: [dijon], limited: [], all: [dijon] }, seven, trace);
      expect(seven.every((u) => fed[u] === 1)).toBe(true);
      // A unit that reaches two limited sources takes the nearer one with room.
      const out = shareLimited([{ u: 1, src: 0, dist: 0 }, { u: 2, src: 0, dist: 1 }, { u: 2, src: 1, dist: 3 }], [2, 2], [0, 2, 2], new Uint8Array(3));
      expect([...out]).toEqual([0, 1, 1]);
    });

    it('with Paris in German ZOC the Allies have no full source: the Supply Phase feeds what the limited sources can and marks the rest L1', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' })[0]!;
      let t = arrange(b, s, { [ge]: nb(b, '2760', 'SE') }, true);
      expect(supplySources(b, t, 1).full).toEqual([]);
      const allied = unitsOf(b, t, { side: 1 }).filter((u) => t.hex[u]! >= 0 && b.units[u]!.prof.type !== 'air');
      const dist = supplyOf(b, t, 1);
      expect(allied.every((u) => dist[t.hex[u]!]! >= 0)).toBe(true); // every unit still has a 14.2 path
      const fed = unitsInSupply(b, t, 1, allied);
      const f = fastOf(b);
      const cap = supplySources(b, t, 1).limited.reduce((a, l) => a + l.halves, 0);
      const fedHalves = allied.filter((u) => fed[u] === 1).reduce((a, u) => a + f.halves[u]!, 0);
      expect(fedHalves).toBeLessThanOrEqual(cap);
      expect(fedHalves).toBeGreaterThan(0);
      const unfed = allied.filter((u) => fed[u] === 0);
      expect(unfed.length).toBeGreaterThan(0);
      t = play(t, 'done', 'done').s; // the CP segment: to the Allied Supply Phase
      for (const u of allied) if (t.hex[u]! >= 0) expect(t.sup[u], `unit ${u}`).toBe(fed[u] === 1 ? 0 : 1);
    });
  });
});
