import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const ALL = ['packages/**/*.test.ts', 'apps/**/*.test.ts', 'test/**/*.test.ts'];

/**
 * Test files that start no server, process or thread and keep no state between files: the games'
 * rule tests and the engine's, hex layer's and statistics' unit tests. They run without per-file
 * isolation (a fork imports the sources once for all of them, not once per file): most of their time
 * was importing. Measured 2026-11-28 on two cores under load: Blitz's 65 rule files 108 s of CPU with
 * isolation, 45 s without; the 41 files of E&A rules, engine, hexmap and stats 61 s and 21 s. Every
 * other file keeps its own module state (servers, stores, registries, rule tracing, signal handlers).
 * The bots', runner's and regression tool's unit tests joined 2026-11-29 (see bench figures in the commit).
 */
const SHARED = [
  'packages/games/*/test/rules/**/*.test.ts',
  'packages/engine/test/**/*.test.ts',
  'packages/hexmap/test/**/*.test.ts',
  'packages/stats/test/**/*.test.ts',
  // The in-process bots (random-bot.test.ts restores its Math.random spy after each test), the match
  // runner and the regression tool (its one temporary directory is its own, removed after its tests).
  // Not bots-file.test.ts or external-bots.test.ts: they start bot processes and set the environment.
  'packages/bots/test/{greedy-bot,mcts-bot,plan-bot,random-bot,registry}.test.ts',
  'packages/runner/test/**/*.test.ts',
  'packages/regress/test/**/*.test.ts',
  // Joined 2026-11-30: the other pure files, each named (a new file next to them stays isolated until
  // someone checks it): they start nothing, set no environment, mock nothing and assert no module
  // state (unlike catalog's lazy.test.ts, which watches which games its own import loaded). The memo
  // tests compare each memo with a fresh count, which holds whatever another file left in it. The
  // longest pure files (unit-index, mapbuilder's build, scheduler's plan, move-options-memo) stay
  // isolated: their time is play, not import, and the shared files run last, smallest last.
  'packages/catalog/test/json-text.test.ts',
  'packages/games/blitz/test/{6.5-resolving-a-round,combat-chart,observe,pack,pack-d,pack-e,pack-f,pack-full,prompts,summary,world-map}.test.ts',
  'packages/games/empires-alliances/test/{av-targets-memo,board-view,game,occupancy,pack,pack-facts,vp-supply}.test.ts',
  'packages/mapbuilder/test/{fit,map}.test.ts',
  'packages/scheduler/test/{progress,replay,results,standings,state}.test.ts',
  'packages/telemetry/test/{config,packed-rows,queries,spool}.test.ts',
  // These write only in temporary directories of their own. (test/play-and-replay and
  // bot-protocol-doc are as pure, but most of their minute is play: they stay isolated, which runs them
  // before the shared files.)
  'packages/catalog/test/pack-files.test.ts',
  'packages/scheduler/test/{spec,stop-rule}.test.ts',
  'test/examples.test.ts',
  // The strength ladder's report arithmetic (joined 2026-11-30): made-up outcomes, no files, no environment.
  'test/strength-report.test.ts',
];

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**'],
    testTimeout: 60_000,
    // Hooks start and stop real servers (clickhouse-server, redis-server, Chromium). A stop is SIGTERM,
    // SIGKILL after 5 s, then removing the data directory: on a loaded 2-core machine that passed
    // vitest's default 10 s once (telemetry's server.test.ts afterAll, clean-clone CI 2026-11-30).
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default (one fork fewer than the cores) is one fork on a 2-core machine, where much of
    // the suite waits on servers, worker processes and browsers: two forks there took the suite from
    // 1074 s to 747 s (2026-11-28), with the timing bounds the tests assert still met.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'shared', include: SHARED, isolate: false } },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ALL,
          exclude: ['**/node_modules/**', ...SHARED],
          // The CLI compiled once for the tests that start it as a child process (test/support/cli-bundle.ts).
          globalSetup: ['test/support/cli-global-setup.ts'],
        },
      },
    ],
  },
});
