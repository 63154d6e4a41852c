/**
 * The optional rules of section 9, chosen at set-up for the full game (1.11: players agree on them
 * before the game begins). This module reads and checks the set-up options (`optional`, `bids`) and
 * holds the rules that have no better home: 9.1's bids, 9.3's build duty, 9.6 Sabotage and 9.7's
 * limit. 9.4 lives in combat.ts, 9.5 in commanders.ts, 9.8 in sea-combat.ts and movement.ts, 9.9 in
 * victory-points.ts.
 *
 * None of this touches a game that switched no optional rule on: every hook asks `optionOn` first,
 * and no state field is written unless a rule is on.
 */
import { IllegalChoiceError, SalientError, type Json, type JsonObject } from '@salient/engine';
import { chartResult } from './combat-chart.ts';
import { emit, landName, unitName, type Events } from './events.ts';
import { landDef, scenarioDef, unitDef, type PackIndex } from './pack-index.ts';
import { enemy, isAir, isNaval, sideOf, typeOf } from './query.ts';
import { fired } from './sections.ts';
import type { Ask, BlitzState, UnitState } from './state.ts';
import { homeCountries, suppliedAreas } from './supply.ts';
import { atWar } from './wars.ts';

/** Section 9: every optional rule, and why the ones left out are left out. */
export const OPTIONAL_RULES: Readonly<Record<string, { title: string; implemented: boolean; why?: string }>> = {
  '9.1': { title: 'Bidding for major powers', implemented: true },
  '9.2': { title: 'Blitzing the Road to War', implemented: true },
  '9.3': { title: 'Minor ally builds', implemented: true },
  '9.4': { title: 'Land Route attacks', implemented: true },
  '9.5': { title: 'Commanders', implemented: true },
  '9.6': { title: 'Sabotage', implemented: true },
  '9.7': { title: 'Non-motorized Land Blitz', implemented: true },
  '9.8': { title: 'Forced passage', implemented: true },
  '9.9': { title: 'Looting', implemented: true },
};

const IMPLEMENTED = Object.keys(OPTIONAL_RULES).filter((id) => OPTIONAL_RULES[id]!.implemented);

/** Whether optional rule `id` (`'9.4'`) is switched on in this game. */
export const optionOn = (s: BlitzState, id: string): boolean => s.optional?.includes(id) ?? false;

const bad = (message: string): SalientError => new SalientError('BAD_OPTION', message);

/**
 * The `optional` set-up option: a list of section ids, or one comma-separated string (the CLI's
 * `--option optional=9.4,9.7`; a lone `9.4` arrives as a number). Sorted, without repeats.
 */
export function parseOptional(scenario: string, value: Json | undefined): string[] {
  if (value === undefined) return [];
  const allowed = `this version implements ${IMPLEMENTED.join(', ')}`;
  if (scenario !== 'full') {
    throw bad(`option 'optional' is for the full game only: scenario ${scenario} plays its own rules as they stand, without section 9. Remove the option, or play --scenario full (${allowed}).`);
  }
  const raw = Array.isArray(value) ? value : typeof value === 'string' || typeof value === 'number' ? String(value).split(',') : null;
  if (!raw || raw.some((x) => typeof x !== 'string' && typeof x !== 'number')) {
    throw bad(`option 'optional' takes optional rule ids as a list or a comma-separated string, e.g. "9.4,9.7"; got ${JSON.stringify(value)}.`);
  }
  const ids = [...new Set(raw.map((x) => String(x).trim()).filter(Boolean))].sort((a, b) => Number(a.slice(2)) - Number(b.slice(2)));
  for (const id of ids) {
    const rule = OPTIONAL_RULES[id];
    if (!rule) throw bad(`option 'optional': '${id}' is not an optional rule; they are 9.1-9.9, and ${allowed}.`);
    if (!rule.implemented) throw bad(`option 'optional': ${id} (${rule.title}) is not implemented: ${rule.why}. ${allowed[0]!.toUpperCase()}${allowed.slice(1)}.`);
  }
  return ids;
}

/**
 * 9.1: the `bids` set-up option, one bid per player grouping of the chosen split, keyed by the
 * grouping's powers joined with `+` (any order), as an object or as `GER+JAP:-2,AFA+USA+USSR:2`.
 * Whole numbers from +3 to -3 that sum to zero; a grouping left out bids 0. The bids stand for an
 * auction held before the game (9.1): bots cannot hold one, so the result is fixed at set-up.
 */
export function parseBids(optional: readonly string[], split: readonly (readonly string[])[], value: Json | undefined): Record<string, number> | undefined {
  if (value === undefined) return undefined;
  if (!optional.includes('9.1')) throw bad("option 'bids' needs optional rule 9.1 (add 9.1 to the option 'optional').");
  const groups = split.map((g) => g.join('+'));
  let entries: [string, Json][];
  if (typeof value === 'string') {
    entries = value.split(',').filter((x) => x.trim()).map((x) => {
      const i = x.lastIndexOf(':');
      if (i < 0) throw bad(`option 'bids': '${x}' is not GROUPING:BID, e.g. GER+JAP:-2.`);
      return [x.slice(0, i).trim(), Number(x.slice(i + 1))];
    });
  } else if (value && typeof value === 'object' && !Array.isArray(value)) entries = Object.entries(value);
  else throw bad(`option 'bids' takes one bid per player grouping, e.g. {"GER+JAP": -2, "AFA+USA+USSR": 2} or "GER+JAP:-2,AFA+USA+USSR:2"; got ${JSON.stringify(value)}.`);
  const out: Record<string, number> = Object.fromEntries(groups.map((g) => [g, 0]));
  const canonical = (key: string): string | undefined => {
    const want = key.split('+').map((x) => x.trim()).sort().join('+');
    return split.find((g) => [...g].sort().join('+') === want)?.join('+');
  };
  for (const [key, bid] of entries) {
    const g = canonical(key);
    if (!g) throw bad(`option 'bids': '${key}' is not a player grouping of this game; with ${split.length} players they are ${groups.join(', ')}.`);
    if (typeof bid !== 'number' || !Number.isInteger(bid) || bid < -3 || bid > 3) throw bad(`option 'bids': the bid for ${g} must be a whole number from -3 to +3; got ${JSON.stringify(bid)}.`);
    out[g] = bid;
  }
  const sum = Object.values(out).reduce((t, x) => t + x, 0);
  if (sum !== 0) throw bad(`option 'bids': the bids must sum to zero (9.1); these sum to ${sum} (${groups.map((g) => `${g} ${out[g]}`).join(', ')}).`);
  return out;
}

// ---------------------------------------------------------------- 9.3 Minor ally builds

/** Oil and Resources only one home's units may use (E.4: China's) are outside 9.3: they already go to that home's units. */
const restrictedCountry = (p: PackIndex, s: BlitzState, country: string): boolean => (scenarioDef(p, s.scenario).restrictedIncome ?? []).some((r) => r.country === country);

/**
 * 9.3: countries where `power` holds a Resource this turn (an area holding one, at home or in supply,
 * as 7.6 counts income): each asks for one Resource spent on one of its units before anything else.
 */
export function resourceCountries(p: PackIndex, s: BlitzState, power: string): string[] {
  const homes = homeCountries(p, s, power);
  const anyHome = [...homes][0] ?? '';
  const supplied = suppliedAreas(p, s, power, anyHome, 'income');
  const out = new Set<string>();
  for (const land of scenarioDef(p, s.scenario).lands) {
    if (s.control[land] !== power) continue;
    const l = landDef(p, land);
    if (l.resources <= 0 || restrictedCountry(p, s, l.country)) continue;
    if (homes.has(l.country) || supplied.has(land)) out.add(l.country);
  }
  return [...out].sort();
}

/** Homes whose units `power` has already spent a Resource of its general budget on this turn (builds and repairs). */
function dutiesMet(p: PackIndex, s: BlitzState, power: string): Set<string> {
  const met = new Set<string>();
  for (const h of s.hidden[power] ?? []) {
    if (h.free || !p.unit.has(h.unit) || h.at === 'pool' || h.at === 'drawn') continue;
    if (h.size - (h.earmarked ?? 0) >= 1) met.add(unitDef(p, h.unit).home);
  }
  return met;
}

/**
 * 9.3: the homes whose units `power` must spend its next Resource on, while it still has a Resource
 * (not Oil: 7.8 lets Oil stand in for Resources, 9.3 does not) and a unit of that home to spend it on.
 * `costly` lists the home of every build or repair option that would spend from the general budget.
 */
export function buildDuty(p: PackIndex, s: BlitzState, power: string, costly: ReadonlySet<string>, resourcesLeft: number): Set<string> {
  if (!optionOn(s, '9.3') || resourcesLeft < 1) return new Set();
  const met = dutiesMet(p, s, power);
  const due = new Set(resourceCountries(p, s, power).filter((c) => !met.has(c) && costly.has(c)));
  if (due.size) fired('9.3', s.scenario);
  return due;
}

// ---------------------------------------------------------------- 9.7 Non-motorized Land Blitz

/** 9.7 counts ARM, air and naval units: only one of them may move or fight in a non-motorized Land Blitz. */
export const motorized = (p: PackIndex, u: UnitState): boolean => typeOf(p, u) === 'ARM' || isAir(p, u) || isNaval(p, u);

/**
 * 9.7: in a non-motorized Land Blitz the first ARM, air or naval unit that moves or is committed to a
 * combat is the one; every other such unit of the power is held back for the rest of the Blitz.
 */
export function footBarred(p: PackIndex, s: BlitzState, id: string): boolean {
  const u = s.units[id]!;
  const used = s.nonMotorized?.[u.power];
  if (used === undefined || !motorized(p, u)) return false;
  return used !== '' && used !== id;
}

/** Note that unit `id` moved or joined a combat (9.7): if it is the power's first motorized unit, it becomes the one. */
export function noteFootUse(p: PackIndex, s: BlitzState, id: string): void {
  const u = s.units[id]!;
  if (s.nonMotorized?.[u.power] === '' && motorized(p, u)) {
    s.nonMotorized[u.power] = id;
    fired('9.7', s.scenario);
  }
}

// ---------------------------------------------------------------- 9.6 Sabotage

/** The enemy major powers `power` may still sabotage this turn (9.6: once each a turn; enemies it is at war with; 3.4: none out of the game, which has no builds). */
export function sabotageTargets(p: PackIndex, s: BlitzState, power: string): string[] {
  if (!optionOn(s, '9.6')) return [];
  const side = sideOf(p, s, power);
  return scenarioDef(p, s.scenario)
    .powers.filter((x) => x.side === enemy(side) && atWar(p, s, power, x.id) && !s.out?.includes(x.id) && !(s.sabotaged ?? []).includes(`${power}>${x.id}`))
    .map((x) => x.id);
}

/** 9.6: `power` spends a Resource (held with its secret builds) and rolls against `target`. */
export function startSabotage(p: PackIndex, s: BlitzState, power: string, target: string): void {
  if (!sabotageTargets(p, s, power).includes(target)) throw new IllegalChoiceError(`${power} cannot sabotage ${target} now`);
  (s.hidden[power] ??= []).push({ unit: 'sabotage', size: 1, at: 'sabotage' });
  (s.sabotaged ??= []).push(`${power}>${target}`);
  s.sabotageRoll = { by: power, on: target, stage: 'die' };
}

/** 9.6 result 4: land areas of a country on the Partisan Chart's face that the target conquered and holds, with Oil or Resources there. */
function sabotagePartisanAreas(p: PackIndex, s: BlitzState, target: string, face: number): string[] {
  const table = scenarioDef(p, s.scenario).partisans?.table[String(face)] ?? [];
  const out: string[] = [];
  for (const country of table) {
    if (!s.conquered.includes(country)) continue;
    const lands = (p.countryLands.get(country) ?? []).filter((l) => l in s.control);
    if (!lands.some((l) => s.control[l] === target && landDef(p, l).oil + landDef(p, l).resources > 0)) continue;
    out.push(...lands.filter((l) => s.control[l] === target));
  }
  return [...new Set(out)].sort();
}

export function askSabotage(p: PackIndex, s: BlitzState): Ask {
  const r = s.sabotageRoll!;
  if (r.stage === 'place') return { kind: 'decision', power: r.by, prompt: 'sabotage-partisan', options: [...sabotagePartisanAreas(p, s, r.on, r.face!).map((l) => `partisan ${l}`), 'partisan none'] };
  return { kind: 'chance', prompt: r.stage === 'die' ? 'sabotage-die' : r.stage === 'partisan' ? 'sabotage-partisan-die' : 'sabotage-attack-die', stream: 'combat', faces: 6 };
}

const RESULT_TEXT: Record<number, string> = {
  1: 'next turn it spends the first Resource of TARGET on a unit of its choice',
  2: 'next turn it chooses which GAR TARGET builds free',
  3: 'next turn it chooses the first new unit to join the Force Pool of TARGET',
};

/** 9.6: a die of the Sabotage roll, or the saboteur placing its Partisan. */
export function applySabotage(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const r = s.sabotageRoll!;
  const [verb, arg] = choice.split(' ') as [string, string];
  const say = (text: string, data: JsonObject) => emit(ev, 'sabotage', `${r.by} sabotages ${r.on}: ${text}`, r.by, { by: r.by, on: r.on, ...data });
  if (r.stage === 'place') {
    if (verb !== 'partisan') throw new IllegalChoiceError(`'${choice}' does not place the Sabotage Partisan`);
    if (arg !== 'none') {
      if (!sabotagePartisanAreas(p, s, r.on, r.face!).includes(arg)) throw new IllegalChoiceError(`no Sabotage Partisan can go to ${arg}`);
      (s.sabotagePartisans ??= []).push(arg);
      say(`a Partisan rises in ${landName(p, arg)} and will block an Oil or Resource next turn`, { result: 4, land: arg });
    } else say('no Partisan placed', { result: 4, land: null });
    delete s.sabotageRoll;
    return;
  }
  if (verb !== 'die') throw new IllegalChoiceError(`'${choice}' is not a die roll`);
  const d = Number(arg);
  if (r.stage === 'die') {
    fired('9.6', s.scenario);
    if (d <= 3) {
      (s.sabotage ??= []).push({ by: r.by, on: r.on, result: d as 1 | 2 | 3, turn: s.turn + 1 });
      say(RESULT_TEXT[d]!.replace('TARGET', r.on), { result: d });
      delete s.sabotageRoll;
    } else if (d === 4) r.stage = 'partisan';
    else {
      // 5: its saved Oil, 6: its saved Resources, if it has any: a Factory Attack of 4 or 6 factors.
      const kind = d === 5 ? 'oil' : 'res';
      const has = kind === 'oil' ? (s.budgetOil?.[r.on] ?? 0) : (s.res[r.on] ?? 0) - (s.budgetOil?.[r.on] ?? 0);
      if (has > 0) {
        r.stage = 'attack';
        r.kind = kind;
      } else {
        say(`rolled ${d}, but it has no ${kind === 'oil' ? 'Oil' : 'Resources'} to strike`, { result: d });
        delete s.sabotageRoll;
      }
    }
    return;
  }
  if (r.stage === 'partisan') {
    if (sabotagePartisanAreas(p, s, r.on, d).length) {
      r.stage = 'place';
      r.face = d;
      return;
    }
    say(`Partisan Chart ${d}: no country it conquered with Oil or Resources`, { result: 4, partisanDie: d });
    delete s.sabotageRoll;
    return;
  }
  // r.stage === 'attack'
  const factors = r.kind === 'oil' ? 4 : 6;
  const hit = chartResult(p.chart, factors, d);
  if (hit.damage > 0) (s.sabotageLoss ??= []).push({ on: r.on, kind: r.kind!, n: hit.damage });
  say(`a ${factors}-factor Factory Attack rolls ${d} (${hit.text}): ${hit.damage ? `${hit.damage} ${r.kind === 'oil' ? 'Oil' : 'Resources'} fewer saved this turn` : 'no loss'}`, { result: r.kind === 'oil' ? 5 : 6, die: d, loss: hit.damage });
  delete s.sabotageRoll;
}

/**
 * 9.6 results 5 and 6 strike what the target saves: they are taken from its saved Oil or Resources
 * once every power has built (the builds are simultaneous, 1.9), never below zero.
 */
export function applySabotageLosses(s: BlitzState, ev: Events): void {
  for (const x of s.sabotageLoss ?? []) {
    const store = x.kind === 'oil' ? (s.oil ??= {}) : (s.saved ??= {});
    const was = store[x.on] ?? 0;
    store[x.on] = Math.max(0, was - x.n);
    emit(ev, 'sabotage-loss', `${x.on} loses ${was - store[x.on]!} saved ${x.kind === 'oil' ? 'Oil' : 'Resources'} to sabotage`, x.on, { on: x.on, kind: x.kind, lost: was - store[x.on]! });
  }
  delete s.sabotageLoss;
  delete s.sabotaged;
  // Results 1-3 not used on the turn they were due lapse.
  if (s.sabotage) {
    s.sabotage = s.sabotage.filter((x) => x.turn > s.turn);
    if (!s.sabotage.length) delete s.sabotage;
  }
}

/**
 * 9.6 results 1-3 due at `power`'s builds this turn, before it makes any choice of its own: the
 * first that applies, with the saboteur's options. `costly` are the build and repair options that
 * spend a Resource of the general budget (result 1: `repair X`, `build X`); `freeGars` the GARs it
 * could build free (result 2: `gar X`); `picks` the Future Additions it may pick (result 3: `pick X`).
 */
export function sabotageDue(
  s: BlitzState,
  power: string,
  o: { costly: string[]; freeGars: string[]; picks: string[] },
): { index: number; by: string; options: string[] } | null {
  if (!s.sabotage?.length) return null;
  // Only before the target's own first choice: everything it has done so far was imposed.
  if (!(s.hidden[power] ?? []).every((h) => h.imposed)) return null;
  const order = s.sabotage
    .map((x, index) => ({ ...x, index }))
    .filter((x) => x.on === power && x.turn === s.turn)
    .sort((a, b) => b.result - a.result || (a.by < b.by ? -1 : a.by > b.by ? 1 : a.index - b.index));
  for (const x of order) {
    const options = (x.result === 3 ? o.picks : x.result === 2 ? o.freeGars : o.costly).map((c) => `impose ${c}`);
    if (options.length) return { index: x.index, by: x.by, options };
  }
  return null;
}

/** Take the sabotage entry at `index` off the list once its saboteur has chosen. */
export function useSabotage(s: BlitzState, index: number, ev: Events, p: PackIndex, unit: string): void {
  const x = s.sabotage![index]!;
  s.sabotage!.splice(index, 1);
  if (!s.sabotage!.length) delete s.sabotage;
  fired('9.6', s.scenario);
  emit(ev, 'sabotage-imposed', `${x.by} chooses ${unitName(p, unit)} for ${x.on} (Sabotage result ${x.result})`, x.by, { by: x.by, on: x.on, result: x.result, unit });
}
