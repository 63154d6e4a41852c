import { describe, expect, it } from 'vitest';
import { conformance500 } from './conformance.ts';

describe('Scenario B conformance', () => {
  it('passes on 500 seeds, gives different games for different seeds, and random play reaches both outcomes', () => {
    const all = conformance500('B');
    expect(new Set(all.map((p) => p.winners[0])).size).toBe(2);
    // ~45 s alone on a 2-vCPU machine; room for a loaded one (a budget, not a speed test: bench/ measures speed).
  }, 240_000);
});
