/**
 * Replay files on disk. Written with a fixed key order and one log entry per line, so the same match
 * always gives the same bytes and two replays diff line by line.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
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
