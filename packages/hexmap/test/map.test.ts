import { describe, expect, it } from 'vitest';
import { SalientError } from '@salient/engine';
import { checkHexMap, HexFlag, loadHexMap, NO_TERRAIN, SideFeature, syntheticMapJson } from '../src/index.ts';
import { small } from './support/small-map.ts';

describe('loadHexMap', () => {
  it('builds the typed arrays from the JSON', () => {
    const m = loadHexMap(small(), { source: 'small.json' });
    const a = m.hex('2751');
    const b = m.hex('2851');
    const c = m.hex('2852');
    expect(m.hexCount).toBe(5);
    expect(m.terrainName(a)).toBe('forest');
    expect(m.countryCode(c)).toBe('GE');
    expect(m.countryCode(m.hex('2652'))).toBeUndefined();
    expect(m.flags[a]).toBe(HexFlag.FORT);
    expect(m.flags[b]).toBe(HexFlag.PORT);
    expect(m.flags[c]).toBe(HexFlag.BEACH);
    expect(m.cities[m.city[b] as number]?.name).toBe('Verdun');
    expect(m.city[a]).toBe(-1);
    expect(m.weatherZones[m.weatherZone[b] as number]).toBe('west');
    expect(m.hexNames.get(a)).toBe('Argonne');
    const ab = m.sideOf('2751', '2851');
    expect(m.sideFeatures[ab]).toBe(SideFeature.RIVER);
    expect(m.sideNames.get(ab)).toBe('Aisne');
    expect(m.sideHas(m.sideOf('2852', '2851'), SideFeature.BORDER | SideFeature.MAJOR_RIVER)).toBe(true);
    expect(m.sideHas(m.sideOf('2750', '2751'), SideFeature.RAIL)).toBe(true);
    expect(m.railDirections[a]).toBe(1 << 0); // east to 2750
    expect(m.railDirections[m.hex('2750')]).toBe(1 << 3); // and back west
    expect([...m.line('front')]).toEqual([m.sideOf('2852', '2751')]);
    // On-map neighbours only: 2751's E is 2750 (on), its NE 2650 is not.
    expect(m.neighbours[a * 6 + 0]).toBe(m.hex('2750'));
    expect(m.neighbours[a * 6 + 1]).toBe(-1);
    expect(m.neighbours[a * 6 + 5]).toBe(b);
    const off = m.index('2649');
    expect(m.onMap[off]).toBe(0);
    expect(m.terrain[off]).toBe(NO_TERRAIN);
    expect(() => m.hex('2649')).toThrow(/Hex 2649 is not on the map small.json/);
    expect(() => m.line('nope')).toThrow(/no line 'nope'. Lines: front/);
    expect(() => m.sideOf('2751', '2852x')).toThrow(SalientError);
  });

  it('reports every problem with its JSON path and names the file', () => {
    const bad = small();
    bad.hexes.push({ id: '27a1', terrain: 'clear', country: 'FR' }, { id: '2751', terrain: 'marsh', country: 'XX' }, { id: '9999', terrain: 'clear', country: null });
    bad.hexsides = [{ between: ['2751', '2753'], features: ['river'] }, { between: ['2851', '2751'], features: ['lake'] }, { between: ['2751', '2851'], features: ['sea'] }];
    bad.cities = [{ hex: '2951', name: 'Nowhere', size: 'minor', source: 'x' }];
    bad.rail = [['2751', '2651']];
    let err: SalientError | undefined;
    try {
      loadHexMap(bad, { source: 'packs/x/map.json' });
    } catch (e) {
      err = e as SalientError;
    }
    expect(err).toBeInstanceOf(SalientError);
    expect(err?.code).toBe('BAD_PACK');
    expect(err?.message).toMatch(/^packs\/x\/map.json is not a valid salient.hexmap\/1 map/);
    const issues = Object.fromEntries((err?.issues ?? []).map((i) => [i.path, i.message]));
    expect(issues['$.hexes[5].id']).toMatch(/'27a1' is not a hex id: rrcc-skewed ids are four digits RRCC/);
    expect(issues['$.hexes[6].id']).toMatch(/hex 2751 is listed twice/);
    expect(issues['$.hexes[6].terrain']).toMatch(/unknown terrain 'marsh'/);
    expect(issues['$.hexes[6].country']).toMatch(/unknown country 'XX'/);
    expect(issues['$.hexes[7].id']).toMatch(/outside the map's bounds \(rows 26-29, columns 49-53\)/);
    expect(issues['$.hexsides[0].between']).toMatch(/not neighbours/);
    expect(issues['$.hexsides[2].between']).toMatch(/already described at \$.hexsides\[1\]/);
    expect(issues['$.cities[0].hex']).toMatch(/not on the map/);
    expect(issues['$.rail[0]']).toMatch(/2651 is not on the map/);
  });

  it('reports schema problems by path, under a chosen root', () => {
    const bad = { ...small(), scheme: 'hexagonal', extra: 1, hexes: [{ id: '2751', terrain: 'clear', country: 'france' }] };
    const r = checkHexMap(bad, { root: '$.map' });
    expect(r.ok).toBe(false);
    const paths = r.ok ? [] : r.issues.map((i) => i.path);
    expect(paths).toContain('$.map.hexes[0].country');
    expect(paths).toContain('$.map');
    const r2 = checkHexMap({ ...small(), scheme: 'hexagonal' });
    expect(r2.ok ? [] : r2.issues).toEqual([{ path: '$.scheme', message: expect.stringMatching(/unknown hex scheme 'hexagonal'; known schemes: rrcc-skewed, rrcc-offset-odd/) }]);
  });

  it('refuses bounds its scheme cannot write as ids', () => {
    const r = checkHexMap({ ...small(), rows: [26, 100] });
    expect(r.ok ? [] : r.issues).toEqual([{ path: '$.rows[1]', message: expect.stringMatching(/row 100 cannot be written as a rrcc-skewed id/) }]);
  });

  it('lists on-map hexes within a radius', () => {
    const m = loadHexMap(small());
    expect(m.hexesWithin(m.hex('2751'), 1).map((h) => m.id(h)).sort()).toEqual(['2750', '2751', '2851', '2852']);
    expect(m.hexesWithin(m.hex('2751'), 0).map((h) => m.id(h))).toEqual(['2751']);
  });

  it('loads the synthetic E&A-size map', () => {
    const m = loadHexMap(syntheticMapJson(), { source: 'synthetic' });
    expect(m.hexCount).toBe(3906);
    expect(m.fidelity).toBe('synthetic');
    let rail = 0;
    for (const f of m.sideFeatures) if (f & SideFeature.RAIL) rail++;
    expect(rail).toBeGreaterThan(1000);
  });
});
