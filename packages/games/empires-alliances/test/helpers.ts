/** Shared test helpers: the bundled pack, checked once, and counter profiles by id. */
import { empiresAlliances } from '../src/game.ts';
import { checkEaPack } from '../src/pack/check.ts';
import { approximationPack } from '../src/pack/bundled.ts';
import type { PackFiles, Profile } from '../src/pack/schema.ts';

const checked = checkEaPack(approximationPack);
if (!checked.ok) throw new Error(`bundled pack is invalid:\n${checked.issues.map((i) => `${i.path}: ${i.message}`).join('\n')}`);

/** The bundled approximation pack's parsed data. */
export const PACK: PackFiles = checked.data;
export const CHARTS = PACK.charts;
export const S3 = PACK.scenarios.scenarios[0]!;

/** A counter profile by id (throws on a typo in a test). */
export function prof(id: string): Profile {
  const p = PACK.counters.profiles.find((x) => x.id === id);
  if (!p) throw new Error(`no profile ${id}`);
  return p;
}

/** A deep copy of the raw bundled pack, to break in tests. */
export const rawPack = (): Record<string, unknown> => JSON.parse(JSON.stringify(approximationPack)) as Record<string, unknown>;

const forGame = empiresAlliances.checkPack(empiresAlliances.bundledPacks.approximation);
if (!forGame.ok) throw new Error(`bundled pack is invalid:\n${forGame.issues.map((i) => `${i.path}: ${i.message}`).join('\n')}`);

/** The bundled pack as the game takes it (`game.checkPack`), for `game.setup`. */
export const bundled = () => (forGame as Extract<typeof forGame, { ok: true }>).pack;
