/**
 * The Combat Chart (6.5) of the bundled approximation pack: it must reproduce every result the
 * rulebook's worked examples state, and behave like a chart (a higher die or total is never weaker).
 */
import { describe, expect, it } from 'vitest';
import { checkBlitzPack } from '../src/pack/check.ts';
import { approximationPack } from '../src/pack/bundled.ts';
import { chartColumn, chartResult, parseResult } from '../src/rules/combat-chart.ts';
import type { CombatChart } from '../src/pack/schema.ts';

function bundledChart(): CombatChart {
  const r = checkBlitzPack(approximationPack);
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  return r.data['combat-chart'];
}
const chart = bundledChart();

/** Order of strength: the number first, then the letter (- < S < L < B). */
function strength(text: string): number {
  const r = parseResult(text);
  return r.damage * 4 + (r.letter === null ? 0 : { S: 1, L: 2, B: 3 }[r.letter]);
}

describe('worked examples (A.6, 6.6)', () => {
  const vectors: [string, number, number, string][] = [
    ['A.6 air example: RAF 2 + Stukas white triangle = 3, die 3', 3, 3, 'S'],
    ['A.6 air example: Luftwaffe 3 + Stukas 3 = 6, die 4', 6, 4, '1'],
    ['A.6 Polish Army fire back at column 3 (triangle not counted), die 6', 3, 6, '1S'],
    ['A.6 Polish Army fire back at column 4 (triangle counted), die 6', 4, 6, '1S'],
    ['A.6 Polish Army 3 + 1st Para white triangle = 4, die 2', 4, 2, 'S'],
    ['A.6 attack on Poland: 9.5 rounds to 10, die 4', 10, 4, '1L'],
    ['6.6 Soviet attack on the Don Basin: 19, die 4', 19, 4, '2L'],
    ['6.6 German defenders of the Don Basin: 13, die 2', 13, 2, '1S'],
  ];
  for (const [name, total, die, text] of vectors) {
    it(name, () => {
      expect(chartResult(chart, total, die).text).toBe(text);
    });
  }

  it('the columns holding stated results cite their rule', () => {
    for (const total of [3, 4, 6, 10, 13, 19]) {
      expect(chart.columns[chartColumn(chart, total)]?.refs?.length ?? 0, `column ${total}`).toBeGreaterThan(0);
    }
  });
});

describe('chart shape', () => {
  it('a higher die never gives a weaker result', () => {
    chart.columns.forEach((c, i) => {
      for (let d = 1; d < 6; d++) {
        expect(strength(c.results[d]!), `column ${i + 1}, die ${d + 1} vs ${d}`).toBeGreaterThanOrEqual(strength(c.results[d - 1]!));
      }
    });
  });

  it('a higher column never gives a weaker result', () => {
    for (let i = 1; i < chart.columns.length; i++) {
      for (let d = 0; d < 6; d++) {
        expect(strength(chart.columns[i]!.results[d]!), `column index ${i} vs ${i - 1}, die ${d + 1}`).toBeGreaterThanOrEqual(
          strength(chart.columns[i - 1]!.results[d]!),
        );
      }
    }
  });

  it('has one column per total 1..30 and a 30+ column', () => {
    expect(chart.columns.map((c) => c.min)).toEqual(Array.from({ length: 31 }, (_, i) => i + 1));
    expect(chart.columns.at(-1)!.max).toBeNull();
  });

  it('uses the 30+ column above 30 (6.5)', () => {
    const last = chart.columns.length - 1;
    expect(chartColumn(chart, 30)).toBe(last - 1);
    expect(chartColumn(chart, 31)).toBe(last);
    expect(chartColumn(chart, 57)).toBe(last);
    expect(chartResult(chart, 99, 6).text).toBe(chart.columns[last]!.results[5]);
  });

  it('is not looked up below 1 or with fractions (the caller applies 6 and 1.8 first)', () => {
    expect(() => chartColumn(chart, 0)).toThrow(RangeError);
    expect(() => chartColumn(chart, 9.5)).toThrow(RangeError);
    expect(() => chartResult(chart, 5, 7)).toThrow(RangeError);
  });

  it('splits results into damage and letter', () => {
    expect(parseResult('-')).toEqual({ damage: 0, letter: null, text: '-' });
    expect(parseResult('2')).toEqual({ damage: 2, letter: null, text: '2' });
    expect(parseResult('L')).toEqual({ damage: 0, letter: 'L', text: 'L' });
    expect(parseResult('1B')).toEqual({ damage: 1, letter: 'B', text: '1B' });
  });
});
