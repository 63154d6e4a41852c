/**
 * 2.1/2.2 and A.8/B.6: the order of impulses, which steps each Blitz allows, and the Free Blitz limits.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { arrange, options, play, prompt, skipTo, start } from '../helpers.ts';

/** Pass (done/stop/launch) until the impulse changes; returns the prompts seen in order. */
function passImpulse(s0: ReturnType<typeof start>) {
  let s = s0;
  const seen: string[] = [];
  const impulse = s.impulse;
  while (s.impulse === impulse && blitz.pending(s).kind === 'decision') {
    seen.push(prompt(s));
    const o = options(s);
    s = blitz.apply(s, o.find((x) => x === 'done' || x === 'stop') ?? o[0]!).state;
  }
  return { s, seen };
}

describe('2.2 Blitz phases', () => {
  it('2.1: a turn runs Axis activities, Allied activities, the German Land Blitz, the AFA Free Blitz, then turn end', () => {
    let s = start('A');
    const phases: string[] = [];
    for (let i = 0; i < 4; i++) {
      const pos = blitz.position(s);
      phases.push(`${pos.impulse}:${pos.phase}:${s.mode}`);
      s = passImpulse(s).s;
    }
    expect(phases).toEqual(['1:axis-activities:activities', '2:allies-activities:activities', '3:axis-blitz:land', '4:allies-blitz:free']);
    expect(s.turn).toBe(2);
    expect(s.impulse).toBe(1);
  });

  it('A.8: the German Land Blitz moves and attacks but never rebases', () => {
    let s = passImpulse(passImpulse(start('A')).s).s;
    expect(s.mode).toBe('land');
    const { seen } = passImpulse(s);
    expect(seen.some((p) => p.includes('rebase'))).toBe(false);
    expect(seen).toContain('GER:move-pick');
    s = skipTo(s, 'announce-attack');
    expect(options(s)).toContain('attack poland');
  });

  it('A.8: the AFA Free Blitz moves at most Size 4 in all, never enters enemy areas and never attacks', () => {
    let s = start('A');
    for (let i = 0; i < 3; i++) s = passImpulse(s).s;
    expect(s.mode).toBe('free');
    expect(s.freeLeft).toBe(4);
    // The Polish Army's only neighbour is German Berlin, emptied of land units here: still barred.
    s = arrange(s, { units: { 'army-group-center': { at: 'western-germany' }, 'army-group-north': { at: 'western-germany' }, '1st-para': { at: 'western-germany' } } });
    s = skipTo(s, 'move-pick');
    expect(s.control.berlin).toBe('GER');
    expect(options(s)).not.toContain('move polish-army');
    expect(options(s)).toContain('move french-1st-army');
    // Size 2 + Size 2 uses the whole budget of 4; with nothing left to move (and no combat step in a
    // Free Blitz) the impulse ends and Turn 2 begins.
    const r1 = play(s, 'move french-1st-army', 'to vichy-france', 'stop');
    expect(r1.state.freeLeft).toBe(2);
    const r2 = play(r1.state, 'move bef', 'stop');
    expect(r2.state.turn).toBe(2);
    expect(prompt(r2.state)).toBe('GER:rebase-pick');
    expect(r2.events.some((e) => e.type === 'attack-announced')).toBe(false);
  });

  it('B.6: in Scenario B the Western Allies take a Total Blitz with every step', () => {
    let s = start('B');
    for (let i = 0; i < 3; i++) s = passImpulse(s).s;
    expect(blitz.position(s).phase).toBe('allies-blitz');
    expect(s.mode).toBe('total');
    expect(prompt(s)).toBe('WA:sea-pick');
  });
});
