/**
 * Every rules write to a state's units: a unit moved (`moveUnit`) or resized in place (`resizeUnit`),
 * a record put in or replaced (`putUnit`), a record taken out (`removeUnit`), the whole record replaced
 * (`replaceUnits`). Each is noted against the state's units record in a log kept beside it, not in it
 * (the state's JSON and hash are what they were), so the unit index (query.ts) learns what changed
 * since it last looked from the log instead of a pass over every unit.
 *
 * A write straight into `s.units` (a test's too) is not noted: the index would go on answering for the
 * units before it. A state handed to `apply` is copied first (a new units record, indexed afresh), so
 * only code that edits a state the index has seen and then asks about it again must come here.
 * `checkUnitLog(true)` (query.ts) makes the index compare itself with the units at every question and
 * throw on a write that bypassed these functions (test/unit-index.test.ts turns it on).
 */
import type { BlitzState, UnitState } from './state.ts';

/** What was written to one units record since the index last read its log. */
export interface UnitLog {
  /** Records moved or resized in place (`moveUnit`, `resizeUnit`). */
  moved: UnitState[];
  /** Ids whose record was put in or replaced (`putUnit`). */
  put: string[];
  /** A unit added or removed, or more writes than the index would patch: only a full pass will do. */
  full: boolean;
}

/** More writes than this between two questions: the log stops listing them and asks for a full pass. */
const LOG_LIMIT = 16;

const logs = new WeakMap<Record<string, UnitState>, UnitLog>();

/**
 * Writes made through these functions so far, to any state: answers derived from a units record
 * alone (supply.ts's sea presence) are kept against the record and this count, so any write since,
 * to that record or another, makes them be worked out again.
 */
let writes = 0;
export const unitWrites = (): number => writes;

/** The record written to last, and its log: a step writes to one state's units, mostly several times. */
let lastUnits: Record<string, UnitState> | null = null;
let lastLog: UnitLog | null = null;

function logOf(units: Record<string, UnitState>): UnitLog {
  if (units === lastUnits) return lastLog!;
  let l = logs.get(units);
  if (!l) logs.set(units, (l = { moved: [], put: [], full: false }));
  lastUnits = units;
  lastLog = l;
  return l;
}

/** The log of `units`, or undefined when nothing was written to it through these functions. */
export const unitLog = (units: Record<string, UnitState>): UnitLog | undefined => (units === lastUnits ? lastLog! : logs.get(units));

/** Forget what `units`' log holds: the index has read it (or made a full pass over the units). */
export function clearUnitLog(units: Record<string, UnitState>): void {
  const l = logs.get(units);
  if (!l) return;
  l.moved.length = 0;
  l.put.length = 0;
  l.full = false;
}

/** Move unit record `u` of `s` to `at` (an area, `sea:<id>`, `trs:<unit>`, `pool` or `gone`). */
export function moveUnit(s: BlitzState, u: UnitState, at: string): void {
  if (u.at === at) return;
  u.at = at;
  writes++;
  noteChanged(s, u);
}

/** Give unit record `u` of `s` Size `size` in place (0 as it goes to the pool). */
export function resizeUnit(s: BlitzState, u: UnitState, size: number): void {
  if (u.size === size) return;
  u.size = size;
  writes++;
  noteChanged(s, u);
}

/** Log record `u` of `s` as changed in place (the log turns full past its limit). */
function noteChanged(s: BlitzState, u: UnitState): void {
  const l = logOf(s.units);
  if (l.full) return;
  if (l.moved.length + l.put.length >= LOG_LIMIT) l.full = true;
  else l.moved.push(u);
}

/** Put record `u` in `s` as unit `id`, replacing its record if it has one (a new id goes last). */
export function putUnit(s: BlitzState, id: string, u: UnitState): void {
  const units = s.units;
  const l = logOf(units);
  if (!(id in units) || l.moved.length + l.put.length >= LOG_LIMIT) l.full = true;
  else if (!l.full) l.put.push(id);
  units[id] = u;
  writes++;
}

/** Take unit `id` out of `s` altogether (not to the pool: it is no longer a unit of the game). */
export function removeUnit(s: BlitzState, id: string): void {
  if (!(id in s.units)) return;
  logOf(s.units).full = true;
  delete s.units[id];
  writes++;
}

/** Replace `s`'s units record by `units` (a new record: the index reads it afresh). */
export function replaceUnits(s: BlitzState, units: Record<string, UnitState>): void {
  s.units = units;
  writes++;
}
