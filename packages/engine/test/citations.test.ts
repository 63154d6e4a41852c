/** Which tests cite which rule sections: titles and file names, and what does not count as a citation. */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { leadingSections, testCitations } from '../src/testing/citations.ts';

const dir = mkdtempSync(join(tmpdir(), 'salient-cite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('leadingSections', () => {
  it.each([
    ['6.2 Land Round', ['6.2']],
    ['B.5/6.6 ARM attacking from a TRS', ['B.5', '6.6']],
    ['4.2/B.2 the Europe Trs. example', ['4.2', 'B.2']],
    ['Scenario A victory', ['A']],
    ['B: the Western Allies win', ['B']],
    ['6.1/6 example: Bomber Command', ['6.1', '6']],
    ['1.8 rounding', ['1.8']],
    ['A.6: S on two air units', ['A.6']],
    ['Scenario full: set-up and seats', ['full']],
    ['full: the wars at the start', ['full']],
    ['full games end by the victory rules', []],
    ['B affects every unit', []],
    ['6 Oil and Resources at the start', []],
    ['observe', []],
    ['stated facts (5.2 and 6.2)', []],
  ])('%s -> %j', (title, ids) => {
    expect(leadingSections(title)).toEqual(ids);
  });

  it('a lone letter counts in a file name', () => {
    expect(leadingSections('A', true)).toEqual(['A']);
  });
});

describe('testCitations', () => {
  it('reads describe/it/test titles and file names under a directory, keeping only known ids', () => {
    mkdirSync(join(dir, 'rules'), { recursive: true });
    writeFileSync(join(dir, 'rules', '6.2-land-round.test.ts'), "describe('6.2 Land Round', () => { it(\"A.6: the worked example\", () => {}); test(`9.9 looting`, () => {}); });\n");
    writeFileSync(join(dir, 'other.test.ts'), "describe('observe', () => { it('B affects every unit', () => {}); });\n");
    writeFileSync(join(dir, 'notes.md'), "describe('6.2 not a test file')\n");
    const c = testCitations(dir, ['6.2', 'A.6', 'B']);
    expect([...c.keys()].sort()).toEqual(['6.2', 'A.6']);
    expect(c.get('6.2')).toEqual([
      { file: join('rules', '6.2-land-round.test.ts'), title: '6.2-land-round.test.ts' },
      { file: join('rules', '6.2-land-round.test.ts'), title: '6.2 Land Round' },
    ]);
    expect(c.get('A.6')).toEqual([{ file: join('rules', '6.2-land-round.test.ts'), title: 'A.6: the worked example' }]);
  });

  it('a missing directory cites nothing', () => {
    expect(testCitations(join(dir, 'nope'), ['6.2']).size).toBe(0);
  });
});

describe('two-digit, three-level and scenario-rule section ids (Empires & Alliances)', () => {
  it('reads 13.6, 13.643 and S3 3.7 at the head of a title, and 13 in a file name', () => {
    expect(leadingSections('13.6 odds and the CRT')).toEqual(['13.6']);
    expect(leadingSections('13.643 the example')).toEqual(['13.643']);
    expect(leadingSections('S3 3.7 victory')).toEqual(['S3 3.7']);
    expect(leadingSections('13', true)).toEqual(['13']);
    expect(leadingSections('13 combat')).toEqual([]);
  });
});
