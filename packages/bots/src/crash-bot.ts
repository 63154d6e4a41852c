/**
 * Crash: a test bot, hidden from listings but created by name (`crash:after=3,sleep=50`). It plays
 * like `random` and throws on its `after`-th decision (default 1; 0 never throws), so tests can make
 * a match end in a forfeit at a known point; `sleep` (ms, default 0) waits before every decision so
 * a match lasts long enough to be interrupted (the wait ends early when the match is cancelled).
 */
import { SalientError } from '@salient/engine';
import type { Bot, BotContext } from '@salient/runner';
import type { BotDefinition, BotParams } from './bot-definition.ts';

export interface CrashOptions {
  after: number;
  sleepMs: number;
}

function intParam(params: BotParams, key: string, fallback: number): number {
  const v = params[key];
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v)) throw new SalientError('BAD_ARGUMENT', `Bot 'crash': parameter ${key}=${v} must be a whole number >= 0.`);
  return Number(v);
}

export const crashBotDefinition: BotDefinition<CrashOptions> = {
  name: 'crash',
  version: '1',
  summary: 'Test bot: random moves, throws on its after-th decision; hidden from listings.',
  params: { after: 'throw on this decision (1-based, default 1; 0 never)', sleep: 'ms to wait before each decision (default 0)' },
  parse: (params) => ({ after: intParam(params, 'after', 1), sleepMs: intParam(params, 'sleep', 0) }),
  create: (ctx: BotContext, o: CrashOptions): Bot => {
    let n = 0;
    const pick = (count: number) => ctx.rng.int(0, count - 1);
    return {
      name: 'crash',
      version: '1',
      decide: (request, signal) => {
        n += 1;
        if (o.after > 0 && n === o.after) throw new Error(`crash bot: deliberate crash on decision ${n}`);
        if (o.sleepMs === 0) return pick(request.options.length);
        return new Promise((resolve) => {
          // The signal outlives the decision: its listener goes when the decision is made.
          const onAbort = () => (clearTimeout(t), resolve(0));
          const t = setTimeout(() => (signal.removeEventListener('abort', onAbort), resolve(pick(request.options.length))), o.sleepMs);
          signal.addEventListener('abort', onAbort, { once: true });
        });
      },
    };
  },
};
