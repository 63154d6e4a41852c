/**
 * How a test starts `salient` as a child process: `node <bundle> ...args`, the CLI compiled once for
 * the run by the global set-up (cli-bundle.ts says why and what keeps it the sources' behaviour).
 */
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The path of the CLI bundle's entry (main.mjs). */
    salientCliBundle: string;
  }
}

/** Node's arguments before the CLI's own: the bundle's entry. */
export function salientEntry(): string[] {
  const main = inject('salientCliBundle');
  if (!main) throw new Error('no CLI bundle: vitest.config.ts runs test/support/cli-global-setup.ts to build it');
  return [main];
}
