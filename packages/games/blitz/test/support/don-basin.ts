/**
 * The rulebook's running example of 6.2, 6.5 and 6.6, set up on Scenario D of the bundled pack: the
 * Soviet attack on a German-held Don Basin (Forest). The example's units stand where it puts them, at
 * the Sizes it implies (Byelorussian Front 3, Western Front 4, Far Eastern Front 1, Guards Banner Army 2
 * and the Cavalry in Stalingrad; the Transbaikal Front 1 in the Caucasus Mountains; the 1st Air Army and
 * the Small Black Sea naval unit in support; the Waffen SS Army and Army Group B, both Size 2,
 * defending). The Ukraine is German-held so the Waffen SS Army has somewhere to retreat, as it does in
 * the example. This is a position arranged for the test, not Scenario D's set-up.
 */
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, pack, play, until, type Run } from '../helpers.ts';

/** Scenario D with the Don Basin position, at the USSR's announcement of attacks (Turn 3, no Snow). */
export function donBasin(): BlitzState {
  const s = arrange(blitz.setup('D', pack), {
    control: { 'don-basin': 'GER', ukraine: 'GER' },
    units: {
      // Germans in the Don Basin.
      'waffen-ss-army': { power: 'GER', at: 'don-basin', size: 2 },
      'army-group-b': { power: 'GER', at: 'don-basin', size: 2 },
      // The Soviet attackers.
      'byelorussian-front': { power: 'USSR', at: 'stalingrad', size: 3 },
      'western-front': { power: 'USSR', at: 'stalingrad', size: 4 },
      'far-eastern-front': { power: 'USSR', at: 'stalingrad', size: 1 },
      'guards-banner-army': { power: 'USSR', at: 'stalingrad', size: 2 },
      cavalry: { power: 'USSR', at: 'stalingrad', size: 1 },
      'transbaikal-front': { power: 'USSR', at: 'caucasus-mountains', size: 1 },
      '1st-air-army': { power: 'USSR', at: 'stalingrad', size: 2 },
      'black-sea-fleet': { power: 'USSR', at: 'sea:black-sea', size: 2 },
      // The Soviet units the set-up has in the Ukraine make way for the German line.
      'southwestern-front': { at: 'moscow' },
      'southern-front': { at: 'moscow' },
    },
  });
  return until(s, 'USSR', 'announce-attack');
}

/** The attack announced as in the example and resolved up to the USSR's die of the Land Round. */
export function donBasinRound(): Run {
  const r = play(
    donBasin(),
    'attack don-basin',
    'add byelorussian-front',
    'add western-front',
    'add far-eastern-front',
    'add guards-banner-army',
    'add transbaikal-front',
    'add 1st-air-army',
    'add black-sea-fleet',
    'launch',
    'done',
  );
  return play(until(r.state, 'USSR', 'resolve-order'), 'resolve don-basin');
}
