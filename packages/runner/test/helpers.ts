/** Small bots and a game wrapper for runner tests; the real bots live in @salient/bots, which the runner must not import. */
import { diceRace, diceRacePack } from '@salient/engine/testing';
import type { Bot, BotContext, BotFactory, DecisionRequest, MatchSpec } from '../src/index.ts';

/** Uniform over the options, drawing from the bot's own stream. */
export const randomBot: BotFactory = (ctx: BotContext): Bot => ({
  name: 'test-random',
  version: '1',
  decide: (req: DecisionRequest) => ctx.rng.int(0, req.options.length - 1),
});

/** A bot built from a decide function. */
export function botOf(decide: Bot['decide'], name = 'test-bot'): BotFactory {
  return () => ({ name, version: '1', decide });
}

/** A Dice Race match between two random bots. */
export function diceSpec(seed: number, over: Partial<MatchSpec> = {}): MatchSpec {
  return { game: diceRace, pack: diceRacePack, scenario: 'standard', seed, seats: { A: randomBot, B: randomBot }, ...over };
}
