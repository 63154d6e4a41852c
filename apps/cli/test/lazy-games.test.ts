/**
 * A `salient` child imports the games it plays and no other (the lazy catalog, @salient/catalog/lazy,
 * used by play, replay, pack and rules): a loader hook logs every game module the process loads.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../../..');
const tmp = mkdtempSync(join(tmpdir(), 'salient-lazy-games-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The games a `salient ...` child loaded, in load order. */
function gamesLoaded(name: string, ...args: string[]): string[] {
  const log = join(tmp, `${name}.log`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', join(here, 'fixtures/log-games.mjs'), 'apps/cli/src/main.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, SALIENT_TEST_GAMES_LOG: log, SALIENT_CLICKHOUSE_PATH: join(tmp, 'clickhouse'), SALIENT_SPOOL_DIR: join(tmp, 'spool') },
  });
  expect(r.status, r.stderr).toBe(0);
  let text = '';
  try {
    text = readFileSync(log, 'utf8');
  } catch {
    // no game loaded
  }
  return text.split('\n').filter(Boolean);
}

describe('games load on first use', () => {
  it('a Dice Race match and its replay load no game package, a Blitz match Blitz only, and `games` every game', () => {
    const replay = join(tmp, 'dice.json');
    expect(gamesLoaded('dice', 'play', '--game', 'dice-race', '--scenario', 'standard', '--seed', '1', '--quiet', '--replay', replay)).toEqual([]);
    expect(gamesLoaded('replay', 'replay', replay)).toEqual([]);
    expect(gamesLoaded('blitz', 'play', '--game', 'blitz', '--scenario', 'A', '--seed', '1', '--quiet')).toEqual(['blitz']);
    expect(gamesLoaded('games', 'games').sort()).toEqual(['blitz', 'empires-alliances']);
  }, 120_000);
});
