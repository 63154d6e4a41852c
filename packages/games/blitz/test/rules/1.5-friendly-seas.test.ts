/**
 * 1.5 friendly seas, on the full game's war matrix: a sea is friendly to a side unless an air unit, BB,
 * CV or SUB of a major power at war with the power asking is there and the side has no unit there (a
 * Convoy counting as one of its units while not destroyed or at its maximum damage). Supply lines (1.7)
 * are traced through friendly seas only.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { friendlySea, inSupply } from '../../src/rules/supply.ts';
import { arrange, pack } from '../helpers.ts';

/** The full game as set up, with `wars` added to its war matrix and `edit` arranged. */
function fullGame(wars: string[], edit: Parameters<typeof arrange>[1] = {}): BlitzState {
  const s = arrange(blitz.setup('full', pack), edit);
  s.wars = [...s.wars!, ...wars].sort();
  return s;
}
const p = packOf(blitz.setup('full', pack).pack);

describe('1.5: only the warships and aircraft of a major power you are at war with make a sea unfriendly', () => {
  // Japan's Combined Fleet (a CV) alone in Micronesia; Japan at war with the AFA, not (yet) with the USA.
  const micronesia = (wars: string[], units: Parameters<typeof arrange>[1]['units'] = {}) =>
    fullGame(wars, { units: { 'combined-fleet': { power: 'JAP', at: 'sea:micronesia' }, ...units } });

  it('unfriendly to the AFA, at war with Japan; friendly to the USA, at peace with it', () => {
    const s = micronesia(['AFA~JAP']);
    expect(friendlySea(p, s, 'micronesia', 'AFA')).toBe(false);
    expect(friendlySea(p, s, 'micronesia', 'USA')).toBe(true);
  });

  it('once the USA is at war with Japan, unfriendly to it too', () => {
    expect(friendlySea(p, micronesia(['AFA~JAP', 'JAP~USA']), 'micronesia', 'USA')).toBe(false);
  });

  it('so Japanese warships do not cut a USA supply line while the two are at peace: the US 1st Army on Manila, Japan\'s fleets alone on both its seas', () => {
    const manila = (wars: string[]) =>
      fullGame(wars, { units: { 'us-1st-army': { at: 'manila' }, 'combined-fleet': { power: 'JAP', at: 'sea:south-china-sea' }, '6th-fleet': { power: 'JAP', at: 'sea:east-china-sea' } } });
    expect(inSupply(p, manila([]), 'us-1st-army')).toBe(true);
    expect(inSupply(p, manila(['JAP~USA']), 'us-1st-army')).toBe(false);
  });

  it('any unit of your side there makes it friendly again, an unarmed one of an ally included (a USA Lend Lease unit, for the AFA)', () => {
    const s = micronesia(['AFA~JAP'], { 'bay-of-bengal-ll': { power: 'USA', at: 'sea:micronesia', size: 1 } });
    expect(friendlySea(p, s, 'micronesia', 'AFA')).toBe(true);
  });

  it('a Convoy counts as one of your side\'s units unless at its maximum damage or destroyed', () => {
    // A Japanese SUB alone with the USA Convoy in the Gulf of Alaska, the USA at war with Japan.
    const gulf = fullGame(['JAP~USA'], { units: { '6th-fleet': { power: 'JAP', at: 'sea:gulf-of-alaska' } } });
    expect(friendlySea(p, gulf, 'gulf-of-alaska', 'USA')).toBe(true);
    const damaged = structuredClone(gulf);
    damaged.convoys = { ...damaged.convoys, 'usa-convoy': 1 };
    expect(friendlySea(p, damaged, 'gulf-of-alaska', 'USA')).toBe(false);
    // Destroyed (3.5): no USA land area on its sea is friendly any more.
    const destroyed = structuredClone(gulf);
    for (const l of ['west-coast', 'alaska', 'hawaii']) destroyed.control[l] = 'JAP';
    expect(friendlySea(p, destroyed, 'gulf-of-alaska', 'USA')).toBe(false);
  });
});
