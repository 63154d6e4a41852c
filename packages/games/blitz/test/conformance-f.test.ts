import { describe, expect, it } from 'vitest';
import { conformanceSeeds } from './conformance.ts';

describe('Scenario F conformance', () => {
  it('passes on random games, gives different games for different seeds, and random play reaches more than one outcome', () => {
    // F games run about 3500 steps; see conformance.ts for how many seeds `npm test` and `npm run test:conformance` play.
    const all = conformanceSeeds('F');
    expect(new Set(all.map((p) => p.winners.join() || 'draw')).size).toBeGreaterThanOrEqual(2);
  }, 1_800_000);
});
