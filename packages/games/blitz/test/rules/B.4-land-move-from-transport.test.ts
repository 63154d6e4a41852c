/**
 * B.4 / 5.2: a land unit on a TRS at sea may move to a friendly land area touching that sea, and
 * its move ends there; enemy-held coast is not entered this way (it must be attacked, B.5).
 */
import { describe, expect, it } from 'vitest';
import { arrange, eventsOf, options, play, prompt, start, until } from '../helpers.ts';


const aboard = (sea: string, extra: Parameters<typeof arrange>[1] = {}) =>
  until(
    arrange(start('B'), {
      ...extra,
      units: { 'europe-trs': { at: `sea:${sea}` }, '2nd-army': { at: 'trs:europe-trs' }, 'royal-marines': { at: 'trs:europe-trs' }, ...extra.units },
    }),
    'WA',
    'move-pick',
  );

describe('B.4 moving off a TRS in the North Sea', () => {
  const s0 = aboard('north-sea');

  it('both carried units may move', () => {
    expect(prompt(s0)).toBe('WA:move-pick');
    expect(options(s0)).toContain('move 2nd-army');
    expect(options(s0)).toContain('move royal-marines');
  });

  it('only friendly coast of the North Sea is offered: London and Scotland, not German Belgium-Netherlands, Paris or Western Germany', () => {
    const r = play(s0, 'move 2nd-army');
    expect(prompt(r.state)).toBe('WA:move-step');
    expect(options(r.state)).toEqual(['to london', 'to scotland', 'stop']);
  });

  it('landing ends the move: the 2nd Army is in London and is not offered another step or move', () => {
    const r = play(s0, 'move 2nd-army', 'to london');
    expect(r.state.units['2nd-army']!.at).toBe('london');
    expect(prompt(r.state)).toBe('WA:move-pick');
    expect(options(r.state)).not.toContain('move 2nd-army');
    expect(eventsOf(r, 'move')[0]!.data).toMatchObject({ unit: '2nd-army', path: ['trs:europe-trs', 'london'] });
  });

  it('landing costs no terrain movement: the Royal Marines (movement 1) may land in Mountain Scotland', () => {
    const r = play(s0, 'move royal-marines', 'to scotland');
    expect(r.state.units['royal-marines']!.at).toBe('scotland');
    expect(options(r.state)).not.toContain('move royal-marines');
  });

  it('an enemy coast is not entered even when empty; it must be attacked instead', () => {
    const s = aboard('north-sea', { units: { '15th-army': null } });
    expect(options(play(s, 'move 2nd-army').state)).toEqual(['to london', 'to scotland', 'stop']);
    const a = until(play(s, 'done').state, 'WA', 'announce-attack');
    expect(options(a)).toContain('attack belgium-netherlands');
    expect(options(play(a, 'attack belgium-netherlands').state)).toContain('add 2nd-army');
  });

  it('once the coast is friendly it is offered', () => {
    const s = aboard('north-sea', { units: { '15th-army': null }, control: { 'belgium-netherlands': 'WA' } });
    const r = play(s, 'move 2nd-army');
    expect(options(r.state)).toEqual(['to belgium-netherlands', 'to london', 'to scotland', 'stop']);
    const r2 = play(r.state, 'to belgium-netherlands');
    expect(r2.state.units['2nd-army']!.at).toBe('belgium-netherlands');
  });
});

describe('B.4 the sea matters', () => {
  it('from the Western Approaches: London touches it, Scotland does not', () => {
    const s = aboard('western-approaches', { units: { '19th-army': null }, control: { 'vichy-france': 'WA' } });
    expect(options(play(s, 'move 2nd-army').state)).toEqual(['to london', 'to vichy-france', 'stop']);
  });

  it('a TRS in Port has no cargo to move: units come ashore when it returns (4.1) and then move normally', () => {
    const s = until(arrange(start('B'), { units: { 'europe-trs': { at: 'sea:north-sea' }, '2nd-army': { at: 'trs:europe-trs' } } }), 'WA', 'return-pick');
    const m = until(play(s, 'return europe-trs', 'to scotland').state, 'WA', 'move-pick');
    expect(m.units['2nd-army']!.at).toBe('scotland');
    // 5.2: from Scotland over land, London (Clear) costs 1
    expect(options(play(m, 'move 2nd-army').state)).toEqual(['to london', 'stop']);
  });
});
