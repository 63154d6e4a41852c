/**
 * Turn end: Scenario A's reinforcements (A.7) and Scenario B's builds (B.7). Builds are secret and
 * simultaneous (1.9): each power's picks are held in `hidden` and revealed when both are done.
 */
import { IllegalChoiceError } from '@salient/engine';
import { emit, landName, unitName, type Events } from './events.ts';
import { landDef, scenarioDef, unitDef, type PackIndex } from './pack-index.ts';
import { canStackLand, canStackPort, friendlyLand, maxSize, ownedBy, sideOf } from './query.ts';
import type { Ask, BlitzState } from './state.ts';
import { fired } from './sections.ts';
import { applyPick, applyRemove, applySaveSplit, canPick, pickable, removable, saveSplit, spentOf } from './economy.ts';
import { canResearch, startResearch } from './research.ts';
import { aBombOptions, aBombPickedNow, applyABombChoice, isABombStep, revealABombs } from './abomb.ts';
import { areaInSupply, inSupply } from './supply.ts';
import { bigBarred, buildArea } from './specials.ts';
import { buildDuty, sabotageDue, sabotageTargets, startSabotage, useSabotage } from './optional.ts';
import { neutralCap } from './neutrality.ts';
import { onBuilt } from './victory-points.ts';
import { placeCommander, placementOptions } from './commanders.ts';
import { applyVoluntary, askVoluntary, isVoluntaryStep, revealVoluntary, voluntaryOpen } from './voluntary.ts';
import type { DecisionPrompt } from './prompts.ts';
import { putUnit, resizeUnit } from './unit-writes.ts';

/** A.7: units listed for the end of this turn arrive where the chart puts them, or the nearest home area held. */
export function placeReinforcements(p: PackIndex, s: BlitzState, ev: Events): void {
  const sc = scenarioDef(p, s.scenario);
  for (const r of sc.reinforcements.filter((x) => x.turn === s.turn)) {
    for (const pl of r.units) {
      const d = unitDef(p, pl.unit);
      const power = sc.powers.find((x) => x.nations.includes(d.nation))!.id;
      const side = sideOf(p, s, power);
      let at: string | undefined = pl.at;
      if (!friendlyLand(p, s, at, side)) at = homeAreas(p, s, pl.unit, power)[0];
      if (!at) {
        emit(ev, 'reinforcement-lost', `${unitName(p, pl.unit)} cannot arrive: no home area is held`, power, { unit: pl.unit });
        continue;
      }
      putUnit(s, pl.unit, { def: pl.unit, power, size: pl.size, at });
      emit(ev, 'reinforcement', `${unitName(p, pl.unit)} arrives in ${landName(p, at)}`, power, { unit: pl.unit, at, size: pl.size });
    }
  }
}

/** Areas where a unit may be placed (B.7): held areas of its home country (USA units: Great Britain). */
function homeAreas(p: PackIndex, s: BlitzState, unit: string, power: string): string[] {
  const d = unitDef(p, unit);
  const side = sideOf(p, s, power);
  const sc = scenarioDef(p, s.scenario);
  const friendly = (l: string) => friendlyLand(p, s, l, side);
  if (d.type === 'FORT') return sc.lands.filter(friendly); // B.7: a FORT goes anywhere you control
  // D: the Western Allies' new units all arrive in the UK.
  const fixed = buildArea(p, s, power, unit);
  if (fixed) return sc.lands.includes(fixed) && friendly(fixed) ? [fixed] : [];
  // B.7 (and C, where the AFA and USA are one power too): USA units are placed in Great Britain.
  const home = (s.scenario === 'B' || s.scenario === 'C') && d.nation === 'USA' ? 'great-britain' : d.home;
  // The country's areas in play first (in the scenario's order), then who holds them: asked per unit and option.
  const naval = ['BB', 'CV', 'SUB', 'TRS', 'LL'].includes(d.type);
  return scenarioCountryLands(p, s.scenario, home).filter((l) => (!naval || landDef(p, l).ports.length > 0) && friendly(l));
}

/** The land areas of `country` in play in `scenario`, in the scenario's order; built once per pack. */
const countryLandsCache = new WeakMap<PackIndex, Map<string, string[]>>();
function scenarioCountryLands(p: PackIndex, scenario: string, country: string): readonly string[] {
  let m = countryLandsCache.get(p);
  if (!m) countryLandsCache.set(p, (m = new Map()));
  const key = `${scenario}/${country}`;
  let out = m.get(key);
  if (!out) m.set(key, (out = scenarioDef(p, scenario).lands.filter((l) => landDef(p, l).country === country)));
  return out;
}

/** B.7 income: Oil and Resources held in play (Oil counts as a Resource), plus off-map Resources. */
export function income(p: PackIndex, s: BlitzState, power: string): number {
  const sc = scenarioDef(p, s.scenario);
  const held = sc.lands.filter((l) => s.control[l] === power).reduce((t, l) => t + landDef(p, l).oil + landDef(p, l).resources, 0);
  return held + (sc.offMapIncome[power] ?? 0);
}

const spent = spentOf;

function placeable(p: PackIndex, s: BlitzState, unit: string, power: string, size: number): string[] {
  const d = unitDef(p, unit);
  const side = sideOf(p, s, power);
  const naval = ['BB', 'CV', 'SUB', 'TRS', 'LL'].includes(d.type);
  // 1.7: nothing is built where supply cannot reach; 7.8: the AFA and the USA never trace it from each other's home countries.
  return homeAreas(p, s, unit, power).filter((l) => areaInSupply(p, s, power, d.home, l, 'power') && !cutOff(p, s, unit, l) && (naval ? canStackPort(p, s, l, size) : d.type === 'AIR' ? true : canStackLand(p, s, l, side, size)));
}

/** 7.8 (D.10): one GAR from the Force Pool each turn costs nothing (from D, where income comes from the map). */
function freeGar(p: PackIndex, s: BlitzState, power: string, unit: string): boolean {
  return scenarioDef(p, s.scenario).areaIncome === true && unitDef(p, unit).type === 'GAR' && !(s.hidden[power] ?? []).some((h) => h.free);
}

/**
 * E.4: the home whose units alone may use earmarked income (China), if `unit` is one of them; 7.6: so
 * an isolated ally's units, paid only from its own income (and that income only on them).
 */
function restrictedHome(p: PackIndex, s: BlitzState, unit: string): string | undefined {
  const home = unitDef(p, unit).home;
  return scenarioDef(p, s.scenario).restrictedIncome?.some((r) => r.home === home) || s.isolated?.includes(home) ? home : undefined;
}

/** 7.6: no other income builds a unit in an isolated ally's country: only that country's own units, paid from its own. */
function cutOff(p: PackIndex, s: BlitzState, unit: string, land: string): boolean {
  const country = p.land.get(land)?.country;
  return country !== undefined && country !== unitDef(p, unit).home && (s.isolated?.includes(country) ?? false);
}

/** Earmarked income (E.4) `power` still has for units of `home` this turn. */
function earmarkLeft(p: PackIndex, s: BlitzState, power: string, home: string): number {
  const used = (s.hidden[power] ?? []).filter((h) => h.earmarked && unitDef(p, h.unit).home === home).reduce((t, h) => t + h.earmarked!, 0);
  return (s.earmark?.[power]?.[home] ?? 0) - used;
}

/**
 * What `power` can spend on `unit` now: its general budget, or for China's units only China's earmarked
 * income (E.4), and under a neutral power's limit no more than the general budget has left either (7.7).
 */
function budgetFor(p: PackIndex, s: BlitzState, power: string, unit: string): number {
  const home = restrictedHome(p, s, unit);
  const general = (s.res[power] ?? 0) - spent(s, power);
  if (!home) return general;
  // 7.7: under a neutral power's limit, Chinese units are paid within the same limit as its own.
  return neutralCap(s, power) === undefined ? earmarkLeft(p, s, power, home) : Math.min(earmarkLeft(p, s, power, home), general);
}

/** E: this turn the power may take the scenario's optional extra Resources (at a VP cost). */
function extraOffer(p: PackIndex, s: BlitzState, power: string): boolean {
  const x = scenarioDef(p, s.scenario).extraResources;
  const o = x?.optional;
  return !!o && x!.power === power && s.turn >= o.fromTurn && s.turn <= o.toTurn && s.extraTaken !== s.turn;
}

export function askBuild(p: PackIndex, s: BlitzState): Ask | null {
  const power = s.buildOrder[0];
  if (!power) return null;
  const left = (s.res[power] ?? 0) - spent(s, power);
  const sel = s.sel;
  const dec = (prompt: DecisionPrompt, options: string[]): Ask => ({ kind: 'decision', power, prompt, options });
  if (sel?.kind === 'save') return dec('save-split', saveSplit(s, power) ?? []); // 7.8
  if (sel?.kind === 'scrap') return askVoluntary(p, s, power); // 7.8: last, the voluntary losses
  if (sel?.kind === 'build') {
    if (sel.size === null) {
      const max = freeGar(p, s, power, sel.unit) ? sel.pool : Math.min(sel.pool, budgetFor(p, s, power, sel.unit));
      return dec('build-size', Array.from({ length: max }, (_, i) => `size ${i + 1}`).filter((o) => placeable(p, s, sel.unit, power, Number(o.slice(5))).length > 0));
    }
    return dec('build-where', placeable(p, s, sel.unit, power, sel.size).map((l) => `at ${l}`));
  }
  const { picks, repairs, builds } = buildLists(p, s, power);
  if (s.optional) {
    const q = optionalAsk(p, s, power);
    if (q) return q;
  }
  const extra = extraOffer(p, s, power) ? ['extra resources'] : [];
  const research = left >= 1 && canResearch(p, s, power) ? ['research'] : [];
  const sabotage = left >= 1 ? sabotageTargets(p, s, power).map((x) => `sabotage ${x}`) : []; // 9.6
  const aBomb = aBombOptions(p, s, power); // 7.8: pick, develop, test, build the A-Bomb (abomb.ts)
  // 7.3: a unit of a country not allied now may be removed from the game instead (it does not count as a pick).
  const removes = removable(p, s, power).map((u) => `remove ${u}`);
  const commanders = placementOptions(p, s, power); // 9.5: one Commander a turn from the Force Pool, free
  if (!repairs.length && !builds.length && !picks.length && !removes.length && !extra.length && !research.length && !sabotage.length && !aBomb.length && !commanders.length) {
    // Nothing to spend on (and so nothing to save): straight to the voluntary losses (7.8), if any unit could go.
    return voluntaryOpen(p, s, power) ? askVoluntary(p, s, power) : null;
  }
  return dec('build-pick', [...extra, ...picks, ...removes, ...aBomb, ...research, ...sabotage, ...commanders, ...repairs, ...builds, 'done']);
}

/** What `power` may pick, repair and build now at the builds (7.3, 7.8). */
function buildLists(p: PackIndex, s: BlitzState, power: string): { picks: string[]; repairs: string[]; builds: string[] } {
  // 7.3: an A-Bomb taken as this turn's pick (abomb.ts) leaves no other pick this turn.
  const picks = canPick(p, s, power) && !aBombPickedNow(s, power) ? pickable(p, s, power).map((u) => `pick ${u}`) : [];
  // Units already repaired or built this turn (a pick only adds to the Force Pool, C.6).
  const chosen = new Set((s.hidden[power] ?? []).filter((h) => h.at !== 'pool' && h.at !== 'oil').map((h) => h.unit));
  const sc = scenarioDef(p, s.scenario);
  const nations = sc.powers.find((x) => x.id === power)!.nations;
  // B.7: repair on-map units one Size at a time; build Force Pool units (1 Resource per Size). 7.8, 1.7:
  // an on-map unit only if its power can trace supply to it (the AFA and the USA not from each other's
  // home countries, even at war).
  const repairs = ownedBy(s, power)
    .filter(([id, u]) => !chosen.has(id) && u.size < maxSize(p, u.def) && p.unit.get(u.def)?.sizes[String(u.size + 1) as '1'] && !cutOff(p, s, id, u.at) && !bigBarred(p, s, id, u.size) && inSupply(p, s, id, 'power'))
    .filter(([id]) => budgetFor(p, s, power, id) > 0)
    .map(([id]) => `repair ${id}`);
  // A Force Pool unit is its nation's power's, unless a unit record says whose it is (3.4: a liberated
  // country's unit given to its liberator, or a country's units taken over by the power that kept it).
  const mine = (id: string) => (s.units[id] ? s.units[id]!.power === power : nations.includes(unitDef(p, id).nation));
  const builds = Object.entries(s.pool)
    .filter(([id, e]) => !chosen.has(id) && e.from <= s.turn && (e.power ? e.power === power : mine(id)) && (s.units[id]?.at ?? 'pool') === 'pool')
    .filter(([id]) => budgetFor(p, s, power, id) > 0 || freeGar(p, s, power, id))
    .filter(([id]) => placeable(p, s, id, power, 1).length > 0)
    .map(([id]) => `build ${id}`)
    .sort();
  return { picks, repairs, builds };
}

/**
 * The builds and repairs that spend a Resource of `power`'s general budget (not a free GAR, not
 * China's earmarked income), and the GARs it could build free: what 9.3 and 9.6 work with.
 */
function spendingLists(p: PackIndex, s: BlitzState, power: string): { picks: string[]; costly: string[]; freeGars: string[] } {
  const { picks, repairs, builds } = buildLists(p, s, power);
  const general = (id: string) => !restrictedHome(p, s, id);
  const costly = [...repairs, ...builds.filter((b) => !freeGar(p, s, power, b.slice(6)))].filter((o) => general(o.slice(o.indexOf(' ') + 1)));
  const freeGars = builds
    .map((b) => b.slice(6))
    .filter((id) => freeGar(p, s, power, id) && placeable(p, s, id, power, s.pool[id]!.size).length > 0)
    .map((id) => `gar ${id}`);
  return { picks, costly, freeGars };
}

/**
 * 9.6 results 1-3 due against `power`, with what its saboteur may choose: its first Resource's unit
 * (not a GAR, which 7.8 builds free), the GAR it builds free, its first Future Addition (if it has
 * picked none yet).
 */
function sabotageChoices(p: PackIndex, s: BlitzState, power: string): ReturnType<typeof sabotageDue> {
  const l = spendingLists(p, s, power);
  const picked = (s.hidden[power] ?? []).some((h) => h.at === 'pool');
  const costly = l.costly.filter((o) => !(o.startsWith('build ') && unitDef(p, o.slice(6)).type === 'GAR'));
  return sabotageDue(s, power, { picks: picked ? [] : l.picks, costly, freeGars: l.freeGars });
}

/**
 * The optional rules' questions at `power`'s builds, before its own: 9.6 results 1-3 due against it
 * (its saboteur chooses), then 9.3's duty (its Resources go first to units of the countries holding them).
 */
function optionalAsk(p: PackIndex, s: BlitzState, power: string): Ask | null {
  const due = sabotageChoices(p, s, power);
  if (due) return { kind: 'decision', power: due.by, prompt: 'sabotage-choice', options: due.options };
  const lists = spendingLists(p, s, power);
  // Resources left, not Oil (7.8 lets Oil stand in for Resources; 9.3 does not).
  const resourcesLeft = (s.res[power] ?? 0) - (s.budgetOil?.[power] ?? 0) - spent(s, power);
  const homeOf = (o: string) => unitDef(p, o.slice(o.indexOf(' ') + 1)).home;
  const duty = buildDuty(p, s, power, new Set(lists.costly.map(homeOf)), resourcesLeft);
  if (!duty.size) return null;
  return { kind: 'decision', power, prompt: 'build-pick', options: [...lists.picks, ...lists.costly.filter((o) => duty.has(homeOf(o)))] };
}

/** 9.6 results 1-3: the saboteur's choice for the target (`impose pick|repair|build|gar UNIT`). */
function applyImposed(p: PackIndex, s: BlitzState, power: string, c: string, ev: Events): void {
  const due = sabotageChoices(p, s, power);
  if (!due?.options.includes(c)) throw new IllegalChoiceError(`'${c}' is not a Sabotage choice open now`);
  const [, verb, unit] = c.split(' ') as [string, string, string];
  useSabotage(s, due.index, ev, p, unit);
  const hidden = (s.hidden[power] ??= []);
  if (verb === 'pick') {
    applyPick(p, s, power, unit);
    hidden[hidden.length - 1]!.imposed = true;
  } else if (verb === 'repair') hidden.push({ unit, size: 1, at: '', imposed: true });
  // The target places the unit (its side of the choice): one Size for the first Resource (1), a free GAR at full Size (2).
  else s.sel = { kind: 'build', unit, size: verb === 'gar' ? s.pool[unit]!.size : 1, pool: s.pool[unit]!.size, imposed: true };
}

/** Returns true when the current power has finished building. */
export function applyBuild(p: PackIndex, s: BlitzState, c: string, ev: Events): boolean {
  const power = s.buildOrder[0]!;
  const [verb, arg] = c.split(' ') as [string, string | undefined];
  const hidden = (s.hidden[power] ??= []);
  const sel = s.sel;
  // E.4: a Chinese unit is paid from China's earmarked income.
  const paid = (unit: string, size: number) => (restrictedHome(p, s, unit) ? { earmarked: size } : {});
  // 7.8: the voluntary losses come last (voluntary.ts); also asked straight away when there was nothing to build.
  if (sel?.kind === 'scrap' || (!sel && (verb === 'keep' || verb === 'scrap'))) return applyVoluntary(p, s, power, c);
  const lastly = () => {
    s.sel = voluntaryOpen(p, s, power) ? { kind: 'scrap' } : null;
    return s.sel === null;
  };
  if (verb === 'done') {
    // 7.8: done building; what is left is saved, split between Oil and Resources as the power chooses.
    if (!saveSplit(s, power)) return lastly();
    s.sel = { kind: 'save' };
    return false;
  }
  if (verb === 'save') {
    applySaveSplit(s, power, c);
    return lastly();
  }
  if (applyABombChoice(p, s, power, c)) return false; // 7.8: `abomb ...` (abomb.ts)
  if (verb === 'impose') {
    applyImposed(p, s, power, c, ev);
    return false;
  }
  if (verb === 'sabotage') {
    startSabotage(p, s, power, arg!);
    return false;
  }
  if (verb === 'commander') {
    placeCommander(p, s, power, c, ev); // 9.5
    return false;
  }
  if (verb === 'extra') {
    takeExtra(p, s, power, ev);
    return false;
  }
  if (verb === 'research') {
    startResearch(p, s, power);
    return false;
  }
  if (verb === 'pick') {
    applyPick(p, s, power, arg!);
    return false;
  }
  if (verb === 'remove') {
    applyRemove(p, s, power, arg!, ev);
    return false;
  }
  if (verb === 'repair') {
    hidden.push({ unit: arg!, size: 1, at: '', ...paid(arg!, 1) });
    return false;
  }
  if (verb === 'build') {
    s.sel = { kind: 'build', unit: arg!, size: null, pool: s.pool[arg!]!.size };
    return false;
  }
  if (sel?.kind !== 'build') throw new IllegalChoiceError(`unexpected '${c}'`);
  if (verb === 'size') {
    sel.size = Number(arg);
    return false;
  }
  const free = freeGar(p, s, power, sel.unit);
  hidden.push({ unit: sel.unit, size: sel.size!, at: arg!, ...(free ? { free: true } : paid(sel.unit, sel.size!)), ...(sel.imposed ? { imposed: true } : {}) });
  s.sel = null;
  return false;
}

/** E: the optional extra Resources, paid for with a victory point (or one to the enemy if there is none to lose). */
function takeExtra(p: PackIndex, s: BlitzState, power: string, ev: Events): void {
  const x = scenarioDef(p, s.scenario).extraResources!;
  const o = x.optional!;
  if (!extraOffer(p, s, power)) throw new IllegalChoiceError(`${power} cannot take extra Resources now`);
  s.extraTaken = s.turn;
  s.res[power] = (s.res[power] ?? 0) + o.amount;
  const vp = (s.vp ??= {});
  if ((vp[power] ?? 0) >= o.vpCost) vp[power] = (vp[power] ?? 0) - o.vpCost;
  else vp[o.vpToIfNone] = (vp[o.vpToIfNone] ?? 0) + o.vpCost;
  fired('E', s.scenario);
  emit(ev, 'extra-resources', `${power} spends ${o.amount} extra Resources this turn, at the price of ${o.vpCost} VP`, power, { amount: o.amount, vp: vp[power] ?? 0 });
}

/** 1.9: reveal everyone's builds at once. */
export function revealBuilds(p: PackIndex, s: BlitzState, ev: Events): void {
  if (Object.keys(s.hidden).length) fired('1.9', s.scenario);
  for (const [power, list] of Object.entries(s.hidden).sort()) {
    for (const h of list) {
      if (isABombStep(h) || isVoluntaryStep(h)) continue; // 7.8: revealed by revealABombs and revealVoluntary below
      if (h.at === 'oil' || h.at === 'research' || h.at === 'sabotage') continue; // Oil for a double pick (C.6), Resources for research (7.8) and sabotage (9.6)
      if (h.at === 'pool' || h.at === 'drawn') {
        // 7.3: a minor's unit goes to its ally's Force Pool, or is set aside while the country has none.
        const where = !h.to ? 'its Force Pool' : h.to === 'aside' ? 'the game, set aside until its country is allied' : `${h.to}'s Force Pool`;
        emit(ev, 'weapon-pick', `${power} adds ${unitName(p, h.unit)} to ${where}`, power, { unit: h.unit, size: h.size, ...(h.to ? { to: h.to } : {}) });
        continue;
      }
      if (h.at === '') {
        const u = s.units[h.unit]!;
        resizeUnit(s, u, u.size + 1);
        emit(ev, 'repair', `${power} repairs ${unitName(p, h.unit)} to Size ${u.size}`, power, { unit: h.unit, size: u.size });
      } else {
        putUnit(s, h.unit, { def: h.unit, power, size: h.size, at: h.at });
        delete s.pool[h.unit];
        onBuilt(p, s, power, h.unit); // 8: Super Weapons
        emit(ev, 'build', `${power} builds ${unitName(p, h.unit)} (Size ${h.size}) in ${landName(p, h.at)}`, power, { unit: h.unit, size: h.size, at: h.at });
      }
    }
  }
  revealABombs(p, s, ev);
  revealVoluntary(p, s, ev); // 7.8: last, after the builds are placed
  s.hidden = {};
}
