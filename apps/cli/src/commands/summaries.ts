/**
 * Each top-level command's line in `salient --help`: its term (name, `[options]` when it has any, its
 * arguments) and its description. The command modules describe themselves with these descriptions,
 * and program.ts shows the whole list from here without importing a single command module (importing
 * them all cost every `--help` and `--version` more than a second of CPU). The terms are the ones
 * commander derives from each command's options and arguments; program.test.ts checks that they still are.
 * In help order; `query` is registered by `report`'s module.
 */
export const COMMAND_SUMMARIES = {
  games: { term: 'games [options]', description: 'List games, their scenarios and bundled data packs, and the bots.' },
  play: { term: 'play [options]', description: 'Play one match between bots and tell it turn by turn.' },
  replay: {
    term: 'replay [options] [file]',
    description: 'Re-run a replay file, or a match from the telemetry store, and check that it reproduces its final state hash (exit 3 if not).',
  },
  pack: { term: 'pack', description: 'Data packs: validate a pack directory, show or export a bundled pack.' },
  report: {
    term: 'report [options] [kind]',
    description:
      "Win rates by scenario, side and bot, and game lengths, from the telemetry store. `report balance`: per scenario, each side's win rate as played and net of bot strength (with intervals), game lengths, who moves first, and which victory conditions decide games.",
  },
  query: { term: 'query [options] <sql>', description: 'Run one read-only SQL statement (SELECT, WITH, SHOW, DESCRIBE, EXPLAIN) on the telemetry store.' },
  rules: { term: 'rules', description: "A game's rulebook as code: which sections are implemented, tested and exercised." },
  demo: { term: 'demo [options]', description: 'Watch bots play the bundled scenarios (what `npm start` runs).' },
  tournament: { term: 'tournament', description: 'Run tournaments: play a spec here (run), or on a queue of workers.' },
  worker: { term: 'worker [options]', description: 'Play matches from a Redis queue (tournaments sent with `salient tournament submit`) until stopped.' },
  serve: { term: 'serve [options]', description: 'Serve the dashboard API (OpenAPI at /docs, /metrics, /health) on the telemetry store until stopped.' },
  regress: {
    term: 'regress [options] <suite>',
    description:
      'Play a fixed suite of games (a tournament spec with pinned bots) on the current code and compare it with a baseline: which games changed and where they first diverged, and which outcome and per-impulse distributions shifted. Exit 0 when nothing moved, 1 when something did, 2 on bad input.',
  },
} as const satisfies Record<string, { term: string; description: string }>;

/** A top-level command's name. */
export type CommandName = keyof typeof COMMAND_SUMMARIES;

/** What `salient --help` says `name` does. */
export const commandDescription = (name: CommandName): string => COMMAND_SUMMARIES[name].description;
