/**
 * Read-only questions about a state: who controls what, which units are where, unit factors.
 */
import type { UnitSide } from '../pack/schema.ts';
import { KIND_AIR, KIND_LAND, KIND_NAVAL, kindOfType, landDef, scenarioDef, scenarioIndex, unitDef, unitKindsOf, type PackIndex } from './pack-index.ts';
import type { BlitzState, SideId, UnitState } from './state.ts';
import { fired } from './sections.ts';
import { allyAreaBarred, hostileLand, hostileUnit, type Viewer } from './wars.ts';
import { clearUnitLog, unitLog, type UnitLog } from './unit-writes.ts';

export { LAND_TYPES, NAVAL_TYPES } from './pack-index.ts';

/** The sides of the scenario asked last (asked for nearly every unit of every option). */
let sidesPack: PackIndex | null = null;
let sidesScenario = '';
let sides: ReadonlyMap<string, SideId> = new Map();

export function sideOf(p: PackIndex, s: BlitzState, power: string): SideId {
  if (p !== sidesPack || s.scenario !== sidesScenario) {
    sides = scenarioIndex(p, s.scenario).sideOf;
    sidesPack = p;
    sidesScenario = s.scenario;
  }
  const side = sides.get(power);
  if (!side) throw new Error(`power '${power}' is not in scenario ${s.scenario}`);
  return side;
}

export function powerOfSide(p: PackIndex, s: BlitzState, side: SideId): string {
  const pw = scenarioDef(p, s.scenario).powers.find((x) => x.side === side);
  if (!pw) throw new Error(`scenario ${s.scenario} has no power on side ${side}`);
  return pw.id;
}

/**
 * 7.2 in Scenario F: a neutral major power is out of the activities and Blitzes (not the turn end):
 * it takes no steps, its areas count as neutral territory and its units at sea are out of the war.
 * In the full game (a war matrix, wars.ts) neutral powers act, within the limits of 4.2, 5.1 and 5.2.
 */
export const inactive = (s: BlitzState, power: string): boolean => s.impulse !== 5 && !s.wars && (s.neutral?.includes(power) ?? false);

/** The powers of `side` in the scenario's order (2.1: the order they act in within each step). */
export function sidePowers(p: PackIndex, s: BlitzState, side: SideId): string[] {
  // 7.2: a neutral major power takes no part in the activities and Blitzes; 3.4: nor does one out of the game.
  return scenarioDef(p, s.scenario).powers.filter((x) => x.side === side && !inactive(s, x.id) && !s.out?.includes(x.id)).map((x) => x.id);
}

/**
 * The powers whose impulse it is, for search bots (`BotModel.phasing`): the phasing side's in play
 * (2.1); at the turn end and in the Road to War (9.2), where each power builds or picks on its own
 * account, every power of the scenario.
 */
export function phasingPowers(p: PackIndex, s: BlitzState): readonly string[] {
  if (s.impulse === 5 || s.roadToWar) return scenarioDef(p, s.scenario).powers.map((x) => x.id);
  return sidePowers(p, s, s.side);
}

/**
 * Whether one combat is under way, for search bots (`BotModel.inCombat`): a land area combat from the
 * attack picked to resolve until it closes (6), a sea area combat (4.4), E's frontier attack once its
 * target is picked.
 */
export function inCombat(s: BlitzState): boolean {
  return s.combat !== null || (s.sea ?? null) !== null || (s.frontierAttack !== undefined && s.frontierAttack.stage !== 'pick');
}

/**
 * The power of `side` that answers for units in a combat: `prefer` if it is on that side, else the
 * first power of the side owning any of `units`, else the side's first power.
 */
export function answeringPower(p: PackIndex, s: BlitzState, side: SideId, units: readonly string[], prefer?: string): string {
  if (prefer && sideOf(p, s, prefer) === side) return prefer;
  const owners = new Set(units.map((x) => s.units[x]?.power));
  return sidePowers(p, s, side).find((x) => owners.has(x)) ?? powerOfSide(p, s, side);
}

/** `mostFactorsPower`'s sums by power (scratch, reset per call). */
const sumPowers: string[] = [];
const sums: number[] = [];

/**
 * 6.5 (and 6.6 for Land Round letters): the power that makes `side`'s picks in a combat round: the
 * one whose units bring the most Factors to the round. `factors` lists the side's units in the round
 * with the Factors each brings (0 for a unit that is only a target), so every power there is a
 * candidate. The rules give the enemy's picks to its power with the most Factors and the first pick to
 * "you"; on a side of several powers we read "you" the same way (our reading). A tie is not covered by
 * the rules: it goes to `fallback` (the attacking power, or the area's holder, who answers for the side
 * otherwise) if that power is among the tied, else to the tied power first in the side's order (our
 * stand-in). No units at all: `fallback`.
 */
export function mostFactorsPower(p: PackIndex, s: BlitzState, side: SideId, factors: Iterable<readonly [string, number]>, fallback: string): string {
  // Sums by power in the order the powers first appear.
  let n = 0;
  for (const [id, f] of factors) {
    const pw = s.units[id]?.power;
    if (pw === undefined) continue;
    let k = 0;
    while (k < n && sumPowers[k] !== pw) k++;
    if (k === n) {
      sumPowers[n] = pw;
      sums[n++] = 0 + f;
    } else sums[k]! += f;
  }
  if (!n) return fallback;
  let top = -Infinity;
  for (let k = 0; k < n; k++) top = Math.max(top, sums[k]!);
  let only: string | null = null;
  let count = 0;
  for (let k = 0; k < n; k++) {
    if (sums[k] !== top) continue;
    count++;
    only = sumPowers[k]!;
  }
  if (count === 1) return only!;
  const tied: string[] = [];
  for (let k = 0; k < n; k++) if (sums[k] === top) tied.push(sumPowers[k]!);
  if (tied.includes(fallback)) return fallback;
  return sidePowers(p, s, side).find((x) => tied.includes(x)) ?? [...tied].sort()[0]!;
}

/**
 * 2.2: in an Air Blitz only the power's air units act (return to base, move to sea, rebase, combat);
 * its land and naval units stay put (its CVs at sea may still join a Port Attack it announces, 5.3).
 */
export const airBlitzBars = (p: PackIndex, s: BlitzState, u: UnitState): boolean => s.mode === 'air' && !isAir(p, u);

export const enemy = (side: SideId): SideId => (side === 'Axis' ? 'Allies' : 'Axis');

/** The unit's type at its current Size: a CV's counter may show a BB on a reduced side (6.5, `type` of a side). */
export function typeOf(p: PackIndex, u: UnitState): string {
  const k = unitKindsOf(p, u.def);
  const t = k.type[u.size];
  if (t !== undefined) return t;
  const d = k.def;
  return d.type === 'CV' ? (d.sizes[String(u.size) as '1']?.type ?? 'CV') : d.type;
}

/** The unit's kind bits at its current Size (pack-index.ts `UnitKinds`). */
function kindOf(p: PackIndex, u: UnitState): number {
  const k = unitKindsOf(p, u.def);
  const b = k.kind[u.size];
  if (b !== undefined) return b;
  return kindOfType(typeOf(p, u));
}

/**
 * 6.5: whether unit `id`, a CV's counter, turned BB by losses in the Air Round logged last in `log` (it
 * fought there): it still counts as an air unit for that round's returns to base.
 */
export function turnedBattleship(p: PackIndex, s: BlitzState, id: string, log: readonly { round?: unknown; attackers?: unknown; defenders?: unknown }[]): boolean {
  const u = s.units[id]!;
  if (unitDef(p, u.def).type !== 'CV' || typeOf(p, u) !== 'BB') return false;
  const air = log.at(-1);
  return air?.round === 'air' && [air.attackers, air.defenders].some((l) => Array.isArray(l) && l.includes(id));
}

export const isLand = (p: PackIndex, u: UnitState) => (kindOf(p, u) & KIND_LAND) !== 0;
export const isAir = (p: PackIndex, u: UnitState) => (kindOf(p, u) & KIND_AIR) !== 0;
export const isNaval = (p: PackIndex, u: UnitState) => (kindOf(p, u) & KIND_NAVAL) !== 0;
/** 1.2, 6.1: a V-Weapon, the special German air unit that skips the Air Round for the Strategic Round. */
export const isVWeapon = (p: PackIndex, u: UnitState) => unitDef(p, u.def).vWeapon === true;
/** 6: a one-shot air unit (an asterisk after its name), destroyed in the first combat round it takes part in. */
export const isOneShot = (p: PackIndex, u: UnitState) => unitDef(p, u.def).oneShot === true;

/** The counter side showing at the unit's current Size. */
export function face(p: PackIndex, u: UnitState): UnitSide {
  const k = unitKindsOf(p, u.def);
  const f = k.face[u.size] ?? k.def.sizes[String(u.size) as '1'];
  if (!f) throw new Error(`unit ${u.def} has no Size-${u.size} side`);
  return f;
}

export function maxSize(p: PackIndex, def: string): number {
  return Math.max(...Object.keys(unitDef(p, def).sizes).map(Number));
}

/** Units on the map (not in the pool or gone), sorted by id: the canonical order of option lists. */
export function onMap(s: BlitzState): [string, UnitState][] {
  const x = indexFor(s);
  return x ? handOut((x.onMap ??= onMapOf(x))) : scanOnMap(s);
}

/**
 * The units at sea, in the state's order (a new list): read off the unit index's locations where there
 * is one for `s` (an array pass, not a walk of the units record), else by a scan.
 */
export function unitsAtSea(s: BlitzState): UnitState[] {
  const out: UnitState[] = [];
  const x = indexFor(s);
  if (x) {
    const { ats, refs } = x;
    for (let i = 0; i < ats.length; i++) if (ats[i]!.charCodeAt(0) === 115 /* s */ && ats[i]!.startsWith('sea:')) out.push(refs[i]!);
    return out;
  }
  for (const id in s.units) {
    const u = s.units[id]!;
    if (u.at.charCodeAt(0) === 115 /* s */ && u.at.startsWith('sea:')) out.push(u);
  }
  return out;
}

function scanOnMap(s: BlitzState): [string, UnitState][] {
  const out: [string, UnitState][] = [];
  let sorted = true;
  for (const id in s.units) {
    const u = s.units[id]!;
    if (u.at !== 'pool' && u.at !== 'gone') {
      if (sorted && out.length && id < out[out.length - 1]![0]) sorted = false;
      out.push([id, u]);
    }
  }
  return sorted ? out : sortPairs(out);
}

/**
 * While a read-only question is worked out (`readOnly`), units by location and by owner, and the units
 * on the map, are indexed once for the state being asked about; every stacking and occupancy test then
 * costs a lookup, not a pass. The lists handed out then are shared: callers only read them. Derived
 * answers other modules keep for the same span hang off `memo` (see `frozenMemo`).
 */
interface Frozen {
  s: BlitzState;
  /** The state's unit index, checked against it once in this span (see `unitIndex`). */
  units: UnitIndex | null;
  memo: Map<string, unknown> | null;
}
let frozen: Frozen | null = null;

/**
 * A cache for answers derived from `s` alone, kept while a read-only question about `s` is worked out
 * (`readOnly`); null outside one, where the answer must be worked out afresh.
 */
export function frozenMemo(s: BlitzState): Map<string, unknown> | null {
  return frozen && frozen.s === s ? (frozen.memo ??= new Map()) : null;
}

/**
 * What control as the rules read it depends on (`controllerSide`: 1.5, 3.2, 7.2): who holds each land
 * area, the war matrix, the neutral powers and whether it is the turn end. `controlStamp` gives a number
 * that stays the same while all of these do, and changes when any does; answers derived from them alone
 * (neutral land as a power sees it, the control part of supply's fingerprint, naval distances) are kept
 * against it from one question to the next.
 *
 * Every write to a state's `control` goes through `setControl`, which counts it against that control
 * record (kept beside it, not in it: the state's JSON and hash are what they were), so the check is a
 * few comparisons, not a pass over the ~111 areas. The matrix only grows (`makeWar` pushes) or is
 * replaced, and the neutral list is replaced, so their identity and length tell whether they changed.
 */
interface ControlSnap {
  control: Record<string, string>;
  writes: number;
  wars: string[] | undefined;
  nWars: number;
  neutral: string[] | undefined;
  nNeutral: number;
  turnEnd: boolean;
  stamp: number;
}
/** Writes through `setControl`, per control record. */
const controlWrites = new WeakMap<Record<string, string>, number>();
/** The snapshot each control record was last stamped under (a state asked again after another keeps its stamp). */
const controlSnaps = new WeakMap<Record<string, string>, ControlSnap>();
let lastSnap: ControlSnap | null = null;
let controlStamps = 0;

/**
 * Give land area `land` of `s` to `holder` (a power, or `neutral`): every write to `control` comes here
 * (see `controlStamp`). A write straight into `s.control` (a test's too) is not counted: answers kept
 * against the stamp (supply, distances, neutral land) would go on being given for the control before it.
 */
export function setControl(s: BlitzState, land: string, holder: string): void {
  const c = s.control;
  if (c[land] === holder) return;
  c[land] = holder;
  controlWrites.set(c, (controlWrites.get(c) ?? 0) + 1);
}

const snapHolds = (x: ControlSnap, s: BlitzState, writes: number): boolean =>
  x.writes === writes && x.wars === s.wars && x.nWars === (s.wars ? s.wars.length : -1) && x.neutral === s.neutral && x.nNeutral === (s.neutral ? s.neutral.length : -1) && x.turnEnd === (s.impulse === 5);

export function controlStamp(s: BlitzState): number {
  const c = s.control;
  const writes = controlWrites.get(c) ?? 0;
  let x = lastSnap;
  if (x !== null && x.control === c && snapHolds(x, s, writes)) return x.stamp;
  x = controlSnaps.get(c) ?? null;
  if (x === null || !snapHolds(x, s, writes)) {
    x = { control: c, writes, wars: s.wars, nWars: s.wars ? s.wars.length : -1, neutral: s.neutral, nNeutral: s.neutral ? s.neutral.length : -1, turnEnd: s.impulse === 5, stamp: ++controlStamps };
    controlSnaps.set(c, x);
  }
  lastSnap = x;
  return x.stamp;
}

/** Run `f`, which must not change `s`, with the units-by-location index (see `unitsAt`). */
export function readOnly<T>(s: BlitzState, f: () => T): T {
  if (frozen) return f();
  frozen = { s, units: null, memo: null };
  try {
    return f();
  } finally {
    frozen = null;
  }
}

/**
 * `readOnly` without a function to call, for the hottest caller (a closure made per question costs an
 * allocation): `enterReadOnly(s)` opens the span about `s` unless one is open, and says whether it
 * did; `leaveReadOnly` with that answer closes it, in a `finally`.
 */
export function enterReadOnly(s: BlitzState): boolean {
  if (frozen) return false;
  frozen = { s, units: null, memo: null };
  return true;
}
export function leaveReadOnly(opened: boolean): void {
  if (opened) frozen = null;
}


/**
 * Units by location, by owner and on the map, kept from one read-only question to the next
 * (`applyOwned` builds each state in the one before). The index keeps, unit by unit in `s.units` order,
 * the id, record, location and owner it was built from. Asked again about the units record it last
 * read, it takes what changed from that record's write log (unit-writes.ts: every rules write to a unit
 * goes through it) and patches those units in; asked about another record (a copy made by `apply`,
 * another state), or after units were added or removed, one pass comparing every unit tells whether
 * the lists still hold. Other members (Size, step flags) are read through the records, which the lists
 * share with the state.
 */
interface UnitIndex {
  /** The units record the index was last brought up to date with, its log read then. */
  record: Record<string, UnitState> | null;
  /** Slot by id and by record, made when a log is first read after a pass (null: to be made). */
  slotOfId: Map<string, number> | null;
  slotOfRef: Map<UnitState, number> | null;
  ids: string[];
  refs: UnitState[];
  ats: string[];
  powers: string[];
  /** `[id, record]` per unit, as handed out in the lists. */
  pairs: [string, UnitState][];
  byAt: Map<string, [string, UnitState][]> | null;
  /** Land units by location (see `landUnitsIn`). */
  landAt: Map<string, [string, UnitState][]> | null;
  owned: Map<string, [string, UnitState][]> | null;
  onMap: [string, UnitState][] | null;
}
/**
 * One index for whichever state asks: the check compares records too, so it holds for any state whose
 * units are the same records in the same places, and is otherwise brought up to date in place (the
 * copying `apply` path, a new state each step, then rebuilds the lists and reuses the arrays).
 */
const shared: UnitIndex = { record: null, slotOfId: null, slotOfRef: null, ids: [], refs: [], ats: [], powers: [], pairs: [], byAt: null, landAt: null, owned: null, onMap: null };

/** The unit index of `s` within a read-only span, checked against `s` the first time the span asks. */
function checkedIndex(s: BlitzState): UnitIndex {
  return (frozen!.units ??= unitIndex(s));
}

/**
 * The unit index for a question about `s`: within a read-only span about `s`, the span's; outside any
 * span (a rules step applying a choice), brought up to date from the write log at every ask, so a list
 * reflects the writes before it (lists handed out are never changed: a caller iterating one while it
 * moves units sees the units as they were). Null within a span about another state, whose index the
 * shared one is (such questions scan).
 */
function indexFor(s: BlitzState): UnitIndex | null {
  if (frozen === null) return unitIndex(s);
  return frozen.s === s ? checkedIndex(s) : null;
}

/** At most this many units changed since the index was last checked are patched in; more rebuild the lists. */
const PATCH_LIMIT = 8;
const changedSlots: number[] = [];
const changedAts: string[] = [];
const changedPowers: string[] = [];
const changedPairs: [string, UnitState][] = [];

/** Compare the index with a full pass at every question (tests: a write that bypassed unit-writes.ts throws). */
let checkLog = false;
export function checkUnitLog(on: boolean): void {
  checkLog = on;
}

function unitIndex(s: BlitzState): UnitIndex {
  const x = shared;
  if (x.record === s.units) {
    const l = unitLog(s.units);
    if (l === undefined || (!l.full && !l.moved.length && !l.put.length)) return checked(x, s);
    if (!l.full) {
      patchFromLog(x, s, l);
      clearUnitLog(s.units);
      return checked(x, s);
    }
  }
  return fullPass(x, s);
}

/** `x` after `checkUnitLog(true)` has compared it with the units of `s`. */
function checked(x: UnitIndex, s: BlitzState): UnitIndex {
  if (!checkLog) return x;
  let i = 0;
  for (const id in s.units) {
    const u = s.units[id]!;
    if (x.ids[i] !== id || x.refs[i] !== u || x.ats[i] !== u.at || x.powers[i] !== u.power) throw new Error(`unit index: unit ${id} changed without unit-writes.ts`);
    i++;
  }
  if (i !== x.ids.length) throw new Error('unit index: units added or removed without unit-writes.ts');
  return x;
}

/** Up to this many units, a slot is found by a search of the index's arrays; more, through maps made on demand. */
const SLOT_SEARCH = 32;

/** Bring `x` up to date with the units of `s` named in its log `l` (moved records, replaced ids). */
function patchFromLog(x: UnitIndex, s: BlitzState, l: UnitLog): void {
  const { ids, refs } = x;
  const search = ids.length <= SLOT_SEARCH;
  let byRef = x.slotOfRef;
  let byId = x.slotOfId;
  if (!search && !byRef) {
    byRef = x.slotOfRef = new Map();
    for (let i = 0; i < refs.length; i++) byRef.set(refs[i]!, i);
  }
  if (!search && !byId) {
    byId = x.slotOfId = new Map();
    for (let i = 0; i < ids.length; i++) byId.set(ids[i]!, i);
  }
  let n = 0;
  // A record moved after it left the state: no slot, nothing to do.
  for (const u of l.moved) {
    const i = search ? refs.indexOf(u) : (byRef!.get(u) ?? -1);
    if (i >= 0) n = noteSlot(x, s, i, n);
  }
  for (const id of l.put) {
    const i = search ? ids.indexOf(id) : (byId!.get(id) ?? -1);
    if (i >= 0) n = noteSlot(x, s, i, n);
  }
  if (n > PATCH_LIMIT) dropLists(x);
  else for (let k = 0; k < n; k++) patchIndex(x, changedSlots[k]!, changedAts[k]!, changedPowers[k]!, changedPairs[k]!);
}

/**
 * Bring slot `i` of `x` up to date with its unit in `s`, noting what the lists held for it as change `n`
 * (if the unit changed at all: a slot named twice in a log is up to date the second time); the changes
 * noted so far.
 */
function noteSlot(x: UnitIndex, s: BlitzState, i: number, n: number): number {
  const { ids, refs, ats, powers, pairs } = x;
  const id = ids[i]!;
  const u = s.units[id]!;
  if (refs[i] === u && ats[i] === u.at && powers[i] === u.power) return n;
  if (n < PATCH_LIMIT) {
    changedSlots[n] = i;
    changedAts[n] = ats[i]!;
    changedPowers[n] = powers[i]!;
    changedPairs[n] = pairs[i]!;
  }
  if (refs[i] !== u) {
    if (x.slotOfRef) {
      x.slotOfRef.delete(refs[i]!);
      x.slotOfRef.set(u, i);
    }
    refs[i] = u;
    pairs[i] = [id, u];
  }
  ats[i] = u.at;
  powers[i] = u.power;
  return n + 1;
}

function dropLists(x: UnitIndex): void {
  unseen.clear();
  x.byAt = null;
  x.landAt = null;
  x.owned = null;
  x.onMap = null;
}

/** Bring `x` up to date with `s` by one pass comparing every unit (another record, or units added or removed). */
function fullPass(x: UnitIndex, s: BlitzState): UnitIndex {
  const { ids, refs, ats, powers, pairs } = x;
  x.record = s.units;
  clearUnitLog(s.units);
  // Units whose location, owner or record changed, with what the lists hold for them (`changed*`).
  let n = 0;
  let rebuild = false;
  let i = 0;
  for (const id in s.units) {
    const u = s.units[id]!;
    if (i < ids.length && ids[i] === id) {
      if (refs[i] !== u || ats[i] !== u.at || powers[i] !== u.power) {
        if (n < PATCH_LIMIT) {
          changedSlots[n] = i;
          changedAts[n] = ats[i]!;
          changedPowers[n] = powers[i]!;
          changedPairs[n] = pairs[i]!;
        } else rebuild = true;
        n++;
        if (refs[i] !== u) {
          refs[i] = u;
          pairs[i] = [id, u];
        }
        ats[i] = u.at;
        powers[i] = u.power;
      }
    } else {
      rebuild = true;
      ids[i] = id;
      refs[i] = u;
      ats[i] = u.at;
      powers[i] = u.power;
      pairs[i] = [id, u];
    }
    i++;
  }
  if (i !== ids.length) {
    rebuild = true;
    ids.length = refs.length = ats.length = powers.length = pairs.length = i;
  }
  // Ids in other slots, or other records in them: the slot maps are made again when a log is read.
  if (rebuild) x.slotOfId = null;
  if (n || rebuild) x.slotOfRef = null;
  if (rebuild) dropLists(x);
  else for (let k = 0; k < n; k++) patchIndex(x, changedSlots[k]!, changedAts[k]!, changedPowers[k]!, changedPairs[k]!);
  return x;
}

const onMapAt = (at: string): boolean => at !== 'pool' && at !== 'gone';

/**
 * Lists the patches below made that no caller has been handed yet (`handOut` takes a list out as it
 * goes to a caller): only these may be changed in place. Every other list may be held by a caller.
 */
const unseen = new Set<[string, UnitState][]>();

/** `list`, leaving `unseen` as it goes to a caller (from then on it is never changed). */
function handOut(list: [string, UnitState][]): [string, UnitState][] {
  if (unseen.size !== 0) unseen.delete(list);
  return list;
}

/**
 * Bring the built lists up to date for one unit (slot `i`) that was at `oldAt`, owned by `oldPower`, as
 * `oldPair`. Lists handed out earlier are never changed (a caller may still hold one): each list the
 * unit leaves or joins is replaced by a new one, in id order as a rebuild would give it, unless a patch
 * made it and nobody was handed it since (`unseen`), which is changed in place. Land units by
 * location are dropped for the two locations, to be filtered again on demand.
 */
function patchIndex(x: UnitIndex, i: number, oldAt: string, oldPower: string, oldPair: [string, UnitState]): void {
  const at = x.ats[i]!;
  const power = x.powers[i]!;
  const pair = x.pairs[i]!;
  const wasOn = onMapAt(oldAt);
  const isOn = onMapAt(at);
  if (x.byAt) {
    if (wasOn) listWithout(x.byAt, oldAt, oldPair, true);
    if (isOn) listWith(x.byAt, at, pair, true);
  }
  if (x.landAt) {
    x.landAt.delete(oldAt);
    x.landAt.delete(at);
  }
  if (x.owned) {
    if (wasOn) listWithout(x.owned, oldPower, oldPair, false);
    if (isOn) listWith(x.owned, power, pair, false);
  }
  if (x.onMap) {
    let list = x.onMap;
    if (wasOn) list = without(list, oldPair);
    if (isOn) list = withSorted(list, pair);
    x.onMap = list;
  }
}

/**
 * `m`'s list at `key` without `pair`. `complete`: `m` holds every non-empty list (by location), so an
 * emptied one goes; otherwise (by owner) lists are built on demand and an empty one is an answer.
 */
function listWithout(m: Map<string, [string, UnitState][]>, key: string, pair: [string, UnitState], complete: boolean): void {
  const list = m.get(key);
  if (!list) return;
  const out = without(list, pair);
  if (complete && !out.length) {
    m.delete(key);
    unseen.delete(out);
  }
  else m.set(key, out);
}

/** `m`'s list at `key` with `pair` (`complete` as for `listWithout`: a missing list there means none). */
function listWith(m: Map<string, [string, UnitState][]>, key: string, pair: [string, UnitState], complete: boolean): void {
  const list = m.get(key);
  if (list) m.set(key, withSorted(list, pair));
  else if (complete) {
    const out: [string, UnitState][] = [pair];
    unseen.add(out);
    m.set(key, out);
  }
}

function without(list: [string, UnitState][], pair: [string, UnitState]): [string, UnitState][] {
  if (unseen.has(list)) {
    // In place, without `splice` (it allocates the list of what it removed).
    let k = 0;
    for (let i = 0; i < list.length; i++) if (list[i] !== pair) list[k++] = list[i]!;
    list.length = k;
    return list;
  }
  const out: [string, UnitState][] = [];
  for (const q of list) if (q !== pair) out.push(q);
  unseen.add(out);
  return out;
}

function withSorted(list: [string, UnitState][], pair: [string, UnitState]): [string, UnitState][] {
  const id = pair[0];
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid]![0] < id) lo = mid + 1;
    else hi = mid;
  }
  if (unseen.has(list)) {
    for (let k = list.length; k > lo; k--) list[k] = list[k - 1]!;
    list[lo] = pair;
    return list;
  }
  const out = list.slice(0, lo);
  out.push(pair);
  for (let k = lo; k < list.length; k++) out.push(list[k]!);
  unseen.add(out);
  return out;
}

const byId = (a: [string, UnitState], b: [string, UnitState]): number => (a[0] < b[0] ? -1 : 1);

/**
 * `list` in id order (ids are unique), in place: a short list by insertion (the built-in sort allocates
 * a work array per call), a long one by the built-in sort.
 */
function sortPairs(list: [string, UnitState][]): [string, UnitState][] {
  const n = list.length;
  if (n > 16) return list.sort(byId);
  for (let i = 1; i < n; i++) {
    const x = list[i]!;
    let j = i - 1;
    while (j >= 0 && list[j]![0] > x[0]) {
      list[j + 1] = list[j]!;
      j--;
    }
    list[j + 1] = x;
  }
  return list;
}

function indexByAt(x: UnitIndex): Map<string, [string, UnitState][]> {
  const m = new Map<string, [string, UnitState][]>();
  // Lists that got an id smaller than the one before it: only these need sorting (units are mostly
  // kept in id order, so most lists come out sorted as they are).
  let unsorted: Set<[string, UnitState][]> | null = null;
  const { ids, ats, pairs } = x;
  for (let i = 0; i < ids.length; i++) {
    const at = ats[i]!;
    // Units off the map are not indexed (`unitsAt` scans for them): many, and rarely asked after.
    if (at === 'pool' || at === 'gone') continue;
    const list = m.get(at);
    if (list) {
      if (ids[i]! < list[list.length - 1]![0]) (unsorted ??= new Set()).add(list);
      list.push(pairs[i]!);
    } else m.set(at, [pairs[i]!]);
  }
  // Each list in id order (ids are unique), as a sort of all ids first would give.
  if (unsorted) for (const list of unsorted) sortPairs(list);
  return m;
}

function onMapOf(x: UnitIndex): [string, UnitState][] {
  const out: [string, UnitState][] = [];
  let sorted = true;
  const { ids, ats, pairs } = x;
  for (let i = 0; i < ids.length; i++) {
    const at = ats[i]!;
    if (at !== 'pool' && at !== 'gone') {
      if (sorted && out.length && ids[i]! < out[out.length - 1]![0]) sorted = false;
      out.push(pairs[i]!);
    }
  }
  return sorted ? out : sortPairs(out);
}

function ownedOf(x: UnitIndex, power: string): [string, UnitState][] {
  const out: [string, UnitState][] = [];
  let sorted = true;
  const { ids, ats, powers, pairs } = x;
  for (let i = 0; i < ids.length; i++) {
    const at = ats[i]!;
    if (powers[i] === power && at !== 'pool' && at !== 'gone') {
      if (sorted && out.length && ids[i]! < out[out.length - 1]![0]) sorted = false;
      out.push(pairs[i]!);
    }
  }
  return sorted ? out : sortPairs(out);
}

const NONE: [string, UnitState][] = [];

/**
 * `a` in ascending order, as `a.sort()` gives strings, sorted in place: a short list by insertion (the
 * built-in sort allocates a work array per call), a long one by the built-in sort when out of order.
 */
export function sortStrings(a: string[]): string[] {
  const n = a.length;
  if (n > 16) {
    for (let i = 1; i < n; i++) if (a[i]! < a[i - 1]!) return a.sort();
    return a;
  }
  for (let i = 1; i < n; i++) {
    const x = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]! > x) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = x;
  }
  return a;
}

/** Sorted land ids of a control record, kept against its write count (see `controlStamp`). */
const controlKeys = new WeakMap<Record<string, string>, { writes: number; keys: readonly string[] }>();

/** The land areas with a control entry in `s`, in name order (callers only read the list). */
export function controlLands(s: BlitzState): readonly string[] {
  const c = s.control;
  const writes = controlWrites.get(c) ?? 0;
  let x = controlKeys.get(c);
  if (!x || x.writes !== writes) controlKeys.set(c, (x = { writes, keys: Object.keys(c).sort() }));
  return x.keys;
}

export function unitsAt(s: BlitzState, at: string): [string, UnitState][] {
  const x = at !== 'pool' && at !== 'gone' ? indexFor(s) : null;
  if (x) {
    const list = (x.byAt ??= indexByAt(x)).get(at);
    return list ? handOut(list) : NONE;
  }
  const out: [string, UnitState][] = [];
  for (const id in s.units) if (s.units[id]!.at === at) out.push([id, s.units[id]!]);
  return out.length > 1 ? sortPairs(out) : out;
}

export function landUnitsIn(p: PackIndex, s: BlitzState, land: string): [string, UnitState][] {
  if (frozen && frozen.s === s) {
    const m = (checkedIndex(s).landAt ??= new Map());
    let list = m.get(land);
    if (!list) m.set(land, (list = landOnly(p, unitsAt(s, land))));
    return list;
  }
  return landOnly(p, unitsAt(s, land));
}

/** The land units of `list`: `list` itself when all are (it is never changed), else a new list; `NONE` for none. */
function landOnly(p: PackIndex, list: [string, UnitState][]): [string, UnitState][] {
  let k = 0;
  while (k < list.length && isLand(p, list[k]![1])) k++;
  if (k === list.length) return list;
  const out: [string, UnitState][] = list.slice(0, k);
  for (let i = k + 1; i < list.length; i++) if (isLand(p, list[i]![1])) out.push(list[i]!);
  return out;
}

/**
 * The side holding a land area, or `neutral`. Seen by `viewer` (a unit's or a power's belligerents,
 * wars.ts) in the full game, an area of the other side that is not at war with it is neutral
 * territory (3.2, 1.6).
 */
export function controllerSide(p: PackIndex, s: BlitzState, land: string, viewer?: Viewer): SideId | 'neutral' {
  const c = s.control[land];
  if (!c || c === 'neutral') return 'neutral';
  // 7.2: during the activities and Blitzes a neutral major power's areas count as neutral territory.
  if (inactive(s, c)) return 'neutral';
  const side = sideOf(p, s, c);
  if (viewer?.length && s.wars && side !== sideOf(p, s, viewer[0]!) && !hostileLand(p, s, viewer, land)) return 'neutral';
  return side;
}

/** Whether a power of `side` controls `land` (not neutral, not out of play). */
export function heldBySide(p: PackIndex, s: BlitzState, land: string, side: SideId): boolean {
  const c = s.control[land];
  return c !== undefined && c !== 'neutral' && sideOf(p, s, c) === side;
}

/** 1.5: a land area is friendly if a power on your side controls it. */
export const friendlyLand = (p: PackIndex, s: BlitzState, land: string, side: SideId) => controllerSide(p, s, land) === side;
/** 1.3: how an ally's answer to units of `power` entering `land` is kept for the impulse in `s.leaves`. */
export const leaveKey = (power: string, land: string, allowed: boolean): string => `${power}>${land}:${allowed ? 'yes' : 'no'}`;
/** 1.3: the ally's standing answer this impulse to units of `power` entering `land`, if it was asked. */
export function leaveAnswer(s: BlitzState, power: string, land: string): boolean | undefined {
  if (s.leaves?.includes(leaveKey(power, land, true))) return true;
  if (s.leaves?.includes(leaveKey(power, land, false))) return false;
  return undefined;
}

/**
 * A land area unit `u` may base or end a move in as friendly: its side's, and (1.3, the full game) not
 * an ally's it may not enter, nor one whose holder refused its power leave this impulse (ally-leave.ts).
 */
export const friendlyFor = (p: PackIndex, s: BlitzState, u: UnitState, land: string): boolean =>
  friendlyLand(p, s, land, sideOf(p, s, u.power)) && !allyAreaBarred(p, s, u.power, land) && leaveAnswer(s, u.power, land) !== false;
/** An area held by the other side (and, seen by `viewer` in the full game, at war with it). */
export const enemyLand = (p: PackIndex, s: BlitzState, land: string, side: SideId, viewer?: Viewer) => controllerSide(p, s, land, viewer) === enemy(side);

export function inPlayLand(p: PackIndex, s: BlitzState, land: string): boolean {
  return scenarioIndex(p, s.scenario).lands.has(land);
}
export function inPlaySea(p: PackIndex, s: BlitzState, sea: string): boolean {
  return scenarioIndex(p, s.scenario).seas.has(sea);
}

/** 4.2/5.1/5.3: enemy air, BB, CV or SUB at sea there (armed units that block and bar support); in the full game, enemies of `viewer`. */
export function armedEnemyAtSea(p: PackIndex, s: BlitzState, sea: string, side: SideId, viewer?: Viewer): boolean {
  return unitsAt(s, `sea:${sea}`).some(
    ([, u]) => sideOf(p, s, u.power) !== side && ['AIR', 'BB', 'CV', 'SUB'].includes(typeOf(p, u)) && !inactive(s, u.power) && (!viewer || !s.wars || hostileUnit(p, s, viewer, u)),
  );
}

/** Land neighbours for land units: borders and Land Routes (1.3), in play. Built once per scenario and land; not to be changed. */
export function landNeighbours(p: PackIndex, s: BlitzState, land: string): readonly { to: string; route: boolean }[] {
  const x = scenarioIndex(p, s.scenario);
  let out = x.neighbours.get(land);
  if (!out) {
    const list: { to: string; route: boolean }[] = [];
    for (const b of p.borders.get(land) ?? []) if (x.lands.has(b)) list.push({ to: b, route: false });
    for (const b of p.landRoutes.get(land) ?? []) if (x.lands.has(b)) list.push({ to: b, route: true });
    out = list.sort((a, b) => (a.to < b.to ? -1 : a.to > b.to ? 1 : 0));
    x.neighbours.set(land, out);
  }
  return out;
}

/** 1.3 refused a stack: noted for rule coverage, then `false`. */
function stackingBars(s: BlitzState): false {
  fired('1.3', s.scenario);
  return false;
}

/** 5.2: Jungle, Mountain or Swamp cost two to enter; everything else one (the pack's table). */
export function entryCost(p: PackIndex, land: string): number {
  const c = p.entryCost.get(land);
  if (c === undefined) throw new Error(`unknown land area '${land}'`);
  return c;
}

/** Land Size of one side's land units (stacking; 1.3 Islands hold at most 2). */
export function landSize(p: PackIndex, s: BlitzState, land: string): number {
  const here = landUnitsIn(p, s, land);
  let n = 0;
  for (let i = 0; i < here.length; i++) n += here[i]![1].size;
  return n;
}

/** 1.3: may `side` add land units of `size` to `land`? One side per area; Islands hold Size 2. */
export function canStackLand(p: PackIndex, s: BlitzState, land: string, side: SideId, size: number): boolean {
  const here = landUnitsIn(p, s, land);
  let n = 0;
  for (let i = 0; i < here.length; i++) {
    const u = here[i]![1];
    if (sideOf(p, s, u.power) !== side) return false;
    n += u.size;
  }
  if (landDef(p, land).island && n + size > 2) return stackingBars(s);
  return true;
}

export function canStackAir(p: PackIndex, s: BlitzState, land: string, size: number): boolean {
  if (!landDef(p, land).island) return true;
  const here = unitsAt(s, land);
  let air = 0;
  for (let i = 0; i < here.length; i++) if (isAir(p, here[i]![1])) air += here[i]![1].size;
  return air + size <= 2 || stackingBars(s);
}

/** 1.3 ports: Big ports take any number, Small ports naval Size 2 in all. */
export function canStackPort(p: PackIndex, s: BlitzState, land: string, size: number): boolean {
  const l = landDef(p, land);
  if (l.ports.length === 0) return false;
  if (l.ports.some((x) => x.size === 'big')) return true;
  const naval = unitsAt(s, land).filter(([, u]) => isNaval(p, u)).reduce((a, [, u]) => a + u.size, 0);
  return naval + size <= 2 || stackingBars(s);
}

export function ownedBy(s: BlitzState, power: string): [string, UnitState][] {
  const x = indexFor(s);
  if (x) {
    const owned = (x.owned ??= new Map());
    let list = owned.get(power);
    if (!list) owned.set(power, (list = ownedOf(x, power)));
    return handOut(list);
  }
  return scanOwned(s, power);
}

function scanOwned(s: BlitzState, power: string): [string, UnitState][] {
  const out: [string, UnitState][] = [];
  let sorted = true;
  for (const id in s.units) {
    const u = s.units[id]!;
    if (u.power === power && u.at !== 'pool' && u.at !== 'gone') {
      if (sorted && out.length && id < out[out.length - 1]![0]) sorted = false;
      out.push([id, u]);
    }
  }
  return sorted ? out : sortPairs(out);
}
