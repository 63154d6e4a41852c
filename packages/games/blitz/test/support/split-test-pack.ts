/**
 * A synthetic test bed for sides of several powers (2.1, 2.2): Scenario B with the Western Allies
 * split into the AFA and the USA, each a power and a seat of its own. The AFA keep B's Total Blitz;
 * the USA gets a Free Blitz. Every value made up for the test is marked; this is not Scenario B.
 */
import type { LoadedPack } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { checkedPack } from '../helpers.ts';
import type { PackFiles } from '../../src/pack/schema.ts';

const TEST = 'synthetic test value, not from the rulebook';

export function splitTestFiles(): PackFiles {
  const base = structuredClone(blitz.bundledPacks.approximation) as PackFiles;
  base.pack = { ...base.pack, id: 'split-test', fidelity: 'synthetic', title: 'Split Allies test bed', description: 'Scenario B with the AFA and the USA as separate powers (test only).' };
  const b = base.scenarios.scenarios.find((s) => s.id === 'B')!;
  b.name = 'The Longest Day, AFA and USA apart (test bed)';
  b.powers = [
    { id: 'GER', name: 'Germany', side: 'Axis', nations: ['GER'] },
    { id: 'AFA', name: 'Anglo-French Alliance', side: 'Allies', nations: ['AFA'] },
    { id: 'USA', name: 'United States', side: 'Allies', nations: ['USA'] },
  ];
  b.blitz = { GER: 'land', AFA: 'total', USA: 'free' };
  for (const [land, who] of Object.entries(b.control)) if (who === 'WA') b.control[land] = 'AFA';
  b.offMapIncome = { AFA: 4, USA: 2 };
  b.estimates = { ...b.estimates, powers: TEST, blitz: TEST, offMapIncome: TEST };
  return base;
}

export function splitTestPack(): LoadedPack<PackFiles> {
  return checkedPack(splitTestFiles(), 'split test pack');
}
