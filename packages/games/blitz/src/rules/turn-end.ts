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
import { applyPick, canPick, pickable, spentOf } from './economy.ts';
import { areaInSupply } from './supply.ts';
import { buildArea } from './specials.ts';

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
      s.units[pl.unit] = { def: pl.unit, power, size: pl.size, at };
      emit(ev, 'reinforcement', `${unitName(p, pl.unit)} arrives in ${landName(p, at)}`, power, { unit: pl.unit, at, size: pl.size });
    }
  }
}

/** Areas where a unit may be placed (B.7): held areas of its home country (USA units: Great Britain). */
function homeAreas(p: PackIndex, s: BlitzState, unit: string, power: string): string[] {
  const d = unitDef(p, unit);
  const side = sideOf(p, s, power);
  const sc = scenarioDef(p, s.scenario);
  const inPlay = sc.lands.filter((l) => friendlyLand(p, s, l, side));
  if (d.type === 'FORT') return inPlay; // B.7: a FORT goes anywhere you control
  // D: the Western Allies' new units all arrive in the UK.
  const fixed = buildArea(p, s, power, unit);
  if (fixed) return inPlay.includes(fixed) ? [fixed] : [];
  // B.7 (and C, where the AFA and USA are one power too): USA units are placed in Great Britain.
  const home = (s.scenario === 'B' || s.scenario === 'C') && d.nation === 'USA' ? 'great-britain' : d.home;
  return inPlay.filter((l) => landDef(p, l).country === home && (!['BB', 'CV', 'SUB', 'TRS', 'LL'].includes(d.type) || landDef(p, l).ports.length > 0));
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
  // 1.7: nothing is built where supply cannot reach.
  return homeAreas(p, s, unit, power).filter((l) => areaInSupply(p, s, power, d.home, l) && (naval ? canStackPort(p, s, l, size) : d.type === 'AIR' ? true : canStackLand(p, s, l, side, size)));
}

/** 7.8 (D.10): one GAR from the Force Pool each turn costs nothing (from D, where income comes from the map). */
function freeGar(p: PackIndex, s: BlitzState, power: string, unit: string): boolean {
  return scenarioDef(p, s.scenario).areaIncome === true && unitDef(p, unit).type === 'GAR' && !(s.hidden[power] ?? []).some((h) => h.free);
}

export function askBuild(p: PackIndex, s: BlitzState): Ask | null {
  const power = s.buildOrder[0];
  if (!power) return null;
  const left = (s.res[power] ?? 0) - spent(s, power);
  const sel = s.sel;
  const dec = (prompt: string, options: string[]): Ask => ({ kind: 'decision', power, prompt, options });
  if (sel?.kind === 'build') {
    if (sel.size === null) {
      const max = freeGar(p, s, power, sel.unit) ? sel.pool : Math.min(sel.pool, left);
      return dec('build-size', Array.from({ length: max }, (_, i) => `size ${i + 1}`).filter((o) => placeable(p, s, sel.unit, power, Number(o.slice(5))).length > 0));
    }
    return dec('build-where', placeable(p, s, sel.unit, power, sel.size).map((l) => `at ${l}`));
  }
  const picks = canPick(p, s, power) ? pickable(p, s, power).map((u) => `pick ${u}`) : [];
  if (left <= 0 && !picks.length) return null;
  // Units already repaired or built this turn (a pick only adds to the Force Pool, C.6).
  const chosen = new Set((s.hidden[power] ?? []).filter((h) => h.at !== 'pool' && h.at !== 'oil').map((h) => h.unit));
  const sc = scenarioDef(p, s.scenario);
  const nations = sc.powers.find((x) => x.id === power)!.nations;
  // B.7: repair on-map units one Size at a time; build Force Pool units (1 Resource per Size).
  const repairs = ownedBy(s, power)
    .filter(([id, u]) => !chosen.has(id) && u.size < maxSize(p, u.def) && p.unit.get(u.def)?.sizes[String(u.size + 1) as '1'])
    .map(([id]) => `repair ${id}`);
  const builds = Object.entries(s.pool)
    .filter(([id, e]) => !chosen.has(id) && e.from <= s.turn && nations.includes(unitDef(p, id).nation) && (s.units[id]?.at ?? 'pool') === 'pool')
    .filter(([id]) => placeable(p, s, id, power, 1).length > 0)
    .map(([id]) => `build ${id}`)
    .sort();
  if (left <= 0) {
    repairs.length = 0;
    const free = builds.filter((b) => freeGar(p, s, power, b.slice(6)));
    builds.length = 0;
    builds.push(...free);
  }
  if (!repairs.length && !builds.length && !picks.length) return null;
  return dec('build-pick', [...picks, ...repairs, ...builds, 'done']);
}

/** Returns true when the current power has finished building. */
export function applyBuild(p: PackIndex, s: BlitzState, c: string): boolean {
  const power = s.buildOrder[0]!;
  const [verb, arg] = c.split(' ') as [string, string | undefined];
  const hidden = (s.hidden[power] ??= []);
  const sel = s.sel;
  if (verb === 'done') return true;
  if (verb === 'pick') {
    applyPick(p, s, power, arg!);
    return false;
  }
  if (verb === 'repair') {
    hidden.push({ unit: arg!, size: 1, at: '' });
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
  hidden.push({ unit: sel.unit, size: sel.size!, at: arg!, ...(freeGar(p, s, power, sel.unit) ? { free: true } : {}) });
  s.sel = null;
  return false;
}

/** 1.9: reveal everyone's builds at once. */
export function revealBuilds(p: PackIndex, s: BlitzState, ev: Events): void {
  if (Object.keys(s.hidden).length) fired('1.9', s.scenario);
  for (const [power, list] of Object.entries(s.hidden).sort()) {
    for (const h of list) {
      if (h.at === 'oil') continue; // the Oil paid for a double pick (C.6)
      if (h.at === 'pool') {
        emit(ev, 'weapon-pick', `${power} adds ${unitName(p, h.unit)} to its Force Pool`, power, { unit: h.unit, size: h.size });
        continue;
      }
      if (h.at === '') {
        const u = s.units[h.unit]!;
        u.size += 1;
        emit(ev, 'repair', `${power} repairs ${unitName(p, h.unit)} to Size ${u.size}`, power, { unit: h.unit, size: u.size });
      } else {
        s.units[h.unit] = { def: h.unit, power, size: h.size, at: h.at };
        delete s.pool[h.unit];
        emit(ev, 'build', `${power} builds ${unitName(p, h.unit)} (Size ${h.size}) in ${landName(p, h.at)}`, power, { unit: h.unit, size: h.size, at: h.at });
      }
    }
  }
  s.hidden = {};
}
