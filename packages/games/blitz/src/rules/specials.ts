/**
 * Scenario special rules that are data in the pack (from Scenario D on): armies that wake when their
 * country is attacked (D: the Near East), hand-overs of a country at the start of a turn (D's Second
 * Front: Belgium-Netherlands to the Western Allies from Turn 9, closed to the Axis), units disbanded
 * at a turn's builds (D: four Size of German ARM on Turn 9), units lost for good when destroyed (D: the
 * Italian Alpini Army), and where a power's new units arrive (D: the Western Allies' in the UK).
 */
import { IllegalChoiceError } from '@salient/engine';
import { emit, landName, unitName, type Events } from './events.ts';
import { landDef, scenarioDef, unitDef, type PackIndex } from './pack-index.ts';
import { canStackLand, canStackPort, friendlyLand, heldBySide, isAir, isLand, isNaval, landNeighbours, ownedBy, setControl, sideOf, typeOf, unitsAt } from './query.ts';
import type { Ask, BlitzState, SideId } from './state.ts';
import { fired } from './sections.ts';
import { moveUnit, putUnit, resizeUnit } from './unit-writes.ts';

const powerOfNation = (p: PackIndex, s: BlitzState, nation: string): string | undefined => scenarioDef(p, s.scenario).powers.find((x) => x.nations.includes(nation as 'GER'))?.id;

/** D: the first attack announced on a land area of a dormant country brings its army onto the map. */
export function wakeDormant(p: PackIndex, s: BlitzState, land: string, ev: Events): void {
  const country = landDef(p, land).country;
  const d = scenarioDef(p, s.scenario).dormant?.find((x) => x.country === country);
  if (!d || (s.woken ?? []).includes(country)) return;
  (s.woken ??= []).push(country);
  const placed: string[] = [];
  for (const pl of d.army) {
    const power = powerOfNation(p, s, unitDef(p, pl.unit).nation);
    if (!power || s.units[pl.unit]) continue;
    // It appears where the chart puts it if its side still holds that area, else in any held area of the country.
    const side = sideOf(p, s, power);
    const at = friendlyLand(p, s, pl.at, side) ? pl.at : (p.countryLands.get(country) ?? []).find((l) => l in s.control && friendlyLand(p, s, l, side));
    if (!at) continue;
    putUnit(s, pl.unit, { def: pl.unit, power, size: pl.size, at });
    placed.push(pl.unit);
  }
  const name = p.files.map.countries.find((c) => c.id === country)?.name ?? country;
  emit(ev, 'dormant-army', `${name} is attacked: ${placed.length ? placed.map((x) => unitName(p, x)).join(', ') + ' take the field' : 'its army has nowhere to appear'}`, undefined, { country, units: placed });
}

/**
 * D's Second Front: at the start of the turn the named power takes control of every land area of the
 * country in play; enemy units there move to the nearest adjacent area their side holds, or are lost.
 */
export function applyHandovers(p: PackIndex, s: BlitzState, ev: Events): void {
  for (const h of scenarioDef(p, s.scenario).handovers ?? []) {
    if (h.turn !== s.turn) continue;
    const side = sideOf(p, s, h.to);
    const lands = (p.countryLands.get(h.country) ?? []).filter((l) => l in s.control).sort();
    for (const land of lands) {
      for (const [id, u] of unitsAt(s, land)) {
        if (sideOf(p, s, u.power) === side) continue;
        const uside = sideOf(p, s, u.power);
        const dest = landNeighbours(p, s, land).map((n) => n.to).find((l) => friendlyLand(p, s, l, uside) && fits(p, s, id, l));
        if (dest) {
          moveUnit(s, u, dest);
          emit(ev, 'handover-move', `${unitName(p, id)} leaves ${landName(p, land)} for ${landName(p, dest)}`, u.power, { unit: id, from: land, to: dest });
        } else {
          moveUnit(s, u, 'gone');
          emit(ev, 'elimination', `${unitName(p, id)} has nowhere to go from ${landName(p, land)} and is lost`, u.power, { unit: id, type: typeOf(p, u) });
        }
      }
      setControl(s, land, h.to);
    }
    const name = p.files.map.countries.find((c) => c.id === h.country)?.name ?? h.country;
    emit(ev, 'handover', `${h.to} takes control of ${name}${h.closedTo ? `; the ${h.closedTo} may not attack it from now on` : ''}`, h.to, { country: h.country, to: h.to, lands });
  }
}

function fits(p: PackIndex, s: BlitzState, id: string, land: string): boolean {
  const u = s.units[id]!;
  if (isLand(p, u)) return canStackLand(p, s, land, sideOf(p, s, u.power), u.size);
  if (isNaval(p, u)) return canStackPort(p, s, land, u.size);
  return isAir(p, u);
}

/** D: this turn's disbands, set up before the builds. */
export function startDisbands(p: PackIndex, s: BlitzState): void {
  const due = (scenarioDef(p, s.scenario).disbands ?? []).filter((d) => d.turn === s.turn);
  if (due.length) s.disband = due.map((d) => ({ power: d.power, type: d.type, left: d.size }));
}

/** The power must pick which of its units of the type lose Size, one step at a time. */
export function askDisband(p: PackIndex, s: BlitzState, ev: Events): Ask | null {
  while (s.disband?.length) {
    const d = s.disband[0]!;
    const units = ownedBy(s, d.power).filter(([, u]) => typeOf(p, u) === d.type && !u.at.startsWith('trs:')).map(([id]) => id);
    if (d.left > 0 && units.length) return { kind: 'decision', power: d.power, prompt: 'disband', options: units.map((x) => `disband ${x}`) };
    if (d.left > 0) emit(ev, 'disbanded', `${d.power} has no more ${d.type} to disband (${d.left} Size short)`, d.power, { left: d.left, type: d.type });
    s.disband.shift();
  }
  delete s.disband;
  return null;
}

export function applyDisband(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const d = s.disband?.[0];
  const id = choice.slice('disband '.length);
  const u = s.units[id];
  if (!d || !u || u.power !== d.power || typeOf(p, u) !== d.type) throw new IllegalChoiceError(`'${choice}' is not a unit ${d?.power ?? 'anyone'} must disband now`);
  resizeUnit(s, u, u.size - 1);
  d.left -= 1;
  fired('D', s.scenario);
  if (u.size <= 0 || !p.unit.get(u.def)?.sizes[String(u.size) as '1']) {
    moveUnit(s, u, 'gone');
    resizeUnit(s, u, 0);
  }
  emit(ev, 'disband', `${unitName(p, id)} is ${u.at === 'gone' ? 'removed from the game' : `reduced to Size ${u.size}`} (Second Front)`, u.power, { unit: id, size: u.size });
}

/**
 * 5.2/E.1 China entry: a land unit of China's own side that is not Chinese may not enter or attack a
 * land area of China until China is conquered or its side holds enough of the opening areas. Where the
 * pack names them (the full game), only the opener nations' holdings count and only their units are let
 * in, while `unlessNeutral`'s power is not neutral (5.2: the AFA and USA, two of Formosa, Manila and
 * South-East Asia, the USA not neutral); a nation of `own` holding all its lands lets its own units in
 * (the USSR with Harbin and Port Arthur).
 */
export function chinaBarred(p: PackIndex, s: BlitzState, uid: string, land: string): boolean {
  const ce = scenarioDef(p, s.scenario).chinaEntry;
  if (!ce || landDef(p, land).country !== ce.country) return false;
  const u = s.units[uid]!;
  if (unitDef(p, u.def).home === ce.home) return false;
  const native = p.files.units.units.find((x) => x.home === ce.home);
  const owner = native && powerOfNation(p, s, native.nation);
  const side = sideOf(p, s, u.power);
  if (!owner || sideOf(p, s, owner) !== side) return false;
  if (s.conquered.includes(ce.country)) return false;
  const nation = unitDef(p, u.def).nation;
  const holds = (n: string, l: string) => s.control[l] !== undefined && s.control[l] === powerOfNation(p, s, n);
  if (ce.own?.some((o) => o.nation === nation && o.lands.every((l) => holds(o.nation, l)))) return false;
  if (ce.openerNations) {
    const neutral = ce.unlessNeutral !== undefined && (s.neutral?.includes(powerOfNation(p, s, ce.unlessNeutral) ?? '') ?? false);
    if (ce.openerNations.includes(nation) && !neutral) {
      const held = ce.openers.filter((l) => ce.openerNations!.some((n) => holds(n, l))).length;
      if (held >= ce.need) return false;
    }
  } else if (ce.openers.filter((l) => heldBySide(p, s, l, side)).length >= ce.need) return false;
  fired('5.2', s.scenario);
  return true;
}

/**
 * D: units that leave the map, not for the Force Pool, when destroyed: named ones (for good), and with
 * `setAside` those of a conquered home (3.4/D.5: set aside with it until its liberation, setAsideLost).
 */
export function lostForGood(p: PackIndex, s: BlitzState, id: string): boolean {
  const sc = scenarioDef(p, s.scenario);
  if (sc.permanentLoss?.includes(id)) return true;
  return sc.setAside === true && s.conquered.includes(unitDef(p, s.units[id]!.def).home);
}

/**
 * 3.4/D.5: a destroyed unit of a conquered country leaves the map set aside with its country, to come
 * back with its liberation (france.ts), rather than for good. Call when `id` has just been lost for good.
 */
export function setAsideLost(p: PackIndex, s: BlitzState, id: string): void {
  const home = unitDef(p, s.units[id]!.def).home;
  const sc = scenarioDef(p, s.scenario);
  if (sc.setAside !== true || sc.permanentLoss?.includes(id) || !s.conquered.includes(home)) return;
  fired('3.4', s.scenario);
  s.setAside = { ...s.setAside, [home]: [...(s.setAside?.[home] ?? []).filter((x) => x !== id), id].sort() };
}

/**
 * 3.4/D.5: whether `id`, on the map, may not be built up from Size `size`: a conquered country's unit
 * stops at Size 2 (Small), its Big version being out of play once off the map.
 */
export function bigBarred(p: PackIndex, s: BlitzState, id: string, size: number): boolean {
  return size === 2 && scenarioDef(p, s.scenario).setAside === true && s.conquered.includes(unitDef(p, s.units[id]!.def).home);
}

/** 3.4/D.5: the conquered country's units still in its owner's Force Pool are set aside (Future Additions stay on the chart). */
export function setAsideConquered(p: PackIndex, s: BlitzState, country: string, conqueror: SideId, ev: Events): void {
  if (!scenarioDef(p, s.scenario).setAside) return;
  const out: string[] = [];
  for (const id of Object.keys(s.pool).sort()) {
    if (unitDef(p, id).home !== country) continue;
    const u = s.units[id];
    if (u && u.at !== 'pool') continue;
    // Its owner: the power whose Force Pool holds it (7.3: a minor's unit another power picked), else its counter's power, else its nation's.
    const owner = s.pool[id]!.power ?? u?.power ?? scenarioDef(p, s.scenario).powers.find((x) => x.nations.includes(unitDef(p, id).nation))?.id;
    if (!owner || sideOf(p, s, owner) === conqueror) continue;
    delete s.pool[id];
    if (u) moveUnit(s, u, 'gone');
    out.push(id);
    s.setAside = { ...s.setAside, [country]: [...(s.setAside?.[country] ?? []), id].sort() }; // back with liberation (3.4)
  }
  if (out.length) emit(ev, 'set-aside', `${out.map((x) => unitName(p, x)).join(', ')} ${out.length > 1 ? 'are' : 'is'} set aside with ${country}`, undefined, { country, units: out });
}

/** D: where `power` places the new units of major-power home countries (`buildAt`), if the scenario says. */
export function buildArea(p: PackIndex, s: BlitzState, power: string, unit: string): string | undefined {
  const at = scenarioDef(p, s.scenario).buildAt?.[power];
  if (!at) return undefined;
  const home = unitDef(p, unit).home;
  return p.files.map.countries.find((c) => c.id === home)?.homeOf ? at : undefined;
}
