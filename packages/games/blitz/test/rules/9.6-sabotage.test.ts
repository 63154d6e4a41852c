/**
 * 9.6 Sabotage: at the builds a power may spend a Resource to sabotage an enemy major power, once per
 * enemy each turn, and rolls: 1-3 hand it one of the target's choices at its next builds (the unit its
 * first Resource goes to, the GAR it builds free, its first new weapon), 4 a Partisan from the Partisan
 * Chart in a country the target conquered, 5 and 6 a 4- or 6-factor Factory Attack on the target's
 * saved Oil or Resources (taken from what it saves once everyone has built).
 *
 * On Turn 1 of the full game Germany is at war with the AFA alone (the USA and USSR are neutral).
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { turnIncome } from '../../src/rules/income.ts';
import { landDef, packOf } from '../../src/rules/pack-index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { dieFor, eventsOf, options, pack, passUntil, play, prompt, reach } from '../helpers.ts';

const full = (optional?: string): BlitzState => blitz.setup('full', pack, optional ? { optional } : {});
const p = packOf(full().pack);
/** Germany at its first builds. */
const builds = (optional?: string) => reach(full(optional), 'GER', 'build-pick');
/** Play on passively into Turn 2's Axis activities (every power builds nothing more). */
const nextTurn = (s: BlitzState) => passUntil(s, (x) => x.turn === 2 && x.impulse === 1)!;

describe('9.6 sabotage', () => {
  it('is offered only with the option, against enemy major powers at war with the saboteur', () => {
    expect(options(builds()).filter((o) => o.startsWith('sabotage '))).toEqual([]);
    expect(options(builds('9.6')).filter((o) => o.startsWith('sabotage '))).toEqual(['sabotage AFA']);
  });

  it('costs a Resource of the build budget and is rolled at once; once per target a turn', () => {
    const s = builds('9.6');
    const r = play(s, 'sabotage AFA');
    expect(prompt(r.state)).toBe('chance:sabotage-die');
    expect(r.state.hidden.GER).toEqual([{ unit: 'sabotage', size: 1, at: 'sabotage' }]);
    const after = play(r.state, 'die 1').state;
    expect(prompt(after)).toBe('GER:build-pick');
    expect(options(after)).not.toContain('sabotage AFA');
    // The Resource is gone from what Germany saves.
    const saved = (x: BlitzState) => (x.oil!.GER ?? 0) + (x.saved!.GER ?? 0);
    expect(saved(nextTurn(after))).toBe(saved(nextTurn(play(s, 'done').state)) - 1);
  });

  it("5: a 4-factor Factory Attack's number comes off the Oil the target saves", () => {
    const hit = dieFor(4, (x) => x.damage === 1);
    const miss = dieFor(4, (x) => x.damage === 0);
    const roll = play(builds('9.6'), 'sabotage AFA', 'die 5').state;
    expect(prompt(roll)).toBe('chance:sabotage-attack-die');
    const struck = play(roll, hit);
    expect(struck.state.sabotageLoss).toEqual([{ on: 'AFA', kind: 'oil', n: 1 }]);
    const a = nextTurn(struck.state);
    const b = nextTurn(play(roll, miss).state);
    expect(a.oil!.AFA).toBe(Math.max(0, b.oil!.AFA! - 1));
    expect(b.oil!.AFA).toBeGreaterThan(0);
    expect(a.sabotageLoss).toBeUndefined();
  });

  it('6: a 6-factor Factory Attack strikes the saved Resources', () => {
    const die = dieFor(6, (x) => x.damage === 1);
    const roll = play(builds('9.6'), 'sabotage AFA', 'die 6').state;
    const a = nextTurn(play(roll, die).state);
    const b = nextTurn(play(builds('9.6'), 'done').state);
    expect(a.saved!.AFA).toBe(b.saved!.AFA! - 1);
  });

  it("1: next turn the saboteur chooses the unit the target's first Resource builds or repairs", () => {
    const s = play(builds('9.6'), 'sabotage AFA', 'die 1').state;
    expect(s.sabotage).toEqual([{ by: 'GER', on: 'AFA', result: 1, turn: 2 }]);
    const t = reach(s, 'GER', 'sabotage-choice');
    expect(t.turn).toBe(2);
    expect(t.buildOrder[0]).toBe('AFA');
    expect(options(t).every((o) => /^impose (repair|build) /.test(o))).toBe(true);
    const r = play(t, 'impose build royal-marines');
    // The AFA places it, one Size; then makes its own choices.
    expect(prompt(r.state)).toBe('AFA:build-where');
    const placed = play(r.state, options(r.state)[0]!).state;
    expect(placed.hidden.AFA).toEqual([expect.objectContaining({ unit: 'royal-marines', size: 1, imposed: true })]);
    expect(prompt(placed)).toBe('AFA:build-pick');
    expect(placed.sabotage).toBeUndefined();
    expect(eventsOf(r, 'sabotage-imposed')[0]!.data).toMatchObject({ by: 'GER', on: 'AFA', result: 1, unit: 'royal-marines' });
  });

  it('2: the saboteur chooses which GAR the target builds free', () => {
    const t = reach(play(builds('9.6'), 'sabotage AFA', 'die 2').state, 'GER', 'sabotage-choice');
    expect(options(t)).toEqual(['impose gar home-guard']);
    const r = play(t, 'impose gar home-guard').state;
    const placed = play(r, options(r)[0]!).state;
    expect(placed.hidden.AFA).toEqual([expect.objectContaining({ unit: 'home-guard', free: true, imposed: true })]);
  });

  it("3: the saboteur chooses the target's first new weapon", () => {
    const t = reach(play(builds('9.6'), 'sabotage AFA', 'die 3').state, 'GER', 'sabotage-choice');
    // The AFA's current Group of its Weapons Development Chart (Group 1 of the pack's estimate).
    expect(options(t)).toEqual(['impose pick force-h', 'impose pick desert-air-force']);
    const r = play(t, 'impose pick desert-air-force').state;
    expect(r.pool['desert-air-force']).toBeDefined();
    expect(prompt(r)).toBe('AFA:build-pick');
    expect(options(r).filter((o) => o.startsWith('pick '))).toEqual([]);
  });

  it('results 1-3 unused on their turn lapse', () => {
    const s = play(builds('9.6'), 'sabotage AFA', 'die 3').state;
    const later = passUntil(s, (x) => x.turn === 3 && x.impulse === 1, { passive: ['done', 'stop', 'launch', 'blitz free'] })!;
    expect(later.sabotage).toBeUndefined();
  });

  it('4: a Partisan in a country the target conquered blocks one of its Oil or Resources next turn', () => {
    const s0 = structuredClone(builds('9.6'));
    // The AFA has conquered Germany (a 3 on the Partisan Chart; Western Germany and Berlin hold Resources and Oil).
    for (const l of p.countryLands.get('germany')!) if (l in s0.control) s0.control[l] = 'AFA';
    s0.conquered.push('germany');
    const r = play(s0, 'sabotage AFA', 'die 4');
    expect(prompt(r.state)).toBe('chance:sabotage-partisan-die');
    const place = play(r.state, 'die 3').state;
    expect(prompt(place)).toBe('GER:sabotage-partisan');
    const german = p.countryLands.get('germany')!.filter((l) => l in s0.control).sort();
    expect(options(place)).toEqual([...german.map((l) => `partisan ${l}`), 'partisan none']);
    const land = german.find((l) => landDef(p, l).oil + landDef(p, l).resources > 0)!;
    const done = play(place, `partisan ${land}`).state;
    expect(done.sabotagePartisans).toEqual([land]);
    const income = turnIncome(p, structuredClone(done), []);
    expect(income.AFA!.lines['sabotage partisans']).toBe(-1);
    // A face with no such country: nothing happens.
    const none = play(r.state, 'die 5');
    expect(none.state.sabotagePartisans).toBeUndefined();
    expect(eventsOf(none, 'sabotage')[0]!.text).toMatch(/no country it conquered/);
  });
});
