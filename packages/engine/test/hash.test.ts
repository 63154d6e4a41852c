import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashJson, hashString } from '../src/index.ts';
import { outcome, refCanonical } from './support/reference.ts';

describe('canonicalJson', () => {
  it('sorts keys at every depth, drops undefined properties, no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: null }, true], u: undefined, '10': 0, '9': -0 })).toBe(
      '{"10":0,"9":0,"a":[{"c":null,"d":"x"},true],"b":1}',
    );
    expect(canonicalJson(Object.assign(Object.create(null), { z: 1e21, y: 1.5e-7, 'é"\n': '\u2028' }))).toBe(
      refCanonical(Object.assign(Object.create(null), { z: 1e21, y: 1.5e-7, 'é"\n': '\u2028' })),
    );
  });

  it('gives exactly the original output for any JSON value (sorted or not)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(canonicalJson(v)).toBe(refCanonical(v));
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
        expect(outcome(() => canonicalJson(v))).toEqual(outcome(() => refCanonical(v)));
      }),
      { numRuns: 2000 },
    );
    for (const v of [NaN, Infinity, [1, undefined], [1, , 2], { a: { b: [new Date(0)] } }, { f: () => 1 }, Symbol('s'), undefined, 10n]) {
      expect(outcome(() => canonicalJson(v))).toEqual(outcome(() => refCanonical(v)));
    }
    expect(() => canonicalJson({ a: [0, { b: NaN }] })).toThrow('Non-finite number at $.a[1].b');
  });

  it('hashJson is the hash of the canonical text, computed without it', () => {
    const v = { b: [1, 2, { y: 'z', x: 1 }], a: 'é', '\ud800': 'a\ud83d\ude00"\\\n\u2028\u007f', n: [-0, 1e21, 1.5e-7] };
    expect(hashJson(v)).toBe(hashString(refCanonical(v)));
    fc.assert(
      fc.property(fc.jsonValue(), (x) => {
        expect(hashJson(x)).toBe(hashString(refCanonical(x)));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })), (x) => {
        expect(hashJson(x)).toBe(hashString(refCanonical(x)));
      }),
      { numRuns: 1000 },
    );
  });

  it('hashJson gives the original hash or error for values JSON cannot represent exactly, and survives a getter that hashes', () => {
    const odd = fc.anything({ withBigInt: true, withDate: true, withMap: true, withNullPrototype: true, withSparseArray: true, withBoxedValues: true });
    fc.assert(
      fc.property(odd, (v) => {
        expect(outcome(() => hashJson(v))).toEqual(outcome(() => hashString(refCanonical(v))));
      }),
      { numRuns: 1000 },
    );
    const tricky = { b: 1, get a() {
      return hashJson({ y: 2, x: [3] });
    } };
    expect(hashJson(tricky)).toBe(hashString(refCanonical({ a: hashString(refCanonical({ x: [3], y: 2 })), b: 1 })));
  });
});
