import { describe, expect, it, vi } from 'vitest';
import { RngStream, type Game } from '@salient/engine';
import { diceRace, diceRacePack, type DiceRaceChoice, type DiceRaceState } from '@salient/engine/testing';
import { runMatch } from '@salient/runner';
import { botNames, createBot, mctsBot, mctsBotDefinition, mctsSearch, type MctsOptions } from '../src/index.ts';
import { ctxFor, diceState, never, requestFor } from './helpers.ts';

const OPTS: MctsOptions = { iterations: 300, c: 1.4, rollout: 8, scale: 10, ms: 0 };

function choose(state: DiceRaceState, seed: number, params: Record<string, string> = {}, game = diceRace): string {
  const bot = mctsBot(ctxFor(seed, { game, params }));
  const req = requestFor(state, game);
  const answer = bot.decide(req, never) as number | { index: number };
  return req.labels[typeof answer === 'number' ? answer : answer.index] as string;
}

/** Side-swapped pairs on shared seeds: wins of `spec` against `opponent` over 2 x `pairs` games. */
async function record(spec: string, opponent: string, pairs: number): Promise<{ wins: number; games: number }> {
  let wins = 0;
  let games = 0;
  for (let seed = 1; seed <= pairs; seed++) {
    for (const side of ['A', 'B'] as const) {
      const seats = side === 'A' ? { A: createBot(spec), B: createBot(opponent) } : { A: createBot(opponent), B: createBot(spec) };
      const r = await runMatch({ game: diceRace, pack: diceRacePack, scenario: 'standard', seed, seats });
      if (r.kind !== 'completed') throw new Error(`match ended ${r.kind}`);
      games++;
      if (r.result.sides[side] === 'win') wins++;
    }
  }
  return { wins, games };
}

describe('mcts bot', () => {
  it('is registered with its parameters, and refuses bad ones', () => {
    expect(botNames()).toContain('mcts');
    expect(Object.keys(mctsBotDefinition.params).sort()).toEqual(['c', 'iterations', 'ms', 'rollout', 'scale']);
    expect(() => createBot('mcts:iterations=0')).toThrow(/iterations=0 must be a number from 1/);
    expect(() => createBot('mcts:iterations=2.5')).toThrow(/iterations=2.5 must be a whole number/);
    expect(() => createBot('mcts:c=abc')).toThrow(/c=abc must be a number/);
    expect(() => createBot('mcts:depth=3')).toThrow(/no parameter 'depth'/);
    const { model: _drop, ...noModel } = diceRace;
    expect(() => mctsBot(ctxFor(1, { game: noModel }))).toThrow(/game 'dice-race' gives none/);
  });

  it('banks when banking wins at once, and rolls on a small pot', () => {
    const win = diceState({ scores: { red: 15, blue: 18 }, pot: 6 });
    for (let seed = 1; seed <= 10; seed++) expect(choose(win, seed)).toBe('bank');
    // Rolling on a pot of 2 is worth about 5/6 of 6 more; the search must find it across the chance node.
    expect(choose(diceState({ pot: 2 }), 1)).toBe('roll');
  });

  it('spends exactly its iteration budget, and the same seed gives the same search', () => {
    const state = diceState({ pot: 7 });
    const req = requestFor(state);
    const model = diceRace.model!;
    const a = mctsSearch(diceRace, model, new RngStream(5, 'bot:A'), req, OPTS);
    const b = mctsSearch(diceRace, model, new RngStream(5, 'bot:A'), req, OPTS);
    expect(a.iterations).toBe(300);
    expect(a.stats.reduce((t, s) => t + s.visits, 0)).toBe(300);
    expect(b).toEqual(a);
    const c = mctsSearch(diceRace, model, new RngStream(6, 'bot:A'), req, OPTS);
    expect(c.stats.map((s) => s.visits)).not.toEqual(a.stats.map((s) => s.visits));
  });

  it('plays the same match twice from the same seed, bit for bit', async () => {
    const play = () => runMatch({ game: diceRace, pack: diceRacePack, scenario: 'standard', seed: 11, seats: { A: createBot('mcts:iterations=60'), B: createBot('mcts:iterations=60,c=0.7') } });
    const [x, y] = [await play(), await play()];
    expect(x.kind).toBe('completed');
    expect(y.finalHash).toBe(x.finalHash);
    expect(y.replay.log).toEqual(x.replay.log);
    expect(x.replay.log.length).toBeGreaterThan(5);
  });

  it('samples a state from its observation every iteration (information sets), never the real state', () => {
    const model = diceRace.model!;
    const sample = vi.fn((obs: DiceRaceState) => obs);
    const game: Game<DiceRaceState, DiceRaceChoice, DiceRaceState> = { ...diceRace, observe: (s) => ({ ...s, pot: 3 }), model: { ...model, sample } };
    const req = requestFor(diceState({ pot: 9 }), game);
    mctsSearch(game, game.model!, new RngStream(1, 'bot:A'), req, { ...OPTS, iterations: 25 });
    // One draw per iteration, plus one for the baseline evaluation.
    expect(sample).toHaveBeenCalledTimes(26);
    expect(sample.mock.calls.every(([obs]) => obs === req.observation && obs.pot === 3)).toBe(true);
  });

  it('refuses a model whose samples do not pose the decision asked', () => {
    const model = diceRace.model!;
    const game: Game<DiceRaceState, DiceRaceChoice, DiceRaceState> = { ...diceRace, model: { ...model, sample: (obs) => ({ ...obs, winner: 'blue' }) } };
    const req = requestFor(diceState({ pot: 4 }), game);
    expect(() => mctsSearch(game, game.model!, new RngStream(1, 'bot:A'), req, OPTS)).toThrow(/does not pose the decision asked/);
  });

  it('stops at an abort signal or its wall-clock cap, with the best choice so far', () => {
    const req = requestFor(diceState({ pot: 4 }));
    const stop = new AbortController();
    stop.abort();
    const aborted = mctsSearch(diceRace, diceRace.model!, new RngStream(1, 'bot:A'), req, { ...OPTS, iterations: 1_000_000 }, stop.signal);
    expect(aborted.iterations).toBe(0);
    const capped = mctsSearch(diceRace, diceRace.model!, new RngStream(1, 'bot:A'), req, { ...OPTS, iterations: 1_000_000, ms: 30 });
    expect(capped.iterations).toBeGreaterThan(0);
    expect(capped.iterations).toBeLessThan(1_000_000);
  });

  it('beats the random bot and the greedy bot in Dice Race over side-swapped pairs', async () => {
    const vsRandom = await record('mcts:iterations=200', 'random', 50);
    expect(vsRandom.games).toBe(100);
    expect(vsRandom.wins / vsRandom.games).toBeGreaterThan(0.6);
    const vsGreedy = await record('mcts:iterations=200', 'greedy', 50);
    expect(vsGreedy.wins / vsGreedy.games).toBeGreaterThan(0.5);
  });
});
