import { describe, expect, it } from 'vitest';
import { conformanceShort } from './conformance.ts';

describe('Scenario C conformance', () => {
  it('passes on 200 seeds, gives different games for different seeds, and random play reaches more than one outcome', () => {
    const all = conformanceShort('C', 200, true);
    expect(new Set(all.map((p) => p.winners.join() || 'draw')).size).toBeGreaterThanOrEqual(2);
  }, 600_000); // about 40 s alone; over 200 s on a machine at load 14
});
