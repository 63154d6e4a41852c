/**
 * 9.3 Minor ally builds: at the builds (7.8), for each country where a power holds a Resource, it must
 * first spend one Resource (not Oil) on one of that country's units, unless none of them can be built
 * or repaired. The rulebook's example is the AFA's first turn: Australia, Canada, France, French North
 * Africa, Great Britain, India and South Africa (and Poland, which it still holds here).
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { resourceCountries } from '../../src/rules/optional.ts';
import { packOf, unitDef } from '../../src/rules/pack-index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, options, pack, play, reach } from '../helpers.ts';

const full = (optional?: string): BlitzState => blitz.setup('full', pack, optional ? { optional } : {});
const p = packOf(full().pack);
const homeOf = (o: string) => unitDef(p, o.split(' ')[1]!).home;
const spends = (o: string) => o.startsWith('repair ') || o.startsWith('build ');

describe('9.3 minor ally builds', () => {
  it("the countries owing a Resource are those where the power holds one: the AFA's are the rulebook's example", () => {
    expect(resourceCountries(p, full(), 'AFA')).toEqual(['australia', 'canada', 'france', 'french-north-africa', 'great-britain', 'india', 'poland', 'south-africa']);
  });

  it('9.3 example: having lost Poland, the AFA owes a Resource to each of its other starting countries', () => {
    const s = arrange(full(), { control: { poland: 'GER' } });
    expect(resourceCountries(p, s, 'AFA')).toEqual(['australia', 'canada', 'france', 'french-north-africa', 'great-britain', 'india', 'south-africa']);
  });

  it('without the option the AFA builds as it likes and may stop at once', () => {
    const s = reach(full(), 'AFA', 'build-pick');
    expect(options(s)).toContain('done');
    expect(new Set(options(s).filter(spends).map(homeOf)).size).toBeGreaterThan(0);
  });

  it('with it the AFA may first spend only on units of those countries (or pick a new weapon), and not stop', () => {
    const s = reach(full('9.3'), 'AFA', 'build-pick');
    const opts = options(s);
    expect(opts).not.toContain('done');
    expect(opts.filter((o) => o.startsWith('sabotage ') || o === 'research')).toEqual([]);
    const owing = new Set(resourceCountries(p, s, 'AFA'));
    const homes = new Set(opts.filter(spends).map(homeOf));
    expect(homes.size).toBeGreaterThan(1);
    for (const h of homes) expect(owing.has(h), h).toBe(true);
  });

  it("once a country's Resource is spent on one of its units, its other units wait; when every duty is met the AFA is free", () => {
    let s = reach(full('9.3'), 'AFA', 'build-pick');
    const first = options(s).find((o) => o.startsWith('repair ')) ?? options(s).find(spends)!;
    const home = homeOf(first);
    s = play(s, first).state;
    while (s.sel) s = play(s, options(s)[0]!).state; // a build's size, then where
    expect(options(s).filter(spends).map(homeOf)).not.toContain(home);
    // Meet every other duty in turn: then the usual choices come back.
    for (let i = 0; i < 20 && !options(s).includes('done'); i++) {
      const o = options(s).find(spends)!;
      s = play(s, o).state;
      while (s.sel) s = play(s, options(s)[0]!).state; // a build's size, then where
    }
    expect(options(s)).toContain('done');
  });

  it('Oil does not pay the duty: with only Oil left to spend it lapses', () => {
    const s0 = reach(full('9.3'), 'AFA', 'build-pick');
    const s = structuredClone(s0);
    s.budgetOil!.AFA = s.res.AFA!; // everything left is Oil
    expect(options(arrange(s, {}))).toContain('done');
  });
});
