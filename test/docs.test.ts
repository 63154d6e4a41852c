/**
 * The repository's markdown as a new user reads it: every relative link (and every file a code span
 * names, such as `infra/README.md`) leads somewhere in the repository, every `#anchor` to a heading of
 * its file; and the README's commands whose output it promises do what it says.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const read = (p: string): string => readFileSync(join(root, p), 'utf8');
const tmp = mkdtempSync(join(tmpdir(), 'salient-docs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Every markdown file of the repository (not dependencies, not what tests and benches leave behind). */
function markdownFiles(dir = root): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (['node_modules', '.git', '.turbo', 'test-artifacts', 'out', '.salient'].includes(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...markdownFiles(p));
    else if (name.endsWith('.md')) out.push(relative(root, p).split('\\').join('/'));
  }
  return out;
}

/** The text outside fenced code blocks: what markdown renders as prose, links included. */
const prose = (text: string): string => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, h] of prose(read(file)).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(h ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** Where each relative link of `file` leads, and what is wrong with it (undefined: nothing). */
function checkLinks(file: string): { link: string; problem: string | undefined }[] {
  const text = prose(read(file)).replace(/`[^`\n]*`/g, '');
  const links = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...text.matchAll(/^\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1] ?? '');
  return links
    .filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l))
    .map((link) => {
      const [path = '', anchor] = link.split('#');
      const target = path === '' ? file : relative(root, resolve(dirname(join(root, file)), decodeURIComponent(path))).split('\\').join('/');
      if (target.startsWith('..')) return { link, problem: `leads out of the repository (${target})` };
      if (!existsSync(join(root, target))) return { link, problem: `${target} does not exist` };
      if (anchor !== undefined && anchor !== '' && target.endsWith('.md') && !anchors(target).has(anchor)) return { link, problem: `${target} has no heading #${anchor}` };
      return { link, problem: undefined };
    });
}

/** Files a code span names (`infra/README.md`), which exist beside the file or from the repository root. */
function checkNamedFiles(file: string): { name: string; problem: string | undefined }[] {
  return [...prose(read(file)).matchAll(/`([\w./-]+\.md)`/g)].map(([, name = '']) => {
    const found = [resolve(dirname(join(root, file)), name), join(root, name)].some((p) => existsSync(p));
    return { name, problem: found ? undefined : `names ${name}, which is neither beside it nor at the repository root` };
  });
}

describe('the markdown of the repository', () => {
  const files = markdownFiles();

  it('covers the guides a new user reads', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'infra/README.md', 'dashboards/README.md', 'docs/architecture.md', 'docs/bot-protocol.md']));
  });

  it.each(files)('%s: every relative link resolves, anchors included', (file) => {
    const bad = checkLinks(file).filter((l) => l.problem !== undefined);
    expect(bad.map((l) => `${l.link}: ${l.problem}`)).toEqual([]);
  });

  it.each(files)('%s: every markdown file a code span names exists', (file) => {
    expect(checkNamedFiles(file).flatMap((n) => (n.problem ? [n.problem] : []))).toEqual([]);
  });

  it('the checks are not a rubber stamp', () => {
    expect(slug('Registered bots: external bots on workers')).toBe('registered-bots-external-bots-on-workers');
    expect(anchors('docs/bot-protocol.md').has('registered-bots-external-bots-on-workers')).toBe(true);
    expect(anchors('README.md').has('no-such-heading')).toBe(false);
    expect(prose('a\n```sh\n[x](nowhere.md)\n```\nb')).not.toContain('nowhere');
  });
});

describe('the README’s commands', () => {
  /** The command of the README's sh blocks whose comment is `comment`. */
  function readmeCommand(comment: RegExp): string {
    const lines = [...read('README.md').matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap((m) => (m[1] ?? '').split('\n'));
    const line = lines.find((l) => comment.test(l));
    if (!line) throw new Error(`README.md shows no command commented ${comment}`);
    return line.replace(/\s+#.*$/, '').trim();
  }

  it('the --json play command prints one JSON object on stdout and nothing else, as its comment says', () => {
    const command = readmeCommand(/# one JSON object on stdout, nothing else$/);
    expect(command).toMatch(/--json/);
    // Run as a user runs it: a shell in the repository, with npm and npx on the PATH.
    const r = spawnSync('sh', ['-c', command], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', SALIENT_CLICKHOUSE_PATH: join(tmp, 'clickhouse'), SALIENT_SPOOL_DIR: join(tmp, 'spool') },
    });
    expect(r.status, r.stderr).toBe(0);
    let parsed: unknown;
    expect(() => (parsed = JSON.parse(r.stdout)), `stdout of \`${command}\` is not one JSON document:\n${r.stdout.slice(0, 300)}`).not.toThrow();
    expect(parsed).toMatchObject({ kind: expect.any(String), scenario: 'A', seed: 7 });
    expect(Array.isArray(parsed)).toBe(false);
  }, 120_000);
});
