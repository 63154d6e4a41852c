/**
 * bundleEntry (src/bundle.ts): a bundle built once is used again by a later process only while every
 * source it was built from has the same contents; a changed source, or a file newly imported by one,
 * gives a new build; what it writes is the sources' code. On a throw-away entry of two files.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { bundleBuilds, bundleEntry, forgetBundles } from '../src/bundle.ts';

const dir = mkdtempSync(join(tmpdir(), 'salient-bundle-test-'));
const cache = join(dir, 'cache');
const entry = join(dir, 'entry.ts');
const dep = join(dir, 'dep.ts');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What the bundle at `path` exports as `value`. */
const valueOf = async (path: string): Promise<string> => ((await import(`${pathToFileURL(path).href}?t=${Date.now()}`)) as { value: string }).value;

/** A new process's view: nothing built or checked in this one. */
const fresh = () => {
  forgetBundles();
  return bundleBuilds.count;
};

/** Write a source with a modification time in the past (as files are when a process starts after the edit). */
function source(path: string, text: string): void {
  writeFileSync(path, text);
  const past = new Date(Date.now() - 60_000);
  utimesSync(path, past, past);
}

describe('bundleEntry', () => {
  beforeEach(() => {
    source(dep, "export const word: string = 'one';\n");
    source(entry, "import { word } from './dep.ts';\nexport const value: string = `${word}!`;\n");
  });

  it('uses a build again while its sources are unchanged, in this process and in the next', async () => {
    const before = fresh();
    const first = await bundleEntry(entry, 'bt', cache);
    expect(bundleBuilds.count).toBe(before + 1);
    expect(await valueOf(first)).toBe('one!');
    // The same process asks again: no check, no build.
    expect(await bundleEntry(entry, 'bt', cache)).toBe(first);
    // A later process: the manifest's hashes match, no build.
    const n = fresh();
    expect(await bundleEntry(entry, 'bt', cache)).toBe(first);
    expect(bundleBuilds.count).toBe(n);
    // Touched but unchanged: still the same build.
    const now = new Date();
    utimesSync(dep, now, now);
    fresh();
    expect(await bundleEntry(entry, 'bt', cache)).toBe(first);
    expect(bundleBuilds.count).toBe(n);
  });

  it('builds again when a source it read changed, and when a source imports a new file', async () => {
    fresh();
    const first = await bundleEntry(entry, 'bt', cache);
    source(dep, "export const word: string = 'two';\n");
    const n = fresh();
    const second = await bundleEntry(entry, 'bt', cache);
    expect(bundleBuilds.count).toBe(n + 1);
    expect(second).not.toBe(first);
    expect(await valueOf(second)).toBe('two!');

    // A new import: the entry changed, so it is seen; and the new file is an input from then on.
    const extra = join(dir, 'extra.ts');
    source(extra, "export const more: string = 'three';\n");
    source(entry, "import { word } from './dep.ts';\nimport { more } from './extra.ts';\nexport const value: string = `${word} ${more}`;\n");
    fresh();
    const third = await bundleEntry(entry, 'bt', cache);
    expect(await valueOf(third)).toBe('two three');
    source(extra, "export const more: string = 'four';\n");
    const m = fresh();
    const fourth = await bundleEntry(entry, 'bt', cache);
    expect(bundleBuilds.count).toBe(m + 1);
    expect(await valueOf(fourth)).toBe('two four');
  });

  it('builds again when the bundle file is gone or the manifest is not one it can read', async () => {
    fresh();
    const first = await bundleEntry(entry, 'bt', cache);
    rmSync(first);
    const n = fresh();
    expect(await bundleEntry(entry, 'bt', cache)).toBe(first);
    expect(bundleBuilds.count).toBe(n + 1);
    expect(readFileSync(first, 'utf8')).toMatch(/["']one["']/);
    const manifests = readdirSync(cache).filter((f) => f.endsWith('.inputs.json'));
    expect(manifests).toHaveLength(1);
    writeFileSync(join(cache, manifests[0]!), '{ not json');
    const m = fresh();
    expect(await bundleEntry(entry, 'bt', cache)).toBe(first);
    expect(bundleBuilds.count).toBe(m + 1);
  });
});
