import { describe, expect, it } from 'vitest';
import { conformanceShort } from './conformance.ts';

describe('Scenario B conformance', () => {
  it('passes on 200 seeds (500 in npm run test:conformance), gives different games for different seeds, and random play reaches both outcomes', () => {
    const all = conformanceShort('B');
    expect(new Set(all.map((p) => p.winners[0])).size).toBe(2);
    // 500 seeds took ~45 s alone on a 2-vCPU machine; room for a loaded one (a budget, not a speed test: bench/ measures speed).
  }, 240_000);
});
