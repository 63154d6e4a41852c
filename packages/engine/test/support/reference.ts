/**
 * Plain reference implementations the engine's hashing tests compare against: canonical JSON written
 * the slow and obvious way (the output and errors `canonicalJson` must keep giving) and the two lanes
 * of `hashString` character by character.
 */
/** The canonical text, or the error naming the path, written the slow and obvious way. */
export function refCanonical(v: unknown, path = '$'): string {
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
      if (Array.isArray(v)) return '[' + v.map((x, i) => refCanonical(x, `${path}[${i}]`)).join(',') + ']';
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) {
        throw new TypeError(`Non-plain object at ${path}: state must be plain JSON (no classes, Maps or Dates)`);
      }
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o)
        .filter((k) => o[k] !== undefined)
        .sort();
      return '{' + keys.map((k) => JSON.stringify(k) + ':' + refCanonical(o[k], `${path}.${k}`)).join(',') + '}';
    }
    default:
      throw new TypeError(`Value of type ${typeof v} at ${path}: state must be plain JSON`);
  }
}

/** The two lanes of hashString, char by char, and the hex digits by toString(16). */
export function refHashString(s: string): string {
  let a = 0x811c9dc5 | 0;
  let b = 0x9747b28c | 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  a ^= s.length;
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
  a = Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
  a ^= a >>> 16;
  b = Math.imul(b ^ (b >>> 16), 0x85ebca6b);
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  b ^= b >>> 16;
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

export const outcome = (f: () => string): { ok: string } | { error: string } => {
  try {
    return { ok: f() };
  } catch (e) {
    return { error: String(e) };
  }
};
