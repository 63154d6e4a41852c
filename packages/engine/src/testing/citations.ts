/**
 * Which tests cite which rule sections. A test cites a section by starting its file name or a suite
 * or test title with the section number: `6.2-land-round.test.ts`, `describe('6.2 Land Round')`,
 * `describe('B.5/6.6 ARM attacking from a TRS')`, `describe('Scenario A victory')`, `it('A.6 worked
 * example ...')`, `describe('Scenario full: ...')`. Only ids in `known` count, so a number elsewhere in a title is not taken for one.
 * Section numbers may have two digits and three levels (`13.6`, `13.643`, Empires & Alliances), and a
 * scenario's own rules may be cited as `S3 3.7` (a scenario number, a space, its rule).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One citing test: its file (relative to the scanned directory) and the title that cites. */
export interface Citation {
  file: string;
  title: string;
}

const REF = String.raw`(?:S[1-9] [1-9]\d?(?:\.\d{1,3}){0,2}|[1-9]\d?(?:\.\d{1,3}){1,2}|[1-9]\d?|[A-F](?:\.\d{1,2})?|full)`;
const LEADING = new RegExp(String.raw`^(?:Scenario\s+)?(${REF}(?:\s*/\s*${REF})*)(?=[\s:,)-]|$)`);
const TITLE = /\b(?:describe|it|test)(?:\.each\([^)]*\))?\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g;

/**
 * The section ids a title (or, with `fileName`, a file name) starts with. A lone letter or whole
 * number counts only as `Scenario B ...`, `B: ...` or in a file name, so a title such as "B affects
 * every unit" (the letter result) cites nothing.
 */
export function leadingSections(text: string, fileName = false): string[] {
  const t = text.trim();
  const m = LEADING.exec(t);
  if (!m) return [];
  const ids = m[1]!.split('/').map((x) => x.trim());
  const bare = ids.length === 1 && !ids[0]!.includes('.');
  if (bare && !fileName && !t.startsWith('Scenario') && t[m[0].length] !== ':') return [];
  return ids;
}

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...testFiles(path));
    else if (/\.test\.[cm]?[jt]s$/.test(name)) out.push(path);
  }
  return out;
}

/**
 * Every test file under `dir` (recursively), and the sections in `known` each one cites, by section.
 * A missing directory gives no citations (a game installed without its tests).
 */
export function testCitations(dir: string, known: Iterable<string>): Map<string, Citation[]> {
  const ids = new Set(known);
  const out = new Map<string, Citation[]>();
  const add = (section: string, c: Citation) => {
    if (!ids.has(section)) return;
    const list = out.get(section) ?? [];
    if (!list.some((x) => x.file === c.file && x.title === c.title)) list.push(c);
    out.set(section, list);
  };
  let files: string[];
  try {
    files = testFiles(dir);
  } catch {
    return out;
  }
  for (const path of files) {
    const file = relative(dir, path);
    const base = file.split(/[\\/]/).at(-1)!;
    for (const s of leadingSections(base.replace(/-.*$/, ''), true)) add(s, { file, title: base });
    const text = readFileSync(path, 'utf8');
    for (const m of text.matchAll(TITLE)) {
      const title = m[2]!;
      for (const s of leadingSections(title)) add(s, { file, title });
    }
  }
  return out;
}
