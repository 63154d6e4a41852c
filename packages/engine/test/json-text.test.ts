/**
 * The one JSON text parser: strict JSON, duplicate names and __proto__ refused, size and depth limits,
 * every problem by line and column, and no recursion however deep the text nests.
 */
import { describe, expect, it } from 'vitest';
import { checkDepth, INPUT_LIMITS, locateJsonError, parseJsonText, SalientError, type InputLimit } from '../src/index.ts';

const LIMIT: InputLimit = { what: 'a test file', maxBytes: 1000, maxDepth: 64 };

function refusal(text: string, limit: InputLimit | undefined = LIMIT): SalientError {
  try {
    parseJsonText(text, 'f.json', 'BAD_PACK', limit);
  } catch (e) {
    if (e instanceof SalientError) return e;
    throw e;
  }
  throw new Error(`expected ${JSON.stringify(text.slice(0, 40))} to be refused`);
}

const nested = (depth: number, inner = '0') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('parseJsonText', () => {
  it('refuses what is not strict JSON, by line and column', () => {
    expect(refusal('{\n  "a": 1,\n}').message).toBe('f.json:3:1: invalid JSON: trailing comma before }');
    expect(refusal('{"a": 1} // note').message).toMatch(/^f\.json:1:10: invalid JSON: unexpected '\/' after the end/);
    expect(refusal('/* c */ {}').message).toMatch(/^f\.json:1:1: invalid JSON: unexpected '\/'/);
  });

  it('refuses a name given twice in one object, which JSON.parse would take silently', () => {
    expect(JSON.parse('{"a": 1, "a": 2}')).toEqual({ a: 2 });
    expect(refusal('{"a": 1,\n "b": {"x": 1}, "\\u0061": 2}').message).toBe('f.json:2:17: property "a" is given twice in this object: keep one');
    // The same name in two objects is fine.
    expect(parseJsonText('[{"a": 1}, {"a": 2}]', 'f.json', 'BAD_PACK', LIMIT)).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('refuses the name __proto__', () => {
    expect(refusal('{"x": {"__proto__": {"polluted": true}}}').message).toBe('f.json:1:8: the property name "__proto__" is not accepted: rename or remove it');
  });

  it('takes nesting up to the limit and refuses one level more, saying the limit and where', () => {
    expect(parseJsonText(nested(64), 'f.json', 'BAD_PACK', LIMIT)).toBeDefined();
    const e = refusal(`{"a": {"b": ${nested(63)}}}`);
    expect(e.code).toBe('BAD_PACK');
    expect(e.message).toMatch(/^f\.json:1:\d+: nested deeper than 64 levels at \$\.a\.b\[0\]\[0\]\[0\].*…\(\d+ more levels\)…\[0\]\[0\]\[0\]\[0\]; a test file never nests this deep/);
  });

  it('refuses 50,000 levels at once, without a stack overflow, and names the line', () => {
    const text = `{\n"deep": ${nested(50_000)}}`;
    const started = performance.now();
    const e = refusal(text, INPUT_LIMITS.packFile);
    expect(performance.now() - started).toBeLessThan(500);
    expect(e.message).toMatch(/^f\.json:2:72: nested deeper than 64 levels at \$\.deep\[0\]/);
    // Also when the text is broken too: locating a syntax error walks it without recursing.
    expect(locateJsonError(nested(50_000).slice(0, -1))).toMatchObject({ message: expect.stringMatching(/expected ',' or '\]'/) });
  });

  it('refuses text over the size limit before parsing it', () => {
    const e = refusal(`[${'1,'.repeat(600)}1]`);
    expect(e.message).toBe('f.json: 1.2 KiB is more than the 1000 bytes a test file may have. No honest test file comes near that size: check that this is the right file.');
  });

  it('reads numbers and strings of any length as JSON.parse does', () => {
    const text = `{"n": 1${'0'.repeat(500)}, "s": "${'x\\n'.repeat(300)}", "e": -0.5e+3}`;
    expect(parseJsonText(text, 'f.json', 'BAD_PACK')).toEqual(JSON.parse(text));
  });
});

describe('checkDepth', () => {
  it('measures a parsed value without recursing', () => {
    let v: unknown = 1;
    for (let i = 0; i < 50_000; i++) v = { k: v };
    expect(() => checkDepth(v, LIMIT, 'body', 'BAD_ARGUMENT')).toThrow(/^body: nested deeper than 64 levels at \$\.k\.k/);
    expect(() => checkDepth(JSON.parse(nested(64)), LIMIT, 'body', 'BAD_ARGUMENT')).not.toThrow();
  });
});
