/**
 * The approximation pack shipped with Salient, as raw JSON keyed by file basename. Validate it with
 * `checkBlitzPack` before use; it is NOT the published game's components (see its README).
 */
import pack from '../../packs/approximation/pack.json' with { type: 'json' };
import map from '../../packs/approximation/map.json' with { type: 'json' };
import units from '../../packs/approximation/units.json' with { type: 'json' };
import combatChart from '../../packs/approximation/combat-chart.json' with { type: 'json' };
import scenarios from '../../packs/approximation/scenarios.json' with { type: 'json' };

/** The bundled approximation pack for Scenarios A and B, one key per file (unvalidated). */
export const approximationPack: Readonly<Record<'pack' | 'map' | 'units' | 'combat-chart' | 'scenarios', unknown>> = {
  pack,
  map,
  units,
  'combat-chart': combatChart,
  scenarios,
};
