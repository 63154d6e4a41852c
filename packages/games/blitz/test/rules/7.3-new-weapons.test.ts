/**
 * 7.3 New Weapons Development in the full game: each major power has one Weapons Development Chart
 * (1.11), whose Groups give both its picks (7.3) and its research draws (7.8); units come a Group at
 * a time, as many a turn as the chart allows from the current Group (the bundled pack's Groups and
 * counts are estimates, bar the USSR's Group 3 Polish Air Force and its Group 4 one a turn); a minor
 * country's unit picked by one power goes to the Force Pool of the major power that country is allied
 * with, and one set aside while the country was neutral joins it when the country aligns with the
 * picker's side.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { declareWar } from '../../src/rules/politics.ts';
import { researchCandidates } from '../../src/rules/research.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, options, pack, passUntil, play, reach } from '../helpers.ts';

const p = packOf(blitz.setup('full', pack).pack);
const chart = (power: string) => p.files.scenarios.scenarios.find((x) => x.id === 'full')!.weaponCharts![power]!.groups.map((g) => g.units.map((u) => u.unit));
/** The USSR's Groups 1 and 2, picked in earlier turns. */
const USSR_1_2 = [...chart('USSR')[0]!, ...chart('USSR')[1]!];

/** The full game at `power`'s builds, on `turn`, with `picked` already added in earlier turns. */
const builds = (power: string, picked: string[], turn = 8, edit: (s: BlitzState) => void = () => {}, s0: BlitzState = blitz.setup('full', pack)): BlitzState => {
  const s = structuredClone(reach(s0, power, 'build-pick'));
  s.turn = turn;
  s.picked = [...(s.picked ?? []), ...picked];
  edit(s);
  return arrange(s, {});
};
const ussrBuilds = (picked: string[], turn = 8, edit: (s: BlitzState) => void = () => {}): BlitzState => builds('USSR', [...USSR_1_2, ...picked], turn, edit);
const picks = (s: BlitzState) => options(s).filter((o) => o.startsWith('pick ') || o.startsWith('remove '));

describe('7.3 example: the USSR\'s last Group 3 unit, the Polish Air Force, joins the AFA\'s Force Pool', () => {
  it('the Polish Air Force is the only unit the USSR may add from Group 3; Group 4 waits', () => {
    const s = ussrBuilds(['guards-banner-army']);
    expect(picks(s)).toEqual(['pick polish-air-force']);
  });

  it('picked by the USSR, it goes to the AFA\'s Force Pool (built from next turn), and the USSR may add no other unit this turn', () => {
    const s = ussrBuilds(['guards-banner-army']);
    const r = play(s, 'pick polish-air-force');
    // Group 3 is used up; Group 4 allows one unit a turn and one has been added.
    expect(picks(r.state)).toEqual([]);
    expect(r.state.pool['polish-air-force']).toEqual({ size: 1, from: 9 });
    expect(options(r.state)).not.toContain('build polish-air-force');
    // Revealed with the builds: the AFA's Force Pool.
    const after = passUntil(r.state, (x) => x.impulse !== 5 || x.turn !== 8)!;
    expect(after.turn).toBe(9);
    expect(after.pool['polish-air-force']).toEqual({ size: 1, from: 9 });
    // The AFA may build it at its next builds; the USSR may not.
    expect(options(reach(after, 'AFA', 'build-pick'))).toContain('build polish-air-force');
    expect(options(reach(after, 'USSR', 'build-pick'))).not.toContain('build polish-air-force');
  });

  it('the reveal says where it went', () => {
    const s = ussrBuilds(['guards-banner-army']);
    const r = play(s, 'pick polish-air-force');
    const events: string[] = [];
    passUntil(r.state, (x) => x.turn !== 8, { onStep: (_, ev) => events.push(...ev.filter((e) => e.type === 'weapon-pick').map((e) => e.text)) });
    expect(events).toContain("USSR adds Polish Air Force to AFA's Force Pool");
  });

  it('7.3: in Group 3 the USSR may add two units a turn (an estimate of the pack), the last one the Group 4 count allows no more after', () => {
    const s = ussrBuilds([]);
    expect(picks(s)).toEqual(['pick guards-banner-army', 'pick polish-air-force']);
    const one = play(s, 'pick guards-banner-army');
    expect(picks(one.state)).toEqual(['pick polish-air-force']);
    const two = play(one.state, 'pick polish-air-force');
    expect(picks(two.state)).toEqual([]);
  });

  it('7.3: a Poland allied with the USA instead (a test bed) sends it to the USA\'s Force Pool, though the AFA runs Polish counters', () => {
    const s = ussrBuilds(['guards-banner-army'], 8, (x) => {
      x.control.poland = 'USA';
    });
    const r = play(s, 'pick polish-air-force');
    expect(r.state.pool['polish-air-force']).toEqual({ size: 1, from: 9, power: 'USA' });
  });

  it('7.3: with Poland conquered, the USSR may set the Polish Air Force aside (it counts) or remove it from the game (it does not)', () => {
    const conquered = (x: BlitzState) => {
      x.control.poland = 'GER';
      x.conquered = [...x.conquered, 'poland'].sort();
    };
    const s = ussrBuilds(['guards-banner-army'], 8, conquered);
    expect(picks(s)).toEqual(['pick polish-air-force', 'remove polish-air-force']);
    const aside = play(s, 'pick polish-air-force');
    expect(aside.state.pool['polish-air-force']).toBeUndefined();
    expect(aside.state.setAside?.poland).toContain('polish-air-force');
    expect(picks(aside.state)).toEqual([]);
    const removed = play(s, 'remove polish-air-force');
    expect(removed.state.pool['polish-air-force']).toBeUndefined();
    expect(removed.events.map((e) => e.type)).toContain('weapon-removed');
    // Removing it used no pick: the USSR goes on to Group 4's one unit.
    expect(picks(removed.state)).toEqual(['pick 1st-air-army']);
  });
});

describe('7.3: one Weapons Development Chart per major power, for picks and research alike', () => {
  it('7.3: on Turn 1 Germany may add a unit of its Group 1 only, one a turn (the pack\'s count); Group 2 follows once Group 1 is all added', () => {
    const [g1, g2] = chart('GER') as [string[], string[]];
    const s = builds('GER', [], 1);
    expect(picks(s)).toEqual(g1.map((u) => `pick ${u}`));
    const one = play(s, `pick ${g1[0]}`);
    expect(one.state.pool[g1[0]!]).toEqual({ size: 2, from: 0 });
    expect(picks(one.state)).toEqual([]);
    // All but one of Group 1 added earlier: that one only; all of it: Group 2.
    expect(picks(builds('GER', g1.slice(0, -1), 3))).toEqual([`pick ${g1.at(-1)}`]);
    expect(picks(builds('GER', g1, 3))).toEqual(g2.map((u) => `pick ${u}`));
  });

  it('7.8: a research success draws from the Group the picks come from, not from a separate list', () => {
    const [g1] = chart('GER') as [string[]];
    const s = builds('GER', [], 1);
    expect(researchCandidates(p, s, 'GER').map((c) => c.unit)).toEqual(g1);
    // A unit picked this turn is not drawn again.
    const picked = play(s, `pick ${g1[0]}`).state;
    expect(researchCandidates(p, picked, 'GER').map((c) => c.unit)).toEqual(g1.slice(1));
    const r = play(picked, 'research', 'die 1');
    expect(blitz.pending(r.state)).toMatchObject({ kind: 'chance', prompt: 'research-draw' });
    const drawn = play(r.state, 'die 2').state;
    expect(drawn.pool[g1[2]!]).toBeDefined();
    expect(drawn.picked).toContain(g1[2]);
  });

  it('7.3/7.8: the Polish Air Force drawn by the USSR\'s research goes to the AFA\'s Force Pool, as a pick of it would', () => {
    const s = ussrBuilds(['guards-banner-army']);
    const drawn = play(s, 'research', 'die 1', 'die 1').state;
    expect(drawn.pool['polish-air-force']).toEqual({ size: 1, from: 9 });
    expect(drawn.hidden.USSR).toContainEqual(expect.objectContaining({ unit: 'polish-air-force', at: 'drawn', to: 'AFA' }));
    // Group 3 is used up by the draw; the USSR's pick this turn comes from Group 4.
    expect(picks(drawn)).toEqual(['pick 1st-air-army']);
  });
});

describe('7.3: a unit set aside for a neutral country joins the Force Pool when the country allies with the picker\'s side', () => {
  /** The full game with the Road to War played without Poland's guarantee: Poland stays a neutral minor. */
  const neutralPoland = (): BlitzState => {
    let s = blitz.setup('full', pack, { optional: '9.2' });
    while (s.roadToWar) s = play(s, 'rtw rearm').state;
    expect(s.control.poland).toBe('neutral');
    return s;
  };
  /** The USSR's pick of the Polish Air Force while Poland is neutral, revealed at the end of the builds. */
  const asideThenRevealed = (): BlitzState => {
    const s = builds('USSR', [...USSR_1_2, 'guards-banner-army'], 1, () => {}, neutralPoland());
    const r = play(s, 'pick polish-air-force').state;
    expect(r.pool['polish-air-force']).toBeUndefined();
    expect(r.setAside?.poland).toEqual(['polish-air-force']);
    return passUntil(r, (x) => x.turn !== 1)!;
  };
  const as = (s: BlitzState, power: string, side: 'Axis' | 'Allies'): BlitzState => ({ ...structuredClone(s), power, side });

  it('7.3: Germany declares war on neutral Poland, which allies with the AFA (3.2): the Polish Air Force joins the AFA\'s Force Pool at once', () => {
    const s = as(asideThenRevealed(), 'GER', 'Axis');
    expect(s.pool['polish-air-force']).toBeUndefined();
    const ev: GameEvent[] = [];
    declareWar(p, s, 'poland', ev);
    expect(s.control.poland).toBe('AFA');
    expect(s.pool['polish-air-force']).toEqual({ size: 1, from: s.turn });
    expect(s.setAside?.poland ?? []).not.toContain('polish-air-force');
    expect(s.asidePicks).toBeUndefined();
    expect(ev.find((e) => e.type === 'set-aside-return')?.text).toBe("Polish Air Force joins AFA's Force Pool as Poland allies with it");
  });

  it('7.3: the Allies declare war on Poland instead, which allies with Germany: the unit stays set aside', () => {
    const s = as(asideThenRevealed(), 'AFA', 'Allies');
    const ev: GameEvent[] = [];
    declareWar(p, s, 'poland', ev);
    expect(s.control.poland).toBe('GER');
    expect(s.pool['polish-air-force']).toBeUndefined();
    expect(s.setAside?.poland).toEqual(['polish-air-force']);
    expect(ev.some((e) => e.type === 'set-aside-return')).toBe(false);
  });

  it('7.3: the other powers do not see the set-aside pick before the builds are revealed (1.9)', () => {
    const s = builds('USSR', [...USSR_1_2, 'guards-banner-army'], 1, () => {}, neutralPoland());
    const r = play(s, 'pick polish-air-force').state;
    expect(blitz.observe(r, 'GER').setAside?.poland ?? []).not.toContain('polish-air-force');
    expect(blitz.observe(r, 'GER').asidePicks).toBeUndefined();
    expect(blitz.observe(r, 'USSR').asidePicks).toEqual({ 'polish-air-force': { by: 'USSR', size: 1 } });
  });
});
