/**
 * A synthetic test bed for the 5.3 example of joint AFA and USA attacks on Western Germany (#29 in
 * `WORKED-EXAMPLES.md`): the bundled pack with a Factory of Factor 1 in Western Germany, so that the
 * example's Factory Attack can be announced. The text never says Western Germany has a Factory (the
 * map is not in it) and the bundled pack gives it none (P3); the Factor here is made up for the test
 * and marked so. This is not the published map.
 */
import type { LoadedPack } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { checkedPack } from '../helpers.ts';
import type { PackFiles } from '../../src/pack/schema.ts';

const TEST = 'synthetic test value, not from the rulebook: a Factory for the 5.3 example to attack (P3)';

export function factoryTestFiles(): PackFiles {
  const base = structuredClone(blitz.bundledPacks.approximation) as PackFiles;
  base.pack = { ...base.pack, id: 'factory-test', fidelity: 'synthetic', title: 'Western Germany Factory test bed', description: 'The bundled pack with a made-up Factory in Western Germany (test only).' };
  const wg = base.map.lands.find((l) => l.id === 'western-germany')!;
  wg.factory = 1;
  wg.estimates = { ...wg.estimates, factory: TEST };
  return base;
}

export function factoryTestPack(): LoadedPack<PackFiles> {
  return checkedPack(factoryTestFiles(), 'factory test pack');
}
