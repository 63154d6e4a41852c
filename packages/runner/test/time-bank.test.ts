/**
 * Adjudication of slow and faulty bots: the per-seat time bank, timeout strikes, `BotFault` reasons,
 * and a bot's `start` and `close`. Time is a fake clock the bots move, so these never depend on load.
 */
import { describe, expect, it } from 'vitest';
import { BotFault, InMemorySink, runMatch, type Bot, type BotEnding, type BotFactory, type DecisionClock, type DecisionRow, type MatchResult, type StepInfo } from '../src/index.ts';
import { diceSpec, randomBot } from './helpers.ts';

function forfeit(r: MatchResult): Extract<MatchResult, { kind: 'forfeit' }> {
  expect(r.kind, 'detail' in r ? r.detail : r.kind).toBe('forfeit');
  return r as Extract<MatchResult, { kind: 'forfeit' }>;
}

/** A clock, and a bot that takes `ms(n)` of it on its n-th decision (1-based) and picks the last option. */
function timed(ms: (n: number) => number): { now: () => number; bot: BotFactory; clocks: (DecisionClock | undefined)[] } {
  let t = 0;
  const clocks: (DecisionClock | undefined)[] = [];
  const bot: BotFactory = () => ({
    name: 'slow',
    version: '1',
    decide: (req) => {
      clocks.push(req.clock);
      t += ms(clocks.length);
      return req.options.length - 1;
    },
  });
  return { now: () => t, bot, clocks };
}

describe('time bank and strikes', () => {
  it('without a bank, the first overrun forfeits as before', async () => {
    const { now, bot } = timed((n) => (n === 2 ? 150 : 10));
    const f = forfeit(await runMatch(diceSpec(1, { seats: { A: bot, B: randomBot }, now, decisionTimeoutMs: 100 })));
    expect(f.reason).toBe('timeout');
    expect(f.detail).toMatch(/took 150 ms, over the 100 ms budget, at roll-or-bank/);
    expect(f.detail).not.toMatch(/strike/);
  });

  it('draws overruns from the bank, tells the bot what is left, and forfeits when both are used up', async () => {
    const { now, bot, clocks } = timed(() => 150);
    const f = forfeit(await runMatch(diceSpec(1, { seats: { A: bot, B: randomBot }, now, decisionTimeoutMs: 100, timeBankMs: 120 })));
    expect(clocks).toEqual([
      { decisionMs: 100, bankMs: 120 },
      { decisionMs: 100, bankMs: 70 },
      { decisionMs: 100, bankMs: 20 },
    ]);
    expect(f.reason).toBe('timeout');
    expect(f.detail).toMatch(/took 150 ms, over the 120 ms \(100 ms \+ 20 ms bank\) budget/);
  });

  it('plays the first option on a strike before the last, says so in the rationale, and empties the bank', async () => {
    const { now, bot, clocks } = timed((n) => (n === 2 || n === 4 ? 400 : 10));
    const sink = new InMemorySink();
    const r = forfeit(await runMatch(diceSpec(1, { seats: { A: bot, B: randomBot }, now, sink, decisionTimeoutMs: 100, timeBankMs: 50, strikes: 2 })));
    expect(r.detail).toMatch(/took 400 ms, over the 100 ms budget, at roll-or-bank \(\d options\) \(strike 2 of 2\)/);
    const red = sink.decisions.filter((d) => d.seat === 'A');
    expect(red).toHaveLength(3);
    expect(red[1]?.rationale).toMatch(/^timeout strike 1 of 2: the bot took 400 ms, over the 150 ms \(100 ms \+ 50 ms bank\) budget, at roll-or-bank .*played the first option$/);
    // The bot picks the last option (bank, when it may); the strike played the first (roll).
    expect(red[1]?.choice).toBe('roll');
    expect(red[0]?.rationale).toBeUndefined();
    expect(clocks.map((c) => c?.bankMs)).toEqual([50, 50, 0, 0]);
    // The result counts each seat's strikes (the forfeiting one included) and the bank it had left.
    expect([r.strikesBySeat, r.bankMsBySeat]).toEqual([{ A: 2, B: 0 }, { A: 0, B: 50 }]);
    expect(red.map((d) => d.strike)).toEqual([undefined, 1, undefined]);
  });

  it('a sink that samples decisions still gets every strike, marked with its number', async () => {
    const { now, bot } = timed((n) => (n === 3 ? 400 : 10));
    const sink = new InMemorySink();
    const sampling = Object.assign(sink, { keepsDecision: () => false, decision: (row: DecisionRow) => void (row.strike !== undefined && sink.decisions.push(row)) });
    const steps: StepInfo[] = [];
    const r = await runMatch(diceSpec(1, { seats: { A: bot, B: randomBot }, now, sink: sampling, decisionTimeoutMs: 100, strikes: 2, onStep: (s) => void steps.push(s) }));
    expect(r.kind).not.toBe('forfeit');
    expect(sink.decisions.map((d) => [d.seat, d.strike, d.rationale?.slice(0, 21)])).toEqual([['A', 1, 'timeout strike 1 of 2']]);
    // What the account shows with -v: the step the runner played, with its strike and rationale.
    const played = steps.filter((s) => s.strike !== undefined);
    expect(played.map((s) => [s.actor, s.choice, s.strike])).toEqual([['red', 'roll', 1]]);
    expect(played[0]?.rationale).toMatch(/^timeout strike 1 of 2: the bot took 400 ms, over the 100 ms budget/);
  });

  it('refuses a negative bank and a strike count below 1', async () => {
    await expect(runMatch(diceSpec(1, { timeBankMs: -1 }))).rejects.toThrow(/timeBankMs must be 0 or more/);
    await expect(runMatch(diceSpec(1, { strikes: 0 }))).rejects.toThrow(/strikes must be a whole number, 1 or more/);
  });
});

describe('bot faults, start and close', () => {
  it('a BotFault forfeits with its own reason and message', async () => {
    const liar: BotFactory = () => ({ name: 'liar', version: '1', decide: () => Promise.reject(new BotFault('illegal', "sent 'maybe'")) });
    const f = forfeit(await runMatch(diceSpec(1, { seats: { A: liar, B: randomBot } })));
    expect(f.reason).toBe('illegal');
    expect(f.detail).toMatch(/^Bot liar@1 in seat A \(power red\) sent 'maybe' at roll-or-bank/);
  });

  it('a bot whose start fails forfeits before any move, and every bot is closed with the ending', async () => {
    const endings: (BotEnding | undefined)[] = [];
    const closing = (b: Bot): Bot => ({ ...b, close: (e) => void endings.push(e) });
    const broken: BotFactory = (ctx) => closing({ ...randomBot(ctx), start: () => Promise.reject(new BotFault('crash', 'does not support game dice-race')) });
    const f = forfeit(await runMatch(diceSpec(1, { seats: { A: (ctx) => closing(randomBot(ctx)), B: broken } })));
    expect(f).toMatchObject({ seat: 'B', power: 'blue', reason: 'crash', decisions: 0 });
    expect(f.detail).toBe('Bot test-random@1 in seat B does not support game dice-race');
    expect(endings).toHaveLength(2);
    expect(endings[0]).toMatchObject({ kind: 'forfeit', forfeit: { seat: 'B', reason: 'crash' }, result: { sides: { A: 'win', B: 'loss' } } });
  });

  it('a start that takes too long is a timeout', async () => {
    const stuck: BotFactory = (ctx) => ({ ...randomBot(ctx), start: () => new Promise(() => {}) });
    const f = forfeit(await runMatch(diceSpec(1, { seats: { A: stuck, B: randomBot }, startTimeoutMs: 30 })));
    expect(f.reason).toBe('timeout');
    expect(f.detail).toMatch(/did not get ready \(handshake\) within 30 ms/);
  });

  it('bots learn the scenario and time control', async () => {
    let seen: unknown;
    const r = await runMatch(diceSpec(1, { seats: { A: (ctx) => ((seen = { scenario: ctx.scenario, time: ctx.time }), randomBot(ctx)), B: randomBot }, timeBankMs: 5, strikes: 3 }));
    expect(r.kind).toBe('completed');
    expect(seen).toEqual({ scenario: 'standard', time: { decisionMs: 10_000, bankMs: 5, strikes: 3 } });
  });
});
