import { describe, expect, it } from 'vitest';
import { SalientError } from '@salient/engine';
import { lineColumn, locateJsonError, parseJsonText } from '../src/json-text.ts';

describe('locateJsonError', () => {
  const cases: Array<[string, number, RegExp]> = [
    ['{"a": }', 6, /unexpected '}'/],
    ['{"a":1', 6, /expected ',' or '}'/],
    ['[1,2,]', 5, /trailing comma/],
    ['{"a":1,}', 7, /trailing comma/],
    ['{"a":1}x', 7, /after the end/],
    ["{'a':1}", 1, /double quotes/],
    ['{"a":"x\ny"}', 7, /control character/],
    ['', 0, /end of input/],
    ['[01]', 2, /expected ',' or ']'/],
    ['{"a": tru}', 6, /unexpected 't'/],
  ];
  for (const [text, offset, message] of cases) {
    it(`finds the error in ${JSON.stringify(text)}`, () => {
      expect(() => JSON.parse(text)).toThrow();
      const e = locateJsonError(text);
      expect(e?.offset).toBe(offset);
      expect(e?.message).toMatch(message);
    });
  }

  it('accepts what JSON.parse accepts', () => {
    for (const t of ['{}', '[]', ' 1 ', '-0.5e+3', '"\\u00e9\\n"', '{"a":[true,false,null,{"b":"c"}]}']) {
      expect(() => JSON.parse(t)).not.toThrow();
      expect(locateJsonError(t)).toBeUndefined();
    }
  });
});

describe('parseJsonText', () => {
  it('reports file, line and column', () => {
    const text = '{\n  "a": 1,\n  "b": [1, 2,,]\n}\n';
    try {
      parseJsonText(text, 'map.json', 'BAD_PACK');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(SalientError);
      expect((e as SalientError).code).toBe('BAD_PACK');
      expect((e as SalientError).message).toMatch(/^map\.json:3:14: invalid JSON: /);
    }
  });

  it('counts lines and columns from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
