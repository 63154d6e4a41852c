import { describe, expect, it } from 'vitest';
import { conformanceSeeds } from './conformance.ts';

describe('Scenario D conformance', () => {
  it('passes on random games, gives different games for different seeds, and random play reaches more than one outcome', () => {
    // D games run about 2000 steps; see conformance.ts for how many seeds `npm test` and `npm run test:conformance` play.
    const all = conformanceSeeds('D');
    expect(new Set(all.map((p) => p.winners.join() || 'draw')).size).toBeGreaterThanOrEqual(2);
  }, 1_800_000);
});
