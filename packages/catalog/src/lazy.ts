/**
 * `@salient/catalog/lazy`: the catalog's games by id, each game's module imported the first time the
 * game is asked for, with the pack, pack-directory and JSON helpers (none of which imports a game).
 *
 * The registry (registry.ts, the package's main entry) imports every game when it is imported, which
 * is what its synchronous `findGame` needs. A command that plays one game has no use for the others:
 * under tsx, Blitz costs a child process about 0.3 s of CPU to import and Empires & Alliances about
 * 0.15 s (2026-11-28), so `salient play` asks here and a Dice Race or Blitz match never loads Empires
 * & Alliances. The ids, order and hidden flags are the registry's (`ENTRIES`); the catalog's tests
 * check that the two lists agree and give the same game objects.
 */
import { unknownName, type AnyGame } from '@salient/engine';

export { bundledPackIds, loadPack, bundledPack, findScenario } from './packs.ts';
export * from './pack-files.ts';
export * from './json-text.ts';

/** A game of the catalog, not imported until `load` is called. */
export interface LazyGameEntry {
  id: string;
  /** Test games: playable by id, left out of listings unless asked. */
  hidden?: boolean;
  load(): Promise<AnyGame>;
}

/** The registry's games in its order; the first visible one is the default. */
export const LAZY_ENTRIES: readonly LazyGameEntry[] = [
  { id: 'blitz', load: async () => (await import('@salient/game-blitz')).blitz },
  { id: 'empires-alliances', load: async () => (await import('@salient/game-empires-alliances')).empiresAlliances },
  { id: 'dice-race', hidden: true, load: async () => (await import('@salient/engine/testing')).diceRace },
];

const loading = new Map<string, Promise<AnyGame>>();

/** Ids of the registered games in registry order; test games only if `all`. Loads nothing. */
export function gameIds(all = false): string[] {
  return LAZY_ENTRIES.filter((e) => all || !e.hidden).map((e) => e.id);
}

/**
 * The game `id` (default: the first visible game), its module imported on the first call. Unknown ids
 * throw `UNKNOWN_GAME` listing every valid id, as the registry's `findGame` does.
 */
export function loadGame(id?: string): Promise<AnyGame> {
  const e = id === undefined ? (LAZY_ENTRIES.find((x) => !x.hidden) ?? LAZY_ENTRIES[0]) : LAZY_ENTRIES.find((x) => x.id === id);
  if (!e) {
    return Promise.reject(id === undefined ? new Error('no games registered') : unknownName('UNKNOWN_GAME', 'game', id, LAZY_ENTRIES.map((x) => x.id)));
  }
  let p = loading.get(e.id);
  if (!p) {
    p = e.load().then((game) => {
      if (game.id !== e.id) throw new Error(`catalog entry '${e.id}' loaded the game '${game.id}'`);
      return game;
    });
    loading.set(e.id, p);
  }
  return p;
}

/** Every registered game in registry order (test games only if `all`), loading those not yet loaded. */
export function loadGames(all = false): Promise<AnyGame[]> {
  return Promise.all(gameIds(all).map((id) => loadGame(id)));
}

/** Ids of the games asked for so far in this process, in registry order. */
export function loadedGameIds(): string[] {
  return LAZY_ENTRIES.filter((e) => loading.has(e.id)).map((e) => e.id);
}
