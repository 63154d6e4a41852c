/**
 * 7.3 New Weapons Development in the full game: Future Additions come a Group at a time, as many a
 * turn as the chart allows from the current Group (the bundled pack's counts are estimates), and a
 * minor country's unit picked by one power goes to the Force Pool of the major power that country is
 * allied with.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, options, pack, passUntil, play, reach } from '../helpers.ts';

/** The full game at the USSR's builds, on `turn`, with `picked` already added in earlier turns. */
const ussrBuilds = (picked: string[], turn = 8, edit: (s: BlitzState) => void = () => {}): BlitzState => {
  const s = structuredClone(reach(blitz.setup('full', pack), 'USSR', 'build-pick'));
  s.turn = turn;
  s.picked = [...(s.picked ?? []), ...picked];
  edit(s);
  return arrange(s, {});
};
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
