/**
 * Every fact the rulebook text states that the approximation pack must honour (digest §4.1-4.10, §5.3).
 * A test here fails when an edit to the pack breaks one.
 */
import { describe, expect, it } from 'vitest';
import { approximationPack } from '../src/pack/bundled.ts';
import { CRT_COLUMNS, CRT_RESULTS } from '../src/pack/schema.ts';
import { dealSector } from '../src/rules/setup.ts';
import { stackLegal } from '../src/rules/stacking.ts';
import { CHARTS, PACK, prof, S3 } from './helpers.ts';

const rank = (r: string): number => (CRT_RESULTS as readonly string[]).indexOf(r);

describe('CRT (13.6, 13.7)', () => {
  it('has 11 columns 1-5..7-1 and 14 net rolls -1..12', () => {
    expect(CHARTS.crt.columns).toEqual([...CRT_COLUMNS]);
    expect(CHARTS.crt.results).toHaveLength(11);
    for (const row of CHARTS.crt.results) expect(row).toHaveLength(14);
  });
  it('gives DD at 2-1 on a net 9 (13.643 example: 2-1, +2, a 7)', () => {
    expect(CHARTS.crt.results[CRT_COLUMNS.indexOf('2-1')]![9 + 1]).toBe('DD');
  });
  it('is monotone in the roll (higher rolls never worse for the attacker) and in the odds', () => {
    CHARTS.crt.results.forEach((row, c) => {
      for (let r = 1; r < row.length; r++) expect(rank(row[r]!)).toBeGreaterThanOrEqual(rank(row[r - 1]!));
      if (c > 0) row.forEach((x, r) => expect(rank(x)).toBeGreaterThanOrEqual(rank(CHARTS.crt.results[c - 1]![r]!)));
    });
  });
  it('uses all eight results of 13.7', () => {
    expect(new Set(CHARTS.crt.results.flat())).toEqual(new Set(CRT_RESULTS));
  });
});

describe('TEC (8.1, 12.1, 16.3)', () => {
  it('gives Tanks no DRM against forest, swamp or mountain and only there', () => {
    const no = Object.entries(CHARTS.tec.terrain).filter(([, t]) => t.noTankDrm).map(([k]) => k).sort();
    expect(no).toEqual(['forest', 'mountain', 'swamp']);
  });
  it('raises AV odds for forest, swamp and major cities (12.1)', () => {
    expect(CHARTS.tec.terrain.forest.avHarder && CHARTS.tec.terrain.swamp.avHarder && CHARTS.tec.majorCity.avHarder).toBe(true);
    expect(CHARTS.tec.terrain.clear.avHarder).toBe(false);
  });
  it('has 2-MP hexes (S1 1.61) and clear at 1 MP', () => {
    expect(CHARTS.tec.terrain.clear.mp).toBe(1);
    expect(Object.values(CHARTS.tec.terrain).some((t) => t.mp === 2)).toBe(true);
  });
  it('halves a Tank across a river (16.3) and allows no attack across sea, lake or strait (13.2)', () => {
    expect(CHARTS.tec.hexside.river.tankHalved).toBe(true);
    for (const f of ['sea', 'lake', 'strait'] as const) expect(CHARTS.tec.hexside[f].attackTimes.num).toBe(0);
  });
  it('marks every TEC estimate with its reasoning', () => {
    for (const t of ['clear', 'forest', 'mountain', 'swamp'] as const) expect(Object.keys(CHARTS.tec.terrain[t].estimates ?? {})).toContain('mp');
  });
});

describe('Weather Table (20)', () => {
  const count = (month: keyof typeof CHARTS.weather.byMonth, w: string): number => CHARTS.weather.byMonth[month].filter((x) => (typeof x === 'string' ? x : x[0]) === w).length;
  it('follows the seasons in the West: summer mostly clear, winter mostly snow', () => {
    for (const m of ['jun', 'jul', 'aug'] as const) expect(count(m, 'clear')).toBeGreaterThanOrEqual(8);
    for (const m of ['jan', 'feb'] as const) expect(count(m, 'snow')).toBeGreaterThanOrEqual(3);
    for (const m of ['may', 'jun', 'jul', 'aug', 'sep'] as const) expect(count(m, 'snow')).toBe(0);
  });
  it('is never milder in the East than in the West on the same die', () => {
    const order = ['clear', 'mud', 'snow'];
    for (const row of Object.values(CHARTS.weather.byMonth)) for (const x of row) if (typeof x !== 'string') expect(order.indexOf(x[1])).toBeGreaterThanOrEqual(order.indexOf(x[0]));
  });
});

describe('War Weariness Table (21)', () => {
  it('covers modified rolls 1..15 with NE, R10, R30, M, D and S, worsening with the roll', () => {
    const t = CHARTS.warWeariness.results;
    expect(t).toHaveLength(15);
    for (const code of ['NE', 'R10', 'R30', 'M', 'D', 'S']) expect(t).toContain(code);
    const sev = (c: string): number => (c === 'NE' ? 0 : c.startsWith('R') ? Number(c.slice(1)) / 100 : c === 'M' ? 1 : c === 'D' ? 2 : 3);
    for (let i = 1; i < t.length; i++) expect(sev(t[i]!)).toBeGreaterThanOrEqual(sev(t[i - 1]!));
    expect(t[14]).toBe('S');
  });
});

describe('Rail Capacity (9.5)', () => {
  it('is 12 for Germany, 9 for the other majors, 3 for Belgium; the US on the French net', () => {
    expect(CHARTS.railCapacity.corps).toEqual({ GE: 12, FR: 9, GB: 9, AH: 9, BE: 3 });
    expect(CHARTS.railCapacity.usesNetOf?.US).toBe('FR');
    expect(CHARTS.railCapacity.usesNetOf?.LU).toBe('GE');
  });
});

describe('Sea Capacity Chart (11.6, 14.53, 2.3, 2.6)', () => {
  it('counts corps per country (Britain 3, France 2, the US 2, Germany 1; the Commonwealth on Britain\'s) and puts Britain on the Atlantic', () => {
    expect(CHARTS.seaCapacity.corps).toEqual({ GB: 3, FR: 2, US: 2, GE: 1 });
    expect(CHARTS.seaCapacity.usesCapacityOf).toEqual({ CA: 'GB', AU: 'GB' });
    expect(CHARTS.seaCapacity.boxes.Britain).toBe('atlantic');
    for (const k of ['corps', 'ports', 'boxes']) expect(CHARTS.seaCapacity.estimates?.[k]).toBeTruthy();
  });
  it('lists only port cities of the bundled map, each on one sea (2.6: the Channel ports on the Atlantic, Marseilles on the Mediterranean, Danzig on the Baltic)', () => {
    const map = (approximationPack as { map: { hexes: { id: string; port?: boolean }[]; cities: { hex: string; name: string }[] } }).map;
    const ports = new Set(map.hexes.filter((h) => h.port).map((h) => h.id));
    for (const name of Object.keys(CHARTS.seaCapacity.ports)) {
      const c = map.cities.find((x) => x.name === name);
      expect(c, name).toBeDefined();
      expect(ports.has(c!.hex), name).toBe(true);
    }
    expect([CHARTS.seaCapacity.ports.Calais, CHARTS.seaCapacity.ports['Le Havre'], CHARTS.seaCapacity.ports.Marseilles, CHARTS.seaCapacity.ports.Danzig]).toEqual(['atlantic', 'atlantic', 'mediterranean', 'baltic']);
  });
});

describe('S3 3.3/S3 3.4/3.1 set-up and counters', () => {
  const sideTotals = (side: 'CP' | 'AL', nations: string[]): Record<string, number> => {
    const out: Record<string, number> = {};
    for (const s of S3.sectors.filter((x) => x.side === side)) for (const [p, n] of Object.entries(s.units)) if (nations.includes(prof(p).nation)) out[p] = (out[p] ?? 0) + n;
    return out;
  };
  it('has the German sector hexes and totals of 3.41 (8 Stoss, 2 6-8-4, 2 5-7-4, 18 4-6-4, 18 4-6-3, 1 Cav, 2+9+1 FA, 1 Siege)', () => {
    expect(S3.sectors.filter((s) => s.side === 'CP').map((s) => `${s.id}:${s.hexes.join(' ')}`)).toEqual([
      'A:2151 2252 2251',
      'B:2352 2453 2351 2452 2451',
      'C:2552 2652 2751 2551 2651',
      'D:2750 2850 2749 2849',
      'E:2949 3049 3148 3249 3349',
    ]);
    expect(sideTotals('CP', ['GE'])).toEqual({
      'ge-stoss-574': 8,
      'ge-inf-684': 2,
      'ge-inf-574': 2,
      'ge-inf-464': 18,
      'ge-inf-463': 18,
      'ge-cav-445': 1,
      'ge-fa-443': 2,
      'ge-fa-333': 9,
      'ge-fa-223': 1,
      'ge-siege-323': 1,
    });
  });
  it('has the French totals of 3.32/3.42 and the British of 3.33/3.43', () => {
    expect(sideTotals('AL', ['FR'])).toEqual({ 'fr-inf-574': 2, 'fr-inf-464': 15, 'fr-inf-463': 2, 'fr-inf-353': 6, 'fr-cav-335': 1, 'fr-fa-443': 1, 'fr-fa-333': 7, 'fr-siege-323': 1, 'fr-tank-222': 1 });
    expect(sideTotals('AL', ['GB', 'CA', 'AU'])).toEqual({ 'gb-inf-574': 2, 'gb-inf-464': 9, 'ca-inf-574': 1, 'au-inf-574': 1, 'gb-cav-335': 1, 'gb-fa-443': 1, 'gb-fa-333': 3, 'gb-tank-222': 2 });
  });
  it('cannot fit Sector A into its three hexes without the two garrison corps (3.63 and 6.1)', () => {
    const a = S3.sectors.find((s) => s.id === 'A')!;
    const units = Object.entries(a.units).flatMap(([p, n]) => Array<string>(n).fill(p));
    expect(() => dealSector(a.hexes.length, units.map(prof))).toThrow(/6.1/);
  });
  it('fits every sector into its hexes under 6.1 once 3.63 takes two garrison corps out of Sector A', () => {
    for (const s of S3.sectors) {
      const units = Object.entries(s.units).flatMap(([p, n]) => Array<string>(n - S3.garrisons.filter((g) => g.sector === s.id && g.profile === p).reduce((a, g) => a + g.count, 0)).fill(p));
      const dealt = dealSector(s.hexes.length, units.map(prof));
      for (const hex of dealt) expect(stackLegal(hex.map((i) => prof(units[i]!))), `sector ${s.id}`).toBe(true);
      expect(dealt.flat().length).toBe(units.length);
    }
    expect(S3.garrisons.reduce((a, g) => a + g.count, 0)).toBe(2);
    expect(S3.garrisons.every((g) => g.sector === 'A')).toBe(true);
  });
  it('places the Belgians (3 × 2-3-3 XX, at least one in 2152), the US (4 × 5-7-4 XX by 3152) and the air units', () => {
    const be = S3.placements.filter((p) => p.profile === 'be-inf-233');
    expect(be.reduce((a, p) => a + p.count, 0)).toBe(3);
    expect(be.every((p) => p.at === '2152' || p.at === '2153')).toBe(true);
    expect(be.some((p) => p.at === '2152')).toBe(true);
    expect(S3.placements.find((p) => p.profile === 'us-inf-574')).toMatchObject({ count: 4, at: '3152', within: 1 });
    expect(S3.placements.find((p) => p.profile === 'ge-air')).toMatchObject({ count: 2, at: 'Lille' });
    expect(S3.placements.find((p) => p.profile === 'fr-air')).toMatchObject({ count: 1, at: 'Reims' });
    expect(S3.placements.filter((p) => p.profile === 'gb-air').reduce((a, p) => a + p.count, 0)).toBe(1);
  });
  it('has the forts and railheads of 3.41, 3.42 and 3.46', () => {
    expect(S3.forts.map((f) => `${f.at}(${f.level})`)).toEqual(['Metz(2)', 'Strassburg(2)', 'Paris(2)', 'Verdun(2)', 'Toul(2)', 'Epinal(2)', 'Belfort(1)']);
    expect(S3.railheads).toEqual(['2352', '2552', '2652', '2751', '2850', '3349']);
  });
});

describe('S3 3.5/S3 3.6/S3 3.7 reinforcements, replacements, morale and victory', () => {
  it('runs March to November 1918 (3.1)', () => {
    expect([S3.first, S3.last]).toEqual(['1918-03', '1918-11']);
  });
  it('has the special reinforcements of 3.511', () => {
    expect(S3.reinforcements).toContainEqual(expect.objectContaining({ month: '1918-04', profile: 'fr-inf-464', count: 1, at: 'Dijon' }));
    expect(S3.reinforcements).toContainEqual(expect.objectContaining({ month: '1918-07', profile: 'ah-inf-353', count: 1, at: 'Stuttgart' }));
  });
  it('marks every other reinforcement as an estimate', () => {
    for (const r of S3.reinforcements) if (!(r.refs ?? []).includes('S3 3.511')) expect(Object.keys(r.estimates ?? {}).length).toBeGreaterThan(0);
  });
  it('gives A-H and Belgium no replacements, and the Commonwealth 2 stored Inf RPs (3.52)', () => {
    const nations = S3.replacements.map((r) => r.nation);
    expect(nations).not.toContain('AH');
    expect(nations).not.toContain('BE');
    expect(S3.replacements.find((r) => r.nation === 'CA')!.start).toEqual({ inf: 2, art: 0, tank: 0 });
  });
  it('starts France at +1 and Germany, Britain and Belgium at 0 (3.68b)', () => {
    expect(S3.morale).toEqual({ GE: 0, GB: 0, BE: 0, FR: 1 });
  });
  it('counts the 15 places of 3.71 and the bands of 3.72', () => {
    expect(S3.victory.places.filter((p) => p.kind === 'take').map((p) => p.place)).toEqual(['Lille', 'Reims', 'Nancy', 'Verdun', 'Paris', 'Antwerp', 'Brussels', 'Calais', 'Amiens', '2453']);
    expect(S3.victory.places.filter((p) => p.kind === 'hold').map((p) => p.place)).toEqual(['Metz', 'Strassburg', 'Cologne', 'Aachen', 'Saarbrucken']);
    expect(S3.victory.bands).toEqual([7, 9, 11, 12.5]);
  });
  it('is an approximation pack that says so', () => {
    expect(PACK.pack.fidelity).toBe('approximation');
    expect(PACK.pack.description).toContain('NOT the published');
  });
});

describe('S3 3.4 Sector K with the Belgians (3.43, 3.44)', () => {
  it('deals the British around the three Belgian divisions in 2152 and 2153 within 6.1', () => {
    const k = S3.sectors.find((s) => s.id === 'K')!;
    const units = Object.entries(k.units).flatMap(([p, n]) => Array<string>(n).fill(p)).map(prof);
    const already = k.hexes.map((h) => S3.placements.filter((p) => p.at === h).flatMap((p) => Array<string>(p.count).fill(p.profile)).map(prof));
    const dealt = dealSector(k.hexes.length, units, already);
    dealt.forEach((hex, i) => expect(stackLegal([...already[i]!, ...hex.map((j) => units[j]!)])).toBe(true));
  });
});
