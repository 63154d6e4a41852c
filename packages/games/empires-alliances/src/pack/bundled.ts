/**
 * The approximation pack shipped with Salient, as raw JSON keyed by file basename (every `.json` file of
 * packs/approximation, so the bundled pack and the directory read by `salient pack validate` hash the
 * same). Validate it with `checkEaPack`; it is NOT the published game's components (see its README).
 */
import pack from '../../packs/approximation/pack.json' with { type: 'json' };
import charts from '../../packs/approximation/charts.json' with { type: 'json' };
import counters from '../../packs/approximation/counters.json' with { type: 'json' };
import scenarios from '../../packs/approximation/scenarios.json' with { type: 'json' };
import map from '../../packs/approximation/map.json' with { type: 'json' };
import anchors from '../../packs/approximation/anchors.json' with { type: 'json' };
import borders from '../../packs/approximation/borders-1918.json' with { type: 'json' };

/** The bundled approximation pack for Scenario 3 (1918), one key per file (unvalidated). */
export const approximationPack: Readonly<Record<string, unknown>> = { pack, charts, counters, scenarios, map, anchors, 'borders-1918': borders };
