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
  return write(value, '$');
}

function write(v: unknown, path: string): string {
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
      if (Array.isArray(v)) return '[' + v.map((x, i) => write(x, `${path}[${i}]`)).join(',') + ']';
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) {
        throw new TypeError(`Non-plain object at ${path}: state must be plain JSON (no classes, Maps or Dates)`);
      }
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .sort();
      return '{' + keys.map((k) => JSON.stringify(k) + ':' + write(o[k], `${path}.${k}`)).join(',') + '}';
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
  h1 ^= s.length;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b);
  h1 = Math.imul(h1 ^ (h1 >>> 13), 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0x85ebca6b);
  h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  h2 ^= h2 >>> 16;
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

/** Hash of the canonical JSON of `value`: the state hash and the pack content hash. */
export function hashJson(value: Json | unknown): string {
  return hashString(canonicalJson(value));
}
