import { describe, expect, it, vi } from 'vitest';
import type { Game } from '@salient/engine';
import { diceRace, diceRacePack, type DiceRaceChoice, type DiceRaceState } from '@salient/engine/testing';
import { runMatch } from '@salient/runner';
import { createBot, greedyBot } from '../src/index.ts';
import { ctxFor, diceState, never, requestFor } from './helpers.ts';

function choose(state: DiceRaceState, seed: number, params: Record<string, string> = {}, game = diceRace): string {
  const bot = greedyBot(ctxFor(seed, { game, params }));
  const req = requestFor(state, game);
  return req.labels[bot.decide(req, never) as number] as string;
}

describe('greedy bot', () => {
  it('banks when banking wins at once', () => {
    const state = diceState({ scores: { red: 15, blue: 18 }, pot: 6 });
    for (let seed = 1; seed <= 20; seed++) expect(choose(state, seed)).toBe('bank');
  });

  it('rolls on a small pot, judging the roll by the die it expects', () => {
    const state = diceState({ pot: 2 });
    // Expected value of rolling: 5/6 of (pot + 4) at the evaluation's 0.8 weight, about 4, beats banking 2.
    expect(choose(state, 1)).toBe('roll');
    // Without the chance layer the roll looks like it gains nothing, so it banks.
    expect(choose(state, 1, { chance: '0' })).toBe('bank');
  });

  it('looks only at its observation, sampling once per decision', () => {
    const sample = vi.fn((obs: DiceRaceState) => obs);
    const model = diceRace.model;
    if (!model) throw new Error('dice race has a model');
    const game: Game<DiceRaceState, DiceRaceChoice, DiceRaceState> = {
      ...diceRace,
      observe: (s) => ({ ...s, pot: 3 }),
      model: { ...model, sample },
    };
    const state = diceState({ pot: 9 });
    const req = requestFor(state, game);
    greedyBot(ctxFor(1, { game })).decide(req, never);
    expect(sample).toHaveBeenCalledTimes(1);
    expect(sample.mock.calls[0]?.[0]).toBe(req.observation);
    expect(sample.mock.calls[0]?.[0].pot).toBe(3);
  });

  it('breaks ties at random from its own stream', () => {
    const model = diceRace.model;
    if (!model) throw new Error('dice race has a model');
    const flat: Game<DiceRaceState, DiceRaceChoice, DiceRaceState> = { ...diceRace, model: { ...model, evaluate: () => 0 } };
    const state = diceState({ pot: 5 });
    const picks = Array.from({ length: 40 }, (_, seed) => choose(state, seed, {}, flat));
    expect(new Set(picks)).toEqual(new Set(['roll', 'bank']));
    expect(Array.from({ length: 40 }, (_, seed) => choose(state, seed, {}, flat))).toEqual(picks);
  });

  it('refuses a game without an evaluation model, and bad parameters', () => {
    const { model: _drop, ...noModel } = diceRace;
    expect(() => greedyBot(ctxFor(1, { game: noModel }))).toThrow(/game 'dice-race' gives none/);
    expect(() => greedyBot(ctxFor(1, { params: { chance: 'maybe' } }))).toThrow(/chance=maybe must be 0 or 1/);
  });

  it('beats the random bot in Dice Race', async () => {
    const greedy = createBot('greedy');
    const random = createBot('random');
    let wins = 0;
    let games = 0;
    for (let seed = 1; seed <= 100; seed++) {
      // Side-swapped pairs on shared seeds, so moving first is no advantage to either bot.
      for (const greedySide of ['A', 'B'] as const) {
        const seats = greedySide === 'A' ? { A: greedy, B: random } : { A: random, B: greedy };
        const r = await runMatch({ game: diceRace, pack: diceRacePack, scenario: 'standard', seed, seats });
        if (r.kind !== 'completed') throw new Error(`match ended ${r.kind}`);
        games++;
        if (r.result.sides[greedySide] === 'win') wins++;
      }
    }
    expect(games).toBe(200);
    expect(wins / games).toBeGreaterThan(0.55);
  });
});
