/**
 * The approximation pack shipped with Salient, as raw JSON keyed by file basename. Validate it with
 * `checkEaPack` before use; it is NOT the published game's components (see its README).
 */
import pack from '../../packs/approximation/pack.json' with { type: 'json' };
import charts from '../../packs/approximation/charts.json' with { type: 'json' };
import counters from '../../packs/approximation/counters.json' with { type: 'json' };
import scenarios from '../../packs/approximation/scenarios.json' with { type: 'json' };

/** The bundled approximation pack for Scenario 3 (1918), one key per file (unvalidated). */
export const approximationPack: Readonly<Record<'pack' | 'charts' | 'counters' | 'scenarios', unknown>> = { pack, charts, counters, scenarios };
