import { describe, expect, it } from 'vitest';
import type { EventRow } from '@salient/runner';
import { runReplay } from '@salient/engine';
import { blitz } from '@salient/game-blitz';
import { decisionLine, decisionRecord, eventData, eventLine, eventRecord, impulseLine, matchLine, matchRecord, matchSampler, replayOf, sampled, type StoredEventColumns, type StoredReplayColumns } from '../src/records.ts';
import { InMemorySink } from '@salient/runner';
import { blitzPack, playBlitz } from './support/matches.ts';

/** An event line with the omitted combat columns filled in with ClickHouse's defaults, as stored. */
const stored = (r: EventRow): string => {
  const line = eventLine(r);
  if (r.event.type === 'combat') return line;
  const defaults = { combat_target: '', combat_outcome: '', combat_rounds: [], att_factors: [], def_factors: [], att_dice: [], def_dice: [], att_results: [], def_results: [], combat_in_columns: 0 };
  expect(Object.keys(JSON.parse(line))).not.toContain('combat_target');
  return JSON.stringify({ ...JSON.parse(line), ...defaults });
};

describe('row lines', () => {
  it('are exactly the JSON of the row records, for every row of real matches', async () => {
    for (const seed of [1, 2, 3]) {
      const { rows } = await playBlitz(seed, new InMemorySink());
      expect(rows.events.some((r) => r.event.type === 'combat')).toBe(true);
      for (const r of rows.events) expect(stored(r)).toBe(JSON.stringify(eventRecord(r)));
      // Impulse lines are JSON.stringify(impulseRecord) by construction; their stored values are checked against
      // figures computed from the runner's rows in queries.test.ts and the store contract.
      for (const r of rows.impulses) expect(JSON.parse(impulseLine(r))).toMatchObject({ match_id: r.matchId, seq: r.seq, state_hash: r.stateHash });
      for (const r of rows.decisions) expect(decisionLine(r)).toBe(JSON.stringify(decisionRecord(r)));
      for (const r of rows.matches) expect(matchLine(r)).toBe(JSON.stringify(matchRecord(r)));
    }
  });

  it('write odd values as JSON.stringify does', () => {
    const position = { turn: NaN, impulse: 1, phase: 'p"\n', step: '\u2028' };
    const event = { matchId: 'm\\', seq: 1, impulseSeq: Infinity, position, event: { type: 'combat', text: 'é', data: { rounds: [{ attFactors: 2 }], b: 1 } } };
    expect(eventLine(event)).toBe(JSON.stringify(eventRecord(event)));
    const plain = { ...event, event: { type: 'move', text: '', power: 'GER' } };
    expect(stored(plain)).toBe(JSON.stringify(eventRecord(plain)));
    const decision = { matchId: 'm', seq: 0, impulseSeq: 0, position, power: 'A', seat: 's', prompt: 'x', optionCount: 3, choice: 'c"', thinkMs: 0.25, rationale: 'r' };
    expect(decisionLine(decision)).toBe(JSON.stringify(decisionRecord(decision)));
    const { rationale: _, ...bare } = decision;
    expect(decisionLine(bare)).toBe(JSON.stringify(decisionRecord(bare)));
  });
});

/** A match record as a store gives it back: the columns `replayOf` reads, the seed as text like a server's Int64. */
const asStored = (m: Record<string, unknown>): StoredReplayColumns => JSON.parse(JSON.stringify({ ...m, seed: String(m.seed) })) as StoredReplayColumns;

describe('replays in match rows', () => {
  it('store the log as two arrays and nothing else, and give the replay back exactly', async () => {
    for (const seed of [4, 5]) {
      const { rows } = await playBlitz(seed, new InMemorySink());
      const row = rows.matches[0]!;
      const m = matchRecord(row);
      const replay = row.result.replay;
      expect(m.replay).toBe('');
      expect(m.replay_by).toEqual(replay.log.map((e) => e.by));
      expect(m.replay_choices).toEqual(replay.log.map((e) => e.choice));
      // chance draws are in the log too, so it is longer than the decisions
      expect(replay.log.length).toBeGreaterThan(row.result.decisions);
      const back = replayOf(asStored(m));
      expect(back).toEqual(replay);
      expect(runReplay(blitz, blitzPack, back).hash).toBe(row.result.finalHash);
    }
  });

  it('store a replay whole when it says something the row does not', async () => {
    const { rows } = await playBlitz(6, new InMemorySink());
    const row = rows.matches[0]!;
    const r = row.result;
    const odd = [
      { ...row, seatSpecs: { Axis: 'random' } },
      { ...row, options: { fog: true } },
      { ...row, result: { ...r, replay: { ...r.replay, seed: r.seed + 1 } } },
    ];
    for (const o of odd) {
      const m = matchRecord(o as typeof row);
      expect([m.replay_by, m.replay_choices]).toEqual([[], []]);
      expect(JSON.parse(m.replay as string)).toEqual(o.result.replay);
      expect(replayOf(asStored(m))).toEqual(o.result.replay);
    }
    // Stored whole too, but read back like a file: a field no replay has is refused, not dropped.
    const extra = { ...row, result: { ...r, replay: { ...r.replay, log: [...r.replay.log, { by: 'GER', choice: 'done', note: 'x' }] } } };
    const m = matchRecord(extra as typeof row);
    expect(JSON.parse(m.replay as string)).toEqual(extra.result.replay);
    expect(() => replayOf(asStored(m))).toThrow(expect.objectContaining({ code: 'BAD_REPLAY', issues: [{ path: `$.log[${r.replay.log.length}]`, message: 'Unrecognized key: "note"' }] }));
  });

  it('refuse a row whose log arrays do not pair up', async () => {
    const { rows } = await playBlitz(7, new InMemorySink());
    const m = asStored(matchRecord(rows.matches[0]!));
    expect(() => replayOf({ ...m, replay_by: m.replay_by!.slice(1) })).toThrow(/replay of match .* is damaged: \d+ actor\(s\) for \d+ choice\(s\)/);
  });
});

/** An event row as a store gives it back (numbers of arrays as JSON numbers, as chdb gives them). */
const eventAsStored = (r: EventRow): StoredEventColumns => JSON.parse(JSON.stringify(eventRecord(r))) as StoredEventColumns;

describe('event payloads', () => {
  it('leave out what the combat columns hold, and give the data back exactly', async () => {
    let combats = 0;
    for (const seed of [8, 9, 10, 11]) {
      const { rows } = await playBlitz(seed, new InMemorySink(), { eventRows: 'all' });
      for (const r of rows.events) {
        const stored = eventAsStored(r);
        expect(eventData(stored)).toEqual(r.event.data);
        if (r.event.type !== 'combat') continue;
        combats++;
        expect(stored.combat_in_columns).toBe(1);
        const payload = JSON.parse(stored.payload) as { rounds: Record<string, unknown>[]; target?: unknown };
        expect(payload.target).toBeUndefined();
        expect(payload.rounds.every((x) => x.attDie === undefined && x.defResult === undefined && x.round === undefined)).toBe(true);
        // what the columns do not hold stays in the payload
        expect(payload.rounds.every((x) => Array.isArray(x.attackers))).toBe(true);
      }
    }
    expect(combats).toBeGreaterThan(10);
  });

  it('keep a combat of another shape whole', () => {
    const position = { turn: 1, impulse: 1, phase: 'p', step: 's' };
    const round = { round: 'land', attFactors: 3, defFactors: 2, attDie: 4, defDie: 1, attResult: '-', defResult: 'L', attackers: ['a'] };
    const shapes = [
      { target: 'paris', outcome: 'held', rounds: [{ ...round, attDie: 2.5 }] },
      { target: 'paris', outcome: 'held', rounds: [{ ...round, defResult: undefined }] },
      { target: 'paris', outcome: 'held', rounds: [round, 'odd'] },
      { target: 'paris', rounds: [round] },
      { target: 'paris', outcome: 'held', attFactors: 3 },
      { target: 'paris', outcome: 'held', rounds: [{ ...round, attDie: 2 ** 31 }] },
    ];
    for (const [seq, data] of shapes.entries()) {
      const r = { matchId: 'm', seq, impulseSeq: 0, position, event: { type: 'combat', text: '', data: JSON.parse(JSON.stringify(data)) } };
      const stored = eventAsStored(r);
      expect(stored.combat_in_columns).toBe(0);
      expect(JSON.parse(stored.payload)).toEqual(r.event.data);
      expect(eventData(stored)).toEqual(r.event.data);
    }
    const whole = { matchId: 'm', seq: 9, impulseSeq: 0, position, event: { type: 'combat', text: '', data: { target: 'x', outcome: 'y', rounds: [round] } } };
    const stored = eventAsStored(whole);
    expect(stored.combat_in_columns).toBe(1);
    expect(() => eventData({ ...stored, att_dice: [] })).toThrow(/event 9 of match m is damaged: its payload has 1 combat round\(s\), but its round columns hold 1\/1\/1\/0\/1\/1\/1 value\(s\)/);
  });
});

describe('combat lines', () => {
  it('are the JSON of the row record for combats of every shape, keys in the order the game gave them', () => {
    const position = { turn: 1, impulse: 1, phase: 'p', step: 's' };
    const round = { round: 'land', attFactors: 3, defFactors: 2.5, attDie: 4, defDie: -1, attResult: '-', defResult: 'L', attackers: ['a'] };
    // Columns' keys first, last or among the rest; extra keys in the data and the rounds; odd shapes kept whole.
    const reordered = { attackers: ['b'], defResult: 'S', attDie: 6, note: 'x', round: 'air', defDie: 2, attResult: 'L', defFactors: 1, attFactors: 9 };
    const shapes: unknown[] = [
      { target: 'paris', outcome: 'held', rounds: [round] },
      { rounds: [round, reordered], outcome: 'taken', extra: { deep: [1, 'two'] }, target: 'paris' },
      { before: 1, target: 't', rounds: [], outcome: 'o', after: 'z' },
      { target: 'paris', outcome: 'held', rounds: [{ ...round, attDie: 2.5 }] },
      { target: 'paris', outcome: 'held', rounds: [{ ...round, defResult: undefined }] },
      { target: 'paris', outcome: 'held', rounds: [round, 'odd'] },
      { target: 'paris', outcome: 'held', rounds: [round, null] },
      { target: 'paris', outcome: 'held', rounds: [round, [1]] },
      { target: 'paris', rounds: [round] },
      { target: 3, outcome: 'held', rounds: [round] },
      { target: 'paris', outcome: 'held', attFactors: 3, attDie: 2, attResult: 'L' },
      { target: 'paris', outcome: 'held', rounds: [{ ...round, attDie: 2 ** 31 }] },
      { target: 'paris', outcome: 'held', rounds: [{ ...round, defFactors: Infinity }] },
      { target: 'paris', outcome: 'held', rounds: [{ ...round, round: 2 }] },
      undefined,
    ];
    for (const [seq, data] of shapes.entries()) {
      const r: EventRow = { matchId: 'm', seq, impulseSeq: 0, position, event: { type: 'combat', text: 'c', power: 'GER', ...(data === undefined ? {} : { data: data as never }) } };
      expect(eventLine(r)).toBe(JSON.stringify(eventRecord(r)));
    }
    // A round that inherits a column's key keeps it out of its columns, as the record does.
    const inherited = Object.assign(Object.create({ attDie: 3 }) as Record<string, unknown>, { ...round });
    const r: EventRow = { matchId: 'm', seq: 99, impulseSeq: 0, position, event: { type: 'combat', text: '', data: { target: 'a', outcome: 'b', rounds: [inherited as never] } } };
    expect(eventLine(r)).toBe(JSON.stringify(eventRecord(r)));
  });
});

describe('matchSampler', () => {
  it('keeps exactly the decisions sampled() keeps', () => {
    for (const id of ['fa514ab699918a37', '', 'é#\u{1F600}', 'm'.repeat(300)]) {
      for (const rate of [0, 0.001, 0.1, 0.5, 0.999, 1]) {
        const keep = matchSampler(id, rate);
        let kept = 0;
        for (let seq = 0; seq < 3000; seq++) {
          expect(keep(seq)).toBe(sampled(id, seq, rate));
          if (keep(seq)) kept++;
        }
        if (rate === 0.1) expect(kept).toBeGreaterThan(200);
      }
    }
  });
});
