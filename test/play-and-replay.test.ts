/**
 * End to end across engine, runner, bots and every registered game: bots play whole matches, and the
 * replay as the CLI writes it parses back and re-runs to the recorded final state.
 */
import { describe, expect, it } from 'vitest';
import { parseReplay, runReplay } from '@salient/engine';
import { runMatch } from '@salient/runner';
import { createBot } from '@salient/bots';
import { bundledPack, bundledPackIds, listGames } from '../apps/cli/src/registry.ts';
import { formatReplay } from '../apps/cli/src/replay-file.ts';

const SEEDS = [1, 2, 3];

for (const game of listGames(true)) {
  const pack = bundledPack(game, bundledPackIds(game)[0] as string);
  for (const scenario of game.scenarios(pack)) {
    describe(`${game.id} scenario ${scenario.id}`, () => {
      it.each(SEEDS)('greedy vs random, seed %i: plays to the end and replays exactly', async (seed) => {
        const specs = Object.fromEntries(scenario.sides.map((s, i) => [s.id, i === 0 ? 'greedy' : 'random']));
        const seats = Object.fromEntries(Object.entries(specs).map(([seat, spec]) => [seat, createBot(spec)]));
        const r = await runMatch({ game, pack, scenario: scenario.id, seed, seats, seatSpecs: specs });
        expect(r.kind, 'detail' in r ? r.detail : '').toBe('completed');
        if (r.kind !== 'completed') return;
        expect(Object.keys(r.result.sides).sort()).toEqual(scenario.sides.map((s) => s.id).sort());
        expect(r.result.reason.length).toBeGreaterThan(0);

        const replay = parseReplay(JSON.parse(formatReplay(r.replay)));
        expect(replay).toEqual(r.replay);
        const out = runReplay(game, pack, replay);
        expect(out.hash).toBe(r.finalHash);
        expect(out.matches).toBe(true);
      });
    });
  }
}
