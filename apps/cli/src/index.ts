/**
 * `@salient/cli` as a library: the games registry and the file formats the command line uses, for
 * the other apps (API, worker) and for end-to-end tests. The command itself is `main.ts`.
 */
export { ENTRIES, listGames, defaultGame, findGame, findScenario, bundledPack, bundledPackIds, loadPack, type GameEntry } from './registry.ts';
export { readPackDir, checkPackDir, packFromDir, writePackDir, issueInFile, formatIssue, type PackDir, type DirCheck, type FileIssue } from './pack-files.ts';
export { formatReplay, readReplay, writeReplay } from './replay-file.ts';
export { parseJsonText, locateJsonError } from './json-text.ts';
export { Account, summarize, headline, type AccountStep, type AccountOptions } from './account.ts';
