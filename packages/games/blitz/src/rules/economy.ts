/**
 * Oil, Blitz choices and the short scenarios' economy from C on: each Blitz phase a power picks its
 * Blitz and pays for it in saved Oil (2.2, C.5); at turn end it receives the set-up chart's fixed
 * Oil and Resources (C.7), may add new weapons to its Force Pool (C.6, 7.3), builds, and saves the
 * Oil it did not spend; Italy leaves the war (C.8); and victory points are scored turn by turn
 * (Scenario C's set-up chart, estimated in the bundled pack).
 */
import { IllegalChoiceError } from '@salient/engine';
import type { ScenarioDef } from '../pack/schema.ts';
import { emit, unitName, type Events } from './events.ts';
import { scenarioDef, unitDef, type PackIndex } from './pack-index.ts';
import { enemy, onMap, sideOf, typeOf } from './query.ts';
import { fired } from './sections.ts';
import { optionOn } from './optional.ts';
import { isNeutral } from './neutrality.ts';
import type { Ask, BlitzState, Mode } from './state.ts';
import { moveUnit } from './unit-writes.ts';

/** 2.2: what each Blitz costs in saved Oil. */
export const BLITZ_COST: Readonly<Record<Mode, number>> = { activities: 0, free: 0, land: 1, air: 1, naval: 1, total: 2 };

const sc = (p: PackIndex, s: BlitzState): ScenarioDef => scenarioDef(p, s.scenario);

/** Whether `power` chooses its Blitz each Blitz phase in this scenario. */
export function choosesBlitz(p: PackIndex, s: BlitzState, power: string): boolean {
  return sc(p, s).blitzChoice?.[power] !== undefined;
}

/** The Blitz options `power` can pay for now. */
export function blitzOptions(p: PackIndex, s: BlitzState, power: string): Mode[] {
  const oil = s.oil?.[power] ?? 0;
  return (sc(p, s).blitzChoice?.[power] ?? []).filter((m) => BLITZ_COST[m] <= oil);
}

/** 9.7: a Land Blitz paid with one saved Resource instead of Oil, where the power may call a Land Blitz at all. */
function nonMotorizedOption(p: PackIndex, s: BlitzState, power: string): boolean {
  return optionOn(s, '9.7') && (sc(p, s).blitzChoice?.[power] ?? []).includes('land') && (s.saved?.[power] ?? 0) >= 1;
}

export function askBlitz(p: PackIndex, s: BlitzState): Ask {
  const options = blitzOptions(p, s, s.power).map((m) => `blitz ${m}`);
  if (nonMotorizedOption(p, s, s.power)) options.push('blitz nonmotorized');
  return { kind: 'decision', power: s.power, prompt: 'blitz-choice', options };
}

/** The power announces its Blitz and pays its Oil (2.2), or a saved Resource for a non-motorized Land Blitz (9.7). */
export function applyBlitz(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  if (choice === 'blitz nonmotorized') return nonMotorized(p, s, ev);
  const mode = choice.slice('blitz '.length) as Mode;
  if (!blitzOptions(p, s, s.power).includes(mode)) throw new IllegalChoiceError(`'${choice}' is not a Blitz ${s.power} can call now`);
  const cost = BLITZ_COST[mode];
  if (cost) s.oil![s.power] = (s.oil![s.power] ?? 0) - cost;
  s.mode = mode;
  s.freeLeft = mode === 'free' ? 4 : 0;
  if (s.modes) {
    s.modes[s.power] = mode;
    s.freeBy![s.power] = s.freeLeft;
  }
  emit(ev, 'blitz', `${s.power} calls a ${mode[0]!.toUpperCase()}${mode.slice(1)} Blitz${cost ? ` for ${cost} Oil (${s.oil![s.power]} saved left)` : ''}`, s.power, { mode, cost, oilLeft: s.oil?.[s.power] ?? 0 });
}

/**
 * 9.7: a Land Blitz for one saved Resource; in it only one ARM, air or naval unit of the power may
 * move or fight (the first to do so; optional.ts `footBarred` holds back the rest).
 */
function nonMotorized(p: PackIndex, s: BlitzState, ev: Events): void {
  if (!nonMotorizedOption(p, s, s.power)) throw new IllegalChoiceError(`${s.power} cannot call a non-motorized Land Blitz now`);
  s.saved![s.power] = s.saved![s.power]! - 1;
  s.mode = 'land';
  s.freeLeft = 0;
  if (s.modes) {
    s.modes[s.power] = 'land';
    s.freeBy![s.power] = 0;
  }
  (s.nonMotorized ??= {})[s.power] = '';
  fired('9.7', s.scenario);
  emit(ev, 'blitz', `${s.power} calls a non-motorized Land Blitz for 1 saved Resource (${s.saved![s.power]} left); only one ARM, air or naval unit may move or fight in it`, s.power, { mode: 'land', nonMotorized: true, cost: 0, resourceCost: 1, resourcesLeft: s.saved![s.power]!, oilLeft: s.oil?.[s.power] ?? 0 });
}

// ---------------------------------------------------------------- turn end

/**
 * C.7: the build budget of `power` this turn: the chart's Resources (less Italy's, C.8) plus all its
 * Oil, saved and new; the Oil share is remembered so what is not spent can be saved.
 */
export function fixedBudget(p: PackIndex, s: BlitzState, power: string): number {
  const inc = sc(p, s).fixedIncome?.[power];
  if (!inc) return 0;
  const it = sc(p, s).italyExit;
  const loss = it && it.power === power && s.turn >= it.turn ? it.resourceLoss : 0;
  const oil = (s.oil?.[power] ?? 0) + inc.oil;
  (s.budgetOil ??= {})[power] = oil;
  if (s.oil) s.oil[power] = 0;
  return Math.max(0, inc.resources - loss) + oil;
}

/**
 * After the builds: whatever is left is saved (C.7), as Oil up to the Oil in the budget (an Oil does all
 * a Resource does, 7.8), or where Resources are saved too (D.9) split as the power chose (`saveSplit`).
 */
export function saveOil(s: BlitzState): void {
  if (!s.budgetOil) return;
  for (const [power, oil] of Object.entries(s.budgetOil)) {
    const left = (s.res[power] ?? 0) - spentOf(s, power);
    const chosen = s.saved ? s.saveOil?.[power] : undefined;
    // The choice stays within what the budget holds: no more Oil than its Oil, no more Resources than its Resources.
    const least = Math.max(0, left - ((s.res[power] ?? 0) - oil));
    const kept = chosen === undefined ? Math.max(0, Math.min(oil, left)) : Math.max(least, Math.min(oil, left, chosen));
    (s.oil ??= {})[power] = kept;
    // D.9: Resources are saved too where income comes from the map (7.6).
    if (s.saved) s.saved[power] = Math.max(0, left - kept);
  }
  s.budgetOil = {};
  delete s.saveOil;
}

/**
 * 7.8 (D12): where Resources are saved as well as Oil (D.9), the power chooses how what it left unspent
 * is kept: from as much Oil as its budget's Oil allows (the first option, what is kept when it has no
 * choice) down to as little as its budget's Resources allow. `save K oil R resources`; null when there
 * is only one way.
 */
export function saveSplit(s: BlitzState, power: string): string[] | null {
  if (!s.saved || !s.budgetOil) return null;
  const oil = s.budgetOil[power] ?? 0;
  const left = (s.res[power] ?? 0) - spentOf(s, power);
  const hi = Math.min(left, oil);
  const lo = Math.max(0, left - ((s.res[power] ?? 0) - oil));
  if (hi <= lo) return null;
  return Array.from({ length: hi - lo + 1 }, (_, i) => `save ${hi - i} oil ${left - hi + i} resources`);
}

export function applySaveSplit(s: BlitzState, power: string, choice: string): void {
  (s.saveOil ??= {})[power] = Number(choice.split(' ')[1]);
  fired('7.8', s.scenario);
}

/** One Group of a power's Weapons Development Chart as play sees it: its number, picks a turn and units in chart order. */
export interface WeaponGroup {
  n: number;
  picks: number;
  units: { unit: string; size: number }[];
}

/**
 * 7.3/7.8: `power`'s Groups in order. With a Weapons Development Chart (`weaponCharts`, the full game)
 * its Groups 1, 2, ...; else the simplified lists of the short scenarios: the Future Additions by their
 * `group` (1 when absent) with `picksPerTurn`, and the research Groups, which are a separate list there.
 */
export function weaponGroups(p: PackIndex, s: BlitzState, power: string, use: 'pick' | 'research'): WeaponGroup[] {
  const def = sc(p, s);
  const chart = def.weaponCharts?.[power];
  if (chart) return chart.groups.map((g, i) => ({ n: i + 1, picks: g.picks, units: g.units.map((x) => ({ unit: x.unit, size: x.size })) }));
  if (use === 'research') return (def.research?.[power] ?? []).map((g, i) => ({ n: i + 1, picks: 1, units: g.map((x) => ({ unit: x.unit, size: x.size })) }));
  const list = def.futureAdditions?.[power] ?? [];
  const per = def.picksPerTurn?.[power] ?? [1];
  const numbers = [...new Set(list.map((f) => f.group ?? 1))].sort((a, b) => a - b);
  return numbers.map((n) => ({ n, picks: per[Math.min(n, per.length) - 1]!, units: list.filter((f) => (f.group ?? 1) === n).map((f) => ({ unit: f.unit, size: f.size })) }));
}

/** Whether `power` has a chart or list to pick new weapons from at the builds (C.6, 7.3). */
export const picksWeapons = (p: PackIndex, s: BlitzState, power: string): boolean => sc(p, s).weaponCharts?.[power] !== undefined || sc(p, s).futureAdditions?.[power] !== undefined;

/**
 * 7.3/7.8: the current Group of `power`: the lowest with units not yet added (picked, drawn, removed
 * from the game, or otherwise in the Force Pool or on the map), and those units in chart order.
 */
export function currentGroup(p: PackIndex, s: BlitzState, power: string, use: 'pick' | 'research'): WeaponGroup | null {
  const gone = new Set(s.picked ?? []);
  for (const g of weaponGroups(p, s, power, use)) {
    const left = g.units.filter((f) => !gone.has(f.unit) && !(f.unit in s.pool) && !s.units[f.unit] && !(italian(p, f.unit) && italyGone(p, s)));
    if (left.length) return { ...g, units: left };
  }
  return null;
}

/**
 * C.6/7.3: the units `power` may still pick, in chart order: those of its current Group (7.3: a
 * Group's units all come before the next Group's).
 */
export function pickable(p: PackIndex, s: BlitzState, power: string): string[] {
  return currentGroup(p, s, power, 'pick')?.units.map((f) => f.unit) ?? [];
}

/** 7.3: how many units `power` may add a turn while picking from its current Group (1 unless the pack says). */
function picksAllowed(p: PackIndex, s: BlitzState, power: string): number {
  return currentGroup(p, s, power, 'pick')?.picks ?? 0;
}

/**
 * 7.3: where a Future Addition of a minor country goes: the Force Pool of the major power of `power`'s
 * side that the country is allied with (the one holding its first area in code-point order), or
 * `aside` while the country is neutral, conquered or enemy-allied. Other units go to `power`'s own.
 */
export function pickGoesTo(p: PackIndex, s: BlitzState, power: string, unit: string): string {
  const home = unitDef(p, unit).home;
  if (p.country.get(home)?.homeOf !== undefined) return power;
  if (s.conquered.includes(home)) return 'aside';
  const side = sideOf(p, s, power);
  const lands = (p.countryLands.get(home) ?? []).filter((l) => l in s.control).sort();
  const holder = lands.map((l) => s.control[l]!).find((h) => h !== 'neutral' && sc(p, s).powers.some((x) => x.id === h && x.side === side));
  return holder ?? 'aside';
}

/** What `power` has committed of its build budget this turn (builds, repairs, an Oil for a double pick; not the picks). */
export function spentOf(s: BlitzState, power: string): number {
  // Picks and research draws cost nothing here (research is paid by its own entry); a free GAR nothing;
  // what China's earmarked income paid for (E.4) does not come out of the general budget, except under a
  // neutral power's limit (7.7), which counts Chinese units within it.
  const capped = isNeutral(s, power);
  return (s.hidden[power] ?? []).reduce((t, h) => t + (h.at === 'pool' || h.at === 'drawn' || h.free ? 0 : h.size - (capped ? 0 : (h.earmarked ?? 0))), 0);
}

const picksMade = (s: BlitzState, power: string) => (s.hidden[power] ?? []).filter((h) => h.at === 'pool').length;
const doubling = (s: BlitzState, power: string) => (s.hidden[power] ?? []).some((h) => h.at === 'oil');

/**
 * Whether `power` may pick a Future Addition now (C.6, 7.3): as many a turn as its chart allows from
 * its current Group (one unless the pack says more; 7.3's example: a unit picked from Group 3 uses up
 * Group 4's one for that turn); a second where one is allowed only as a double pick, paid with one Oil
 * of this turn's budget, while its allowance lasts.
 */
export function canPick(p: PackIndex, s: BlitzState, power: string): boolean {
  if (!picksWeapons(p, s, power) || pickable(p, s, power).length === 0) return false;
  const made = picksMade(s, power);
  const allowed = picksAllowed(p, s, power);
  if (made < allowed) return true;
  if (made > 1 || allowed > 1 || doubling(s, power)) return false;
  return (s.doublePicks?.[power] ?? 0) > 0 && (s.budgetOil?.[power] ?? 0) >= 1 && (s.res[power] ?? 0) - spentOf(s, power) >= 1;
}

/**
 * Choose a Future Addition: it joins the Force Pool at once (another power's from next turn: 7.3, a
 * minor's unit goes to its ally's; set aside while it has none); the other side learns of it with the
 * builds (1.9).
 */
export function applyPick(p: PackIndex, s: BlitzState, power: string, unit: string): void {
  if (!canPick(p, s, power) || !pickable(p, s, power).includes(unit)) throw new IllegalChoiceError(`${power} cannot pick ${unit} now`);
  if (picksMade(s, power) >= picksAllowed(p, s, power)) {
    // The second pick of a turn is a double pick: one Oil, and one of the power's allowance (C.6).
    s.doublePicks![power] = (s.doublePicks![power] ?? 0) - 1;
    s.budgetOil![power] = (s.budgetOil![power] ?? 0) - 1;
    (s.hidden[power] ??= []).push({ unit: 'oil', size: 1, at: 'oil' });
  }
  const f = currentGroup(p, s, power, 'pick')!.units.find((x) => x.unit === unit)!;
  const to = addWeapon(p, s, power, unit, f.size);
  (s.hidden[power] ??= []).push({ unit, size: f.size, at: 'pool', ...(to !== power ? { to } : {}) });
  fired('7.3', s.scenario);
}

/**
 * 7.3: `unit` (of `size`), picked or drawn by `power`, joins a Force Pool: `power`'s own at once, or
 * for a minor country's unit that of its ally on `power`'s side from next turn, or it is set aside
 * while the country has none (remembered with its picker, to come back when the country aligns with
 * that side: `alignedPicks`). Returns where it went (`pickGoesTo`).
 */
export function addWeapon(p: PackIndex, s: BlitzState, power: string, unit: string, size: number): string {
  const to = pickGoesTo(p, s, power, unit);
  (s.picked ??= []).push(unit);
  if (to === 'aside') {
    // 7.3: set aside until its country is allied; 3.4's liberation brings such units back.
    const home = unitDef(p, unit).home;
    s.setAside = { ...s.setAside, [home]: [...(s.setAside?.[home] ?? []), unit].sort() };
    s.asidePicks = { ...s.asidePicks, [unit]: { by: power, size } };
  } else if (to === power) s.pool[unit] = { size, from: 0 };
  else toAllyPool(p, s, to, unit, size, s.turn + 1);
  return to;
}

/** A minor's unit joins the Force Pool of `to`, with a record of whose it is when `to` does not run its nation (7.3). */
function toAllyPool(p: PackIndex, s: BlitzState, to: string, unit: string, size: number, from: number): void {
  const runs = sc(p, s).powers.find((x) => x.id === to)!.nations.includes(unitDef(p, unit).nation);
  s.pool[unit] = { size, from, ...(runs ? {} : { power: to }) };
}

/**
 * 7.3: `country` has just allied with `power` (3.2, 3.3): the units a major power of `power`'s side
 * added while the country was neutral or enemy-allied, and set aside for it, join the Force Pool of
 * `power`, its controlling major power, at once. (A conquered country's come back with its liberation
 * instead, a unit at a time, 3.4.)
 */
export function alignedPicks(p: PackIndex, s: BlitzState, country: string, power: string, ev: Events): void {
  if (!s.asidePicks) return;
  const side = sideOf(p, s, power);
  const back = (s.setAside?.[country] ?? []).filter((u) => s.asidePicks![u] && sideOf(p, s, s.asidePicks![u]!.by) === side);
  if (!back.length) return;
  for (const u of back) {
    toAllyPool(p, s, power, u, s.asidePicks[u]!.size, s.turn);
    const { [u]: _, ...rest } = s.asidePicks;
    s.asidePicks = rest;
  }
  const left = s.setAside![country]!.filter((u) => !back.includes(u));
  const { [country]: _, ...others } = s.setAside!;
  s.setAside = left.length ? { ...others, [country]: left } : others;
  if (!Object.keys(s.asidePicks).length) delete s.asidePicks;
  fired('7.3', s.scenario);
  emit(ev, 'set-aside-return', `${back.map((u) => unitName(p, u)).join(', ')} ${back.length > 1 ? 'join' : 'joins'} ${power}'s Force Pool as ${p.files.map.countries.find((c) => c.id === country)?.name ?? country} allies with it`, power, { country, units: back });
}

/**
 * 7.3: the Future Additions `power` may remove from the game instead of picking them: those of a
 * minor country that is neutral, conquered or enemy-allied (`aside`), in its current Group. A removal
 * does not count against the picks.
 */
export function removable(p: PackIndex, s: BlitzState, power: string): string[] {
  return pickable(p, s, power).filter((u) => pickGoesTo(p, s, power, u) === 'aside');
}

export function applyRemove(p: PackIndex, s: BlitzState, power: string, unit: string, ev: Events): void {
  if (!removable(p, s, power).includes(unit)) throw new IllegalChoiceError(`${power} cannot remove ${unit} now`);
  (s.picked ??= []).push(unit);
  fired('7.3', s.scenario);
  emit(ev, 'weapon-removed', `${power} removes ${unitName(p, unit)} from the game`, power, { unit });
}

// ---------------------------------------------------------------- C.8 Italy

export const italian = (p: PackIndex, unit: string): boolean => unitDef(p, unit).home === 'italy';
/** Italy has left: from the builds of the exit turn on (C.8 removes its units before Germany builds). */
export const italyGone = (p: PackIndex, s: BlitzState): boolean => {
  const it = sc(p, s).italyExit;
  return it !== undefined && (s.turn > it.turn || (s.turn === it.turn && s.impulse === 5));
};

/** C.8: before Germany's builds on the exit turn, its Italian Force Pool units leave the game. */
export function italyLeaves(p: PackIndex, s: BlitzState, ev: Events): void {
  const it = sc(p, s).italyExit;
  if (!it || s.turn !== it.turn) return;
  const leaving = Object.keys(s.pool).filter((id) => italian(p, id) && (s.units[id]?.at ?? 'pool') === 'pool').sort();
  for (const id of leaving) {
    delete s.pool[id];
    if (s.units[id]) moveUnit(s, s.units[id]!, 'gone');
  }
  emit(ev, 'italy-exits', `Italy leaves the war: ${leaving.length ? leaving.map((x) => unitName(p, x)).join(', ') + ' leave the German Force Pool' : 'no Italian unit was in the Force Pool'}; Germany has ${it.resourceLoss} Resource less from now on`, it.power, { units: leaving });
}

// ---------------------------------------------------------------- victory points

/**
 * Scenario C's turn-end scoring (set-up chart, estimated): points per damage on the enemy's Convoys,
 * and per own Lend Lease unit at sea in its named sea. Scored before Convoy damage is cleared.
 */
export function scoreTurn(p: PackIndex, s: BlitzState, ev: Events): void {
  const vp = sc(p, s).vp;
  if (!vp) return;
  const gained: Record<string, number> = {};
  for (const [power, rate] of Object.entries(vp.convoyDamage)) {
    const side = sideOf(p, s, power);
    let dmg = 0;
    for (const c of p.files.map.convoys ?? []) {
      const owner = sc(p, s).powers.find((x) => x.nations.includes(c.nation));
      if (owner && owner.side === enemy(side)) dmg += s.convoys?.[c.id] ?? 0;
    }
    gained[power] = (gained[power] ?? 0) + rate * dmg;
  }
  for (const [power, rate] of Object.entries(vp.lendLease)) {
    const ll = onMap(s).filter(([, u]) => u.power === power && typeOf(p, u) === 'LL' && u.at === `sea:${unitDef(p, u.def).llSea ?? ''}`).length;
    gained[power] = (gained[power] ?? 0) + rate * ll;
  }
  for (const [power, n] of Object.entries(gained)) (s.vp ??= {})[power] = (s.vp?.[power] ?? 0) + n;
  emit(ev, 'victory-points', `Victory points on Turn ${s.turn}: ${Object.entries(gained).map(([pw, n]) => `${pw} +${n}`).join(', ')}; totals ${Object.entries(s.vp ?? {}).map(([pw, n]) => `${pw} ${n}`).join(', ')}`, undefined, { turn: s.turn, gained, totals: { ...(s.vp ?? {}) } });
}
