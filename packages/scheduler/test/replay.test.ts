/**
 * replayTarget: what only this installation can check in a replay's header (the game, the scenario's
 * seats, each seat's bot spec), on replays of matches played with the real bot registry.
 */
import { describe, expect, it } from 'vitest';
import { parseReplay, runReplay, SalientError, type Replay } from '@salient/engine';
import { createBot } from '@salient/bots';
import { runMatch } from '@salient/runner';
import { diceRace, diceRacePack } from '@salient/engine/testing';
import { replayTarget } from '../src/index.ts';

async function recorded(): Promise<Replay> {
  const seatSpecs = { A: 'random', B: 'greedy:chance=0' };
  const r = await runMatch({
    game: diceRace,
    pack: diceRacePack,
    scenario: 'standard',
    seed: 5,
    seats: { A: createBot(seatSpecs.A), B: createBot(seatSpecs.B) },
    seatSpecs,
  });
  return parseReplay(JSON.parse(JSON.stringify(r.replay)));
}

async function refusal(replay: Replay): Promise<SalientError> {
  try {
    await replayTarget(replay);
  } catch (e) {
    if (e instanceof SalientError) return e;
    throw e;
  }
  throw new Error('expected the replay to be refused');
}

describe('replayTarget', () => {
  it('gives the game and pack of a replay the runner wrote, which then re-runs', async () => {
    const replay = await recorded();
    const { game, pack } = await replayTarget(replay);
    expect(game.id).toBe('dice-race');
    expect(runReplay(game, pack, replay).matches).toBe(true);
  });

  it('refuses a bot spec no parser understands, by its seat', async () => {
    const replay = await recorded();
    const e = await refusal({ ...replay, seats: { A: 'alphazero', B: 'greedy:chance' } });
    expect(e.code).toBe('BAD_REPLAY');
    expect(e.issues).toEqual([
      { path: '$.seats.A', message: expect.stringMatching(/^Unknown bot 'alphazero'\. Valid bots: random, greedy, mcts/) },
      { path: '$.seats.B', message: expect.stringMatching(/parameter 'chance' is not key=value/) },
    ]);
  });

  it('accepts external bots as recorded, without starting them', async () => {
    const replay = await recorded();
    await expect(replayTarget({ ...replay, seats: { A: 'cmd:/nonexistent/bot --fast', B: 'http://127.0.0.1:9/bot' } })).resolves.toMatchObject({ game: { id: 'dice-race' } });
  });

  it('refuses seats the scenario does not have', async () => {
    const replay = await recorded();
    const e = await refusal({ ...replay, seats: { A: 'random', Soviets: 'random' } });
    expect(e.issues).toEqual([{ path: '$.seats', message: expect.stringMatching(/^Unknown seat 'Soviets'/) }]);
  });

  it('refuses another rules version and an unknown game, by path', async () => {
    const replay = await recorded();
    expect((await refusal({ ...replay, rulesVersion: '2' })).message).toMatch(/^\$\.rulesVersion: the replay was recorded under dice-race rules 2, and this code has rules 1/);
    await expect(replayTarget({ ...replay, game: 'chess' })).rejects.toMatchObject({ code: 'UNKNOWN_GAME', message: expect.stringMatching(/^\$\.game: Unknown game 'chess'/) });
  });
});
