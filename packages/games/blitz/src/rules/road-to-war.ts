/**
 * 9.2 Blitzing the Road to War (the full game, optional): before Turn 1 the major powers play steps
 * 1-13 of the Road to War card in order, each power picking one Option at each step: one listed for it
 * at that step, or one of the six Standard Options (any of them, as often as it likes). The picks are
 * open, one decision of the picking power's seat each. The card is the pack's (`roadToWar`); the rulebook
 * states only the options it names (RTW_STATED) and the rules they switch on, which live here and in the
 * hooks of the modules they change (politics, minors, neutrality, income):
 *
 * - Poland starts the Road to War neutral; Germany and the AFA (and their allies) are at war when it ends
 *   (the scenario's wars already hold the pair; a minor allied to either is part of its power).
 * - China and Japan are at war unless Japan plays Don't Invade China (step 5): China is then a neutral
 *   minor, with no Trade Agreement; an Axis declaration on it allies it with the USA, and an Allied
 *   declaration on Japan allies it with Japan (9.2 says so; it reads oddly, but it is the text).
 * - Once the Road to War is over, a minor allied to a major power cannot be declared war on apart from
 *   it: in this engine an allied minor's areas are its power's, so only a neutral minor is declarable.
 * - 3.2's restrictions: Germany's on declaring war on the USSR only with the Secret German Pact, the
 *   USSR's only with the Secret Soviet Pact (then covering Germany's allies and trading partners), the
 *   Allies' on Brazil, Chile, Mexico and Venezuela only with the Monroe Doctrine. A USSR that declares
 *   war on Germany while free to keeps its 7.7 limit by its It's War! marker until Germany declares war
 *   on it, Germany holds an area of the USSR, or Turn 8 begins.
 * - 3.3's alignments of Austria-Czechoslovakia (only if annexed), Brazil and Mexico (only with the
 *   Monroe Doctrine), Central Europe and Finland (only with the Anti-Comintern Pact Expanded).
 * - 7.5's Trade Agreements are set aside; the options make them (the Near East's gives one Oil).
 * - Without the annexation Austria-Czechoslovakia stays neutral and Army Group North sets up in Western
 *   Germany; the USA's Corregidor FORT goes to Manila.
 *
 * Nothing here runs unless the option is on: every hook asks `rtwOn` (or `rtwKeeps`) first.
 */
import { IllegalChoiceError, SalientError } from '@salient/engine';
import { emit, landName, unitName, type Events } from './events.ts';
import { scenarioDef, type PackIndex } from './pack-index.ts';
import type { RoadToWar, RtwOption } from '../pack/schema.ts';
import type { Ask, BlitzState } from './state.ts';
import { optionOn } from './optional.ts';
import { fired } from './sections.ts';
import { addDrawn, researchCandidates } from './research.ts';
import { align } from './minors.ts';
import { moveMarker } from './neutrality.ts';
import { makeWar } from './wars.ts';
import { setControl } from './query.ts';
import { moveUnit, putUnit, removeUnit } from './unit-writes.ts';

/** Whether optional rule 9.2 is on in this game. */
export const rtwOn = (s: BlitzState): boolean => optionOn(s, '9.2');

/** Whether option `id` was played on the Road to War (by anyone). */
export const played = (s: BlitzState, id: string): boolean => (s.rtwPlayed ?? []).some((x) => x.slice(x.indexOf(':') + 1) === id);

/**
 * Whether a rule 9.2 makes depend on a named option applies: always without 9.2 (the rule as the core
 * rules give it), with 9.2 only if `option` was played.
 */
export const rtwKeeps = (s: BlitzState, option: string): boolean => !rtwOn(s) || played(s, option);

/** 9.2's adjustments to 3.3: the minors whose alignment rule holds only after a named option. */
const ALIGNMENT_NEEDS: Readonly<Record<string, string>> = {
  'austria-czechoslovakia': 'annex-austria-czechoslovakia',
  brazil: 'monroe-doctrine',
  mexico: 'monroe-doctrine',
  'central-europe': 'anti-comintern-pact-expanded',
  finland: 'anti-comintern-pact-expanded',
};

/** 3.3 as 9.2 adjusts it: whether the scenario's alignment rules for `country` apply in this game. */
export const alignmentRuleApplies = (s: BlitzState, country: string): boolean => {
  const need = ALIGNMENT_NEEDS[country];
  return need === undefined || rtwKeeps(s, need);
};

/** The card, or an error saying the pack has none. */
function card(p: PackIndex, s: BlitzState): RoadToWar {
  const c = scenarioDef(p, s.scenario).roadToWar;
  if (!c) throw new SalientError('BAD_OPTION', `option 'optional': 9.2 (Blitzing the Road to War) needs the Road to War card, and this pack's scenario ${s.scenario} has none (roadToWar).`);
  return c;
}

/** A neutral minor's army as the scenario lists it, or as the Road to War adds it (Poland, Austria-Czechoslovakia, a neutral China). */
export function minorDef(p: PackIndex, s: BlitzState, country: string): { country: string; army: { unit: string; size: number; at: string }[]; colonies?: { countries: string[]; axis?: string | undefined } | undefined } | undefined {
  const sc = scenarioDef(p, s.scenario);
  return sc.minors.find((m) => m.country === country) ?? (rtwOn(s) ? sc.roadToWar?.minors.find((m) => m.country === country) : undefined);
}

/** The countries of the scenario's minors, with the Road to War's when 9.2 is on. */
export function minorCountries(p: PackIndex, s: BlitzState): string[] {
  const sc = scenarioDef(p, s.scenario);
  const extra = rtwOn(s) ? (sc.roadToWar?.minors ?? []).map((m) => m.country) : [];
  return [...sc.minors.map((m) => m.country), ...extra];
}

const landsOf = (p: PackIndex, s: BlitzState, country: string): string[] => (p.countryLands.get(country) ?? []).filter((l) => l in s.control);
const isNeutralCountry = (p: PackIndex, s: BlitzState, country: string): boolean => {
  const lands = landsOf(p, s, country);
  return lands.length > 0 && lands.every((l) => s.control[l] === 'neutral');
};

/**
 * The set-up with 9.2 on, before Turn 1: Poland (and Austria-Czechoslovakia, until annexed) neutral,
 * their units off the map; then step 1 begins.
 */
export function startRoadToWar(p: PackIndex, s: BlitzState): void {
  const c = card(p, s);
  for (const country of c.neutralAtStart) {
    for (const l of landsOf(p, s, country)) setControl(s, l, 'neutral');
    for (const pl of c.minors.find((m) => m.country === country)?.army ?? []) removeUnit(s, pl.unit);
  }
  s.roadToWar = { step: 1, queue: [...c.order], influence: {} };
  s.rtwPlayed = [];
  s.rtwTrades = [];
}

/** The `rtw` choices of one option for `power` now (an option that names a country offers one per country). */
function choicesOf(p: PackIndex, s: BlitzState, c: RoadToWar, o: RtwOption, power: string): string[] {
  if (o.ally !== undefined && !isNeutralCountry(p, s, o.ally)) return [];
  if (o.research !== undefined && !researchCandidates(p, s, power).length) return [];
  if (o.units?.some((u) => s.units[u.unit] || u.unit in s.pool)) return [];
  if (o.id === 'annex-austria-czechoslovakia' && !isNeutralCountry(p, s, c.annex.country)) return [];
  if (o.tradeChoice) {
    const taken = new Set((s.rtwTrades ?? []).map((t) => t.from));
    // 9.2: no Trade Agreement with a neutral China (the pack's check keeps China off the terms too).
    return c.tradeTerms.filter((t) => t.country !== 'china' && !taken.has(t.country) && isNeutralCountry(p, s, t.country)).map((t) => `rtw ${o.id} ${t.country}`);
  }
  if (o.influenceChoice !== undefined) return c.influence.targets.filter((x) => isNeutralCountry(p, s, x)).map((x) => `rtw ${o.id} ${x}`);
  return [`rtw ${o.id}`];
}

export function askRoadToWar(p: PackIndex, s: BlitzState): Ask {
  const c = card(p, s);
  const r = s.roadToWar!;
  const power = r.queue[0]!;
  const listed = c.steps[r.step - 1]!.options.filter((o) => o.power === power);
  const options = [...listed, ...c.standard].flatMap((o) => choicesOf(p, s, c, o, power));
  return { kind: 'decision', power, prompt: 'road-to-war', options };
}

/** Move a neutral major's marker during the Road to War, never past the card's `markerMax` nor below 0. */
function nudge(p: PackIndex, s: BlitzState, power: string, delta: number, why: string, ev: Events, max: number): void {
  if (!(s.neutral ?? []).includes(power)) return;
  const was = s.itsWar?.[power] ?? 0;
  const to = Math.max(0, Math.min(max, was + delta));
  if (to !== was) moveMarker(p, s, power, to - was, why, ev);
}

/** One pick: the option's effects for the picking power, then the next power, step, or the end. */
export function applyRoadToWar(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const c = card(p, s);
  const r = s.roadToWar!;
  const power = r.queue[0]!;
  const [verb, id, arg] = choice.split(' ') as [string, string, string | undefined];
  const o = verb === 'rtw' ? [...c.steps[r.step - 1]!.options.filter((x) => x.power === power), ...c.standard].find((x) => x.id === id) : undefined;
  if (!o) throw new IllegalChoiceError(`'${choice}' is not an option for ${power} at step ${r.step}`);
  fired('9.2', s.scenario);
  const side = scenarioDef(p, s.scenario).powers.find((x) => x.id === power)!.side;
  const why = `${o.name}, Road to War step ${r.step}`;
  const said: string[] = [];
  if (o.resources) {
    (s.saved ??= {})[power] = (s.saved[power] ?? 0) + o.resources;
    said.push(`${o.resources} Resource${o.resources > 1 ? 's' : ''} saved`);
  }
  if (o.oil) {
    (s.oil ??= {})[power] = (s.oil[power] ?? 0) + o.oil;
    said.push(`${o.oil} Oil saved`);
  }
  for (const [pw, d] of Object.entries(o.itsWar ?? {}).sort()) nudge(p, s, pw, d, why, ev, c.markerMax);
  if (o.propaganda) for (const pw of [...(s.neutral ?? [])]) nudge(p, s, pw, side === 'Allies' ? o.propaganda : -o.propaganda, why, ev, c.markerMax);
  const sway = (country: string, n: number) => {
    const m = (r.influence[country] = { ...(r.influence[country] ?? {}) });
    m[power] = (m[power] ?? 0) + n;
    said.push(`${n} influence in ${country}`);
  };
  for (const [country, n] of Object.entries(o.influence ?? {}).sort()) sway(country, n);
  if (o.influenceChoice !== undefined) sway(arg!, o.influenceChoice);
  if (o.tradeChoice) {
    const t = c.tradeTerms.find((x) => x.country === arg)!;
    s.rtwTrades = [...(s.rtwTrades ?? []), { from: t.country, to: power, oil: t.oil, resources: t.resources }];
    said.push(`a Trade Agreement with ${t.country} (${t.oil} Oil, ${t.resources} Resources a turn)`);
  }
  if (o.trade) {
    s.rtwTrades = [...(s.rtwTrades ?? []), { ...o.trade }];
    said.push(`${o.trade.giver} trades ${o.trade.oil} Oil and ${o.trade.resources} Resources a turn to ${o.trade.to}`);
  }
  for (const u of o.units ?? []) {
    putUnit(s, u.unit, { def: u.unit, power, size: u.size, at: u.at });
    said.push(`${unitName(p, u.unit)} in ${landName(p, u.at)}`);
  }
  for (let i = 0; i < (o.research ?? 0); i++) {
    const x = researchCandidates(p, s, power)[0];
    if (!x) break;
    addDrawn(p, s, power, x);
    said.push(`${unitName(p, x.unit)} to the Force Pool`);
  }
  s.rtwPlayed = [...(s.rtwPlayed ?? []), `${power}:${o.id}`];
  emit(ev, 'road-to-war', `${power} plays ${o.name} (Road to War step ${r.step})${said.length ? `: ${said.join(', ')}` : ''}`, power, { power, step: r.step, option: o.id, ...(arg ? { country: arg } : {}) });
  if (o.ally !== undefined) align(p, s, o.ally, power, ev);
  if (o.id === 'annex-austria-czechoslovakia') annex(p, s, c, ev);
  if (o.id === 'dont-invade-china') neutralChina(p, s, ev);
  r.queue = r.queue.slice(1);
  if (r.queue.length) return;
  if (r.step < c.steps.length) {
    r.step += 1;
    r.queue = [...c.order];
    return;
  }
  endRoadToWar(p, s, c, ev);
}

/** German Option #7: Austria-Czechoslovakia's areas become Germany's. */
function annex(p: PackIndex, s: BlitzState, c: RoadToWar, ev: Events): void {
  for (const l of landsOf(p, s, c.annex.country)) if (s.control[l] === 'neutral') setControl(s, l, c.annex.power);
  emit(ev, 'annexation', `${c.annex.power} annexes Austria-Czechoslovakia`, c.annex.power, { country: c.annex.country, power: c.annex.power });
}

/**
 * Don't Invade China: China is a neutral minor. Its war with Japan never began; the areas the Allies
 * hold for it are neutral and its units leave the map (its army in `roadToWar.minors` comes back when it
 * joins a power). Areas Japan holds (Peking) stay Japan's.
 */
function neutralChina(p: PackIndex, s: BlitzState, ev: Events): void {
  if (s.wars) s.wars = s.wars.filter((k) => !k.split('~').includes('china'));
  for (const l of landsOf(p, s, 'china')) {
    const holder = s.control[l]!;
    if (holder !== 'neutral' && scenarioDef(p, s.scenario).powers.find((x) => x.id === holder)?.side === 'Allies') setControl(s, l, 'neutral');
  }
  for (const pl of minorDef(p, s, 'china')?.army ?? []) removeUnit(s, pl.unit);
  emit(ev, 'neutral-china', 'China is a neutral minor: Japan and China are not at war', 'JAP', { country: 'china' });
}

/**
 * The end of the Road to War: neutral minors where one side leads by the card's `toAlly` in influence ally
 * with that side's most influential power; an unannexed Austria-Czechoslovakia stays neutral and the units
 * the card names set up elsewhere; Germany and the AFA are at war.
 */
function endRoadToWar(p: PackIndex, s: BlitzState, c: RoadToWar, ev: Events): void {
  const r = s.roadToWar!;
  const powers = scenarioDef(p, s.scenario).powers;
  for (const country of c.influence.targets) {
    const m = r.influence[country];
    if (!m || !isNeutralCountry(p, s, country)) continue;
    const total = (side: string) => powers.filter((x) => x.side === side).reduce((t, x) => t + (m[x.id] ?? 0), 0);
    const lead = total('Axis') - total('Allies');
    if (Math.abs(lead) < c.influence.toAlly) continue;
    const side = lead > 0 ? 'Axis' : 'Allies';
    // The leading side's most influential power; equals in the card's picking order.
    const best = c.order.filter((pw) => powers.find((x) => x.id === pw)?.side === side).sort((a, b) => (m[b] ?? 0) - (m[a] ?? 0))[0]!;
    align(p, s, country, best, ev);
  }
  if (!played(s, 'annex-austria-czechoslovakia')) {
    for (const e of c.annex.elsewhere) {
      const u = s.units[e.unit];
      if (u) moveUnit(s, u, e.at);
      emit(ev, 'placement', `${unitName(p, e.unit)} sets up in ${landName(p, e.at)} (Austria-Czechoslovakia not annexed)`, c.annex.power, { unit: e.unit, at: e.at });
    }
  }
  // Germany and the AFA (and their allies, whose areas are theirs) are at war.
  const ger = powers.find((x) => x.id === 'GER');
  const afa = powers.find((x) => x.id === 'AFA');
  if (ger && afa) makeWar(s, ger.id, afa.id);
  delete s.roadToWar;
  emit(ev, 'road-to-war-ends', 'The Road to War ends: Germany and the AFA are at war', undefined, { played: [...(s.rtwPlayed ?? [])] });
}

// ---------------------------------------------------------------- hooks for the core rules

/**
 * 3.2 with 9.2: the neutral USSR's restrictions on declaring war hold only if Germany played the Secret
 * Soviet Pact, and then cover Germany and every minor that is Germany's ally or trades with it (not
 * necessarily 3.2's list). Undefined when 9.2 is off or the power is not the USSR: the scenario's list stands.
 */
export function sovietExcept(p: PackIndex, s: BlitzState, power: string): string[] | undefined {
  if (!rtwOn(s) || power !== 'USSR') return undefined;
  if (!played(s, 'secret-soviet-pact')) return [];
  const allies = minorCountries(p, s).filter((c) => landsOf(p, s, c).some((l) => s.control[l] === 'GER'));
  const partners = (s.rtwTrades ?? []).filter((t) => t.to === 'GER' && !t.giver).map((t) => t.from);
  return ['GER', ...allies, ...partners];
}

/** Whether `power`'s production is still limited by its It's War! marker though it is no longer neutral (9.2, 7.7). */
export const rtwLimited = (s: BlitzState, power: string): boolean => s.rtwLimited?.includes(power) ?? false;

/** 9.2: the USSR declared war on Germany, free to: 7.7 still limits it by its marker, which keeps moving. */
export function keepSovietLimit(s: BlitzState, power: string, on: string): void {
  if (!rtwOn(s) || power !== 'USSR' || on !== 'GER' || rtwLimited(s, power)) return;
  s.rtwLimited = [...(s.rtwLimited ?? []), power];
}

/** 9.2: the limit ends for good when Germany declares war on the USSR, holds an area in the USSR, or Turn 8 begins. */
export function endSovietLimit(s: BlitzState, why: string, ev: Events): void {
  if (!rtwLimited(s, 'USSR')) return;
  s.rtwLimited = s.rtwLimited!.filter((x) => x !== 'USSR');
  if (!s.rtwLimited.length) delete s.rtwLimited;
  fired('9.2', s.scenario);
  emit(ev, 'production-limit-ends', `The USSR's production is no longer limited by its It's War! marker (${why})`, 'USSR', { power: 'USSR', why });
}

/** 9.2: Liberate Foes: a minor country Germany conquers becomes its ally instead (never a major power's home country). */
export function liberatesFoe(p: PackIndex, s: BlitzState, country: string, power: string): boolean {
  if (!rtwOn(s) || power !== 'GER' || !(s.rtwPlayed ?? []).includes('GER:liberate-foes')) return false;
  return !p.files.map.countries.some((c) => c.id === country && c.homeOf !== undefined);
}

/** 9.2: an Allied major's declaration of war on Japan allies a neutral China with Japan (as the text has it). */
export function chinaSidesWithJapan(p: PackIndex, s: BlitzState, aggressor: string, on: string, ev: Events): void {
  // Neutral: not declared on, with areas no one holds (Japan keeps Peking).
  if (!rtwOn(s) || on !== 'JAP' || !played(s, 'dont-invade-china') || s.atWar.includes('china') || !landsOf(p, s, 'china').some((l) => s.control[l] === 'neutral')) return;
  if (scenarioDef(p, s.scenario).powers.find((x) => x.id === aggressor)?.side !== 'Allies') return;
  fired('9.2', s.scenario);
  align(p, s, 'china', 'JAP', ev);
}
