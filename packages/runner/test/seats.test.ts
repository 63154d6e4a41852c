import { describe, expect, it } from 'vitest';
import { SalientError } from '@salient/engine';
import { runMatch, parseBotSpec, entrantIdentity } from '../src/index.ts';
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

describe('entrantIdentity: the identity results are kept under', () => {
  it('is name, parameters in canonical order and spelling, and version', () => {
    expect(entrantIdentity('greedy', 'greedy@1')).toBe('greedy@1');
    expect(entrantIdentity('greedy:chance=0', 'greedy@1')).toBe('greedy:chance=0@1');
    expect(entrantIdentity('mcts:iterations=300, c=1.40,rollout=0', 'mcts@2')).toBe('mcts:c=1.4,iterations=300,rollout=0@2');
    expect(entrantIdentity('mcts:c=.5,iterations=3e2', 'mcts@2')).toBe('mcts:c=0.5,iterations=300@2');
    // two spellings of one setting are one entrant; two settings are two
    expect(entrantIdentity('mcts:c=1.4,iterations=300', 'mcts@2')).toBe(entrantIdentity('mcts:iterations=300,c=1.40', 'mcts@2'));
    expect(entrantIdentity('greedy:chance=0', 'greedy@1')).not.toBe(entrantIdentity('greedy', 'greedy@1'));
  });

  it('keeps what the bot reported for external bots and specs that do not parse', () => {
    expect(entrantIdentity('cmd:python3 bot.py --level=2', 'pybot@0.3')).toBe('pybot@0.3');
    expect(entrantIdentity('http://10.0.0.5:8765/bot', 'remote@1')).toBe('remote@1');
    expect(entrantIdentity('ext:pybot', 'pybot@3')).toBe('pybot@3');
    expect(entrantIdentity('greedy:nonsense', 'greedy@1')).toBe('greedy@1');
    expect(entrantIdentity(undefined, 'random@1')).toBe('random@1');
  });
});
