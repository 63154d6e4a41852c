/**
 * A game's packs and scenarios: the bundled packs, a pack directory on disk, a scenario by id. Apart
 * from the registry (registry.ts), which imports every game, so that `lazy.ts` can offer them without
 * loading a game nobody asked for.
 */
import { SalientError, unknownName, type AnyGame, type LoadedPack, type ScenarioInfo } from '@salient/engine';
import { isDirectory, packFromDir } from './pack-files.ts';

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
