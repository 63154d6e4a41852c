/**
 * The bot registry: a small table from name to definition. `createBot('greedy:chance=0')` gives a
 * factory bound to its parameters; unknown names and parameters are refused with the valid ones listed.
 */
import { unknownName } from '@salient/engine';
import { parseBotSpec, type BotFactory } from '@salient/runner';
import { bindBot, type BotDefinition } from './bot-definition.ts';
import { greedyBotDefinition } from './greedy-bot.ts';
import { randomBotDefinition } from './random-bot.ts';
import { mctsBotDefinition } from './mcts-bot.ts';
import { planBotDefinition } from './plan-bot.ts';
import { crashBotDefinition } from './crash-bot.ts';
import { externalBotFactory, type ExternalBots } from './external/index.ts';

// Each definition has its own options type; `bindBot` keeps parse and create paired, so `unknown` is safe here.
const BOTS: readonly BotDefinition<unknown>[] = [randomBotDefinition, greedyBotDefinition, mctsBotDefinition, planBotDefinition];
// Test bots: created by name, never listed (so they stay out of `salient games` and help texts).
const HIDDEN: readonly BotDefinition<unknown>[] = [crashBotDefinition as BotDefinition<unknown>];

/** One line per bot, for `salient games` and help texts. */
export interface BotCatalogEntry {
  name: string;
  version: string;
  summary: string;
  /** Parameter name -> what it does. */
  params: Readonly<Record<string, string>>;
}

/** Registered bot names, in catalog order. */
export function botNames(): string[] {
  return BOTS.map((b) => b.name);
}

export function botCatalog(): BotCatalogEntry[] {
  return BOTS.map(({ name, version, summary, params }) => ({ name, version, summary, params }));
}

/**
 * A factory for the bot `spec` names (`name` or `name:key=value,...`), bound to its parameters, or
 * for an external bot (`cmd:<command line>`, `http://host:port/path`, or `ext:<name>` registered in
 * `external`, the operator's bots file; see docs/bot-protocol.md). Throws `UNKNOWN_BOT` listing the
 * registered names, or `BAD_ARGUMENT` for a bad parameter.
 */
export function createBot(spec: string, external?: ExternalBots): BotFactory {
  const ext = externalBotFactory(spec, external);
  if (ext) return ext;
  const { name, params } = parseBotSpec(spec);
  const def = BOTS.find((b) => b.name === name) ?? HIDDEN.find((b) => b.name === name);
  if (!def) throw unknownName('UNKNOWN_BOT', 'bot', name, botNames());
  return bindBot(def, params);
}
