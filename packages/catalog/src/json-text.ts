/**
 * JSON parsing that says where a syntax error is. V8's `JSON.parse` messages only sometimes carry a
 * position ("Unexpected token '}', ... is not valid JSON" has none), and never a line and column, so on
 * failure a small scanner walks the text again to find the first offending character.
 */
import { SalientError, type ErrorCode } from '@salient/engine';

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
 * Parse `text` as JSON; a syntax error throws `SalientError(code)` reading
 * `<where>:<line>:<column>: <what is wrong>`.
 */
export function parseJsonText(text: string, where: string, code: ErrorCode): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const found = locateJsonError(text);
    if (found) {
      const { line, column } = lineColumn(text, found.offset);
      throw new SalientError(code, `${where}:${line}:${column}: invalid JSON: ${found.message}`);
    }
    throw new SalientError(code, `${where}: invalid JSON: ${(e as Error).message}`);
  }
}

interface JsonErrorAt {
  offset: number;
  message: string;
}

/** The first syntax error in `text`, or undefined if it is valid JSON. */
export function locateJsonError(text: string): JsonErrorAt | undefined {
  let i = 0;
  const fail = (message: string, at = i): never => {
    throw { offset: at, message } satisfies JsonErrorAt;
  };
  const describe = (): string => (i >= text.length ? 'end of input' : `'${text[i]}'`);
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${describe()}`);
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 32) fail('control character (such as a raw newline) inside a string');
      if (c === 92) {
        const n = text[i + 1];
        if (n === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape in string');
          i += 6;
        } else if (n !== undefined && '"\\/bfnrt'.includes(n)) i += 2;
        else fail(`bad escape '\\${n ?? ''}' in string`);
      } else i++;
    }
    fail('unterminated string');
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '-' || m[0] === '') fail(`unexpected ${describe()}`);
    i += (m as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(text[i] === '}' ? 'trailing comma before }' : `expected a property name in double quotes, found ${describe()}`);
        string();
        ws();
        if (text[i] !== ':') fail(`expected ':' after the property name, found ${describe()}`);
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`expected ',' or '}' after a property value, found ${describe()}`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] === ']') fail('trailing comma before ]');
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`expected ',' or ']' after an array element, found ${describe()}`);
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    fail(c === undefined ? 'unexpected end of input' : `unexpected ${describe()}`);
  };
  try {
    // A byte-order mark is not JSON, but editors write it; JSON.parse refuses it too, so say so.
    if (text.charCodeAt(0) === 0xfeff) fail('file starts with a byte-order mark; save it as UTF-8 without BOM', 0);
    value();
    ws();
    if (i < text.length) fail(`unexpected ${describe()} after the end of the JSON value`);
    return undefined;
  } catch (e) {
    if (typeof e === 'object' && e !== null && 'offset' in e) return e as JsonErrorAt;
    throw e;
  }
}
