import { describe, expect, it } from 'vitest';
import { SalientError } from '@salient/engine';
import { botCatalog, botNames, createBot, parseBotSpec } from '../src/index.ts';
import { ctxFor, diceState, never, requestFor } from './helpers.ts';

function thrown(f: () => unknown): SalientError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SalientError);
    return e as SalientError;
  }
  throw new Error('expected an error');
}

describe('bot registry', () => {
  it('lists its bots with versions and summaries', () => {
    expect(botNames()).toEqual(['random', 'greedy', 'mcts', 'plan']);
    const catalog = botCatalog();
    expect(catalog.map((b) => b.name)).toEqual(botNames());
    for (const b of catalog) {
      expect(b.version).toMatch(/^\d+$/);
      expect(b.summary.length).toBeGreaterThan(10);
    }
  });

  it('builds the bot a spec names, with its registry name and version', () => {
    for (const name of botNames()) {
      const bot = createBot(name)(ctxFor(1));
      expect(`${bot.name}@${bot.version}`).toBe(`${name}@${botCatalog().find((b) => b.name === name)?.version}`);
    }
  });

  it('refuses an unknown bot, listing the valid names', () => {
    const e = thrown(() => createBot('genius:depth=3'));
    expect(e.code).toBe('UNKNOWN_BOT');
    expect(e.message).toMatch(/'genius'/);
    expect(e.message).toContain(botNames().join(', '));
  });

  it('refuses an unknown parameter when the spec is read, listing the valid ones', () => {
    const e = thrown(() => createBot('greedy:depth=2'));
    expect(e.code).toBe('BAD_ARGUMENT');
    expect(e.message).toMatch(/no parameter 'depth'.*chance/);
    expect(thrown(() => createBot('greedy:chance=2')).message).toMatch(/0 or 1/);
  });

  it('binds spec parameters to the factory', () => {
    const req = requestFor(diceState({ pot: 2 }));
    const pick = (spec: string) => req.labels[createBot(spec)(ctxFor(1)).decide(req, never) as number];
    expect(pick('greedy')).toBe('roll');
    expect(pick('greedy:chance=0')).toBe('bank');
  });

  it('parses specs like the runner does', () => {
    expect(parseBotSpec('greedy:chance=0,x=y')).toEqual({ name: 'greedy', params: { chance: '0', x: 'y' } });
  });
});
