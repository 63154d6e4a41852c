/**
 * B.5 / 5.3 / 6.2 / 6.6 amphibious Ground Attacks and naval support: land units on a TRS at sea may
 * attack an enemy area touching that sea, with Land Factors halved except MAR, and ARM Size halved
 * for the ARM test; BB/CV at sea next to the target add 1 LF (Small) or 2 (Big); support never
 * exceeds the land units' LF; naval units in Port cannot join. A failed landing stays aboard; a
 * successful one advances ashore and takes the area.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { chartResult } from '../../src/rules/combat-chart.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, combatLog, eventsOf, options, pack, play, prompt, start, until } from '../helpers.ts';

const chart = pack.data['combat-chart'];


/** The first die face whose result at `total` satisfies `ok`. */
function dieFor(total: number, ok: (r: { damage: number; letter: string | null }) => boolean): string {
  for (let d = 1; d <= 6; d++) if (ok(chartResult(chart, total, d))) return `die ${d}`;
  throw new Error(`no die gives the wanted result at ${total}`);
}

type Edit = NonNullable<Parameters<typeof arrange>[1]['units']>;

/** The Europe Trs. at sea with `cargo` aboard; the 1st Airborne is taken off the map so only seaborne units reach the coast. */
function landing(sea: string, cargo: string[], units: Edit = {}, s0 = start('B')): BlitzState {
  const u: Edit = { 'europe-trs': { at: `sea:${sea}` }, '1st-airborne': null, ...units };
  for (const c of cargo) u[c] = { ...u[c], at: 'trs:europe-trs' };
  return until(arrange(s0, { units: u }), 'WA', 'announce-attack');
}

/** Announce, commit, launch, then resolve: returns the state at the attacker's die. */
function attack(s: BlitzState, target: string, ...units: string[]) {
  const r = play(s, `attack ${target}`, ...units.map((x) => `add ${x}`), 'launch');
  const at = until(r.state, 'WA', 'resolve-order');
  return play(at, `resolve ${target}`);
}

describe('B.5 which areas a seaborne force can attack', () => {
  it('from the North Sea: the enemy areas on its coast (Belgium-Netherlands, Paris, Western Germany), not Vichy France', () => {
    const s = landing('north-sea', ['2nd-army']);
    expect(options(s)).toEqual(['attack belgium-netherlands', 'attack paris', 'attack western-germany', 'done']);
  });

  it('from the Western Approaches: Paris and Vichy France only', () => {
    const s = landing('western-approaches', ['2nd-army']);
    expect(options(s)).toEqual(['attack paris', 'attack vichy-france', 'done']);
  });

  it('5.3: not while an armed enemy unit is in the TRS\'s sea', () => {
    // With the Me-109s over the North Sea no target is left, so the announcement step is skipped.
    const s = until(
      arrange(start('B'), { units: { 'europe-trs': { at: 'sea:north-sea' }, '2nd-army': { at: 'trs:europe-trs' }, '1st-airborne': null, 'me-109s': { at: 'sea:north-sea' } } }),
      'WA',
      'move-pick',
    );
    const after = play(s, 'done').state;
    expect(prompt(after)).not.toBe('WA:announce-attack');
    expect(after.impulse).toBe(3);
  });
});

describe('B.5 Land Factors from a TRS and naval support', () => {
  const s0 = landing('north-sea', ['8th-army', 'royal-marines'], { 'north-sea-fleet': { at: 'sea:north-sea' }, '12th-fleet': { at: 'sea:north-sea' } });

  it('BB at sea next to the target are offered as support; the TRS is not', () => {
    const opts = options(play(s0, 'attack belgium-netherlands').state);
    expect(opts).toContain('add north-sea-fleet');
    expect(opts).toContain('add 12th-fleet');
    expect(opts).not.toContain('add europe-trs');
  });

  it('8th Army 2 halved to 1, Royal Marines 2 not halved (MAR), Small BB +1: 4 against the 15th Army\'s 2', () => {
    const r = attack(s0, 'belgium-netherlands', '8th-army', 'royal-marines', 'north-sea-fleet');
    expect(prompt(r.state)).toBe('chance:land-round-attacker-die');
    const land = combatLog(r).find((x) => x.round === 'land')!;
    expect(land.attRaw).toBe(4);
    expect(land.attFactors).toBe(4);
    expect(land.defFactors).toBe(2);
  });

  it('support is capped at the land units\' LF (5.3): 8th Army alone (1) with two Small BB (2) totals 2, not 3', () => {
    const r = attack(s0, 'belgium-netherlands', '8th-army', 'north-sea-fleet', '12th-fleet');
    const land = combatLog(r).find((x) => x.round === 'land')!;
    expect(land.attRaw).toBe(2);
  });

  it('naval units in Port cannot support; nor can ships in a sea that does not touch the target', () => {
    const s = landing('north-sea', ['8th-army'], { '12th-fleet': { at: 'sea:western-approaches' } });
    const opts = options(play(s, 'attack belgium-netherlands').state);
    expect(opts).toContain('add 8th-army');
    expect(opts).not.toContain('add north-sea-fleet'); // in Port in Scotland
    expect(opts).not.toContain('add 12th-fleet'); // Western Approaches does not touch Belgium-Netherlands
    expect(opts).not.toContain('add 3rd-fleet');
  });
});

describe('B.5 a Big BB contributes 2 Land Factors', () => {
  // The pack has no Size-3 ship; give the North Sea Fleet a Big side for this test.
  const data = structuredClone(pack.data);
  const nsf = data.units.units.find((u) => u.id === 'north-sea-fleet')!;
  nsf.sizes['3'] = { move: 2, naval: 7 };
  const checked = blitz.checkPack(data);
  if (!checked.ok) throw new Error(JSON.stringify(checked.issues));

  it('Royal Marines 2 + Big BB 2 = 4 (a Small BB would give 3)', () => {
    const big = landing('north-sea', ['royal-marines'], { 'north-sea-fleet': { at: 'sea:north-sea', size: 3 } }, blitz.setup('B', checked.pack));
    const land = combatLog(attack(big, 'belgium-netherlands', 'royal-marines', 'north-sea-fleet')).find((x) => x.round === 'land')!;
    expect(land.attRaw).toBe(4);
    const small = landing('north-sea', ['royal-marines'], { 'north-sea-fleet': { at: 'sea:north-sea', size: 2 } });
    const land2 = combatLog(attack(small, 'belgium-netherlands', 'royal-marines', 'north-sea-fleet')).find((x) => x.round === 'land')!;
    expect(land2.attRaw).toBe(3);
  });
});

describe('B.5/6.6 ARM attacking from a TRS', () => {
  it('the US 3rd Army (ARM Size 2, LF 4) counts LF 2 and ARM Size 1', () => {
    const s = landing('north-sea', ['3rd-army'], { '3rd-army': { power: 'WA', size: 2 } });
    const r = attack(s, 'belgium-netherlands', '3rd-army');
    const land = combatLog(r).find((x) => x.round === 'land')!;
    expect(land.attRaw).toBe(2);
    expect(land.armAttack).toBe(1);
    expect(land.armDefence).toBe(0);
  });

  it('halved ARM Size 1 does not exceed one defending ARM (Waffen SS Size 1), so an attacker letter forces no retreat', () => {
    const s = landing('north-sea', ['3rd-army'], { '3rd-army': { power: 'WA', size: 2 }, 'waffen-ss-army': { at: 'belgium-netherlands', size: 1 } });
    const r = attack(s, 'belgium-netherlands', '3rd-army');
    const land = combatLog(r).find((x) => x.round === 'land')!;
    expect(land.armAttack).toBe(1);
    expect(land.armDefence).toBe(1);
    const att = land.attFactors as number;
    const def = land.defFactors as number;
    const r2 = play(r.state, dieFor(att, (x) => x.damage === 0 && x.letter !== null), dieFor(def, (x) => x.damage === 0 && x.letter === null));
    expect(eventsOf(r2, 'retreat')).toEqual([]);
    expect(r2.state.units['waffen-ss-army']!.at).toBe('belgium-netherlands');
    expect(r2.state.units['15th-army']!.at).toBe('belgium-netherlands');
  });
});

describe('B.5/6.6 outcome of a landing', () => {
  const s0 = landing('north-sea', ['8th-army', 'royal-marines'], { 'north-sea-fleet': { at: 'sea:north-sea' } });
  const r = attack(s0, 'belgium-netherlands', '8th-army', 'royal-marines', 'north-sea-fleet');
  const land = combatLog(r).find((x) => x.round === 'land')!;
  const att = land.attFactors as number;
  const def = land.defFactors as number;

  it('a failed landing leaves the units aboard the TRS at sea, and Germany keeps the area', () => {
    const r2 = play(r.state, dieFor(att, (x) => x.damage === 0 && x.letter === null), dieFor(def, (x) => x.damage === 0 && x.letter === null));
    expect(r2.state.combat).toBeNull();
    expect(r2.state.units['8th-army']!.at).toBe('trs:europe-trs');
    expect(r2.state.units['royal-marines']!.at).toBe('trs:europe-trs');
    expect(r2.state.units['europe-trs']!.at).toBe('sea:north-sea');
    expect(r2.state.control['belgium-netherlands']).toBe('GER');
    expect(eventsOf(r2, 'combat')[0]!.data!.outcome).toBe('held');
  });

  it('a successful landing destroys the 15th Army, advances both units ashore and takes the area; the ships stay at sea', () => {
    const r2 = play(r.state, dieFor(att, (x) => x.damage >= 1 && x.letter === null), dieFor(def, (x) => x.damage === 0 && x.letter === null));
    expect(eventsOf(r2, 'elimination').map((e) => e.data!.unit)).toEqual(['15th-army']);
    expect(eventsOf(r2, 'advance')[0]!.data!.units).toEqual(['8th-army', 'royal-marines']);
    expect(r2.state.units['8th-army']!.at).toBe('belgium-netherlands');
    expect(r2.state.units['royal-marines']!.at).toBe('belgium-netherlands');
    expect(r2.state.control['belgium-netherlands']).toBe('WA');
    expect(r2.state.units['europe-trs']!.at).toBe('sea:north-sea');
    expect(r2.state.units['north-sea-fleet']!.at).toBe('sea:north-sea');
  });
});
