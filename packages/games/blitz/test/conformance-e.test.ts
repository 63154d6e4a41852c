import { describe, expect, it } from 'vitest';
import { conformanceSeeds } from './conformance.ts';

describe('Scenario E conformance', () => {
  it('passes on random games, and every game ends by the victory rules (15 VP, or most VP after Turn 15)', () => {
    // E games run about 1000 steps; see conformance.ts for how many seeds `npm test` and `npm run test:conformance` play.
    const all = conformanceSeeds('E');
    // With random bots Japan nearly always wins on the estimated Victory Cards; every game still ends with a result.
    expect(all.every((g) => g.winners.length <= 1)).toBe(true);
  }, 1_800_000);
});
