/**
 * The build is deterministic and its output is a valid map with every anchor on its printed id. The
 * Natural Earth folder lives outside the repository, so the pipeline is run on a folder with no river,
 * lake or region features (test/fixtures/no-features): projection, fit and warp, land and countries
 * from world-atlas, cities, rail and the start line all still run. Where the real folder is present
 * (SALIENT_GEODATA, or ../shared beside the repository), the same test also checks that the committed
 * outputs are current.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHexMap } from '@salient/hexmap';
import { buildFiles, EA_PATHS, findGeodata, readAnchors, REPO_ROOT } from '../src/index.ts';

const fixture = join(REPO_ROOT, 'packages/mapbuilder/test/fixtures/no-features');

describe('E&A map build', () => {
  it('rebuilds byte for byte, a valid map with every anchor on the map; with the real geodata, the committed files', () => {
    const first = buildFiles(fixture);
    const second = buildFiles(fixture);
    expect([...first.keys()].sort()).toEqual([EA_PATHS.map, EA_PATHS.mapMd, EA_PATHS.svg].sort());
    for (const [path, text] of first) expect(second.get(path), path).toBe(text);
    const map = loadHexMap(JSON.parse(first.get(EA_PATHS.map)!), { source: EA_PATHS.map });
    for (const a of readAnchors(join(REPO_ROOT, EA_PATHS.anchors)).anchors) expect(map.grid.tryIndex(a.hex), a.hex).toBeGreaterThanOrEqual(0);

    const geodata = findGeodata();
    if (geodata) {
      for (const [path, text] of buildFiles(geodata)) {
        expect(text === readFileSync(join(REPO_ROOT, path), 'utf8'), `${path} is stale: run npm run map:build -- empires-alliances`).toBe(true);
      }
    }
  }, 180_000);
});
