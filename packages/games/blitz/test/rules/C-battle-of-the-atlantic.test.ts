/**
 * Scenario C, The Battle of the Atlantic, on the bundled pack: who and where (C), the Free or Naval
 * Blitz paid in saved Oil (C.5, 2.2), new weapons (C.6), the chart's fixed income with Oil saved
 * (C.7), Italy's exit (C.8), frozen control, and victory points turn by turn.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { navalDistances } from '../../src/rules/geometry.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, options, pack, play, prompt, start, type Run } from '../helpers.ts';

const C = pack.data.scenarios.scenarios.find((s) => s.id === 'C')!;

/** Pass every decision (done/stop, else the first option) and roll 6s until `want` is asked. */
function passUntil(s0: BlitzState, want: string, maxSteps = 3000): BlitzState {
  let s = s0;
  for (let i = 0; i < maxSteps; i++) {
    if (prompt(s) === want) return s;
    if (blitz.pending(s).kind === 'terminal') break;
    s = blitz.apply(s, pass(s)).state;
  }
  throw new Error(`never reached ${want}; at ${prompt(s)}`);
}
const eventsOf = (r: Run, type: string) => r.events.filter((e) => e.type === type);
/** What a passive player answers: a 6 for dice, done/stop, else the first option. */
function pass(s: BlitzState): string {
  const p = blitz.pending(s);
  if (p.kind === 'chance') return 'die 6';
  if (p.kind !== 'decision') throw new Error('the game is over');
  return p.options.includes('done') ? 'done' : p.options.includes('stop') ? 'stop' : p.options[0]!;
}

describe('C: The Battle of the Atlantic', () => {
  it('Germany against the Western Allies (AFA and USA as one power), Turns 3 to 9', () => {
    const info = blitz.scenarios(pack).find((s) => s.id === 'C')!;
    expect(info.sides.map((x) => [x.id, x.powers])).toEqual([['Axis', ['GER']], ['Allies', ['WA']]]);
    expect(C.powers.find((x) => x.id === 'WA')!.nations).toEqual(['AFA', 'USA']);
    expect([C.firstTurn, C.lastTurn]).toEqual([3, 9]);
    expect(blitz.position(start('C'))).toMatchObject({ turn: 3, impulse: 1 });
  });

  it('the seas in play are those a ship from London reaches with 1 or 2 movement; the land touching them is in play, Vichy France is not', () => {
    const s = start('C');
    const p = packOf(s.pack);
    // Measured on the whole map (every sea in play) from London's port.
    const all = { ...s, scenario: 'C' };
    const wide = structuredClone(all);
    const reach = navalDistances(p, { ...wide, control: { ...wide.control } } as BlitzState, 'london', 2, 'Allies', false);
    const seas = [...reach.keys()].filter((k) => k.startsWith('sea:')).map((k) => k.slice(4)).sort();
    expect([...C.seas].sort()).toEqual(seas);
    expect(C.lands).not.toContain('vichy-france');
    for (const l of C.lands) expect(p.land.get(l)!.coast.some((x) => C.seas.includes(x)), l).toBe(true);
  });

  it('Germany also holds Belgium-Netherlands, Norway and Paris; the Western Approaches Convoy is Destroyed all game', () => {
    const s = start('C');
    for (const l of ['belgium-netherlands', 'norway', 'paris']) expect(s.control[l], l).toBe('GER');
    expect(C.destroyedConvoys).toEqual(['western-approaches-convoy']);
  });

  it('control never changes: no Ground Attack is offered and land units never enter enemy areas', () => {
    const s = arrange(start('C'), { units: { '2nd-army': { power: 'WA', size: 2, at: 'london' } } });
    let t = s;
    let steps = 0;
    for (let i = 0; i < 400 && blitz.position(t).turn === 3; i++) {
      const p = blitz.pending(t);
      if (p.kind === 'decision') {
        expect(p.options.some((o) => o.startsWith('attack '))).toBe(false);
        if (p.prompt === 'move-step') {
          steps++;
          for (const o of p.options) if (o.startsWith('to ')) expect(t.control[o.slice(3)]).not.toBe(p.power === 'GER' ? 'WA' : 'GER');
        }
      }
      // Move land units whenever offered; otherwise take the last option (usually done).
      const move = p.kind === 'decision' ? p.options.find((o) => o.startsWith('move ')) : undefined;
      t = blitz.apply(t, p.kind === 'chance' ? 'die 6' : p.kind === 'decision' ? (move ?? p.options[p.options.length - 1]!) : '').state;
    }
    expect(steps).toBeGreaterThan(0); // land moves were offered, and checked
    expect(t.control).toEqual(s.control);
  });
});

describe('C.5 Free or Naval Blitz, paid in saved Oil', () => {
  it('each Blitz phase the power picks Free or Naval; a Naval Blitz costs one saved Oil and repeats every action but rebasing', () => {
    const s = passUntil(start('C'), 'GER:blitz-choice');
    expect(s.oil).toEqual({ GER: 1, WA: 1 });
    expect(options(s)).toEqual(['blitz free', 'blitz naval']);
    const r = play(s, 'blitz naval');
    expect(r.state.oil!.GER).toBe(0);
    expect(r.state.mode).toBe('naval');
    expect(eventsOf(r, 'blitz')[0]!.data).toMatchObject({ mode: 'naval', cost: 1, oilLeft: 0 });
    // Steps of the Naval Blitz: sea steps and land steps, never a rebase.
    const seen = new Set<string>();
    let t = r.state;
    while (blitz.position(t).impulse === 3) {
      seen.add(t.step);
      t = blitz.apply(t, pass(t)).state;
    }
    expect(seen.has('rebase')).toBe(false);
  });

  it('2.2: a Free Blitz that sails into an enemy-held sea fights only if the other side wants it', () => {
    const ready = () => {
      const s = passUntil(arrange(start('C'), { units: { 'north-sea-fleet': { at: 'sea:western-approaches' } } }), 'GER:blitz-choice');
      const r = play(s, 'blitz free', 'sail u-boat-ii', 'to western-approaches', 'done');
      expect(prompt(r.state)).toBe('WA:free-blitz-sea-combat');
      expect(options(r.state)).toEqual(['fight western-approaches', 'decline western-approaches']);
      return r.state;
    };
    const declined = play(ready(), 'decline western-approaches');
    expect(eventsOf(declined, 'sea-combat-declined')).toHaveLength(1);
    expect(eventsOf(declined, 'combat-start')).toHaveLength(0);
    expect(declined.state.units['u-boat-ii']!.at).toBe('sea:western-approaches');
    const fought = play(ready(), 'fight western-approaches');
    expect(eventsOf(fought, 'combat-start')[0]!.data).toMatchObject({ target: 'western-approaches', kind: 'sea' });
  });

  it('without saved Oil only the Free Blitz is offered', () => {
    const s0 = structuredClone(start('C'));
    s0.oil = { GER: 0, WA: 0 };
    const s = passUntil(arrange(s0, {}), 'GER:blitz-choice');
    expect(options(s)).toEqual(['blitz free']);
  });
});

describe('C.6/C.7/7.3 turn end: new weapons, the chart\'s income, Oil saved', () => {
  it('each power gets its chart Resources plus all its Oil; Resources go first, unspent Oil is saved, unspent Resources are not', () => {
    const s = passUntil(start('C'), 'GER:build-pick');
    // Germany: 3 Resources + 1 saved Oil + 1 new Oil.
    expect(s.res.GER).toBe(5);
    expect(s.budgetOil!.GER).toBe(2);
    const r = play(s, 'done', 'keep');
    const w = passUntil(r.state, 'WA:build-pick');
    // The Western Allies: 4 + 1 saved + 2 new.
    expect(w.res.WA).toBe(7);
    const end = play(w, 'done', 'keep');
    expect(end.state.turn).toBe(4);
    expect(end.state.oil).toEqual({ GER: 2, WA: 3 });
  });

  it('spending beyond the Resources eats into the Oil to save', () => {
    // Three damaged German ships to repair, and a new U-boat: 4 of a budget of 3 Resources and 2 Oil.
    const damaged = arrange(start('C'), { units: { 'high-seas-fleet': { size: 1 }, 'italian-fleet': { size: 1 }, 'u-boat-ii': { size: 1 } } });
    let s = passUntil(damaged, 'GER:build-pick');
    expect(s.res.GER).toBe(5);
    s = play(s, 'pick u-boat-vii', 'repair high-seas-fleet', 'repair italian-fleet', 'repair u-boat-ii', 'build u-boat-vii', 'size 1', 'at western-germany').state;
    // 1 left, and nothing else Germany could spend it on: straight to the voluntary losses (7.8), kept.
    expect(prompt(s)).toBe('GER:voluntary-losses');
    s = play(s, 'keep').state;
    expect(prompt(s)).toBe('WA:build-pick');
    const end = play(s, 'done', 'keep');
    expect(end.state.turn).toBe(4);
    // 5 - 4 = 1 left: the Resources went first, so 1 of the 2 Oil is saved.
    expect(end.state.oil!.GER).toBe(1);
    expect(end.state.units['u-boat-vii']).toMatchObject({ at: 'western-germany', size: 1 });
    expect(end.state.units['high-seas-fleet']!.size).toBe(2);
  });

  it('one Future Addition a turn, revealed with the builds; the Western Allies may twice take two, for one Oil each time', () => {
    const s = passUntil(start('C'), 'GER:build-pick');
    expect(options(s).filter((o) => o.startsWith('pick '))).toEqual(['pick u-boat-vii', 'pick u-boat-ix', 'pick bismarck', 'pick italian-submarines']);
    const g = play(s, 'pick bismarck').state;
    expect(options(g).some((o) => o.startsWith('pick '))).toBe(false);
    // The other side cannot see the pick until the builds are revealed (1.9).
    expect(blitz.observe(g, 'WA').pool.bismarck).toBeUndefined();
    expect(blitz.observe(g, 'GER').pool.bismarck).toBeDefined();
    const w = passUntil(play(g, 'done', 'keep').state, 'WA:build-pick');
    const w1 = play(w, 'pick liberators').state;
    expect(options(w1)).toContain('pick escort-carriers');
    const w2 = play(w1, 'pick escort-carriers');
    expect(w2.state.doublePicks!.WA).toBe(1);
    expect(options(w2.state).some((o) => o.startsWith('pick '))).toBe(false);
    const end = play(w2.state, 'done', 'keep');
    expect(eventsOf(end, 'weapon-pick').map((e) => e.data!.unit)).toEqual(['bismarck', 'liberators', 'escort-carriers']);
    // 4 + 3 Oil: one Oil paid for the double pick, 2 left to save.
    expect(end.state.oil!.WA).toBe(2);
  });
});

describe('C.8 Italy leaves the war', () => {
  it('on Turn 7 the Italian units leave the German Force Pool, Italian Future Additions are gone, and Germany has 1 Resource less', () => {
    const s0 = structuredClone(start('C'));
    s0.turn = 7;
    s0.pool['italian-submarines'] = { size: 1, from: 0 };
    const s = passUntil(arrange(s0, {}), 'GER:build-pick');
    expect(s.pool['italian-submarines']).toBeUndefined();
    expect(options(s)).not.toContain('pick italian-submarines');
    expect(s.res.GER).toBe(2 + 1 + 1);
  });

  it('an Italian unit destroyed after the exit leaves the game instead of returning to the Force Pool', () => {
    const s0 = structuredClone(start('C'));
    s0.turn = 8;
    const s = arrange(s0, { units: { 'italian-fleet': { at: 'sea:mediterranean' }, 'mediterranean-fleet': { at: 'sea:mediterranean' } } });
    let t = s;
    for (let i = 0; i < 4000 && t.units['italian-fleet']!.at !== 'gone' && blitz.pending(t).kind !== 'terminal'; i++) {
      t = blitz.apply(t, pass(t)).state;
    }
    expect(t.units['italian-fleet']!.at).toBe('gone');
    expect(t.pool['italian-fleet']).toBeUndefined();
  });
});

describe('C victory points', () => {
  it('Germany scores each point of damage on Allied Convoys, the Western Allies each LL in its named sea, at every turn end; more points win', () => {
    const s0 = structuredClone(start('C'));
    s0.convoys!['north-atlantic-convoy'] = 2;
    s0.turn = 9;
    const s = arrange(s0, { units: { 'atlantic-ll': { at: 'sea:north-atlantic' } } });
    const end = passUntil(s, 'terminal', 5000);
    const vp = end.vp!;
    // The 2 points of Convoy damage stand unless the LL's sea sees more; the LL in the North Atlantic scores 1 if it is still there.
    expect(vp.GER).toBeGreaterThanOrEqual(2);
    const result = blitz.pending(end);
    expect(result.kind).toBe('terminal');
    if (result.kind === 'terminal') {
      const [g, w] = [vp.GER ?? 0, vp.WA ?? 0];
      const want = g === w ? { Axis: 'draw', Allies: 'draw' } : g > w ? { Axis: 'win', Allies: 'loss' } : { Axis: 'loss', Allies: 'win' };
      expect(result.result.sides).toEqual(want);
      expect(result.result.reason).toMatch(/victory points after Turn 9 \(Scenario C victory\)/);
    }
  });

  it('equal points are a draw', () => {
    const s0 = structuredClone(start('C'));
    s0.turn = 9;
    const end = passUntil(s0, 'terminal', 5000);
    expect(end.vp).toEqual({ GER: 0, WA: 0 });
    const p = blitz.pending(end);
    expect(p.kind === 'terminal' && p.result.sides).toEqual({ Axis: 'draw', Allies: 'draw' });
  });
});
