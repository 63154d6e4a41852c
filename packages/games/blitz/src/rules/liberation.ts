/**
 * 3.4's choices after a conquest or a liberation.
 *
 * The liberator's choice. A country liberated by a major power that was allied, before its conquest,
 * with another major power of the same side (its original power) either goes back to that power or
 * stays with the liberator, decided at once and for good (`keep COUNTRY` or `return COUNTRY`, asked
 * of the liberator before anything else goes on). Returned: the areas of the country the liberator
 * holds pass to the original power, and the liberator's units in them that may not stand in that
 * power's territory (1.3, `allyAreaBarred`) go to the closest area where they may. Kept: the liberator
 * takes over the country's units on the map and in the Force Pool that were the original power's. A
 * country that was its original power's only home country at the start, or one the map marks
 * `returnedWhenLiberated` (the AFA's Great Britain, Germany's Germany), always goes back. Either way
 * the set-aside units that come back with the liberation (france.ts) are the liberator's, and No
 * Casualties stays with the power that took the area (8: `cleanTakes` keeps the taker).
 *
 * A single land area (3.4: "treat individual land areas that have been conquered the same as a
 * country"): an area the other side took from a power (`lostBy`, politics.ts) and that another power of
 * that power's side takes back, while its country is not conquered as a whole, is liberated on its own:
 * returned at once where its country would be (Great Britain, Germany, a power's only home), else the
 * liberator keeps it or returns it (`keep LAND`, `return LAND`). The text is silent on the rest, so we
 * do what a player would expect: an area has no units of its own, so nothing is set aside or comes back
 * with it, and keeping it hands over no units.
 *
 * The original power is the power whose home country it is; for any other country, the one power
 * that held all its areas in play at the start of the scenario (the AFA for the French colonies that
 * France's fall made neutral).
 *
 * The new home country (3.4, D.5, F.3). When any country is conquered while units of it are still on
 * the map under a power of the side that lost it, that power chooses at once another of its allied
 * home countries as their new home (`home great-britain canada`): one of its own home countries, or a
 * minor ally's (a country with units of its own, not conquered, where it holds an area and its side
 * all of them); one possibility is taken without asking. Their supply lines (1.7) start there from then
 * on (`unitHome`, supply.ts). 7.6 names the new home only for the AFA's British units: for a power with
 * remote home countries (the dominions), the new home of a conquered main home's units counts with
 * the main homes (step 4, no supply or Convoy needed) instead of with the areas outside them (step 1).
 * A liberation of the conquered country ends the choice, and a conquest of the new home asks again.
 * Where the units of one country are run by several powers (the text does not say), the country's
 * original power chooses if it runs some, else the first of them by id. Only scenarios where a home
 * matters ask (supply or 7.6's income: D, E, F and the full game).
 */
import { IllegalChoiceError } from '@salient/engine';
import { emit, landName, unitName, type Events } from './events.ts';
import { landDef, scenarioDef, unitDef, type PackIndex } from './pack-index.ts';
import { canStackLand, canStackPort, isAir, isLand, isNaval, landNeighbours, leaveAnswer, onMap, setControl, sideOf } from './query.ts';
import { askLeave, enterArea, holdForLeave } from './ally-leave.ts';
import { usesSupply } from './supply.ts';
import { allyAreaBarred } from './wars.ts';
import { countryLands } from './france.ts';
import { fired } from './sections.ts';
import type { Ask, BlitzState, SideId } from './state.ts';
import { putUnit } from './unit-writes.ts';

const countryName = (p: PackIndex, c: string): string => p.files.map.countries.find((x) => x.id === c)?.name ?? c;

/** The power whose nation has `country` as a home country (1.1), if any. */
function homePower(p: PackIndex, s: BlitzState, country: string): string | undefined {
  const home = p.files.map.countries.find((c) => c.id === country)?.homeOf;
  return home ? scenarioDef(p, s.scenario).powers.find((x) => x.nations.includes(home))?.id : undefined;
}

/** 3.4: the major power `country` was allied with before it was conquered (see the file comment). */
export function originalPower(p: PackIndex, s: BlitzState, country: string): string | undefined {
  const own = homePower(p, s, country);
  if (own) return own;
  const sc = scenarioDef(p, s.scenario);
  const start = [...new Set(countryLands(p, s, country).filter((l) => sc.lands.includes(l)).map((l) => sc.control[l] ?? 'neutral'))];
  return start.length === 1 && sc.powers.some((x) => x.id === start[0]) ? start[0] : undefined;
}

/** 3.4: whether a liberated `country` (or an area of it) must go back to `orig`: its only home country at the start, or one the map marks `returnedWhenLiberated`. */
function mustReturn(p: PackIndex, s: BlitzState, country: string, orig: string): boolean {
  if (p.files.map.countries.find((c) => c.id === country)?.returnedWhenLiberated === true) return true;
  const nations: readonly string[] = scenarioDef(p, s.scenario).powers.find((x) => x.id === orig)?.nations ?? [];
  const homes = p.files.map.countries.filter((c) => c.homeOf !== undefined && nations.includes(c.homeOf));
  return homes.length === 1 && homes[0]!.id === country;
}

/**
 * 3.4: the powers of `taker`'s side that may ally with a country it liberates: the one holding the
 * most of its areas, or, tied for the most, all of them in code-point order (3.4 flips a coin).
 */
export function liberatorsOf(p: PackIndex, s: BlitzState, country: string, taker: string): string[] {
  const side = sideOf(p, s, taker);
  const counts = new Map<string, number>();
  for (const l of countryLands(p, s, country)) {
    const h = s.control[l];
    if (h && h !== 'neutral' && sideOf(p, s, h) === side) counts.set(h, (counts.get(h) ?? 0) + 1);
  }
  const most = Math.max(0, ...counts.values());
  const top = [...counts.keys()].filter((pw) => counts.get(pw) === most).sort();
  return top.length ? top : [taker];
}

/**
 * After `liberator` liberates `country` (3.4): it goes back at once where it must; where the liberator
 * may choose, the choice is asked next (`s.liberation`).
 */
export function afterLiberation(p: PackIndex, s: BlitzState, country: string, liberator: string, ev: Events): void {
  if (s.homeFor?.[country]) {
    // Its own units are home again.
    const { [country]: _back, ...rest } = s.homeFor;
    if (Object.keys(rest).length) s.homeFor = rest;
    else delete s.homeFor;
  }
  const orig = originalPower(p, s, country);
  if (!orig || orig === liberator || sideOf(p, s, orig) !== sideOf(p, s, liberator)) return;
  fired('3.4', s.scenario);
  if (mustReturn(p, s, country, orig)) returnCountry(p, s, country, liberator, orig, ev);
  else queueLiberation(s, { country, power: liberator, to: orig });
}

/** A keep-or-return choice to ask: now, or after the one already pending. */
function queueLiberation(s: BlitzState, x: NonNullable<BlitzState['liberation']>): void {
  if (s.liberation) s.liberationNext = [...(s.liberationNext ?? []), x];
  else s.liberation = x;
}

/**
 * 3.4: `liberator` has just taken back `land`, which the other side took from `orig`, a power of its
 * side, while the area's country is not conquered as a whole: the area is liberated as a country would
 * be (see the file comment).
 */
export function liberateArea(p: PackIndex, s: BlitzState, land: string, country: string, liberator: string, orig: string, ev: Events): void {
  fired('3.4', s.scenario);
  emit(ev, 'liberation', `${landName(p, land)} is liberated by ${liberator}`, liberator, { country, land });
  if (mustReturn(p, s, country, orig)) returnCountry(p, s, country, liberator, orig, ev, [land]);
  else queueLiberation(s, { country, power: liberator, to: orig, land });
}

/** 3.4: the liberator's choice, asked at once: keep the country (or area) or return it to its original power. */
export function askLiberation(s: BlitzState): Ask {
  const x = s.liberation!;
  const what = x.land ?? x.country;
  return { kind: 'decision', power: x.power, prompt: 'liberation-return', options: [`keep ${what}`, `return ${what}`] };
}

export function applyLiberation(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const x = s.liberation!;
  delete s.liberation;
  const [next, ...rest] = s.liberationNext ?? [];
  if (next) s.liberation = next;
  if (rest.length) s.liberationNext = rest;
  else delete s.liberationNext;
  fired('3.4', s.scenario);
  if (choice === `return ${x.land ?? x.country}`) {
    returnCountry(p, s, x.country, x.power, x.to, ev, x.land === undefined ? undefined : [x.land]);
    return;
  }
  if (x.land !== undefined) {
    // A single area: it has no units of its own to take over.
    emit(ev, 'liberation-keep', `${x.power} keeps ${landName(p, x.land)} rather than returning it to ${x.to}`, x.power, { country: x.country, land: x.land, from: x.to, units: [] });
    return;
  }
  // Kept: the country's units that were the original power's, on the map or in the Force Pool, are the liberator's now.
  const taken: string[] = [];
  for (const id of Object.keys(s.units).sort()) {
    const u = s.units[id]!;
    if (u.at === 'gone' || u.power !== x.to || unitDef(p, u.def).home !== x.country) continue;
    putUnit(s, id, { ...u, power: x.power });
    taken.push(id);
  }
  const nations: readonly string[] = scenarioDef(p, s.scenario).powers.find((w) => w.id === x.to)?.nations ?? [];
  for (const id of Object.keys(s.pool).sort()) {
    const d = unitDef(p, id);
    if (s.units[id] || d.home !== x.country || !nations.includes(d.nation)) continue;
    putUnit(s, id, { def: id, power: x.power, size: 0, at: 'pool' });
    taken.push(id);
  }
  emit(ev, 'liberation-keep', `${x.power} keeps ${countryName(p, x.country)} rather than returning it to ${x.to}${taken.length ? `; ${taken.map((id) => unitName(p, id)).join(', ')} ${taken.length > 1 ? 'are' : 'is'} ${x.power}'s now` : ''}`, x.power, { country: x.country, from: x.to, units: taken });
}

/** 3.4: `from` hands `country` (or only `only` of its areas) back to `to`: its areas, and its own units out of areas barred to them. */
function returnCountry(p: PackIndex, s: BlitzState, country: string, from: string, to: string, ev: Events, only?: readonly string[]): void {
  const lands = (only ?? countryLands(p, s, country)).filter((l) => s.control[l] === from);
  // Control passes directly: this is not a take (no capture events, No Casualties stays with the taker).
  for (const l of lands) setControl(s, l, to);
  const what = only ? lands.map((l) => landName(p, l)).join(', ') : countryName(p, country);
  emit(ev, 'liberation-return', `${from} returns ${what} to ${to}${lands.length && !only ? ` (${lands.map((l) => landName(p, l)).join(', ')})` : ''}`, from, { country, from, to, lands });
  updateOut(p, s, ev); // 3.4: a power out of the game is back once a country of its own is returned to it
  // The units that must leave, moved one at a time, each to a closest area as things then stand
  // (standMoves: the owner picks among equals, asked by askStandMove).
  const leaving = onMap(s)
    .filter(([, u]) => u.power === from && lands.includes(u.at) && allyAreaBarred(p, s, from, u.at))
    .map(([id]) => id);
  if (leaving.length) s.standMoves = [...(s.standMoves ?? []), ...leaving];
}

/**
 * 3.4: the next unit that must leave a returned country: with one closest area it goes there at once
 * (none: it stays), with several its owner is asked (`liberation-move`); null once the queue is empty.
 */
export function askStandMove(p: PackIndex, s: BlitzState, ev: Events): Ask | null {
  while (s.standMoves?.length) {
    const id = s.standMoves[0]!;
    const u = s.units[id]!;
    // Gone meanwhile, or no longer where it may not stay: nothing to move.
    if (u.at === 'pool' || u.at === 'gone' || !allyAreaBarred(p, s, u.power, u.at)) {
      shiftStandMove(s);
      continue;
    }
    const dests = closestStands(p, s, id);
    if (dests.length > 1) return { kind: 'decision', power: s.units[id]!.power, prompt: 'liberation-move', options: dests.map((l) => `to ${l}`) };
    if (dests.length === 1 && holdForLeave(p, s, id, dests[0]!, `to ${dests[0]!}`)) return askLeave(s); // 1.3: an ally's area only with its leave
    if (dests.length === 1) standMove(p, s, id, dests[0]!, ev);
    else shiftStandMove(s);
  }
  return null;
}

/** The owner's pick for the unit at the head of `standMoves`. */
export function applyStandMove(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const id = s.standMoves![0]!;
  const to = choice.slice('to '.length);
  if (!choice.startsWith('to ') || !closestStands(p, s, id).includes(to)) throw new IllegalChoiceError(`'${choice}' is not a closest area ${id} may move to`);
  if (holdForLeave(p, s, id, to, choice)) return; // 1.3: asked next; given, this choice is applied again
  standMove(p, s, id, to, ev);
}

function standMove(p: PackIndex, s: BlitzState, id: string, dest: string, ev: Events): void {
  const u = s.units[id]!;
  emit(ev, 'liberation-move', `${unitName(p, id)} leaves ${landName(p, u.at)}, returned to ${s.control[u.at]}, for ${landName(p, dest)}`, u.power, { unit: id, from: u.at, to: dest });
  putUnit(s, id, { ...u, at: dest });
  shiftStandMove(s);
  enterArea(p, s, id, dest); // 1.3: the holder's air and naval units there rebase out
}

function shiftStandMove(s: BlitzState): void {
  const [, ...rest] = s.standMoves!; // replaced, not changed in place: the draft of a new state shares it (game.ts)
  if (rest.length) s.standMoves = rest;
  else delete s.standMoves;
}

/**
 * The closest land areas where unit `id` may stand: friendly to its side, not barred to its power nor
 * refused it by the ally holding it this impulse (1.3: every way into an ally's area asks the holder's
 * leave, this one too), room for it (a Port for a naval unit). Distance counts a land area entered as 1
 * and a sea crossed as 2 (5.1's rebase costs), over areas in play. Several: the owner picks (3.4). None:
 * it stays where it is.
 */
function closestStands(p: PackIndex, s: BlitzState, id: string): string[] {
  const u = s.units[id]!;
  const side = sideOf(p, s, u.power);
  const sc = scenarioDef(p, s.scenario);
  const inPlay = new Set(sc.lands);
  const seas = new Set(sc.seas);
  const ok = (l: string) =>
    s.control[l] !== undefined &&
    s.control[l] !== 'neutral' &&
    sideOf(p, s, s.control[l]!) === side &&
    !allyAreaBarred(p, s, u.power, l) &&
    leaveAnswer(s, u.power, l) !== false &&
    (isLand(p, u) ? canStackLand(p, s, l, side, u.size) : isNaval(p, u) ? landDef(p, l).ports.length > 0 && canStackPort(p, s, l, u.size) : isAir(p, u));
  const dist = new Map<string, number>([[u.at, 0]]);
  for (let d = 0; d <= 2 * inPlay.size; d++) {
    const here = [...dist].filter(([, x]) => x === d).map(([l]) => l).sort();
    const hits = d > 0 ? here.filter(ok) : [];
    if (hits.length) return hits;
    for (const l of here) {
      const step = (to: string, cost: number) => {
        if (inPlay.has(to) && !dist.has(to)) dist.set(to, d + cost);
      };
      for (const n of landNeighbours(p, s, l)) step(n.to, 1);
      for (const sea of landDef(p, l).coast) if (seas.has(sea)) for (const c of p.coastOf.get(sea) ?? []) step(c, 3);
    }
  }
  return [];
}

// ---------------------------------------------------------------- the new home country (3.4, 7.6)

/** The remote home countries of `power` (7.6: the AFA's dominions). */
function remoteHomes(p: PackIndex, s: BlitzState, power: string): string[] {
  const nations: readonly string[] = scenarioDef(p, s.scenario).powers.find((x) => x.id === power)?.nations ?? [];
  return p.files.map.countries.filter((c) => c.remoteHome && c.homeOf !== undefined && nations.includes(c.homeOf)).map((c) => c.id);
}

/** Countries some unit of the pack calls home: a minor country can be a new home only if it is one (3.4's "allied home countries"). */
const unitHomes = (p: PackIndex): Set<string> => new Set([...p.unit.values()].map((u) => u.home));

/**
 * 3.4: the countries `power` could make the new home of a conquered country's units: another of its
 * allied home countries, not conquered, with an area in play it holds: one of its own home countries,
 * or a minor ally's (3.4: "including minor allies"): a country of no major power with units of its
 * own, every area of which in play its side holds. The text does not say more; a minor partly overrun
 * by the enemy, or partly neutral still (the Near East with the AFA in the Levant at the start), is not
 * offered: its allegiance is then in dispute or not yet given.
 */
function homeChoices(p: PackIndex, s: BlitzState, power: string, conquered: string): string[] {
  const nations: readonly string[] = scenarioDef(p, s.scenario).powers.find((x) => x.id === power)?.nations ?? [];
  const inPlay = new Set(scenarioDef(p, s.scenario).lands);
  const side = sideOf(p, s, power);
  const homesOfUnits = unitHomes(p);
  const ours = (l: string) => {
    const h = s.control[l];
    return h !== undefined && h !== 'neutral' && sideOf(p, s, h) === side;
  };
  return p.files.map.countries
    .filter((c) => c.id !== conquered && !s.conquered.includes(c.id))
    .filter((c) => {
      const lands = countryLands(p, s, c.id).filter((l) => inPlay.has(l));
      if (!lands.some((l) => s.control[l] === power)) return false;
      if (c.homeOf !== undefined) return nations.includes(c.homeOf);
      return homesOfUnits.has(c.id) && lands.every(ours); // a minor ally
    })
    .map((c) => c.id)
    .sort();
}

/** 3.4: the power that chooses the new home of `country`'s units: of the powers of `side` running some on the map, its original power, else the first by id. */
function homeChooser(p: PackIndex, s: BlitzState, country: string, side: SideId): string | undefined {
  const runs = [...new Set(onMap(s).filter(([, u]) => unitDef(p, u.def).home === country && sideOf(p, s, u.power) === side).map(([, u]) => u.power))].sort();
  const orig = originalPower(p, s, country);
  return orig !== undefined && runs.includes(orig) ? orig : runs[0];
}

/**
 * 3.4: `country` has just been conquered by the other side of `loser`. The power of `loser` running
 * units of it still on the map (3.4: "(if any)"), and of any country whose units had it as their new
 * home, is asked for a (new) home for them; with one possibility it is taken at once.
 */
export function afterConquest(p: PackIndex, s: BlitzState, country: string, loser: SideId, ev: Events): void {
  if (scenarioDef(p, s.scenario).areaIncome !== true && !usesSupply(p, s)) return; // a home matters only to supply (1.7) and income (7.6)
  const owners = [...new Set([country, ...Object.entries(s.homeFor ?? {}).filter(([, h]) => h === country).map(([c]) => c)])];
  for (const c of owners.sort()) {
    const power = homeChooser(p, s, c, loser);
    if (!power) continue; // 3.4: "(if any)"
    const choices = homeChoices(p, s, power, c);
    if (!choices.length) continue;
    fired('3.4', s.scenario);
    if (choices.length === 1) setHome(p, s, c, choices[0]!, power, ev);
    else s.homeAsk = [...(s.homeAsk ?? []), { country: c, power }];
  }
}

function setHome(p: PackIndex, s: BlitzState, country: string, home: string, power: string, ev: Events): void {
  s.homeFor = { ...s.homeFor, [country]: home };
  emit(ev, 'new-home', `${countryName(p, home)} is the new home country of ${countryName(p, country)}'s units`, power, { country, home });
}

/** 3.4: the next new-home choice (`home COUNTRY NEWHOME`), asked of the conquered country's power at once. */
export function askNewHome(p: PackIndex, s: BlitzState): Ask {
  const x = s.homeAsk![0]!;
  return { kind: 'decision', power: x.power, prompt: 'new-home-country', options: homeChoices(p, s, x.power, x.country).map((h) => `home ${x.country} ${h}`) };
}

export function applyNewHome(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const x = s.homeAsk![0]!;
  const rest = s.homeAsk!.slice(1);
  if (rest.length) s.homeAsk = rest;
  else delete s.homeAsk;
  setHome(p, s, x.country, choice.split(' ')[2]!, x.power, ev);
}

/**
 * 7.6: the main home countries of `power` for its income: its home countries that are not remote, a
 * conquered one's place taken by the new home chosen for its units (3.4), for a power with remote
 * homes only (7.6 speaks of the AFA's British units; for any other power the new home changes supply
 * lines, not the income steps).
 */
export function mainHomes(p: PackIndex, s: BlitzState, power: string, homes: ReadonlySet<string>): Set<string> {
  const remote = new Set(remoteHomes(p, s, power));
  const out = new Set<string>();
  for (const c of homes) {
    if (remote.has(c)) continue;
    const moved = remote.size ? s.homeFor?.[c] : undefined;
    out.add(moved && !s.conquered.includes(moved) ? moved : c);
  }
  return out;
}

/**
 * 3.4: whether `power` still controls an unconquered country: one of its own home countries not
 * conquered, or a minor ally of it: a country of no major power, not conquered, where it holds an area
 * in play and where every other area in play is its side's or was taken from its side (`lostBy`: an
 * ally overrun in part is still an ally; an enemy country it has a foothold in is not its own).
 */
export function controlsACountry(p: PackIndex, s: BlitzState, power: string): boolean {
  const nations: readonly string[] = scenarioDef(p, s.scenario).powers.find((x) => x.id === power)?.nations ?? [];
  const side = sideOf(p, s, power);
  const inPlay = new Set(scenarioDef(p, s.scenario).lands);
  const ours = (l: string) => {
    const h = s.control[l];
    if (h !== undefined && h !== 'neutral' && sideOf(p, s, h) === side) return true;
    const lost = s.lostBy?.[l];
    return lost !== undefined && sideOf(p, s, lost) === side;
  };
  for (const c of p.files.map.countries) {
    if (s.conquered.includes(c.id)) continue;
    if (c.homeOf !== undefined) {
      if (nations.includes(c.homeOf)) return true;
      continue;
    }
    const lands = countryLands(p, s, c.id).filter((l) => inPlay.has(l));
    if (lands.some((l) => s.control[l] === power) && lands.every(ours)) return true;
  }
  return false;
}

/**
 * 3.4: a major power that controls no unconquered country is out of the game until it controls one
 * again (the text names an ally's liberation of one of its countries, returned to it). Worked out
 * after every change of control (`s.out`); each change is announced. While out, a power takes no
 * impulses (sidePowers), builds nothing and gets no income (7.6, 7.8), and gains no VP (8); its
 * saved Oil and Resources wait for its return. The text says no more, so its units left on the map
 * stay where they are, doing nothing of their own, and still defend where they stand (our reading).
 */
export function updateOut(p: PackIndex, s: BlitzState, ev: Events): void {
  const was = s.out ?? [];
  const now = scenarioDef(p, s.scenario).powers.map((x) => x.id).filter((pw) => !controlsACountry(p, s, pw));
  if (now.length === was.length && now.every((x) => was.includes(x))) return;
  fired('3.4', s.scenario);
  for (const pw of now.filter((x) => !was.includes(x))) emit(ev, 'out-of-game', `${pw} controls no unconquered country and is out of the game until one of its countries is liberated back to it`, pw, { power: pw });
  for (const pw of was.filter((x) => !now.includes(x))) emit(ev, 'back-in-game', `${pw} controls a country again and is back in the game`, pw, { power: pw });
  if (now.length) s.out = now;
  else delete s.out;
}
