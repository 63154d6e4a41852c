import { describe, expect, it } from 'vitest';
import { conformanceSeeds } from './conformance.ts';

describe('full game conformance with the optional rules', () => {
  it('passes on random games with every implemented optional rule on, three players and bids, to the end by the victory rules', () => {
    // See conformance.ts for how many seeds `npm test` and `npm run test:conformance` play.
    const all = conformanceSeeds('full', { optional: ['9.1', '9.2', '9.3', '9.4', '9.5', '9.6', '9.7', '9.8', '9.9'], players: 3, bids: { 'GER+JAP': -1, 'AFA+USA': 2, USSR: -1 } });
    expect(all.every((p) => p.winners.length >= 1)).toBe(true);
  }, 1_800_000);
});
