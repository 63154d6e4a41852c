/**
 * Control, conquest and declarations of war: 1.5, 3.2 (A.1), 3.4 (A.2), 6.6 overrun, and the
 * scenario victory checks that fire on a change of control (A, B).
 */
import { emit, landName, unitName, type Events } from './events.ts';
import { landDef, scenarioDef, type PackIndex } from './pack-index.ts';
import { enemy, heldBySide, setControl, sideOf, sortStrings } from './query.ts';
import { homeCountries, suppliedAreas, usesSupply } from './supply.ts';
import type { BlitzState, SideId } from './state.ts';
import { checkImmediateVictory } from './victory.ts';
import { onCapture, onTaken } from './victory-points.ts';
import { declarableMajors, declareOnMajor, neutralEvent, neutralMayDeclare } from './neutrality.ts';
import { makeWar } from './wars.ts';
import { VICHY, countryLands, countryOfLand, dropClaims, franceFalls, frenchNeutrals, liberate, liberatedByTaking, startFrenchFleetRoll, vichyJoins } from './france.ts';
import { setAsideConquered } from './specials.ts';
import { alignedPicks } from './economy.ts';
import { afterConquest, afterLiberation, liberateArea, liberatorsOf, updateOut } from './liberation.ts';
import { fired } from './sections.ts';
import { align, alignerFor, checkAlignments, protectedFrom } from './minors.ts';
import { alignmentRuleApplies, endSovietLimit, liberatesFoe, minorCountries, minorDef } from './road-to-war.ts';
import { putUnit } from './unit-writes.ts';

/** Change control of a land area to `power`, then check conquest (3.4) and immediate victory. */
export function takeControl(p: PackIndex, s: BlitzState, land: string, power: string, ev: Events, how: string): void {
  const before = s.control[land] ?? 'neutral';
  if (before === power || scenarioDef(p, s.scenario).frozenControl) return; // C: control never changes
  setControl(s, land, power);
  if (land === VICHY && before !== 'neutral' && sideOf(p, s, before) === 'Allies') startFrenchFleetRoll(p, s, power); // 3.4: the French fleet roll
  emit(ev, 'capture', `${power} takes control of ${landName(p, land)} (${how})`, power, { land, from: before, to: power });
  const country = countryOfLand(p, s, land);
  const side = sideOf(p, s, power);
  const fromFoe = before !== 'neutral' && sideOf(p, s, before) !== side;
  // 7.2: taking an area from the other side moves the neutral powers' markers.
  if (fromFoe) neutralEvent(p, s, 'capture', side, ev, land);
  // 3.4: the area's rightful holder while the side that does not hold it is owed it (`lostBy`): the
  // power it was taken from, kept while the two sides trade it, until that holder's side takes it back.
  const lost = s.lostBy?.[land];
  const retake = fromFoe && lost !== undefined && sideOf(p, s, lost) === side;
  const owed = before === 'neutral' || retake ? undefined : fromFoe ? (lost ?? before) : lost;
  if (owed !== lost) {
    const { [land]: _gone, ...rest } = s.lostBy ?? {};
    if (owed !== undefined) s.lostBy = { ...rest, [land]: owed };
    else if (Object.keys(rest).length) s.lostBy = rest;
    else delete s.lostBy;
  }
  // Taking back an area your side lost retakes it: it conquers nothing, even where it makes the whole
  // country your side's again (a minor ally's or a colony's, which no home-country test recognises).
  const whole = settleCountry(p, s, country, power, retake, ev);
  // 3.4: a single area of a country not conquered as a whole, taken back for another power of its side.
  if (!whole && retake && lost !== power && !s.conquered.includes(country) && s.control[land] === power) liberateArea(p, s, land, country, power, lost!, ev);
  if (s.unsupplied) settleUnsupplied(p, s, ev);
  // 9.2: Germany holding an area of the USSR ends the USSR's production limit for good.
  if (s.rtwLimited && power === 'GER' && p.files.map.countries.some((c) => c.id === landDef(p, land).country && c.homeOf === 'USSR')) endSovietLimit(s, `Germany took ${landName(p, land)}`, ev);
  onCapture(p, s, land, power, ev); // 8: Control Industrial Might
  onTaken(p, s, land, before, power); // 8: No Casualties
  checkAlignments(p, s, ev); // 3.3
  updateOut(p, s, ev); // 3.4: a major power left with no unconquered country is out of the game
  checkImmediateVictory(p, s, ev);
}

/**
 * 3.4: `power`'s side holds every area of `country` that counts (or its capital): conquer or liberate
 * it where that is due; returns whether it was. With supply lines in the scenario, a holder unable to
 * trace one to its areas there holds off both (3.4's proviso): the country waits in `unsupplied` until
 * supply reaches it (settleUnsupplied). `retake`: the last area was one the side had lost, which
 * conquers nothing.
 */
function settleCountry(p: PackIndex, s: BlitzState, country: string, power: string, retake: boolean, ev: Events): boolean {
  const side = sideOf(p, s, power);
  if (!heldWhole(p, s, country, side)) return false;
  const act = settlement(p, s, country, power, retake, ev);
  if (!act) return false;
  if (!suppliedWhole(p, s, country, side)) {
    if (!s.unsupplied?.some((x) => x.country === country)) s.unsupplied = [...(s.unsupplied ?? []), retake ? { country, power, retake } : { country, power }];
    return false;
  }
  act();
  return true;
}

/** What holding `country` whole does for `power`'s side: its conquest or liberation, or nothing (null). */
function settlement(p: PackIndex, s: BlitzState, country: string, power: string, retake: boolean, ev: Events): (() => void) | null {
  const side = sideOf(p, s, power);
  const name = p.files.map.countries.find((c) => c.id === country)?.name ?? country;
  const freed = () => {
    s.conquered = s.conquered.filter((c) => c !== country);
    // 3.4: France's and Italy's special cases (the capital alone, France's fall) apply only the first
    // time each is conquered and liberated.
    if (hasCapitalRule(p, s, country) && !s.capitalsSpent?.includes(country)) s.capitalsSpent = [...(s.capitalsSpent ?? []), country].sort();
    startLiberation(p, s, country, power, ev);
  };
  if (ownerSide(p, s, country) === side) {
    // 3.4: retaking your own side's conquered country liberates it; retaking one area of a country
    // that never fell is nothing more than a change of control.
    return s.conquered.includes(country) ? freed : null;
  }
  // 3.4: a French country made neutral by France's fall is liberated by the Allies, not conquered;
  // then the liberator keeps it or returns it to the AFA.
  if (liberatedByTaking(s, country, side))
    return () => {
      s.vichy = { ...s.vichy!, countries: s.vichy!.countries.filter((c) => c !== country) };
      startLiberation(p, s, country, power, ev);
    };
  // 3.4: a minor's or a colony's country the other side conquered, its last area taken back by a side
  // that had held it: liberated, as a home country would be (the text makes no difference).
  if (retake && s.conquered.includes(country)) return freed;
  if (liberatedByConquest(p, s, country, side))
    return () => {
      // 3.3: taken whole from the other side, Austria-Czechoslovakia or Iberia is liberated by the
      // Allied major that took it and aligned with it; it is not conquered.
      s.conquered = s.conquered.filter((c) => c !== country);
      dropClaims(p, s, country); // its allegiance changes: its areas are now rightfully its new side's
      emit(ev, 'liberation', `${name} is liberated by the ${side}`, power, { country });
      alignedPicks(p, s, country, power, ev); // 7.3: it was enemy-allied, not conquered: what was set aside for it comes back at once
      liberate(p, s, country, power, ev);
      fired('3.3', s.scenario);
      emit(ev, 'alignment', `${name} allies with ${power}`, power, { country, power, units: [] });
    };
  if (liberatesFoe(p, s, country, power) && !s.conquered.includes(country))
    return () => {
      // 9.2 Liberate Foes: Germany frees the minor it took as its own ally; it is not conquered.
      fired('9.2', s.scenario);
      dropClaims(p, s, country); // its allegiance changes: its areas are now rightfully Germany's side's
      emit(ev, 'liberation', `${name} is liberated by ${power} as its ally`, power, { country });
      emit(ev, 'alignment', `${name} allies with ${power}`, power, { country, power, units: [] });
      alignedPicks(p, s, country, power, ev); // 7.3
    };
  if (s.conquered.includes(country) || retake) return null;
  return () => {
    s.conquered.push(country);
    emit(ev, 'conquest', `${name} is conquered by the ${side}`, power, { country });
    setAsideConquered(p, s, country, side, ev); // 3.4/D.5
    if (country === 'france' && side === 'Axis' && !s.capitalsSpent?.includes(country)) franceFalls(p, s, ev); // 3.4: Vichy France, the first time only
    afterConquest(p, s, country, enemy(side), ev); // 3.4: a new home country for its units left on the map
    neutralEvent(p, s, 'conquest', side, ev);
  };
}

/**
 * 3.4: the countries held whole without supply: each one that supply now reaches is conquered or
 * liberated (as by the power that took its last area), and each no longer held whole is dropped. Run
 * after every change of control and at every step of play (flow.ts), since moving units at sea change
 * supply lines too.
 */
export function settleUnsupplied(p: PackIndex, s: BlitzState, ev: Events): void {
  const waiting = s.unsupplied ?? [];
  delete s.unsupplied;
  // Each one still held whole and still short of supply is put back by settleCountry.
  let settled = false;
  for (const x of waiting) settled = settleCountry(p, s, x.country, x.power, x.retake === true, ev) || settled;
  if (!settled) return;
  updateOut(p, s, ev); // 3.4
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
 * 3.4 / A.2: a country is conquered when the other side controls all its land areas (in play), each
 * power of it holding some able to trace a supply line to them (1.7, where the scenario has supply:
 * not in Scenarios A and B); France falls with Paris alone (A.2).
 */
export function isConquered(p: PackIndex, s: BlitzState, country: string, by: SideId): boolean {
  return heldWhole(p, s, country, by) && suppliedWhole(p, s, country, by);
}

/** 3.4: whether `country` falls by its capital in this scenario (France, Italy), before any liberation. */
const hasCapitalRule = (p: PackIndex, s: BlitzState, country: string): boolean => country === 'france' || scenarioDef(p, s.scenario).capitals?.[country] !== undefined;

/** The areas of `country` whose control decides its conquest: its capital alone where it has one in play, else all in play. */
function decidingLands(p: PackIndex, s: BlitzState, country: string): string[] {
  const lands = countryLands(p, s, country).filter((l) => scenarioDef(p, s.scenario).lands.includes(l));
  // 3.4 (A.2, F.3): France falls with Paris, Italy with Rome (the scenario's capitals; France by default),
  // until the first time each is liberated: from then on the standard rule (every area) applies.
  const capital = s.capitalsSpent?.includes(country) ? undefined : (scenarioDef(p, s.scenario).capitals?.[country] ?? (country === 'france' ? 'paris' : undefined));
  return capital && lands.includes(capital) ? [capital] : lands;
}

/** 3.4: `by` controls every area of `country` that decides its conquest. */
function heldWhole(p: PackIndex, s: BlitzState, country: string, by: SideId): boolean {
  const lands = decidingLands(p, s, country);
  return lands.length > 0 && lands.every((l) => heldBySide(p, s, l, by));
}

/**
 * 3.4: each holder of those areas can trace a supply line (1.7) to the ones it holds, from its major
 * power's home countries. For a capital alone (Paris, Rome), the text only spares the other areas'
 * control, so the capital's holder still needs supply to it.
 */
function suppliedWhole(p: PackIndex, s: BlitzState, country: string, by: SideId): boolean {
  if (!usesSupply(p, s)) return true;
  return decidingLands(p, s, country).every((l) => {
    const holder = s.control[l]!;
    if (sideOf(p, s, holder) !== by) return false;
    const ok = suppliedAreas(p, s, holder, [...homeCountries(p, s, holder)][0] ?? '', 'power').has(l);
    if (!ok) fired('3.4', s.scenario);
    return ok;
  });
}

/** Minor countries the phasing side may declare war on now (A.1: only Belgium-Netherlands). */
export function declarable(p: PackIndex, s: BlitzState): string[] {
  // Asked at every land-move question: the minors and French neutrals without duplicates, in name order, by loops.
  const all = minorCountries(p, s);
  let k = 0;
  for (let i = 0; i < all.length; i++) if (all.indexOf(all[i]!) === i) all[k++] = all[i]!;
  all.length = k;
  for (const c of frenchNeutrals(s)) if (!all.includes(c)) all.push(c);
  const out: string[] = [];
  for (const c of sortStrings(all)) if (!s.atWar.includes(c) && !protectedFrom(p, s, c, s.side) && neutralMayDeclare(p, s, s.power, c) && hasNeutralLand(p, s, c)) out.push(c);
  return out;
}

function hasNeutralLand(p: PackIndex, s: BlitzState, country: string): boolean {
  for (const l of countryLands(p, s, country)) if (s.control[l] === 'neutral') return true;
  return false;
}

/** The `declare X` options the phasing power has now: neutral minors (3.2, A.1) and neutral major powers (F.1). */
export function declarations(p: PackIndex, s: BlitzState): string[] {
  const out: string[] = [];
  for (const c of declarable(p, s)) out.push(`declare ${c}`);
  for (const c of declarableMajors(p, s, s.power)) out.push(`declare ${c}`);
  return out;
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
  for (const l of countryLands(p, s, country)) if (s.control[l] === 'neutral') setControl(s, l, other);
  // 3.4: Vichy's warships join the power it allies with; its land unit too, unless the Axis declared with all of French North Africa Allied.
  const army = country === VICHY && !vichyJoins(p, s, other, s.side, ev) ? [] : minor.army;
  for (const pl of army) {
    putUnit(s, pl.unit, { def: pl.unit, power: other, size: pl.size, at: pl.at });
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
