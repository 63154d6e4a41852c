/**
 * Weapons research at the builds (7.3, 7.8, E.5): a Resource buys a die roll; 1-4 adds a unit drawn at
 * random from the power's current Group of its Weapons Development Chart (the next Group once the
 * current one is used up) to its Force Pool, 5-6 fails. A power may research as often as it pays.
 * What it gets stays secret until the builds are revealed (1.9).
 */
import { IllegalChoiceError } from '@salient/engine';
import { emit, type Events } from './events.ts';
import { scenarioDef, type PackIndex } from './pack-index.ts';
import { fired } from './sections.ts';
import { addWeapon, currentGroup } from './economy.ts';
import type { Ask, BlitzState } from './state.ts';

/**
 * Units of the current Group not yet in the game (drawn, picked, built or in the Force Pool): with a
 * Weapons Development Chart the same Group 7.3's picks come from, else the scenario's research Groups.
 */
export function researchCandidates(p: PackIndex, s: BlitzState, power: string): { unit: string; size: number }[] {
  return currentGroup(p, s, power, 'research')?.units ?? [];
}

/**
 * A unit drawn by research (or handed over by 9.2's Weapons Development) joins the Force Pool: from
 * a chart as a pick's would (7.3: a minor country's unit to its ally's, or set aside), from the short
 * scenarios' research Groups straight into `power`'s. Returns where it went.
 */
export function addDrawn(p: PackIndex, s: BlitzState, power: string, c: { unit: string; size: number }): string {
  if (scenarioDef(p, s.scenario).weaponCharts?.[power]) return addWeapon(p, s, power, c.unit, c.size);
  s.pool[c.unit] = { size: c.size, from: 0 };
  (s.picked ??= []).push(c.unit);
  return power;
}

export function canResearch(p: PackIndex, s: BlitzState, power: string): boolean {
  return researchCandidates(p, s, power).length > 0;
}

/** The power pays a Resource and rolls (the cost is held with the secret builds). */
export function startResearch(p: PackIndex, s: BlitzState, power: string): void {
  if (!canResearch(p, s, power)) throw new IllegalChoiceError(`${power} has nothing left to research`);
  (s.hidden[power] ??= []).push({ unit: 'research', size: 1, at: 'research' });
  s.research = { power, stage: 'die' };
}

export function askResearch(p: PackIndex, s: BlitzState): Ask {
  const r = s.research!;
  if (r.stage === 'die') return { kind: 'chance', prompt: 'research-die', stream: 'research', faces: 6 };
  return { kind: 'chance', prompt: 'research-draw', stream: 'research', faces: researchCandidates(p, s, r.power).length };
}

export function applyResearchDie(p: PackIndex, s: BlitzState, d: number, ev: Events): void {
  const r = s.research!;
  fired('7.3', s.scenario);
  if (r.stage === 'die') {
    // 7.8: one more on the die while the power is not at war with an enemy major power (never, in E).
    if (d <= 4) r.stage = 'draw';
    else {
      emit(ev, 'research', `${r.power}'s research fails`, r.power, { success: false });
      delete s.research;
    }
    return;
  }
  const c = researchCandidates(p, s, r.power)[d - 1];
  if (!c) throw new IllegalChoiceError(`no research draw ${d}`);
  const to = addDrawn(p, s, r.power, c);
  (s.hidden[r.power] ??= []).push({ unit: c.unit, size: c.size, at: 'drawn', ...(to !== r.power ? { to } : {}) });
  emit(ev, 'research', `${r.power}'s research succeeds`, r.power, { success: true });
  delete s.research;
}
