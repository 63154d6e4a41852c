/**
 * 1.3 stacking: one side's land units per area, Islands holding land units of Size 2 at most, and at
 * most Size 2 attacking an Island (5.3). The bundled pack has no Island in play in A or B, so these
 * tests mark Scotland as one in a copy of the pack.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { PackFiles } from '../../src/pack/schema.ts';
import { arrange, options, pack, play, skipTo } from '../helpers.ts';

const islandPack = (() => {
  const files = structuredClone(pack.data) as PackFiles;
  files.map.lands.find((l) => l.id === 'scotland')!.island = true;
  const r = blitz.checkPack(files);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.pack;
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
