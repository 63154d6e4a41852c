import { describe, expect, it } from 'vitest';
import { conformance500 } from './conformance.ts';

describe('Scenario D conformance', () => {
  it('passes on 200 seeds, gives different games for different seeds, and random play reaches more than one outcome', () => {
    // D games run about 2000 steps: 20 seeds checked in full on every step, the rest on every 16th.
    const all = conformance500('D', 200, true, { seeds: 20, every: 16 });
    expect(new Set(all.map((p) => p.winners.join() || 'draw')).size).toBeGreaterThanOrEqual(2);
  }, 600_000);
});
