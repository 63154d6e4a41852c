/**
 * Data packs on disk: a directory of JSON files, one per component (`map.json`, `units.json`, ...).
 * The game's `checkPack` sees them as one object keyed by file name without `.json`, so its issues
 * start with the file name (`$.map.lands[3].terrain`); here they are turned back into a file and a
 * path inside it (`map.json $.lands[3].terrain`), which is what a person editing the pack needs.
 */
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { checkSize, INPUT_LIMITS, SalientError, type AnyGame, type LoadedPack, type PathIssue } from '@salient/engine';
import { parseJsonText } from './json-text.ts';

/** True if `path` names an existing directory. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** What was read from a pack directory. `problems` holds JSON syntax errors, one per bad file. */
export interface PackDir {
  dir: string;
  /** File name without `.json` -> parsed content, for every file that parsed. */
  raw: Record<string, unknown>;
  /** The `.json` files found, sorted. */
  files: string[];
  /** Files that could not be read as JSON within the pack-file limits, as `map.json:12:5: invalid JSON: ...`. */
  problems: string[];
}

/** Read every `*.json` file of `dir`. A missing or empty directory throws `IO`. */
export function readPackDir(dir: string): PackDir {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    throw new SalientError('IO', `Cannot read pack directory '${dir}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`);
  }
  const files = names.filter((n) => n.endsWith('.json') && !isDirectory(join(dir, n))).sort();
  if (files.length === 0) throw new SalientError('IO', `No .json files in pack directory '${dir}'.`);
  const raw: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const f of files) {
    try {
      // Size before reading, depth and syntax before any schema sees it (INPUT_LIMITS.packFile).
      checkSize(statSync(join(dir, f)).size, INPUT_LIMITS.packFile, f, 'BAD_PACK');
      raw[basename(f, '.json')] = parseJsonText(readFileSync(join(dir, f), 'utf8'), f, 'BAD_PACK', INPUT_LIMITS.packFile);
    } catch (e) {
      if (!(e instanceof SalientError)) throw e;
      // A syntax error names the line and column; say what comes next, as the schema's lines do.
      problems.push(/^[^:]+:\d+:\d+: invalid JSON: /.test(e.message) ? `${e.message.replace(/\.$/, '')}. Fix the JSON at that line and column; the file is checked against the pack schema once it parses.` : e.message);
    }
  }
  return { dir, raw, files, problems };
}

/** A checkPack issue located in a file: `file` is undefined for issues about the pack as a whole. */
export interface FileIssue {
  file?: string;
  /** JSON path inside the file (`$.lands[3].terrain`). */
  path: string;
  message: string;
}

const FIRST_SEGMENT = /^\$(?:\.([A-Za-z_$][\w$]*)|\[("(?:[^"\\]|\\.)*")\])/;

/** `$.map.lands[3]` -> `{ file: 'map.json', path: '$.lands[3]' }`. */
export function issueInFile(issue: PathIssue): FileIssue {
  const m = FIRST_SEGMENT.exec(issue.path);
  if (!m) return { path: issue.path, message: issue.message };
  const name = m[1] ?? (JSON.parse(m[2] as string) as string);
  return { file: `${name}.json`, path: '$' + issue.path.slice(m[0].length), message: issue.message };
}

/** One line per issue: `map.json $.lands[3].terrain: message`, noting files that do not exist. */
export function formatIssue(i: FileIssue, files?: readonly string[]): string {
  if (i.file === undefined) return `${i.path}: ${i.message}`;
  const missing = files && !files.includes(i.file) ? ' (no such file in the pack)' : '';
  return `${i.file}${missing} ${i.path}: ${i.message}`;
}

/** The game a pack directory names in `pack.json` (`"game": "blitz"`), if any. */
export function declaredGame(p: PackDir): string | undefined {
  const meta = p.raw.pack;
  if (typeof meta === 'object' && meta !== null && typeof (meta as { game?: unknown }).game === 'string') {
    return (meta as { game: string }).game;
  }
  return undefined;
}

/** Result of validating a directory: the pack, or every problem as a printable line. */
export type DirCheck = { ok: true; pack: LoadedPack; files: string[] } | { ok: false; lines: string[]; files: string[] };

/** Read and check a pack directory with `game`'s schema. Syntax errors come first and stop the schema check. */
export function checkPackDir(game: AnyGame, dir: string): DirCheck {
  const p = readPackDir(dir);
  // Schema issues about a file that failed to parse would only repeat the syntax error, so stop here.
  if (p.problems.length > 0) return { ok: false, lines: p.problems, files: p.files };
  const r = game.checkPack(p.raw);
  if (!r.ok) return { ok: false, lines: r.issues.map((i) => formatIssue(issueInFile(i), p.files)), files: p.files };
  const lines = scenarioProblems(game, r.pack);
  if (lines.length > 0) return { ok: false, lines, files: p.files };
  return { ok: true, pack: r.pack, files: p.files };
}

/** `scenarios.json: $.scenarios[0].hexes[1]: message` (how a game's set-up names a place) as a validate line. */
const SETUP_WHERE = /^([\w.-]+\.json): (\$\S*): ([\s\S]*)$/;

/**
 * Set up every scenario of a schema-valid pack with its default options. A schema sees one file at a
 * time; what only holds across files (a unit placed on a hex the map does not have, a sector naming an
 * unknown city) is found when a game sets up, so `pack validate` does that too instead of leaving it to
 * the first `play`. A game's `SalientError` is a user's mistake and becomes a problem line; anything
 * else is a bug and propagates.
 */
export function scenarioProblems(game: AnyGame, pack: LoadedPack): string[] {
  const lines: string[] = [];
  for (const s of game.scenarios(pack)) {
    try {
      game.setup(s.id, pack);
    } catch (e) {
      if (!(e instanceof SalientError)) throw e;
      const m = SETUP_WHERE.exec(e.message);
      lines.push(m ? `${m[1]} ${m[2]}: ${m[3]}` : `scenario ${s.id}: ${e.message}`);
    }
  }
  return lines;
}

/** Load a pack directory for a match or replay; a bad pack throws `BAD_PACK` listing every problem. */
export function packFromDir(game: AnyGame, dir: string): LoadedPack {
  const r = checkPackDir(game, dir);
  if (r.ok) return r.pack;
  const n = r.lines.length;
  throw new SalientError(
    'BAD_PACK',
    `Pack directory '${dir}' is not a valid ${game.id} pack (${n} problem${n === 1 ? '' : 's'}); run 'salient pack validate ${dir}':\n` +
      r.lines.map((l) => `  ${l}`).join('\n'),
  );
}

/**
 * Write a raw pack object as a directory, one pretty-printed file per top-level key, so a bundled
 * pack can be copied, edited and validated.
 */
export function writePackDir(raw: unknown, dir: string): string[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SalientError('BAD_PACK', 'This pack is not an object of files and cannot be exported as a directory.');
  }
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new SalientError('IO', `Directory '${dir}' exists and is not empty; choose a new directory.`);
  }
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [k, v] of Object.entries(raw)) {
    const f = `${k}.json`;
    writeFileSync(join(dir, f), JSON.stringify(v, null, 2) + '\n');
    written.push(f);
  }
  return written;
}
