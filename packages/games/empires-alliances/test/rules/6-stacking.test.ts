/** 6 Stacking: the limits and both examples of 6.1, air basing (6.3), British/French (18.41). */
import { describe, expect, it } from 'vitest';
import { airCapacity, nationsMayStack, stackLegal } from '../../src/rules/stacking.ts';
import { prof } from '../helpers.ts';

const s = (...ids: string[]) => stackLegal(ids.map(prof));

describe('6.1 ground stacking', () => {
  it('first example: 3 infantry corps, 1 field artillery, a siege and a tank', () => {
    expect(s('fr-inf-464', 'fr-inf-464', 'fr-inf-353', 'fr-fa-333', 'fr-siege-323', 'fr-tank-222')).toBe(true);
  });
  it('second example: 1 infantry, 1 cavalry, 2 field artillery, a siege and a tank', () => {
    expect(s('fr-inf-464', 'fr-cav-335', 'fr-fa-333', 'fr-fa-443', 'fr-siege-323', 'fr-tank-222')).toBe(true);
  });
  it('a second field artillery needs 2 Inf/Cav or fewer; a fourth Inf/Cav is too many', () => {
    expect(s('fr-inf-464', 'fr-inf-464', 'fr-inf-464', 'fr-fa-333', 'fr-fa-333')).toBe(false);
    expect(s('fr-inf-464', 'fr-inf-464', 'fr-inf-464', 'fr-inf-464')).toBe(false);
    expect(s('fr-siege-323', 'ge-siege-323')).toBe(false);
    expect(s('gb-tank-222', 'gb-tank-222')).toBe(false);
  });
  it('counts divisions as units: 3 Belgian divisions fill a hex', () => {
    expect(s('be-inf-233', 'be-inf-233', 'be-inf-233')).toBe(true);
    expect(s('be-inf-233', 'be-inf-233', 'be-inf-233', 'gb-inf-464')).toBe(false);
  });
});

describe('6.3 air basing', () => {
  it('two air units in a major city, one in a minor', () => {
    expect([airCapacity('major'), airCapacity('minor'), airCapacity(undefined)]).toEqual([2, 1, 0]);
  });
});

describe('18.4 British and French do not stack (18.41)', () => {
  it('British and French (US counting French) may not share a hex; Belgians may join either', () => {
    expect(nationsMayStack([prof('gb-inf-464'), prof('fr-inf-464')])).toBe(false);
    expect(nationsMayStack([prof('ca-inf-574'), prof('us-inf-574')])).toBe(false);
    expect(nationsMayStack([prof('gb-inf-464'), prof('be-inf-233')])).toBe(true);
    expect(nationsMayStack([prof('fr-inf-464'), prof('us-inf-574')])).toBe(true);
  });
});
