/**
 * A synthetic test bed for the full game's war matrix (3.1, 3.2, 7.2): Scenario F with its wars listed
 * pair by pair (Germany and the AFA only), so the neutral USA and USSR act within their limits instead of
 * sitting out, and with the USSR allowed to declare war while neutral except on Germany and the minors of
 * its pact. Every value made up for the test is marked; this is not Scenario F.
 */
import type { LoadedPack } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { checkedPack } from '../helpers.ts';
import type { PackFiles } from '../../src/pack/schema.ts';

const TEST = 'synthetic test value, not from the rulebook';

export function warTestFiles(): PackFiles {
  const base = structuredClone(blitz.bundledPacks.approximation) as PackFiles;
  base.pack = { ...base.pack, id: 'war-test', fidelity: 'synthetic', title: 'War matrix test bed', description: 'Scenario F with a war matrix (test only).' };
  const f = base.scenarios.scenarios.find((s) => s.id === 'F')!;
  f.name = 'The Rise and Fall of Fascism with a war matrix (test bed)';
  f.wars = [['GER', 'AFA']];
  f.neutralMajors!.mayDeclare = { USSR: { except: ['GER', 'central-europe', 'finland', 'sweden'] } };
  f.estimates = { ...f.estimates, wars: TEST };
  return base;
}

export function warTestPack(): LoadedPack<PackFiles> {
  return checkedPack(warTestFiles(), 'war test pack');
}
