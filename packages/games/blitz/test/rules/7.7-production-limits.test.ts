/**
 * 7.7 a neutral major power's production limit, with the rulebook's example (the USA at the end of
 * Turn 2 of the full game, continuing 7.6's) played through to the USA's builds.
 */
import { describe, expect, it } from 'vitest';
import { usaBuilds } from '../support/usa-turn-2.ts';

describe('7.7 example: the USA\'s It\'s War! marker is in box 7', () => {
  it('the USA, still neutral, may use only 7 of its Oil and Resources (12 are its own, besides China\'s)', () => {
    const s = usaBuilds();
    expect(s.neutral).toContain('USA');
    expect(s.itsWar!.USA).toBe(7);
    expect(s.res.USA).toBe(7);
  });

  // The example counts the Chinese units within the same 7 ("on USA and/or Chinese units"). The engine
  // leaves China's 2 earmarked Resources (Chungking's and the Lend Lease one) outside the limit, so the
  // USA may use 9 in all; see WORKED-EXAMPLES.md.
  it.todo('7.7 example: spending on Chinese units counts within the limit of 7 (engine disagrees: 7 + 2)');
});
