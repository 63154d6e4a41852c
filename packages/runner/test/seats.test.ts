import { describe, expect, it } from 'vitest';
import { SalientError } from '@salient/engine';
import { runMatch, parseBotSpec } from '../src/index.ts';
import { diceSpec, randomBot } from './helpers.ts';

async function rejection(p: Promise<unknown>): Promise<SalientError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(SalientError);
  return e as SalientError;
}

describe('seats', () => {
  it('refuses an unknown seat, listing the sides and powers', async () => {
    const e = await rejection(runMatch(diceSpec(1, { seats: { A: randomBot, green: randomBot } })));
    expect(e.code).toBe('UNKNOWN_SEAT');
    expect(e.message).toMatch(/'green'/);
    expect(e.message).toMatch(/A, B, red, blue/);
  });

  it('refuses an uncovered power, naming it', async () => {
    const e = await rejection(runMatch(diceSpec(1, { seats: { A: randomBot } })));
    expect(e.code).toBe('BAD_SEATS');
    expect(e.message).toMatch(/not covered by any seat: blue \(side B\)/);
    expect(e.message).toMatch(/A, B/);
  });

  it('refuses a power covered twice, naming both seats', async () => {
    const e = await rejection(runMatch(diceSpec(1, { seats: { A: randomBot, red: randomBot, B: randomBot } })));
    expect(e.code).toBe('BAD_SEATS');
    expect(e.message).toMatch(/more than one seat: red \(by A and red\)/);
  });

  it('refuses an unknown scenario and seat specs without a bot', async () => {
    expect((await rejection(runMatch(diceSpec(1, { scenario: 'epic' })))).message).toMatch(/Valid scenarios: standard/);
    expect((await rejection(runMatch(diceSpec(1, { seatSpecs: { C: 'random' } })))).code).toBe('BAD_SEATS');
  });

  it('lets setup errors through', async () => {
    expect((await rejection(runMatch(diceSpec(1, { options: { target: 'high' } })))).code).toBe('BAD_OPTION');
  });
});

describe('parseBotSpec', () => {
  it('parses names and parameters', () => {
    expect(parseBotSpec('random')).toEqual({ name: 'random', params: {} });
    expect(parseBotSpec('greedy:depth=2, foo=bar')).toEqual({ name: 'greedy', params: { depth: '2', foo: 'bar' } });
    expect(parseBotSpec('mine:cmd=a=b')).toEqual({ name: 'mine', params: { cmd: 'a=b' } });
  });

  it('keeps an external bot spec whole: a command line, a URL, a registered name', () => {
    for (const spec of ['cmd:python3 bot.py --a=1,b', 'http://h:1/bot?a=1', 'ext:my-bot']) expect(parseBotSpec(` ${spec} `)).toEqual({ name: spec, params: {} });
  });

  it('refuses malformed specs', () => {
    expect(() => parseBotSpec('greedy:depth')).toThrow(/'depth' is not key=value/);
    expect(() => parseBotSpec(':x=1')).toThrow(/no bot name/);
    expect(() => parseBotSpec('g:a=1,a=2')).toThrow(/twice/);
  });
});
