import { afterEach, describe, expect, it, vi } from 'vitest';
import { RngStream } from '@salient/engine';
import type { DecisionRequest } from '@salient/runner';
import { randomBot } from '../src/index.ts';
import { ctxFor, never } from './helpers.ts';

const fiveWay: DecisionRequest = {
  power: 'red',
  prompt: 'pick',
  options: ['a', 'b', 'c', 'd', 'e'],
  labels: ['a', 'b', 'c', 'd', 'e'],
  observation: null,
  position: { turn: 1, impulse: 1, phase: 'p', step: 's' },
};

function draws(stream: RngStream, n: number): number[] {
  const bot = randomBot(ctxFor(0, { rng: stream }));
  return Array.from({ length: n }, () => bot.decide(fiveWay, never) as number);
}

describe('random bot', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is deterministic per stream and differs between streams', () => {
    const a = draws(new RngStream(9, 'bot:A'), 50);
    expect(draws(new RngStream(9, 'bot:A'), 50)).toEqual(a);
    expect(draws(new RngStream(9, 'bot:B'), 50)).not.toEqual(a);
    expect(draws(new RngStream(10, 'bot:A'), 50)).not.toEqual(a);
  });

  it('covers every option about equally and never uses Math.random', () => {
    const spy = vi.spyOn(Math, 'random');
    const counts = [0, 0, 0, 0, 0];
    for (const i of draws(new RngStream(1, 'bot:A'), 5000)) counts[i] = (counts[i] ?? 0) + 1;
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5000);
    for (const c of counts) expect(c).toBeGreaterThan(850); // expected 1000; 850 is > 5 sd below
    expect(spy).not.toHaveBeenCalled();
  });

  it('refuses parameters it does not take', () => {
    expect(() => randomBot(ctxFor(1, { params: { depth: '2' } }))).toThrow(/no parameter 'depth'.*takes no parameters/);
  });
});
