/**
 * Code that runs outside this process's tsx loader — BullMQ's sandboxed processor (a forked child)
 * and the local pool's game threads — is run as plain JavaScript: the entry is bundled with esbuild
 * (every `@salient/*` source inlined, every other package left as an import) into a
 * content-addressed file `<name>-<hash>.mjs`. So a child or thread starts without compiling
 * TypeScript, and the local pool and the BullMQ workers run the same compiled code. The build runs in
 * memory once per process for each entry (a fraction of a second), so the file always matches the
 * sources; it is written only if missing, atomically, so processes on one host share it and never
 * see a half-written file.
 *
 * Where: `node_modules/.cache/salient/` beside the `bullmq` install, because the bundle's external
 * imports (bullmq, @clickhouse/client, chdb...) must resolve from the file's own directory whatever
 * the working directory is.
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { build, type Plugin } from 'esbuild';

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

const compiled = new Map<string, Promise<{ contents: Uint8Array; hash: string }>>();

/** esbuild's output for `entry`, compiled once per process (a failed build is not kept). */
function compile(entry: string): Promise<{ contents: Uint8Array; hash: string }> {
  let p = compiled.get(entry);
  if (!p) {
    p = (async () => {
      const out = await build({
        entryPoints: [entry],
        bundle: true,
        write: false,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        sourcemap: 'inline',
        logLevel: 'silent',
        plugins: [externals],
      });
      const file = out.outputFiles[0];
      if (!file) throw new Error(`esbuild produced no output for ${entry}`);
      return { contents: file.contents, hash: createHash('sha256').update(file.contents).digest('hex').slice(0, 16) };
    })();
    compiled.set(entry, p);
    p.catch(() => compiled.delete(entry));
  }
  return p;
}

/**
 * Bundle `entry` (an absolute `.ts` path) into `cacheDir` and return the path of the `.mjs` file,
 * `name` being the file's prefix.
 */
export async function bundleEntry(entry: string, name: string, cacheDir: string = defaultBundleCacheDir()): Promise<string> {
  const { contents, hash } = await compile(entry);
  const path = join(cacheDir, `${name}-${hash}.mjs`);
  if (!existsSync(path)) {
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${randomUUID()}.tmp`;
    await writeFile(tmp, contents);
    await rename(tmp, path);
  }
  return path;
}
