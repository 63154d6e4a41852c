/**
 * The fast canonical writer and the streaming hasher (remembered key orders, strings quoted without
 * JSON.stringify, the hex table in `finish`) against a straightforward reference kept here: keys by
 * `Object.keys().sort()`, JSON.stringify for every string and number, the paths in its errors, and
 * the two hash lanes of `hashString` over the text. Any difference in output, hash or error is a bug:
 * the hashes are stored in golden replays and databases.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, hashJson, hashString } from '../src/index.ts';
import { outcome, refCanonical, refHashString } from './support/reference.ts';

/** canonicalJson and hashJson agree with the reference (output or error), twice: the second call finds the remembered key orders. */
function expectSame(v: unknown): void {
  const text = outcome(() => refCanonical(v));
  const hash = 'ok' in text ? { ok: refHashString(text.ok) } : text;
  for (let round = 0; round < 2; round++) {
    expect(outcome(() => canonicalJson(v))).toEqual(text);
    expect(outcome(() => hashJson(v))).toEqual(hash);
  }
  if ('ok' in text) expect(hashString(text.ok)).toBe(refHashString(text.ok));
}

/** Define an own enumerable data property, as JSON.parse does (so '__proto__' is an own key, not the prototype). */
function put(o: object, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** Any UTF-16 text: code units from the whole range, so lone surrogates, pairs, controls, quotes and backslashes. */
const anyUnits = fc
  .array(
    fc.oneof(
      fc.integer({ min: 0, max: 0xffff }),
      fc.constantFrom(0x22, 0x5c, 0x00, 0x0a, 0x1f, 0x7f, 0x2028, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffe),
    ),
    { maxLength: 8 },
  )
  .map((cs) => String.fromCharCode(...cs));

const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 10 }) },
  { weight: 2, arbitrary: anyUnits },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  { weight: 1, arbitrary: fc.constantFrom('', 'a"b', 'a\\b', '\u2028', '\ud83d\ude00', 'x\ud800', '\udc00y', 'é', 'ü\n') },
);

/** Keys that sort surprisingly (index-like keys come first in Object.keys), '__proto__', and any text. */
const key = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('a', 'b', 'c', '10', '2', '0', '01', '4294967295', '4294967294', '-1', '__proto__', 'A', 'é', 'a"', '\ud800', ''),
  },
  { weight: 2, arbitrary: text },
);

const number = fc.oneof(
  fc.integer(),
  fc.integer({ min: -20, max: 20 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-0, 0, 1e21, 1e-7, 1.5e-7, 5e-324, -5e-324, 1.7976931348623157e308, 2 ** 31, -(2 ** 31), 2 ** 53, 0.1 + 0.2, 123e-20, 1e9, -1e9, 1e9 - 1, 1 - 1e9, 1e8, 10, -10, 2 ** 31 - 1),
);

/** Plain JSON values; objects get their keys in a random insertion order, sometimes no prototype, sometimes through JSON.parse. */
const { json } = fc.letrec<{ json: unknown; object: object }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    number,
    text,
    fc.array(tie('json'), { maxLength: 5 }),
    tie('object'),
  ),
  object: fc
    .tuple(fc.array(fc.tuple(key, tie('json')), { maxLength: 6 }), fc.constantFrom('plain', 'null-proto', 'parsed'))
    .map(([entries, kind]) => {
      const o: object = kind === 'null-proto' ? Object.create(null) : {};
      for (const [k, v] of entries) put(o, k, v);
      return kind === 'parsed' ? (JSON.parse(JSON.stringify(o)) as object) : o;
    }),
}));

describe('canonicalJson and hashJson against the reference', () => {
  it('give the reference text and hash for random JSON values', () => {
    fc.assert(fc.property(json, expectSame), { numRuns: 3000 });
  });

  it('give the reference for numbers and strings of every kind', () => {
    fc.assert(
      fc.property(fc.oneof(number, text, fc.double()), (x) => {
        expectSame(x);
        expectSame([x]);
        expectSame({ k: x });
      }),
      { numRuns: 2000 },
    );
    for (const x of [-0, 1e21, 1e20, 5e-324, 1e-7, 1e-6, 2 ** 31 - 1, -(2 ** 31), 4294967296]) expectSame({ x, y: [x, -x] });
  });

  it('give the reference for the special keys, own __proto__ included', () => {
    const parsed = JSON.parse('{"b":1,"__proto__":{"z":1,"a":2},"10":[1],"2":"x","a":{"__proto__":null},"":0}') as object;
    expect(Object.keys(parsed)).toContain('__proto__');
    expectSame(parsed);
    expect(canonicalJson(parsed)).toBe('{"":0,"10":[1],"2":"x","__proto__":{"a":2,"z":1},"a":{"__proto__":null},"b":1}');
    expectSame({ '10': 1, '9': 2, a: 3, '1e3': 4, '-1': 5, '01': 6, '4294967295': 7, '4294967294': 8 });
  });

  it('give the reference where an object opens on a member left out or a name that needs escaping', () => {
    // The brace is fed with the first member kept, and a name that needs escaping goes the slow way.
    const values = [{ a: undefined }, { a: undefined, b: 1 }, { b: 1, c: undefined }, { 'a"': 1 }, { 'a"': 1, b: 2 }, { a: 1, '\n': 2 }, { '\ud800': { x: undefined } }, [{}, { a: undefined }, { z: {} }]];
    for (const v of values) expectSame(v);
    expect(canonicalJson({ a: undefined, 'b"': { c: undefined } })).toBe('{"b\\"":{}}');
  });

  it('give the reference however the keys of same-looking objects are ordered (remembered orders hit, miss and are replaced)', () => {
    // Keys a missing member would find on Object.prototype ('__proto__', 'toString') included.
    const pool = ['def', 'at', 'power', 'size', 'b', 'a', '10', '2', 'z\ud800', 'q"', '__proto__', 'toString'];
    const objects = fc.array(
      fc.tuple(fc.subarray(pool, { minLength: 1 }), fc.boolean()).map(([keys, reverse]) => {
        // Same first key, different sets and orders: more than the orders remembered per first key.
        const o: object = {};
        for (const k of reverse ? [...keys].reverse() : keys) put(o, k, k.length);
        return o;
      }),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(objects, (list) => {
        expectSame(list);
        for (const o of list) expectSame(o);
      }),
      { numRuns: 500 },
    );
    // Every permutation of four keys, each object twice.
    const perms = (ks: string[]): string[][] =>
      ks.length <= 1 ? [ks] : ks.flatMap((k, i) => perms([...ks.slice(0, i), ...ks.slice(i + 1)]).map((p) => [k, ...p]));
    const all = perms(['def', 'at', 'power', 'size']).map((ks) => Object.fromEntries(ks.map((k, i) => [k, i])));
    expectSame([...all, ...all]);
  });

  it('give the reference for objects with many keys and after the remembered orders are forgotten', () => {
    const big: Record<string, number> = {};
    for (let i = 0; i < 600; i++) big[`k${(i * 7919) % 600}`] = i;
    expectSame(big);
    // Enough distinct key lists to go over the limit of remembered keys several times.
    for (let n = 0; n < 3000; n++) {
      const o: Record<string, number> = {};
      for (let i = 40; i > 0; i--) o[`u${n}-${i}`] = i;
      if (n % 100 === 0) expectSame(o);
      else canonicalJson(o);
    }
    expectSame(big);
    expectSame({ def: 1, at: 2, power: 3, size: 4 });
  });

  it('give the reference output, hash or error for odd input', () => {
    class Unit {
      at = 'paris';
    }
    const holes = [1, , 2];
    const odd: unknown[] = [
      { a: undefined, b: 1 },
      { b: { c: undefined }, a: [1, { d: undefined }] },
      [1, undefined],
      holes,
      [[1], [2, , 3]],
      new Unit(),
      { units: { x: new Unit() } },
      { when: new Date(0) },
      new Map([[1, 2]]),
      NaN,
      Infinity,
      -Infinity,
      { a: [0, { b: NaN }] },
      { a: { b: -Infinity } },
      { f: () => 1 },
      Symbol('s'),
      undefined,
      10n,
      { big: 10n },
      Object.assign(Object.create(null), { z: undefined, y: [new Unit()] }),
      Object.create({ inherited: 1 }),
      new String('s'),
      new Uint8Array(2),
    ];
    for (const v of odd) expectSame(v);
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withObjectString: true,
          withSparseArray: true,
          withTypedArray: true,
          withBoxedValues: true,
        }),
        expectSame,
      ),
      { numRuns: 2000 },
    );
  });

  it('read each property once, in sorted key order, as before; a getter that hashes gets the reference answer', () => {
    const reads: string[] = [];
    const o = {
      get size() {
        reads.push('size');
        return 2;
      },
      get at() {
        reads.push('at');
        return hashJson({ y: 2, x: [3] });
      },
      get def() {
        reads.push('def');
        return canonicalJson({ b: 1, a: 2 });
      },
    };
    expect(canonicalJson(o)).toBe(refCanonical({ at: refHashString('{"x":[3],"y":2}'), def: '{"a":2,"b":1}', size: 2 }));
    expect(reads).toEqual(['at', 'def', 'size']);
    reads.length = 0;
    expect(hashJson(o)).toBe(refHashString(canonicalJson(o)));
    expect(reads).toEqual(['at', 'def', 'size', 'at', 'def', 'size']);
  });
});

describe('hashString against the reference lanes and hex digits', () => {
  it('gives the same 16 hex digits for any text', () => {
    for (const s of ['', 'a', '{}', 'null', '\ud800', 'x'.repeat(1000)]) expect(hashString(s)).toBe(refHashString(s));
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: 'binary' }), fc.string()), (s) => {
        expect(hashString(s)).toBe(refHashString(s));
      }),
      { numRuns: 5000 },
    );
  });
});
