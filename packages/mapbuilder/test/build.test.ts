/**
 * Rebuilding from the inputs gives the committed bytes (so the build is deterministic and the committed
 * outputs are current). Needs the Natural Earth folder, which lives outside the repository: skipped with
 * a message when it is absent (fresh clone, CI).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildFiles, findGeodata, REPO_ROOT } from '../src/index.ts';

const geodata = findGeodata();
if (!geodata) console.warn('mapbuilder build test skipped: no Natural Earth folder (set SALIENT_GEODATA to a folder with rivers.geojson, lakes.geojson, physical-regions.geojson)');

describe.skipIf(!geodata)('E&A map build', () => {
  it('rebuilds the committed map.json, MAP.md and SVG byte for byte, twice', () => {
    const first = buildFiles(geodata!);
    const second = buildFiles(geodata!);
    for (const [path, text] of first) {
      expect(second.get(path), path).toBe(text);
      expect(text === readFileSync(join(REPO_ROOT, path), 'utf8'), `${path} is stale: run npm run map:build -- empires-alliances`).toBe(true);
    }
  }, 120_000);
});
