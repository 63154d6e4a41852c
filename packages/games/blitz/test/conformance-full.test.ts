import { describe, expect, it } from 'vitest';
import { conformanceSeeds } from './conformance.ts';

describe('full game conformance', () => {
  it('passes on random games to the end by the victory rules, with different games for different seeds', () => {
    // Full games run about 4000 steps; see conformance.ts for how many seeds `npm test` and `npm run test:conformance` play.
    const all = conformanceSeeds('full');
    // 8: every game ends by the victory rules (a power at 15 VP or the last turn), never by the decision cap.
    expect(all.every((p) => p.winners.length >= 1)).toBe(true);
  }, 1_800_000);
});
