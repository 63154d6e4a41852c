/**
 * 1.3 stacking: one side's land units per area, Islands holding land units of Size 2 at most, and at
 * most Size 2 attacking an Island (5.3). The bundled pack has no Island in play in A or B, so these
 * tests mark Scotland as one in a copy of the pack.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { PackFiles } from '../../src/pack/schema.ts';
import { airDistances } from '../../src/rules/geometry.ts';
import { landDef, packOf } from '../../src/rules/pack-index.ts';
import { landNeighbours } from '../../src/rules/query.ts';
import { arrange, options, pack, play, reach, skipTo, until, checkedPack } from '../helpers.ts';

const islandPack = (() => {
  const files = structuredClone(pack.data) as PackFiles;
  files.map.lands.find((l) => l.id === 'scotland')!.island = true;
  return checkedPack(files, 'island test pack');
})();

describe('1.3 stacking', () => {
  it('an Island holds land units of Size 2 at most', () => {
    let s = blitz.setup('A', islandPack);
    s = arrange(s, { units: { 'french-1st-army': { at: 'london' } } });
    s = skipTo(play(skipTo(s, 'announce-attack'), 'done').state, 'move-pick');
    const r = play(s, 'move bef', 'to scotland');
    expect(r.state.units.bef!.at).toBe('scotland');
    const r2 = play(r.state, 'move french-1st-army');
    expect(options(r2.state)).not.toContain('to scotland');
  });

  it('at most Size 2 of land units may attack an Island', () => {
    let s = blitz.setup('A', islandPack);
    s = arrange(s, {
      control: { london: 'GER' },
      units: { bef: { at: 'scotland' }, 'home-guard': null, 'royal-air-force': { at: 'paris' }, 'army-group-center': { at: 'london' }, 'army-group-north': { at: 'london' } },
    });
    const r = play(skipTo(s, 'announce-attack'), 'attack scotland', 'add army-group-center');
    expect(options(r.state)).not.toContain('add army-group-north');
    expect(options(r.state)).toContain('launch');
  });

  it('land units of both sides never share an area outside combat', () => {
    const s = skipTo(blitz.setup('A', pack), 'move-pick');
    const r = play(s, 'move 18th-army');
    expect(options(r.state)).not.toContain('to paris'); // French units hold Paris
  });
});

describe('1.3 example: the Marines and Pacific Command on Midway', () => {
  // Scenario E: the Marines (Size 1) hold the Midway Islands, an Island with a Small Port; the 3rd Fleet
  // TRS waits off it in Micronesia with a land unit aboard, which may go ashore in the land step (B.4).
  const aboard = (unit: string, size: number, extra: NonNullable<Parameters<typeof arrange>[1]['units']> = {}) =>
    until(arrange(blitz.setup('E', pack), { units: { '3rd-fleet': { at: 'sea:micronesia', size: 1 }, [unit]: { power: 'WA', at: 'trs:3rd-fleet', size }, ...extra } }), 'WA', 'move-pick');

  it('Midway is an Island with a Small Port, held by the Western Allies, with the Marines (Size 1) there', () => {
    const s = blitz.setup('E', pack);
    const midway = landDef(packOf(s.pack), 'midway-islands');
    expect(midway.island).toBe(true);
    expect(midway.ports).toEqual([{ size: 'small', seas: ['micronesia'] }]);
    expect(s.units.marines).toMatchObject({ at: 'midway-islands', size: 1 });
  });

  it('Pacific Command (Size 1) may join them: Size 2 of land units in all', () => {
    const s = aboard('pacific-command', 1);
    const r = play(s, 'move pacific-command');
    expect(options(r.state)).toContain('to midway-islands');
    const r2 = play(r.state, 'to midway-islands');
    expect(r2.state.units['pacific-command']!.at).toBe('midway-islands');
  });

  it('a Size-2 army may not: the Island would hold Size 3 (it may land on Hawaii, an empty Island, instead)', () => {
    const s = aboard('9th-army', 2, { 'pacific-command': { at: 'west-coast' } });
    const r = play(s, 'move 9th-army');
    expect(options(r.state)).toContain('to hawaii');
    expect(options(r.state)).not.toContain('to midway-islands');
  });
});

describe('1.3 example: Spain has two Big Ports on two seas', () => {
  // The full game with Iberia on Germany's side; Gibraltar (British) closes the strait between the two seas.
  const fleetIn = (port: string) =>
    until(
      arrange(blitz.setup('full', pack), { control: { spain: 'GER', portugal: 'GER' }, units: { 'high-seas-fleet': { at: port } } }),
      'GER',
      'sea-pick',
    );

  it('on the map: one Big Port on the Western Approaches, one on the Mediterranean', () => {
    expect(landDef(packOf(fleetIn('spain').pack), 'spain').ports).toEqual([
      { size: 'big', seas: ['western-approaches'] },
      { size: 'big', seas: ['mediterranean'] },
    ]);
  });

  it('a fleet in Spain may put to sea in either', () => {
    const r = play(fleetIn('spain'), 'sail high-seas-fleet');
    expect(options(r.state)).toEqual(expect.arrayContaining(['to western-approaches', 'to mediterranean']));
  });

  it('while a fleet in Western Germany cannot reach the Mediterranean past a British Gibraltar', () => {
    const r = play(fleetIn('western-germany'), 'sail high-seas-fleet');
    expect(options(r.state)).toContain('to north-sea');
    expect(options(r.state)).not.toContain('to mediterranean');
  });
});

describe('1.3 example: Istanbul and the Turkish Straits', () => {
  // The full game; Turkey on Germany's side (Istanbul German-held) or still neutral.
  const bed = (istanbul: string, units: NonNullable<Parameters<typeof arrange>[1]['units']>) =>
    until(arrange(blitz.setup('full', pack), { control: { istanbul, ankara: istanbul }, units }), 'GER', 'sea-pick');

  it('Istanbul has a Big Port touching both the Black Sea and the Mediterranean', () => {
    expect(landDef(packOf(blitz.setup('full', pack).pack), 'istanbul').ports).toEqual([{ size: 'big', seas: ['black-sea', 'mediterranean'] }]);
  });

  it('a fleet in Istanbul may sail straight into either sea', () => {
    const s = bed('GER', { 'turkish-2nd-army': null, 'italian-fleet': { at: 'istanbul' } });
    const r = play(s, 'sail italian-fleet');
    expect(options(r.state)).toEqual(expect.arrayContaining(['to black-sea', 'to mediterranean']));
  });

  it('with Istanbul friendly, a fleet from Rome (movement 2) passes from the Mediterranean into the Black Sea; with Istanbul neutral it cannot', () => {
    const open = play(bed('GER', { 'turkish-2nd-army': null }), 'sail italian-fleet');
    expect(options(open.state)).toContain('to black-sea');
    const shut = play(bed('neutral', {}), 'sail italian-fleet');
    expect(options(shut.state)).toContain('to mediterranean');
    expect(options(shut.state)).not.toContain('to black-sea');
  });
});

describe('1.3 example: the Land Route from Stalingrad to Samarkand and the Air Route to the Caucasus', () => {
  const s0 = blitz.setup('full', pack);
  const p = packOf(s0.pack);

  it('the map has both routes; the Air Route is no land connection', () => {
    expect(landNeighbours(p, s0, 'stalingrad')).toContainEqual({ to: 'samarkand', route: true });
    expect(landNeighbours(p, s0, 'samarkand').map((n) => n.to)).not.toContain('caucasus-mountains');
  });

  it('an air unit in Samarkand reaches the Caucasus Mountains for one move, as if adjacent', () => {
    expect(airDistances(p, s0, 'samarkand', 3).get('caucasus-mountains')).toBe(1);
  });

  it('a Soviet army may go from Stalingrad to Samarkand along the Land Route, and stops there', () => {
    const s = until(arrange(s0, { units: { 'southern-front': { at: 'stalingrad', size: 1 } } }), 'USSR', 'move-pick');
    const r = play(s, 'move southern-front');
    expect(options(r.state)).toContain('to samarkand');
    const r2 = play(r.state, 'to samarkand');
    expect(r2.state.units['southern-front']!.at).toBe('samarkand');
    expect(r2.state.sel).toBeNull();
  });
});

describe('1.3 example: an AFA army enters Soviet-held Persia with the USSR\'s leave', () => {
  // The full game, with the USSR at war with Germany (as the AFA is), holding Persia with only an air
  // unit there; an AFA army in Delhi next door.
  const persia = (() => {
    const s0 = reach(blitz.setup('full', pack), 'AFA', 'move-pick');
    const w = structuredClone(s0);
    w.wars = [...w.wars!, 'GER~USSR'].sort();
    w.neutral = ['USA'];
    return arrange(w, { units: { bef: { at: 'delhi', power: 'AFA', size: 2 }, 'vvs-fighters': { at: 'persia', power: 'USSR', size: 2 } }, control: { persia: 'USSR' } });
  })();

  it('the USSR is asked; with its leave the army moves in, and the USSR rebases the air unit out to an area of its choosing', () => {
    const m = play(persia, 'move bef').state;
    expect(options(m)).toContain('to persia');
    const asked = play(m, 'to persia').state;
    expect(blitz.pending(asked)).toMatchObject({ kind: 'decision', power: 'USSR', prompt: 'ally-leave', options: ['allow persia', 'refuse persia'] });
    expect(asked.units.bef!.at).toBe('delhi');
    const r = play(asked, 'allow persia');
    expect(r.state.units.bef!.at).toBe('persia');
    expect(r.state.control.persia).toBe('USSR');
    // 6.6's overrun move: the closest areas where it can stack (the Caucasus and Samarkand, one move
    // each); the USSR picks between them.
    expect(blitz.pending(r.state)).toMatchObject({ kind: 'decision', power: 'USSR', prompt: 'rebase-out-destination', options: ['to caucasus-mountains', 'to samarkand'] });
    const out = play(r.state, 'to samarkand');
    expect(out.state.units['vvs-fighters']!.at).toBe('samarkand');
    expect(out.events.some((e) => e.type === 'rebase-out')).toBe(true);
    expect(out.state.leaving).toBeUndefined();
  });

  it('refused, the army stays out of Persia for the rest of the impulse and the air unit stays', () => {
    const r = play(persia, 'move bef', 'to persia', 'refuse persia');
    expect(r.state.units.bef!.at).toBe('delhi');
    expect(r.state.units['vvs-fighters']!.at).toBe('persia');
    expect(options(r.state)).not.toContain('to persia');
  });

  it('an air unit with nowhere to rebase to within three times its movement is destroyed', () => {
    // A test bed: every other Soviet or AFA area but Delhi is German, so no area will take it.
    const taken = Object.keys(persia.control).filter((l) => ['USSR', 'AFA'].includes(persia.control[l]!) && l !== 'persia' && l !== 'delhi');
    const far = arrange(persia, { control: Object.fromEntries(taken.map((l) => [l, 'GER'])) });
    const r = play(far, 'move bef', 'to persia', 'allow persia');
    expect(r.state.units.bef!.at).toBe('persia');
    expect(r.state.units['vvs-fighters']!.at).not.toBe('persia');
    expect(['pool', 'gone']).toContain(r.state.units['vvs-fighters']!.at);
    expect(r.events.some((e) => e.type === 'rebase-out' && !(e.data as { to?: string }).to)).toBe(true);
  });
});
