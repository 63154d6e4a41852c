/**
 * How a bot describes itself to the registry: name, version, a one-line summary, the parameters it
 * takes, how to check them, and how to build one for a match. Parameters are checked when the spec
 * is read, so a typo fails before any match is scheduled, not in the middle of a tournament.
 */
import { SalientError, type AnyGame, type BotModel, type Json } from '@salient/engine';
import type { Bot, BotContext, BotFactory } from '@salient/runner';

export type BotParams = Readonly<Record<string, string>>;

export interface BotDefinition<O> {
  name: string;
  /** Bumped whenever the bot plays differently, so results of different versions are never mixed. */
  version: string;
  summary: string;
  /** Parameter name -> what it does. Any other parameter is refused. */
  params: Readonly<Record<string, string>>;
  /** Turn checked parameters into options; throws `SalientError('BAD_ARGUMENT')` for a bad value. */
  parse(params: BotParams): O;
  create(ctx: BotContext, options: O): Bot;
}

/** A bot factory bound to `params`, checked now. */
export function bindBot<O>(def: BotDefinition<O>, params: BotParams): BotFactory {
  const unknown = Object.keys(params).filter((k) => !Object.hasOwn(def.params, k));
  if (unknown.length) {
    const accepted = Object.entries(def.params).map(([k, v]) => `${k} (${v})`);
    throw new SalientError(
      'BAD_ARGUMENT',
      `Bot '${def.name}' has no parameter ${unknown.map((k) => `'${k}'`).join(', ')}. ` +
        (accepted.length ? `Its parameters: ${accepted.join('; ')}.` : 'It takes no parameters.'),
    );
  }
  const options = def.parse(params);
  return (ctx) => def.create(ctx, options);
}

/** A factory that reads its parameters from the match's seat spec (`ctx.params`), for use without the registry. */
export function factoryFromContext<O>(def: BotDefinition<O>): BotFactory {
  return (ctx) => bindBot(def, ctx.params)(ctx);
}

/** A number parameter of bot `bot` within [min, max], or `fallback` when absent; refuses anything else. */
export function numParam(bot: string, params: BotParams, key: string, fallback: number, min: number, max: number): number {
  const v = params[key];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
    throw new SalientError('BAD_ARGUMENT', `Bot '${bot}': parameter ${key}=${v} must be a number from ${min} to ${max}.`);
  }
  return n;
}

/** A whole-number parameter within [min, max] (see {@link numParam}). */
export function intParam(bot: string, params: BotParams, key: string, fallback: number, min: number, max: number): number {
  const n = numParam(bot, params, key, fallback, min, max);
  if (!Number.isInteger(n)) throw new SalientError('BAD_ARGUMENT', `Bot '${bot}': parameter ${key}=${params[key]} must be a whole number.`);
  return n;
}

/** A 0/1 switch parameter. */
export function flagParam(bot: string, params: BotParams, key: string, fallback: boolean): boolean {
  const v = params[key];
  if (v === undefined) return fallback;
  if (v === '0' || v === '1') return v === '1';
  throw new SalientError('BAD_ARGUMENT', `Bot '${bot}': parameter ${key}=${v} must be 0 or 1.`);
}

/** The game's model for a bot that needs one (`needs`: what it uses it for), or a clear refusal. */
export function requireModel(bot: string, game: AnyGame, needs: string): BotModel<Json, unknown> {
  const model = game.model as BotModel<Json, unknown> | undefined;
  if (!model) {
    throw new SalientError(
      'BAD_ARGUMENT',
      `Bot '${bot}' needs the game's ${needs}, but game '${game.id}' gives none (Game.model). Use a bot that needs no model, such as 'random'.`,
    );
  }
  return model;
}
