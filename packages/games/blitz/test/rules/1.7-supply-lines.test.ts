/**
 * 1.7 supply lines, on a test bed: Scenario B's map and units with supply switched on (it comes with
 * Scenario D in the rulebook). A Western Allied army in Belgium-Netherlands traces supply across the
 * North Sea to Great Britain, until a German fleet holds that sea alone.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { PackFiles } from '../../src/pack/schema.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { friendlySea, inSupply, suppliedAreas } from '../../src/rules/supply.ts';
import { arrange, options, pack as bundled, play, prompt, skipTo, checkedPack } from '../helpers.ts';
import { seaTestFiles } from '../support/sea-test-pack.ts';

const pack = (() => {
  const files: PackFiles = seaTestFiles();
  files.pack = { ...files.pack, id: 'supply-test', description: 'Scenario B with supply lines switched on (test only).' };
  files.scenarios.scenarios.find((s) => s.id === 'B')!.supply = true;
  return checkedPack(files, 'supply test pack');
})();

/** B on Turn 9 with the Western Allies holding Belgium-Netherlands with the 2nd Army, and `extra` arranged too. */
function bridgehead(extra: Parameters<typeof arrange>[1]['units'] = {}): BlitzState {
  const s = blitz.setup('B', pack);
  return arrange(s, { control: { 'belgium-netherlands': 'WA' }, units: { '2nd-army': { at: 'belgium-netherlands' }, '15th-army': null, ...extra } });
}
/** Pass the Axis impulse; stop at the Western Allies' land moves. */
function alliedMoves(s: BlitzState): BlitzState {
  let t = s;
  for (let i = 0; i < 300 && !(blitz.position(t).impulse === 2 && prompt(t) === 'WA:move-pick'); i++) {
    const p = blitz.pending(t);
    if (p.kind !== 'decision') throw new Error(`unexpected ${prompt(t)}`);
    t = blitz.apply(t, p.options.includes('done') ? 'done' : p.options.includes('stop') ? 'stop' : p.options.at(-1)!).state;
  }
  return t;
}

describe('1.7 supply lines', () => {
  it('a line runs over friendly land and friendly seas to a home country: Belgium-Netherlands to London across the North Sea', () => {
    const s = bridgehead();
    const p = packOf(s.pack);
    expect(inSupply(p, s, '2nd-army')).toBe(true);
    // Gibraltar too, across the Western Approaches; no German-held area.
    expect(suppliedAreas(p, s, 'WA', 'great-britain', 'unit')).toEqual(new Set(['london', 'scotland', 'belgium-netherlands', 'gibraltar']));
  });

  it('a sea held alone by an enemy warship is not friendly, and the line is cut; units at sea are always in supply', () => {
    const s = bridgehead({ 'high-seas-fleet': { at: 'sea:north-sea' } });
    const p = packOf(s.pack);
    expect(friendlySea(p, s, 'north-sea', 'WA')).toBe(false);
    expect(inSupply(p, s, '2nd-army')).toBe(false);
    // A Western Allied ship in the North Sea makes it friendly again (1.5).
    const contested = arrange(s, { units: { 'north-sea-fleet': { at: 'sea:north-sea' } } });
    expect(friendlySea(p, contested, 'north-sea', 'WA')).toBe(true);
    expect(inSupply(p, contested, '2nd-army')).toBe(true);
    expect(inSupply(p, contested, 'north-sea-fleet')).toBe(true);
  });

  it('a land unit out of supply cannot move or attack', () => {
    // Paris emptied, so the 2nd Army has somewhere to go.
    const empty = { 'army-group-b': null, '7th-army': null, 'atlantic-wall': null };
    const supplied = alliedMoves(bridgehead(empty));
    expect(options(supplied)).toContain('move 2nd-army');
    const cut = alliedMoves(bridgehead({ ...empty, 'high-seas-fleet': { at: 'sea:north-sea' } }));
    expect(options(cut)).not.toContain('move 2nd-army');
    const canAttackWith = (t: BlitzState, unit: string) => {
      const announce = skipTo(play(t, 'done').state, 'announce-attack');
      return options(announce)
        .filter((o) => o.startsWith('attack '))
        .some((a) => options(play(announce, a).state).includes(`add ${unit}`));
    };
    expect(canAttackWith(supplied, '2nd-army')).toBe(true);
    expect(canAttackWith(cut, '2nd-army')).toBe(false);
  });

  it('each defending land unit out of supply gives the attackers two white triangles (6.2)', () => {
    const attack = (s: BlitzState) => {
      // Germany attacks Belgium-Netherlands from Western Germany with the Waffen SS Army.
      const a = skipTo(s, 'announce-attack');
      const r = play(a, 'attack belgium-netherlands', 'add waffen-ss-army', 'launch', 'done');
      const t = blitz.pending(r.state).kind === 'decision' && options(r.state).includes('done') ? play(r.state, 'done').state : r.state;
      const resolved = play(t, 'resolve belgium-netherlands').state;
      return resolved.combat!.log.at(-1) as { round: string; attRaw: number };
    };
    const inSup = attack(bridgehead());
    const cut = attack(bridgehead({ 'high-seas-fleet': { at: 'sea:north-sea' } }));
    expect(inSup.round).toBe('land');
    expect(cut.attRaw - inSup.attRaw).toBe(2);
  });

  it('a ship in a port out of supply moves only 1', () => {
    const s = bridgehead({ '12th-fleet': { at: 'belgium-netherlands' }, 'high-seas-fleet': { at: 'sea:north-sea' } });
    let u = s;
    for (let i = 0; i < 300 && prompt(u) !== 'WA:sea-pick'; i++) {
      const p = blitz.pending(u);
      if (p.kind !== 'decision') throw new Error(`unexpected ${prompt(u)}`);
      u = blitz.apply(u, p.options.includes('done') ? 'done' : p.options.includes('stop') ? 'stop' : p.options.at(-1)!).state;
    }
    const r = play(u, 'sail 12th-fleet');
    expect(options(r.state)).toEqual(['to north-sea']);
  });
});

describe('1.7 example: Germany has aligned the Near East', () => {
  // The full game with the Near East German-held, the Arab Legion (a Near East unit) and Army Group Center
  // in Iraq. With Allied warships alone in the Mediterranean and the Arabian Sea, and Turkey neutral, no
  // line runs from Iraq to Germany or Italy.
  const near = ['levant', 'iraq', 'persia', 'arabia'];
  const bed = (cut: boolean) =>
    arrange(blitz.setup('full', bundled), {
      control: Object.fromEntries(near.map((l) => [l, 'GER'])),
      units: {
        'arab-legion': { power: 'GER', at: 'iraq', size: 1 },
        'army-group-center': { at: 'iraq' },
        ...(cut ? { 'mediterranean-fleet': { at: 'sea:mediterranean' }, 'far-east-fleet': { at: 'sea:arabian-sea' } } : {}),
      },
    });

  it('the Near East unit traces its line from the Near East itself', () => {
    const s = bed(true);
    expect(inSupply(packOf(s.pack), s, 'arab-legion')).toBe(true);
  });

  it('Army Group Center must trace to Germany or Italy, and cannot', () => {
    const s = bed(true);
    expect(inSupply(packOf(s.pack), s, 'army-group-center')).toBe(false);
  });

  it('with the seas open it can (across the Mediterranean from Italy)', () => {
    const s = bed(false);
    expect(inSupply(packOf(s.pack), s, 'army-group-center')).toBe(true);
  });
});
