import { describe, expect, it } from 'vitest';
import { decisionLine, decisionRecord, eventLine, eventRecord, impulseLine, impulseRecord, matchLine, matchRecord } from '../src/records.ts';
import { InMemorySink } from '@salient/runner';
import { playBlitz } from './support/matches.ts';

describe('row lines', () => {
  it('are exactly the JSON of the row records, for every row of real matches', async () => {
    for (const seed of [1, 2, 3]) {
      const { rows } = await playBlitz(seed, new InMemorySink());
      expect(rows.events.some((r) => r.event.type === 'combat')).toBe(true);
      for (const r of rows.events) expect(eventLine(r)).toBe(JSON.stringify(eventRecord(r)));
      for (const r of rows.impulses) expect(impulseLine(r)).toBe(JSON.stringify(impulseRecord(r)));
      for (const r of rows.decisions) expect(decisionLine(r)).toBe(JSON.stringify(decisionRecord(r)));
      for (const r of rows.matches) expect(matchLine(r)).toBe(JSON.stringify(matchRecord(r)));
    }
  });

  it('write odd values as JSON.stringify does', () => {
    const position = { turn: NaN, impulse: 1, phase: 'p"\n', step: '\u2028' };
    const event = { matchId: 'm\\', seq: 1, impulseSeq: Infinity, position, event: { type: 'combat', text: 'é', data: { rounds: [{ attFactors: 2 }], b: 1 } } };
    expect(eventLine(event)).toBe(JSON.stringify(eventRecord(event)));
    const plain = { ...event, event: { type: 'move', text: '', power: 'GER' } };
    expect(eventLine(plain)).toBe(JSON.stringify(eventRecord(plain)));
    const decision = { matchId: 'm', seq: 0, impulseSeq: 0, position, power: 'A', seat: 's', prompt: 'x', optionCount: 3, choice: 'c"', thinkMs: 0.25, rationale: 'r' };
    expect(decisionLine(decision)).toBe(JSON.stringify(decisionRecord(decision)));
    const { rationale: _, ...bare } = decision;
    expect(decisionLine(bare)).toBe(JSON.stringify(decisionRecord(bare)));
  });
});
