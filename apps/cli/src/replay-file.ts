/**
 * Replay files on disk, written with a fixed key order and one log entry per line, so the same match
 * always gives the same bytes and two replays diff line by line; and tournament exports (JSON lines,
 * one match with its replay per line) read back one line at a time.
 */
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { checkSize, INPUT_LIMITS, parseReplay, SalientError, type Replay } from '@salient/engine';
import { parseJsonText } from './json-text.ts';

/** The replay as stable, readable JSON text (ends with a newline). */
export function formatReplay(r: Replay): string {
  const j = (v: unknown) => JSON.stringify(v);
  const head = [
    `  "format": ${j(r.format)}`,
    `  "game": ${j(r.game)}`,
    `  "rulesVersion": ${j(r.rulesVersion)}`,
    `  "pack": ${j({ id: r.pack.id, version: r.pack.version, fidelity: r.pack.fidelity, hash: r.pack.hash })}`,
    `  "scenario": ${j(r.scenario)}`,
    `  "options": ${j(sortKeys(r.options))}`,
    `  "seed": ${j(r.seed)}`,
    `  "seats": ${j(sortKeys(r.seats))}`,
  ];
  const log = r.log.length ? `[\n${r.log.map((e) => `    ${j({ by: e.by, choice: e.choice })}`).join(',\n')}\n  ]` : '[]';
  return `{\n${[...head, `  "log": ${log}`, `  "finalHash": ${j(r.finalHash)}`].join(',\n')}\n}\n`;
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
}

/** Write `r` to `file`. */
export function writeReplay(file: string, r: Replay): void {
  try {
    writeFileSync(file, formatReplay(r));
  } catch (e) {
    throw new SalientError('IO', `Cannot write replay file '${file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`);
  }
}

/**
 * Read and check a replay file: its size first (before reading it), then bad JSON by line and column,
 * nesting beyond the replay limit, and a bad shape or unknown field by JSON path.
 */
export function readReplay(file: string): Replay {
  let text: string;
  try {
    checkSize(statSync(file).size, INPUT_LIMITS.replay, file, 'BAD_REPLAY');
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof SalientError) throw e;
    throw new SalientError('IO', `Cannot read replay file '${file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`);
  }
  return parseReplay(parseJsonText(text, file, 'BAD_REPLAY', INPUT_LIMITS.replay), file);
}

/** The `format` of every line of a tournament export (`salient tournament export`). */
export const EXPORT_FORMAT = 'salient-tournament-match/1';

/** A match read from an export: where it is in the file, its id, and its replay. */
export interface ExportedMatch {
  /** 1-based line number. */
  line: number;
  matchId: string;
  scenario?: string;
  seed?: number;
  kind?: string;
  replay: Replay;
}

/**
 * Whether `file` is a tournament export (JSON lines) rather than a replay file: it is named `.jsonl` or
 * `.ndjson`, or it starts as an export line does (`{"format":"salient-tournament-match/1"`).
 */
export function isExportFile(file: string): boolean {
  if (/\.(jsonl|ndjson)$/i.test(file)) return true;
  let head = '';
  try {
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(128);
      head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return false; // readReplay says what is wrong with it
  }
  return head.trimStart().startsWith(`{"format":${JSON.stringify(EXPORT_FORMAT)}`);
}

/**
 * The lines of export `file`, one at a time: each parsed with the strict parser under the replay
 * limits (a line is a replay and a little more), its `replay` checked as a replay file is. A line that
 * fails is given as its error (by line number and JSON path), so the others can still be checked.
 * Blank lines are skipped.
 */
export async function* readExport(file: string): AsyncGenerator<{ line: number; match?: ExportedMatch; error?: SalientError }> {
  let stream;
  try {
    stream = createReadStream(file, { encoding: 'utf8' });
    await new Promise<void>((resolve, reject) => stream!.once('open', () => resolve()).once('error', reject));
  } catch (e) {
    throw new SalientError('IO', `Cannot read export file '${file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`);
  }
  let n = 0;
  for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
    n++;
    if (text.trim() === '') continue;
    const where = `${file} line ${n}`;
    try {
      const value = parseJsonText(text, where, 'BAD_REPLAY', INPUT_LIMITS.replay);
      if (typeof value !== 'object' || value === null || Array.isArray(value) || !('replay' in value)) {
        throw new SalientError('BAD_REPLAY', `${where}: not a line of a tournament export (an object with the match's "replay"); write one with \`salient tournament export ID\`.`);
      }
      const o = value as Record<string, unknown>;
      const replay = parseReplay(o.replay, `${where} $.replay`);
      yield {
        line: n,
        match: {
          line: n,
          matchId: typeof o.matchId === 'string' ? o.matchId : `line ${n}`,
          ...(typeof o.scenario === 'string' ? { scenario: o.scenario } : {}),
          ...(typeof o.seed === 'number' ? { seed: o.seed } : {}),
          ...(typeof o.kind === 'string' ? { kind: o.kind } : {}),
          replay,
        },
      };
    } catch (e) {
      if (!(e instanceof SalientError)) throw e;
      yield { line: n, error: e };
    }
  }
}
