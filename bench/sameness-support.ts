/** What the sameness scripts (bench/ea-sameness.ts, bench/blitz-sameness.ts) share. */
import { createBot } from '@salient/bots';
import type { BotFactory } from '@salient/runner';

/** The random bot, also hashing the labels of every request it is asked (the option lists as offered). */
export function labelled(into: string[]): BotFactory {
  const random = createBot('random');
  return (ctx) => {
    const bot = random(ctx);
    return { ...bot, decide: (request, signal) => (into.push(request.prompt, request.labels.join(',')), bot.decide(request, signal)) };
  };
}

/** A row without its timing fields (the clock's, not the game's). */
export function strip<T extends object>(row: T, drop: readonly string[]): unknown {
  return Object.fromEntries(Object.entries(row).filter(([k]) => !drop.includes(k)));
}
