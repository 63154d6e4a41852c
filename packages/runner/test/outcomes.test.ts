import { describe, expect, it } from 'vitest';
import { runReplay, type Game } from '@salient/engine';
import { diceRace, diceRacePack, type DiceRaceChoice, type DiceRaceState } from '@salient/engine/testing';
import { runMatch, type MatchResult } from '../src/index.ts';
import { BotStop } from '../src/ask-bot.ts';
import { botOf, diceSpec, randomBot } from './helpers.ts';

function expectKind<K extends MatchResult['kind']>(r: MatchResult, kind: K): Extract<MatchResult, { kind: K }> {
  expect(r.kind, r.kind === 'error' ? r.detail : r.kind === 'forfeit' ? r.detail : '').toBe(kind);
  return r as Extract<MatchResult, { kind: K }>;
}

describe('runMatch outcomes', () => {
  it('plays a game to completion with a winner', async () => {
    const r = expectKind(await runMatch(diceSpec(1)), 'completed');
    const winners = Object.entries(r.result.sides).filter(([, o]) => o === 'win');
    expect(winners).toHaveLength(1);
    const winnerPower = winners[0]?.[0] === 'A' ? 'red' : 'blue';
    expect(r.result.scores[winnerPower]).toBeGreaterThanOrEqual(20);
    expect(r.bots).toEqual({ A: 'test-random@1', B: 'test-random@1' });
    expect(r.replay.seats).toEqual({ A: 'test-random', B: 'test-random' });
    expect(r.replay.log.length).toBe(r.decisions + r.chanceDraws);
    expect(r.chanceDraws).toBeGreaterThan(0);
  });

  it('seats bots by power as well as by side, and passes the spec params', async () => {
    const seen: Record<string, unknown> = {};
    const spy = (seat: string) => (ctx: Parameters<typeof randomBot>[0]) => {
      seen[seat] = { powers: ctx.powers, params: ctx.params };
      return randomBot(ctx);
    };
    const r = await runMatch(diceSpec(2, { seats: { red: spy('red'), B: spy('B') }, seatSpecs: { red: 'x:depth=2,mode=fast' } }));
    expectKind(r, 'completed');
    expect(seen).toEqual({ red: { powers: ['red'], params: { depth: '2', mode: 'fast' } }, B: { powers: ['blue'], params: {} } });
    expect(r.replay.seats).toEqual({ red: 'x:depth=2,mode=fast', B: 'test-random' });
  });

  it('accepts { index } and { choice } answers', async () => {
    const byChoice = botOf((req) => ({ choice: req.options[req.options.length - 1], rationale: 'bank when I can' }));
    const byIndex = botOf(() => ({ index: 0 }));
    const r = expectKind(await runMatch(diceSpec(3, { seats: { A: byChoice, B: byIndex } })), 'completed');
    // red banks whenever it may (pot > 0); blue always rolls.
    const seen = { redBanks: 0, blueRolls: 0 };
    runReplay<DiceRaceState>(diceRace, diceRacePack, r.replay, (entry, _i, before) => {
      if (entry.by === 'red') {
        expect(entry.choice).toBe(before.pot > 0 ? 'bank' : 'roll');
        if (entry.choice === 'bank') seen.redBanks++;
      }
      if (entry.by === 'blue') {
        expect(entry.choice).toBe('roll');
        seen.blueRolls++;
      }
    });
    expect(seen.redBanks).toBeGreaterThan(0);
    expect(seen.blueRolls).toBeGreaterThan(0);
  });

  it('forfeits a bot that throws, and the other side wins', async () => {
    const r = expectKind(await runMatch(diceSpec(4, { seats: { A: randomBot, B: botOf(() => { throw new Error('kaboom'); }) } })), 'forfeit');
    expect(r.reason).toBe('crash');
    expect(r.seat).toBe('B');
    expect(r.power).toBe('blue');
    expect(r.detail).toMatch(/kaboom/);
    expect(r.result.sides).toEqual({ A: 'win', B: 'loss' });
  });

  it('forfeits a bot whose promise rejects', async () => {
    const r = expectKind(await runMatch(diceSpec(4, { seats: { A: botOf(async () => Promise.reject(new Error('async kaboom'))), B: randomBot } })), 'forfeit');
    expect(r.reason).toBe('crash');
    expect(r.detail).toMatch(/async kaboom/);
    expect(r.result.sides).toEqual({ A: 'loss', B: 'win' });
  });

  it('forfeits a bot that never answers, and aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    const silent = botOf((_req, s) => {
      signal = s;
      return new Promise(() => {});
    });
    const t0 = performance.now();
    const r = expectKind(await runMatch(diceSpec(5, { seats: { A: randomBot, B: silent }, decisionTimeoutMs: 50 })), 'forfeit');
    expect(r.reason).toBe('timeout');
    expect(r.detail).toMatch(/50 ms/);
    expect(signal?.aborted).toBe(true);
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(r.thinkMsBySeat.B).toBeGreaterThanOrEqual(45);
  });

  it('forfeits a synchronous bot that overran its budget', async () => {
    let t = 0;
    const r = expectKind(await runMatch(diceSpec(5, { now: () => (t += 600), decisionTimeoutMs: 500 })), 'forfeit');
    expect(r.reason).toBe('timeout');
    expect(r.seat).toBe('A');
  });

  it.each([
    ['an out-of-range index', 7, /index 7/],
    ['a non-integer index', 0.5, /index 0.5/],
    ['an unknown choice', { choice: 'fly' }, /'fly'/],
    ['garbage', 'bank', /neither/],
  ])('forfeits a bot that answers %s', async (_what, answer, detail) => {
    const bad = botOf(() => answer as never);
    const r = expectKind(await runMatch(diceSpec(6, { seats: { A: bad, B: randomBot } })), 'forfeit');
    expect(r.reason).toBe('illegal');
    expect(r.detail).toMatch(detail);
    expect(r.replay.log).toEqual([]);
  });

  it('adjudicates when the decision cap is reached', async () => {
    const r = expectKind(await runMatch(diceSpec(7, { decisionCap: 5 })), 'adjudicated');
    expect(r.cap).toBe(5);
    expect(r.decisions).toBe(5);
    const state = runReplay<DiceRaceState>(diceRace, diceRacePack, r.replay).state;
    expect(r.result).toEqual(diceRace.adjudicate(state));
  });

  it('reports a game that throws from apply as an error, keeping a replay of the steps taken', async () => {
    let calls = 0;
    const broken: Game<DiceRaceState, DiceRaceChoice, DiceRaceState> = {
      ...diceRace,
      apply(s, c) {
        if (++calls === 5) throw new Error('rules bug in apply');
        return diceRace.apply(s, c);
      },
    };
    const steps: number[] = [];
    const r = expectKind(await runMatch(diceSpec(8, { game: broken, onStep: (i) => steps.push(i.index) })), 'error');
    expect(r.detail).toMatch(/rules bug in apply/);
    expect(r.detail).toMatch(/step 4/);
    expect(r.stack).toMatch(/apply/);
    expect(steps).toEqual([0, 1, 2, 3]);
    expect(r.replay.log).toHaveLength(4);
    expect(runReplay(diceRace, diceRacePack, r.replay).matches).toBe(true);
  });

  it('steps through applyOwned where the game has it, and never through apply', async () => {
    const calls = { apply: 0, owned: 0 };
    const owning: Game<DiceRaceState, DiceRaceChoice, DiceRaceState> = {
      ...diceRace,
      apply(s, c) {
        calls.apply++;
        return diceRace.apply(s, c);
      },
      applyOwned(s, c) {
        calls.owned++;
        return diceRace.apply(s, c);
      },
    };
    const r = expectKind(await runMatch(diceSpec(11, { game: owning })), 'completed');
    expect(calls).toEqual({ apply: 0, owned: r.replay.log.length });
    expect(runReplay(diceRace, diceRacePack, r.replay).matches).toBe(true);
  });

  it('builds an error result from the state before the failing step when an owned apply half-changed it', async () => {
    let calls = 0;
    const scribbler: Game<DiceRaceState, DiceRaceChoice, DiceRaceState> = {
      ...diceRace,
      applyOwned(s, c) {
        if (++calls === 5) {
          s.pot = 999;
          s.scores = { red: -1, blue: -1 };
          throw new Error('rules bug half-way through an owned step');
        }
        return diceRace.apply(s, c);
      },
    };
    const r = expectKind(await runMatch(diceSpec(12, { game: scribbler })), 'error');
    expect(r.detail).toMatch(/half-way/);
    expect(r.replay.log).toHaveLength(4);
    // The final hash is the state's after the four good steps, not the scribbled one.
    expect(runReplay(diceRace, diceRacePack, r.replay).matches).toBe(true);
  });

  it('lets a bot read its observation only until it answers', async () => {
    let kept: { observation: unknown } | undefined;
    let late: unknown;
    const bot = botOf((req) => {
      if (!kept) kept = req;
      else if (late === undefined) {
        try {
          late = kept.observation;
        } catch (e) {
          late = e;
        }
      }
      return 0;
    });
    expectKind(await runMatch(diceSpec(13, { seats: { A: bot, B: bot } })), 'completed');
    expect(late).toBeInstanceOf(Error);
    expect((late as Error).message).toMatch(/can only be read until the bot answers/);
  });

  it('is cancelled between steps when the signal aborts', async () => {
    const ctrl = new AbortController();
    const onStep = (i: { index: number }) => {
      if (i.index === 9) ctrl.abort();
    };
    const r = expectKind(await runMatch(diceSpec(9, { signal: ctrl.signal, onStep })), 'cancelled');
    expect(r.replay.log).toHaveLength(10);
    expect(runReplay(diceRace, diceRacePack, r.replay).matches).toBe(true);
  });

  it('is cancelled while a bot is thinking', async () => {
    const ctrl = new AbortController();
    let botSignal: AbortSignal | undefined;
    const slow = botOf((_r, s) => {
      botSignal = s;
      setTimeout(() => ctrl.abort(), 20);
      return new Promise(() => {});
    });
    const t0 = performance.now();
    const r = await runMatch(diceSpec(10, { seats: { A: slow, B: randomBot }, signal: ctrl.signal, decisionTimeoutMs: 60_000 }));
    expect(r.kind).toBe('cancelled');
    expect(botSignal?.aborted).toBe(true);
    expect(performance.now() - t0).toBeLessThan(5000);
  });

  it('closes every bot at the end, even when a close throws', async () => {
    const closed: string[] = [];
    const closing = (name: string) => () => ({
      name,
      version: '1',
      decide: () => 0,
      close: () => {
        closed.push(name);
        if (name === 'a') throw new Error('close failed');
      },
    });
    const r = await runMatch(diceSpec(11, { seats: { A: closing('a'), B: closing('b') }, decisionCap: 3 }));
    expect(r.kind).toBe('adjudicated');
    expect(closed.sort()).toEqual(['a', 'b']);
  });

  it('counts think time per seat with the injected clock', async () => {
    let t = 0;
    const r = await runMatch(diceSpec(12, { now: () => ++t }));
    const perPower = (p: string) => r.replay.log.filter((e) => e.by === p).length;
    // Each decision reads the clock twice, back to back, so it takes exactly 1 ms on this clock.
    expect(r.thinkMsBySeat).toEqual({ A: perPower('red'), B: perPower('blue') });
  });

  it('yields the event loop during a long match', async () => {
    let ticks = 0;
    let handle: NodeJS.Immediate | undefined;
    const tick = () => {
      ticks++;
      handle = setImmediate(tick);
    };
    handle = setImmediate(tick);
    try {
      const r = await runMatch(diceSpec(13, { options: { target: 1_000_000, maxTurns: 300 } }));
      expect(r.impulses).toBe(600);
      expect(ticks).toBeGreaterThan(100);
    } finally {
      clearImmediate(handle);
    }
  });
});

describe('what a bot is handed', () => {
  /** Dice Race with its observe counted, or made to throw. */
  const counted = (fail = false) => {
    const calls = { observe: 0 };
    const game = {
      ...diceRace,
      observe(s: DiceRaceState, power: string) {
        calls.observe++;
        if (fail) throw new Error('no view today');
        return diceRace.observe(s, power);
      },
    } as Game<DiceRaceState, DiceRaceChoice, DiceRaceState>;
    return { game, calls };
  };

  it('makes the observation only when the bot reads it, once per decision however often it reads it', async () => {
    const blind = counted();
    const r1 = expectKind(await runMatch(diceSpec(21, { game: blind.game })), 'completed');
    expect(r1.decisions).toBeGreaterThan(0);
    expect(blind.calls.observe).toBe(0);
    const looking = counted();
    const reader = botOf((req) => {
      const a = req.observation;
      const b = req.observation;
      expect(b).toBe(a);
      return 0;
    });
    const r2 = expectKind(await runMatch(diceSpec(21, { game: looking.game, seats: { A: reader, B: reader } })), 'completed');
    expect(looking.calls.observe).toBe(r2.decisions);
    // The same observation as the game gives for that state.
    const seen: unknown[] = [];
    const recorder = botOf((req) => (seen.push(JSON.parse(JSON.stringify(req))), 0));
    await runMatch(diceSpec(22, { seats: { A: recorder, B: recorder } }));
    expect((seen[0] as { observation: unknown }).observation).toEqual(diceRace.observe(diceRace.setup('standard', diceRacePack), 'red'));
  });

  it("is the game's fault, not the bot's, when the game cannot make the observation the bot reads", async () => {
    const broken = counted(true);
    const reader = botOf((req) => (req.observation, 0));
    const r = expectKind(await runMatch(diceSpec(23, { game: broken.game, seats: { A: reader, B: reader } })), 'error');
    expect(r.detail).toMatch(/game\.observe threw for power \w+ at step \d+: no view today/);
  });

  it('hands a seat the same abort signal decision after decision, and aborts it when it stops listening', async () => {
    const signals: AbortSignal[] = [];
    let late = true;
    const bot = botOf((_req, s) => {
      signals.push(s);
      // The first decision answers late (the runner stops listening and aborts); the rest at once.
      if (late) {
        late = false;
        return new Promise((resolve) => setTimeout(() => resolve(0), 200));
      }
      return 0;
    });
    const r = await runMatch(diceSpec(24, { seats: { A: bot, B: randomBot }, decisionTimeoutMs: 20 }));
    expectKind(r, 'forfeit');
    expect(signals[0]!.aborted).toBe(true);
    const steady = await (async () => {
      const seen: AbortSignal[] = [];
      await runMatch(diceSpec(25, { seats: { A: botOf((_q, s) => (seen.push(s), 0)), B: randomBot } }));
      return seen;
    })();
    expect(steady.length).toBeGreaterThan(1);
    expect(new Set(steady).size).toBe(1);
    expect(steady[0]!.aborted).toBe(false);
  });

  it('replaces an aborted signal with a fresh one (BotStop)', () => {
    const stop = new BotStop();
    const first = stop.signal;
    expect(stop.signal).toBe(first);
    stop.abort('timeout');
    expect(first.aborted).toBe(true);
    expect(first.reason).toBe('timeout');
    const next = stop.signal;
    expect(next).not.toBe(first);
    expect(next.aborted).toBe(false);
  });
});
