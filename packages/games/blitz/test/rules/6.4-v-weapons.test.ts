/**
 * V-Weapons, Germany's special air units (1.2, 5.3, 6, 6.1, 6.4), and the one-shot '*' air units of 6,
 * on the bundled pack: the V-1 and V-2 counters are estimates (the counters are not in the text). A
 * V-Weapon has only a Strategic Factor, never fights in an Air Round, joins Factory Attacks only and
 * always reaches their Strategic Round, may carry Germany's A-Bomb, and is used up when it fires.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { packOf, scenarioDef } from '../../src/rules/pack-index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { revealBuilds } from '../../src/rules/turn-end.ts';
import { scoreObjectives } from '../../src/rules/victory-points.ts';
import type { PackFiles } from '../../src/pack/schema.ts';
import { chartResult } from '../../src/rules/combat-chart.ts';
import { expectIssue, fresh, issuesOf, scenarioAt, type Raw } from '../support/pack-fixtures.ts';
import { arrange, checkedPack, combatLog, dieFor, eventsOf, options, pack, play, prompt, reach, skipTo, until } from '../helpers.ts';

const p = packOf(blitz.setup('D', pack).pack);

describe('1.2: the V-Weapon counters of the pack', () => {
  it('1.2: the V-1 and the V-2 are special German air units: a Strategic Factor but no Air Factor and no primary bombing factor, one-shot, Size 1', () => {
    for (const id of ['v-1', 'v-2']) {
      const d = p.unit.get(id)!;
      expect(d).toMatchObject({ nation: 'GER', type: 'AIR', vWeapon: true, oneShot: true });
      expect(d.primary).toBeUndefined();
      expect(Object.keys(d.sizes)).toEqual(['1']);
      expect(d.sizes['1']!.air).toBeUndefined();
      expect(d.sizes['1']!.strategic).toBeGreaterThan(0);
    }
    expect(p.unit.get('v-2')!.sizes['1']!.strategic).toBe(4); // enough to carry the A-Bomb (5.3)
  });

  it('7.3: they enter Germany\'s Force Pool on Turn 9 in D, F and the full game (an estimate: the Weapons Development Charts are not in the text)', () => {
    for (const sc of ['D', 'F', 'full']) {
      const pool = scenarioDef(p, sc).forcePool.filter((x) => x.unit === 'v-1' || x.unit === 'v-2');
      expect(pool.map((x) => [x.unit, x.size, x.from])).toEqual([
        ['v-1', 1, 9],
        ['v-2', 1, 9],
      ]);
    }
  });
});

describe('1.2/8: the pack checker knows V-Weapons, one-shot units and build-unit objectives', () => {
  const unitAt = (raw: Raw, id: string): number => (raw.units.units as { id: string }[]).findIndex((u) => u.id === id);

  it('1.2: the bundled V-Weapons pass; one given an Air Factor or a primary bombing factor, or lacking its Strategic Factor, is refused with the path', () => {
    expect(issuesOf(fresh())).toEqual([]);
    const raw = fresh();
    const i = unitAt(raw, 'v-2');
    raw.units.units[i].sizes['1'].air = 1;
    expectIssue(raw, `$.units.units[${i}].sizes["1"].air`, /no Air Factor/);
    const prim = fresh();
    prim.units.units[i].primary = 'strategic';
    expectIssue(prim, `$.units.units[${i}].primary`, /no primary bombing factor/);
    const none = fresh();
    delete none.units.units[i].sizes['1'].strategic;
    expectIssue(none, `$.units.units[${i}].sizes["1"].strategic`, /needs a Strategic Factor/);
  });

  it("6: only an air unit may carry the '*' of a one-shot unit", () => {
    const raw = fresh();
    const i = unitAt(raw, 'volkssturm');
    raw.units.units[i].oneShot = true;
    expectIssue(raw, `$.units.units[${i}].oneShot`, /only air units/);
  });

  it("8: a 'build-unit' objective needs its units, each a counter of its own power", () => {
    const { path, raw: sc } = scenarioAt('full');
    const at = (raw: Raw) => (sc(raw).victory.objectives as { id: string }[]).findIndex((o) => o.id === 'ger-super-weapons');
    const empty = fresh();
    const k = at(empty);
    delete sc(empty).victory.objectives[k].units;
    expectIssue(empty, `${path}.victory.objectives[${k}].units`, /needs units/);
    const foreign = fresh();
    sc(foreign).victory.objectives[k].units = ['v-2', 'kamikazes'];
    expectIssue(foreign, `${path}.victory.objectives[${k}].units[1]`, /JAP counter/);
  });
});

/**
 * Scenario F, Germany's first announce step, with Belgium-Netherlands German for the test and the V-2
 * there: London (the AFA's, Factory Factor 2, the RAF and Bomber Command based there) is 2 away, into
 * Paris and along its Air Route.
 */
const fStart = reach(blitz.setup('F', pack), 'GER', 'announce-attack');
function bed(units: Parameters<typeof arrange>[1]['units'] = {}): BlitzState {
  return arrange(structuredClone(fStart), { control: { 'belgium-netherlands': 'GER' }, units: { 'v-2': { at: 'belgium-netherlands', power: 'GER', size: 1 }, ...units } });
}

/** Announce a Factory Attack on London with `attackers`, let the Allies commit `defence`, and resolve it. */
function londonRaid(attackers: string[], defence: string[] = []) {
  const s = play(bed(Object.fromEntries(attackers.filter((x) => x !== 'v-2').map((x) => [x, { at: 'belgium-netherlands', power: 'GER', size: 2 }]))), 'bomb london', ...attackers.map((x) => `add ${x}`), 'launch', 'done').state;
  const d = defence.length ? play(until(s, 'AFA', 'commit-defence'), ...defence.map((x) => `defend london ${x}`)).state : s;
  return play(until(d, 'GER', 'resolve-order'), 'resolve london');
}

describe('6.1/6.4: V-Weapons fight only in the Strategic Round of a Factory Attack', () => {
  it('5.3/6.4: the V-2 may join a Factory Attack on London within its range of 2, as an air unit would', () => {
    const s = bed();
    expect(options(s)).toContain('bomb london');
    expect(options(play(s, 'bomb london').state)).toContain('add v-2');
  });

  it('6.1: it joins no Ground Attack, while an ordinary air unit based with it may', () => {
    // Find a Ground Attack Germany can launch and a German land unit next to its target; base the V-2 and the Stukas there.
    const probe = bed();
    const target = options(probe).find((o) => o.startsWith('attack '))!.slice('attack '.length);
    const landUnit = options(play(probe, `attack ${target}`).state).find((o) => o.startsWith('add '))!.slice('add '.length);
    const base = probe.units[landUnit]!.at;
    const s = bed({ 'v-2': { at: base, power: 'GER', size: 1 }, stukas: { at: base, power: 'GER', size: 2 } });
    const opts = options(play(s, `attack ${target}`).state);
    expect(opts).toContain('add stukas');
    expect(opts).not.toContain('add v-2');
  });

  it('6.1: it never defends: against the Western Allies\' Factory Attack on Berlin the Me-109s may join the defence, the V-2 based there may not', () => {
    let s = arrange(blitz.setup('D', pack), {
      control: { 'belgium-netherlands': 'WA' },
      units: { '1st-tactical-air-force': { power: 'WA', at: 'belgium-netherlands', size: 2 }, 'v-2': { at: 'berlin', power: 'GER', size: 1 } },
    });
    s = until(s, 'WA', 'announce-attack');
    const d = until(play(s, 'bomb berlin', 'add 1st-tactical-air-force', 'launch', 'done').state, 'GER', 'commit-defence');
    expect(options(d)).toContain('defend berlin me-109s');
    expect(options(d).some((o) => o.endsWith(' v-2'))).toBe(false);
  });

  it('6.1: alone against the RAF defending London it meets no Air Round and goes straight to the Strategic Round: Strategic 4 plus the Factory Factor 2', () => {
    const r = londonRaid(['v-2'], ['royal-air-force']);
    expect(prompt(r.state)).toBe('chance:strategic-round-attacker-die');
    const log = combatLog(r);
    expect(log.map((l) => l.round)).toEqual(['strategic']);
    expect(log[0]!.attackers).toEqual(['v-2']);
    expect(log[0]!.attRaw).toBe(4 + 2);
  });

  it('6.1/6.4: beside a bomber the Air Round turns back, it takes no part in the Air Round and still reaches the Strategic Round', () => {
    const r = londonRaid(['he-177s', 'v-2'], ['royal-air-force']);
    const air = combatLog(r).find((l) => l.round === 'air')!;
    expect(air.attackers).toEqual(['he-177s']);
    // The He 177s do nothing; the RAF's L (two-thirds of one unit, rounded: one) turns the He 177s back.
    const back = play(r.state, dieFor(air.attFactors as number, (x) => x.damage === 0 && !x.letter), dieFor(air.defFactors as number, (x) => x.damage <= 1 && (x.letter === 'L' || x.letter === 'B')));
    expect(eventsOf(back, 'return-to-base').map((e) => (e.data as { unit: string }).unit)).toEqual(['he-177s']);
    const strategic = combatLog(back).find((l) => l.round === 'strategic')!;
    expect(strategic.attackers).toEqual(['v-2']);
    expect(prompt(back.state)).toBe('chance:strategic-round-attacker-die');
  });
});

describe("6: one-shot ('*') air units are destroyed before the round's results apply", () => {
  it("6 example: the V-2 and the He 177s bomb London; the V-2 is used up (back to the Force Pool, no enemy's kill), the He 177s are not; the Factory damage still counts", () => {
    const r = londonRaid(['he-177s', 'v-2']);
    const round = combatLog(r).find((l) => l.round === 'strategic')!;
    expect(round.attackers).toEqual(['he-177s', 'v-2']);
    const hit = play(r.state, dieFor(round.attFactors as number, (x) => x.damage >= 1));
    expect(eventsOf(hit, 'one-shot').map((e) => e.text)).toEqual(['V-2 Rockets is used up (a one-shot unit)']);
    expect(hit.state.units['v-2']!.at).toBe('pool');
    expect(hit.state.pool['v-2']).toEqual({ size: 1, from: 0 });
    expect(hit.state.units['he-177s']!.at).toBe('belgium-netherlands');
    expect(hit.state.factoryDamage!.london).toBeGreaterThanOrEqual(1);
    expect(hit.state.kills ?? []).toEqual([]); // spent, not destroyed by the Western Allies
    // The one-shot removal comes before the Factory damage is reported.
    const types = hit.events.map((e) => e.type);
    expect(types.indexOf('one-shot')).toBeLessThan(types.indexOf('factory-damage'));
  });

  it("6: also with a result of no damage the V-2 is gone: it is used by taking part, not by hitting", () => {
    const r = londonRaid(['v-2']);
    const round = combatLog(r).find((l) => l.round === 'strategic')!;
    const miss = dieFor(round.attFactors as number, (x) => x.damage === 0);
    const done = play(r.state, miss);
    expect(done.state.units['v-2']!.at).toBe('pool');
    expect(done.state.factoryDamage?.london ?? 0).toBe(0);
  });
});

describe("6: one-shot ('*') air units in a sea area combat", () => {
  // No counter of the bundled pack that fights at sea is marked '*' (the Kamikazes are left unmarked, see
  // the pack README), so this test bed marks Japan's Naval Air as one, and makes the 12th Fleet a carrier
  // as the 4.4 example's test bed does: synthetic test values, not the published counters.
  const oneShotPack = (() => {
    const files = structuredClone(blitz.bundledPacks.approximation) as PackFiles;
    files.pack = { ...files.pack, id: 'one-shot-test', fidelity: 'synthetic', description: 'Scenario E with a one-shot Naval Air and the 12th Fleet as a carrier (test only).' };
    const twelfth = files.units.units.find((u) => u.id === '12th-fleet')!;
    twelfth.type = 'CV';
    twelfth.sizes = { '1': { move: 2, air: 1, naval: 2, blockade: 1 }, '2': { move: 2, air: 2, naval: 3, blockade: 1 } };
    files.units.units.find((u) => u.id === 'naval-air')!.oneShot = true;
    return checkedPack(files, 'one-shot test pack');
  })();
  const dieOn = (total: number, want: (r: { damage: number; letter: string | null }) => boolean): string => {
    for (let d = 1; d <= 6; d++) if (want(chartResult(oneShotPack.data['combat-chart'], total, d))) return `die ${d}`;
    throw new Error(`no die gives the wanted result on column ${total}`);
  };

  it("6: the one-shot Naval Air fights the Air Round against the 12th Fleet, is used up before its results apply, and is not in the Naval Round", () => {
    const s = skipTo(arrange(blitz.setup('E', oneShotPack), { units: { '12th-fleet': { power: 'WA', at: 'sea:east-china-sea', size: 2 }, 'naval-air': { at: 'sea:east-china-sea', size: 2 } } }));
    expect(s.sea?.sea).toBe('east-china-sea');
    const air = s.sea!.log[0]!;
    expect(air).toMatchObject({ round: 'air', attackers: ['naval-air'], defenders: ['12th-fleet'] });
    // The Naval Air's hit still lands on the 12th Fleet: the round's results are the round's, fired before it was used up.
    const r = play(s, dieOn(air.attFactors as number, (x) => x.damage === 1 && x.letter === null), dieOn(air.defFactors as number, (x) => x.damage === 0 && x.letter === null));
    expect(eventsOf(r, 'one-shot').map((e) => e.data!.unit)).toEqual(['naval-air']);
    expect(r.state.units['naval-air']!.at).toBe('pool');
    expect(eventsOf(r, 'loss').map((e) => e.data!.unit)).toEqual(['12th-fleet']);
    const naval = r.state.sea?.log.find((l) => l.round === 'naval');
    expect(naval?.attackers ?? []).not.toContain('naval-air');
  });
});

describe("5.3: Germany's A-Bomb may be carried by a V-Weapon", () => {
  /** Scenario F, Germany's announce step, Belgium-Netherlands German with both V-Weapons and Germany's tested A-Bomb there. */
  const fBed = (): BlitzState => {
    return arrange(
      { ...structuredClone(fStart), aBomb: { GER: { box: 3, tested: 1, at: 'belgium-netherlands' } } },
      { control: { 'belgium-netherlands': 'GER' }, units: { 'v-1': { at: 'belgium-netherlands', power: 'GER', size: 1 }, 'v-2': { at: 'belgium-netherlands', power: 'GER', size: 1 } } },
    );
  };

  it('5.3: the V-2 (Strategic 4) may carry it; the V-1 (Strategic 3, under the 4 a carrier needs) may not', () => {
    const opts = options(play(fBed(), 'bomb london', 'add v-1', 'add v-2').state);
    expect(opts).toContain('abomb v-2');
    expect(opts).not.toContain('abomb v-1');
  });

  it('6.1/5.3: carried by the V-2 past the RAF (no Air Round for a V-Weapon), it goes off over London; then the V-2 is used up in the Strategic Round', () => {
    const s0 = play(fBed(), 'bomb london', 'add v-2', 'abomb v-2', 'launch', 'done').state;
    const d = until(s0, 'AFA', 'commit-defence');
    const r = play(until(play(d, 'defend london royal-air-force').state, 'GER', 'resolve-order'), 'resolve london');
    expect(eventsOf(r, 'a-bomb').map((e) => e.text)).toEqual(["GER's A-Bomb goes off over London: its Factory is wrecked"]);
    expect(combatLog(r).map((l) => l.round)).toEqual(['strategic']);
    const done = play(r.state, 'die 1');
    expect(done.state.units['v-2']!.at).toBe('pool');
    expect(done.state.aBomb!.GER).toEqual({ box: 3, tested: 1 }); // used, back to the Force Pool
  });
});

describe('8: Super Weapons (Germany)', () => {
  const full = (): BlitzState => {
    const s = structuredClone(blitz.setup('full', pack, { players: 4 }));
    s.turn = 12;
    s.vp = { GER: 9, JAP: 12, USSR: 10, AFA: 8, USA: 13 };
    return s;
  };
  const pf = packOf(full().pack);
  const superWeapons = (s: BlitzState, builds: { unit: string; size: number; at: string }[]): number => {
    s.hidden = { GER: builds.map((b) => ({ ...b })) };
    const ev: GameEvent[] = [];
    revealBuilds(pf, s, ev);
    scoreObjectives(pf, s, ev);
    return ev.filter((e) => (e.data as { objective?: string }).objective === 'ger-super-weapons').reduce((t, e) => t + (e.data as { vp: number }).vp, 0);
  };

  it('8: the objective is on Germany\'s card in D, F and the full game, an estimate naming the V-1 and the V-2', () => {
    for (const sc of ['D', 'F', 'full']) {
      const o = scenarioDef(pf, sc).victory!.objectives.find((x) => x.id === 'ger-super-weapons')!;
      expect(o).toMatchObject({ power: 'GER', kind: 'build-unit', units: ['v-1', 'v-2'], vp: 1 });
      expect(Object.keys(o.estimates ?? {})).toEqual(expect.arrayContaining(['units', 'vp']));
    }
  });

  it('8: 1 VP at the end of a turn in which Germany builds a V-Weapon, once a turn however many it builds; none for other builds; the next turn starts afresh', () => {
    const s = full();
    expect(superWeapons(s, [{ unit: 'v-2', size: 1, at: 'berlin' }, { unit: 'v-1', size: 1, at: 'berlin' }])).toBe(1);
    expect(s.built).toBeUndefined(); // forgotten once scored
    const other = full();
    expect(superWeapons(other, [{ unit: 'volkssturm', size: 1, at: 'berlin' }])).toBe(0);
    expect(superWeapons(s, [])).toBe(0);
  });
});
