/**
 * Code that runs outside this process's tsx loader — BullMQ's sandboxed processor (a forked child)
 * and the local pool's game threads — is run as plain JavaScript: the entry is bundled with esbuild
 * (every `@salient/*` source inlined, every other package left as an import) into a
 * content-addressed file `<name>-<hash>.mjs`. So a child or thread starts without compiling
 * TypeScript, and the local pool and the BullMQ workers run the same compiled code.
 *
 * The file always matches the sources. Beside it a manifest lists the build's inputs (the source files
 * esbuild read) with a hash of each one's contents; a later process reads the manifest, hashes those
 * files again (a few milliseconds), and uses the file only if every input is unchanged, so a changed
 * source (or an import added to one, which changes that source) gives a new build. The build itself
 * (in memory, half a second to a second) ran in every process that started a pool or a BullMQ worker
 * before the manifest: `salient tournament` paid it before its first game. Files are written only if
 * missing or changed, atomically, so processes on one host share them and never see a half-written one.
 * Not seen: a change that only moves where an import resolves (a workspace package.json's `exports`, a
 * symlink in node_modules) without changing a source; `rm -rf node_modules/.cache/salient` then.
 * (npm install of another esbuild version changes the manifest's key, so that is seen.)
 *
 * Where: `node_modules/.cache/salient/` beside the `bullmq` install, because the bundle's external
 * imports (bullmq, @clickhouse/client, chdb...) must resolve from the file's own directory whatever
 * the working directory is.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import { build, version as esbuildVersion, type BuildOptions, type Plugin } from 'esbuild';

/** `node_modules/.cache/salient` of the node_modules that holds bullmq. */
export function defaultBundleCacheDir(): string {
  const bullmq = createRequire(import.meta.url).resolve('bullmq');
  const marker = `${sep}node_modules${sep}`;
  const root = bullmq.slice(0, bullmq.lastIndexOf(marker) + marker.length);
  return join(root, '.cache', 'salient');
}

// Bare imports of anything but our workspace packages stay imports; ours are inlined (they are .ts).
const externals: Plugin = {
  name: 'salient-externals',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@salient/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** The build options (besides the entry): part of what a manifest must match. */
const OPTIONS = { bundle: true, platform: 'node', format: 'esm', target: 'node20', sourcemap: 'inline' } as const satisfies BuildOptions;

/** What a build needs to be used again: its inputs' contents, by hash, and the file it made. */
interface Manifest {
  /** esbuild's version, the options and the entry: a manifest of another build is not this one's. */
  key: string;
  /** Absolute path and sha256 (hex) of every file the build read. */
  inputs: [string, string][];
  /** The bundle's file name in the cache directory. */
  file: string;
}

const sha256 = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');

/** For tests: esbuild builds run by this process. */
export const bundleBuilds = { count: 0 };

/** Bundles this process has made or checked, by entry and directory: checked once per process. */
const known = new Map<string, Promise<string>>();

/** For tests: forget what this process built or checked, as a new process would. */
export function forgetBundles(): void {
  known.clear();
}

/** esbuild's output for `entry` and the files it read (absolute paths). */
async function compile(entry: string): Promise<{ contents: Uint8Array; hash: string; inputs: string[] }> {
  bundleBuilds.count++;
  const cwd = process.cwd();
  const out = await build({ ...OPTIONS, entryPoints: [entry], write: false, metafile: true, absWorkingDir: cwd, logLevel: 'silent', plugins: [externals] });
  const file = out.outputFiles[0];
  if (!file) throw new Error(`esbuild produced no output for ${entry}`);
  return { contents: file.contents, hash: sha256(file.contents).slice(0, 16), inputs: Object.keys(out.metafile.inputs).map((p) => resolve(cwd, p)) };
}

/** The bundle `manifest` names, if it is in `cacheDir` and every input it lists still has its contents. */
async function stillValid(manifest: Manifest, key: string, cacheDir: string): Promise<string | undefined> {
  if (manifest.key !== key || typeof manifest.file !== 'string' || !Array.isArray(manifest.inputs) || manifest.inputs.length === 0) return undefined;
  const path = join(cacheDir, manifest.file);
  if (!existsSync(path)) return undefined;
  const same = await Promise.all(manifest.inputs.map(async ([input, hash]) => sha256(await readFile(input)) === hash)).catch(() => [false]);
  return same.every(Boolean) ? path : undefined;
}

/** Write `data` to `path` whole: another process sees the old file, or none, or the new one. */
async function writeWhole(path: string, data: Uint8Array | string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${randomUUID()}.tmp`;
  await writeFile(tmp, data);
  await rename(tmp, path);
}

/**
 * Bundle `entry` (an absolute `.ts` path) into `cacheDir` and return the path of the `.mjs` file,
 * `name` being the file's prefix: the file a previous build made if its manifest says none of its
 * inputs changed, else a new build (see the file comment).
 */
export function bundleEntry(entry: string, name: string, cacheDir: string = defaultBundleCacheDir()): Promise<string> {
  const id = `${entry}\u0000${name}\u0000${cacheDir}`;
  let p = known.get(id);
  if (!p) {
    p = made(entry, name, cacheDir);
    known.set(id, p);
    p.catch(() => known.delete(id));
  }
  return p;
}

async function made(entry: string, name: string, cacheDir: string): Promise<string> {
  const key = JSON.stringify({ esbuild: esbuildVersion, options: OPTIONS, entry });
  const manifestPath = join(cacheDir, `${name}-${sha256(key).slice(0, 16)}.inputs.json`);
  // Missing, or not one this code can read (cut short, an older layout): built again and written anew.
  const manifest = await readFile(manifestPath, 'utf8').then((t) => JSON.parse(t) as Manifest).catch(() => undefined);
  const kept = manifest && (await stillValid(manifest, key, cacheDir));
  if (kept) return kept;
  const began = Date.now();
  const { contents, hash, inputs } = await compile(entry);
  const file = `${name}-${hash}.mjs`;
  const path = join(cacheDir, file);
  if (!existsSync(path)) await writeWhole(path, contents);
  // A source written while esbuild ran may be in the bundle as it was or as it is: then no manifest,
  // and the next process builds again.
  // (Hashed first, then their times looked at: an edit at any moment after the build began shows.)
  const hashed = await Promise.all(inputs.map(async (input): Promise<[string, string]> => [input, sha256(await readFile(input))]));
  const changed = await Promise.all(inputs.map(async (input) => (await stat(input)).mtimeMs >= began - 5)).catch(() => [true]);
  if (changed.some(Boolean)) return path;
  await writeWhole(manifestPath, JSON.stringify({ key, inputs: hashed, file } satisfies Manifest));
  return path;
}
