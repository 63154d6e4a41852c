/**
 * The games this CLI knows. Adding a game system is one entry in `ENTRIES`; every command (games,
 * play, replay, pack) finds games, scenarios and packs through the functions below, so unknown names
 * get the same error listing the valid ones.
 */
import { unknownName, type AnyGame } from '@salient/engine';
import { diceRace } from '@salient/engine/testing';
import { blitz } from '@salient/game-blitz';
import { empiresAlliances } from '@salient/game-empires-alliances';

export interface GameEntry {
  game: AnyGame;
  /** Test games: playable by id, left out of listings unless asked. */
  hidden?: boolean;
}

/** The first visible entry is the default game. */
export const ENTRIES: readonly GameEntry[] = [
  { game: blitz },
  { game: empiresAlliances },
  { game: diceRace, hidden: true },
];

/** Registered games in registry order; test games only if `all`. */
export function listGames(all = false): AnyGame[] {
  return ENTRIES.filter((e) => all || !e.hidden).map((e) => e.game);
}

/** The default game: the first visible one (the first of all if none is visible). */
export function defaultGame(): AnyGame {
  const e = ENTRIES.find((x) => !x.hidden) ?? ENTRIES[0];
  if (!e) throw new Error('no games registered');
  return e.game;
}

/** Find a game by id; unknown ids throw `UNKNOWN_GAME` listing every valid id. */
export function findGame(id: string | undefined): AnyGame {
  if (id === undefined) return defaultGame();
  const e = ENTRIES.find((x) => x.game.id === id);
  if (!e) throw unknownName('UNKNOWN_GAME', 'game', id, ENTRIES.map((x) => x.game.id));
  return e.game;
}

export { bundledPackIds, loadPack, bundledPack, findScenario } from './packs.ts';
