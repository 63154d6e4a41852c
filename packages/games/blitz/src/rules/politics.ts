/**
 * Control, conquest and declarations of war: 1.5, 3.2 (A.1), 3.4 (A.2), 6.6 overrun, and the
 * scenario victory checks that fire on a change of control (A, B).
 */
import { emit, landName, unitName, type Events } from './events.ts';
import { landDef, scenarioDef, type PackIndex } from './pack-index.ts';
import { enemy, heldBySide, sideOf } from './query.ts';
import type { BlitzState, SideId } from './state.ts';
import { checkImmediateVictory } from './victory.ts';
import { onCapture, onTaken } from './victory-points.ts';
import { declarableMajors, declareOnMajor, neutralEvent, neutralMayDeclare } from './neutrality.ts';
import { makeWar } from './wars.ts';
import { VICHY, countryLands, countryOfLand, franceFalls, frenchNeutrals, liberate, liberatedByTaking, startFrenchFleetRoll, vichyJoins } from './france.ts';
import { setAsideConquered } from './specials.ts';
import { alignedPicks } from './economy.ts';
import { afterConquest, afterLiberation, liberatorsOf } from './liberation.ts';
import { fired } from './sections.ts';
import { align, alignerFor, checkAlignments, protectedFrom } from './minors.ts';
import { alignmentRuleApplies, endSovietLimit, liberatesFoe, minorCountries, minorDef } from './road-to-war.ts';

/** Change control of a land area to `power`, then check conquest (3.4) and immediate victory. */
export function takeControl(p: PackIndex, s: BlitzState, land: string, power: string, ev: Events, how: string): void {
  const before = s.control[land] ?? 'neutral';
  if (before === power || scenarioDef(p, s.scenario).frozenControl) return; // C: control never changes
  s.control[land] = power;
  if (land === VICHY && before !== 'neutral' && sideOf(p, s, before) === 'Allies') startFrenchFleetRoll(p, s, power); // 3.4: the French fleet roll
  emit(ev, 'capture', `${power} takes control of ${landName(p, land)} (${how})`, power, { land, from: before, to: power });
  const country = countryOfLand(p, s, land);
  const side = sideOf(p, s, power);
  // 7.2: taking an area from the other side moves the neutral powers' markers.
  if (before !== 'neutral' && sideOf(p, s, before) !== side) neutralEvent(p, s, 'capture', side, ev, land);
  if (isConquered(p, s, country, side)) {
    const name = p.files.map.countries.find((c) => c.id === country)?.name ?? country;
    if (ownerSide(p, s, country) === side) {
      // 3.4: retaking your own side's conquered country liberates it; retaking one area of a
      // country that never fell is nothing more than a change of control.
      if (s.conquered.includes(country)) {
        s.conquered = s.conquered.filter((c) => c !== country);
        startLiberation(p, s, country, power, ev);
      }
    } else if (liberatedByTaking(s, country, side)) {
      // 3.4: a French country made neutral by France's fall is liberated by the Allies, not conquered.
      s.vichy = { ...s.vichy!, countries: s.vichy!.countries.filter((c) => c !== country) };
      startLiberation(p, s, country, power, ev); // 3.4: then the liberator keeps it or returns it to the AFA
    } else if (liberatedByConquest(p, s, country, side)) {
      // 3.3: taken whole from the other side, Austria-Czechoslovakia or Iberia is liberated by the
      // Allied major that took it and aligned with it; it is not conquered.
      s.conquered = s.conquered.filter((c) => c !== country);
      emit(ev, 'liberation', `${name} is liberated by the ${side}`, power, { country });
      alignedPicks(p, s, country, power, ev); // 7.3: it was enemy-allied, not conquered: what was set aside for it comes back at once
      liberate(p, s, country, power, ev);
      fired('3.3', s.scenario);
      emit(ev, 'alignment', `${name} allies with ${power}`, power, { country, power, units: [] });
    } else if (liberatesFoe(p, s, country, power) && !s.conquered.includes(country)) {
      // 9.2 Liberate Foes: Germany frees the minor it took as its own ally; it is not conquered.
      fired('9.2', s.scenario);
      emit(ev, 'liberation', `${name} is liberated by ${power} as its ally`, power, { country });
      emit(ev, 'alignment', `${name} allies with ${power}`, power, { country, power, units: [] });
      alignedPicks(p, s, country, power, ev); // 7.3
    } else if (!s.conquered.includes(country)) {
      s.conquered.push(country);
      emit(ev, 'conquest', `${name} is conquered by the ${side}`, power, { country });
      setAsideConquered(p, s, country, side, ev); // 3.4/D.5
      if (country === 'france' && side === 'Axis') franceFalls(p, s, ev); // 3.4: Vichy France
      afterConquest(p, s, country, ev); // 3.4: a new home country for its units left on the map
      neutralEvent(p, s, 'conquest', side, ev);
    }
  }
  // 9.2: Germany holding an area of the USSR ends the USSR's production limit for good.
  if (s.rtwLimited && power === 'GER' && p.files.map.countries.some((c) => c.id === landDef(p, land).country && c.homeOf === 'USSR')) endSovietLimit(s, `Germany took ${landName(p, land)}`, ev);
  onCapture(p, s, land, power, ev); // 8: Control Industrial Might
  onTaken(p, s, land, before, power); // 8: No Casualties
  checkAlignments(p, s, ev); // 3.3
  checkImmediateVictory(p, s, ev);
}

/** 3.3: whether `side` taking `country` whole liberates and aligns it (see the scenario's `liberatedByConquest`). */
function liberatedByConquest(p: PackIndex, s: BlitzState, country: string, side: SideId): boolean {
  // 9.2: Austria-Czechoslovakia's 3.3 rule holds only if Germany annexed it.
  return alignmentRuleApplies(s, country) && (scenarioDef(p, s.scenario).liberatedByConquest ?? []).some((m) => m.country === country && m.by === side);
}

/** The side a country belongs to: its major power's side (1.1), or none for a minor country. */
function ownerSide(p: PackIndex, s: BlitzState, country: string): SideId | null {
  const home = p.files.map.countries.find((c) => c.id === country)?.homeOf;
  if (!home) return null;
  const pw = scenarioDef(p, s.scenario).powers.find((x) => x.nations.includes(home));
  return pw ? pw.side : null;
}

/** Countries that start a scenario already conquered (Scenario B: France). */
export function initiallyConquered(p: PackIndex, s: BlitzState): string[] {
  const out: string[] = [];
  for (const c of p.files.map.countries) {
    const owner = ownerSide(p, s, c.id);
    if (owner && isConquered(p, s, c.id, owner === 'Axis' ? 'Allies' : 'Axis')) out.push(c.id);
  }
  return out;
}

/**
 * 3.4 / A.2: a country is conquered when the other side controls all its land areas (in play);
 * France falls with Paris alone (A.2). Supply (1.7) is not part of Scenarios A and B.
 */
export function isConquered(p: PackIndex, s: BlitzState, country: string, by: SideId): boolean {
  const lands = countryLands(p, s, country).filter((l) => scenarioDef(p, s.scenario).lands.includes(l));
  if (!lands.length) return false;
  const held = (l: string) => heldBySide(p, s, l, by);
  // 3.4 (A.2, F.3): France falls with Paris, Italy with Rome (the scenario's capitals; France by default).
  const capital = scenarioDef(p, s.scenario).capitals?.[country] ?? (country === 'france' ? 'paris' : undefined);
  if (capital && lands.includes(capital)) return held(capital);
  return lands.every(held);
}

/** Minor countries the phasing side may declare war on now (A.1: only Belgium-Netherlands). */
export function declarable(p: PackIndex, s: BlitzState): string[] {
  return [...new Set([...minorCountries(p, s), ...frenchNeutrals(s)])]
    .sort()
    .filter((c) => !s.atWar.includes(c) && !protectedFrom(p, s, c, s.side) && neutralMayDeclare(p, s, s.power, c) && countryLands(p, s, c).some((l) => s.control[l] === 'neutral'));
}

/** The `declare X` options the phasing power has now: neutral minors (3.2, A.1) and neutral major powers (F.1). */
export function declarations(p: PackIndex, s: BlitzState): string[] {
  return [...declarable(p, s), ...declarableMajors(p, s, s.power)].map((c) => `declare ${c}`);
}

/** Declare war on a minor or on a neutral major power. */
export function declare(p: PackIndex, s: BlitzState, target: string, ev: Events): void {
  if (scenarioDef(p, s.scenario).powers.some((x) => x.id === target)) declareOnMajor(p, s, s.power, target, ev);
  else declareWar(p, s, target, ev);
}

/** A.1: the other side immediately gains control of the minor and places its army there. */
export function declareWar(p: PackIndex, s: BlitzState, country: string, ev: Events): void {
  const minor = minorDef(p, s, country) ?? (frenchNeutrals(s).includes(country) ? { country, army: [] } : undefined);
  if (!minor) throw new Error(`no minor ${country}`);
  s.atWar.push(country);
  makeWar(s, s.power, country); // the full game: the minor is at war with its aggressor, whoever aligns it (3.2)
  const other = alignerFor(p, s, country, s.side);
  const name = p.files.map.countries.find((c) => c.id === country)?.name ?? country;
  emit(ev, 'declaration', `${s.power} declares war on ${name}; it joins the ${enemy(s.side)}`, s.power, { country, aggressor: s.power, joins: other });
  for (const l of countryLands(p, s, country)) if (s.control[l] === 'neutral') s.control[l] = other;
  // 3.4: Vichy's warships join the power it allies with; its land unit too, unless the Axis declared with all of French North Africa Allied.
  const army = country === VICHY && !vichyJoins(p, s, other, s.side, ev) ? [] : minor.army;
  for (const pl of army) {
    s.units[pl.unit] = { def: pl.unit, power: other, size: pl.size, at: pl.at };
    emit(ev, 'placement', `${unitName(p, pl.unit)} deploys in ${landName(p, pl.at)}`, other, { unit: pl.unit, at: pl.at });
  }
  alignedPicks(p, s, country, other, ev); // 7.3: units set aside for it come back
  // 3.2: its colonies go with it, to the same power, or to the Axis aligner's colonial power (Japan).
  const col = minor.colonies;
  if (col) {
    const to = enemy(s.side) === 'Axis' && col.axis ? col.axis : other;
    for (const c of col.countries) {
      if (s.atWar.includes(c) || !countryLands(p, s, c).some((l) => s.control[l] === 'neutral')) continue;
      s.atWar.push(c);
      makeWar(s, s.power, c);
      align(p, s, c, to, ev);
    }
  }
  neutralEvent(p, s, 'declare-minor', s.side, ev); // 7.2
}

/**
 * 3.4: `country` is liberated by `taker`'s side. The power of the side holding most of its areas allies
 * with it; tied, a coin decides (`s.libCoin`, a chance node of one face per tied power, asked before
 * anything else goes on), and the liberation completes with the face that comes up.
 */
function startLiberation(p: PackIndex, s: BlitzState, country: string, taker: string, ev: Events): void {
  const tied = liberatorsOf(p, s, country, taker);
  if (tied.length > 1) {
    s.libCoin = { country, powers: tied };
    return;
  }
  completeLiberation(p, s, country, tied[0]!, ev);
}

/** 3.4: `by` allies with the liberated `country`: its set-aside units come back to it, then its keep-or-return choice. */
export function completeLiberation(p: PackIndex, s: BlitzState, country: string, by: string, ev: Events): void {
  const name = p.files.map.countries.find((c) => c.id === country)?.name ?? country;
  emit(ev, 'liberation', `${name} is liberated by the ${sideOf(p, s, by)}`, by, { country });
  liberate(p, s, country, by, ev);
  afterLiberation(p, s, country, by, ev); // 3.4: returned, or the liberator's choice
}

/** 3.4: the coin for a tied liberation: face `face` (1-based) picks among the tied powers. */
export function applyLiberationCoin(p: PackIndex, s: BlitzState, face: number, ev: Events): void {
  const coin = s.libCoin!;
  delete s.libCoin;
  fired('3.4', s.scenario);
  completeLiberation(p, s, coin.country, coin.powers[face - 1]!, ev);
}
