/**
 * The sandboxed processor as plain JavaScript: BullMQ forks a child per concurrent job and imports
 * the processor file there, and a bare child cannot load our TypeScript. So on worker start the
 * processor entry is bundled (see `../bundle.ts`) into `processor-<hash>.mjs`.
 */
import { fileURLToPath } from 'node:url';
import { bundleEntry, defaultBundleCacheDir } from '../bundle.ts';

const ENTRY = fileURLToPath(new URL('./processor.ts', import.meta.url));

/** Where the processor file is kept by default: `node_modules/.cache/salient` beside bullmq. */
export const defaultProcessorCacheDir = defaultBundleCacheDir;

/** Bundle the processor and return the path of the `.mjs` file. */
export function buildProcessor(cacheDir: string = defaultBundleCacheDir()): Promise<string> {
  return bundleEntry(ENTRY, 'processor', cacheDir);
}
