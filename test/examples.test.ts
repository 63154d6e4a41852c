/**
 * The recorded games in examples/ still replay to their recorded final state: a golden test that
 * fails when the rules or the bundled pack change what a game does (re-record them when intended,
 * see examples/README.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseReplay, runReplay } from '@salient/engine';
import { bundledPack, findGame } from '../apps/cli/src/registry.ts';

const dir = join(import.meta.dirname, '..', 'examples');
const files = readdirSync(dir).filter((f) => f.endsWith('.replay.json'));

describe('examples/', () => {
  it('holds recorded replays', () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
  });

  it.each(files)('%s replays to its recorded final hash', (file) => {
    const replay = parseReplay(JSON.parse(readFileSync(join(dir, file), 'utf8')), file);
    const game = findGame(replay.game);
    const out = runReplay(game, bundledPack(game, replay.pack.id), replay);
    expect(out.hash).toBe(replay.finalHash);
    expect(out.steps).toBe(replay.log.length);
  });
});
