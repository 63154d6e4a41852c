/**
 * Neutral minor countries beyond declarations of war: automatic alignment (3.3) when a scenario's
 * condition holds, and Partisans (7.1, F.4): each turn end the roller throws a die on the Partisan
 * Table; if a country it names has a land area with Oil or Resources held by the side that did not
 * first control it, that first side may place a Partisan in one such area (or none), choosing among
 * every such country of the face it places for, and its holder loses one Oil or Resource of this
 * turn's income (7.6 step 2).
 */
import { IllegalChoiceError } from '@salient/engine';
import { emit, landName, unitName, type Events } from './events.ts';
import { landDef, scenarioDef, unitDef, type PackIndex } from './pack-index.ts';
import { enemy, heldBySide, isLand, powerOfSide, setControl, sideOf, sidePowers, unitsAt } from './query.ts';
import { airMoves } from './geometry.ts';
import { areaInSupply, homeCountries } from './supply.ts';
import type { Ask, BlitzState, SideId } from './state.ts';
import { fired } from './sections.ts';
import { isNeutral } from './neutrality.ts';
import { atWar, atWarWithAnyone } from './wars.ts';
import { countryLands } from './france.ts';
import { alignmentRuleApplies, minorDef, rtwKeeps } from './road-to-war.ts';
import { alignedPicks } from './economy.ts';
import { putUnit } from './unit-writes.ts';

const neutralCountry = (p: PackIndex, s: BlitzState, country: string): boolean => {
  const lands = countryLands(p, s, country).filter((l) => l in s.control);
  return lands.length > 0 && lands.every((l) => s.control[l] === 'neutral');
};

/** 3.3: align every neutral minor whose condition now holds (once each). */
export function checkAlignments(p: PackIndex, s: BlitzState, ev: Events): void {
  const sc = scenarioDef(p, s.scenario);
  for (const a of sc.alignments ?? []) {
    if (!alignmentRuleApplies(s, a.country)) continue; // 9.2: some of 3.3's rules only after a named option
    if (!neutralCountry(p, s, a.country) || s.atWar.includes(a.country) || (s.wars ? !atWarWithAnyone(p, s, a.power) : isNeutral(s, a.power))) continue;
    const side = sideOf(p, s, a.power);
    const held = (l: string) => heldBySide(p, s, l, side);
    let ok = false;
    // at war (with `with`, once the two are at war with each other)
    if (a.when === 'at-war') ok = a.with === undefined || (s.wars ? atWar(p, s, a.power, a.with) : !isNeutral(s, a.with));
    // 3.3: "Germany controls" (the Near East, Turkey, Iberia: `own`) counts Germany's areas only, not its allies'.
    else if (a.when === 'holds') ok = (a.lands ?? []).filter((l) => (a.own ? s.control[l] === a.power : held(l)) && (!a.supplied || suppliedTo(p, s, a.power, l))).length >= (a.count ?? 1);
    else if (a.when === 'near') ok = nearWith(p, s, a.country, a.range ?? 0, (l) => s.control[l] === a.power && majorLandUnitIn(p, s, l, a.power));
    else if (a.when === 'none-touching') {
      const foe = enemy(side);
      ok = ![...(p.coastOf.get(a.sea ?? '') ?? [])].some((l) => heldBySide(p, s, l, foe));
    }
    if (!ok) continue;
    // 3.3 (Brazil, Mexico): the army takes the field only with an enemy land unit nearby; else it joins the Force Pool.
    const threat = a.poolUnlessNear === undefined || nearWith(p, s, a.country, a.poolUnlessNear, (l) => unitsAt(s, l).some(([, u]) => isLand(p, u) && sideOf(p, s, u.power) !== side));
    align(p, s, a.country, a.power, ev, threat ? 'map' : 'pool');
  }
}

/** 3.3: whether some land area within `range` air moves of `country` passes `test`. */
function nearWith(p: PackIndex, s: BlitzState, country: string, range: number, test: (land: string) => boolean): boolean {
  for (const from of countryLands(p, s, country)) {
    if (!(from in s.control)) continue;
    for (const [n] of airMoves(p, s, from, range)) if (!n.startsWith('sea:') && n in s.control && test(n)) return true;
  }
  return false;
}

/** 3.3: a land unit of `power` from one of its major power home countries (not an aligned minor's) in `land`. */
const majorLandUnitIn = (p: PackIndex, s: BlitzState, land: string, power: string): boolean =>
  unitsAt(s, land).some(([, u]) => u.power === power && isLand(p, u) && homeCountries(p, s, power).has(unitDef(p, u.def).home));

/** 1.7: whether `power` can trace supply to `land` from any of its home countries. */
const suppliedTo = (p: PackIndex, s: BlitzState, power: string, land: string): boolean => [...homeCountries(p, s, power)].some((h) => areaInSupply(p, s, power, h, land, 'power'));

/** The minor joins `power`: its land areas and its army (from the scenario's minors list), on the map or (3.3: Brazil, Mexico) into the Force Pool. */
export function align(p: PackIndex, s: BlitzState, country: string, power: string, ev: Events, army: 'map' | 'pool' = 'map'): void {
  for (const l of p.countryLands.get(country) ?? []) if (s.control[l] === 'neutral') setControl(s, l, power);
  const placed: string[] = [];
  const pooled: string[] = [];
  for (const pl of minorDef(p, s, country)?.army ?? []) {
    if (s.units[pl.unit] && s.units[pl.unit]!.at !== 'pool') continue;
    if (army === 'pool') {
      s.pool[pl.unit] = { size: pl.size, from: s.turn };
      pooled.push(pl.unit);
      continue;
    }
    putUnit(s, pl.unit, { def: pl.unit, power, size: pl.size, at: pl.at });
    placed.push(pl.unit);
  }
  fired('3.3', s.scenario);
  const name = p.files.map.countries.find((c) => c.id === country)?.name ?? country;
  alignedPicks(p, s, country, power, ev); // 7.3: units set aside for it come back
  const what = placed.length ? `: ${placed.map((x) => unitName(p, x)).join(', ')} take the field` : pooled.length ? `: ${pooled.map((x) => unitName(p, x)).join(', ')} join${pooled.length > 1 ? '' : 's'} ${power}'s Force Pool` : '';
  emit(ev, 'alignment', `${name} allies with ${power}${what}`, power, { country, power, units: placed, ...(pooled.length ? { pooled } : {}) });
}

/** 3.2: who takes a minor that `aggressor`'s side declared war on: the other side's power running its army, else its first power. */
export function alignerFor(p: PackIndex, s: BlitzState, country: string, aggressorSide: SideId): string {
  const sc = scenarioDef(p, s.scenario);
  const other = enemy(aggressorSide);
  const nation = minorDef(p, s, country)?.army[0];
  const byNation = nation && sc.powers.find((x) => x.side === other && x.nations.includes(unitDef(p, nation.unit).nation))?.id;
  return byNation ?? powerOfSide(p, s, other);
}

/** 3.2: minors the phasing side may never declare war on (F.1: Brazil, Chile, Mexico, Venezuela for the Allies). */
export function protectedFrom(p: PackIndex, s: BlitzState, country: string, side: SideId): boolean {
  // 9.2: with the Road to War, only if the USA played the Monroe Doctrine.
  return rtwKeeps(s, 'monroe-doctrine') && (scenarioDef(p, s.scenario).protectedMinors ?? []).some((m) => m.country === country && m.from === side);
}

// ---------------------------------------------------------------- 7.1 Partisans

/** Start of the turn end: the Partisan roll, where the scenario has Partisans. */
export function startPartisans(p: PackIndex, s: BlitzState): boolean {
  if (!scenarioDef(p, s.scenario).partisans) return false;
  s.partisanStep = { stage: 'die' };
  return true;
}

/**
 * Areas of `country` with Oil or Resources held against the side that first controlled them, and that
 * side. 7.1's China: either side may place one in any area the other side holds there (the Axis first).
 */
function partisanAreas(p: PackIndex, s: BlitzState, country: string): { side: SideId; lands: string[] } | null {
  const sc = scenarioDef(p, s.scenario);
  const lands = (p.countryLands.get(country) ?? []).filter((l) => l in s.control && landDef(p, l).oil + landDef(p, l).resources > 0);
  if (sc.partisans?.bothSides?.includes(country)) {
    for (const side of ['Axis', 'Allies'] as const) {
      const held = lands.filter((l) => heldBySide(p, s, l, enemy(side)));
      if (held.length) return { side, lands: held.sort() };
    }
    return null;
  }
  const first = lands.map((l) => sc.control[l]).find((c) => c !== undefined && c !== 'neutral');
  if (!first) return null;
  const side = sideOf(p, s, first);
  const held = lands.filter((l) => {
    const c = s.control[l]!;
    return c !== 'neutral' && sideOf(p, s, c) === enemy(side) && sideOf(p, s, sc.control[l] ?? c) === side;
  });
  return held.length ? { side, lands: held.sort() } : null;
}

/**
 * 7.1: where the Partisan of a roll may go. The first country of the face (table order) with an area
 * open to a Partisan fixes the placing side; that side may then place it in any open area of every
 * country of the face it places for (its pick of the country), or nowhere.
 */
function partisanChoice(p: PackIndex, s: BlitzState, countries: readonly string[]): { side: SideId; countries: string[]; lands: string[] } | null {
  const found = countries.map((c) => ({ c, a: partisanAreas(p, s, c) })).filter((x) => x.a !== null);
  if (!found.length) return null;
  const side = found[0]!.a!.side;
  const mine = found.filter((x) => x.a!.side === side);
  return { side, countries: mine.map((x) => x.c), lands: [...new Set(mine.flatMap((x) => x.a!.lands))].sort() };
}

export function askPartisans(p: PackIndex, s: BlitzState): Ask | null {
  const st = s.partisanStep!;
  if (st.stage === 'die') return { kind: 'chance', prompt: 'partisan-die', stream: 'combat', faces: 6 };
  const found = partisanChoice(p, s, st.countries!)!;
  const power = sidePowers(p, s, found.side)[0] ?? powerOfSide(p, s, found.side);
  return { kind: 'decision', power, prompt: 'place-partisan', options: [...found.lands.map((l) => `partisan ${l}`), 'partisan none'] };
}

export function applyPartisans(p: PackIndex, s: BlitzState, choice: string, ev: Events): boolean {
  const st = s.partisanStep!;
  const [verb, arg] = choice.split(' ') as [string, string];
  fired('7.1', s.scenario);
  if (st.stage === 'die' && verb === 'die') {
    const found = partisanChoice(p, s, scenarioDef(p, s.scenario).partisans!.table[arg] ?? []);
    if (!found) {
      emit(ev, 'partisans', `Partisan roll ${arg}: no Partisans this turn`, undefined, { die: Number(arg) });
      delete s.partisanStep;
      return true;
    }
    st.stage = 'place';
    st.countries = found.countries;
    return false;
  }
  if (st.stage === 'place' && verb === 'partisan') {
    if (arg !== 'none') {
      if (!partisanChoice(p, s, st.countries!)?.lands.includes(arg)) throw new IllegalChoiceError(`no Partisan can be placed in ${arg}`);
      (s.partisans ??= []).push(arg);
      emit(ev, 'partisans', `Partisans rise in ${landName(p, arg)}`, undefined, { land: arg });
    } else emit(ev, 'partisans', 'No Partisans placed this turn', undefined, { land: null });
    delete s.partisanStep;
    return true;
  }
  throw new IllegalChoiceError(`'${choice}' does not answer the Partisan step`);
}
