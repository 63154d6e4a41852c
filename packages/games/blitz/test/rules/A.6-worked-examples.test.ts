/**
 * The worked examples of A.6 (continued in 6.2/6.6 terms), replayed through the real rules with the
 * example's dice forced: combat arithmetic, Forest halving, triangles, rounding (1.8), letter
 * fractions (6.5), the ARM test, retreat-or-extra-damage and advance (6.6).
 */
import { describe, expect, it } from 'vitest';
import { arrange, combatLog, dieFor, eventsOf, options, play, prompt, skipTo, start } from '../helpers.ts';

describe('A.6 worked example: Ground Attack on Poland', () => {
  const s0 = skipTo(start('A'), 'announce-attack');

  it('reaches the announcement step with Poland attackable from Berlin', () => {
    expect(prompt(s0)).toBe('GER:announce-attack');
    expect(options(s0)).toContain('attack poland');
  });

  const r = play(
    s0,
    'attack poland',
    'add army-group-center',
    'add army-group-north',
    'add 1st-para',
    'add luftwaffe',
    'launch',
    'done',
    'resolve poland',
    'die 4', // Germany: column 10, '1L'
    'die 2', // Poland: column 4, 'S'
  );

  it('totals 5 + 2 + 1 + 3/2 (Forest) = 9.5, rounded up to 10; Poland fires 3 + 1 white triangle = 4', () => {
    const land = combatLog(r).find((x) => x.round === 'land')!;
    expect(land.attRaw).toBe(9.5);
    expect(land.attFactors).toBe(10);
    expect(land.defFactors).toBe(4);
    expect(land.attResult).toBe('1L');
    expect(land.defResult).toBe('S');
  });

  it('ARM 3 beats Forest 2, so the L forces a retreat; with nowhere to go the Polish Army takes another loss and dies', () => {
    const land = combatLog(r).find((x) => x.round === 'land')!;
    expect(land.armAttack).toBe(3);
    expect(land.armDefence).toBe(2);
    expect(eventsOf(r, 'loss').map((e) => e.data!.unit)).toEqual(['polish-army', 'polish-army']);
    expect(eventsOf(r, 'elimination').map((e) => e.data!.unit)).toEqual(['polish-army']);
  });

  it("the defender's S blocks one of three attacking land units, picked by the AFA", () => {
    expect(prompt(r.state)).toBe('AFA:block-advance');
    expect(options(r.state)).toEqual(['block 1st-para', 'block army-group-center', 'block army-group-north']);
    const r2 = play(r.state, 'block army-group-north');
    const adv = eventsOf(r2, 'advance')[0]!;
    expect(adv.data!.units).toEqual(['army-group-center', '1st-para']);
    expect(r2.state.control.poland).toBe('GER');
    expect(r2.state.units['army-group-north']!.at).toBe('berlin');
    expect(eventsOf(r2, 'conquest').map((e) => e.data!.country)).toEqual(['poland']);
  });
});

describe('A.6 worked example: Air Round', () => {
  // Luftwaffe and Stukas against the Royal Air Force over Paris; the Armée de l'Air sits it out.
  const s0 = skipTo(
    arrange(start('A'), {
      units: { luftwaffe: { at: 'western-germany' }, stukas: { at: 'western-germany' }, 'armee-de-l-air': { at: 'london' } },
    }),
    'announce-attack',
  );
  const r = play(s0, 'attack paris', 'add 18th-army', 'add luftwaffe', 'add stukas', 'launch', 'done', 'defend paris royal-air-force', 'done', 'resolve paris', 'die 4', 'die 3');

  it('Germany fires 3 + 3 = 6, the RAF 2 + 1 for the Stukas white triangle = 3', () => {
    const air = combatLog(r).find((x) => x.round === 'air')!;
    expect(air.attFactors).toBe(6);
    expect(air.defFactors).toBe(3);
    expect(air.attResult).toBe('1');
    expect(air.defResult).toBe('S');
  });

  it('the RAF flips to Size 1, and one third of two German air units (0.67 -> 1) returns to base, owner choosing', () => {
    expect(r.state.units['royal-air-force']!.size).toBe(1);
    expect(prompt(r.state)).toBe('GER:return-to-base');
    expect(options(r.state)).toEqual(['rtb luftwaffe', 'rtb stukas']);
    const r2 = play(r.state, 'rtb luftwaffe');
    expect(eventsOf(r2, 'return-to-base').map((e) => e.data!.unit)).toEqual(['luftwaffe']);
    expect(prompt(r2.state)).toBe('chance:land-round-attacker-die');
  });
});

describe('A.6 worked example: the Polish Army fires back (1S)', () => {
  // Four German land units attack Poland: Army Groups Center and North, the 1st Para, and the 18th Army
  // brought up to Berlin. The Poles fire 3 + 1 for the 1st Para's white triangle = 4; a 6 there is '1S'.
  const s0 = skipTo(arrange(start('A'), { units: { '18th-army': { at: 'berlin' } } }), 'announce-attack');
  const attackers = ['army-group-center', 'army-group-north', '1st-para', '18th-army'];
  const r = play(s0, 'attack poland', ...attackers.map((u) => `add ${u}`), 'launch', 'done', 'resolve poland');
  const land = () => combatLog(r).find((x) => x.round === 'land')!;

  it('the Polish Army fires with 4 and a 6 is 1S', () => {
    expect(land().defFactors).toBe(4);
    // Germany: 5 + 2 + 1 + 3 = 11; a result of two hits destroys the Size-2 Polish Army.
    expect(land().attFactors).toBe(11);
    const r2 = play(r.state, dieFor(11, (x) => x.damage >= 2 && x.letter === null), 'die 6');
    expect(combatLog(r2).find((x) => x.round === 'land')!.defResult).toBe('1S');
  });

  it('Germany puts the one point of damage on a land unit of its choice; the S then blocks one of the four, picked by the AFA', () => {
    const r2 = play(r.state, dieFor(11, (x) => x.damage >= 2 && x.letter === null), 'die 6');
    expect(eventsOf(r2, 'elimination').map((e) => e.data!.unit)).toEqual(['polish-army']);
    expect(prompt(r2.state)).toBe('GER:assign-damage');
    expect(options(r2.state)).toEqual([...attackers].sort().map((u) => `hit ${u}`));
    const r3 = play(r2.state, 'hit 18th-army');
    expect(r3.state.units['18th-army']!.size).toBe(1);
    // 4 x 1/3 = 1.33, rounded to 1: the AFA choose which one stays behind.
    expect(prompt(r3.state)).toBe('AFA:block-advance');
    expect(options(r3.state)).toEqual([...attackers].sort().map((u) => `block ${u}`));
    const r4 = play(r3.state, 'block army-group-center');
    expect(eventsOf(r4, 'advance')[0]!.data!.units).toEqual(['army-group-north', '1st-para', '18th-army']);
    expect(r4.state.units['army-group-center']!.at).toBe('berlin');
    expect(r4.state.control.poland).toBe('GER');
  });
});
