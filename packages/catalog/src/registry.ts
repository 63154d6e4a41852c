/**
 * The games this CLI knows. Adding a game system is one entry in `ENTRIES`; every command (games,
 * play, replay, pack) finds games, scenarios and packs through the functions below, so unknown names
 * get the same error listing the valid ones.
 */
import { SalientError, unknownName, type AnyGame, type LoadedPack, type ScenarioInfo } from '@salient/engine';
import { diceRace } from '@salient/engine/testing';
import { blitz } from '@salient/game-blitz';
import { empiresAlliances } from '@salient/game-empires-alliances';
import { isDirectory, packFromDir } from './pack-files.ts';

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

/** Ids of a game's bundled packs; the first is the default. */
export function bundledPackIds(game: AnyGame): string[] {
  return Object.keys(game.bundledPacks);
}

/**
 * Load a pack: a bundled pack id, else a directory of JSON files. Default: the game's first bundled
 * pack. A bad pack throws `BAD_PACK` with every problem located by file and JSON path; a name that is
 * neither throws `UNKNOWN_PACK` listing the bundled ids.
 */
export async function loadPack(game: AnyGame, idOrDir?: string): Promise<LoadedPack> {
  const ids = bundledPackIds(game);
  const spec = idOrDir ?? ids[0];
  if (spec === undefined) throw unknownName('UNKNOWN_PACK', 'pack', '(default)', ids);
  if (ids.includes(spec)) return bundledPack(game, spec);
  if (isDirectory(spec)) return packFromDir(game, spec);
  const e = unknownName('UNKNOWN_PACK', 'pack', spec, ids);
  throw new SalientError('UNKNOWN_PACK', `${e.message} (Or give the path of a pack directory.)`);
}

/** A bundled pack, checked. A bundled pack that fails its own schema is a bug, not a user mistake. */
export function bundledPack(game: AnyGame, id: string): LoadedPack {
  const checked = game.checkPack(game.bundledPacks[id]);
  if (!checked.ok) {
    const lines = checked.issues.slice(0, 20).map((i) => `  ${i.path}: ${i.message}`);
    throw new Error(`bundled pack '${id}' of game '${game.id}' fails its own schema:\n${lines.join('\n')}`);
  }
  return checked.pack;
}

/** Find a scenario of `pack`; unknown ids throw `UNKNOWN_SCENARIO` listing the valid ones. Default: the first. */
export function findScenario(game: AnyGame, pack: LoadedPack, id: string | undefined): ScenarioInfo {
  const all = game.scenarios(pack);
  const s = id === undefined ? all[0] : all.find((x) => x.id === id);
  if (!s) throw unknownName('UNKNOWN_SCENARIO', 'scenario', id ?? '(default)', all.map((x) => x.id));
  return s;
}
