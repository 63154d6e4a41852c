/**
 * 9.7 Non-motorized Land Blitz: a Land Blitz paid with a saved Resource instead of Oil, in which only
 * one ARM, air or naval unit may move or fight. The engine makes the first such unit that moves or is
 * committed to a combat the one: every other ARM, air or naval unit of the power is held back.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, options, pack, play, reach, until } from '../helpers.ts';

/** Germany at its first Blitz choice of the full game, with `saved` Resources saved. */
function atChoice(optional: string | undefined, saved: number): BlitzState {
  const s = structuredClone(reach(blitz.setup('full', pack, optional ? { optional } : {}), 'GER', 'blitz-choice'));
  s.saved!.GER = saved;
  return arrange(s, {});
}

describe('9.7 the non-motorized Land Blitz', () => {
  it('is offered for a saved Resource only with the option, and only with a Resource saved', () => {
    expect(options(atChoice(undefined, 2))).not.toContain('blitz nonmotorized');
    expect(options(atChoice('9.7', 0))).not.toContain('blitz nonmotorized');
    expect(options(atChoice('9.7', 2))).toContain('blitz nonmotorized');
  });

  it('costs a saved Resource, no Oil, and gives a Land Blitz', () => {
    const s = atChoice('9.7', 2);
    const r = play(s, 'blitz nonmotorized');
    expect(r.state.saved!.GER).toBe(1);
    expect(r.state.oil!.GER).toBe(s.oil!.GER);
    expect(r.state.modes!.GER).toBe('land');
    expect(r.state.nonMotorized).toEqual({ GER: '' });
    expect(r.events.find((e) => e.type === 'blitz')!.data).toMatchObject({ mode: 'land', nonMotorized: true, resourceCost: 1 });
  });

  it('once one ARM has moved, no other ARM, air or naval unit moves or fights; other land units do', () => {
    let s = until(play(atChoice('9.7', 2), 'blitz nonmotorized').state, 'GER', 'move-pick');
    expect(options(s)).toEqual(expect.arrayContaining(['move army-group-north', 'move army-group-south', 'move army-group-b']));
    s = play(s, 'move army-group-north', 'stop').state;
    expect(s.nonMotorized).toEqual({ GER: 'army-group-north' });
    expect(options(s)).not.toContain('move army-group-south');
    expect(options(s)).toContain('move army-group-b');
    // In the combats, the air units stay out; the ARM that moved may still fight.
    s = until(s, 'GER', 'announce-attack');
    s = play(s, 'attack poland').state;
    const opts = options(s);
    expect(opts).toContain('add army-group-north');
    expect(opts.filter((o) => ['add stukas', 'add luftwaffe', 'add army-group-south'].includes(o))).toEqual([]);
  });

  it('an ordinary Land Blitz paid in Oil has no such limit, and the limit ends with the Blitz', () => {
    let s = until(play(atChoice('9.7', 2), 'blitz land').state, 'GER', 'move-pick');
    expect(s.nonMotorized).toBeUndefined();
    s = play(s, 'move army-group-north', 'stop').state;
    expect(options(s)).toContain('move army-group-south');
    s = until(s, 'GER', 'announce-attack');
    expect(options(play(s, 'attack poland').state)).toEqual(expect.arrayContaining(['add army-group-north', 'add stukas']));
    const after = reach(play(atChoice('9.7', 2), 'blitz nonmotorized').state, 'AFA', 'blitz-choice');
    expect(after.nonMotorized).toBeUndefined();
  });

  it('when the one is an air unit committed to a combat, no ARM may then move', () => {
    // Germany calls it, keeps its ARM still, and sends the Stukas into an attack first.
    let s = until(play(atChoice('9.7', 2), 'blitz nonmotorized').state, 'GER', 'announce-attack');
    s = play(s, 'attack poland', 'add stukas').state;
    expect(s.nonMotorized).toEqual({ GER: 'stukas' });
    expect(options(s)).not.toContain('add army-group-north');
    expect(options(s)).not.toContain('add luftwaffe');
  });

  it('9.7: with only ARM able to join a Ground Attack, no air unit may be its first unit (it would hold the ARM back and leave an attack with no land unit)', () => {
    let s = until(play(atChoice('9.7', 2), 'blitz nonmotorized').state, 'GER', 'announce-attack');
    // Every German land unit on the map but the ARM leaves it (a test bed).
    const foot = Object.entries(s.units).filter(([, u]) => u.power === 'GER' && u.at !== 'pool' && ['INF', 'GAR', 'PARA', 'MAR'].includes(pack.data.units.units.find((x) => x.id === u.def)!.type));
    expect(foot.length).toBeGreaterThan(0);
    s = arrange(s, { units: Object.fromEntries(foot.map(([id]) => [id, null])) });
    s = play(s, 'attack poland').state;
    expect(options(s)).toContain('add army-group-north');
    expect(options(s).filter((o) => ['add stukas', 'add luftwaffe', 'add me-109s'].includes(o))).toEqual([]);
    // Once the ARM is committed (it is the one), the attack launches.
    s = play(s, 'add army-group-north').state;
    expect(options(s)).toContain('launch');
    expect(options(s)).not.toContain('add stukas');
  });
});
