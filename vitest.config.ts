import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/**/*.test.ts', 'apps/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 60_000,
    pool: 'forks',
    // The CLI compiled once for the tests that start it as a child process (test/support/cli-bundle.ts).
    globalSetup: ['test/support/cli-global-setup.ts'],
    // Vitest's default (one fork fewer than the cores) is one fork on a 2-core machine, where much of
    // the suite waits on servers, worker processes and browsers: two forks there took the suite from
    // 1074 s to 747 s (2026-11-28), with the timing bounds the tests assert still met.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
