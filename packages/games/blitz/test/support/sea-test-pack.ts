/**
 * A synthetic test bed for sea area activities (4.3, 4.4, 6.3): the bundled world map and units
 * (the rulebook's sea examples are among them) (U-Boat II, the Canadian Air
 * Force, Coastal Command, the High Seas Fleet), and Scenario B with sea combat switched on and those
 * units added. Every value not stated in the rulebook is made up for the test and marked so; this is
 * neither Scenario B as published nor Scenario C.
 */
import type { LoadedPack } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { checkedPack } from '../helpers.ts';
import type { PackFiles, UnitSide } from '../../src/pack/schema.ts';

const TEST = { note: 'synthetic test value, not from the rulebook' };

export function seaTestFiles(): PackFiles {
  const base = structuredClone(blitz.bundledPacks.approximation) as PackFiles;
  base.pack = { ...base.pack, id: 'sea-test', fidelity: 'synthetic', title: 'Sea combat test bed', description: 'The A/B map with the North Atlantic, Convoys and the sea examples of 4.3 and 6.3 (test only).' };
  // The bundled world map already has the North Atlantic and its Convoy (+2, 6.3) and the France
  // Convoy in the Western Approaches (4.3 example); the test bed puts them in play.
  const side = (f: Record<string, unknown>) => f as UnitSide;
  // U-Boat II, the Canadian Air Force, Coastal Command and the High Seas Fleet are bundled units
  // (Scenario C); a German carrier is added for Air Rounds at sea.
  base.units.units.push(
    { id: 'graf-zeppelin', name: 'Graf Zeppelin', nation: 'GER', home: 'germany', type: 'CV', sizes: { '1': side({ move: 2, air: 1, naval: 1 }), '2': side({ move: 2, air: 2, naval: 2 }) }, estimates: { sizes: TEST.note } },
  );
  const b = base.scenarios.scenarios.find((s) => s.id === 'B')!;
  b.name = 'The Longest Day, with sea combat (test bed)';
  b.seas = ['north-sea', 'western-approaches', 'north-atlantic', 'mediterranean'];
  // Gibraltar decides the strait into the Mediterranean (4.2).
  b.lands.push('gibraltar');
  b.control.gibraltar = 'WA';
  b.seaCombat = true;
  b.setup.push(
    { unit: 'u-boat-ii', size: 2, at: 'paris' },
    { unit: 'high-seas-fleet', size: 2, at: 'western-germany' },
    { unit: 'canadian-air-force', size: 2, at: 'london' },
    { unit: 'coastal-command', size: 1, at: 'london' },
  );
  b.estimates = { ...b.estimates, setup: TEST.note };
  return base;
}

/** The test bed as a loaded pack (checked like any pack). */
export function seaTestPack(): LoadedPack<PackFiles> {
  return checkedPack(seaTestFiles(), 'sea test pack');
}
