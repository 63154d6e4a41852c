/**
 * 7.8 (and 1.7): the last thing a power does at its builds is damage or destroy any of its own on-map
 * units it wishes, whether or not they can trace supply (Scenario B's special rule forbids it; the pack
 * says so with `voluntaryLosses: false`). Like the rest of the builds it is secret (1.9): each choice is
 * held in `hidden` and carried out at the reveal, after the builds are placed.
 *
 * The question comes in two steps so that a bot choosing uniformly does not throw its army away: first
 * `keep` or `scrap`, then (after `scrap`) which unit and whether to damage or destroy it, then the first
 * question again.
 */
import { IllegalChoiceError } from '@salient/engine';
import { emit, unitName, type Events } from './events.ts';
import { scenarioDef, type PackIndex } from './pack-index.ts';
import { ownedBy } from './query.ts';
import type { Ask, BlitzState } from './state.ts';
import { eliminate, unitDefHasSize } from './combat.ts';
import { fired } from './sections.ts';
import { resizeUnit } from './unit-writes.ts';

const DESTROY = 'destroy';
const DAMAGE = 'damage';

const isVoluntary = (at: string) => at === DESTROY || at === DAMAGE;

/** Whether a secret entry of the builds is a voluntary loss (carried out by `revealVoluntary`). */
export const isVoluntaryStep = (h: { at: string }) => isVoluntary(h.at);

/** `power`'s units it may still damage or destroy this turn: on the map and not already repaired, damaged or destroyed. */
function candidates(p: PackIndex, s: BlitzState, power: string): string[] {
  if (scenarioDef(p, s.scenario).voluntaryLosses === false) return [];
  const touched = new Set((s.hidden[power] ?? []).map((h) => h.unit));
  return ownedBy(s, power)
    .filter(([id]) => !touched.has(id))
    .map(([id]) => id);
}

/** Whether `power` is offered voluntary losses now (it has a unit it could give up). */
export function voluntaryOpen(p: PackIndex, s: BlitzState, power: string): boolean {
  return candidates(p, s, power).length > 0;
}

/** The question of the voluntary-loss step: `keep`/`scrap`, or (after `scrap`) the unit and what to do to it. */
export function askVoluntary(p: PackIndex, s: BlitzState, power: string): Extract<Ask, { kind: 'decision' }> {
  if (s.sel?.kind === 'scrap' && s.sel.pick) {
    const options: string[] = [];
    for (const id of candidates(p, s, power)) {
      // A Size-1 unit (or one with no smaller side) can only be destroyed: damage would destroy it anyway.
      const u = s.units[id]!;
      if (unitDefHasSize(p, u.def, u.size - 1)) options.push(`${DAMAGE} ${id}`);
      options.push(`${DESTROY} ${id}`);
    }
    return { kind: 'decision', power, prompt: 'voluntary-loss', options };
  }
  return { kind: 'decision', power, prompt: 'voluntary-losses', options: ['keep', 'scrap'] };
}

/** Apply an answer of the voluntary-loss step; true when `power` has finished it (and its builds). */
export function applyVoluntary(p: PackIndex, s: BlitzState, power: string, c: string): boolean {
  const ask = askVoluntary(p, s, power);
  if (!ask.options.includes(c)) throw new IllegalChoiceError(`'${c}' is not a voluntary-loss choice open to ${power} now (options: ${ask.options.join(', ')})`);
  if (c === 'keep') {
    s.sel = null;
    return true;
  }
  if (c === 'scrap') {
    s.sel = { kind: 'scrap', pick: true };
    return false;
  }
  const [verb, unit] = c.split(' ') as [typeof DESTROY | typeof DAMAGE, string];
  (s.hidden[power] ??= []).push({ unit, size: 0, at: verb });
  // Back to the first question, unless nothing is left to give up.
  s.sel = voluntaryOpen(p, s, power) ? { kind: 'scrap' } : null;
  return s.sel === null;
}

/** 1.9: at the reveal, after the builds, every power's voluntary losses are carried out (powers in code-point order). */
export function revealVoluntary(p: PackIndex, s: BlitzState, ev: Events): void {
  for (const power of Object.keys(s.hidden).sort()) {
    for (const h of s.hidden[power]!) {
      if (!isVoluntary(h.at)) continue;
      const u = s.units[h.unit];
      if (!u || u.power !== power || u.at === 'pool' || u.at === 'gone') continue;
      fired('7.8', s.scenario);
      if (h.at === DESTROY) {
        // Not an enemy's doing: no victory points for anyone (8), no loss of a combat.
        eliminate(p, s, h.unit, ev, 'voluntary');
        continue;
      }
      // Not a combat loss either: no die for a commander (9.5). Only offered where the smaller side exists.
      resizeUnit(s, u, u.size - 1);
      emit(ev, 'voluntary-loss', `${power} damages its own ${unitName(p, h.unit)}, now Size ${u.size}`, power, { unit: h.unit, size: u.size });
    }
  }
}
