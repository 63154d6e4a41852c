/**
 * Greedy: one ply of lookahead on the game's own evaluation (`Game.model`). It samples one full state
 * consistent with its observation (once per decision; for open-information games that is the state
 * itself), applies each option, and scores the result; when the option leads straight into a chance
 * node it takes the probability-weighted mean over the outcomes, so "roll" is judged by what the die
 * is likely to give rather than by the moment before the roll.
 */
import type { AnyGame, BotModel, ChanceOutcome, Json } from '@salient/engine';
import type { Bot, BotContext } from '@salient/runner';
import { factoryFromContext, flagParam, requireModel, type BotDefinition } from './bot-definition.ts';

export interface GreedyOptions {
  /** Look through one chance node after the option (default true; `chance=0` turns it off). */
  chance: boolean;
}

export const greedyBotDefinition: BotDefinition<GreedyOptions> = {
  name: 'greedy',
  // 2: the games' evaluations were rebuilt (issue 31), so the same seed plays differently.
  version: '2',
  summary: "One-ply lookahead on the game's evaluation, averaging over the next chance node; ties broken at random.",
  params: { chance: '1 (default) averages over the chance node after an option, 0 ignores it' },
  parse: (params) => ({ chance: flagParam('greedy', params, 'chance', true) }),
  create: createGreedy,
};

/** The greedy bot as a plain factory. */
export const greedyBot = factoryFromContext(greedyBotDefinition);

function createGreedy(ctx: BotContext, options: GreedyOptions): Bot {
  const { game } = ctx;
  const model = requireModel('greedy', game, 'evaluation model');
  return {
    name: greedyBotDefinition.name,
    version: greedyBotDefinition.version,
    decide(request) {
      const state = model.sample(request.observation, ctx.rng.unit());
      let best = -Infinity;
      let ties: number[] = [];
      request.options.forEach((option, i) => {
        const v = valueOf(game, model, state, option, request.power, options.chance);
        if (v > best) {
          best = v;
          ties = [i];
        } else if (v === best) {
          ties.push(i);
        }
      });
      // Ties are common (sub-decisions that do not move the evaluation); a fixed pick would make the bot predictable.
      return ties.length === 1 ? (ties[0] as number) : ctx.rng.pick(ties);
    },
  };
}

function valueOf(game: AnyGame, model: BotModel<Json, unknown>, state: Json, option: unknown, power: string, chance: boolean): number {
  const next = game.apply(state, option).state as Json;
  const outcomes = chance ? chanceOutcomes(game, model, next) : undefined;
  const v = outcomes ? outcomes.reduce((sum, o) => sum + o.p * model.evaluate(game.apply(next, o.outcome).state as Json, power), 0) : model.evaluate(next, power);
  // A NaN would never compare as best or tied; count it as the worst value instead.
  return Number.isNaN(v) ? -Infinity : v;
}

/** The outcomes of the chance node `state` stands at, if it stands at one: from the model when it says (no option list built), else from `pending`. */
function chanceOutcomes(game: AnyGame, model: BotModel<Json, unknown>, state: Json): readonly ChanceOutcome<unknown>[] | undefined {
  if (model.chanceAt) return model.chanceAt(state);
  const pending = game.pending(state);
  return pending.kind === 'chance' ? pending.outcomes : undefined;
}
