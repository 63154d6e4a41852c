/**
 * The sandboxed processor as plain JavaScript. BullMQ forks a child per concurrent job and imports
 * the processor file there; our sources are TypeScript run through tsx, which a bare child cannot
 * load. So on worker start the processor entry is bundled with esbuild (every `@salient/*` source
 * inlined, every other package left as an import) into a content-addressed file
 * `processor-<hash>.mjs`. The build runs in memory every start (a fraction of a second), so the file
 * always matches the sources; it is written only if missing, atomically, so workers on one host
 * share it and never see a half-written file.
 *
 * Where: `node_modules/.cache/salient/` beside the `bullmq` install, because the bundle's external
 * imports (bullmq, @clickhouse/client, chdb...) must resolve from the file's own directory whatever
 * the worker's working directory is.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const ENTRY = fileURLToPath(new URL('./processor.ts', import.meta.url));

/** `node_modules/.cache/salient` of the node_modules that holds bullmq. */
export function defaultProcessorCacheDir(): string {
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

/** Bundle the processor and return the path of the `.mjs` file. */
export async function buildProcessor(cacheDir: string = defaultProcessorCacheDir()): Promise<string> {
  const out = await build({
    entryPoints: [ENTRY],
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
  if (!file) throw new Error('esbuild produced no output for the match processor');
  const hash = createHash('sha256').update(file.contents).digest('hex').slice(0, 16);
  const path = join(cacheDir, `processor-${hash}.mjs`);
  if (!existsSync(path)) {
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, file.contents);
    await rename(tmp, path);
  }
  return path;
}
