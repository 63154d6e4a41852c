/**
 * The `salient` CLI compiled once per test run, for the tests that start it as a child process many
 * times (apps/cli/test, test/empires-alliances-platform.test.ts). Under tsx every child compiles and
 * resolves the TypeScript sources again: about 1 s more CPU per start than this bundle (a Blitz
 * `play` 1.6 s against 0.6 s, `games --all` 1.9 s against 1.1 s; 2026-11-28), and the suite starts
 * over a hundred children. The bundle is the same sources compiled by esbuild (which is what tsx
 * compiles with too): every `@salient/*` source inlined, every other package left as an import,
 * and split into chunks so that main.ts's on-demand command modules stay on demand (a `play` child
 * still loads no API server and no game it does not play).
 *
 * Two things keep the bundle's behaviour the sources': `import.meta.url` in each source file is
 * replaced by that file's own URL (the CLI reads its package.json, the local pool and the BullMQ
 * processor find their entries, a game finds its tests directory, all by path from their own file),
 * and a package a workspace holds in its own node_modules (apps/api has another @fastify/static than
 * the root) is imported from there, as Node resolves it for the sources.
 *
 * Some tests still start main.ts under tsx, as `npm run salient` does, so that way stays covered:
 * tournament.test.ts's "runs through the salient entry point" run, cli.test.ts's Ctrl-C match,
 * lazy-games.test.ts (its loader hook watches which game modules load) and the credentials and
 * fault-run tests.
 *
 * Where: `node_modules/.cache/salient/cli-<hash>/`, so that the bare imports resolve from the
 * repository's node_modules; content-addressed, written once, renamed into place whole.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = join(ROOT, 'apps/cli/src/main.ts');
const CACHE = join(ROOT, 'node_modules/.cache/salient');

/** The package name of a bare specifier (`@scope/name/sub` -> `@scope/name`). */
function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The node_modules directory Node would find `name` in from `dir`, walking up; undefined if none. */
function nearestInstall(dir: string, name: string): string | undefined {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules', name))) return join(d, 'node_modules');
    if (dirname(d) === d) return undefined;
  }
}

const plugin: Plugin = {
  name: 'salient-cli-bundle',
  setup(b) {
    // Our workspace packages are inlined (they are TypeScript); anything else stays an import, from
    // the workspace's own node_modules where it has one (else the root's, which the bundle sees).
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@salient/')) return undefined;
      if (isBuiltin(args.path)) return { path: args.path, external: true };
      const at = nearestInstall(args.resolveDir, packageName(args.path));
      if (at && at !== join(ROOT, 'node_modules')) return { path: createRequire(join(args.resolveDir, 'x.js')).resolve(args.path), external: true };
      return { path: args.path, external: true };
    });
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const contents = source.includes('import.meta.url') ? source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)) : source;
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * Build the CLI bundle (if this exact build is not there yet) and return the path of its entry,
 * `main.mjs`, to run as `node <path> ...args`.
 */
export async function buildCliBundle(): Promise<string> {
  const out = await build({
    entryPoints: { main: ENTRY },
    bundle: true,
    splitting: true,
    write: false,
    outdir: join(CACHE, 'cli-build'),
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    plugins: [plugin],
  });
  const hash = createHash('sha256');
  for (const f of out.outputFiles) hash.update(relative(join(CACHE, 'cli-build'), f.path)).update(f.contents);
  const dir = join(CACHE, `cli-${hash.digest('hex').slice(0, 16)}`);
  const main = join(dir, 'main.mjs');
  if (existsSync(main)) return main;
  const tmp = `${dir}.${randomUUID()}.tmp`;
  for (const f of out.outputFiles) {
    const path = join(tmp, relative(join(CACHE, 'cli-build'), f.path));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, f.contents);
  }
  try {
    await rename(tmp, dir);
  } catch (e) {
    // Another process put the same build there first.
    await rm(tmp, { recursive: true, force: true });
    if (!existsSync(main)) throw e;
  }
  return main;
}
