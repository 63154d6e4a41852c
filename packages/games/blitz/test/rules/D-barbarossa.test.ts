/**
 * Scenario D (Barbarossa) on the bundled approximation: three powers on two sides, Snow, Factory
 * Attacks, income from the map with Lend Lease and trades, the Second Front, the Near East, and
 * victory points from the Victory Card objectives. Figures are computed from the pack, not copied.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { packOf, scenarioDef } from '../../src/rules/pack-index.ts';
import { turnIncome } from '../../src/rules/income.ts';
import { inSupply } from '../../src/rules/supply.ts';
import { applyDisband, applyHandovers, askDisband, startDisbands } from '../../src/rules/specials.ts';
import { takeControl } from '../../src/rules/politics.ts';
import { eliminate } from '../../src/rules/combat.ts';
import { decideByPoints, scoreObjectives } from '../../src/rules/victory-points.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import type { GameEvent } from '@salient/engine';
import { arrange, combatLog, dieFor, eventsOf, options, pack, play, prompt, reach, start, until } from '../helpers.ts';

const p = packOf(start('D').pack);
const sc = scenarioDef(p, 'D');
const onTurn = (turn: number, s0: BlitzState = start('D')): BlitzState => ({ ...structuredClone(s0), turn });
const landOf = (id: string) => p.land.get(id)!;

describe('D: Barbarossa set-up and sides', () => {
  it('starts on Turn 3 with Germany against the USSR and the Western Allies, each a seat', () => {
    const s = start('D');
    expect(s.turn).toBe(3);
    const info = blitz.scenarios(pack).find((x) => x.id === 'D')!;
    expect(info.sides.map((x) => [x.id, x.powers])).toEqual([
      ['Axis', ['GER']],
      ['Allies', ['USSR', 'WA']],
    ]);
    // Stated politics: Germany holds Poland and Belgium-Netherlands, the Balkans are the Western Allies'.
    expect([s.control.poland, s.control['belgium-netherlands'], s.control.balkans]).toEqual(['GER', 'GER', 'WA']);
  });

  it('D.4/2.2 every power picks any Blitz it can pay for, the side\'s powers announcing before either acts', () => {
    const s = reach(start('D'), 'GER', 'blitz-choice');
    const oil = s.oil!.GER!;
    expect(oil).toBe(sc.oil!.GER);
    const want = ['free', 'air', 'land', 'naval', 'total'].filter((m) => ({ free: 0, air: 1, land: 1, naval: 1, total: 2 })[m]! <= oil).map((m) => `blitz ${m}`);
    expect([...options(s)].sort()).toEqual(want.sort());
    // The Allied Blitz: the USSR chooses, then the Western Allies, before any Allied Blitz step.
    const a = reach(s, 'USSR', 'blitz-choice');
    expect(a.impulse).toBe(4);
    const b = play(a, options(a)[0]!).state;
    expect(prompt(b)).toBe('WA:blitz-choice');
  });
});

describe('D.2/1.4 Snow and halving', () => {
  // D.2's worked example: the Waffen SS Army (5 Land Factors) attacks a Mountain area of the USSR on a
  // Snow turn: 5 halved for the terrain is 2.5, halved again for the weather 1.25, which rounds to 1.
  const attackCaucasus = (turn: number) => {
    let s = arrange(onTurn(turn), {
      units: { 'waffen-ss-army': { at: 'don-basin', size: 2 }, luftwaffe: { at: 'don-basin', size: 2 }, cavalry: { at: 'caucasus-mountains', size: 1 } },
      control: { 'don-basin': 'GER' },
    });
    s = until(s, 'GER', 'announce-attack');
    return play(s, 'attack caucasus-mountains');
  };

  it('on a Snow turn no air unit joins a land combat in a Snow country, and attacking Land Factors are halved again', () => {
    const snowTurn = sc.snowTurns![0]!;
    expect(p.files.map.countries.find((c) => c.id === 'ussr')!.snow).toBe(true);
    const snow = attackCaucasus(snowTurn);
    expect(options(snow.state)).toContain('add waffen-ss-army');
    expect(options(snow.state)).not.toContain('add luftwaffe');
    let s = play(snow.state, 'add waffen-ss-army', 'launch', 'done').state;
    s = until(s, 'GER', 'resolve-order');
    const r = play(s, 'resolve caucasus-mountains');
    const land = combatLog(r).find((l) => l.round === 'land')!;
    expect(land.attRaw).toBe(1.25);
    expect(land.attFactors).toBe(1);
  });

  it('on a turn without Snow the same attack may bring air units and is halved once', () => {
    const clear = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12].find((t) => !sc.snowTurns!.includes(t))!;
    const r = attackCaucasus(clear);
    expect(options(r.state)).toContain('add luftwaffe');
    let s = play(r.state, 'add waffen-ss-army', 'launch', 'done').state;
    s = until(s, 'GER', 'resolve-order');
    const land = combatLog(play(s, 'resolve caucasus-mountains')).find((l) => l.round === 'land')!;
    expect(land.attRaw).toBe(2.5);
  });
});

describe('D.6/6.4 Factory Attacks and the Strategic Round', () => {
  /** The USSR's long-range bombers over Berlin, German fighters out of range; the Reich's flak stays. */
  const raid = (extra: Parameters<typeof arrange>[1]['units'] = {}) =>
    arrange(start('D'), { units: { lra: { at: 'byelorussia', size: 2 }, luftwaffe: null, stukas: null, 'me-109s': null, ...extra } });

  it('air units bomb a Factory: an Air Round against the AA, then Strategic Factors plus the Factory Factor; the damage is capped and cuts income', () => {
    let s = until(raid(), 'USSR', 'announce-attack');
    expect(options(s)).toContain('bomb berlin');
    s = play(s, 'bomb berlin').state;
    // Only air units and carriers may join; land units may not.
    expect(options(s).every((o) => o === 'launch' || ['AIR', 'CV'].includes(p.unit.get(o.slice(4))!.type))).toBe(true);
    s = play(s, 'add lra', 'launch', 'done').state;
    s = until(s, 'USSR', 'resolve-order');
    let r = play(s, 'resolve berlin');
    // The flak (AA) defends: an Air Round comes first.
    expect(prompt(r.state)).toBe('chance:air-round-attacker-die');
    r = play(r.state, 'die 1', 'die 1');
    expect(prompt(r.state)).toBe('chance:strategic-round-attacker-die');
    const lra = r.state.units.lra!;
    const factor = p.unit.get('lra')!.sizes[String(lra.size) as '1']!.strategic! + landOf('berlin').factory;
    const die = dieFor(factor, (x) => x.damage >= 1);
    const done = play(r.state, die);
    const strat = combatLog(done).find((l) => l.round === 'strategic')!;
    expect(strat.attFactors).toBe(factor);
    const hit = strat.factoryDamage as number;
    expect(hit).toBeGreaterThanOrEqual(1);
    expect(hit).toBeLessThanOrEqual(landOf('berlin').factory);
    expect(done.state.factoryDamage!.berlin).toBe(hit);
    expect(done.state.control.berlin).toBe('GER'); // a Factory Attack never takes the area
    expect(eventsOf(done, 'factory-damage')).toHaveLength(1);
    // 7.6 step 6: Germany's next income is cut by the damage.
    const before = turnIncome(p, structuredClone(start('D')), []).GER!;
    const after = turnIncome(p, structuredClone(done.state), []).GER!;
    expect(after.lines['factory damage']).toBe(-hit);
    expect(after.res + after.oil).toBe(before.res + before.oil - hit);
  });

  it('a bomber whose primary is not Strategic brings half its bombing factor; no Factory Attack in a Land Blitz or into Snow', () => {
    const base = raid({ '1st-air-army': { at: 'poland', size: 2, power: 'USSR' }, lra: null, 'reich-flak': null, 'army-group-center': null, 'army-group-south': null, 'waffen-ss-army': null });
    let s = until(arrange(base, { control: { poland: 'USSR' } }), 'USSR', 'announce-attack');
    s = play(s, 'bomb berlin', 'add 1st-air-army', 'launch', 'done').state;
    s = until(s, 'USSR', 'resolve-order');
    const r = play(s, 'resolve berlin', 'die 6');
    const strat = combatLog(r).find((l) => l.round === 'strategic')!;
    expect(strat.attRaw).toBe(p.unit.get('1st-air-army')!.sizes['2']!.land! / 2 + landOf('berlin').factory);
    // Germany's bombers may not strike Moscow on a Snow turn.
    const snowy = arrange(onTurn(sc.snowTurns![0]!), { units: { 'he-177s': { at: 'byelorussia', size: 2 } }, control: { byelorussia: 'GER' } });
    expect(options(until(snowy, 'GER', 'announce-attack'))).not.toContain('bomb moscow');
    const clear = arrange(start('D'), { units: { 'he-177s': { at: 'byelorussia', size: 2 } }, control: { byelorussia: 'GER' } });
    expect(options(until(clear, 'GER', 'announce-attack'))).toContain('bomb moscow');
  });
});

describe('D.9/7.6/7.5 Oil and Resources from the map, with trade', () => {
  it('Germany collects its areas (supplied), Sweden\'s trade, less the Second Front from Turn 7 up to 4', () => {
    const s = start('D');
    const held = sc.lands.filter((l) => s.control[l] === 'GER');
    const expected = held.reduce((t, l) => t + landOf(l).oil + landOf(l).resources, 0) + sc.trades![0]!.resources;
    const ger = turnIncome(p, structuredClone(s), []).GER!;
    expect(ger.oil + ger.res).toBe(expected);
    expect(ger.lines['trade:sweden']).toBe(sc.trades![0]!.resources);
    expect(turnIncome(p, onTurn(6), []).GER!.lines.drain).toBeUndefined();
    expect(turnIncome(p, onTurn(7), []).GER!.lines.drain).toBe(-1);
    expect(turnIncome(p, onTurn(9), []).GER!.lines.drain).toBe(-3);
    expect(turnIncome(p, onTurn(12), []).GER!.lines.drain).toBe(-4);
  });

  it('an area outside the home countries counts only with a supply line; the Western Allies get the chart\'s 4 Resources and 2 Oil, less Convoy damage', () => {
    const s = start('D');
    const usually = turnIncome(p, structuredClone(s), []).GER!;
    // Cut Central Europe off: the Balkans and the Ukraine are enemy; take Poland's link away too.
    const cut = arrange(s, { control: { poland: 'USSR' } });
    const ce = landOf('central-europe');
    const cutIncome = turnIncome(p, structuredClone(cut), []).GER!;
    expect(cutIncome.res + cutIncome.oil).toBe(usually.res + usually.oil - landOf('poland').resources - landOf('poland').oil - ce.resources - ce.oil);
    const wa = turnIncome(p, structuredClone(s), []).WA!;
    expect([wa.res, wa.oil]).toEqual([4, 2]);
    const hurt = structuredClone(s);
    hurt.convoys = { ...hurt.convoys, 'north-atlantic-convoy': 1 };
    const after = turnIncome(p, hurt, []).WA!;
    expect([after.res, after.oil]).toEqual([3, 2]); // Resources first
  });
});

describe('D.8/7.4 Lend Lease', () => {
  it('an LL unit in its named sea hands its Size to the USSR (Resources first); with no friendly landing it delivers nothing', () => {
    const s = arrange(start('D'), { units: { 'arctic-ocean-ll': { at: 'sea:arctic-ocean', size: 2 } } });
    const ev: GameEvent[] = [];
    const got = turnIncome(p, structuredClone(s), ev);
    expect(got.WA!.lines['lend lease to USSR']).toBe(-2);
    expect(got.USSR!.lines['lend lease from WA']).toBe(2);
    expect(got.WA!.res).toBe(2);
    expect(ev.filter((e) => e.type === 'lend-lease')).toHaveLength(1);
    const noShore = arrange(s, { control: { archangel: 'GER', leningrad: 'GER' } });
    expect(turnIncome(p, structuredClone(noShore), []).USSR!.lines['lend lease from WA']).toBeUndefined();
    const inPort = turnIncome(p, structuredClone(start('D')), []);
    expect(inPort.USSR!.lines['lend lease from WA']).toBeUndefined();
  });
});

describe('D: Second Front, the Near East, units lost for good', () => {
  it('on Turn 9 the Western Allies take Belgium-Netherlands, German units there leave, and the Axis may not attack it', () => {
    const s = arrange(onTurn(9), { units: { '15th-army': { at: 'belgium-netherlands', size: 1 }, '18th-army': { at: 'western-germany', size: 2 } } });
    const ev: GameEvent[] = [];
    applyHandovers(p, s, ev);
    expect(s.control['belgium-netherlands']).toBe('WA');
    expect(s.units['15th-army']!.at).toBe('western-germany');
    expect(ev.map((e) => e.type)).toContain('handover');
    expect(options(until(arrange(s, {}), 'GER', 'announce-attack'))).not.toContain('attack belgium-netherlands');
    // Before Turn 9 a Western Allied Belgium-Netherlands could be attacked.
    const t8 = arrange(onTurn(8), { units: { '18th-army': { at: 'western-germany', size: 2 }, '15th-army': null }, control: { 'belgium-netherlands': 'WA' } });
    expect(options(until(t8, 'GER', 'announce-attack'))).toContain('attack belgium-netherlands');
  });

  it('at the Turn 9 builds Germany removes four Size of ARM for good, unit by unit, its choice', () => {
    const s = onTurn(9);
    const arm = () => Object.values(s.units).filter((u) => u.power === 'GER' && p.unit.get(u.def)!.type === 'ARM' && u.at !== 'pool' && u.at !== 'gone').reduce((t, u) => t + u.size, 0);
    const before = arm();
    startDisbands(p, s);
    for (let i = 0; i < 4; i++) {
      const q = askDisband(p, s, [])!;
      expect(q.kind === 'decision' && q.power).toBe('GER');
      applyDisband(p, s, (q as { options: string[] }).options[0]!, []);
    }
    expect(askDisband(p, s, [])).toBeNull();
    expect(arm()).toBe(before - 4);
    expect(Object.values(s.units).some((u) => u.at === 'gone')).toBe(true);
  });

  it('the Near East army takes the field when the Near East is first attacked', () => {
    let s = arrange(start('D'), { units: { '18th-army': { at: 'caucasus-mountains', size: 2 } }, control: { 'caucasus-mountains': 'GER' } });
    expect(s.units['persian-army']).toBeUndefined();
    s = until(s, 'GER', 'announce-attack');
    const r = play(s, 'attack persia');
    expect(eventsOf(r, 'dormant-army')).toHaveLength(1);
    expect(r.state.units['persian-army']).toMatchObject({ power: 'WA', at: 'persia' });
  });

  it('the Italian Alpini Army leaves the game when destroyed', () => {
    expect(sc.permanentLoss).toContain('italian-alpini-army');
    let s = arrange(start('D'), { units: { 'italian-alpini-army': { at: 'byelorussia', size: 1 }, 'western-front': { at: 'ukraine', size: 3 } }, control: { byelorussia: 'GER' } });
    s = until(s, 'USSR', 'announce-attack');
    let r = play(s, 'attack byelorussia', 'add western-front', 'launch', 'done');
    r = play(until(r.state, 'USSR', 'resolve-order'), 'resolve byelorussia');
    for (let i = 0; i < 50 && r.state.units['italian-alpini-army']!.at === 'byelorussia'; i++) {
      const q = blitz.pending(r.state);
      if (q.kind !== 'chance') break;
      r = play(r.state, q.prompt.includes('attacker') ? dieFor(r.state.combat!.att, (x) => x.damage >= 1) : 'die 1');
    }
    expect(r.state.units['italian-alpini-army']!.at).toBe('gone');
    expect(r.state.pool['italian-alpini-army']).toBeUndefined();
  });
});

describe('D.3/1.7 supply in Barbarossa', () => {
  it('a German army in Finland cut off by Soviet fleets alone in the Baltic and the Arctic is out of supply; the Finnish Army, at home, is not; a live German Convoy keeps the line open', () => {
    // Finland touches the Baltic and (Petsamo) the Arctic Ocean; both must be closed.
    const cut = arrange(start('D'), { units: { 'army-group-north': { at: 'finland', size: 2 }, 'baltic-sea-fleet': { at: 'sea:baltic-sea', size: 2 }, 'black-sea-fleet': { at: 'sea:arctic-ocean', size: 2 } } });
    const convoy = p.files.map.convoys!.find((c) => c.sea === 'baltic-sea' && c.nation === 'GER')!;
    // With the Ger-Swe Convoy alive in the Baltic, the sea still counts as German-held (1.7).
    expect(inSupply(p, cut, 'army-group-north')).toBe(true);
    const sunk = structuredClone(cut);
    sunk.convoys![convoy.id] = convoy.factor; // maximum damage: it no longer counts
    expect(inSupply(p, sunk, 'army-group-north')).toBe(false);
    expect(inSupply(p, sunk, 'finnish-army')).toBe(true);
    const noFleet = arrange(sunk, { units: { 'baltic-sea-fleet': { at: 'leningrad' } } });
    expect(inSupply(p, noFleet, 'army-group-north')).toBe(true);
  });
});

describe('D.5/3.4 conquest', () => {
  it('taking every area of Finland conquers it', () => {
    const s = structuredClone(start('D'));
    const ev: GameEvent[] = [];
    takeControl(p, s, 'finland', 'USSR', ev, 'test');
    expect(ev.map((e) => e.type)).toContain('conquest');
    expect(s.conquered).toContain('finland');
  });

  it('the conquered country\'s units in the Force Pool are set aside; one left on the map leaves the game when destroyed', () => {
    const s = structuredClone(start('D'));
    s.units['finnish-army']!.at = 'pool';
    s.units['finnish-army']!.size = 0;
    s.pool['finnish-army'] = { size: 2, from: 0 };
    s.units['bhr-army']!.at = 'finland'; // a Central European army stays on the map
    const ev: GameEvent[] = [];
    takeControl(p, s, 'finland', 'USSR', ev, 'test');
    expect(s.pool['finnish-army']).toBeUndefined();
    expect(s.units['finnish-army']!.at).toBe('gone');
    expect(ev.map((e) => e.type)).toContain('set-aside');
    // Central Europe is not conquered: its army still goes back to the Force Pool when destroyed.
    eliminate(p, s, 'bhr-army', []);
    expect(s.units['bhr-army']!.at).toBe('pool');
    // After Central Europe falls, a Central European unit destroyed leaves the game.
    s.units['bhr-army']!.at = 'poland';
    s.units['bhr-army']!.size = 1;
    s.conquered.push('central-europe');
    eliminate(p, s, 'bhr-army', []);
    expect(s.units['bhr-army']!.at).toBe('gone');
  });

});

describe('D.1/1.3 stacking', () => {
  it('at most Size 10 of land units attack from one area', () => {
    let s = arrange(start('D'), {
      units: { 'army-group-south': { at: 'poland', size: 4 }, 'army-group-center': { at: 'poland', size: 2 }, 'waffen-ss-army': { at: 'poland', size: 2 }, '18th-army': { at: 'poland', size: 2 }, 'replacement-army': { at: 'poland', size: 1 } },
    });
    s = until(s, 'GER', 'announce-attack');
    s = play(s, 'attack byelorussia', 'add army-group-south', 'add army-group-center', 'add waffen-ss-army', 'add 18th-army').state;
    expect(options(s)).not.toContain('add replacement-army');
  });
});

describe('D.7/7.3/D.10/7.8 weapon picks and builds', () => {
  it('each power may pick a Future Addition; one GAR a turn is built free even with nothing left to spend', () => {
    let s = reach(start('D'), 'GER', 'build-pick');
    expect(options(s).filter((o) => o.startsWith('pick '))).toEqual(sc.futureAdditions!.GER!.map((f) => `pick ${f.unit}`));
    s = reach(s, 'USSR', 'build-pick');
    expect(options(s).some((o) => o.startsWith('pick '))).toBe(true);
    s = arrange(s, {});
    s.res.USSR = 0;
    s = arrange(s, {});
    expect(options(s)).toContain('build moscow-militia');
    const r = play(s, 'build moscow-militia', 'size 1', options(play(s, 'build moscow-militia', 'size 1').state)[0]!);
    expect(r.state.hidden.USSR!.find((h) => h.unit === 'moscow-militia')).toMatchObject({ free: true });
    expect(options(r.state)).not.toContain('build leningrad-militia'); // only one free GAR a turn
  });
});

describe('D.11/8 victory points', () => {
  it('Control Industrial Might: an enemy Factory taken scores its Factor at once and is lost again when retaken; your own costs nothing', () => {
    const s = structuredClone(start('D'));
    takeControl(p, s, 'berlin', 'USSR', [], 'test');
    expect(s.vp!.USSR).toBe(landOf('berlin').factory);
    takeControl(p, s, 'berlin', 'GER', [], 'test');
    expect(s.vp!.USSR).toBe(0);
    expect(s.vp!.GER).toBe(0);
    takeControl(p, s, 'moscow', 'GER', [], 'test');
    expect(s.vp!.GER).toBe(landOf('moscow').factory);
  });

  it('turn-end objectives: Annihilate the Wehrmacht needs a German ARM destroyed this turn; the Western Allies never score', () => {
    const s = structuredClone(start('D'));
    const ev: GameEvent[] = [];
    scoreObjectives(p, s, ev);
    const base = s.vp!.USSR!;
    expect(ev.some((e) => (e.data as { objective?: string })?.objective === 'ussr-annihilate-the-wehrmacht')).toBe(false);
    s.kills = ['USSR:GER:ARM'];
    const ev2: GameEvent[] = [];
    scoreObjectives(p, s, ev2);
    expect(ev2.some((e) => (e.data as { objective?: string })?.objective === 'ussr-annihilate-the-wehrmacht')).toBe(true);
    expect(s.vp!.USSR! - base).toBeGreaterThanOrEqual(1);
    expect(s.vp!.WA).toBe(0);
    expect(s.kills).toBeUndefined();
  });

  it('Long War pays Germany on Turns 11 and 12 while it holds a home country', () => {
    for (const [turn, vp] of [[10, 0], [11, 1], [12, 2]] as const) {
      const s = onTurn(turn);
      const ev: GameEvent[] = [];
      scoreObjectives(p, s, ev);
      const lw = ev.find((e) => (e.data as { objective?: string })?.objective === 'ger-long-war');
      expect(lw ? (lw.data as { vp: number }).vp : 0).toBe(vp);
    }
  });

  it('15 VP ends the game at once; after the last turn most VP wins, equal leaders draw', () => {
    const s = structuredClone(start('D'));
    s.vp!.USSR = 13;
    takeControl(p, s, 'berlin', 'USSR', [], 'test');
    expect(s.vp!.USSR).toBe(15);
    expect(s.winner).toBe('Allies');
    expect(s.reason).toMatch(/15 VP/);
    const tie = structuredClone(start('D'));
    tie.vp = { GER: 6, USSR: 6, WA: 0 };
    decideByPoints(p, tie, [], 'Turn 12 is complete');
    expect(tie.draw).toBe(true);
    const ger = structuredClone(start('D'));
    ger.vp = { GER: 7, USSR: 6, WA: 0 };
    decideByPoints(p, ger, [], 'Turn 12 is complete');
    expect(ger.winner).toBe('Axis');
    expect(blitz.result(ger).sides).toEqual({ Axis: 'win', Allies: 'loss' });
  });
});
