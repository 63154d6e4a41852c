/** Test fixture shared by the hexmap tests. */
import type { HexMapJsonInput } from '../../src/index.ts';

/** A small E&A-like map around the Argonne and the Crimea facts. */
export function small(): HexMapJsonInput {
  return {
    format: 'salient.hexmap/1',
    scheme: 'rrcc-skewed',
    fidelity: 'approximation',
    rows: [26, 29],
    cols: [49, 53],
    terrains: ['clear', 'forest', 'sea'],
    hexes: [
      { id: '2751', terrain: 'forest', country: 'FR', fort: true, name: 'Argonne' },
      { id: '2851', terrain: 'clear', country: 'FR', port: true, weatherZone: 'west' },
      { id: '2852', terrain: 'clear', country: 'GE', beach: true, weatherZone: 'west' },
      { id: '2750', terrain: 'clear', country: 'FR' },
      { id: '2652', terrain: 'sea', country: null },
    ],
    hexsides: [
      { between: ['2751', '2851'], features: ['river'], name: 'Aisne' },
      { between: ['2851', '2852'], features: ['border', 'major-river'] },
    ],
    cities: [{ hex: '2851', name: 'Verdun', size: 'minor', source: 'digest §6 (test)' }],
    rail: [['2751', '2750']],
    countries: { FR: { name: 'France' }, GE: { name: 'Germany' } },
    lines: { front: [['2751', '2852']] },
  };
}
