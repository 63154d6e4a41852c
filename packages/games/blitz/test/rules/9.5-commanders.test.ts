/**
 * 9.5 Commanders (optional rule): two-sided Commander counters, two per major power, brought in free
 * at the builds while at war, moved anywhere in supply at the start of each Activities and Blitz phase,
 * adding their factors and triangles to the unit they command, and lost on a 6 for each point of
 * damage to it, with their unit, or (commanding nothing) with their area. The counters are estimates
 * of the pack except what 9.5 states (Manstein, Novikov and the example's totals).
 *
 * On Turn 1 of the full game Germany is at war with the AFA; the USA and USSR are neutral.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { damage, eliminate, triangles } from '../../src/rules/combat.ts';
import { fightFace, placementOptions } from '../../src/rules/commanders.ts';
import { advance } from '../../src/rules/flow.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import type { BlitzState, CommanderState } from '../../src/rules/state.ts';
import { suppliedAreas } from '../../src/rules/supply.ts';
import type { GameEvent } from '@salient/engine';
import type { PackFiles } from '../../src/pack/schema.ts';
import { arrange, checkedPack, dieFor, eventsOf, options, pack, passUntil, play, prompt, reach, until } from '../helpers.ts';

const full = (optional?: string): BlitzState => blitz.setup('full', pack, optional ? { optional } : {});
const p = packOf(full().pack);

/** A copy of `s0` with commander counter `counter` set as given, the pending question worked out again. */
function withCommander(s0: BlitzState, counter: string, c: Partial<CommanderState>): BlitzState {
  const s = structuredClone(s0);
  s.commanders![counter] = { ...s.commanders![counter]!, ...c };
  s.sel = null;
  advance(packOf(s.pack), s, []);
  return s;
}

/** Run engine functions on a copy of `s0` (damage, losses), then settle the state; with the events. */
function act(s0: BlitzState, f: (s: BlitzState, ev: GameEvent[]) => void): { state: BlitzState; events: GameEvent[] } {
  const s = structuredClone(s0);
  const ev: GameEvent[] = [];
  f(s, ev);
  advance(p, s, ev);
  return { state: s, events: ev };
}

/** Announce an attack on `target` by `power` with `units`, then start resolving it: the Land Round's record. */
function landRound(s0: BlitzState, power: string, target: string, units: string[]): Record<string, unknown> {
  let s = until(s0, power, 'announce-attack');
  s = play(s, `attack ${target}`, ...units.map((u) => `add ${u}`), 'launch', 'done').state;
  s = until(s, power, 'resolve-order');
  s = play(s, `resolve ${target}`).state;
  return s.combat!.log.find((l) => l.round === 'land')!;
}

describe('9.5 the Commander counters', () => {
  it('start in the Force Pools, two counters a major power, only with the option', () => {
    expect(full().commanders).toBeUndefined();
    const s = full('9.5');
    const byPower = Object.values(s.commanders!).reduce<Record<string, number>>((t, c) => ({ ...t, [c.power]: (t[c.power] ?? 0) + 1 }), {});
    expect(byPower).toEqual({ AFA: 2, GER: 2, JAP: 2, USA: 2, USSR: 2 });
    expect(Object.values(s.commanders!).every((c) => c.at === 'pool')).toBe(true);
  });

  it('the pack names Manstein (GER, Land) and Novikov (USSR, Air), as 9.5 does, and marks every counter as estimated', () => {
    const cmds = pack.data.units.commanders!;
    const face = (id: string) => cmds.flatMap((c) => c.sides.map((f) => ({ ...f, nation: c.nation }))).find((f) => f.id === id)!;
    expect(face('manstein')).toMatchObject({ nation: 'GER', letter: 'L' });
    expect(face('novikov')).toMatchObject({ nation: 'USSR', letter: 'A' });
    expect(cmds.every((c) => c.estimates && Object.keys(c.estimates).length > 0)).toBe(true);
  });
});

describe('9.5 the pack check of Commander counters', () => {
  const broken = (edit: (c: NonNullable<PackFiles['units']['commanders']>) => void) => {
    const files = structuredClone(blitz.bundledPacks.approximation) as PackFiles;
    edit(files.units.commanders!);
    const r = blitz.checkPack(files);
    return r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`);
  };

  it('refuses a home country not of its nation, a third counter for a power, a repeated commander and a face with no factor', () => {
    expect(broken((c) => (c[0]!.home = 'ussr')).join('\n')).toMatch(/'ussr' is not a home country of GER/);
    expect(broken((c) => c.push({ ...structuredClone(c[0]!), id: 'third-ger', sides: [{ id: 'x1', name: 'X', letter: 'L', land: 1 }, { id: 'x2', name: 'Y', letter: 'A', air: 1 }] })).join('\n')).toMatch(/GER has more than two Commander counters/);
    expect(broken((c) => (c[1]!.sides[0].id = c[0]!.sides[0].id)).join('\n')).toMatch(/duplicate commander id/);
    expect(broken((c) => (c[0]!.sides[0] = { id: 'nobody', name: 'Nobody', letter: 'L' })).join('\n')).toMatch(/commander 'nobody' has no factor/);
    expect(broken(() => undefined)).toEqual([]);
  });
});

describe('9.5 commanders are on the map, not secret', () => {
  it('every power sees every commander, where it is and what it commands', () => {
    const s = play(reach(full('9.5'), 'GER', 'build-pick'), 'commander manstein berlin', 'command replacement-army').state;
    expect(blitz.observe(s, 'AFA').commanders).toEqual(s.commanders);
    expect(blitz.observe(s, 'AFA').commanders!['manstein-guderian']).toMatchObject({ face: 'manstein', at: 'berlin', unit: 'replacement-army' });
  });
});

describe('9.5 commanders at the builds (7.8)', () => {
  const builds = (optional?: string) => reach(full(optional), 'GER', 'build-pick');

  it('option off: no commander is ever offered', () => {
    expect(options(builds()).filter((o) => o.startsWith('commander'))).toEqual([]);
    const t2 = passUntil(full(), (x) => x.turn === 2 && x.impulse === 1)!;
    expect(options(t2).filter((o) => o.startsWith('commander'))).toEqual([]);
    expect(t2.cmdPhase).toBeUndefined();
  });

  it('a power at war with an enemy major power may place one from its Force Pool, either face, in a land area of its home country', () => {
    const s = builds('9.5');
    const cmd = options(s).filter((o) => o.startsWith('commander '));
    // Either face of both German counters, in each German area Germany holds.
    expect(cmd).toEqual(expect.arrayContaining(['commander manstein berlin', 'commander guderian berlin', 'commander rommel east-prussia', 'commander kesselring western-germany']));
    expect(cmd.every((o) => /^commander \S+ (berlin|east-prussia|western-germany)$/.test(o))).toBe(true);
    // The neutral USSR is at war with no enemy major power: none for it.
    expect(placementOptions(p, s, 'USSR')).toEqual([]);
  });

  it('it may take command of a unit of the right kind there; free, and only one a turn', () => {
    const s = builds('9.5');
    const r = play(s, 'commander manstein berlin');
    expect(eventsOf(r, 'commander-placed')[0]!.data).toMatchObject({ commander: 'manstein', at: 'berlin' });
    // Manstein is a Land Commander: land units in Berlin only (not the Luftwaffe).
    expect(prompt(r.state)).toBe('GER:commander-command');
    expect(options(r.state)).toEqual(['command replacement-army', 'command none']);
    const c = play(r.state, 'command replacement-army');
    expect(c.state.commanders!['manstein-guderian']).toMatchObject({ face: 'manstein', unit: 'replacement-army' });
    expect(prompt(c.state)).toBe('GER:build-pick');
    expect(options(c.state).filter((o) => o.startsWith('commander '))).toEqual([]); // one a turn
    expect(c.state.res.GER).toBe(s.res.GER); // no cost
    expect(c.state.hidden.GER ?? []).toEqual([]);
  });
});

describe('9.5 commanders at the start of a phase', () => {
  /** Manstein placed in Berlin at Turn 1's builds, commanding nothing. */
  const placed = () => play(reach(full('9.5'), 'GER', 'build-pick'), 'commander manstein berlin', 'command none').state;

  it('at the start of its Activities a power may flip and move each commander anywhere in supply, then name its unit', () => {
    const s = reach(placed(), 'GER', 'commander-move');
    expect(s.turn).toBe(2);
    expect(s.impulse).toBe(1);
    const o = options(s);
    expect(o).toContain('commanders done');
    expect(o).toEqual(expect.arrayContaining(['commander manstein east-prussia', 'commander guderian east-prussia', 'commander manstein western-germany']));
    const r = play(s, 'commander guderian east-prussia');
    expect(r.state.commanders!['manstein-guderian']).toMatchObject({ face: 'guderian', at: 'east-prussia' });
    expect(prompt(r.state)).toBe('GER:commander-command');
    const done = play(r.state, 'command army-group-north');
    expect(done.state.commanders!['manstein-guderian']!.unit).toBe('army-group-north');
    // Each commander moves once a phase; then the phase goes on.
    expect(prompt(done.state)).not.toBe('GER:commander-move');
  });

  it('again at the start of its Blitz phase', () => {
    const s = play(reach(placed(), 'GER', 'commander-move'), 'commanders done').state;
    const blitzStart = passUntil(s, (x, q) => x.impulse === 3 && q.kind === 'decision' && q.prompt === 'commander-move');
    expect(blitzStart).not.toBeNull();
    expect(blitzStart!.turn).toBe(2);
  });

  it('a commander its power cannot trace supply to (1.7) goes back to the Force Pool instead', () => {
    // Germany holds Novosibirsk for the test, deep in the neutral USSR: no supply line reaches it.
    const s0 = structuredClone(placed());
    s0.control.novosibirsk = 'GER';
    expect(suppliedAreas(p, s0, 'GER', 'germany', 'unit').has('novosibirsk')).toBe(false);
    s0.commanders!['manstein-guderian']!.at = 'novosibirsk';
    const lost: GameEvent[] = [];
    const s = passUntil(s0, (x) => x.turn === 2 && x.impulse === 1, { onStep: (_, ev) => lost.push(...ev.filter((e) => e.type === 'commander-lost')) })!;
    expect(s.commanders!['manstein-guderian']!.at).toBe('pool');
    expect(lost[0]!.data).toMatchObject({ commander: 'manstein', from: 'novosibirsk', why: 'no supply line reaches it' });
    expect(options(s).filter((o) => o.startsWith('commander'))).toEqual([]);
  });
});

describe('9.5 a commander in combat', () => {
  it('9.5 example (#56): Novikov commanding the LRA gives Air 4, Strategic 4, Land 2, the Air triangles cancelling', () => {
    const s = withCommander(arrange(full('9.5'), { units: { lra: { power: 'USSR', size: 2 } } }), 'novikov-zhukov', { face: 'novikov', at: 'moscow', unit: 'lra' });
    const f = fightFace(p, s, 'lra');
    expect([f.air, f.strategic, f.land]).toEqual([4, 4, 2]);
    expect(f.triangles?.air).toEqual({ white: 1, red: 1 });
    expect(triangles(p, s, ['lra'], 'air')).toBe(0);
    // The LRA alone: Air 2, Strategic 3, no Land, one white triangle.
    const alone = fightFace(p, arrange(full('9.5'), { units: { lra: { power: 'USSR', size: 2 } } }), 'lra');
    expect([alone.air, alone.strategic, alone.land]).toEqual([2, 3, undefined]);
  });

  it('9.5 example (#56): against a Factory the LRA with Novikov attacks with 5 Strategic Factors (its 2 Land Factors halved)', () => {
    // The USSR at war with Germany for the test, the LRA (Size 2) in Poland next to Berlin, Berlin's air units away.
    const s0 = structuredClone(full('9.5'));
    s0.neutral = (s0.neutral ?? []).filter((x) => x !== 'USSR');
    s0.wars = [...(s0.wars ?? []), 'GER~USSR'].sort();
    const set = (commanded: boolean) => {
      let s = arrange(s0, { units: { lra: { power: 'USSR', at: 'poland', size: 2 }, luftwaffe: null, stukas: null, 'me-109s': null, 'polish-army': null }, control: { poland: 'USSR' } });
      s = until(s, 'USSR', 'announce-attack');
      if (commanded) s = withCommander(s, 'novikov-zhukov', { face: 'novikov', at: 'poland', unit: 'lra' });
      s = play(s, 'bomb berlin', 'add lra', 'launch', 'done').state;
      s = play(until(s, 'USSR', 'resolve-order'), 'resolve berlin').state;
      return s.combat!.log.find((l) => l.round === 'strategic')!;
    };
    const factory = p.land.get('berlin')!.factory;
    expect(set(true).attRaw).toBe(5 + factory);
    expect(set(false).attRaw).toBe(3 + factory);
  });

  it('Manstein commanding the 1st Para: his Land Factors are added, and it still attacks with a net one white triangle', () => {
    const base = arrange(full('9.5'), { units: { '1st-para': { power: 'GER', at: 'east-prussia', size: 1 } } });
    const cmd = withCommander(base, 'manstein-guderian', { face: 'manstein', at: 'east-prussia', unit: '1st-para' });
    // Defending, Manstein's red triangle cancels the Para's white one (6.1-6.3); attacking, reds are ignored (6.2).
    expect(triangles(p, cmd, ['1st-para'], 'land')).toBe(0);
    expect(triangles(p, cmd, ['1st-para'], 'land', true)).toBe(1);
    const alone = landRound(base, 'GER', 'poland', ['1st-para']);
    const led = landRound(cmd, 'GER', 'poland', ['1st-para']);
    // The Poles get the same one for the Para's white triangle either way; the Para attacks with 1 + Manstein's 2.
    expect(led.defRaw).toBe(alone.defRaw);
    expect(Number(led.attRaw) - Number(alone.attRaw)).toBe(2);
  });

  it('a 0 Land Factor unit commanded by a Land Commander has at least 1 Land Factor and may attack', () => {
    const base = arrange(full('9.5'), {
      units: { 'persian-army': { power: 'AFA', at: 'milan', size: 1 }, 'italian-1st-army': null, 'italian-alpini-army': { at: 'rome', size: 1 } },
      control: { milan: 'AFA' },
    });
    const attackWith = (a: BlitzState) => (options(a).includes('attack rome') ? options(play(a, 'attack rome').state) : []);
    const announce = until(base, 'AFA', 'announce-attack');
    expect(attackWith(announce)).not.toContain('add persian-army');
    const led = withCommander(announce, 'montgomery-alexander', { face: 'montgomery', at: 'milan', unit: 'persian-army' });
    expect(fightFace(p, led, 'persian-army').land).toBeGreaterThanOrEqual(1);
    expect(attackWith(led)).toContain('add persian-army');
  });

  it('a Land Commander with no Land Factor of its own still gives a 0 Land Factor unit 1 (test bed)', () => {
    // Synthetic: Montgomery with Air 1 and no Land Factor, so only 9.5's minimum can give the Persian Army its 1.
    const files = structuredClone(blitz.bundledPacks.approximation) as PackFiles;
    files.pack = { ...files.pack, id: 'commander-test', fidelity: 'synthetic', title: 'Commander test bed', description: 'The bundled pack with a Land Commander without Land Factors (test only).' };
    const monty = files.units.commanders!.find((c) => c.id === 'montgomery-alexander')!;
    monty.sides[0] = { id: 'montgomery', name: 'Montgomery', letter: 'L', air: 1 };
    const bed = checkedPack(files, 'commander test pack');
    const base = arrange(blitz.setup('full', bed, { optional: '9.5' }), {
      units: { 'persian-army': { power: 'AFA', at: 'milan', size: 1 }, 'italian-1st-army': null, 'italian-alpini-army': { at: 'rome', size: 1 } },
      control: { milan: 'AFA' },
    });
    const announce = until(base, 'AFA', 'announce-attack');
    const led = withCommander(announce, 'montgomery-alexander', { face: 'montgomery', at: 'milan', unit: 'persian-army' });
    expect(fightFace(packOf(led.pack), led, 'persian-army').land).toBe(1);
    expect(options(play(led, 'attack rome').state)).toContain('add persian-army');
  });
});

describe('9.5 losing a commander', () => {
  /** Guderian commanding Army Group North (Size 2) in East Prussia, Germany's activities on Turn 1. */
  const led = () => withCommander(arrange(full('9.5'), { units: { 'army-group-north': { size: 2 } } }), 'manstein-guderian', { face: 'guderian', at: 'east-prussia', unit: 'army-group-north' });

  it('each point of damage to its unit costs a die (a chance node): a 6 sends it back to the Force Pool', () => {
    const hit = act(led(), (s, ev) => damage(p, s, 'army-group-north', ev, 'test'));
    expect(prompt(hit.state)).toBe('chance:commander-loss-die');
    const kept = play(hit.state, 'die 5');
    expect(kept.state.commanders!['manstein-guderian']!.unit).toBe('army-group-north');
    expect(eventsOf(kept, 'commander-loss-roll')[0]!.data).toMatchObject({ die: 5 });
    const lost = play(hit.state, 'die 6');
    expect(lost.state.commanders!['manstein-guderian']).toMatchObject({ at: 'pool' });
    expect(lost.state.commanders!['manstein-guderian']!.unit).toBeUndefined();
    expect(eventsOf(lost, 'commander-lost')[0]!.data).toMatchObject({ commander: 'guderian', why: 'a 6 on the loss die' });
  });

  it('a Ground Attack drives the die: the defenders\' hit on the commanded unit is followed by the loss die', () => {
    let s = until(led(), 'GER', 'announce-attack');
    s = play(s, 'attack poland', 'add army-group-north', 'launch', 'done').state;
    s = play(until(s, 'GER', 'resolve-order'), 'resolve poland').state;
    while (prompt(s) !== 'chance:land-round-attacker-die') s = play(s, prompt(s).startsWith('chance') ? 'die 1' : options(s)[0]!).state;
    const land = s.combat!.log.find((l) => l.round === 'land')!;
    s = play(s, 'die 1', dieFor(Number(land.defFactors), (r) => r.damage === 1)).state;
    expect(prompt(s)).toBe('chance:commander-loss-die');
    expect(s.units['army-group-north']!.size).toBe(1);
  });

  it('it goes back when the unit it commands is destroyed, with no die', () => {
    const r = act(led(), (s, ev) => eliminate(p, s, 'army-group-north', ev));
    expect(r.state.commanders!['manstein-guderian']!.at).toBe('pool');
    expect(r.state.cmdLoss).toBeUndefined();
    expect(r.events.filter((e) => e.type === 'commander-lost')).toHaveLength(1);
    expect(prompt(r.state)).not.toBe('chance:commander-loss-die');
  });

  it('commanding nothing, it goes back when the land area it is in becomes enemy-controlled', () => {
    const s = withCommander(full('9.5'), 'manstein-guderian', { face: 'manstein', at: 'east-prussia' });
    const r = act(s, (x) => {
      x.control['east-prussia'] = 'AFA';
    });
    expect(r.state.commanders!['manstein-guderian']!.at).toBe('pool');
    expect(r.events.find((e) => e.type === 'commander-lost')!.data).toMatchObject({ from: 'east-prussia', why: 'East Prussia is enemy-controlled' });
    // A commander commanding a unit stays with it.
    const withUnit = act(led(), (x) => {
      x.control['berlin'] = 'AFA';
    });
    expect(withUnit.state.commanders!['manstein-guderian']!.unit).toBe('army-group-north');
  });
});
