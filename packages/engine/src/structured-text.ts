/**
 * Reading a YAML or JSON document from outside (tournament specs, the operator's bots file), the same
 * way wherever it comes from: the format is decided by one rule ({@link textFormat}), JSON is read by
 * the strict JSON reader (never as YAML, so a trailing comma refused in one place is refused
 * everywhere), YAML by the `yaml` library with its depth measured first (its composer recurses once
 * per level), and both within an {@link InputLimit}. Problems throw `code` as
 * `<source>:<line>:<column>: ...`.
 */
import { Parser, parseDocument, type CST, type Document } from 'yaml';
import type { ErrorCode } from './errors.ts';
import { SalientError } from './errors.ts';
import { checkDepth, checkSize, tooDeepMessage, type InputLimit } from './input-limits.ts';
import { lineColumn, parseJsonText } from './json-text.ts';

/** The two formats such a document may be written in. */
export type TextFormat = 'yaml' | 'json';

/** How {@link textFormat} decided: the caller said so, the file's extension, or the text itself. */
export type TextFormatReason = 'given' | 'extension' | 'content';

/**
 * The format to read `text` in: `format` when given; else by the file name `source` (`.json`;
 * `.yaml`, `.yml`); else JSON when the first non-blank character is `{` or `[`, YAML otherwise. A
 * YAML document in flow style (`{game: blitz, ...}`) therefore needs `format: yaml` or a YAML file name.
 */
export function textFormat(text: string, o: { format?: TextFormat; source?: string } = {}): { format: TextFormat; reason: TextFormatReason } {
  if (o.format !== undefined) return { format: o.format, reason: 'given' };
  if (o.source !== undefined) {
    if (/\.json$/i.test(o.source)) return { format: 'json', reason: 'extension' };
    if (/\.ya?ml$/i.test(o.source)) return { format: 'yaml', reason: 'extension' };
  }
  const first = /^[\s\uFEFF]*(\S)/.exec(text)?.[1];
  return { format: first === '{' || first === '[' ? 'json' : 'yaml', reason: 'content' };
}

/** A parsed document: its value (undefined when empty), its format, and where a path is in the text. */
export interface StructuredText {
  raw: unknown;
  format: TextFormat;
  reason: TextFormatReason;
  /** `{ line, column }` of the value at `path` (or of its nearest enclosing node), if known. */
  locate(path: readonly PropertyKey[]): { line: number; column: number } | undefined;
}

/**
 * Parse `text` (from `source`, a file name or words such as "the request body spec") as
 * {@link textFormat} decides, within `limit`. Throws `code` for a document over the limit, too deep,
 * or not valid in its format; an empty document gives `raw` undefined.
 */
export function parseStructuredText(text: string, source: string, o: { limit: InputLimit; code: ErrorCode; format?: TextFormat }): StructuredText {
  checkSize(text.length, o.limit, source, o.code);
  const { format, reason } = textFormat(text, { ...(o.format ? { format: o.format } : {}), source });
  if (format === 'json') {
    let raw: unknown;
    try {
      raw = parseJsonText(text, source, o.code, o.limit);
    } catch (e) {
      if (!(e instanceof SalientError) || reason !== 'content') throw e;
      const how = /\.[^./\\]+$/.test(source) ? 'name the file .yaml' : "send format: 'yaml'";
      throw new SalientError(e.code, `${e.message} (Read as JSON because it starts with '{' or '['; for YAML in flow style, ${how}.)`);
    }
    // Valid JSON of this depth is valid YAML too: its document only locates issues by line.
    return { raw: raw ?? undefined, format, reason, locate: locator(parseDocument(text, { prettyErrors: false }), text) };
  }
  const deep = yamlTooDeep(text, o.limit.maxDepth);
  if (deep !== undefined) {
    const { line, column } = lineColumn(text, deep);
    throw new SalientError(o.code, tooDeepMessage(o.limit, `${source}:${line}:${column}`));
  }
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const err = doc.errors[0];
  if (err) {
    const { line, column } = lineColumn(text, err.pos[0]);
    throw new SalientError(o.code, `${source}:${line}:${column}: invalid YAML: ${err.message.split('\n')[0]}. Fix the syntax there.`);
  }
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 1000 });
  } catch (e) {
    throw new SalientError(o.code, `${source}: cannot read the YAML: ${(e as Error).message}.`);
  }
  // Aliases can nest an anchored collection below another one: the value is checked too.
  if (raw !== null && raw !== undefined) checkDepth(raw, o.limit, source, o.code);
  return { raw: raw ?? undefined, format, reason, locate: locator(doc, text) };
}

/**
 * Offset of the first YAML collection nested deeper than `maxDepth`, from the CST (walked with a
 * stack): the YAML composer recurses once per level and overflows the stack on deep flow collections
 * (`a: [[[[...`) or compact sequences (`- - - ...`); its CST parser does not.
 */
function yamlTooDeep(text: string, maxDepth: number): number | undefined {
  const stack: Array<{ token: CST.Token | null | undefined; depth: number }> = [];
  for (const token of new Parser().parse(text)) stack.push({ token, depth: 0 });
  for (let top = stack.pop(); top; top = stack.pop()) {
    const { token, depth } = top;
    if (!token) continue;
    if (token.type === 'document') stack.push({ token: token.value, depth });
    else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      if (depth + 1 > maxDepth) return token.offset;
      for (const item of token.items) {
        if ('key' in item) stack.push({ token: item.key, depth: depth + 1 });
        stack.push({ token: item.value, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

function locator(doc: Document, text: string): StructuredText['locate'] {
  return (path) => {
    // Down to the nearest enclosing node, but not the whole document: line 1 would mislead.
    for (let n = path.length; n >= 1; n--) {
      const node = doc.getIn(path.slice(0, n) as unknown[], true) as { range?: [number, number, number] } | undefined;
      const at = node && typeof node === 'object' ? node.range?.[0] : undefined;
      if (at !== undefined) return lineColumn(text, at);
    }
    return undefined;
  };
}
