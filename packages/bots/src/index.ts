/**
 * `@salient/bots`: the built-in bots and the registry that builds them from specs such as
 * `greedy:chance=0`. Bots see only their observation and the legal options, and draw only from the
 * seeded stream the runner gives them.
 *
 * @packageDocumentation
 */
export { botNames, botCatalog, createBot, type BotCatalogEntry } from './registry.ts';
export { randomBot, randomBotDefinition } from './random-bot.ts';
export { mctsBot, mctsBotDefinition, search as mctsSearch, type MctsOptions, type SearchReport } from './mcts-bot.ts';
export {
  planBot,
  planBotDefinition,
  planSearch,
  planStats,
  type PlanOptions,
  type PlanStats,
  type PlanBot,
  type PlanReport,
  type CarriedPlan,
  type ReplyPolicy,
  type ReactPolicy,
} from './plan-bot.ts';
export { greedyBot, greedyBotDefinition, type GreedyOptions } from './greedy-bot.ts';
export {
  externalBotFactory,
  splitCommandLine,
  PROTOCOL_VERSION,
  watchBotProcesses,
  killBotGroup,
  botEnvironment,
  parseBotsFile,
  loadBotsFile,
  loadConfiguredBots,
  registeredBot,
  refusedBot,
  refusedPack,
  NO_EXTERNAL_BOTS,
  BOTS_FILE_ENV,
  type ExternalBot,
  type ExternalBots,
  type RegisteredBot,
} from './external/index.ts';
export { bindBot, factoryFromContext, type BotDefinition, type BotParams } from './bot-definition.ts';
export { parseBotSpec, type BotSpec } from '@salient/runner';
