/**
 * Baseline files: a suite run written down, to be committed beside the suite and compared with later
 * runs. JSON, gzipped when the name ends in `.gz`. Written to a temporary file first and renamed, so
 * an interrupted write never leaves half a baseline; read back through a schema, so a damaged or
 * foreign file is refused with what is wrong and where.
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { checkSize, formatSize, INPUT_LIMITS, parseJsonText, SalientError } from '@salient/engine';
import type { GameRecord } from './record.ts';
import type { SuiteRun } from './run.ts';

export const BASELINE_FORMAT = 'salient-regress-baseline';
export const BASELINE_VERSION = 1;

export interface Baseline extends Omit<SuiteRun, 'wallMs'> {
  format: typeof BASELINE_FORMAT;
  version: typeof BASELINE_VERSION;
  /** When it was recorded (ISO 8601). */
  createdAt: string;
}

const numbers = z.record(z.string(), z.number());
const strings = z.record(z.string(), z.string());
const impulse = z.object({ at: z.string(), turn: z.number().int(), hash: z.string(), choices: z.array(z.string()), events: z.array(z.string()), scores: numbers });
const game = z.object({
  key: z.string(),
  scenario: z.string(),
  seed: z.number().int(),
  seats: strings,
  bots: strings,
  kind: z.string(),
  sides: strings,
  reason: z.string(),
  turns: z.number().int(),
  impulses: z.number().int(),
  decisions: z.number().int(),
  finalHash: z.string(),
  impulseLog: z.array(impulse),
});
const baselineSchema = z.object({
  format: z.literal(BASELINE_FORMAT),
  version: z.literal(BASELINE_VERSION),
  createdAt: z.string(),
  suite: z.object({ id: z.string(), specHash: z.string() }),
  facts: z.object({
    game: z.string(),
    rulesVersion: z.string(),
    pack: z.object({ id: z.string(), version: z.string(), fidelity: z.string(), hash: z.string() }),
    engineVersion: z.string(),
    bots: z.array(z.string()),
  }),
  games: z.array(game),
});

/** A run as a baseline. */
export function toBaseline(run: SuiteRun, now: Date = new Date()): Baseline {
  return { format: BASELINE_FORMAT, version: BASELINE_VERSION, createdAt: now.toISOString(), suite: run.suite, facts: run.facts, games: run.games };
}

/** Write `b` to `path` (gzipped if it ends in `.gz`), atomically. */
export function writeBaseline(path: string, b: Baseline): void {
  const json = `${JSON.stringify(b)}\n`;
  const bytes = path.endsWith('.gz') ? gzipSync(json, { level: 9 }) : Buffer.from(json);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
  } catch (e) {
    throw new SalientError('IO', `Cannot write the baseline ${path}: ${(e as Error).message}. Check that its directory is writable; the old baseline, if any, is unchanged.`);
  }
}

/** Read and check a baseline file. Throws `BAD_BASELINE` (what is wrong, where) or `IO`. */
export function readBaseline(path: string): Baseline {
  let bytes: Buffer;
  try {
    checkSize(statSync(path).size, INPUT_LIMITS.baseline, path, 'BAD_BASELINE');
    bytes = readFileSync(path);
  } catch (e) {
    if (e instanceof SalientError) throw e;
    const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
    throw new SalientError(
      'IO',
      missing
        ? `No baseline at ${path}. Record one with \`salient regress <suite> --baseline ${path} --update-baseline\` on the code you trust, and commit it.`
        : `Cannot read the baseline ${path}: ${(e as Error).message}.`,
    );
  }
  const limit = INPUT_LIMITS.baseline;
  let text: string;
  try {
    // Unzipped at most to the limit (one byte more to tell "over" from "exactly"), so a small file
    // cannot inflate to gigabytes.
    const gz = bytes[0] === 0x1f && bytes[1] === 0x8b;
    const plain = gz ? gunzipSync(bytes, { maxOutputLength: limit.maxBytes + 1 }) : bytes;
    checkSize(plain.length, limit, path, 'BAD_BASELINE');
    text = plain.toString('utf8');
  } catch (e) {
    if (e instanceof SalientError) throw e;
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new SalientError('BAD_BASELINE', `${path}: unzips to more than the ${formatSize(limit.maxBytes)} ${limit.what} may have. Check that this is the right file; record the baseline again with --update-baseline.`);
    }
    throw new SalientError('BAD_BASELINE', `${path}: not a readable gzip file (${(e as Error).message}). Restore it from version control or record it again with --update-baseline.`);
  }
  let raw: unknown;
  try {
    raw = parseJsonText(text, path, 'BAD_BASELINE', limit);
  } catch (e) {
    const what = (e as Error).message.replace(/\.$/, '');
    const said = / invalid JSON: /.test(what) ? `${path}: not JSON (${what})` : what;
    throw new SalientError('BAD_BASELINE', `${said}. Restore it from version control or record it again with --update-baseline.`);
  }
  const parsed = baselineSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first?.path.length ? first.path.join('.') : '(top level)';
    const foreign = (raw as { format?: unknown } | null)?.format !== BASELINE_FORMAT;
    throw new SalientError(
      'BAD_BASELINE',
      foreign
        ? `${path} is not a Salient regression baseline (no "format": "${BASELINE_FORMAT}"). Pass the file \`salient regress --update-baseline\` wrote.`
        : `${path}: ${where}: ${first?.message ?? 'invalid'}. The file is damaged or from another version; restore it or record it again with --update-baseline.`,
      parsed.error.issues.slice(0, 5).map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }
  return parsed.data as Baseline;
}

/** Games by key; duplicate keys (a suite that plays a game twice) keep the first. */
export function byKey(games: readonly GameRecord[]): Map<string, GameRecord> {
  const m = new Map<string, GameRecord>();
  for (const g of games) if (!m.has(g.key)) m.set(g.key, g);
  return m;
}
