/** 5.3 (A.6): announcing Ground Attacks, committing attackers and defenders, ranges and the support cap. */
import { describe, expect, it } from 'vitest';
import { arrange, options, play, prompt, skipTo, start } from '../helpers.ts';

describe('5.3 land area combat', () => {
  it('the Luftwaffe in Berlin (range 1) can reach Poland but not Belgium-Netherlands (A.6 example)', () => {
    const s = skipTo(start('A'), 'move-pick');
    const r = play(s, 'declare belgium-netherlands', 'done', 'attack belgium-netherlands');
    expect(options(r.state)).toContain('add 18th-army');
    expect(options(r.state)).not.toContain('add luftwaffe');
    const r2 = play(r.state, 'add 18th-army', 'launch', 'attack poland');
    expect(options(r2.state)).toContain('add luftwaffe');
  });

  it('a unit joins one combat only; a FORT never attacks; launching needs a land unit', () => {
    const s = skipTo(arrange(start('A'), { units: { 'maginot-line': { at: 'western-germany', power: 'GER' } } }), 'announce-attack');
    const r = play(s, 'attack poland');
    expect(options(r.state)).not.toContain('launch');
    expect(options(r.state)).not.toContain('add maginot-line');
    const r2 = play(r.state, 'add luftwaffe');
    expect(options(r2.state)).not.toContain('launch'); // air alone is no Ground Attack
    const r3 = play(r2.state, 'add army-group-center', 'launch');
    expect(prompt(r3.state)).toBe('GER:announce-attack');
    // Paris is in reach from Western Germany: the units already committed to Poland are not offered again.
    const r4 = play(arrange(r3.state, { units: { 'army-group-north': { at: 'western-germany' } } }), 'attack paris');
    expect(options(r4.state)).toContain('add army-group-north');
    expect(options(r4.state)).not.toContain('add army-group-center');
  });

  it('the defender may commit air units in range; the attacker resolves in any order', () => {
    const s = skipTo(arrange(start('A'), { units: { luftwaffe: { at: 'western-germany' }, 'armee-de-l-air': { at: 'paris' } } }), 'announce-attack');
    const r = play(s, 'attack paris', 'add 18th-army', 'add luftwaffe', 'launch', 'attack poland', 'add army-group-center', 'launch', 'done');
    expect(prompt(r.state)).toBe('AFA:commit-defence');
    expect(options(r.state)).toEqual(['defend paris armee-de-l-air', 'defend paris royal-air-force', 'done']);
    const r2 = play(r.state, 'defend paris royal-air-force', 'done');
    expect(prompt(r2.state)).toBe('GER:resolve-order');
    expect(options(r2.state)).toEqual(['resolve paris', 'resolve poland']);
  });

  it("air support cannot exceed the attacking land units' Land Factors", () => {
    // The 1st Para (LF 1) with the Stukas (LF 4) and Luftwaffe (LF 3) against Poland: support capped at 1.
    const s = skipTo(start('A'), 'announce-attack');
    const r = play(s, 'attack poland', 'add 1st-para', 'add stukas', 'add luftwaffe', 'launch', 'done', 'resolve poland');
    const land = r.state.combat!.log.at(-1)!;
    // 1 (Para) + min(7 halved in Forest = 3.5, 1) = 2
    expect(land.attRaw).toBe(2);
  });
});
