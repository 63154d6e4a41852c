import { RngStream, type AnyGame, type Json } from '@salient/engine';
import { diceRace, diceRacePack, type DiceRaceState } from '@salient/engine/testing';
import type { BotContext, DecisionRequest } from '@salient/runner';

export function ctxFor(seed: number, over: Partial<BotContext> = {}): BotContext {
  return { game: diceRace, seat: 'A', powers: ['red'], rng: new RngStream(seed, 'bot:A'), params: {}, ...over };
}

/** A Dice Race state with red to decide, from a few overrides. */
export function diceState(over: Partial<Pick<DiceRaceState, 'pot' | 'scores' | 'active' | 'turn'>> = {}): DiceRaceState {
  return { ...diceRace.setup('standard', diceRacePack, {}), ...over };
}

/** The decision request the runner would build for `state`. */
export function requestFor(state: DiceRaceState | Json, game: AnyGame = diceRace): DecisionRequest {
  const p = game.pending(state);
  if (p.kind !== 'decision') throw new Error(`expected a decision, got ${p.kind}`);
  const options: readonly unknown[] = p.options;
  return {
    power: p.power,
    prompt: p.prompt,
    options,
    observation: game.observe(state, p.power),
    labels: options.map((o) => game.encode(o)),
    position: game.position(state),
  };
}

export const never = new AbortController().signal;
