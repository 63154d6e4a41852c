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
 * country that was its original power's only home country at the start, or is Great Britain (the
 * AFA) or Germany, always goes back. Either way the set-aside units that come back with the
 * liberation (france.ts) are the liberator's, and No Casualties stays with the power that took the
 * area (8: `cleanTakes` keeps the taker).
 *
 * The original power is the power whose home country it is; for any other country, the one power
 * that held all its areas in play at the start of the scenario (the AFA for the French colonies that
 * France's fall made neutral).
 *
 * The new home country (3.4, 7.6). When a main home country of a power that also has remote home
 * countries (the AFA's France and Great Britain, the dominions being remote) is conquered while some
 * of its units are still on the map, its power chooses another of its home countries it still holds
 * as their new home (`home great-britain canada`, asked at once). While the choice stands, 7.6 counts
 * the new home with the power's main home countries (step 4, no supply or Convoy needed) instead of
 * with the areas outside them (step 1); a liberation of the conquered country ends it, and a
 * conquest of the new home asks again.
 *
 * Not modelled: 3.4's single land areas treated as conquered countries (only whole countries are
 * liberated here); the new home may not be a minor ally's country.
 */
import { emit, landName, unitName, type Events } from './events.ts';
import { landDef, scenarioDef, unitDef, type PackIndex } from './pack-index.ts';
import { canStackLand, canStackPort, isAir, isLand, isNaval, landNeighbours, onMap, sideOf } from './query.ts';
import { allyAreaBarred } from './wars.ts';
import { countryLands } from './france.ts';
import { fired } from './sections.ts';
import type { Ask, BlitzState } from './state.ts';

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

/** 3.4: whether a liberated `country` must go back to `orig`: its only home country at the start, or Great Britain or Germany. */
function mustReturn(p: PackIndex, s: BlitzState, country: string, orig: string): boolean {
  if (country === 'great-britain' || country === 'germany') return true;
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
  else s.liberation = { country, power: liberator, to: orig };
}

/** 3.4: the liberator's choice, asked at once: keep the country or return it to its original power. */
export function askLiberation(s: BlitzState): Ask {
  const x = s.liberation!;
  return { kind: 'decision', power: x.power, prompt: 'liberation-return', options: [`keep ${x.country}`, `return ${x.country}`] };
}

export function applyLiberation(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const x = s.liberation!;
  delete s.liberation;
  fired('3.4', s.scenario);
  if (choice === `return ${x.country}`) {
    returnCountry(p, s, x.country, x.power, x.to, ev);
    return;
  }
  // Kept: the country's units that were the original power's, on the map or in the Force Pool, are the liberator's now.
  const taken: string[] = [];
  for (const id of Object.keys(s.units).sort()) {
    const u = s.units[id]!;
    if (u.at === 'gone' || u.power !== x.to || unitDef(p, u.def).home !== x.country) continue;
    s.units[id] = { ...u, power: x.power };
    taken.push(id);
  }
  const nations: readonly string[] = scenarioDef(p, s.scenario).powers.find((w) => w.id === x.to)?.nations ?? [];
  for (const id of Object.keys(s.pool).sort()) {
    const d = unitDef(p, id);
    if (s.units[id] || d.home !== x.country || !nations.includes(d.nation)) continue;
    s.units[id] = { def: id, power: x.power, size: 0, at: 'pool' };
    taken.push(id);
  }
  emit(ev, 'liberation-keep', `${x.power} keeps ${countryName(p, x.country)} rather than returning it to ${x.to}${taken.length ? `; ${taken.map((id) => unitName(p, id)).join(', ')} ${taken.length > 1 ? 'are' : 'is'} ${x.power}'s now` : ''}`, x.power, { country: x.country, from: x.to, units: taken });
}

/** 3.4: `from` hands `country` back to `to`: its areas, and its own units out of areas barred to them. */
function returnCountry(p: PackIndex, s: BlitzState, country: string, from: string, to: string, ev: Events): void {
  const lands = countryLands(p, s, country).filter((l) => s.control[l] === from);
  // Control passes directly: this is not a take (no capture events, No Casualties stays with the taker).
  for (const l of lands) s.control[l] = to;
  emit(ev, 'liberation-return', `${from} returns ${countryName(p, country)} to ${to}${lands.length ? ` (${lands.map((l) => landName(p, l)).join(', ')})` : ''}`, from, { country, from, to, lands });
  for (const [id, u] of onMap(s)) {
    if (u.power !== from || !lands.includes(u.at) || !allyAreaBarred(p, s, from, u.at)) continue;
    const dest = closestStand(p, s, id);
    if (dest) {
      emit(ev, 'liberation-move', `${unitName(p, id)} leaves ${landName(p, u.at)}, returned to ${to}, for ${landName(p, dest)}`, from, { unit: id, from: u.at, to: dest });
      s.units[id] = { ...u, at: dest };
    }
  }
}

/**
 * The closest land area where unit `id` may stand: friendly to its side, not barred to its power, room
 * for it (a Port for a naval unit). Distance counts a land area entered as 1 and a sea crossed as 2
 * (5.1's rebase costs), over areas in play. Among equals the first by id (the rule leaves it to the
 * owner). None: it stays where it is.
 */
function closestStand(p: PackIndex, s: BlitzState, id: string): string | undefined {
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
    (isLand(p, u) ? canStackLand(p, s, l, side, u.size) : isNaval(p, u) ? landDef(p, l).ports.length > 0 && canStackPort(p, s, l, u.size) : isAir(p, u));
  const dist = new Map<string, number>([[u.at, 0]]);
  for (let d = 0; d <= 2 * inPlay.size; d++) {
    const here = [...dist].filter(([, x]) => x === d).map(([l]) => l).sort();
    const hit = d > 0 ? here.find(ok) : undefined;
    if (hit) return hit;
    for (const l of here) {
      const step = (to: string, cost: number) => {
        if (inPlay.has(to) && !dist.has(to)) dist.set(to, d + cost);
      };
      for (const n of landNeighbours(p, s, l)) step(n.to, 1);
      for (const sea of landDef(p, l).coast) if (seas.has(sea)) for (const c of p.coastOf.get(sea) ?? []) step(c, 3);
    }
  }
  return undefined;
}

// ---------------------------------------------------------------- the new home country (3.4, 7.6)

/** The remote home countries of `power` (7.6: the AFA's dominions). */
function remoteHomes(p: PackIndex, s: BlitzState, power: string): string[] {
  const nations: readonly string[] = scenarioDef(p, s.scenario).powers.find((x) => x.id === power)?.nations ?? [];
  return p.files.map.countries.filter((c) => c.remoteHome && c.homeOf !== undefined && nations.includes(c.homeOf)).map((c) => c.id);
}

/** Home countries `power` could make the new home of a conquered one's units: not conquered, an area in play held. */
function homeChoices(p: PackIndex, s: BlitzState, power: string, conquered: string): string[] {
  const nations: readonly string[] = scenarioDef(p, s.scenario).powers.find((x) => x.id === power)?.nations ?? [];
  const inPlay = new Set(scenarioDef(p, s.scenario).lands);
  return p.files.map.countries
    .filter((c) => c.id !== conquered && c.homeOf !== undefined && nations.includes(c.homeOf) && !s.conquered.includes(c.id))
    .filter((c) => (p.countryLands.get(c.id) ?? []).some((l) => inPlay.has(l) && s.control[l] === power))
    .map((c) => c.id)
    .sort();
}

/**
 * 3.4: `country` has just been conquered. If it is a main home country of a power with remote homes
 * and units of it remain on the map, or the new home of such a country's units, its power is asked
 * for a (new) home for them; with one possibility it is taken at once.
 */
export function afterConquest(p: PackIndex, s: BlitzState, country: string, ev: Events): void {
  if (scenarioDef(p, s.scenario).areaIncome !== true) return; // only 7.6's income reads it
  const owners = [country, ...Object.entries(s.homeFor ?? {}).filter(([, h]) => h === country).map(([c]) => c)];
  for (const c of owners.sort()) {
    const power = homePower(p, s, c);
    if (!power || !remoteHomes(p, s, power).length || remoteHomes(p, s, power).includes(c)) continue;
    if (!onMap(s).some(([, u]) => u.power === power && unitDef(p, u.def).home === c)) continue; // 3.4: "(if any)"
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
 * 7.6: the main home countries of `power` for its income: its home countries that are not remote and
 * not conquered, and the new homes chosen for the units of conquered ones (3.4).
 */
export function mainHomes(p: PackIndex, s: BlitzState, power: string, homes: ReadonlySet<string>): Set<string> {
  const remote = new Set(remoteHomes(p, s, power));
  const out = new Set<string>();
  for (const c of homes) {
    if (remote.has(c)) continue;
    const moved = s.homeFor?.[c];
    out.add(moved && !s.conquered.includes(moved) ? moved : c);
  }
  return out;
}
