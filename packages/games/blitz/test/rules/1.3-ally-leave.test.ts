/**
 * 1.3 in the full game: every way into an area another major power of the side holds takes the
 * holder's leave, and the holder's air and naval units there then rebase out (moved as 6.6 moves
 * overrun units). The land move is tested with the rulebook's Persia example in 1.3-stacking; here the
 * rebase (5.1), the retreat and the overrun move (6.6, "where it can stack (see 1.3)").
 *
 * The test bed: the USSR at war with Germany (as the AFA is), the USA neutral; the USSR holds Persia
 * with only an air unit there (the VVS Fighters). In the Near East Iraq is the AFA's; Levant, Arabia,
 * Kuwait and Ankara are Germany's, so from Iraq the only friendly neighbour is Persia.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, combatLog, dieFor, eventsOf, options, pack, play, reach, until } from '../helpers.ts';

function bed(power: string, question: string, units: Parameters<typeof arrange>[1]['units']): BlitzState {
  const w = structuredClone(reach(blitz.setup('full', pack), power, question));
  w.wars = [...w.wars!, 'GER~USSR'].sort();
  w.neutral = ['USA'];
  return arrange(w, {
    control: { persia: 'USSR', iraq: 'AFA', levant: 'GER', arabia: 'GER', kuwait: 'GER', ankara: 'GER' },
    units: { 'vvs-fighters': { at: 'persia', power: 'USSR', size: 2 }, ...units },
  });
}

describe('1.3: a rebase into an ally\'s area asks the holder\'s leave', () => {
  const s = bed('AFA', 'rebase-pick', { 'royal-air-force': { at: 'delhi', power: 'AFA', size: 2 } });

  it('the USSR is asked; with its leave the RAF rebases into Persia and the VVS Fighters rebase out', () => {
    const asked = play(s, 'rebase royal-air-force', 'to persia').state;
    expect(blitz.pending(asked)).toMatchObject({ kind: 'decision', power: 'USSR', prompt: 'ally-leave', options: ['allow persia', 'refuse persia'] });
    expect(asked.units['royal-air-force']!.at).toBe('delhi');
    const r = play(asked, 'allow persia');
    expect(r.state.units['royal-air-force']!.at).toBe('persia');
    // One move away: its own Caucasus and Samarkand, and the AFA's Iraq (which would take the AFA's leave).
    expect(blitz.pending(r.state)).toMatchObject({ power: 'USSR', prompt: 'rebase-out-destination', options: ['to caucasus-mountains', 'to iraq', 'to samarkand'] });
    const out = play(r.state, 'to caucasus-mountains');
    expect(out.state.units['vvs-fighters']!.at).toBe('caucasus-mountains');
    expect(eventsOf(out, 'rebase-out').map((e) => e.data)).toEqual([{ unit: 'vvs-fighters', from: 'persia', to: 'caucasus-mountains' }]);
  });

  it('refused, the RAF stays and is asked again without Persia; the VVS Fighters stay', () => {
    const r = play(s, 'rebase royal-air-force', 'to persia', 'refuse persia');
    expect(r.state.units['royal-air-force']!.at).toBe('delhi');
    expect(r.state.units['vvs-fighters']!.at).toBe('persia');
    expect(blitz.pending(r.state)).toMatchObject({ power: 'AFA', prompt: 'rebase-to' });
    expect(options(r.state)).not.toContain('to persia');
    expect(options(r.state).length).toBeGreaterThan(0);
  });

  it('the answer stands for the rest of the impulse: a land move into Persia later asks nothing more', () => {
    const allowed = play(s, 'rebase royal-air-force', 'to persia', 'allow persia', 'to samarkand').state;
    const moving = until(arrange(allowed, { units: { 'indian-army': { at: 'delhi', power: 'AFA', size: 2 } } }), 'AFA', 'move-pick');
    const r = play(moving, 'move indian-army', 'to persia');
    expect(r.state.units['indian-army']!.at).toBe('persia');
    expect(eventsOf(r, 'ally-leave')).toEqual([]);
  });
});

describe('1.3 with 5.1: a TRS stopping in an ally\'s Port on its rebase asks the holder\'s leave', () => {
  // The AFA's Europe TRS in Bombay with the 8th Army aboard, stopping in Persia's Port to put it ashore.
  const s = bed('AFA', 'rebase-pick', { 'europe-trs': { at: 'bombay', power: 'AFA', size: 1 }, '8th-army': { at: 'bombay', power: 'AFA', size: 1 } });
  const asked = play(s, 'rebase europe-trs', 'load 8th-army', 'via persia').state;

  it('the USSR is asked before the TRS puts in', () => {
    expect(blitz.pending(asked)).toMatchObject({ power: 'USSR', prompt: 'ally-leave', options: ['allow persia', 'refuse persia'] });
    expect(asked.units['europe-trs']!.at).toBe('bombay');
  });

  it('allowed, it puts in, the VVS Fighters rebase out, and the TRS may then land the 8th Army there', () => {
    const r = play(asked, 'allow persia');
    expect(r.state.units['europe-trs']!.at).toBe('persia');
    expect(blitz.pending(r.state)).toMatchObject({ power: 'USSR', prompt: 'rebase-out-destination' });
    const on = play(r.state, 'to samarkand');
    expect(blitz.pending(on.state)).toMatchObject({ power: 'AFA', prompt: 'rebase-load' });
    expect(options(on.state)).toContain('unload 8th-army');
  });

  it('refused, Persia is no longer offered, as a stop or as the end', () => {
    const r = play(asked, 'refuse persia');
    expect(blitz.pending(r.state)).toMatchObject({ power: 'AFA', prompt: 'rebase-to' });
    expect(options(r.state)).not.toContain('via persia');
    expect(options(r.state)).not.toContain('to persia');
    expect(options(r.state)).toContain('via iraq');
  });
});

describe('1.3 with 6.6: a retreat into an ally\'s area asks the holder\'s leave', () => {
  // Germany's Waffen SS Army (ARM 2) attacks the 8th Army in Iraq from the Levant; Iraq is Clear, so a
  // letter forces the 8th Army out, and Persia, the USSR's, is the only friendly area next to it.
  const s = bed('GER', 'announce-attack', { '8th-army': { at: 'iraq', power: 'AFA', size: 1 }, 'waffen-ss-army': { at: 'levant', power: 'GER', size: 2 } });
  const fought = (() => {
    const r = play(s, 'attack iraq', 'add waffen-ss-army', 'launch', 'done');
    return play(until(r.state, 'GER', 'resolve-order'), 'resolve iraq');
  })();
  const land = combatLog(fought).find((x) => x.round === 'land')!;
  const rolled = play(fought.state, dieFor(land.attFactors as number, (x) => (x.letter === 'L' || x.letter === 'B') && x.damage === 0), dieFor(land.defFactors as number, (x) => x.letter === null && x.damage === 0));

  it('the letter moves the 8th Army, and its one way out, Persia, is put to the USSR first', () => {
    expect(land.armAttack).toBeGreaterThan(land.armDefence as number);
    expect(blitz.pending(rolled.state)).toMatchObject({ kind: 'decision', power: 'USSR', prompt: 'ally-leave', options: ['allow persia', 'refuse persia'] });
    expect(rolled.state.units['8th-army']!.at).toBe('iraq');
  });

  it('with the leave it retreats into Persia, and the VVS Fighters rebase out once the combat is over', () => {
    const r = play(rolled.state, 'allow persia');
    expect(eventsOf(r, 'retreat').map((e) => e.data)).toEqual([{ unit: '8th-army', from: 'iraq', to: 'persia' }]);
    expect(r.state.units['8th-army']!.at).toBe('persia');
    expect(r.state.control.iraq).toBe('GER');
    expect(blitz.pending(r.state)).toMatchObject({ power: 'USSR', prompt: 'rebase-out-destination' });
    const out = play(r.state, 'to samarkand');
    expect(out.state.units['vvs-fighters']!.at).toBe('samarkand');
  });

  it('refused, it has nowhere to retreat: it takes the extra point of damage instead (destroyed at Size 1)', () => {
    const r = play(rolled.state, 'refuse persia');
    expect(eventsOf(r, 'retreat')).toEqual([]);
    expect(eventsOf(r, 'loss').map((e) => [e.data!.unit, e.data!.why])).toContainEqual(['8th-army', 'no retreat possible']);
    expect(['pool', 'gone']).toContain(r.state.units['8th-army']!.at);
    expect(r.state.units['vvs-fighters']!.at).toBe('persia');
  });
});

describe('1.3 with 6.6: an overrun move into an ally\'s area asks the holder\'s leave', () => {
  // The RAF is alone in Iraq when the Waffen SS Army walks in from the Levant: Persia (one move) is the
  // closest area where it could stack, Delhi (two) the next.
  const s = bed('GER', 'move-pick', { 'royal-air-force': { at: 'iraq', power: 'AFA', size: 2 }, 'waffen-ss-army': { at: 'levant', power: 'GER', size: 2 } });
  const walked = play(s, 'move waffen-ss-army', 'to iraq');

  it('Germany takes Iraq; the USSR is asked to let the overrun RAF into Persia', () => {
    expect(walked.state.control.iraq).toBe('GER');
    expect(blitz.pending(walked.state)).toMatchObject({ kind: 'decision', power: 'USSR', prompt: 'ally-leave', options: ['allow persia', 'refuse persia'] });
    expect(walked.state.units['royal-air-force']!.at).toBe('iraq');
  });

  it('with the leave the RAF goes to Persia, and the USSR\'s VVS Fighters there must rebase out', () => {
    const r = play(walked.state, 'allow persia');
    expect(r.state.units['royal-air-force']!.at).toBe('persia');
    expect(blitz.pending(r.state)).toMatchObject({ power: 'USSR', prompt: 'rebase-out-destination', options: ['to caucasus-mountains', 'to samarkand'] });
    const out = play(r.state, 'to caucasus-mountains');
    expect(out.state.units['vvs-fighters']!.at).toBe('caucasus-mountains');
    expect(eventsOf(out, 'rebase-out')).toHaveLength(1);
  });

  it('refused, Persia is not an area where it can stack: Germany picks among the next closest, the AFA\'s own, two moves away', () => {
    const r = play(walked.state, 'refuse persia');
    // (The Caucasus and Samarkand, also two away, are in the USSR's home country: never the AFA's to enter.)
    expect(blitz.pending(r.state)).toMatchObject({ power: 'GER', prompt: 'overrun-destination', options: ['to aden', 'to delhi', 'to egypt'] });
    const delhi = play(r.state, 'to delhi');
    expect(delhi.state.units['royal-air-force']!.at).toBe('delhi');
    expect(delhi.state.units['vvs-fighters']!.at).toBe('persia');
  });
});

describe('1.3 with 4.1 and 4.2: a ship ending its move in an ally\'s Port asks the holder\'s leave', () => {
  // The AFA's Mediterranean Fleet, in the Arabian Sea or in Delhi's Port; Persia's Port touches that sea.
  it('a return to base (4.1) into Persia: asked of the USSR; allowed, the fleet docks and the VVS Fighters rebase out', () => {
    const w = structuredClone(bed('AFA', 'rebase-pick', { 'mediterranean-fleet': { at: 'sea:arabian-sea', power: 'AFA', size: 2 } }));
    w.step = 'return';
    const s = arrange(w, {});
    const asked = play(s, 'return mediterranean-fleet', 'to persia').state;
    expect(blitz.pending(asked)).toMatchObject({ power: 'USSR', prompt: 'ally-leave', options: ['allow persia', 'refuse persia'] });
    const r = play(asked, 'allow persia');
    expect(r.state.units['mediterranean-fleet']!.at).toBe('persia');
    expect(blitz.pending(r.state)).toMatchObject({ power: 'USSR', prompt: 'rebase-out-destination' });
    const refused = play(asked, 'refuse persia');
    expect(refused.state.units['mediterranean-fleet']!.at).toBe('sea:arabian-sea');
    expect(blitz.pending(refused.state)).toMatchObject({ power: 'AFA', prompt: 'return-to' });
    expect(options(refused.state)).not.toContain('to persia');
  });

  it('a move to sea ending in Persia\'s Port (4.2): asked of the USSR; allowed, the fleet sails in and the VVS Fighters rebase out', () => {
    const w = structuredClone(bed('AFA', 'rebase-pick', { 'mediterranean-fleet': { at: 'delhi', power: 'AFA', size: 2 } }));
    w.step = 'to-sea';
    const s = arrange(w, {});
    const asked = play(s, 'sail mediterranean-fleet', 'into persia').state;
    expect(blitz.pending(asked)).toMatchObject({ power: 'USSR', prompt: 'ally-leave', options: ['allow persia', 'refuse persia'] });
    expect(asked.units['mediterranean-fleet']!.at).toBe('delhi');
    const r = play(asked, 'allow persia');
    expect(r.state.units['mediterranean-fleet']!.at).toBe('persia');
    expect(blitz.pending(r.state)).toMatchObject({ power: 'USSR', prompt: 'rebase-out-destination' });
  });
});

describe('1.3 with 4.1 and 4.4: a ship sent back to base from a sea combat into an ally\'s Port asks the holder\'s leave', () => {
  // The USSR's Pacific Fleet (a SUB) in the Arabian Sea; Germany's High Seas Fleet sails in from Kuwait.
  // The SUB slips back to base instead of fighting (4.4) and its owner picks the AFA's Iraq, where the
  // RAF is based.
  const s = bed('GER', 'sea-pick', {
    'soviet-pacific-fleet': { at: 'sea:arabian-sea', power: 'USSR', size: 1 },
    'high-seas-fleet': { at: 'kuwait', power: 'GER', size: 2 },
    'royal-air-force': { at: 'iraq', power: 'AFA', size: 2 },
  });
  const evading = until(play(s, 'sail high-seas-fleet', 'to arabian-sea').state, 'USSR', 'sub-evasion');
  const picked = play(evading, 'evade soviet-pacific-fleet', 'base iraq').state;

  it('the AFA is asked before the SUB docks in Iraq', () => {
    expect(blitz.pending(picked)).toMatchObject({ power: 'AFA', prompt: 'ally-leave', options: ['allow iraq', 'refuse iraq'] });
    expect(picked.units['soviet-pacific-fleet']!.at).toBe('sea:arabian-sea');
  });

  it('allowed, the SUB docks there and the RAF must rebase out', () => {
    const r = play(picked, 'allow iraq');
    expect(r.state.units['soviet-pacific-fleet']!.at).toBe('iraq');
    expect(r.state.leaving).toEqual(['royal-air-force']);
    expect(r.state.overruns).toEqual(['royal-air-force']);
    // Its closest way out is the USSR's Persia, which takes the USSR's leave in turn.
    expect(blitz.pending(r.state)).toMatchObject({ power: 'USSR', prompt: 'ally-leave', options: ['allow persia', 'refuse persia'] });
    expect(play(r.state, 'allow persia').state.units['royal-air-force']!.at).toBe('persia');
  });

  it('refused, the USSR picks again among the other ports', () => {
    const r = play(picked, 'refuse iraq');
    expect(blitz.pending(r.state)).toMatchObject({ power: 'USSR', prompt: 'return-to-base-where', options: ['base aden', 'base persia', 'base sudan'] });
    expect(r.state.units['royal-air-force']!.at).toBe('iraq');
  });
});
