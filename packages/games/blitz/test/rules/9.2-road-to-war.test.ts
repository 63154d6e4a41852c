/**
 * 9.2 Blitzing the Road to War (optional, the full game): before Turn 1 each major power picks one
 * Option at each of steps 1-13, from those listed for it at the step or the six Standard Options. The
 * card is this pack's estimate; the facts 9.2 states are tested here one by one.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import { turnIncome } from '../../src/rules/income.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { declarable, declareWar, takeControl } from '../../src/rules/politics.ts';
import { checkAlignments, protectedFrom } from '../../src/rules/minors.ts';
import { declarableMajors, declareOnMajor, neutralCap, neutralMayDeclare, turnEndMarkers, turnStartEntry } from '../../src/rules/neutrality.ts';
import { liberatesFoe } from '../../src/rules/road-to-war.ts';
import { atWar, hostileLand } from '../../src/rules/wars.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import type { Events } from '../../src/rules/events.ts';
import type { PackFiles } from '../../src/pack/schema.ts';
import { checkedPack, options, pack, play } from '../helpers.ts';

const full = (optional?: string): BlitzState => blitz.setup('full', pack, optional ? { optional } : {});
const p = packOf(full().pack);
const ORDER = ['GER', 'JAP', 'AFA', 'USA', 'USSR'];

/**
 * Play the whole Road to War: `picks` maps `step:POWER` to a choice; every other pick is `rtw rearm`.
 * Returns the state at the first question of Turn 1, with every pick's ask seen.
 */
function road(picks: Record<string, string> = {}, optional = '9.2'): { state: BlitzState; asks: { step: number; power: string; options: string[] }[] } {
  let s = full(optional);
  const asks: { step: number; power: string; options: string[] }[] = [];
  while (s.roadToWar) {
    const q = blitz.pending(s);
    if (q.kind !== 'decision') throw new Error('the Road to War asks only decisions');
    expect(q.prompt).toBe('road-to-war');
    asks.push({ step: s.roadToWar.step, power: q.power, options: [...q.options] });
    s = play(s, picks[`${s.roadToWar.step}:${q.power}`] ?? 'rtw rearm').state;
  }
  return { state: s, asks };
}

/** A copy of `s` with `power` of `side` phasing, to ask what it may declare. */
const as = (s: BlitzState, power: string): BlitzState => ({ ...structuredClone(s), power, side: power === 'GER' || power === 'JAP' ? 'Axis' : 'Allies' });

describe('9.2 Blitzing the Road to War: the option', () => {
  it('9.2: is for the full game only, like the other optional rules', () => {
    expect(() => blitz.setup('F', pack, { optional: '9.2' })).toThrow(/full game only/);
    expect(() => blitz.setup('A', pack, { optional: '9.2' })).toThrow(/full game only/);
  });

  it('9.2: with the option off nothing changes: no Road to War, Poland the AFA\'s, China at war with Japan', () => {
    const s = full();
    expect(s.roadToWar).toBeUndefined();
    expect(s.rtwPlayed).toBeUndefined();
    expect(s.control.poland).toBe('AFA');
    expect(s.units['polish-army']?.at).toBe('poland');
    expect(atWar(p, s, 'JAP', 'china')).toBe(true);
    expect(blitz.position(s).phase).not.toBe('road-to-war');
  });

  it('9.2: a pack whose card misplaces a stated option or lists a Trade Agreement with China is rejected', () => {
    const files = structuredClone(blitz.bundledPacks.approximation) as unknown as PackFiles;
    const card = files.scenarios.scenarios.find((x) => x.id === 'full')!.roadToWar!;
    card.tradeTerms.push({ country: 'china', oil: 0, resources: 1 });
    const monroe = card.steps[2]!.options.shift()!;
    card.steps[3]!.options.push(monroe);
    const r = blitz.checkPack(files);
    expect(r.ok).toBe(false);
    const text = r.ok ? '' : r.issues.map((i) => i.message).join('\n');
    expect(text).toMatch(/Trade Agreement with a neutral China/);
    expect(text).toMatch(/'monroe-doctrine' for USA at step 3/);
    expect(() => checkedPack(blitz.bundledPacks.approximation, 'bundled')).not.toThrow();
  });
});

describe('9.2 the pick sequence', () => {
  it('9.2: steps 1-13 in order, every major power picking once a step, in the card\'s order, before Turn 1', () => {
    const s0 = full('9.2');
    expect(blitz.position(s0).phase).toBe('road-to-war');
    const { state, asks } = road();
    expect(asks).toHaveLength(13 * 5);
    expect(asks.map((a) => a.step)).toEqual(Array.from({ length: 65 }, (_, i) => Math.floor(i / 5) + 1));
    expect(asks.map((a) => a.power)).toEqual(Array.from({ length: 65 }, (_, i) => ORDER[i % 5]));
    expect(state.roadToWar).toBeUndefined();
    expect(state.turn).toBe(1);
    expect(blitz.position(state).phase).toBe('axis-activities');
  });

  it('9.2: a power may pick an option listed for it at the step or any of the six Standard Options, the same one again and again', () => {
    const { state, asks } = road();
    const standard = ['rtw rearm', 'rtw stockpile-oil', 'rtw propaganda', 'rtw weapons-development'];
    for (const a of asks) for (const o of standard) expect(a.options).toContain(o);
    for (const a of asks) expect(a.options.some((o) => o.startsWith('rtw trade-agreement '))).toBe(true);
    for (const a of asks) expect(a.options.some((o) => o.startsWith('rtw diplomacy '))).toBe(true);
    // Named options only for their power at their step.
    expect(asks.find((a) => a.step === 3 && a.power === 'USA')!.options).toContain('rtw monroe-doctrine');
    expect(asks.find((a) => a.step === 3 && a.power === 'AFA')!.options).not.toContain('rtw monroe-doctrine');
    expect(asks.find((a) => a.step === 4 && a.power === 'USA')!.options).not.toContain('rtw monroe-doctrine');
    expect(asks.find((a) => a.step === 5 && a.power === 'JAP')!.options).toContain('rtw dont-invade-china');
    expect(asks.find((a) => a.step === 7 && a.power === 'GER')!.options).toContain('rtw annex-austria-czechoslovakia');
    expect(asks.find((a) => a.step === 8 && a.power === 'USSR')!.options.slice(0, 3)).toEqual(['rtw five-year-plan', 'rtw collective-security', 'rtw secret-german-pact']);
    expect(asks.find((a) => a.step === 9 && a.power === 'GER')!.options).toContain('rtw secret-soviet-pact');
    expect(asks.find((a) => a.step === 13 && a.power === 'GER')!.options.slice(0, 3)).toEqual(['rtw pact-of-steel', 'rtw anti-comintern-pact-expanded', 'rtw liberate-foes']);
    // Rearm thirteen times: thirteen saved Resources (estimated Standard Option), and the picks are open.
    const before = full().saved!.GER ?? 0;
    expect(state.saved!.GER).toBe(before + 13);
    expect(state.rtwPlayed!.filter((x) => x === 'GER:rearm')).toHaveLength(13);
  });

  it('9.2: an option not offered is refused', () => {
    const s = full('9.2');
    expect(() => blitz.apply(s, 'rtw monroe-doctrine')).toThrow(/not a legal option/);
  });
});

describe('9.2 stated facts', () => {
  it('9.2: Poland is neutral at the start of the Road to War; guaranteed, it is the AFA\'s ally at war with Germany', () => {
    const s0 = full('9.2');
    expect(s0.control.poland).toBe('neutral');
    expect(s0.units['polish-army']).toBeUndefined();
    const { state } = road({ '10:AFA': 'rtw guarantee-poland' });
    expect(state.control.poland).toBe('AFA');
    expect(state.units['polish-army']).toMatchObject({ power: 'AFA', at: 'poland' });
    // Germany and the AFA (and their allies) are at war once the Road to War ends.
    expect(atWar(p, state, 'GER', 'AFA')).toBe(true);
    expect(hostileLand(p, state, ['GER'], 'poland')).toBe(true);
  });

  it('9.2: after the Road to War a minor allied to a major power cannot be declared war on apart from it; a neutral one can', () => {
    const allied = road({ '10:AFA': 'rtw guarantee-poland' }).state;
    expect(declarable(p, as(allied, 'GER'))).not.toContain('poland');
    const alone = road().state;
    expect(alone.control.poland).toBe('neutral');
    expect(declarable(p, as(alone, 'GER'))).toContain('poland');
    // Declared on, neutral Poland joins the AFA with its army (3.2).
    const s = as(alone, 'GER');
    declareWar(p, s, 'poland', []);
    expect(s.control.poland).toBe('AFA');
    expect(s.units['polish-army']?.power).toBe('AFA');
  });

  it('9.2: China and Japan are at war unless Japan plays Don\'t Invade China at step 5; then China is a neutral minor', () => {
    const war = road().state;
    expect(atWar(p, war, 'JAP', 'china')).toBe(true);
    expect(war.control.chungking).toBe('USA');
    const { state, asks } = road({ '5:JAP': 'rtw dont-invade-china' });
    expect(atWar(p, state, 'JAP', 'china')).toBe(false);
    for (const l of ['chungking', 'canton', 'sian']) expect(state.control[l]).toBe('neutral');
    expect(state.control.peking).toBe('JAP');
    for (const u of ['chinese-warlords', 'nationalist-army', '8th-route-army']) expect(state.units[u]).toBeUndefined();
    // No major power may make a Trade Agreement with a neutral China.
    for (const a of asks) expect(a.options).not.toContain('rtw trade-agreement china');
    expect(state.rtwTrades!.some((t) => t.from === 'china')).toBe(false);
  });

  it('9.2: an Axis declaration of war on a neutral China allies it with the USA', () => {
    const { state } = road({ '5:JAP': 'rtw dont-invade-china' });
    const s = as(state, 'JAP');
    expect(declarable(p, s)).toContain('china');
    declareWar(p, s, 'china', []);
    expect(s.control.chungking).toBe('USA');
    expect(s.units['nationalist-army']?.power).toBe('USA');
  });

  it('9.2: an Allied declaration of war on Japan allies a neutral China with Japan (as the text says, odd as it reads)', () => {
    const { state } = road({ '5:JAP': 'rtw dont-invade-china' });
    const s = structuredClone(state);
    declareOnMajor(p, s, 'AFA', 'JAP', []);
    expect(s.control.chungking).toBe('JAP');
    expect(s.units['nationalist-army']?.power).toBe('JAP');
  });

  it('9.2: Germany\'s 3.2 restriction on declaring war on the USSR holds only if the USSR played the Secret German Pact', () => {
    expect(declarableMajors(p, full(), 'GER')).not.toContain('USSR'); // core 3.2: not on Turn 1
    expect(declarableMajors(p, road().state, 'GER')).toContain('USSR');
    expect(declarableMajors(p, road({ '8:USSR': 'rtw secret-german-pact' }).state, 'GER')).not.toContain('USSR');
  });

  it('9.2: the USSR\'s 3.2 restrictions hold only with the Secret Soviet Pact, and then cover Germany\'s allies and trading partners', () => {
    expect(neutralMayDeclare(p, full(), 'USSR', 'GER')).toBe(false); // core 3.2
    expect(neutralMayDeclare(p, full(), 'USSR', 'sweden')).toBe(false);
    const free = road().state;
    expect(neutralMayDeclare(p, free, 'USSR', 'GER')).toBe(true);
    expect(neutralMayDeclare(p, free, 'USSR', 'sweden')).toBe(true);
    expect(neutralMayDeclare(p, free, 'USSR', 'finland')).toBe(true);
    const pact = road({ '9:GER': 'rtw secret-soviet-pact', '1:GER': 'rtw trade-agreement norway', '3:GER': 'rtw diplomacy finland', '4:GER': 'rtw diplomacy finland', '5:GER': 'rtw diplomacy finland' }).state;
    expect(pact.control.finland).toBe('GER');
    expect(neutralMayDeclare(p, pact, 'USSR', 'GER')).toBe(false);
    expect(neutralMayDeclare(p, pact, 'USSR', 'norway')).toBe(false); // trades with Germany
    expect(neutralMayDeclare(p, pact, 'USSR', 'finland')).toBe(false); // Germany's ally
    expect(neutralMayDeclare(p, pact, 'USSR', 'sweden')).toBe(true); // 3.2's list no longer applies as such
  });

  it('9.2: 7.7 still limits a USSR that declares war on Germany by its It\'s War! marker, until Germany declares war on it, holds a Soviet area, or Turn 8 begins', () => {
    const free = road().state;
    const s = structuredClone(free);
    declareOnMajor(p, s, 'USSR', 'GER', []);
    expect(atWar(p, s, 'USSR', 'GER')).toBe(true);
    expect(s.neutral).not.toContain('USSR');
    expect(neutralCap(s, 'USSR')).toBe(s.itsWar!.USSR);
    // Its marker is still tracked: it climbs at the turn end as a neutral's does (7.2).
    const tracked = structuredClone(s);
    turnEndMarkers(p, tracked, []);
    expect(tracked.itsWar!.USSR).toBe(s.itsWar!.USSR! + 1);
    expect(neutralCap(tracked, 'USSR')).toBe(s.itsWar!.USSR! + 1);
    // A Soviet area taken by Germany ends it.
    const took = structuredClone(s);
    takeControl(p, took, 'leningrad', 'GER', [], 'test');
    expect(neutralCap(took, 'USSR')).toBeUndefined();
    // Turn 8 ends it.
    const t8 = structuredClone(s);
    t8.turn = 8;
    turnStartEntry(p, t8, []);
    expect(neutralCap(t8, 'USSR')).toBeUndefined();
    // Without 9.2 a USSR at war is not limited at all.
    const core = structuredClone(full());
    core.neutral = core.neutral!.filter((x) => x !== 'USSR');
    expect(neutralCap(core, 'USSR')).toBeUndefined();
  });

  it('9.2: Germany declaring war on the USSR ends the USSR\'s production limit for good', () => {
    const s = structuredClone(road().state);
    s.rtwLimited = ['USSR'];
    expect(neutralCap(s, 'USSR')).toBe(s.itsWar!.USSR);
    declareOnMajor(p, s, 'GER', 'USSR', []);
    expect(neutralCap(s, 'USSR')).toBeUndefined();
  });

  it('9.2: the Allied restriction on declaring war on Brazil, Chile, Mexico and Venezuela holds only with the Monroe Doctrine', () => {
    for (const c of ['brazil', 'chile', 'mexico', 'venezuela']) {
      expect(protectedFrom(p, full(), c, 'Allies')).toBe(true);
      expect(protectedFrom(p, road().state, c, 'Allies')).toBe(false);
      expect(protectedFrom(p, road({ '3:USA': 'rtw monroe-doctrine' }).state, c, 'Allies')).toBe(true);
    }
    expect(declarable(p, as(road().state, 'AFA'))).toContain('brazil');
  });

  it('9.2: 3.3 for Central Europe and Finland only after the Anti-Comintern Pact Expanded; Brazil and Mexico only with the Monroe Doctrine', () => {
    /** `s0` with Germany and `power` at war, `power` no longer neutral, and the alignments checked. */
    const atWarWith = (power: string, s0: BlitzState): BlitzState => {
      const s = structuredClone(s0);
      s.wars = [...s.wars!, `GER~${power}`].sort();
      s.neutral = s.neutral!.filter((x) => x !== power);
      checkAlignments(p, s, []);
      return s;
    };
    const atWarWithUssr = (s0: BlitzState): BlitzState => atWarWith('USSR', s0);
    const plain = atWarWithUssr(road().state);
    expect(plain.control['central-europe']).toBe('neutral');
    expect(plain.control.finland).toBe('neutral');
    const pact = atWarWithUssr(road({ '13:GER': 'rtw anti-comintern-pact-expanded' }).state);
    expect(pact.control['central-europe']).toBe('GER');
    expect(pact.control.finland).toBe('GER');
    // Brazil and Mexico join the USA at war only with the Monroe Doctrine.
    const usaAtWar = (s0: BlitzState): BlitzState => atWarWith('USA', s0);
    expect(usaAtWar(road().state).control.mexico).toBe('neutral');
    expect(usaAtWar(road({ '3:USA': 'rtw monroe-doctrine' }).state).control.mexico).toBe('USA');
  });

  it('9.2: Austria-Czechoslovakia, not annexed, is a normal neutral minor and Army Group North sets up in Western Germany; annexed (German Option #7) it is Germany\'s', () => {
    const plain = road().state;
    expect(plain.control['austria-czechoslovakia']).toBe('neutral');
    expect(plain.units['army-group-north']?.at).toBe('western-germany');
    expect(Object.values(plain.units).some((u) => u.at === 'austria-czechoslovakia')).toBe(false);
    expect(declarable(p, as(plain, 'GER'))).toContain('austria-czechoslovakia');
    const annexed = road({ '7:GER': 'rtw annex-austria-czechoslovakia' }).state;
    expect(annexed.control['austria-czechoslovakia']).toBe('GER');
    expect(annexed.units['army-group-north']?.at).toBe(full().units['army-group-north']!.at);
    // Its 3.3 rule (an Allied major taking it from the Axis liberates and aligns it) applies only if annexed.
    const types = (s: BlitzState, power: string): string[] => {
      const ev: Events = [];
      takeControl(p, s, 'austria-czechoslovakia', power, ev, 'test');
      return ev.map((e) => e.type);
    };
    const a = structuredClone(annexed);
    a.units = Object.fromEntries(Object.entries(a.units).filter(([, u]) => u.at !== 'austria-czechoslovakia'));
    // 3.4: taking it whole liberates it only with a supply line to it: Poland, neutral under 9.2, the AFA's here for one.
    a.control = { ...a.control, poland: 'AFA' };
    expect(types(a, 'AFA')).toContain('liberation');
    const n = as(plain, 'GER');
    declareWar(p, n, 'austria-czechoslovakia', []);
    expect(n.control['austria-czechoslovakia']).toBe('AFA');
    expect(types(n, 'GER')).toContain('conquest');
    expect(types(n, 'AFA')).not.toContain('liberation');
  });

  it('9.2: the 7.5 Trade Agreements are ignored; options make them, and one with the Near East gives one Oil', () => {
    const lines = (s: BlitzState, power: string) => turnIncome(p, structuredClone(s), [])[power]!.lines;
    expect(lines(full(), 'GER')['trade:sweden']).toBe(1);
    expect(lines(road().state, 'GER')['trade:sweden']).toBeUndefined();
    expect(lines(road().state, 'GER')['trade from USSR']).toBeUndefined();
    const traded = road({ '1:GER': 'rtw trade-agreement sweden', '1:USSR': 'rtw trade-agreement near-east' }).state;
    expect(lines(traded, 'GER')['trade:sweden']).toBe(1);
    expect(traded.rtwTrades).toContainEqual({ from: 'near-east', to: 'USSR', oil: 1, resources: 0 });
    const pact = road({ '9:GER': 'rtw secret-soviet-pact' }).state;
    expect(pact.rtwTrades).toContainEqual(expect.objectContaining({ giver: 'USSR', to: 'GER', oil: 1 }));
    expect(lines(pact, 'GER')['trade from USSR']).toBe(1);
    // As 7.5's did, an option's trade lasts only while the minor stays neutral.
    const taken = structuredClone(traded);
    taken.control.sweden = 'AFA';
    expect(lines(taken, 'GER')['trade:sweden']).toBeUndefined();
  });

  it('9.2: the USA\'s Corregidor FORT is placed in Manila', () => {
    const { state, asks } = road({ '11:USA': 'rtw corregidor' });
    expect(asks.find((a) => a.step === 11 && a.power === 'USA')!.options).toContain('rtw corregidor');
    expect(state.units['corregidor-fort']).toMatchObject({ power: 'USA', at: 'manila', size: 1 });
    expect(road().state.units['corregidor-fort']).toBeUndefined();
  });

  it('9.2: with Liberate Foes Germany frees the minors it conquers as allies, never a major power\'s home country', () => {
    const lib = road({ '13:GER': 'rtw liberate-foes' }).state;
    expect(liberatesFoe(p, lib, 'norway', 'GER')).toBe(true);
    expect(liberatesFoe(p, lib, 'france', 'GER')).toBe(false);
    expect(liberatesFoe(p, lib, 'canada', 'GER')).toBe(false);
    expect(liberatesFoe(p, lib, 'ussr', 'GER')).toBe(false);
    expect(liberatesFoe(p, road().state, 'norway', 'GER')).toBe(false);
    // Taking all of Norway: an ally, not a conquest.
    const s = as(lib, 'GER');
    declareWar(p, s, 'norway', []);
    const ev: Events = [];
    takeControl(p, s, 'norway', 'GER', ev, 'test');
    expect(s.conquered).not.toContain('norway');
    expect(ev.map((e) => e.type)).toContain('liberation');
  });
});

describe('9.2 the estimated card', () => {
  it('9.2 (estimate): Diplomacy sways a minor; a lead of three over the other side makes it an ally when the Road to War ends', () => {
    const two = road({ '1:AFA': 'rtw diplomacy iberia', '2:AFA': 'rtw diplomacy iberia' }).state;
    expect(two.control.spain).toBe('neutral');
    const three = road({ '1:AFA': 'rtw diplomacy iberia', '2:AFA': 'rtw diplomacy iberia', '3:AFA': 'rtw diplomacy iberia' }).state;
    expect(three.control.spain).toBe('AFA');
    // The Condor Legion and Soviet aid cancel out.
    const both = road({ '2:GER': 'rtw condor-legion', '2:USSR': 'rtw aid-the-republic', '3:GER': 'rtw diplomacy iberia' }).state;
    expect(both.control.spain).toBe('neutral');
  });

  it('9.2 (estimate): Propaganda moves the neutral markers, towards war for the Allies and away for the Axis, never past the card\'s box 5', () => {
    const allied: Record<string, string> = {};
    for (let i = 1; i <= 13; i++) allied[`${i}:AFA`] = 'rtw propaganda';
    const s = road(allied).state;
    expect(s.itsWar).toMatchObject({ USA: 5, USSR: 5 });
    expect(s.neutral).toEqual(['USA', 'USSR']);
    const axis = road({ ...allied, '13:AFA': 'rtw rearm', '13:GER': 'rtw propaganda' }).state;
    expect(axis.itsWar).toMatchObject({ USA: 4, USSR: 4 });
  });

  it('9.2 (estimate): Weapons Development puts the first unit of the current Group of the power\'s Weapons Development Chart into the Force Pool', () => {
    const s = road({ '1:GER': 'rtw weapons-development' }).state;
    const first = p.files.scenarios.scenarios.find((x) => x.id === 'full')!.weaponCharts!.GER!.groups[0]!.units[0]!.unit;
    expect(s.pool[first]).toBeDefined();
    expect(s.picked).toContain(first);
  });
});

describe('9.2 options shown to players', () => {
  it('9.2: picks are open: every power sees the options played so far', () => {
    const s = play(full('9.2'), 'rtw remilitarize-rhineland').state;
    expect(blitz.observe(s, 'USSR').rtwPlayed).toEqual(['GER:remilitarize-rhineland']);
    expect(options(s)).toContain('rtw rearm');
  });
});
