/**
 * Canonical JSON and a content hash over it. Canonical JSON sorts object keys, so two states that are
 * equal as JSON hash equally whatever order their keys were built in. The hash is 64 bits from two
 * independent 32-bit FNV-1a/murmur-style lanes over the UTF-16 code units: fast, pure JS (the engine
 * and the games may not import `node:` modules) and stable across platforms. It identifies states and
 * packs; it is not a cryptographic signature.
 */
import type { Json } from './contract.ts';

/** Stringify with sorted keys and no whitespace. Throws on values JSON cannot represent exactly. */
export function canonicalJson(value: unknown): string {
  // The fast writer gives up (without saying where) on anything unusual: a value JSON cannot
  // represent, an undefined array element or a hole. The reference writer then gives the same
  // output, or the same error naming the path, as it always did.
  const out = fast(value);
  return out === undefined ? reference(value, '$') : out;
}

/**
 * One pass, no paths, keys in sorted order (see {@link sortedKeys}), strings quoted without
 * JSON.stringify when nothing in them needs escaping. Returns undefined to hand the value to
 * {@link reference}.
 */
function fast(v: unknown): string | undefined {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return plain(v) ? '"' + v + '"' : JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      // JSON.stringify of a finite number is its ToString.
      return Number.isFinite(v) ? '' + v : undefined;
    case 'object': {
      if (Array.isArray(v)) {
        const n = v.length;
        if (n === 0) return '[]';
        let s = '[';
        for (let i = 0; i < n; i++) {
          const x: unknown = v[i];
          // An undefined element throws in the reference writer, a hole is skipped there: leave both to it.
          if (x === undefined) return undefined;
          const w = fast(x);
          if (w === undefined) return undefined;
          s += i === 0 ? w : ',' + w;
        }
        return s + ']';
      }
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return undefined;
      const o = v as Record<string, unknown>;
      const keys = sortedKeys(Object.keys(o));
      const n = keys.length;
      let s = '{';
      for (let i = 0; i < n; i++) {
        const k = keys[i] as string;
        const x = o[k];
        if (x === undefined) continue;
        const w = fast(x);
        if (w === undefined) return undefined;
        if (plain(k)) s += (s.length === 1 ? '"' : ',"') + k + '":' + w;
        else s += (s.length === 1 ? '' : ',') + JSON.stringify(k) + ':' + w;
      }
      return s + '}';
    }
    default:
      return undefined;
  }
}

/**
 * Whether JSON.stringify may write the UTF-16 code unit `c` of a string other than as itself: a
 * quote, a backslash, a control character, or a surrogate (escaped when lone; pairs are left to
 * JSON.stringify too, which writes them as they are).
 */
function escapes(c: number): boolean {
  return c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff);
}

/** Whether `JSON.stringify(s)` is `s` in quotes (no character of `s` {@link escapes}). */
function plain(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (escapes(s.charCodeAt(i))) return false;
  return true;
}

/*
 * Sorting an object's keys is most of the work of writing it: a state is many small objects built
 * field by field, whose keys are seldom in sorted order. But objects built by the same code have the
 * same keys in the same order, so each sorted order is remembered with the key list it sorts and found
 * again by comparing keys (property names are interned strings: mostly pointer compares).
 */

/** A key list in `Object.keys` order and its sorted order, or null when it is sorted already. */
interface KeyOrder {
  readonly keys: readonly string[];
  readonly sorted: readonly string[] | null;
}

/** Remembered key orders by their first key, most recent first, at most ORDERS_PER_KEY each. */
const orders = new Map<string, KeyOrder[]>();
const ORDERS_PER_KEY = 8;
/** Key lists longer than this are sorted each time, not remembered. */
const MAX_REMEMBERED_LENGTH = 256;
/** All remembered orders are forgotten when they would hold more keys than this in all. */
const MAX_REMEMBERED_KEYS = 1 << 16;
let rememberedKeys = 0;

/**
 * `keys` (an object's `Object.keys`) in sorted order, as `keys.sort()` gives it: `keys` itself when
 * sorted already, else a remembered array, shared: read it, never change it (nor `keys`, which may be
 * remembered).
 */
function sortedKeys(keys: string[]): readonly string[] {
  const n = keys.length;
  if (n < 2) return keys;
  const first = keys[0] as string;
  const known = orders.get(first);
  if (known !== undefined) {
    for (let j = 0; j < known.length; j++) {
      const e = known[j] as KeyOrder;
      const ks = e.keys;
      if (ks.length !== n) continue;
      let i = 1;
      while (i < n && ks[i] === keys[i]) i++;
      if (i === n) return e.sorted ?? keys;
    }
  }
  // Not seen before: sort (only when out of order) and remember.
  let sorted: string[] | null = null;
  for (let i = 1; i < n; i++) {
    if ((keys[i - 1] as string) > (keys[i] as string)) {
      sorted = keys.slice().sort();
      break;
    }
  }
  if (n <= MAX_REMEMBERED_LENGTH) {
    if (rememberedKeys + n > MAX_REMEMBERED_KEYS) {
      orders.clear();
      rememberedKeys = 0;
    }
    const e: KeyOrder = { keys, sorted };
    const list = orders.get(first);
    if (list === undefined) orders.set(first, [e]);
    else {
      if (list.length >= ORDERS_PER_KEY) rememberedKeys -= (list.pop() as KeyOrder).keys.length;
      list.unshift(e);
    }
    rememberedKeys += n;
  }
  return sorted ?? keys;
}

/** The original writer: slow (it names the path of every value), kept for exact output and errors on odd input. */
function reference(v: unknown, path: string): string {
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
      if (Array.isArray(v)) return '[' + v.map((x, i) => reference(x, `${path}[${i}]`)).join(',') + ']';
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) {
        throw new TypeError(`Non-plain object at ${path}: state must be plain JSON (no classes, Maps or Dates)`);
      }
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .sort();
      return '{' + keys.map((k) => JSON.stringify(k) + ':' + reference(o[k], `${path}.${k}`)).join(',') + '}';
    }
    default:
      throw new TypeError(`Value of type ${typeof v} at ${path}: state must be plain JSON`);
  }
}

/** 64-bit hash of a string as 16 hex digits. */
export function hashString(s: string): string {
  let h1 = 0x811c9dc5 | 0;
  let h2 = 0x9747b28c | 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  return finish(h1, h2, s.length);
}

/** Two lowercase hex digits for each byte value. */
const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The 16 hex digits of {@link hashString} from its two lanes after `length` characters. */
function finish(a: number, b: number, length: number): string {
  a ^= length;
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
  a = Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  a ^= a >>> 16;
  b = Math.imul(b ^ (b >>> 16), 0x85ebca6b);
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  b ^= b >>> 16;
  // (a >>> 0).toString(16).padStart(8, '0') + the same of b, a byte at a time from a table.
  return (
    (HEX[a >>> 24] as string) +
    HEX[(a >>> 16) & 255] +
    HEX[(a >>> 8) & 255] +
    HEX[a & 255] +
    HEX[b >>> 24] +
    HEX[(b >>> 16) & 255] +
    HEX[(b >>> 8) & 255] +
    HEX[b & 255]
  );
}

/**
 * Hash of the canonical JSON of `value`: the state hash and the pack content hash. The same as
 * `hashString(canonicalJson(value))`, computed while walking the value, without building the text.
 */
export function hashJson(value: Json | unknown): string {
  // Odd input (see `fast`), or a call from inside a walk (a getter): the text, and its errors, as
  // canonicalJson gives them.
  if (walking) return hashString(canonicalJson(value));
  walking = true;
  h1 = 0x811c9dc5 | 0;
  h2 = 0x9747b28c | 0;
  len = 0;
  let fed: boolean;
  try {
    fed = feedValue(value);
  } finally {
    walking = false;
  }
  return fed ? finish(h1, h2, len) : hashString(canonicalJson(value));
}

let walking = false;

/**
 * The lanes and length of the text fed so far (see {@link hashString}). The string feeders work on
 * the lanes in locals and store them back once per string.
 */
let h1 = 0;
let h2 = 0;
let len = 0;

function feedChar(c: number): void {
  h1 = Math.imul(h1 ^ c, 0x01000193);
  h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  h2 ^= h2 >>> 15;
  len++;
}

/** Feed the characters of `s` as they are. */
function feedText(s: string): void {
  let a = h1;
  let b = h2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  h1 = a;
  h2 = b;
  len += s.length;
}

/** The decimal digits of `n` (whole, |n| < 1e9), a minus sign first if negative, as `'' + n` writes them. */
function feedInt(n: number): void {
  if (n < 0) {
    feedChar(45);
    n = -n;
  }
  let d = 1;
  while (d * 10 <= n) d *= 10;
  let a = h1;
  let b = h2;
  let k = 0;
  for (; d >= 1; d /= 10, k++) {
    const c = 48 + (((n / d) | 0) % 10);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  h1 = a;
  h2 = b;
  len += k;
}

/** `JSON.stringify(s)`, fed: quoted as it is unless it has a character JSON escapes. */
function feedString(s: string): void {
  // The opening quote and the characters in one pass, checking each: if one needs escaping, the
  // lanes are dropped and JSON.stringify's text is fed from where the string began.
  let a = Math.imul(h1 ^ 34, 0x01000193);
  let b = Math.imul(h2 ^ 34, 0x5bd1e995);
  b ^= b >>> 15;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (escapes(c)) {
      feedText(JSON.stringify(s));
      return;
    }
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a = Math.imul(a ^ 34, 0x01000193);
  b = Math.imul(b ^ 34, 0x5bd1e995);
  b ^= b >>> 15;
  h1 = a;
  h2 = b;
  len += s.length + 2;
}

/**
 * Character `c` (the `{` or `,` before a member), member name `k` as {@link feedString} feeds it, and
 * the `:` after it, in one pass over the lanes: a state is mostly short names and small values, where
 * a call per piece, each loading and storing the lanes, cost as much as the characters.
 */
function feedMember(c: number, k: string): void {
  let a = Math.imul(h1 ^ c, 0x01000193);
  let b = Math.imul(h2 ^ c, 0x5bd1e995);
  b ^= b >>> 15;
  a = Math.imul(a ^ 34, 0x01000193);
  b = Math.imul(b ^ 34, 0x5bd1e995);
  b ^= b >>> 15;
  for (let i = 0; i < k.length; i++) {
    const d = k.charCodeAt(i);
    if (escapes(d)) {
      // Dropped lanes: the name as JSON.stringify writes it, from the character before it.
      feedChar(c);
      feedText(JSON.stringify(k));
      feedChar(58);
      return;
    }
    a = Math.imul(a ^ d, 0x01000193);
    b = Math.imul(b ^ d, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a = Math.imul(a ^ 34, 0x01000193);
  b = Math.imul(b ^ 34, 0x5bd1e995);
  b ^= b >>> 15;
  a = Math.imul(a ^ 58, 0x01000193);
  b = Math.imul(b ^ 58, 0x5bd1e995);
  b ^= b >>> 15;
  h1 = a;
  h2 = b;
  len += k.length + 4;
}

/** Feed the canonical text of `v`, as `fast` writes it; false where `fast` would give up. */
function feedValue(v: unknown): boolean {
  if (v === null) {
    feedText('null');
    return true;
  }
  switch (typeof v) {
    case 'string':
      feedString(v);
      return true;
    case 'boolean':
      feedText(v ? 'true' : 'false');
      return true;
    case 'number':
      // Whole numbers of up to 9 digits (nearly every number of a state) digit by digit, without
      // making their text: the same characters as '' + v (-0 is written 0, as ToString does).
      if (v === (v | 0) && v > -1e9 && v < 1e9) feedInt(v);
      else if (!Number.isFinite(v)) return false;
      else feedText('' + v);
      return true;
    case 'object': {
      if (Array.isArray(v)) {
        feedChar(91);
        for (let i = 0; i < v.length; i++) {
          const x: unknown = v[i];
          if (x === undefined) return false;
          if (i > 0) feedChar(44);
          if (!feedValue(x)) return false;
        }
        feedChar(93);
        return true;
      }
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      const o = v as Record<string, unknown>;
      const keys = sortedKeys(Object.keys(o));
      const n = keys.length;
      // What goes before the next member: the opening brace, then commas.
      let before = 123;
      for (let i = 0; i < n; i++) {
        const k = keys[i] as string;
        const x = o[k];
        if (x === undefined) continue;
        feedMember(before, k);
        before = 44;
        if (!feedValue(x)) return false;
      }
      if (before === 123) feedChar(123);
      feedChar(125);
      return true;
    }
    default:
      return false;
  }
}
