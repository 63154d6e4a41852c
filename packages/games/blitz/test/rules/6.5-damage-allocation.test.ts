/** 6.5: number results first (phasing side's, then the other's), damage picked owner first then alternately. */
import { describe, expect, it } from 'vitest';
import { arrange, dieFor, eventsOf, play, prompt, skipTo, start } from '../helpers.ts';

describe('6.5 applying damage', () => {
  it('two points on two Polish units: the AFA picks the first, Germany the second', () => {
    const s = skipTo(arrange(start('A'), { units: { bef: { at: 'poland' } } }), 'announce-attack');
    let r = play(s, 'attack poland', 'add army-group-center', 'add army-group-north', 'add luftwaffe', 'add stukas', 'launch', 'done', 'resolve poland');
    const land = r.state.combat!.log.at(-1)!;
    r = play(r.state, dieFor(land.attFactors as number, (x) => x.damage === 2), dieFor(land.defFactors as number, (x) => x.damage === 0));
    expect(prompt(r.state)).toBe('AFA:assign-damage');
    r = play(r.state, 'hit bef');
    expect(prompt(r.state)).toBe('GER:assign-damage');
    r = play(r.state, 'hit bef');
    expect(eventsOf(r, 'elimination').map((e) => e.data!.unit)).toEqual(['bef']);
  });

  it("the phasing side's number result is applied before the defender's", () => {
    const s = skipTo(start('A'), 'announce-attack');
    let r = play(s, 'attack poland', 'add army-group-center', 'add army-group-north', 'launch', 'done', 'resolve poland');
    const land = r.state.combat!.log.at(-1)!;
    r = play(r.state, dieFor(land.attFactors as number, (x) => x.damage >= 1), dieFor(land.defFactors as number, (x) => x.damage >= 1));
    // The Polish Army (alone) has taken its loss; Germany, owner of two attackers, now picks its own.
    expect(eventsOf(r, 'loss').map((e) => e.power)).toEqual(['AFA']);
    expect(prompt(r.state)).toBe('GER:assign-damage');
    r = play(r.state, 'hit army-group-north');
    const losses = eventsOf(r, 'loss').map((e) => e.power);
    expect(losses).toEqual(['GER']);
  });
});
