/**
 * `npm run map:build -- <game> [--geodata DIR] [--scheme NAME] [--out DIR]`: rebuilds a game's approximate
 * map and writes it into the repository (or under --out, for comparing). The Natural Earth folder comes
 * from --geodata, else SALIENT_GEODATA, else ../shared/geodata/natural-earth beside the repository.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEmpiresAlliances, EA_PATHS } from './build.ts';
import { formatMapJson, formatMapMd, formatSvg } from './write.ts';

/** Repository root (three levels above this file). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The geodata folder to use, or undefined when none is there. */
export function findGeodata(flag?: string): string | undefined {
  const dir = flag ?? process.env['SALIENT_GEODATA'] ?? join(REPO_ROOT, '..', 'shared', 'geodata', 'natural-earth');
  return existsSync(join(dir, 'rivers.geojson')) ? dir : undefined;
}

/** Builds E&A and returns the files it writes (repository-relative path -> content). */
export function buildFiles(geodata: string, scheme?: string): Map<string, string> {
  const r = buildEmpiresAlliances({ root: REPO_ROOT, geodata, ...(scheme ? { scheme } : {}) });
  return new Map([
    [EA_PATHS.map, formatMapJson(r.json)],
    [EA_PATHS.mapMd, formatMapMd(r)],
    [EA_PATHS.svg, formatSvg(r)],
  ]);
}

function main(argv: readonly string[]): number {
  const args = [...argv];
  const game = args.shift();
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (game !== 'empires-alliances') {
    process.stderr.write(`map:build: unknown game '${game ?? ''}'. Known: empires-alliances. Usage: npm run map:build -- empires-alliances [--geodata DIR] [--scheme NAME] [--out DIR]\n`);
    return 2;
  }
  const geodata = findGeodata(opt('--geodata'));
  if (!geodata) {
    process.stderr.write('map:build: no Natural Earth folder found (rivers.geojson, lakes.geojson, physical-regions.geojson). Pass --geodata DIR or set SALIENT_GEODATA.\n');
    return 2;
  }
  const out = opt('--out') ?? REPO_ROOT;
  for (const [path, text] of buildFiles(geodata, opt('--scheme'))) {
    const file = join(out, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    process.stdout.write(`wrote ${file}\n`);
  }
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main(process.argv.slice(2));
