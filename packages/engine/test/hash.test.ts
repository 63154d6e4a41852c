import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashJson, hashString } from '../src/index.ts';

/** `canonicalJson` as it was before the single-pass writer: the output (and errors) it must keep giving. */
function original(v: unknown, path = '$'): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError(`Non-finite number at ${path}: state must be plain JSON`);
      return JSON.stringify(v);
    case 'object': {
      if (Array.isArray(v)) return '[' + v.map((x, i) => original(x, `${path}[${i}]`)).join(',') + ']';
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) {
        throw new TypeError(`Non-plain object at ${path}: state must be plain JSON (no classes, Maps or Dates)`);
      }
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .sort();
      return '{' + keys.map((k) => JSON.stringify(k) + ':' + original(o[k], `${path}.${k}`)).join(',') + '}';
    }
    default:
      throw new TypeError(`Value of type ${typeof v} at ${path}: state must be plain JSON`);
  }
}

const outcome = (f: () => string): { ok: string } | { error: string } => {
  try {
    return { ok: f() };
  } catch (e) {
    return { error: String(e) };
  }
};

describe('canonicalJson', () => {
  it('sorts keys at every depth, drops undefined properties, no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: null }, true], u: undefined, '10': 0, '9': -0 })).toBe(
      '{"10":0,"9":0,"a":[{"c":null,"d":"x"},true],"b":1}',
    );
    expect(canonicalJson(Object.assign(Object.create(null), { z: 1e21, y: 1.5e-7, 'é"\n': '\u2028' }))).toBe(
      original(Object.assign(Object.create(null), { z: 1e21, y: 1.5e-7, 'é"\n': '\u2028' })),
    );
  });

  it('gives exactly the original output for any JSON value (sorted or not)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(canonicalJson(v)).toBe(original(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('gives exactly the original output or error for values JSON cannot represent exactly', () => {
    const odd = fc.anything({
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
      withBoxedValues: true,
    });
    fc.assert(
      fc.property(odd, (v) => {
        expect(outcome(() => canonicalJson(v))).toEqual(outcome(() => original(v)));
      }),
      { numRuns: 2000 },
    );
    for (const v of [NaN, Infinity, [1, undefined], [1, , 2], { a: { b: [new Date(0)] } }, { f: () => 1 }, Symbol('s'), undefined, 10n]) {
      expect(outcome(() => canonicalJson(v))).toEqual(outcome(() => original(v)));
    }
    expect(() => canonicalJson({ a: [0, { b: NaN }] })).toThrow('Non-finite number at $.a[1].b');
  });

  it('hashJson is the hash of the canonical text, computed without it', () => {
    const v = { b: [1, 2, { y: 'z', x: 1 }], a: 'é', '\ud800': 'a\ud83d\ude00"\\\n\u2028\u007f', n: [-0, 1e21, 1.5e-7] };
    expect(hashJson(v)).toBe(hashString(original(v)));
    fc.assert(
      fc.property(fc.jsonValue(), (x) => {
        expect(hashJson(x)).toBe(hashString(original(x)));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })), (x) => {
        expect(hashJson(x)).toBe(hashString(original(x)));
      }),
      { numRuns: 1000 },
    );
  });

  it('hashJson gives the original hash or error for values JSON cannot represent exactly, and survives a getter that hashes', () => {
    const odd = fc.anything({ withBigInt: true, withDate: true, withMap: true, withNullPrototype: true, withSparseArray: true, withBoxedValues: true });
    fc.assert(
      fc.property(odd, (v) => {
        expect(outcome(() => hashJson(v))).toEqual(outcome(() => hashString(original(v))));
      }),
      { numRuns: 1000 },
    );
    const tricky = { b: 1, get a() {
      return hashJson({ y: 2, x: [3] });
    } };
    expect(hashJson(tricky)).toBe(hashString(original({ a: hashString(original({ x: [3], y: 2 })), b: 1 })));
  });
});
