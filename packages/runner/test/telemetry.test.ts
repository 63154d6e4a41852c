import { describe, expect, it } from 'vitest';
import { hashJson, runReplay, type Boundary } from '@salient/engine';
import { diceRace, diceRacePack } from '@salient/engine/testing';
import { InMemorySink, runMatch, type StepInfo } from '../src/index.ts';
import { botOf, diceSpec, randomBot } from './helpers.ts';

function collect() {
  const steps: StepInfo[] = [];
  return { steps, onStep: (s: StepInfo) => steps.push(s) };
}

const isImpulseEnd = (b: Boundary | undefined) => b === 'impulse' || b === 'turn';

describe('telemetry', () => {
  it('writes one impulse row per impulse, one event row per event and one match row', async () => {
    for (const seed of [1, 2, 3]) {
      const sink = new InMemorySink();
      const { steps, onStep } = collect();
      const r = await runMatch(diceSpec(seed, { sink, onStep }));
      const boundaries = steps.filter((s) => isImpulseEnd(s.boundary)).length;
      const trailing = steps.length > 0 && !isImpulseEnd(steps.at(-1)?.boundary) ? 1 : 0;
      expect(sink.impulses).toHaveLength(boundaries + trailing);
      expect(r.impulses).toBe(sink.impulses.length);
      expect(sink.impulses.map((i) => i.seq)).toEqual(sink.impulses.map((_, i) => i));
      expect(sink.impulses.reduce((a, i) => a + i.decisions, 0)).toBe(r.decisions);
      expect(sink.impulses.reduce((a, i) => a + i.chanceDraws, 0)).toBe(r.chanceDraws);
      expect(sink.impulses.flatMap((i) => i.choices)).toEqual(r.replay.log.filter((e) => e.by !== 'chance').map((e) => e.choice));

      const emitted = steps.flatMap((s) => s.events);
      expect(sink.events.map((e) => e.event)).toEqual(emitted);
      expect(sink.events.map((e) => e.seq)).toEqual(emitted.map((_, i) => i));
      const eventCounts = sink.impulses.reduce((a, i) => a + Object.values(i.eventCounts).reduce((x, y) => x + y, 0), 0);
      expect(eventCounts).toBe(emitted.length);

      expect(sink.matches).toHaveLength(1);
      expect(sink.matches[0]).toMatchObject({ matchId: r.matchId, result: r, options: {}, tags: {} });
      expect(sink.matches[0]!.endedAt).toBeGreaterThanOrEqual(sink.matches[0]!.startedAt);
      // one decision row per decision, numbered in order, and impulse rows that end where they say
      expect(sink.decisions.map((d) => d.seq)).toEqual(Array.from({ length: r.decisions }, (_, i) => i));
      expect(sink.decisions.every((d) => d.optionCount >= 1 && d.prompt.length > 0)).toBe(true);
      expect(sink.impulses.at(-1)!.end).toEqual(r.position);
      expect(sink.flushes).toBe(sink.impulses.length + 1);
    }
  });

  it('builds decision rows only for the decisions a sampling sink keeps', async () => {
    const all = new InMemorySink();
    const full = await runMatch(diceSpec(4, { sink: all }));
    const asked: [string, number][] = [];
    const kept = new InMemorySink();
    const sampling = Object.assign(kept, {
      keepsDecision: (matchId: string, seq: number) => (asked.push([matchId, seq]), seq % 3 === 1),
    });
    const r = await runMatch(diceSpec(4, { sink: sampling }));
    expect(r.finalHash).toBe(full.finalHash);
    // asked once per decision, in order, and given exactly the rows it keeps, as the full run made them
    expect(asked).toEqual(Array.from({ length: r.decisions }, (_, i) => [r.matchId, i]));
    expect(kept.decisions.map((d) => d.seq)).toEqual(asked.map(([, seq]) => seq).filter((seq) => seq % 3 === 1));
    expect(kept.decisions.length).toBeGreaterThan(0);
    const strip = (d: (typeof all.decisions)[number]) => ({ ...d, thinkMs: 0 });
    expect(kept.decisions.map(strip)).toEqual(all.decisions.filter((d) => d.seq % 3 === 1).map(strip));
  });

  it('writes event rows for the types eventRows names, the game\'s list by default, and counts every event', async () => {
    const emittedOf = async (spec: Parameters<typeof diceSpec>[1]) => {
      const sink = new InMemorySink();
      const { steps, onStep } = collect();
      await runMatch(diceSpec(5, { sink, onStep, ...spec }));
      return { sink, emitted: steps.flatMap((s) => s.events) };
    };
    // Dice Race lists no telemetry events: every event gets a row.
    const plain = await emittedOf({});
    expect(plain.emitted.some((e) => e.type === 'bank') && plain.emitted.some((e) => e.type === 'bust')).toBe(true);
    expect(plain.sink.events).toHaveLength(plain.emitted.length);
    // A game listing 'bust' only: bank events are counted in the impulse rows but get no row; seq still counts them all.
    const listing = { ...diceRace, telemetryEvents: ['bust'] };
    const game = await emittedOf({ game: listing });
    const busts = game.emitted.flatMap((e, i) => (e.type === 'bust' ? [i] : []));
    expect(game.sink.events.map((r) => r.seq)).toEqual(busts);
    expect(game.sink.impulses.reduce((a, i) => a + (i.eventCounts.bank ?? 0), 0)).toBe(game.emitted.filter((e) => e.type === 'bank').length);
    // 'all' overrides the game's list; a list of types replaces it.
    expect((await emittedOf({ game: listing, eventRows: 'all' })).sink.events).toHaveLength(game.emitted.length);
    const banks = await emittedOf({ game: listing, eventRows: ['bank'] });
    expect(banks.sink.events.every((r) => r.event.type === 'bank')).toBe(true);
    expect(banks.sink.events).toHaveLength(game.emitted.length - busts.length);
    await expect(runMatch(diceSpec(5, { sink: new InMemorySink(), eventRows: 'some' as never }))).rejects.toThrow(
      /eventRows must be 'game', 'all' or a list of event types; got "some"/,
    );
  });

  it('stamps each impulse row with the state hash at its end and the position at its start', async () => {
    const sink = new InMemorySink();
    const r = await runMatch(diceSpec(4, { sink }));
    const hashes: string[] = [];
    const starts: unknown[] = [];
    let fresh = true;
    runReplay(diceRace, diceRacePack, r.replay, (_e, _i, before, step) => {
      if (fresh) starts.push(diceRace.position(before as never));
      fresh = isImpulseEnd(step.boundary);
      if (fresh) hashes.push(hashJson(step.state));
    });
    if (!fresh) hashes.push(r.finalHash);
    expect(sink.impulses.map((i) => i.stateHash)).toEqual(hashes);
    expect(sink.impulses.map((i) => i.position)).toEqual(starts);
    expect(sink.impulses.every((i) => i.activePowers.length === 1)).toBe(true);
  });

  it('closes the open impulse and writes a match row when a match ends early', async () => {
    const sink = new InMemorySink();
    let n = 0;
    const crashesLate = botOf(() => {
      if (++n === 6) throw new Error('late crash');
      return 0;
    });
    const r = await runMatch(diceSpec(5, { sink, seats: { A: crashesLate, B: randomBot } }));
    expect(r.kind).toBe('forfeit');
    expect(sink.matches).toHaveLength(1);
    expect(sink.matches[0]?.result.kind).toBe('forfeit');
    expect(sink.impulses.reduce((a, i) => a + i.decisions, 0)).toBe(r.decisions);
  });

  it('lets a failing sink reject the match instead of reporting a game error', async () => {
    const sink = new InMemorySink();
    sink.impulse = () => {
      throw new Error('disk full');
    };
    await expect(runMatch(diceSpec(6, { sink }))).rejects.toThrow(/disk full/);
  });

  it('gives the final hash of the state the last impulse row hashed, with or without a sink', async () => {
    for (const seed of [1, 2, 3, 4]) {
      const plain = await runMatch(diceSpec(seed));
      const sink = new InMemorySink();
      const r = await runMatch(diceSpec(seed, { sink }));
      // The match's final hash is the last impulse row's (the same state), and what it is without a sink.
      expect(r.finalHash).toBe(plain.finalHash);
      expect(sink.impulses.at(-1)!.stateHash).toBe(r.finalHash);
      expect(runReplay(diceRace, diceRacePack, r.replay).hash).toBe(r.finalHash);
    }
  });

  it('waits for a flush only when it returns a promise, and fails the match on a flush that throws or rejects', async () => {
    // A flush with nothing to wait for: every row still arrives, in order, and the match is the same.
    const sync = new InMemorySink();
    const a = await runMatch(diceSpec(8, { sink: sync }));
    expect(sync.flushes).toBe(sync.impulses.length + 1);
    // A flush that takes its time: the next impulse starts only once it resolved.
    let pending = 0;
    const slow = Object.assign(new InMemorySink(), {
      flush: () => {
        pending++;
        return new Promise<void>((resolve) =>
          setTimeout(() => {
            pending--;
            resolve();
          }, 1),
        );
      },
    });
    const seen: number[] = [];
    const impulse = slow.impulse.bind(slow);
    slow.impulse = (row) => {
      seen.push(pending);
      impulse(row);
    };
    const b = await runMatch(diceSpec(8, { sink: slow }));
    expect(b.finalHash).toBe(a.finalHash);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every((n) => n === 0)).toBe(true);
    const throwing = Object.assign(new InMemorySink(), {
      flush: () => {
        throw new Error('store gone');
      },
    });
    await expect(runMatch(diceSpec(8, { sink: throwing }))).rejects.toThrow(/store gone/);
    const rejecting = Object.assign(new InMemorySink(), { flush: () => Promise.reject(new Error('store refused')) });
    await expect(runMatch(diceSpec(8, { sink: rejecting }))).rejects.toThrow(/store refused/);
  });

  it('derives the match id from what determines the game', async () => {
    const a = await runMatch(diceSpec(7));
    const b = await runMatch(diceSpec(7, { options: { target: 15 } }));
    const c = await runMatch(diceSpec(7, { matchId: 'given' }));
    expect(a.matchId).toMatch(/^[0-9a-f]{16}$/);
    expect(b.matchId).not.toBe(a.matchId);
    expect(c.matchId).toBe('given');
  });
});
