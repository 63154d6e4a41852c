/**
 * 3.4's special case of France and liberation, on the full game: France's first fall sets the French
 * air and land units aside, turns the French colonies the Allies hold and the Vichy France area neutral,
 * sends the French warships to Vichy and the units left in the new neutrals home; either side may then
 * declare war on them; an Allied power taking them liberates them; a liberated country gives back a
 * set-aside Small unit.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { landDef, packOf } from '../../src/rules/pack-index.ts';
import { declarable, declareWar, takeControl } from '../../src/rules/politics.ts';
import { applyFrenchFleetDie, liberationUnits } from '../../src/rules/france.ts';
import { advance, applyChoice } from '../../src/rules/flow.ts';
import { askBuild } from '../../src/rules/turn-end.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { options, pack, play, prompt, reach } from '../helpers.ts';

const start = (): BlitzState => structuredClone(blitz.setup('full', pack));
const p = packOf(blitz.setup('full', pack).pack);
const countryOf = (land: string) => landDef(p, land).country;

/** Germany takes Paris with the French Army elsewhere: the 3.4 steps run at once. */
function fallen(): { s: BlitzState; ev: GameEvent[] } {
  const s = start();
  const ev: GameEvent[] = [];
  // A British army in Algeria, to be sent home when French North Africa turns neutral.
  s.units['8th-army'] = { ...s.units['8th-army']!, at: 'algeria' };
  takeControl(p, s, 'paris', 'GER', ev, 'test');
  return { s, ev };
}

describe('3.4 France falls for the first time', () => {
  it('sets aside French air and land units, turns the colonies and Vichy neutral, and sends the French fleet to Vichy', () => {
    const before = start();
    const { s, ev } = fallen();
    expect(s.conquered).toContain('france');
    for (const id of ['armee-de-l-air', 'free-french-army', 'armee-des-alpes']) {
      expect(before.units[id]!.at).not.toBe('gone');
      expect(s.units[id]!.at, id).toBe('gone');
    }
    expect(s.setAside?.france).toEqual(expect.arrayContaining(['armee-de-l-air']));
    // The Free French Army is French North Africa's unit (3.4 example): set aside with French North Africa.
    expect(s.setAside?.['french-north-africa']).toEqual(['free-french-army']);
    expect(s.vichy?.countries).toEqual(['french-north-africa', 'french-west-africa', 'madagascar', 'vichy-france']);
    for (const l of ['algeria', 'morocco', 'french-west-africa', 'madagascar', 'vichy-france']) expect(s.control[l], l).toBe('neutral');
    // Not named by 3.4: French Equatorial Africa stays with the AFA.
    expect(s.control['french-equatorial-africa']).toBe('AFA');
    expect(s.vichy?.fleet.map((f) => f.unit)).toEqual(['french-fleet']);
    expect(s.units['french-fleet']!.at).toBe('gone');
    expect(ev.some((e) => e.type === 'vichy')).toBe(true);
  });

  it('the British army in Algeria is placed in its home country, the AFA choosing the area', () => {
    const { s } = fallen();
    expect(s.homePlace).toEqual(['8th-army']);
    advance(p, s, []);
    expect(prompt(s)).toBe('AFA:vichy-place');
    expect(options(s)).toEqual(['to gibraltar', 'to london', 'to malta', 'to scotland']);
    for (const o of options(s)) expect(countryOf(o.slice(3))).toBe('great-britain');
    const r = play(s, 'to scotland');
    expect(r.state.units['8th-army']!.at).toBe('scotland');
    expect(r.state.homePlace).toBeUndefined();
    expect(r.events.find((e) => e.type === 'vichy-move')?.data).toEqual({ unit: '8th-army', from: 'algeria', to: 'scotland' });
  });

  it('3.4: with no area of its home country to go to, a unit in a new neutral is lost', () => {
    const s = start();
    s.units['8th-army'] = { ...s.units['8th-army']!, at: 'algeria' };
    for (const l of ['london', 'scotland', 'gibraltar', 'malta']) s.control[l] = 'GER'; // not a conquest: only the areas
    takeControl(p, s, 'paris', 'GER', [], 'test');
    const ev: GameEvent[] = [];
    advance(p, s, ev);
    expect(s.units['8th-army']!.at).toBe('gone');
    expect(ev.find((e) => e.type === 'elimination')?.data).toMatchObject({ unit: '8th-army' });
    expect(s.homePlace).toBeUndefined();
  });

  it('F and the full game only: Scenario A, which has no Vichy France, keeps the plain conquest', () => {
    const s = structuredClone(blitz.setup('A', pack));
    takeControl(p, s, 'paris', 'GER', [], 'test');
    expect(s.conquered).toContain('france');
    expect(s.vichy).toBeUndefined();
    expect(s.control['vichy-france']).toBe('AFA');
  });
});

describe('3.4 declaring war on the French neutrals', () => {
  it('Germany may declare on Vichy France: it joins the AFA with its land unit and the French fleet in port', () => {
    const { s } = fallen();
    s.side = 'Axis';
    s.power = 'GER';
    expect(declarable(p, s)).toEqual(expect.arrayContaining(['vichy-france', 'french-north-africa', 'french-west-africa', 'madagascar']));
    const ev: GameEvent[] = [];
    declareWar(p, s, 'vichy-france', ev);
    expect(s.control['vichy-france']).toBe('AFA');
    expect(s.units['french-fleet']).toMatchObject({ at: 'vichy-france', power: 'AFA' });
    expect(s.units['vichy-france-army']).toMatchObject({ at: 'vichy-france', power: 'AFA' });
    expect(s.vichy?.fleet).toEqual([]);
  });

  it('an Axis declaration while the Allies hold all of French North Africa brings out the fleet but not the land unit', () => {
    const { s } = fallen();
    s.control.algeria = 'AFA';
    s.control.morocco = 'AFA';
    s.side = 'Axis';
    s.power = 'GER';
    declareWar(p, s, 'vichy-france', []);
    expect(s.units['vichy-france-army']).toBeUndefined();
    expect(s.units['french-fleet']).toMatchObject({ at: 'vichy-france', power: 'AFA' });
  });

  it('an Allied declaration brings Vichy to Germany; the Allies taking it liberate it: its land unit is set aside, its fleet comes over', () => {
    const { s } = fallen();
    s.side = 'Allies';
    s.power = 'AFA';
    declareWar(p, s, 'vichy-france', []);
    expect(s.control['vichy-france']).toBe('GER');
    expect(s.units['french-fleet']).toMatchObject({ power: 'GER' });
    const ev: GameEvent[] = [];
    takeControl(p, s, 'vichy-france', 'AFA', ev, 'test');
    expect(ev.some((e) => e.type === 'liberation')).toBe(true);
    expect(ev.some((e) => e.type === 'conquest')).toBe(false);
    expect(s.units['vichy-france-army']!.at).toBe('gone');
    expect(s.units['french-fleet']).toMatchObject({ at: 'vichy-france', power: 'AFA' });
  });
});

describe('3.4 the French fleet roll when an Axis power takes Vichy France', () => {
  /** Germany declares war on Vichy (the fleet joins the AFA in port), then takes the area. */
  const taken = (fnaAllied = false): BlitzState => {
    const { s } = fallen();
    if (fnaAllied) Object.assign(s.control, { algeria: 'AFA', morocco: 'AFA' });
    s.side = 'Axis';
    s.power = 'GER';
    declareWar(p, s, 'vichy-france', []);
    takeControl(p, s, 'vichy-france', 'GER', [], 'test');
    delete s.homeAsk; // the AFA's choice of a new home for Vichy's army, left in the area here: not these tests'
    delete s.homePlace; // nor the British army's placement out of Algeria
    return s;
  };
  const roll = (s: BlitzState, die: number) => {
    const gone: string[] = [];
    const ev: GameEvent[] = [];
    const leaves = applyFrenchFleetDie(p, s, die, ev, (id) => gone.push(id));
    return { leaves, gone, ev };
  };

  it('a die is due for the French Fleet in port, asked as a chance node, and it is not overrun meanwhile', () => {
    const s = taken();
    expect(s.frenchFleetRoll).toEqual({ power: 'GER', units: ['french-fleet'] });
    advance(p, s, []);
    expect(s.ask).toMatchObject({ kind: 'chance', prompt: 'french-fleet-roll', faces: 6 });
    expect(s.overruns).not.toContain('french-fleet');
  });

  it('1: Germany takes it', () => {
    const s = taken();
    expect(roll(s, 1).leaves).toBeNull();
    expect(s.units['french-fleet']).toMatchObject({ power: 'GER', at: 'vichy-france' });
    expect(s.frenchFleetRoll).toBeUndefined();
  });

  it('2 or 3: the Allies keep it and it must leave; 4 to 6: it is destroyed', () => {
    const kept = taken();
    expect(roll(kept, 3).leaves).toBe('french-fleet');
    expect(kept.units['french-fleet']!.power).toBe('AFA');
    expect(roll(taken(), 4).gone).toEqual(['french-fleet']);
  });

  it('+1 while the Allies hold all of French North Africa: a 1 keeps it Allied, a 3 destroys it', () => {
    expect(roll(taken(true), 1).leaves).toBe('french-fleet');
    expect(roll(taken(true), 3).gone).toEqual(['french-fleet']);
  });

  it('only the first time: taking Vichy again rolls for nothing', () => {
    const s = taken();
    roll(s, 1);
    takeControl(p, s, 'vichy-france', 'AFA', [], 'test');
    s.units['french-fleet'] = { ...s.units['french-fleet']!, power: 'AFA' };
    takeControl(p, s, 'vichy-france', 'GER', [], 'test');
    expect(s.frenchFleetRoll).toBeUndefined();
  });
});

describe('3.4 liberation returns a set-aside Small unit', () => {
  it('the Allies retaking Paris liberate France, and a French Small unit of their choice joins the Force Pool', () => {
    const { s } = fallen();
    const aside = [...(s.setAside?.france ?? [])];
    expect(aside.length).toBeGreaterThan(0);
    takeControl(p, s, 'paris', 'AFA', [], 'test');
    expect(s.conquered).not.toContain('france');
    // 3.4: "of your choice": the AFA is asked which of France's set-aside Small units it takes.
    advance(p, s, []);
    expect(prompt(s)).toBe('AFA:liberation-unit');
    const small = aside.filter((id) => id !== 'maginot-line' && Math.max(...Object.keys(p.unit.get(id)!.sizes).map(Number)) <= 2);
    expect(options(s)).toEqual(small.map((id) => `take ${id}`));
    const unit = small[small.length - 1]!;
    const r = play(s, `take ${unit}`);
    expect(r.events.find((e) => e.type === 'liberation-unit')?.data).toEqual({ country: 'france', unit });
    expect(r.state.pool[unit]).toBeDefined();
    expect(r.state.units[unit]).toMatchObject({ power: 'AFA', at: 'pool' });
    expect(r.state.setAside!.france).not.toContain(unit);
  });

  it('and one more at the start of each later turn, Small ones first, then Big ones, never the Maginot Line', () => {
    const { s } = fallen();
    takeControl(p, s, 'paris', 'AFA', [], 'test');
    expect(s.liberators).toEqual({ france: 'AFA' });
    const small = (id: string) => Math.max(...Object.keys(p.unit.get(id)!.sizes).map(Number)) <= 2;
    const order: string[] = [];
    const take = (ev: GameEvent[]) => {
      // The liberator's pick, where it has one: the first offered.
      while (s.releaseAsk) {
        advance(p, s, ev);
        applyChoice(p, s, options(s)[0]!, ev);
      }
    };
    const first: GameEvent[] = [];
    take(first);
    order.push(...first.filter((e) => e.type === 'liberation-unit').map((e) => (e.data as { unit: string }).unit));
    for (let turn = 0; turn < 12 && s.liberators; turn++) {
      const ev: GameEvent[] = [];
      liberationUnits(p, s, ev);
      take(ev);
      const back = ev.filter((e) => e.type === 'liberation-unit');
      expect(back.length).toBe(1);
      order.push((back[0]!.data as { unit: string }).unit);
    }
    expect(order.length).toBeGreaterThan(1);
    expect(order).not.toContain('maginot-line');
    for (const id of order) expect(s.pool[id], id).toBeDefined();
    // Small ones come back before any Big one.
    const firstBig = order.findIndex((id) => !small(id));
    if (firstBig >= 0) expect(order.slice(firstBig).every((id) => !small(id))).toBe(true);
    expect((s.setAside!.france ?? []).filter((id) => id !== 'maginot-line')).toEqual([]);
  });

  it('none come back while the country is conquered again', () => {
    const { s } = fallen();
    takeControl(p, s, 'paris', 'AFA', [], 'test');
    const left = [...s.setAside!.france!];
    s.conquered.push('france');
    const ev: GameEvent[] = [];
    liberationUnits(p, s, ev);
    expect(ev).toEqual([]);
    expect(s.setAside!.france).toEqual(left);
  });
});

describe('3.4 example: the USA liberates French North Africa (Turn 8)', () => {
  // The full game after France's fall, with the USA at war with Germany: it declares war on the neutral
  // French North Africa (which joins the Axis) and takes Morocco and Algeria.
  const liberated = () => {
    const { s } = fallen();
    s.turn = 8;
    s.wars = [...s.wars!, 'GER~USA'].sort();
    s.neutral = s.neutral!.filter((x) => x !== 'USA');
    s.side = 'Allies';
    s.power = 'USA';
    declareWar(p, s, 'french-north-africa', []);
    const ev: GameEvent[] = [];
    takeControl(p, s, 'morocco', 'USA', ev, 'test');
    takeControl(p, s, 'algeria', 'USA', ev, 'test');
    advance(p, s, ev);
    return { s, ev };
  };
  /** The build options of `power` in state `s0`, with 5 Resources to spend. */
  const buildsOf = (s0: BlitzState, power: string): string[] => {
    const s = structuredClone(s0);
    Object.assign(s, { step: 'build', buildOrder: [power], sel: null, hidden: {}, res: { ...s.res, [power]: 5 } });
    const q = askBuild(p, s);
    return q && q.kind === 'decision' ? q.options : [];
  };

  it('taking both areas liberates French North Africa rather than conquering it', () => {
    const { s, ev } = liberated();
    expect(ev.filter((e) => e.type === 'liberation').map((e) => (e.data as { country: string }).country)).toEqual(['french-north-africa']);
    expect(ev.some((e) => e.type === 'conquest')).toBe(false);
    expect(s.vichy?.countries).not.toContain('french-north-africa');
  });

  it('French North Africa was the AFA\'s: the USA is asked at once whether it keeps it or returns it', () => {
    const { s } = liberated();
    expect(prompt(s)).toBe('USA:liberation-return');
    expect(options(s)).toEqual(['keep french-north-africa', 'return french-north-africa']);
  });

  it('French North Africa\'s one Small unit, the Free French Army, joins the USA\'s Force Pool at once', () => {
    const { s, ev } = liberated();
    expect(ev.filter((e) => e.type === 'liberation-unit').map((e) => (e.data as { unit: string }).unit)).toEqual(['free-french-army']);
    expect(s.pool['free-french-army']).toBeDefined();
    expect(s.units['free-french-army']).toMatchObject({ power: 'USA', at: 'pool' });
    expect(s.setAside?.['french-north-africa']).toEqual([]);
  });

  it('the USA keeps control of it rather than handing it back to the AFA, and may build the Free French Army there; the AFA may not', () => {
    const { s } = liberated();
    const r = play(s, 'keep french-north-africa');
    expect([r.state.control.morocco, r.state.control.algeria]).toEqual(['USA', 'USA']);
    expect(r.events.some((e) => e.type === 'liberation-keep')).toBe(true);
    expect(r.state.liberation).toBeUndefined();
    expect(buildsOf(r.state, 'USA')).toContain('build free-french-army');
    expect(buildsOf(r.state, 'AFA')).not.toContain('build free-french-army');
    const t = structuredClone(r.state);
    Object.assign(t, { step: 'build', buildOrder: ['USA'], hidden: {}, res: { ...t.res, USA: 5 }, sel: { kind: 'build', unit: 'free-french-army', size: 1, pool: 2 } });
    expect((askBuild(p, t) as { options: string[] }).options.sort()).toEqual(['at algeria', 'at morocco']);
  });
});

describe('3.4 returning a liberated country', () => {
  const BRITAIN = ['london', 'scotland', 'gibraltar', 'malta'];
  /** Germany conquers Great Britain; the USSR, at war with it, liberates it with an army in London (and, `norway`, holding Norway). */
  function britainLiberated(ev: GameEvent[] = [], norway = false): BlitzState {
    const s = start();
    for (const l of BRITAIN) takeControl(p, s, l, 'GER', [], 'test');
    expect(s.conquered).toContain('great-britain');
    delete s.homeAsk; // the AFA's choice of a new home for the British units: not these tests'
    s.wars = [...s.wars!, 'GER~USSR'].sort();
    s.neutral = (s.neutral ?? []).filter((x) => x !== 'USSR');
    if (norway) s.control.norway = 'USSR';
    s.units['byelorussian-front'] = { def: 'byelorussian-front', power: 'USSR', size: 1, at: 'london' };
    for (const l of BRITAIN) takeControl(p, s, l, 'USSR', ev, 'test');
    return s;
  }

  it('a liberated Great Britain always goes back to the AFA, and a liberator whose units may not stay there moves them to the closest area they may', () => {
    const ev: GameEvent[] = [];
    const s = britainLiberated(ev);
    expect(ev.some((e) => e.type === 'liberation')).toBe(true);
    expect(s.liberation).toBeUndefined(); // no choice: it must go back
    for (const l of BRITAIN) expect(s.control[l], l).toBe('AFA');
    // The Soviet army must leave, at once (before anything else is asked), for a closest area it may
    // stand in: the one closest is the AFA's Morocco, so the AFA's leave is asked first (1.3).
    expect(s.standMoves).toEqual(['byelorussian-front']);
    advance(p, s, ev);
    expect(prompt(s)).toBe('AFA:ally-leave');
    expect(options(s)).toEqual(['allow morocco', 'refuse morocco']);
    const r = play(s, 'allow morocco');
    expect(r.events.find((e) => e.type === 'liberation-move')?.data).toMatchObject({ unit: 'byelorussian-front', from: 'london', to: 'morocco' });
    expect(r.state.standMoves).toBeUndefined();
  });

  it('1.3: refused, the unit leaving a returned country goes to the next closest area it may stand in, never the refused one', () => {
    const s = britainLiberated();
    advance(p, s, []);
    const r = play(s, 'refuse morocco');
    // The next closest, French West Africa, is the AFA's too: asked in turn; Morocco is not asked again.
    expect(r.state.units['byelorussian-front']!.at).toBe('london');
    expect(prompt(r.state)).toBe('AFA:ally-leave');
    expect(options(r.state)).toEqual(['allow french-west-africa', 'refuse french-west-africa']);
    const moved = play(r.state, 'allow french-west-africa');
    expect(moved.state.units['byelorussian-front']!.at).toBe('french-west-africa');
    expect(moved.state.standMoves).toBeUndefined();
  });

  it('3.4: with several closest areas the owner picks where its unit goes (the USSR: Morocco or its own Norway, both a sea away)', () => {
    const s = britainLiberated([], true);
    advance(p, s, []);
    expect(prompt(s)).toBe('USSR:liberation-move');
    expect(options(s)).toEqual(['to morocco', 'to norway']);
    const r = play(s, 'to norway');
    expect(r.state.units['byelorussian-front']!.at).toBe('norway');
    expect(r.state.standMoves).toBeUndefined();
    expect(r.events.find((e) => e.type === 'liberation-move')?.data).toMatchObject({ unit: 'byelorussian-front', from: 'london', to: 'norway' });
  });

  it('France liberated by the USA may be returned to the AFA: its areas go back, the Force Pool units stay with the liberator', () => {
    const { s } = fallen();
    s.wars = [...s.wars!, 'GER~USA'].sort();
    s.neutral = s.neutral!.filter((x) => x !== 'USA');
    const ev: GameEvent[] = [];
    takeControl(p, s, 'paris', 'USA', ev, 'test');
    expect(s.liberation).toEqual({ country: 'france', power: 'USA', to: 'AFA' });
    advance(p, s, []);
    expect(prompt(s)).toBe('USA:liberation-unit'); // its pick of France's set-aside units first
    const unit = options(s)[0]!.slice(5);
    const picked = play(s, `take ${unit}`).state;
    expect(prompt(picked)).toBe('USA:liberation-return');
    const r = play(picked, 'return france');
    expect(r.state.control.paris).toBe('AFA');
    expect(r.state.units[unit]).toMatchObject({ power: 'USA', at: 'pool' });
  });

  it('the AFA liberating its own France is asked nothing', () => {
    const { s } = fallen();
    takeControl(p, s, 'paris', 'AFA', [], 'test');
    expect(s.liberation).toBeUndefined();
  });
});

describe('3.4 the liberation and new-home choices as engine decisions', () => {
  /** Every option of the pending decision, applied to `s`: the input is left as it was, the result survives a JSON round trip. */
  const eachOption = (s: BlitzState, want: string) => {
    expect(prompt(s)).toBe(want);
    const before = JSON.stringify(s);
    for (const o of options(s)) {
      const next = blitz.apply(s, o).state;
      expect(JSON.stringify(s), o).toBe(before);
      expect(JSON.parse(JSON.stringify(next))).toEqual(next);
      expect(prompt(next), o).not.toBe(want);
    }
  };

  it('3.4: keep/return, the set-aside unit to take and the new home country are ordinary decisions of the power concerned', () => {
    const { s: fr } = fallen();
    fr.wars = [...fr.wars!, 'GER~USA'].sort();
    fr.neutral = fr.neutral!.filter((x) => x !== 'USA');
    takeControl(p, fr, 'paris', 'USA', [], 'test');
    advance(p, fr, []);
    eachOption(fr, 'USA:liberation-unit');
    const picked = play(fr, options(fr)[0]!).state;
    eachOption(picked, 'USA:liberation-return');
    const gb = start();
    for (const l of ['london', 'scotland', 'gibraltar', 'malta']) takeControl(p, gb, l, 'GER', [], 'test');
    advance(p, gb, []);
    eachOption(gb, 'AFA:new-home-country');
  });
});

// 3.4: the power holding most of a liberated country's areas allies with it; tied, a coin decides.
// Canada (Western and Eastern Canada), an AFA home country, was conquered by the Axis; the USA, at
// war, holds Western Canada again, and an AFA army there walks into the empty, German-held Eastern
// Canada, so each Allied power holds one area of two.
describe('3.4 a tie for the liberator is a coin toss', () => {
  const tie = (() => {
    const s0 = reach(blitz.setup('full', pack), 'AFA', 'move-pick');
    const w = structuredClone(s0);
    w.wars = [...w.wars!, 'GER~USA', 'JAP~USA'].sort();
    w.neutral = (w.neutral ?? []).filter((x) => x !== 'USA');
    w.conquered = [...w.conquered, 'canada'];
    w.control = { ...w.control, 'western-canada': 'USA', 'eastern-canada': 'GER' };
    for (const [id, u] of Object.entries(w.units)) if (u.at === 'western-canada' || u.at === 'eastern-canada') delete w.units[id];
    w.units = { ...w.units, bef: { ...w.units.bef!, at: 'western-canada', size: 2 } };
    return w;
  })();
  const take = (s: BlitzState) => play(s, 'move bef', 'to eastern-canada');

  it('taking Eastern Canada ties the AFA and the USA at one area each: the liberator is not named until the coin falls', () => {
    const r = take(tie);
    expect(r.state.control['eastern-canada']).toBe('AFA');
    expect(r.state.conquered).not.toContain('canada');
    expect(r.state.libCoin).toEqual({ country: 'canada', powers: ['AFA', 'USA'] });
    expect(blitz.pending(r.state)).toMatchObject({ kind: 'chance', prompt: 'liberation-coin' });
    expect(r.events.some((e) => e.type === 'liberation')).toBe(false);
  });

  it.each([
    ['die 1', 'AFA'],
    ['die 2', 'USA'],
  ])('%s: %s liberates Canada', (die, power) => {
    const r = play(take(tie).state, die);
    expect(r.state.libCoin).toBeUndefined();
    expect(r.events.find((e) => e.type === 'liberation')).toMatchObject({ power, data: { country: 'canada' } });
  });

  it('with a clear majority there is no coin: the AFA holding Western Canada too liberates it at once', () => {
    const r = take({ ...tie, control: { ...tie.control, 'western-canada': 'AFA' } });
    expect(r.state.libCoin).toBeUndefined();
    expect(r.events.find((e) => e.type === 'liberation')).toMatchObject({ power: 'AFA', data: { country: 'canada' } });
  });
});

describe('3.4: France\'s special case applies only the first time it is conquered and liberated', () => {
  /** France fallen and liberated by the AFA; then the Allies declare war on Vichy France (it goes to Germany) and the AFA take it. */
  function rejoined(): { s: BlitzState; ev: GameEvent[] } {
    const { s } = fallen();
    takeControl(p, s, 'paris', 'AFA', [], 'test');
    s.side = 'Allies';
    s.power = 'AFA';
    declareWar(p, s, 'vichy-france', []);
    const ev: GameEvent[] = [];
    takeControl(p, s, 'vichy-france', 'AFA', ev, 'test');
    return { s, ev };
  }

  it('the first fall is the capital\'s: Paris alone conquers France while it has never been liberated', () => {
    const s = start();
    expect(s.capitalsSpent).toBeUndefined();
    takeControl(p, s, 'paris', 'GER', [], 'test');
    expect(s.conquered).toContain('france');
  });

  it('liberated after France was, Vichy France becomes part of France again and its fleet goes to France\'s liberator', () => {
    const { s, ev } = rejoined();
    expect(s.capitalsSpent).toEqual(['france']);
    expect(s.vichy).toMatchObject({ franceBy: 'AFA', rejoined: true });
    expect(ev.some((e) => e.type === 'vichy-rejoins')).toBe(true);
    expect(s.units['french-fleet']).toMatchObject({ power: 'AFA' });
  });

  it('then France falls by the standard rule: Paris alone no longer does it, Paris and Vichy France do, and no new Vichy France is made', () => {
    const { s } = rejoined();
    const ev: GameEvent[] = [];
    takeControl(p, s, 'paris', 'GER', ev, 'test');
    expect(s.conquered).not.toContain('france');
    takeControl(p, s, 'vichy-france', 'GER', ev, 'test');
    expect(s.conquered).toContain('france');
    expect(ev.filter((e) => e.type === 'vichy')).toHaveLength(0);
  });
});
