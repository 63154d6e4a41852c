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
