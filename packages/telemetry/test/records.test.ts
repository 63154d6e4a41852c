import { describe, expect, it } from 'vitest';
import type { EventRow } from '@salient/runner';
import { decisionLine, decisionRecord, eventLine, eventRecord, impulseLine, matchLine, matchRecord, matchSampler, sampled } from '../src/records.ts';
import { InMemorySink } from '@salient/runner';
import { playBlitz } from './support/matches.ts';

/** An event line with the omitted combat columns filled in with ClickHouse's defaults, as stored. */
const stored = (r: EventRow): string => {
  const line = eventLine(r);
  if (r.event.type === 'combat') return line;
  const defaults = { combat_target: '', combat_outcome: '', combat_rounds: [], att_factors: [], def_factors: [], att_dice: [], def_dice: [], att_results: [], def_results: [] };
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
