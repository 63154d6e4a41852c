/**
 * How big and how deep any text Salient reads from outside may be: pack files, replays, tournament
 * specs, regression baselines, API bodies. Each limit is checked before the expensive work (reading a
 * file, parsing, schema checks), so a runaway or hostile input is refused at once with a message that
 * says which limit it broke and where, never with a stack overflow or an exhausted heap.
 *
 * Nesting: every schema Salient reads nests at most about 12 levels (the bundled Blitz! pack's
 * deepest file, scenarios.json, nests 10 levels; a replay 3), so 64 leaves room for any honest file while keeping recursive
 * code (zod, the YAML composer, canonical JSON) far from the stack's end: a 50,000-deep array is a
 * 100 KB file that JSON.parse accepts but recursive validators do not survive.
 */
import type { ErrorCode } from './errors.ts';
import { SalientError } from './errors.ts';
import { jsonPath } from './json-path.ts';

/** A limit on one kind of input; `what` names the kind in messages ("a pack file"). */
export interface InputLimit {
  what: string;
  /** Largest size: bytes of a file (checked before reading it), characters of a text in memory. */
  maxBytes: number;
  /** Deepest nesting of arrays and objects (a top-level object is depth 1). */
  maxDepth: number;
}

/** Deepest nesting accepted anywhere. */
export const MAX_INPUT_DEPTH = 64;

const MiB = 1024 * 1024;

/**
 * The limits by kind of input.
 * - pack file: 16 MiB. The bundled Blitz! pack's largest file is 0.3 MB (scenarios.json); a hex
 *   map of a World in Flames-sized game (tens of thousands of hexes) stays within a few MB.
 * - replay: 64 MiB. A full Blitz! game writes about 90 KB; one that runs to the default cap of
 *   100,000 decisions (with its die rolls) about 7 MB.
 * - tournament spec: 1 MiB. The examples are under 1 KB; a spec listing 100,000 seeds is under 1 MB.
 * - baseline: 256 MiB once unzipped. The example suite's 120 games are 1.1 MB.
 * - configuration file (the operator's bots file): 1 MiB, like a spec.
 */
export const INPUT_LIMITS = {
  packFile: { what: 'a pack file', maxBytes: 16 * MiB, maxDepth: MAX_INPUT_DEPTH },
  replay: { what: 'a replay', maxBytes: 64 * MiB, maxDepth: MAX_INPUT_DEPTH },
  spec: { what: 'a tournament spec', maxBytes: 1 * MiB, maxDepth: MAX_INPUT_DEPTH },
  config: { what: 'a configuration file', maxBytes: 1 * MiB, maxDepth: MAX_INPUT_DEPTH },
  baseline: { what: 'a regression baseline', maxBytes: 256 * MiB, maxDepth: MAX_INPUT_DEPTH },
} as const satisfies Record<string, InputLimit>;

/** `16 MiB`, `1.5 KiB`, `200 bytes`. */
export function formatSize(n: number): string {
  if (n >= MiB) return `${+(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}

/**
 * Throw `code` when `size` (bytes of a file, or characters of a text) is over `limit.maxBytes`.
 * Call it before reading or parsing.
 */
export function checkSize(size: number, limit: InputLimit, where: string, code: ErrorCode): void {
  if (size <= limit.maxBytes) return;
  throw new SalientError(
    code,
    `${where}: ${formatSize(size)} is more than the ${formatSize(limit.maxBytes)} ${limit.what} may have. ` +
      `No honest ${limit.what.replace(/^an? /, '')} comes near that size: check that this is the right file.`,
  );
}

/**
 * The message for nesting deeper than `limit`: `where` says where (`spec.yaml:3:7`, a file and line
 * when known), `path` the JSON path when known.
 */
export function tooDeepMessage(limit: InputLimit, where: string, path?: readonly PropertyKey[]): string {
  return (
    `${where}: nested deeper than ${limit.maxDepth} levels${path ? ` at ${shortPath(path)}` : ''}; ${limit.what} never nests this deep ` +
    `(the limit keeps the parsers safe). Remove the runaway nesting there.`
  );
}

/** A JSON path, its middle elided when it is long (a path 65 levels deep says little more than its ends). */
export function shortPath(path: readonly PropertyKey[]): string {
  if (path.length <= 12) return jsonPath(path);
  return `${jsonPath(path.slice(0, 6))}…(${path.length - 10} more levels)…${jsonPath(path.slice(-4), '')}`;
}

/**
 * Throw `code` when the plain value `v` (parsed JSON, YAML turned into JS) nests arrays and objects
 * deeper than `limit.maxDepth`. Iterative, so it is safe on any depth.
 */
export function checkDepth(v: unknown, limit: InputLimit, where: string, code: ErrorCode): void {
  // Each frame points at its parent, so the path is built only for the message, not for every value.
  interface Frame {
    v: unknown;
    depth: number;
    key?: PropertyKey;
    parent?: Frame;
  }
  const pathOf = (f: Frame): PropertyKey[] => {
    const path: PropertyKey[] = [];
    for (let x: Frame | undefined = f; x?.parent; x = x.parent) path.push(x.key as PropertyKey);
    return path.reverse();
  };
  const stack: Frame[] = [{ v, depth: 0 }];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const x = top.v;
    if (x === null || typeof x !== 'object') continue;
    const depth = top.depth + 1;
    if (depth > limit.maxDepth) throw new SalientError(code, tooDeepMessage(limit, where, pathOf(top)));
    const parent = top;
    if (Array.isArray(x)) x.forEach((e, i) => stack.push({ v: e, depth, key: i, parent }));
    else for (const [k, e] of Object.entries(x)) stack.push({ v: e, depth, key: k, parent });
  }
}
