/** The pack schema and its checks: the bundled pack loads, and bad input is named by JSON path. */
import { describe, expect, it } from 'vitest';
import { checkEaPack } from '../src/pack/check.ts';
import { rawPack } from './helpers.ts';

type AnyObj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function issuesOf(mutate: (p: AnyObj) => void): { path: string; message: string }[] {
  const p = rawPack() as AnyObj;
  mutate(p);
  const r = checkEaPack(p);
  if (r.ok) throw new Error('expected the pack to be refused');
  return r.issues;
}

describe('pack schema and checks', () => {
  it('accepts the bundled approximation pack', () => {
    expect(checkEaPack(rawPack()).ok).toBe(true);
  });

  it('names a misspelt field by its JSON path', () => {
    const issues = issuesOf((p) => {
      p.charts.tec.terrain.forest.defenceDrm = -1;
    });
    expect(issues.some((i) => i.path.startsWith('$.charts.tec.terrain.forest'))).toBe(true);
  });

  it('refuses a CRT without DD at 2-1 on a net 9 (13.643)', () => {
    const issues = issuesOf((p) => {
      p.charts.crt.results[5][10] = 'EX';
    });
    expect(issues).toEqual([expect.objectContaining({ path: '$.charts.crt.results[5][10]', message: expect.stringContaining('13.643') })]);
  });

  it('refuses a CRT row of the wrong length', () => {
    const issues = issuesOf((p) => {
      p.charts.crt.results[0].pop();
    });
    expect(issues[0]!.path).toBe('$.charts.crt.results[0]');
  });

  it('refuses a Tank DRM in forest (16.3) and a rail capacity the text excludes (9.52)', () => {
    const issues = issuesOf((p) => {
      p.charts.tec.terrain.forest.noTankDrm = false;
      p.charts.railCapacity.corps.BE = 6;
    });
    expect(issues.map((i) => i.path).sort()).toEqual(['$.charts.railCapacity.corps.BE', '$.charts.tec.terrain.forest.noTankDrm']);
  });

  it('refuses an unknown counter profile in a sector', () => {
    const issues = issuesOf((p) => {
      p.scenarios.scenarios[0].sectors[0].units['ge-inf-999'] = 1;
    });
    expect(issues[0]).toEqual(expect.objectContaining({ path: '$.scenarios.scenarios[0].sectors[0].units["ge-inf-999"]' }));
  });

  it('refuses a hex id that is not RRCC and a hex in two sectors', () => {
    expect(issuesOf((p) => (p.scenarios.scenarios[0].sectors[0].hexes[0] = '215'))[0]!.path).toBe('$.scenarios.scenarios[0].sectors[0].hexes[0]');
    const dup = issuesOf((p) => p.scenarios.scenarios[0].sectors[1].hexes.push('2151'));
    expect(dup[0]!.message).toContain('already in sector A');
  });

  it('refuses a garrison larger than its sector has', () => {
    const issues = issuesOf((p) => {
      p.scenarios.scenarios[0].garrisons[0].count = 3;
    });
    expect(issues.some((i) => i.path === '$.scenarios.scenarios[0].garrisons[0].count')).toBe(true);
  });

  it('refuses a reinforcement outside the scenario and an estimate without its reasoning', () => {
    expect(issuesOf((p) => (p.scenarios.scenarios[0].reinforcements[0].month = '1919-01'))[0]!.path).toBe('$.scenarios.scenarios[0].reinforcements[0].month');
    expect(issuesOf((p) => (p.charts.crt.estimates.results = 'guess'))[0]!.path).toBe('$.charts.crt.estimates.results');
  });
});

describe('a scenario that does not fit its map', () => {
  it('names the file, the JSON path and what to do for an unknown city or a hex off the map', async () => {
    const { empiresAlliances: game } = await import('../src/game.ts');
    const { frontPack } = await import('./support/front-map.ts');
    const raw = frontPack() as AnyObj;
    raw.scenarios.scenarios[0].placements[0].at = 'Atlantis';
    const r = game.checkPack(raw);
    if (!r.ok) throw new Error('the pack itself is sound');
    expect(() => game.setup('1918', r.pack)).toThrow(/scenarios\.json: \$\.scenarios\[0\]\.placements\[0\]\.at: no city 'Atlantis' on the map \(map\.json cities\)/);
    const raw2 = frontPack() as AnyObj;
    raw2.scenarios.scenarios[0].forts[0].at = '9999';
    const r2 = game.checkPack(raw2);
    if (!r2.ok) throw new Error('the pack itself is sound');
    expect(() => game.setup('1918', r2.pack)).toThrow(/\$\.scenarios\[0\]\.forts\[0\]\.at: hex 9999 is not on the map/);
  });
  it('names a broken map by its JSON path under map.json', () => {
    const p = rawPack() as AnyObj;
    (p.map as AnyObj).hexes[0].id = '27a1';
    const r = checkEaPack(p);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues[0]!.path).toBe('$.map.hexes[0].id');
  });
});
