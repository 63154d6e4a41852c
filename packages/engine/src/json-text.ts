/**
 * The one JSON text parser every entry point uses (pack files, replay files and stored replays,
 * tournament specs written in JSON, regression baselines, API bodies).
 *
 * Strict JSON (RFC 8259) and nothing else: no comments, trailing commas, single quotes or byte-order
 * mark. On top of what `JSON.parse` refuses it refuses:
 * - a property name given twice in one object (`JSON.parse` keeps the last silently, so the first would
 *   be text nobody reads; the YAML reader refuses duplicates too);
 * - the property name `__proto__` (assigning it through `obj[key] = ...`, as record schemas do, would
 *   replace an object's prototype; fastify refuses it in bodies for the same reason);
 * - text over its size limit (checked first) and nesting deeper than its depth limit.
 *
 * Every problem is reported as `<where>:<line>:<column>: ...`. `JSON.parse` messages only sometimes carry
 * a position and never a line, so a scanner walks the text first; it keeps its own stack instead of
 * recursing, so no depth of input can overflow the call stack. The values then come from `JSON.parse`.
 */
import { SalientError, type ErrorCode } from './errors.ts';
import { checkSize, type InputLimit, tooDeepMessage } from './input-limits.ts';

/** 1-based line and column of a UTF-16 offset in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/**
 * Parse `text` as JSON within `limit` (size, then syntax, duplicate names and depth); any problem
 * throws `SalientError(code)` reading `<where>:<line>:<column>: <what is wrong>`.
 */
export function parseJsonText(text: string, where: string, code: ErrorCode, limit?: InputLimit): unknown {
  if (limit) checkSize(text.length, limit, where, code);
  const found = scanJson(text, { maxDepth: limit?.maxDepth ?? Infinity, strict: true });
  if (found) {
    const { line, column } = lineColumn(text, found.offset);
    const at = `${where}:${line}:${column}`;
    if (found.kind === 'depth' && limit) throw new SalientError(code, tooDeepMessage(limit, at, found.path));
    throw new SalientError(code, `${at}: ${found.kind === 'syntax' ? 'invalid JSON: ' : ''}${found.message}`);
  }
  return JSON.parse(text);
}

interface JsonErrorAt {
  offset: number;
  message: string;
}

interface ScanProblem extends JsonErrorAt {
  kind: 'syntax' | 'duplicate' | 'proto' | 'depth';
  /** Path of the value where the problem is. */
  path: PropertyKey[];
}

/** The first syntax error in `text`, or undefined if it is valid JSON (as `JSON.parse` sees it). */
export function locateJsonError(text: string): JsonErrorAt | undefined {
  const p = scanJson(text, { maxDepth: Infinity, strict: false });
  return p && { offset: p.offset, message: p.message };
}

type Frame = { obj: true; keys: Set<string>; key: string } | { obj: false; index: number };

/**
 * Walk `text` as JSON and return its first problem. `strict` adds duplicate names and `__proto__`
 * to the syntax errors; `maxDepth` bounds the nesting.
 */
function scanJson(text: string, o: { maxDepth: number; strict: boolean }): ScanProblem | undefined {
  const n = text.length;
  const stack: Frame[] = [];
  let i = 0;
  const path = (): PropertyKey[] => stack.map((f) => (f.obj ? f.key : f.index));
  const problem = (kind: ScanProblem['kind'], message: string, at = i): ScanProblem => ({ kind, message, offset: at, path: path() });
  const describe = (): string => (i >= n ? 'end of input' : `'${text[i]}'`);
  const ws = (): void => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return;
    }
  };
  /** Skip the string starting at `i` (its opening quote); a problem, or undefined. */
  const string = (): ScanProblem | undefined => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return undefined;
      }
      if (c < 32) return problem('syntax', 'control character (such as a raw newline) inside a string');
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return problem('syntax', 'bad \\u escape in string');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return problem('syntax', `bad escape '\\${e ?? ''}' in string`);
      } else i++;
    }
    return problem('syntax', 'unterminated string');
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  /** Read a property name and its colon into the object frame `f`. */
  const member = (f: Frame & { obj: true }): ScanProblem | undefined => {
    ws();
    if (text[i] !== '"') {
      return problem('syntax', text[i] === '}' ? 'trailing comma before }' : `expected a property name in double quotes, found ${describe()}`);
    }
    const start = i;
    const bad = string();
    if (bad) return bad;
    if (o.strict) {
      const raw = text.slice(start + 1, i - 1);
      const key = raw.includes('\\') ? (JSON.parse(text.slice(start, i)) as string) : raw;
      f.key = key;
      if (key === '__proto__') return problem('proto', `the property name "__proto__" is not accepted: rename or remove it`, start);
      if (f.keys.has(key)) return problem('duplicate', `property "${key}" is given twice in this object: keep one`, start);
      f.keys.add(key);
    }
    ws();
    if (text[i] !== ':') return problem('syntax', `expected ':' after the property name, found ${describe()}`);
    i++;
    return undefined;
  };

  // A byte-order mark is not JSON, but editors write it; JSON.parse refuses it too, so say so.
  if (text.charCodeAt(0) === 0xfeff) return problem('syntax', 'file starts with a byte-order mark; save it as UTF-8 without BOM', 0);
  for (;;) {
    // A value starts here.
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      if (stack.length >= o.maxDepth) return problem('depth', 'too deep');
      i++;
      ws();
      if (text[i] === (c === '{' ? '}' : ']')) i++;
      else if (c === '[') {
        stack.push({ obj: false, index: 0 });
        continue;
      } else {
        const f: Frame = { obj: true, keys: new Set(), key: '' };
        stack.push(f);
        const bad = member(f);
        if (bad) return bad;
        continue;
      }
    } else if (c === '"') {
      const bad = string();
      if (bad) return bad;
    } else if (c === 't' || c === 'f' || c === 'n') {
      const word = c === 't' ? 'true' : c === 'f' ? 'false' : 'null';
      if (!text.startsWith(word, i)) return problem('syntax', `unexpected ${describe()}`);
      i += word.length;
    } else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m || m[0] === '-') return problem('syntax', `unexpected ${describe()}`);
      i += m[0].length;
    } else {
      return problem('syntax', c === undefined ? 'unexpected end of input' : `unexpected ${describe()}`);
    }
    // A value ended: close what it ends, or move on to the next element or member.
    for (;;) {
      const top = stack.at(-1);
      ws();
      if (!top) {
        if (i < n) return problem('syntax', `unexpected ${describe()} after the end of the JSON value`);
        return undefined;
      }
      if (text[i] === ',') {
        i++;
        if (top.obj) {
          const bad = member(top);
          if (bad) return bad;
        } else {
          top.index++;
          ws();
          if (text[i] === ']') return problem('syntax', 'trailing comma before ]');
        }
        break;
      }
      if (text[i] === (top.obj ? '}' : ']')) {
        i++;
        stack.pop();
        continue;
      }
      return problem('syntax', top.obj ? `expected ',' or '}' after a property value, found ${describe()}` : `expected ',' or ']' after an array element, found ${describe()}`);
    }
  }
}
