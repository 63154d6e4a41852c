/** Parsers for option values; bad values are commander usage errors. */
import { InvalidArgumentError } from 'commander';
import { SalientError, type Json, type JsonObject } from '@salient/engine';

/** A whole number in [min, max]. */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}, got '${value}'.`);
    }
    return n;
  };
}

/** Collect a repeatable option into an array. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Split `KEY=VALUE` at the first `=`. */
export function keyValue(text: string, what: string, example: string): [string, string] {
  const eq = text.indexOf('=');
  const key = eq < 0 ? '' : text.slice(0, eq).trim();
  const value = eq < 0 ? '' : text.slice(eq + 1).trim();
  if (key === '' || value === '') throw new SalientError('BAD_ARGUMENT', `${what} '${text}' is not KEY=VALUE (for example ${example}).`);
  return [key, value];
}

/** `--option key=value` pairs as scenario options; values are JSON when they parse (numbers, booleans), else strings. */
export function scenarioOptions(pairs: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const p of pairs) {
    const [k, v] = keyValue(p, 'Option', 'maxTurns=10');
    let value: Json;
    try {
      value = JSON.parse(v) as Json;
    } catch {
      value = v;
    }
    out[k] = value;
  }
  return out;
}

/** A limit on a count of matches: a number (`3`: more than 3 is too many) or a share of them (`5%`). */
export type Threshold = { count: number } | { percent: number };

/** Parse `N` (a whole number, 0 or more) or `P%` (0 to 100). */
export function threshold(value: string): Threshold {
  const v = value.trim();
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(v);
  if (pct) {
    const p = Number(pct[1]);
    if (p <= 100) return { percent: p };
  } else if (/^\d+$/.test(v) && Number.isSafeInteger(Number(v))) return { count: Number(v) };
  throw new InvalidArgumentError(`expected a number of matches (such as 3) or a share of the finished matches (such as 5%), got '${value}'.`);
}

/** Whether `n` of `of` is over `t`; and `t` in words. */
export function exceeds(t: Threshold, n: number, of: number): boolean {
  return 'count' in t ? n > t.count : of > 0 && (100 * n) / of > t.percent;
}

export const thresholdText = (t: Threshold): string => ('count' in t ? String(t.count) : `${t.percent}%`);
