/** The lazy catalog (lazy.ts) against the registry: the same games, ids, order and errors. */
import { describe, expect, it } from 'vitest';
import { LAZY_ENTRIES, gameIds, loadGame, loadGames, loadedGameIds } from '../src/lazy.ts';
import { ENTRIES, defaultGame, findGame, listGames } from '../src/registry.ts';

describe('lazy catalog', () => {
  it('loads only the games asked for, once each', async () => {
    expect(loadedGameIds()).toEqual([]);
    const dice = await loadGame('dice-race');
    expect(loadedGameIds()).toEqual(['dice-race']);
    expect(await loadGame('dice-race')).toBe(dice);
    await loadGame('blitz');
    expect(loadedGameIds()).toEqual(['blitz', 'dice-race']);
  });

  it('lists the registry’s games in its order with its hidden flags, and gives the very same game objects', async () => {
    expect(LAZY_ENTRIES.map((e) => [e.id, Boolean(e.hidden)])).toEqual(ENTRIES.map((e) => [e.game.id, Boolean(e.hidden)]));
    expect(gameIds()).toEqual(listGames().map((g) => g.id));
    expect(gameIds(true)).toEqual(listGames(true).map((g) => g.id));
    expect(await loadGames(true)).toEqual(listGames(true));
    for (const e of ENTRIES) expect(await loadGame(e.game.id)).toBe(e.game);
    expect(await loadGame()).toBe(defaultGame());
  });

  it('refuses an unknown id as findGame does, naming every valid one', async () => {
    let expected: unknown;
    try {
      findGame('nope');
    } catch (e) {
      expected = e;
    }
    expect(expected).toBeInstanceOf(Error);
    await expect(loadGame('nope')).rejects.toThrow((expected as Error).message);
    await expect(loadGame('nope')).rejects.toMatchObject({ code: (expected as { code?: string }).code });
  });
});
