import type { Bot, BotContext } from '@salient/runner';
import { factoryFromContext, type BotDefinition } from './bot-definition.ts';

/** Picks uniformly among the legal options, from its own seeded stream: the baseline every bot must beat. */
export const randomBotDefinition: BotDefinition<null> = {
  name: 'random',
  version: '1',
  summary: 'Uniformly random legal option; the baseline.',
  params: {},
  parse: () => null,
  create: (ctx: BotContext): Bot => ({
    name: 'random',
    version: '1',
    decide: (request) => ctx.rng.int(0, request.options.length - 1),
  }),
};

/** The random bot as a plain factory. */
export const randomBot = factoryFromContext(randomBotDefinition);
