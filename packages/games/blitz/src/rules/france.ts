/**
 * 3.4's special case of France, and liberation units: in a scenario that knows Vichy France (it lists
 * the `vichy-france` minor: F and the full game), the first time Paris falls to the Axis
 *
 * - the AFA's air and land units from France and French North Africa still on the map are set aside;
 * - French North Africa, French West Africa and Madagascar, where the Allies still hold them, and the
 *   Vichy France area in any case, become neutral countries that either side may declare war on;
 * - the French warships on the map go to Vichy France: they are Vichy's (held off the map here, since
 *   a neutral country's units take no part until it joins a side) and appear in its port, under the
 *   power that Vichy joins, when someone declares war on it;
 * - units left in a country that is now neutral are placed in an area of their home country (the new
 *   home chosen for them, if that country was conquered: 3.4) where their side holds it and they can
 *   stack, the owner choosing (`vichy-place`); an ally's area asks the holder's leave (1.3); with none,
 *   a unit is lost.
 *
 * An Axis declaration of war on Vichy France brings its land unit out only while the Allies do not hold
 * all of French North Africa. An Allied power taking one of these countries liberates it rather than
 * conquering it; Vichy's land unit is then set aside and its warships stay, under the liberator.
 *
 * Liberation (3.4): a liberated country's set-aside units come back to the liberating power's Force
 * Pool (they are its units now), the first at once and one more at the start of each later turn
 * (liberationUnits), Small ones before Big ones, never the Maginot Line; the liberator chooses which
 * (`take UNIT`) when there is more than one. Whether it keeps the country: liberation.ts.
 *
 * The French fleet roll (3.4): the first time an Axis power takes the Vichy France area, a die for each
 * French warship there (frenchFleetRoll), +1 while the Allies hold all of French North Africa: 1, the
 * Axis power takes it; 2-3, the Allies keep it and it must leave at once as an overrun unit would (6.6);
 * 4 or more, it is destroyed. The ships rolled for are not overrun.
 */
import { emit, landName, unitName, type Events } from './events.ts';
import { scenarioDef, unitDef, type PackIndex } from './pack-index.ts';
import { IllegalChoiceError } from '@salient/engine';
import { canStackLand, canStackPort, heldBySide, isAir, isLand, isNaval, leaveAnswer, maxSize, onMap, setControl, sideOf } from './query.ts';
import { askLeave, enterArea, holdForLeave } from './ally-leave.ts';
import { unitHome } from './supply.ts';
import { allyAreaBarred } from './wars.ts';
import type { Ask, BlitzState, SideId } from './state.ts';
import { fired } from './sections.ts';
import { putUnit, replaceUnits } from './unit-writes.ts';

export const VICHY = 'vichy-france';
/** The French colonies that turn neutral with Vichy France when France falls (3.4). */
const COLONIES = ['french-north-africa', 'french-west-africa', 'madagascar'];
/** Homes whose air and land units are set aside when France falls (3.4). */
const FRENCH_HOMES = ['france', 'french-north-africa'];

/** Whether the scenario plays 3.4's Vichy France (it has the Vichy France minor). */
export const knowsVichy = (p: PackIndex, s: BlitzState): boolean => scenarioDef(p, s.scenario).minors.some((m) => m.country === VICHY);

/** Whether Vichy France is a country of its own: from France's fall until it rejoins France (3.4). */
const vichyApart = (s: BlitzState): boolean => s.vichy !== undefined && !s.vichy.rejoined;

/**
 * The land areas of a country as play sees them: on this map the Vichy France area belongs to France,
 * and once France has fallen it is the Vichy France country's, until it rejoins France (3.4).
 */
export function countryLands(p: PackIndex, s: BlitzState, country: string): string[] {
  const apart = vichyApart(s);
  if (country === VICHY && apart) return [VICHY];
  const lands = p.countryLands.get(country) ?? [];
  return country === 'france' && apart ? lands.filter((l) => l !== VICHY) : lands;
}

/** The French countries that are neutral after France's fall and may be declared on (3.4). */
export const frenchNeutrals = (s: BlitzState): string[] => s.vichy?.countries ?? [];

const alliedHeld = (p: PackIndex, s: BlitzState, land: string): boolean => heldBySide(p, s, land, 'Allies');

/** Set a unit aside with its home country (3.4), to come back when the country is liberated. */
export function setAsideUnit(s: BlitzState, id: string, country: string): void {
  const u = s.units[id];
  if (u) putUnit(s, id, { ...u, at: 'gone' });
  const prev = s.setAside ?? {};
  s.setAside = { ...prev, [country]: [...(prev[country] ?? []), id].sort() };
}

/** France falls for the first time (3.4): the steps above, in the rulebook's order. */
export function franceFalls(p: PackIndex, s: BlitzState, ev: Events): void {
  if (s.vichy || !knowsVichy(p, s)) return;
  fired('3.4', s.scenario);
  const asideNow: string[] = [];
  for (const [id, u] of onMap(s)) {
    const home = unitDef(p, u.def).home;
    if (!FRENCH_HOMES.includes(home) || sideOf(p, s, u.power) !== 'Allies' || !(isAir(p, u) || isLand(p, u))) continue;
    setAsideUnit(s, id, home);
    asideNow.push(id);
  }
  if (asideNow.length) emit(ev, 'set-aside', `France falls: ${asideNow.map((x) => unitName(p, x)).join(', ')} ${asideNow.length > 1 ? 'are' : 'is'} set aside`, undefined, { country: 'france', units: asideNow });
  // The colonies the Allies still hold, and the Vichy France area whoever holds it, turn neutral.
  const neutral: string[] = [];
  const countries: string[] = [];
  for (const c of COLONIES) {
    const held = (p.countryLands.get(c) ?? []).filter((l) => l in s.control && alliedHeld(p, s, l));
    for (const l of held) neutral.push(l);
    if ((p.countryLands.get(c) ?? []).some((l) => l in s.control && (alliedHeld(p, s, l) || s.control[l] === 'neutral'))) countries.push(c);
  }
  if (VICHY in s.control) {
    neutral.push(VICHY);
    countries.push(VICHY);
  }
  for (const l of neutral) setControl(s, l, 'neutral');
  // French warships go to Vichy France.
  const fleet: { unit: string; size: number }[] = [];
  for (const [id, u] of onMap(s)) {
    if (unitDef(p, u.def).home !== 'france' || !isNaval(p, u)) continue;
    fleet.push({ unit: id, size: u.size });
    for (const [cid, c] of onMap(s)) if (c.at === `trs:${id}`) putUnit(s, cid, { ...c, at: 'gone' });
    putUnit(s, id, { ...u, at: 'gone' });
  }
  s.vichy = { countries: countries.sort(), fleet };
  // Units left in a country now neutral are placed in their home country, one at a time, the owner
  // choosing the area (askHomePlace), or are lost.
  const placing = onMap(s)
    .filter(([, u]) => !u.at.startsWith('sea:') && !u.at.startsWith('trs:') && neutral.includes(u.at))
    .map(([id]) => id);
  if (placing.length) s.homePlace = [...(s.homePlace ?? []), ...placing];
  emit(ev, 'vichy', `France falls: ${countries.map((c) => p.files.map.countries.find((x) => x.id === c)?.name ?? c).join(', ')} ${countries.length > 1 ? 'are' : 'is'} neutral now${fleet.length ? `; ${fleet.map((f) => unitName(p, f.unit)).join(', ')} go${fleet.length > 1 ? '' : 'es'} to Vichy France` : ''}`, undefined, {
    countries,
    fleet: fleet.map((f) => f.unit),
  });
}

/**
 * A declaration of war on Vichy France (3.4): its warships appear in its port under the power it joins,
 * and its land unit too, unless the aggressor is the Axis and the Allies hold all of French North Africa.
 * Returns whether the land unit sets up.
 */
export function vichyJoins(p: PackIndex, s: BlitzState, power: string, aggressor: SideId, ev: Events): boolean {
  const v = s.vichy;
  if (!v) return true;
  for (const f of v.fleet) {
    const u = s.units[f.unit];
    if (u) putUnit(s, f.unit, { ...u, power, size: f.size, at: VICHY });
  }
  if (v.fleet.length) emit(ev, 'placement', `${v.fleet.map((f) => unitName(p, f.unit)).join(', ')} ${v.fleet.length > 1 ? 'join' : 'joins'} ${power} in Vichy France`, power, { units: v.fleet.map((f) => f.unit), at: VICHY });
  s.vichy = { ...v, fleet: [] };
  const fna = (p.countryLands.get('french-north-africa') ?? []).filter((l) => l in s.control);
  return !(aggressor === 'Axis' && fna.length > 0 && fna.every((l) => alliedHeld(p, s, l)));
}

/** 3.4: an Axis power takes the Vichy France area for the first time: its French warships are to be rolled for. */
export function startFrenchFleetRoll(p: PackIndex, s: BlitzState, power: string): void {
  if (!s.vichy || s.vichy.rolled || sideOf(p, s, power) !== 'Axis') return;
  s.vichy = { ...s.vichy, rolled: true };
  const units = onMap(s)
    .filter(([, u]) => u.at === VICHY && isNaval(p, u) && unitDef(p, u.def).home === 'france' && sideOf(p, s, u.power) !== 'Axis')
    .map(([id]) => id)
    .sort();
  if (units.length) s.frenchFleetRoll = { power, units };
}

/** Whether `id` waits for its French fleet roll (so it is not overrun meanwhile). */
export const awaitsFleetRoll = (s: BlitzState, id: string): boolean => s.frenchFleetRoll?.units.includes(id) ?? false;

/** 3.4: one die for the first French warship still to be rolled for; returns whether it must leave (2-3). */
export function applyFrenchFleetDie(p: PackIndex, s: BlitzState, die: number, ev: Events, destroy: (id: string) => void): string | null {
  const r = s.frenchFleetRoll!;
  const [id, ...rest] = r.units as [string, ...string[]];
  if (rest.length) s.frenchFleetRoll = { ...r, units: rest };
  else delete s.frenchFleetRoll;
  fired('3.4', s.scenario);
  const fna = (p.countryLands.get('french-north-africa') ?? []).filter((l) => l in s.control);
  const total = die + (fna.length > 0 && fna.every((l) => alliedHeld(p, s, l)) ? 1 : 0);
  const u = s.units[id];
  if (!u || u.at !== VICHY) return null;
  const result = total <= 1 ? 'taken' : total <= 3 ? 'kept' : 'destroyed';
  emit(ev, 'french-fleet', `${unitName(p, id)}: die ${die}${total !== die ? ` +1` : ''}, ${result === 'taken' ? `${r.power} takes it` : result === 'kept' ? 'the Allies keep it and it must leave' : 'it is scuttled'}`, u.power, { unit: id, die, total, result });
  if (result === 'taken') putUnit(s, id, { ...u, power: r.power });
  else if (result === 'destroyed') destroy(id);
  return result === 'kept' ? id : null;
}

/** Whether taking `country` by `side` liberates it rather than conquering it (3.4: the French neutrals, to the Allies). */
export const liberatedByTaking = (s: BlitzState, country: string, side: SideId): boolean => side === 'Allies' && frenchNeutrals(s).includes(country);

/**
 * A country is liberated by `power` (3.4): Vichy's land unit is set aside; the first of the country's
 * set-aside Small units joins the liberator's Force Pool.
 */
export function liberate(p: PackIndex, s: BlitzState, country: string, power: string, ev: Events): void {
  fired('3.4', s.scenario);
  if (country === VICHY) {
    // 3.4: with France liberated before, Vichy France rejoins it, and its warships go to France's liberator.
    const rejoins = s.vichy?.franceBy !== undefined && !s.conquered.includes('france');
    const to = rejoins ? s.vichy!.franceBy! : power;
    for (const [id, u] of onMap(s)) {
      if (u.def === 'vichy-france-army') setAsideUnit(s, id, VICHY);
      // Its warships in port stay there, under the liberator.
      else if (u.at === VICHY && isNaval(p, u) && unitDef(p, u.def).home === 'france') putUnit(s, id, { ...u, power: to });
    }
    if (rejoins) {
      s.vichy = { ...s.vichy!, rejoined: true };
      dropClaims(p, s, VICHY, [VICHY]); // its allegiance changes: whoever held the area before has no claim on it now
      emit(ev, 'vichy-rejoins', `Vichy France is part of France again${to !== power ? `; its warships go to ${to}, which liberated France` : ''}`, power, { to });
    }
    return; // Vichy has no units set aside to return
  }
  // 3.4: who liberated France, should Vichy France be liberated later.
  if (country === 'france' && s.vichy && s.vichy.franceBy === undefined) s.vichy = { ...s.vichy, franceBy: power };
  if (releaseOne(p, s, country, power, ev)) s.liberators = { ...s.liberators, [country]: power };
}

/** 3.4: the set-aside units of `country` its liberator may take now: the Small ones while there are any, then the Big ones; never the Maginot Line. */
function releasable(p: PackIndex, s: BlitzState, country: string): string[] {
  const aside = (s.setAside?.[country] ?? []).filter((id) => id !== 'maginot-line');
  const small = aside.filter((id) => maxSize(p, unitDef(p, id).id) <= 2);
  return small.length ? small : aside;
}

/**
 * 3.4: one set-aside unit of a liberated country joins `power`'s Force Pool, of its choice: with one
 * possibility at once, else asked next (`take UNIT`, `s.releaseAsk`). Returns whether more are left.
 */
function releaseOne(p: PackIndex, s: BlitzState, country: string, power: string, ev: Events): boolean {
  const can = releasable(p, s, country);
  if (!can.length) return false;
  if (can.length === 1) release(p, s, country, power, can[0]!, ev);
  else s.releaseAsk = [...(s.releaseAsk ?? []), { country, power }];
  return (s.setAside?.[country] ?? []).filter((id) => id !== 'maginot-line').length > 1;
}

function release(p: PackIndex, s: BlitzState, country: string, power: string, pick: string, ev: Events): void {
  s.setAside = { ...s.setAside, [country]: (s.setAside?.[country] ?? []).filter((x) => x !== pick) };
  if (s.asidePicks?.[pick]) {
    // 7.3: a unit added while its country was conquered comes back with the liberation like the others.
    const { [pick]: _, ...rest } = s.asidePicks;
    if (Object.keys(rest).length) s.asidePicks = rest;
    else delete s.asidePicks;
  }
  // 3.4: "these are now your major power's units": the unit record says whose Force Pool it is in.
  replaceUnits(s, { ...s.units, [pick]: { def: pick, power, size: 0, at: 'pool' } });
  s.pool = { ...s.pool, [pick]: { size: maxSize(p, unitDef(p, pick).id), from: s.turn } };
  emit(ev, 'liberation-unit', `${unitName(p, pick)} joins ${power}'s Force Pool with ${p.files.map.countries.find((x) => x.id === country)?.name ?? country}'s liberation`, power, { country, unit: pick });
}

/** 3.4: the liberator's choice of the set-aside unit it takes (`take UNIT`). */
export function askRelease(p: PackIndex, s: BlitzState): Ask {
  const x = s.releaseAsk![0]!;
  return { kind: 'decision', power: x.power, prompt: 'liberation-unit', options: releasable(p, s, x.country).map((id) => `take ${id}`) };
}

export function applyRelease(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const x = s.releaseAsk![0]!;
  const rest = s.releaseAsk!.slice(1);
  if (rest.length) s.releaseAsk = rest;
  else delete s.releaseAsk;
  fired('3.4', s.scenario);
  release(p, s, x.country, x.power, choice.slice(5), ev);
}

/** 3.4: at the start of each turn after a liberation, one more set-aside unit per liberated country. */
export function liberationUnits(p: PackIndex, s: BlitzState, ev: Events): void {
  if (!s.liberators) return;
  const next: Record<string, string> = {};
  for (const [country, power] of Object.entries(s.liberators).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (s.conquered.includes(country)) continue; // taken again: no more come back
    if (releaseOne(p, s, country, power, ev)) next[country] = power;
  }
  if (Object.keys(next).length) s.liberators = next;
  else delete s.liberators;
}

/** 3.4: forget the other side's claims (`lostBy`) on the areas of `country` (or `only` those), which has just changed sides. */
export function dropClaims(p: PackIndex, s: BlitzState, country: string, only?: readonly string[]): void {
  if (!s.lostBy) return;
  const lands = new Set(only ?? countryLands(p, s, country));
  const rest = Object.fromEntries(Object.entries(s.lostBy).filter(([l]) => !lands.has(l)));
  if (Object.keys(rest).length) s.lostBy = rest;
  else delete s.lostBy;
}

/** The country a land area counts for now (the Vichy France area is Vichy's once France has fallen). */
export const countryOfLand = (p: PackIndex, s: BlitzState, land: string): string => (land === VICHY && vichyApart(s) ? VICHY : p.land.get(land)!.country);

/** 3.4: the areas of its home country where unit `id`, in a country made neutral by France's fall, may be placed. */
function homePlaces(p: PackIndex, s: BlitzState, id: string): string[] {
  const u = s.units[id]!;
  const side = sideOf(p, s, u.power);
  const fits = (l: string) => (isLand(p, u) ? canStackLand(p, s, l, side, u.size) : isNaval(p, u) ? canStackPort(p, s, l, u.size) : true);
  return countryLands(p, s, unitHome(p, s, u.def))
    .filter((l) => l in s.control && heldBySide(p, s, l, side) && !allyAreaBarred(p, s, u.power, l) && leaveAnswer(s, u.power, l) !== false && fits(l))
    .sort();
}

/**
 * 3.4: the next unit to place out of a country made neutral by France's fall: with one area it goes
 * there at once (an ally's asks the holder's leave first, 1.3), with none it is lost, with several
 * its owner is asked (`vichy-place`); null once every unit is placed.
 */
export function askHomePlace(p: PackIndex, s: BlitzState, ev: Events): Ask | null {
  while (s.homePlace?.length) {
    const id = s.homePlace[0]!;
    const u = s.units[id]!;
    if (u.at === 'pool' || u.at === 'gone' || s.control[u.at] !== 'neutral') {
      shiftHomePlace(s); // gone meanwhile, or its area no longer neutral
      continue;
    }
    const dests = homePlaces(p, s, id);
    if (dests.length > 1) return { kind: 'decision', power: u.power, prompt: 'vichy-place', options: dests.map((l) => `to ${l}`) };
    if (dests.length === 1 && holdForLeave(p, s, id, dests[0]!, `to ${dests[0]!}`)) return askLeave(s);
    if (dests.length === 1) placeHome(p, s, id, dests[0]!, ev);
    else {
      emit(ev, 'elimination', `${unitName(p, id)} has nowhere to go from ${landName(p, u.at)}, now neutral, and is lost`, u.power, { unit: id, type: unitDef(p, u.def).type });
      putUnit(s, id, { ...u, at: 'gone' });
      shiftHomePlace(s);
    }
  }
  return null;
}

/** The owner's pick of an area for the unit at the head of `homePlace`. */
export function applyHomePlace(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const id = s.homePlace![0]!;
  const to = choice.slice('to '.length);
  if (!choice.startsWith('to ') || !homePlaces(p, s, id).includes(to)) throw new IllegalChoiceError(`'${choice}' is not an area of its home country where ${id} may be placed`);
  if (holdForLeave(p, s, id, to, choice)) return; // 1.3: asked next; given, this choice is applied again
  placeHome(p, s, id, to, ev);
}

function placeHome(p: PackIndex, s: BlitzState, id: string, dest: string, ev: Events): void {
  const u = s.units[id]!;
  fired('3.4', s.scenario);
  emit(ev, 'vichy-move', `${unitName(p, id)} leaves ${landName(p, u.at)}, now neutral, for ${landName(p, dest)}`, u.power, { unit: id, from: u.at, to: dest });
  putUnit(s, id, { ...u, at: dest });
  shiftHomePlace(s);
  enterArea(p, s, id, dest); // 1.3: the holder's air and naval units there rebase out
}

function shiftHomePlace(s: BlitzState): void {
  const [, ...rest] = s.homePlace!;
  if (rest.length) s.homePlace = rest;
  else delete s.homePlace;
}
