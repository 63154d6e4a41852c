/**
 * packed-rows.ts: the rows a RemoteSink packs come back, on the store's side, as a JSON round trip of
 * them would give them (same values, same key order), for real Blitz! matches and for the optional
 * fields real matches seldom have.
 */
import { describe, expect, it } from 'vitest';
import { createBot } from '@salient/bots';
import { blitz } from '@salient/game-blitz';
import { runMatch, type DecisionRow, type EventRow, type ImpulseRow, type MatchRow, type TelemetrySink } from '@salient/runner';
import { RowPacker, unpackRows } from '../src/packed-rows.ts';

type Call = ['impulse', ImpulseRow] | ['event', EventRow] | ['decision', DecisionRow] | ['match', MatchRow];

/** A sink that keeps every call in order. */
function recorder(): TelemetrySink & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    impulse: (r) => void calls.push(['impulse', r]),
    event: (r) => void calls.push(['event', r]),
    decision: (r) => void calls.push(['decision', r]),
    match: (r) => void calls.push(['match', r]),
  };
}

/** Pack `calls` (a batch of at most `per` rows each), post each batch as a structured clone, and unpack them. */
function roundTrip(calls: readonly Call[], per = Infinity): Call[] {
  const out = recorder();
  const packer = new RowPacker();
  const post = () => {
    const batch = packer.take();
    if (batch) unpackRows(structuredClone(batch), out);
  };
  for (const [kind, row] of calls) {
    if (kind === 'impulse') packer.impulse(row);
    else if (kind === 'event') packer.event(row);
    else if (kind === 'decision') packer.decision(row);
    else packer.match(row);
    if (packer.rows >= per) post();
  }
  post();
  return out.calls;
}

const checked = blitz.checkPack(blitz.bundledPacks.approximation);
if (!checked.ok) throw new Error('bundled Blitz pack does not load');

describe('packed rows', () => {
  it('unpack as the JSON round trip of real matches, key order included, whole or in pieces', async () => {
    const sink = recorder();
    for (let seed = 1; seed <= 4; seed++) {
      await runMatch({ game: blitz, pack: checked.pack, scenario: 'A', seed, seats: { Axis: createBot('random'), Allies: createBot('random') }, sink, eventRows: 'all' });
    }
    const kinds = new Set(sink.calls.map(([k]) => k));
    expect([...kinds].sort()).toEqual(['decision', 'event', 'impulse', 'match']);
    const want = JSON.stringify(sink.calls);
    expect(JSON.stringify(roundTrip(sink.calls))).toBe(want);
    // Batches of 5 rows: a match's rows in several batches, and batches holding two matches.
    expect(JSON.stringify(roundTrip(sink.calls, 5))).toBe(want);
    expect(roundTrip(sink.calls, 3)).toEqual(JSON.parse(want));
  });

  it('keeps the optional fields as they were: a strike and a rationale, no summary, an event without power or data', () => {
    const position = { turn: 1, impulse: 2, phase: 'p', step: 's' };
    const decision: DecisionRow = { matchId: 'm1', seq: 0, impulseSeq: 0, position, power: 'GER', seat: 'Axis', prompt: 'pick', optionCount: 3, choice: 'done', thinkMs: 0.125 };
    const impulse: ImpulseRow = {
      matchId: 'm2',
      seq: 0,
      position,
      activePowers: [],
      choices: [],
      decisions: 0,
      chanceDraws: 1,
      eventCounts: {},
      eventCountsByPower: {},
      thinkMsBySeat: {},
      end: { ...position, impulse: 3 },
      stateHash: '0123456789abcdef',
    };
    const calls: Call[] = [
      ['decision', decision],
      ['decision', { ...decision, seq: 1, rationale: 'timeout strike 1 of 2', strike: 1 }],
      ['decision', { ...decision, seq: 2, rationale: 'a "quoted"\nline, é, \u2028' }],
      ['decision', { ...decision, seq: 3, strike: 2 }],
      ['impulse', impulse],
      ['impulse', { ...impulse, seq: 1, summary: { scores: { GER: 1 }, extra: { 'GER.units': 0 } } }],
      ['event', { matchId: 'm1', seq: 0, impulseSeq: 0, position, event: { type: 'turn', text: 'Turn 2' } }],
      ['event', { matchId: 'm1', seq: 1, impulseSeq: 0, position, event: { type: 'move', power: 'GER', text: 'x', data: { path: ['a', 'b'], n: -0.5, none: null } } }],
    ];
    const back = roundTrip(calls);
    expect(JSON.stringify(back)).toBe(JSON.stringify(calls));
    expect(back[0]?.[1]).not.toHaveProperty('strike');
    expect(back[0]?.[1]).not.toHaveProperty('rationale');
    expect(back[3]?.[1]).toMatchObject({ strike: 2 });
    expect(back[3]?.[1]).not.toHaveProperty('rationale');
    expect(back[4]?.[1]).not.toHaveProperty('summary');
  });

  it('takes nothing from an empty packer, and refuses a batch it cannot read', () => {
    expect(new RowPacker().take()).toBeUndefined();
    const sink = recorder();
    expect(() => unpackRows({ json: '[["m"],[9,0]]' }, sink)).toThrow(/unknown kind 9/);
    expect(() => unpackRows({} as never, sink)).toThrow(/a packed batch is \{ json: string \}/);
  });
});
