/**
 * 2.1/2.2 and A.8/B.6: the order of impulses, which steps each Blitz allows, and the Free Blitz limits.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { GameEvent } from '@salient/engine';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, eventsOf, options, pack, play, prompt, passUntil, reach, skipTo, start, until } from '../helpers.ts';

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

/** Answer `done` (else `stop`, else the first option) until a die is to be rolled; the events on the way. */
function toDie(s0: BlitzState): { state: BlitzState; events: GameEvent[] } {
  let state = s0;
  const events: GameEvent[] = [];
  for (let i = 0; i < 200; i++) {
    const q = blitz.pending(state);
    if (q.kind !== 'decision') break;
    const step = blitz.apply(state, q.options.find((o) => o === 'done' || o === 'stop') ?? q.options[0]!);
    events.push(...step.events);
    state = step.state;
  }
  return { state, events };
}

describe('2.2 example: Japan\'s Free Blitz at sea', () => {
  // Scenario E at Japan's Blitz: the Zeroes (Size 2) in a Japanese-held Hollandia, the Kamikazes (Size 1)
  // in Osaka; the USA's 8th Fleet and the Japanese Combined Fleet at sea in the Bismarck Sea, the USA's
  // 3rd Fleet in the East China Sea.
  const ready = () => {
    const s = reach(blitz.setup('E', pack), 'JAP', 'blitz-choice');
    const bed = arrange(s, {
      control: { hollandia: 'JAP' },
      units: { zeroes: { at: 'hollandia', size: 2 }, kamikazes: { power: 'JAP', at: 'osaka', size: 1 }, '8th-fleet': { at: 'sea:bismarck-sea' }, 'combined-fleet': { at: 'sea:bismarck-sea' }, '3rd-fleet': { at: 'sea:east-china-sea' } },
    });
    return play(bed, 'blitz free', 'done', 'sail zeroes', 'to bismarck-sea', 'sail kamikazes', 'to east-china-sea');
  };

  it('the Zeroes fly from Hollandia into the Bismarck Sea and the Kamikazes into the East China Sea, Size 3 of the Free Blitz\'s 4', () => {
    const r = ready();
    expect(r.state.units.zeroes!.at).toBe('sea:bismarck-sea');
    expect(r.state.units.kamikazes!.at).toBe('sea:east-china-sea');
    expect(r.state.freeLeft).toBe(1);
  });

  it('the USA decides, sea by sea, whether to fight: it declines the Bismarck Sea and takes the East China Sea', () => {
    const r = ready();
    expect(prompt(r.state)).toBe('WA:free-blitz-sea-combat');
    expect(options(r.state)).toEqual(['fight bismarck-sea', 'decline bismarck-sea']);
    const r2 = play(r.state, 'decline bismarck-sea');
    expect(eventsOf(r2, 'sea-combat-declined')).toHaveLength(1);
    expect(options(r2.state)).toEqual(['fight east-china-sea', 'decline east-china-sea']);
    const r3 = play(r2.state, 'fight east-china-sea');
    expect(eventsOf(r3, 'combat-start')[0]!.data).toMatchObject({ target: 'east-china-sea', kind: 'sea', attackers: ['kamikazes'], defenders: ['3rd-fleet'] });
  });

  // The example's Kamikazes start at sea in the Japanese Coast, return to base in Tokyo and then fly to the
  // East China Sea, counting double (2) against the 4.
  it('the Kamikazes return to base in Tokyo from the Japanese Coast and fly on to the East China Sea, counting double', () => {
    const s = reach(blitz.setup('E', pack), 'JAP', 'blitz-choice');
    const bed = arrange(s, { units: { kamikazes: { power: 'JAP', at: 'sea:japanese-coast', size: 1 }, '3rd-fleet': { at: 'sea:east-china-sea' } } });
    const back = play(bed, 'blitz free', 'return kamikazes', 'to tokyo');
    expect(back.state.units.kamikazes!.at).toBe('tokyo');
    expect(back.state.freeLeft).toBe(3);
    expect(prompt(back.state)).toBe('JAP:sea-pick');
    expect(options(back.state)).toContain('sail kamikazes');
    const r = play(back.state, 'sail kamikazes', 'to east-china-sea');
    expect(r.state.units.kamikazes!.at).toBe('sea:east-china-sea');
    expect(r.state.freeLeft).toBe(2);
  });
});

describe('2.2 example: an AFA Land Blitz and a USA Total Blitz share a sea combat', () => {
  // The full game at the Allied Blitz, with the USA at war with Germany: the AFA's North Sea Fleet and
  // Germany's U-Boat II already at sea in the North Atlantic. The AFA call a Land Blitz, the USA a Total
  // Blitz and sail the US Atlantic Fleet there.
  const ready = () => {
    const s = structuredClone(reach(blitz.setup('full', pack), 'AFA', 'blitz-choice'));
    s.wars = [...s.wars!, 'GER~USA'].sort();
    s.neutral = s.neutral!.filter((x) => x !== 'USA');
    s.oil = { ...s.oil, AFA: 1, USA: 2 };
    const bed = arrange(s, { units: { 'north-sea-fleet': { at: 'sea:north-atlantic' }, 'u-boat-ii': { at: 'sea:north-atlantic', size: 2 } } });
    return play(bed, 'blitz land', 'blitz total', 'blitz free', 'sail us-atlantic-fleet', 'to north-atlantic');
  };

  it('the AFA take no sea steps in their Land Blitz; the USA does', () => {
    const r = ready();
    expect(r.state.modes).toMatchObject({ AFA: 'land', USA: 'total' });
    expect(r.state.units['us-atlantic-fleet']!.at).toBe('sea:north-atlantic');
  });

  it('every Allied unit in the North Atlantic fights, the AFA\'s North Sea Fleet too', () => {
    const { events } = toDie(ready().state);
    const start = events.find((e) => e.type === 'combat-start' && e.data?.target === 'north-atlantic');
    expect(start?.data).toMatchObject({ kind: 'sea' });
    expect(start!.data!.attackers).toEqual(expect.arrayContaining(['north-sea-fleet', 'us-atlantic-fleet']));
    expect(start!.data!.defenders).toEqual(['u-boat-ii']);
  });
});

describe('2.2 Air Blitz: only air units act', () => {
  // Scenario D at the German Blitz: Germany has 2 saved Oil and calls an Air Blitz (1 Oil).
  it('Germany\'s Air Blitz rebases only its air units, sails no ship, moves no land unit and announces no Ground Attack, but may bomb', () => {
    const s = reach(blitz.setup('D', pack), 'GER', 'blitz-choice');
    // The same position with a Total Blitz: ships sail, armies move and attack.
    const total = play(s, 'blitz total').state;
    expect(prompt(total)).toBe('GER:sea-pick');
    const air = play(s, 'blitz air').state;
    expect(air.mode).toBe('air');
    expect(prompt(air)).toBe('GER:rebase-pick');
    expect(options(air)).toEqual(['rebase luftwaffe', 'rebase me-109s', 'rebase stukas', 'done']);
    const announce = play(air, 'done').state;
    expect(prompt(announce)).toBe('GER:announce-attack');
    expect(options(announce)).toEqual(['bomb ukraine', 'done']);
  });
});

describe('2.2 Air Blitz: carriers at sea join the power\'s own Port Attack', () => {
  // Scenario E at the Western Allies' Blitz: the 8th Fleet (a CV) at sea in the East China Sea, off
  // Formosa, where Japan's 2nd Fleet lies in port. The Western Allies call an Air Blitz.
  it('the Western Allies may raid Formosa with the 8th Fleet, though their ships take no other part in an Air Blitz', () => {
    const s0 = reach(blitz.setup('E', pack), 'WA', 'blitz-choice');
    const bed = arrange(s0, { units: { '8th-fleet': { at: 'sea:east-china-sea', size: 2 }, '2nd-fleet': { at: 'formosa', size: 2, power: 'JAP' }, 'naval-air': null } });
    // The carrier finds Japan's Convoy in the East China Sea: that sea combat comes first (every die a 3).
    const s = passUntil(play(bed, 'blitz air').state, (_, q) => q.kind === 'decision' && q.prompt === 'announce-attack', { passive: ['done', 'stop'] })!;
    expect(prompt(s)).toBe('WA:announce-attack');
    expect(s.mode).toBe('air');
    expect(options(s)).toContain('raid formosa');
    expect(options(s).filter((o) => o.startsWith('attack '))).toEqual([]);
    expect(options(play(s, 'raid formosa').state)).toContain('add 8th-fleet');
  });
});

describe('2.2 Air Blitz: an air unit joins an ally\'s Ground Attack (5.3)', () => {
  // The full game at the Allied Blitz, the USA and the USSR at war with Germany: the AFA call a Land
  // Blitz and attack Western Germany from Paris with the French 1st Army; the USA call an Air Blitz, with
  // the 1st Tactical Air Force and the 9th Army in Paris.
  const ready = () => {
    const s = structuredClone(reach(blitz.setup('full', pack), 'AFA', 'blitz-choice'));
    s.wars = [...s.wars!, 'GER~USA', 'GER~USSR'].sort();
    s.neutral = [];
    s.oil = { ...s.oil, AFA: 1, USA: 1 };
    const bed = arrange(s, { units: { '1st-tactical-air-force': { power: 'USA', at: 'paris', size: 2 }, '9th-army': { power: 'USA', at: 'paris', size: 2 } } });
    const afa = until(play(bed, 'blitz land', 'blitz air', 'blitz free').state, 'AFA', 'announce-attack');
    return until(play(afa, 'attack western-germany', 'add french-1st-army', 'launch', 'done').state, 'USA', 'announce-attack');
  };

  it('the USA, in an Air Blitz, may join the AFA\'s Ground Attack with its air unit but not its army, and announce none of its own', () => {
    const s = ready();
    expect(s.modes).toMatchObject({ AFA: 'land', USA: 'air' });
    expect(options(s)).toContain('join western-germany');
    expect(options(s).filter((o) => o.startsWith('attack '))).toEqual([]);
    const joining = play(s, 'join western-germany').state;
    expect(options(joining)).toContain('add 1st-tactical-air-force');
    expect(options(joining)).not.toContain('add 9th-army');
    const r = play(joining, 'add 1st-tactical-air-force', 'launch');
    expect(eventsOf(r, 'attack-joined')[0]!.data).toMatchObject({ by: 'AFA', units: ['1st-tactical-air-force'] });
    expect(r.state.attacks.find((a) => a.target === 'western-germany')!.attackers).toEqual(['french-1st-army', '1st-tactical-air-force']);
  });

  it('before the announcements the USA are asked only about air units: no move of the 9th Army, no ship to sea (air units may fly there)', () => {
    const s = structuredClone(reach(blitz.setup('full', pack), 'AFA', 'blitz-choice'));
    s.wars = [...s.wars!, 'GER~USA', 'GER~USSR'].sort();
    s.neutral = [];
    s.oil = { ...s.oil, AFA: 1, USA: 1 };
    const bed = arrange(s, { units: { '1st-tactical-air-force': { power: 'USA', at: 'paris', size: 2 }, '9th-army': { power: 'USA', at: 'paris', size: 2 } } });
    let st = play(bed, 'blitz land', 'blitz air', 'blitz free').state;
    const asked: string[] = [];
    for (let q = blitz.pending(st); q.kind === 'decision' && q.prompt !== 'announce-attack'; q = blitz.pending(st)) {
      if (q.power === 'USA') asked.push(`${q.prompt}: ${q.options.join(' ')}`);
      st = play(st, q.options.find((o) => o === 'done' || o === 'stop') ?? q.options[0]!).state;
    }
    expect(asked.length).toBeGreaterThan(0);
    for (const a of asked) expect(a).not.toMatch(/9th-army|fleet|-ll\b|\smove \S/);
    expect(asked.some((a) => a.startsWith('rebase-pick') && a.includes('rebase 1st-tactical-air-force'))).toBe(true);
  });
});
