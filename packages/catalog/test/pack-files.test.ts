import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blitz } from '@salient/game-blitz';
import { checkPackDir, formatIssue, issueInFile, writePackDir } from '../src/pack-files.ts';

describe('issueInFile', () => {
  it('turns the first path segment into a file name', () => {
    expect(issueInFile({ path: '$.map.lands[3].terrain', message: 'bad' })).toEqual({ file: 'map.json', path: '$.lands[3].terrain', message: 'bad' });
    expect(issueInFile({ path: '$.map', message: 'missing' })).toEqual({ file: 'map.json', path: '$', message: 'missing' });
    expect(issueInFile({ path: '$["order-of-battle"][2].id', message: 'x' })).toEqual({ file: 'order-of-battle.json', path: '$[2].id', message: 'x' });
  });

  it('keeps pack-wide issues as they are', () => {
    expect(issueInFile({ path: '$', message: 'expected object' })).toEqual({ path: '$', message: 'expected object' });
  });

  it('formats one line per issue and notes missing files', () => {
    expect(formatIssue({ file: 'map.json', path: '$.lands[3]', message: 'bad' }, ['map.json'])).toBe('map.json $.lands[3]: bad');
    expect(formatIssue({ file: 'units.json', path: '$', message: 'required' }, ['map.json'])).toBe('units.json (no such file in the pack) $: required');
  });
});

describe('pack directories: unknown fields, depth and size', () => {
  const MiB = 1024 * 1024;
  /** The bundled Blitz! pack written out as a directory, with `edit` applied to its files. */
  function packDir(edit: (dir: string) => void): string {
    const dir = join(mkdtempSync(join(tmpdir(), 'salient-pack-')), 'pack');
    writePackDir(blitz.bundledPacks.approximation, dir);
    edit(dir);
    return dir;
  }
  const editJson = (dir: string, file: string, f: (v: Record<string, any>) => void): void => {
    const v = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, any>;
    f(v);
    writeFileSync(join(dir, file), JSON.stringify(v, null, 2));
  };

  it('the bundled pack, written out, still validates', () => {
    expect(checkPackDir(blitz, packDir(() => {}))).toMatchObject({ ok: true });
  });

  it('refuses a field the schema does not name, with its file and path, so no hash is taken over it', () => {
    const dir = packDir((d) => {
      editJson(d, 'pack.json', (p) => (p.signedBy = 'someone'));
      editJson(d, 'units.json', (u) => (u.units[2].atack = 3));
    });
    const r = checkPackDir(blitz, dir);
    expect(r.ok).toBe(false);
    expect(r.ok ? [] : r.lines).toEqual(['pack.json $: Unrecognized key: "signedBy"', 'units.json $.units[2]: Unrecognized key: "atack"']);
  });

  it('refuses a 50,000-deep field at once, with the limit, file, line and path', () => {
    const dir = packDir((d) => {
      const text = readFileSync(join(d, 'pack.json'), 'utf8');
      writeFileSync(join(d, 'pack.json'), text.replace(/^\{\n/, `{\n  "extra": ${'['.repeat(50_000)}${']'.repeat(50_000)},\n`));
    });
    const started = performance.now();
    const r = checkPackDir(blitz, dir);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(r.ok ? [] : r.lines).toEqual([expect.stringMatching(/^pack\.json:2:75: nested deeper than 64 levels at \$\.extra\[0\]\[0\].*; a pack file never nests this deep/)]);
  });

  it('refuses a file over the size limit without reading it', () => {
    // A sparse file: its size is what stat says, and reading it would take 17 MiB of zeros.
    const dir = packDir((d) => truncateSync(join(d, 'map.json'), 17 * MiB));
    const r = checkPackDir(blitz, dir);
    expect(r.ok ? [] : r.lines).toEqual(['map.json: 17 MiB is more than the 16 MiB a pack file may have. No honest pack file comes near that size: check that this is the right file.']);
  });
});
