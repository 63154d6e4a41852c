/**
 * The A-Bomb (7.3, 7.8, E.5; carried by 5.3, 6.1 and 6.5; Join Atomic Club, 8) on the bundled
 * approximation, mostly in Scenario E (the Western Allies take it from the pack's Turn 8). The turns a
 * power may pick it, its build cost, what it does to its target and the club's ladder are the pack's
 * estimates (the Weapons Development Charts, the Unit Types Chart and the Victory Card are not in the
 * text); the tests read them from the pack rather than copying them.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { atomicClubPoints } from '../../src/rules/abomb.ts';
import { eliminate } from '../../src/rules/combat.ts';
import { packOf, scenarioDef } from '../../src/rules/pack-index.ts';
import { spentOf } from '../../src/rules/economy.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, combatLog, dieFor, eventsOf, options, pack, passUntil, play, prompt, reach, until } from '../helpers.ts';
import { expectIssue, fresh, scenarioAt } from '../support/pack-fixtures.ts';

const startE = (): BlitzState => blitz.setup('E', pack);
const p = packOf(startE().pack);
const bomb = scenarioDef(p, 'E').aBomb!;
const from = bomb.powers.WA!.fromTurn;
/** The Western Allies' builds on `turn`, with `edit` applied to the state first. */
const waBuilds = (turn: number, edit: Partial<BlitzState> = {}): BlitzState => reach({ ...structuredClone(startE()), turn, ...edit }, 'WA', 'build-pick');

describe('7.3/7.8 example: the A-Bomb is a weapon pick, then sits on the track at box 5', () => {
  it('the pack gives every power of E, F and the full game an A-Bomb, starting in box 5, carried by Strategic 4 or more (5.3)', () => {
    for (const id of ['E', 'F', 'full']) {
      const sc = scenarioDef(p, id);
      expect(Object.keys(sc.aBomb!.powers).sort()).toEqual(sc.powers.map((x) => x.id).sort());
      expect(sc.aBomb!.startBox).toBe(5);
      expect(sc.aBomb!.carrierStrategic).toBe(4);
    }
    expect(scenarioDef(p, 'D').aBomb).toBeUndefined();
  });

  it('before its turn the A-Bomb cannot be picked; from it, taking it is the turn\'s only weapon pick', () => {
    expect(options(waBuilds(from - 1))).not.toContain('abomb pick');
    const s = waBuilds(from);
    expect(options(s)).toContain('abomb pick');
    expect(options(s).some((o) => o.startsWith('pick '))).toBe(true);
    const r = play(s, 'abomb pick');
    expect(options(r.state).some((o) => o.startsWith('pick '))).toBe(false);
    expect(options(r.state)).not.toContain('abomb pick');
    // Picking costs nothing; the turn it is taken it may be developed and tested at once.
    expect(spentOf(r.state, 'WA')).toBe(spentOf(s, 'WA'));
    expect(options(r.state)).toEqual(expect.arrayContaining(['abomb develop', 'abomb test']));
  });

  it('a weapon pick already taken this turn leaves no A-Bomb pick', () => {
    const s = waBuilds(from);
    const other = options(s).find((o) => o.startsWith('pick '))!;
    expect(options(play(s, other).state)).not.toContain('abomb pick');
  });
});

describe('7.8 example: develop and test once each a turn, a Resource each; the test needs a die above the box', () => {
  const picked = () => play(waBuilds(from), 'abomb pick').state;

  it('developing costs a Resource and moves it one box down, once a turn', () => {
    const s = picked();
    const r = play(s, 'abomb develop');
    expect(spentOf(r.state, 'WA')).toBe(spentOf(s, 'WA') + 1);
    expect(options(r.state)).not.toContain('abomb develop');
  });

  it('testing costs a Resource and rolls a die: at box 4 a 4 fails and a 5 succeeds; then it may be built at home', () => {
    const s = play(picked(), 'abomb develop', 'abomb test').state;
    expect(prompt(s)).toBe('chance:a-bomb-test');
    const fail = play(s, 'die 4').state;
    expect(fail.hidden.WA!.find((h) => h.at === 'a-bomb-test')!.ok).toBe(false);
    expect(options(fail).filter((o) => o.startsWith('abomb'))).toEqual([]);
    const ok = play(s, 'die 5').state;
    expect(ok.hidden.WA!.find((h) => h.at === 'a-bomb-test')!.ok).toBe(true);
    const sites = options(ok).filter((o) => o.startsWith('abomb build '));
    expect(sites.length).toBeGreaterThan(0);
    // 7.8: placed in a land area of the power's home countries (the Western Allies: the USA and Britain's).
    for (const o of sites) expect(['usa', 'great-britain', 'canada', 'australia', 'india', 'south-africa']).toContain(p.land.get(o.slice('abomb build '.length))!.country);
    const built = play(ok, sites[0]!).state;
    expect(spentOf(built, 'WA')).toBe(spentOf(ok, 'WA') + bomb.size);
  });

  it('the steps are secret until the builds are revealed (1.9), then the track, the test and the bomb are open', () => {
    const s = play(picked(), 'abomb develop', 'abomb test', 'die 6').state;
    const site = options(s).find((o) => o.startsWith('abomb build '))!;
    const built = play(s, site).state;
    expect(built.aBomb).toBeUndefined();
    expect(blitz.observe(built, 'JAP').hidden.WA).toBeUndefined();
    expect(blitz.observe(built, 'WA').hidden.WA!.some((h) => h.at === 'a-bomb-test' && h.ok)).toBe(true);
    const done = play(built, 'done');
    const events = eventsOf(done, 'a-bomb').map((e) => e.text);
    const next = passUntil(done.state, (x) => x.turn === from + 1, { onStep: (_, ev) => events.push(...ev.filter((e) => e.type === 'a-bomb').map((e) => e.text)) })!;
    expect(next.aBomb!.WA).toEqual({ box: 4, tested: from, at: site.slice('abomb build '.length) });
    expect(events).toEqual([
      'WA takes its A-Bomb as its weapon pick: it is on the track at box 5',
      'WA develops its A-Bomb: box 4',
      'WA tests its A-Bomb at box 4: success',
      `WA builds its A-Bomb in ${p.land.get(site.slice('abomb build '.length))!.name}`,
    ]);
  });

  it('it never goes below box 1', () => {
    const s = waBuilds(from + 1, { aBomb: { WA: { box: 1 } } });
    expect(options(s)).toContain('abomb test');
    expect(options(s)).not.toContain('abomb develop');
  });

  it('one more on the die once an enemy major power has A-bombed an area the power controls: at box 5 a 5 then succeeds', () => {
    const s = play(waBuilds(from + 1, { aBomb: { WA: { box: 5 } } }), 'abomb test').state;
    expect(play(s, 'die 5').state.hidden.WA!.find((h) => h.at === 'a-bomb-test')!.ok).toBe(false);
    const bombed = play(waBuilds(from + 1, { aBomb: { WA: { box: 5 } }, aBombed: ['WA'] }), 'abomb test').state;
    expect(play(bombed, 'die 5').state.hidden.WA!.find((h) => h.at === 'a-bomb-test')!.ok).toBe(true);
  });

  it('a built bomb lying in an area the enemy has taken is lost (our reading): it may be built again, not carried', () => {
    const held = waBuilds(from + 2, { aBomb: { WA: { box: 3, tested: from, at: 'manila' } } });
    expect(options(held).filter((o) => o.startsWith('abomb'))).toEqual([]);
    const taken = waBuilds(from + 2, { aBomb: { WA: { box: 3, tested: from, at: 'manila' } }, control: { ...startE().control, manila: 'JAP' } });
    expect(options(taken).some((o) => o.startsWith('abomb build '))).toBe(true);
  });

  it('once tested, it is built again with no test or development', () => {
    const s = waBuilds(from + 2, { aBomb: { WA: { box: 3, tested: from } } });
    const mine = options(s).filter((o) => o.startsWith('abomb'));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((o) => o.startsWith('abomb build '))).toBe(true);
  });
});

describe('8 example: Join Atomic Club', () => {
  const ladder = scenarioDef(p, 'full').victory!.objectives.find((o) => o.id === 'usa-atomic-club')!.ladder!;

  it('the first joiner takes 3 VP; Germany and the AFA, joining together the next turn, take 3 each as second', () => {
    expect(ladder.slice(0, 2)).toEqual([3, 3]);
    const s = { ...structuredClone(startE()), turn: 11, aBomb: { USA: { box: 2, tested: 11 } } } as BlitzState;
    expect(atomicClubPoints(s, 'USA', ladder)).toBe(3);
    const t = { ...s, turn: 12, aBomb: { USA: { box: 2, tested: 11 }, GER: { box: 3, tested: 12 }, AFA: { box: 1, tested: 12 } } } as BlitzState;
    expect(atomicClubPoints(t, 'USA', ladder)).toBe(0); // scored once, on the turn it joined
    expect(atomicClubPoints(t, 'GER', ladder)).toBe(ladder[1]);
    expect(atomicClubPoints(t, 'AFA', ladder)).toBe(ladder[1]);
    // The third place onwards is the pack's estimate; a later joiner takes that turn's place.
    const u = { ...t, turn: 13, aBomb: { ...t.aBomb, USSR: { box: 4, tested: 13 } } } as BlitzState;
    expect(atomicClubPoints(u, 'USSR', ladder)).toBe(ladder[3]);
  });

  it('in E the Western Allies score it at the turn end of their first successful test', () => {
    const r = play(waBuilds(from), 'abomb pick', 'abomb test', 'die 6', 'done');
    const events = [...r.events];
    passUntil(r.state, (x) => x.turn === from + 1, { onStep: (_, ev) => events.push(...ev) });
    const club = events.filter((e) => (e.data as { objective?: string } | undefined)?.objective === 'wa-atomic-club');
    expect(club.map((e) => (e.data as { vp: number }).vp)).toEqual([3]);
    // A failed test scores nothing.
    const failed = play(waBuilds(from), 'abomb pick', 'abomb test', 'die 1', 'done');
    const later = [...failed.events];
    passUntil(failed.state, (x) => x.turn === from + 1, { onStep: (_, ev) => later.push(...ev) });
    expect(later.some((e) => (e.data as { objective?: string } | undefined)?.objective === 'wa-atomic-club')).toBe(false);
  });
});

describe('5.3/6.1/6.5 example: an A-Bomb carried into a land combat', () => {
  /** The Western Allies' announce step in E with a tested A-Bomb and the 20th Air Force (Strategic 5 at Size 2) in Manila. */
  const bed = (units: Parameters<typeof arrange>[1]['units'] = {}): BlitzState => {
    const s = reach(startE(), 'WA', 'announce-attack');
    return arrange({ ...structuredClone(s), aBomb: { WA: { box: 3, tested: 4, at: 'manila' } } }, { units: { '20th-air-force': { at: 'manila', size: 2, power: 'WA' }, 'naval-air': null, ...units } });
  };

  it('only an air unit with 4 or more Strategic Factors based where the bomb lies may carry it', () => {
    const s = play(bed(), 'bomb tokyo', 'add 20th-air-force').state;
    expect(options(s)).toContain('abomb 20th-air-force');
    expect(options(play(bed(), 'bomb osaka', 'add 20th-air-force').state)).toContain('abomb 20th-air-force');
    const weak = play(bed({ '20th-air-force': { at: 'manila', size: 1, power: 'WA' } }), 'bomb osaka', 'add 20th-air-force').state;
    expect(options(weak)).not.toContain('abomb 20th-air-force'); // Strategic 3 at Size 1
    const away = bed();
    away.aBomb = { WA: { box: 3, tested: 4, at: 'west-coast' } };
    expect(options(play(away, 'bomb tokyo', 'add 20th-air-force').state)).not.toContain('abomb 20th-air-force');
  });

  it('with no Air Round it goes off over the target: each defending land unit loses a Size, the Factory is wrecked, the owner is marked', () => {
    const s = until(play(bed(), 'bomb tokyo', 'add 20th-air-force', 'abomb 20th-air-force', 'launch', 'done').state, 'WA', 'resolve-order');
    expect(s.aBomb!.WA!.at).toBe('carrier:20th-air-force');
    const r = play(s, 'resolve tokyo');
    expect(eventsOf(r, 'a-bomb').map((e) => e.text)).toEqual(["WA's A-Bomb goes off over Tokyo: its Factory is wrecked"]);
    expect(r.state.factoryDamage!.tokyo).toBe(p.land.get('tokyo')!.factory);
    expect(r.state.units['home-defence-gar']!.at).toBe('pool'); // Size 1, so destroyed
    expect(r.state.aBombed).toEqual(['JAP']);
    // Used, it goes back to the Force Pool: tested, not built.
    expect(r.state.aBomb!.WA).toEqual({ box: 3, tested: 4 });
  });

  /** The same mission against Japanese fighters defending Tokyo: an Air Round first. */
  const airRound = () => {
    const s0 = play(bed({ 'naval-air': { at: 'tokyo', size: 2, power: 'JAP' }, zeroes: { at: 'tokyo', size: 2, power: 'JAP' } }), 'bomb tokyo', 'add 20th-air-force', 'abomb 20th-air-force', 'launch', 'done').state;
    const d = play(s0, 'defend tokyo naval-air', 'defend tokyo zeroes').state;
    return play(until(d, 'WA', 'resolve-order'), 'resolve tokyo');
  };

  it('it sits out the Air Round; turned back with its carrier, it goes home with it and does not go off', () => {
    const r = airRound();
    const air = combatLog(r).find((l) => l.round === 'air')!;
    expect(air.attackers).toEqual(['20th-air-force']);
    const back = play(r.state, dieFor(air.attFactors as number, (x) => x.damage === 0 && !x.letter), dieFor(air.defFactors as number, (x) => x.damage === 0 && x.letter === 'L'));
    expect(eventsOf(back, 'a-bomb').map((e) => e.text)).toEqual(["WA's A-Bomb turns back with 20th Air Force"]);
    expect(back.state.aBomb!.WA!.at).toBe('manila');
    expect(back.state.factoryDamage?.tokyo ?? 0).toBe(0);
  });

  it('6.5: it is destroyed with its carrier, and may be built again with no test', () => {
    const r = airRound();
    const s = structuredClone(r.state);
    const ev: { type: string; text: string }[] = [];
    eliminate(p, s, '20th-air-force', ev as never);
    expect(ev.map((e) => e.text)).toContain("WA's A-Bomb is destroyed with 20th Air Force");
    expect(s.aBomb!.WA).toEqual({ box: 3, tested: 4 });
  });
});

describe('7.8: a carrier picks up the A-Bomb where it lies, even in the middle of a rebase', () => {
  /** The Western Allies' rebase step in E with a built A-Bomb in Manila and the 20th Air Force (Strategic 5 at Size 2) at `at`. */
  const rebaseBed = (at: string, size = 2): BlitzState => {
    const s = reach(startE(), 'WA', 'rebase-pick');
    return arrange({ ...structuredClone(s), aBomb: { WA: { box: 3, tested: 4, at: 'manila' } } }, { units: { '20th-air-force': { at, size, power: 'WA' } } });
  };

  it('rebasing from where the bomb lies, it may take it along: the bomb then lies where the rebase ends', () => {
    const s = play(rebaseBed('manila'), 'rebase 20th-air-force').state;
    expect(options(s)).toContain('carry a-bomb');
    const r = play(s, 'carry a-bomb', 'to burma');
    expect(r.state.aBomb!.WA!.at).toBe('burma');
    expect(r.state.units['20th-air-force']!.at).toBe('burma');
    expect(eventsOf(r, 'a-bomb').map((e) => (e.data as { step: string }).step)).toEqual(['pick-up', 'carried']);
    // Not taken along, it stays where it was.
    expect(play(s, 'to burma').state.aBomb!.WA!.at).toBe('manila');
  });

  it('passing where the bomb lies, it may stop there (`via`), pick it up and fly on with the movement it has left', () => {
    const s = play(rebaseBed('hawaii'), 'rebase 20th-air-force').state;
    expect(options(s)).toContain('via manila');
    expect(options(s)).not.toContain('carry a-bomb'); // not where the bomb lies
    const stop = play(s, 'via manila');
    expect(stop.state.units['20th-air-force']!.at).toBe('manila');
    expect(prompt(stop.state)).toBe('WA:rebase-to');
    expect(options(stop.state)).toContain('carry a-bomb');
    expect(options(stop.state)).not.toContain('via manila');
    // The movement spent reaching Manila is gone: fewer areas in reach than from Manila afresh.
    const fresh = options(play(rebaseBed('manila'), 'rebase 20th-air-force').state).filter((o) => o.startsWith('to '));
    const onward = options(stop.state).filter((o) => o.startsWith('to '));
    expect(onward.length).toBeGreaterThan(0);
    expect(onward.length).toBeLessThan(fresh.length);
    for (const o of onward) expect(fresh).toContain(o);
    const dest = onward[0]!;
    const r = play(stop.state, 'carry a-bomb', dest);
    expect(r.state.aBomb!.WA!.at).toBe(dest.slice(3));
    expect(r.state.units['20th-air-force']!.rebased).toBe(true);
  });

  it('an air unit with fewer than 4 Strategic Factors is offered neither the stop nor the pick-up', () => {
    const weak = play(rebaseBed('hawaii', 1), 'rebase 20th-air-force').state; // Strategic 3 at Size 1
    expect(options(weak)).not.toContain('via manila');
    const there = play(rebaseBed('manila', 1), 'rebase 20th-air-force').state;
    expect(options(there)).not.toContain('carry a-bomb');
  });
});

describe('7.8/8 the pack\'s A-Bomb data is checked', () => {
  const { path, raw } = scenarioAt('E');
  const objective = (r: ReturnType<typeof fresh>, id: string) => (raw(r).victory.objectives as { id: string }[]).findIndex((o) => o.id === id);

  it('an A-Bomb for a power the scenario does not have, or from a turn it does not play', () => {
    const r = fresh();
    raw(r).aBomb.powers.GER = { fromTurn: 9 };
    raw(r).aBomb.powers.WA.fromTurn = 2;
    expectIssue(r, `${path}.aBomb.powers.GER`, /'GER' is not a power of this scenario/);
    expectIssue(r, `${path}.aBomb.powers.WA.fromTurn`, /turn 2 is outside turns 4-15/);
  });

  it('Join Atomic Club needs its ladder and an A-Bomb for its power; no other objective takes a ladder', () => {
    const r = fresh();
    const club = objective(r, 'wa-atomic-club');
    delete raw(r).victory.objectives[club].ladder;
    delete raw(r).aBomb.powers.JAP;
    raw(r).victory.objectives[0].ladder = [1];
    expectIssue(r, `${path}.victory.objectives[${club}].ladder`, /needs ladder/);
    expectIssue(r, `${path}.victory.objectives[${objective(r, 'jap-atomic-club')}].power`, /'JAP' has no A-Bomb in this scenario/);
    expectIssue(r, `${path}.victory.objectives[0].ladder`, /only an 'atomic-club' objective scores by a ladder/);
  });
});
