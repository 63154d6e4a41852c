/**
 * The unit index (rules/query.ts) kept from one read-only question to the next and patched unit by
 * unit from the units' write log (rules/unit-writes.ts): at every step of whole random games (the
 * runner's path, units moved in place and records replaced), units by location, by owner and on the map
 * as a read-only question sees them must be what a fresh pass over `s.units` gives, and (`checkUnitLog`)
 * every question's index must match the units, so a rules write that bypassed the log throws. A list
 * handed out is never changed afterwards (the patches change in place only lists nobody was handed).
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { RngStreams } from '@salient/engine';
import { blitz } from '../src/index.ts';
import { checkUnitLog, onMap, ownedBy, readOnly, unitsAt } from '../src/rules/query.ts';
import type { BlitzState } from '../src/rules/state.ts';
import { pack } from './helpers.ts';

const applyOwned = blitz.applyOwned!;
const ids = (l: readonly [string, unknown][]) => l.map(([id]) => id).join(',');

/** Lists handed out by the last `indexDiff`, with the ids they held then. */
let held: [readonly [string, unknown][], string][] = [];
const hold = <T extends readonly [string, unknown][]>(l: T): T => {
  held.push([l, ids(l)]);
  return l;
};

/** The first list handed out before that has changed since, or ''. */
function heldDiff(): string {
  for (const [l, was] of held) if (ids(l) !== was) return `a list handed out held ${was}, now ${ids(l)}`;
  held = [];
  return '';
}

/** The first difference between the index and a fresh scan in `s`, or ''. */
function indexDiff(s: BlitzState): string {
  const ats = new Set<string>();
  const powers = new Set<string>();
  for (const u of Object.values(s.units)) {
    ats.add(u.at);
    powers.add(u.power);
  }
  // A location some unit just left, asked again (an emptied list must read as none).
  ats.add('Paris');
  return readOnly(s, () => {
    if (ids(hold(onMap(s))) !== ids(scan(s, (u) => u.at !== 'pool' && u.at !== 'gone'))) return 'on the map';
    for (const at of ats) {
      if (at === 'pool' || at === 'gone') continue;
      const kept = hold(unitsAt(s, at));
      if (ids(kept) !== ids(scan(s, (u) => u.at === at))) return `at ${at}`;
      if (kept.some(([id, u]) => s.units[id] !== u)) return `records at ${at}`;
    }
    for (const pw of powers) if (ids(hold(ownedBy(s, pw))) !== ids(scan(s, (u) => u.power === pw && u.at !== 'pool' && u.at !== 'gone'))) return `owned by ${pw}`;
    return '';
  });
}

function scan(s: BlitzState, keep: (u: BlitzState['units'][string]) => boolean): [string, unknown][] {
  return Object.keys(s.units)
    .filter((id) => keep(s.units[id]!))
    .sort()
    .map((id) => [id, s.units[id]]);
}

describe('unit index', () => {
  beforeAll(() => checkUnitLog(true));
  afterAll(() => checkUnitLog(false));
  for (const [scenario, seeds] of [['A', 12], ['B', 6], ['C', 3], ['D', 1], ['F', 1], ['full', 1]] as const) {
    it(`matches a fresh pass over the units at every step of scenario ${scenario}`, () => {
      held = [];
      for (let seed = 1; seed <= seeds; seed++) {
        const rng = new RngStreams(seed);
        let s: BlitzState = blitz.setup(scenario, pack);
        for (let step = 0; step < 20_000; step++) {
          const diff = heldDiff() || indexDiff(s);
          if (diff) throw new Error(`${scenario} seed ${seed} step ${step}: the index differs ${diff}`);
          const p = blitz.pending(s);
          if (p.kind === 'terminal') break;
          const choice = p.kind === 'decision' ? rng.get('pick').pick(p.options) : rng.get(p.stream).sample(p.outcomes);
          s = applyOwned(s, choice).state;
        }
      }
    });
  }
});
