/**
 * The USA at the end of Turn 2 of the full game, the position of the rulebook's running example of
 * 7.6, 7.7 and 7.8: still neutral, its It's War! marker in box 6 (7 once the turn end's +1 is marked),
 * and the Bay of Bengal Lend Lease unit at sea in its named sea (the bundled pack has it start in the
 * USA's Force Pool; it is arranged on the map for the example).
 */
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, pack, reach } from '../helpers.ts';

/** Played passively to the USA's builds, after `units` are arranged. */
export function usaBuilds(units: NonNullable<Parameters<typeof arrange>[1]['units']> = {}): BlitzState {
  const s = structuredClone(blitz.setup('full', pack));
  s.turn = 2;
  s.itsWar!.USA = 6;
  return reach(arrange(s, { units: { 'bay-of-bengal-ll': { power: 'USA', at: 'sea:bay-of-bengal', size: 1 }, ...units } }), 'USA', 'build-pick');
}
