import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadHexMapFile } from '../src/file.ts';
import { syntheticMapJson } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'salient-hexmap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('reads a map file, and names the file in every error', () => {
  const good = join(dir, 'map.json');
  writeFileSync(good, JSON.stringify(syntheticMapJson({ rows: [10, 14], cols: [0, 6] })));
  expect(loadHexMapFile(good).hexCount).toBe(35);
  const broken = join(dir, 'broken.json');
  writeFileSync(broken, '{\n  "format": "salient.hexmap/1",\n  "scheme": }');
  expect(() => loadHexMapFile(broken)).toThrow(/broken\.json:3:\d+/);
  const wrong = join(dir, 'wrong.json');
  writeFileSync(wrong, JSON.stringify({ ...syntheticMapJson({ rows: [10, 14], cols: [0, 6] }), scheme: 'nope' }));
  expect(() => loadHexMapFile(wrong)).toThrow(/wrong\.json is not a valid salient\.hexmap\/1 map/);
  expect(() => loadHexMapFile(join(dir, 'missing.json'))).toThrow(/Cannot read the map file .*missing\.json/);
});
