/**
 * Land area combat (5.3, A.6, B.5): announce Ground Attacks and commit attackers, the defender commits
 * air and naval support, then the phasing side resolves each combat: an Air Round (6.1) if both sides
 * have air, a Land Round (6.2), results applied in the order of 6.5, and change of control (6.6: ARM
 * test, retreat, advance, overrun).
 *
 * Factory and Port Attacks (introduced in Scenarios D and E) are not part of A and B.
 */
import { IllegalChoiceError, type JsonObject } from '@salient/engine';
import { carrierLost, carryBomb, carryOptions, detonate } from './abomb.ts';
import { chartResult, letterFraction, roundHalfUp } from './combat-chart.ts';
import { emit, landName, unitName, type Events } from './events.ts';
import { airDistances, navalDistances } from './geometry.ts';
import { landDef, scenarioDef, type PackIndex } from './pack-index.ts';
import { italian, italyGone } from './economy.ts';
import {
  airBlitzBars,
  answeringPower,
  mostFactorsPower,
  armedEnemyAtSea,
  canStackAir,
  canStackLand,
  canStackPort,
  controlLands,
  controllerSide,
  enemy,
  enemyLand,
  face,
  friendlyFor,
  isAir,
  isLand,
  isNaval,
  isOneShot,
  isVWeapon,
  landNeighbours,
  onMap,
  ownedBy,
  sideOf,
  turnedBattleship,
  typeOf,
  unitsAt,
  frozenMemo,
} from './query.ts';
import { declarations, takeControl } from './politics.ts';
import type { Ask, Attack, BlitzState, CombatState, SideId, Task, UnitState } from './state.ts';
import { londonRule } from './movement.ts';
import { askLeave, enterArea, holdForLeave } from './ally-leave.ts';
import { fired } from './sections.ts';
import { areaInSupply, inSupply, outOfSupplyDefenders, unitHome } from './supply.ts';
import { snowBound, snowflakeMultiplier, snowLandMultiplier } from './weather.ts';
import { navalFactor } from './sea-combat.ts';
import { chinaBarred, lostForGood, setAsideLost, wakeDormant } from './specials.ts';
import { onDestroyed } from './victory-points.ts';
import { hostile, hostileLand, inHomeCountry, jointAttackers, neutralMajor, powerViewer, unitViewer } from './wars.ts';
import { footBarred, motorized, noteFootUse, optionOn } from './optional.ts';
import { awaitsFleetRoll } from './france.ts';
import { commandedStrategicExtra, commandedUnitHit, commandedUnitLost, fightFace } from './commanders.ts';
import { moveUnit, resizeUnit, unitWrites } from './unit-writes.ts';

const alive = (s: BlitzState, id: string) => {
  const u = s.units[id];
  return !!u && u.at !== 'pool' && u.at !== 'gone';
};
const sortIds = (ids: string[]) => [...ids].sort();

// ---------------------------------------------------------------- 5.3 announcing and committing

/** Air range to a target: an air unit (or PARA flying) reaches N areas, seas costing 2 (A.6, 5.3). */
function inAirRange(p: PackIndex, s: BlitzState, uid: string, target: string): boolean {
  const u = s.units[uid]!;
  if (u.at.startsWith('sea:') || u.at.startsWith('trs:')) return false;
  const r = face(p, u).airMove ?? 0;
  return (airDistances(p, s, u.at, r, unitViewer(p, s, u)).get(target) ?? Infinity) <= r;
}

/**
 * The full game (3.2, 5.2): a unit fights at `target` only if it is at war with the area's holder, and
 * a neutral major power's units (GARs excepted) only in their home country. Elsewhere always true.
 */
function mayStrike(p: PackIndex, s: BlitzState, uid: string, target: string): boolean {
  if (!s.wars) return true;
  const u = s.units[uid]!;
  if (!hostileLand(p, s, unitViewer(p, s, u), target)) return false;
  return !neutralMajor(s, u.power) || typeOf(p, u) === 'GAR' || inHomeCountry(p, u, target);
}

/** The full game: may this unit join the defence against the attack? Only if at war with the attacker (3.2). */
function mayDefend(p: PackIndex, s: BlitzState, uid: string, a: Attack): boolean {
  if (!s.wars) return true;
  const u = s.units[uid]!;
  const attackers = [...a.attackers, ...a.dropped].map((x) => s.units[x]).filter((x): x is UnitState => !!x);
  const foes = attackers.length ? attackers.map((x) => unitViewer(p, s, x)) : [powerViewer(p, s, a.power ?? s.power)];
  const v = unitViewer(p, s, u);
  return foes.some((f) => hostile(p, s, v, f)) && (!neutralMajor(s, u.power) || inHomeCountry(p, u, a.target));
}

/** How a land unit can reach `target` for a Ground Attack, or null (5.3 bullets). */
function attackSource(p: PackIndex, s: BlitzState, uid: string, target: string): string | null {
  const u = s.units[uid]!;
  if (!isLand(p, u) || typeOf(p, u) === 'FORT' || (fightFace(p, s, uid).land ?? 0) < 1) return null; // FORT and 0-LF units only defend (9.5: unless a Land Commander commands it)
  if (!inSupply(p, s, uid)) return null; // 1.7: out of supply, no land combat
  if (chinaBarred(p, s, uid, target)) return null; // 5.2/E.1
  if (!mayStrike(p, s, uid, target)) return null; // 3.2, 5.2
  if (u.at.startsWith('trs:')) {
    const trs = s.units[u.at.slice(4)]!;
    if (!trs.at.startsWith('sea:')) return null;
    const sea = trs.at.slice(4);
    if (!(p.coastOf.get(sea) ?? new Set()).has(target) || armedEnemyAtSea(p, s, sea, sideOf(p, s, u.power), unitViewer(p, s, u))) return null;
    return u.at;
  }
  // adjacent by a border, not only by a Land Route (5.3: no attacks across Land Routes; 9.4: one Small unit may)
  const adj = landNeighbours(p, s, u.at).some((n) => n.to === target && (!n.route || (optionOn(s, '9.4') && u.size <= 2)));
  return adj && londonRule(p, s, uid) ? u.at : null;
}

/** 9.4: a land unit in `from` would attack `target` across a Land Route (they share no border). */
function acrossRoute(p: PackIndex, from: string, target: string): boolean {
  return !(p.borders.get(from)?.has(target) ?? false) && (p.landRoutes.get(from)?.has(target) ?? false);
}

function committedSize(p: PackIndex, s: BlitzState, a: Attack, from: string): number {
  let t = 0;
  for (const x of a.attackers) {
    const u = s.units[x]!;
    if (isLand(p, u) && u.from === from) t += u.size;
  }
  return t;
}

function attackLandSize(p: PackIndex, s: BlitzState, a: Attack): number {
  let t = 0;
  for (const x of a.attackers) if (isLand(p, s.units[x]!)) t += s.units[x]!.size;
  for (const x of a.dropped) if (isLand(p, s.units[x]!)) t += s.units[x]!.size;
  return t;
}

/**
 * Support units (air in range; BB/CV at sea next to the target with no armed enemy there) for `side`.
 * A Factory Attack takes air units and CVs only (5.3); in Snow on a Snow turn no air unit or CV joins (1.4).
 * A V-Weapon only ever attacks in a Factory Attack: it has nothing but a Strategic Factor (1.2) and
 * fights only in the Strategic Round (6.1), so it neither joins a Ground or Port Attack nor defends
 * (our reading; the text says no more).
 */
function supportOptions(p: PackIndex, s: BlitzState, power: string, target: string, kind?: Attack['kind']): string[] {
  const side = sideOf(p, s, power);
  const snow = snowBound(p, s, target);
  const factory = kind !== undefined;
  // E.2: a Port Attack's carriers sit in a sea the target's port touches, with no enemy BB, CV or SUB there.
  const portSeas = kind === 'port' ? new Set(landDef(p, target).ports.flatMap((x) => x.seas)) : null;
  const attacking = s.side === side;
  const out: string[] = [];
  // The tests that read the unit alone come first, then supply (1.7: out of supply, no land combat) and
  // 3.2/5.2 (a defender's is checked against the attack), then range: most units are land units, which
  // never support, and are passed over before their supply is asked.
  for (const [id, u] of ownedBy(s, power)) {
    if (u.committed !== undefined) continue;
    const t = typeOf(p, u);
    const air = t === 'AIR';
    if (!air && t !== 'BB' && t !== 'CV') continue;
    if (snow && (air || t === 'CV')) continue;
    if (factory && !air && t !== 'CV') continue;
    if (isVWeapon(p, u) && (!attacking || kind !== 'factory')) continue; // 1.2, 6.1
    if (air ? u.toSea : !u.at.startsWith('sea:')) continue; // 5.3: naval units in port cannot join
    if (!inSupply(p, s, id)) continue;
    if (attacking && !mayStrike(p, s, id, target)) continue;
    if (air) {
      if (inAirRange(p, s, id, target)) out.push(id);
      continue;
    }
    const sea = u.at.slice(4);
    if (portSeas ? portSeas.has(sea) && !shipsAtSea(p, s, sea, enemy(side)) : (p.coastOf.get(sea)?.has(target) ?? false) && !armedEnemyAtSea(p, s, sea, side, unitViewer(p, s, u))) out.push(id);
  }
  return out;
}

/** 2.2: in an Air Blitz only air units are committed, and CVs at sea to a Port Attack of the power's own (`own`). */
function blitzOk(p: PackIndex, s: BlitzState, a: Attack, own: boolean, id: string): boolean {
  return !airBlitzBars(p, s, s.units[id]!) || (a.kind === 'port' && own && typeOf(p, s.units[id]!) === 'CV');
}

function commitOptions(p: PackIndex, s: BlitzState, a: Attack): string[] {
  // 2.2: in an Air Blitz only air units are committed, and CVs at sea to a Port Attack of the power's own.
  const own = a.power === undefined || a.power === s.power;
  if (a.kind) return supportOptions(p, s, s.power, a.target, a.kind).filter((id) => !footBarred(p, s, id) && blitzOk(p, s, a, own, id)).map((id) => `add ${id}`);
  const island = landDef(p, a.target).island;
  const snow = snowBound(p, s, a.target);
  const used = attackLandSize(p, s, a);
  const opts: string[] = [];
  for (const [id, u] of ownedBy(s, s.power)) {
    if (u.committed !== undefined || airBlitzBars(p, s, u)) continue; // 2.2: no land unit attacks in an Air Blitz
    if (footBarred(p, s, id)) continue; // 9.7: one ARM, air or naval unit only
    const from = attackSource(p, s, id, a.target);
    // 9.4: one Small land unit in each attack across a Land Route.
    const routeFull = from !== null && a.routed !== undefined && acrossRoute(p, from, a.target);
    // 5.3: at most Size 10 of land units from each source area; Islands take Size 2 in all.
    if (from && !routeFull && committedSize(p, s, a, from) + u.size <= 10 && (!island || used + u.size <= 2)) opts.push(`add ${id}`);
    // 1.4: no air drop into Snow on a Snow turn.
    if (typeOf(p, u) === 'PARA' && !snow && !u.moved && !u.at.startsWith('trs:') && inAirRange(p, s, id, a.target) && (!island || used + u.size <= 2) && !chinaBarred(p, s, id, a.target) && mayStrike(p, s, id, a.target)) {
      opts.push(`drop ${id}`);
    }
  }
  // 9.7: while the one motorized unit of a non-motorized Land Blitz is still free, an air or naval unit
  // may not be the first committed to a Ground Attack that no unmotorized land unit could then join
  // (its ARM would be held back, leaving an attack that can neither gain a land unit nor launch).
  const footOnly = s.nonMotorized?.[s.power] === '' && used === 0 && !opts.some((o) => !motorized(p, s.units[o.slice(o.indexOf(' ') + 1)]!));
  for (const id of supportOptions(p, s, s.power, a.target)) if (!footBarred(p, s, id) && blitzOk(p, s, a, own, id) && !(footOnly && motorized(p, s.units[id]!))) opts.push(`add ${id}`);
  return opts;
}

/**
 * 5.3: whether the phasing power may announce a new attack of `kind` on `land`, given the attacks its
 * side has announced this step. An area takes each kind of attack (Factory, Ground, Port) once, so
 * up to three attacks in all; and no two powers of a side attack the same area at the same time, not
 * even with different kinds, except the AFA and the USA once the USA is at war with an Axis major
 * power and both are at war with the area's holder (`jointAttackers`). An attack of that kind already
 * announced by its partner is joined instead (`joinable`).
 */
function announceOpen(p: PackIndex, s: BlitzState, land: string, kind: Attack['kind']): boolean {
  for (const a of s.attacks) {
    if (a.target !== land) continue;
    if (a.kind === kind) return false;
    if (!jointAttackers(p, s, a.power ?? s.power, s.power, land)) return false;
  }
  return true;
}

/**
 * Enemy land areas in play (only those have a control entry) that the phasing side may still announce
 * an attack of `kind` on (5.3, `announceOpen`), none on an area closed to it (D), in name order.
 */
function openTargets(p: PackIndex, s: BlitzState, kind: Attack['kind']): string[] {
  const out: string[] = [];
  for (const land of enemyAreas(p, s)) if (announceOpen(p, s, land, kind)) out.push(land);
  return out;
}

/** Enemy land areas of the phasing power not closed to it, in name order; worked out once per read-only question. */
function enemyAreas(p: PackIndex, s: BlitzState): string[] {
  const memo = frozenMemo(s);
  const key = `enemy-areas|${s.side}|${s.power}`;
  const hit = memo?.get(key) as string[] | undefined;
  if (hit) return hit;
  const viewer = s.wars ? powerViewer(p, s, s.power) : undefined; // 3.2: only areas of enemies it is at war with
  const out: string[] = [];
  for (const land of controlLands(s)) if (enemyLand(p, s, land, s.side, viewer) && !closedTarget(p, s, land)) out.push(land);
  memo?.set(key, out);
  return out;
}

function targets(p: PackIndex, s: BlitzState): string[] {
  if (scenarioDef(p, s.scenario).frozenControl) return []; // C: control never changes, so no Ground Attacks
  const open = openTargets(p, s, undefined);
  if (!open.length) return open;
  // Few targets and units (the short scenarios): testing every unit for every target costs less than
  // sorting the units by target first. Either way the same units are tested in the same order.
  const c = open.length * ownedBy(s, s.power).length > 48 ? attackCandidates(p, s) : null;
  const out: string[] = [];
  for (const land of open) if (canGroundAttack(p, s, land, c)) out.push(land);
  return out;
}

/**
 * The phasing power's units that `canGroundAttack` must look at, worked out once for all targets: its
 * units (as `ownedBy` lists them) not yet committed, by the land areas they are next to (borders, and
 * 9.4's Land Routes where that rule is on), and those that may attack anywhere a test allows (aboard a
 * TRS, B.4; a PARA, B.5). Units are given by their place in `list`.
 */
interface AttackCandidates {
  list: readonly [string, UnitState][];
  near: Map<string, number[]>;
  anywhere: number[];
}

const NO_UNITS: readonly number[] = [];

function attackCandidates(p: PackIndex, s: BlitzState): AttackCandidates {
  const list = ownedBy(s, s.power);
  const routes = optionOn(s, '9.4');
  const near = new Map<string, number[]>();
  const anywhere: number[] = [];
  const add = (land: string, i: number) => {
    const l = near.get(land);
    if (!l) near.set(land, [i]);
    else if (l[l.length - 1] !== i) l.push(i); // (a border and a Land Route to the same area)
  };
  for (let i = 0; i < list.length; i++) {
    const u = list[i]![1];
    if (u.committed !== undefined) continue;
    if (u.at.startsWith('trs:') || typeOf(p, u) === 'PARA') {
      anywhere.push(i);
      continue;
    }
    for (const b of p.borders.get(u.at) ?? []) add(b, i);
    if (routes) for (const b of p.landRoutes.get(u.at) ?? []) add(b, i);
  }
  return { list, near, anywhere };
}

/**
 * How an attack is named in the defend and resolve options: by its target, and where the area takes
 * more than one attack (5.3), a Factory or Port Attack by its target and kind (`western-germany factory`).
 */
export function attackLabel(s: BlitzState, a: Attack): string {
  return a.kind && s.attacks.filter((x) => x.target === a.target).length > 1 ? `${a.target} ${a.kind}` : a.target;
}

const attackByLabel = (s: BlitzState, label: string): number => s.attacks.findIndex((a) => !a.resolved && attackLabel(s, a) === label);

/**
 * 5.3: attacks of its partner (the AFA's for the USA, the USA's for the AFA) that the phasing power
 * may join with its own units: not yet joined, jointly allowed on that area, with a unit of its own to
 * commit (and, a Factory or Port Attack, not in a Land Blitz, which allows Ground Attacks only). In
 * an Air Blitz the power's air units may so help its ally's Ground Attack (2.2), though it announces
 * none of its own (its land units stay put: `canGroundAttack`).
 */
function joinable(p: PackIndex, s: BlitzState): string[] {
  if (!s.modes) return [];
  const out: string[] = [];
  for (const a of s.attacks) {
    if (a.resolved || a.power === undefined || a.power === s.power || (a.kind && s.mode === 'land')) continue;
    if (!jointAttackers(p, s, a.power, s.power, a.target)) continue;
    if ([...a.attackers, ...a.dropped].some((x) => s.units[x]?.power === s.power)) continue;
    if (commitOptions(p, s, a).length) out.push(`join ${attackLabel(s, a)}`);
  }
  return out;
}

/**
 * Whether some land unit of the phasing power could be committed to a Ground Attack on `land` now:
 * the land and air-drop options `commitOptions` would give for a fresh attack, with the cheap
 * geometric tests first (this runs for every enemy area each time the announce step asks).
 */
function canGroundAttack(p: PackIndex, s: BlitzState, land: string, c: AttackCandidates | null): boolean {
  const island = landDef(p, land).island;
  const snow = snowBound(p, s, land);
  const routes = optionOn(s, '9.4');
  if (!c) {
    for (const [id, u] of ownedBy(s, s.power)) if (u.committed === undefined && unitCanAttack(p, s, land, id, u, island, snow, routes)) return true;
    return false;
  }
  // The units next to `land` and those that may attack from anywhere, in the list's order (two sorted
  // lists merged): the others cannot attack it and are passed over unseen.
  const byNear = c.near.get(land) ?? NO_UNITS;
  const anywhere = c.anywhere;
  for (let a = 0, b = 0; a < byNear.length || b < anywhere.length; ) {
    const i = b >= anywhere.length || (a < byNear.length && byNear[a]! < anywhere[b]!) ? byNear[a++]! : anywhere[b++]!;
    const [id, u] = c.list[i]!;
    if (unitCanAttack(p, s, land, id, u, island, snow, routes)) return true;
  }
  return false;
}

/** `canGroundAttack` for one uncommitted unit `id` of the phasing power. */
function unitCanAttack(p: PackIndex, s: BlitzState, land: string, id: string, u: UnitState, island: boolean, snow: boolean, routes: boolean): boolean {
  const near = u.at.startsWith('trs:') || (p.borders.get(u.at)?.has(land) ?? false) || (routes && (p.landRoutes.get(u.at)?.has(land) ?? false));
  // Only a unit next to the target (or aboard a TRS, B.4) or a PARA (air movement, B.5) may attack
  // it: the others are passed over before the dearer tests, which are the same for them all.
  if (!near && typeOf(p, u) !== 'PARA') return false;
  if (!isLand(p, u) || (island && u.size > 2) || footBarred(p, s, id) || airBlitzBars(p, s, u)) return false;
  if (near && u.size <= 10 && attackSource(p, s, id, land)) return true;
  return typeOf(p, u) === 'PARA' && !snow && !u.moved && !u.at.startsWith('trs:') && inAirRange(p, s, id, land) && !chinaBarred(p, s, id, land) && mayStrike(p, s, id, land);
}

/**
 * 5.3/D.6: enemy land areas with an undamaged part of a Factory that `s.power`'s air units can reach
 * (not in a Land Blitz, which allows Ground Attacks only; not in Snow on a Snow turn).
 */
function factoryTargets(p: PackIndex, s: BlitzState): string[] {
  if (s.mode === 'land' || !scenarioDef(p, s.scenario).areaIncome) return [];
  return openTargets(p, s, 'factory').filter(
    (land) => landDef(p, land).factory > (s.factoryDamage?.[land] ?? 0) && supportOptions(p, s, s.power, land, 'factory').some((x) => typeOf(p, s.units[x]!) === 'AIR'),
  );
}

/** Enemy ships in `land`'s port that a Port Attack can strike (E.2: SUBs sit in bomb-proof pens). */
function shipsInPort(p: PackIndex, s: BlitzState, land: string, side: SideId): string[] {
  return unitsAt(s, land)
    .filter(([, u]) => isNaval(p, u) && typeOf(p, u) !== 'SUB' && sideOf(p, s, u.power) === side)
    .map(([id]) => id);
}

/** E.2: enemy BB, CV or SUB at sea in `sea` (a carrier may not strike a port from there). */
function shipsAtSea(p: PackIndex, s: BlitzState, sea: string, side: SideId): boolean {
  return unitsAt(s, `sea:${sea}`).some(([, u]) => sideOf(p, s, u.power) === side && ['BB', 'CV', 'SUB'].includes(typeOf(p, u)));
}

/** 5.3/E.2: enemy ports with ships in them that `s.power`'s air units or carriers can strike (not in a Land Blitz, not into Snow). */
function portTargets(p: PackIndex, s: BlitzState): string[] {
  if (s.mode === 'land' || !scenarioDef(p, s.scenario).portAttacks) return [];
  return openTargets(p, s, 'port').filter((land) => shipsInPort(p, s, land, enemy(s.side)).length > 0 && supportOptions(p, s, s.power, land, 'port').length > 0);
}

const ROUND_NAME: Record<CombatState['round'], string> = { air: 'Air Round', land: 'Land Round', strategic: 'Strategic Round', naval: 'Naval Round in port' };

const attackName = (a: Attack): string => (a.kind === 'factory' ? 'Factory Attack' : a.kind === 'port' ? 'Port Attack' : 'Ground Attack');

/** D: an area the phasing side may no longer attack (a scenario hand-over closes it). */
function closedTarget(p: PackIndex, s: BlitzState, land: string): boolean {
  const country = landDef(p, land).country;
  return (scenarioDef(p, s.scenario).handovers ?? []).some((h) => h.closedTo === s.side && h.country === country && s.turn >= h.turn);
}

/** Whether a unit of `ids` is the phasing power's. */
function ownsAny(s: BlitzState, ids: readonly string[]): boolean {
  for (const x of ids) if (s.units[x]?.power === s.power) return true;
  return false;
}

export function askAnnounce(p: PackIndex, s: BlitzState): Ask | null {
  const sel = s.sel;
  if (sel?.kind === 'attack') {
    const a = s.attacks[sel.attack]!;
    // 5.3: a power joining its partner's attack launches once it has committed a unit of its own.
    const joined = a.power === undefined || a.power === s.power || ownsAny(s, a.attackers) || ownsAny(s, a.dropped);
    const ready = joined && (a.kind === 'factory' ? a.attackers.some((x) => typeOf(p, s.units[x]!) === 'AIR') : a.kind === 'port' ? a.attackers.length > 0 : attackLandSize(p, s, a) > 0);
    // 5.3: `abomb UNIT` loads the power's A-Bomb on a committed carrier (abomb.ts).
    return { kind: 'decision', power: s.power, prompt: 'commit-attackers', options: [...commitOptions(p, s, a), ...carryOptions(p, s, a), ...(ready ? ['launch'] : [])] };
  }
  const t = targets(p, s);
  const f = factoryTargets(p, s);
  const ports = portTargets(p, s);
  const joins = joinable(p, s);
  const decl = declarations(p, s);
  if (!t.length && !f.length && !ports.length && !joins.length && !decl.length) return null;
  const options: string[] = [];
  for (const x of t) options.push(`attack ${x}`);
  for (const x of f) options.push(`bomb ${x}`);
  for (const x of ports) options.push(`raid ${x}`);
  for (const x of joins) options.push(x);
  for (const x of decl) options.push(x);
  options.push('done');
  return { kind: 'decision', power: s.power, prompt: 'announce-attack', options };
}

export function applyAnnounce(p: PackIndex, s: BlitzState, c: string, ev: Events): boolean {
  const [verb, arg] = c.split(' ') as [string, string | undefined];
  const sel = s.sel;
  if (verb === 'done') return true;
  if (verb === 'join') {
    // 5.3: the AFA and the USA attack together: the joiner commits its units to its partner's attack.
    const i = attackByLabel(s, c.slice('join '.length));
    if (i < 0) throw new IllegalChoiceError(`no attack to join for '${c}'`);
    s.sel = { kind: 'attack', attack: i };
    fired('5.3', s.scenario);
    return false;
  }
  if (verb === 'attack' || verb === 'bomb' || verb === 'raid') {
    const kind = verb === 'bomb' ? { kind: 'factory' as const } : verb === 'raid' ? { kind: 'port' as const } : {};
    s.attacks.push({ target: arg!, attackers: [], dropped: [], defenders: [], resolved: false, ...(s.modes ? { power: s.power } : {}), ...kind });
    s.sel = { kind: 'attack', attack: s.attacks.length - 1 };
    wakeDormant(p, s, arg!, ev);
    return false;
  }
  if (sel?.kind !== 'attack') throw new IllegalChoiceError(`unexpected '${c}'`);
  const a = s.attacks[sel.attack]!;
  if (verb === 'abomb') {
    carryBomb(p, s, arg!, ev); // 5.3 (abomb.ts)
    return false;
  }
  if (verb === 'launch') {
    const names = [...a.attackers, ...a.dropped].map((x) => unitName(p, x));
    if (a.power !== undefined && a.power !== s.power) {
      const mine = [...a.attackers, ...a.dropped].filter((x) => s.units[x]!.power === s.power);
      emit(ev, 'attack-joined', `${s.power} joins ${a.power}'s ${attackName(a)} on ${landName(p, a.target)} with ${mine.map((x) => unitName(p, x)).join(', ')}`, s.power, { target: a.target, by: a.power, units: mine });
      s.sel = null;
      return false;
    }
    emit(ev, 'attack-announced', `${s.power} announces a ${attackName(a)} on ${landName(p, a.target)} with ${names.join(', ')}`, s.power, { target: a.target, attackers: a.attackers, dropped: a.dropped });
    s.sel = null;
    return false;
  }
  const u = s.units[arg!]!;
  u.committed = sel.attack;
  noteFootUse(p, s, arg!); // 9.7
  if (verb === 'drop') {
    a.dropped.push(arg!);
    u.from = 'drop';
  } else {
    a.attackers.push(arg!);
    u.from = u.at;
    if (isLand(p, u) && !u.at.startsWith('trs:') && acrossRoute(p, u.at, a.target)) {
      a.routed = arg!; // 9.4
      fired('9.4', s.scenario);
    }
  }
  return false;
}

// ---------------------------------------------------------------- 5.3 the defender commits support

export function askDefend(p: PackIndex, s: BlitzState): Ask | null {
  const defender = s.defender;
  if (defender === undefined) return null; // 3.4: no defending power in the game
  const opts: string[] = [];
  for (const a of s.attacks) {
    if (a.resolved) continue;
    for (const id of supportOptions(p, s, defender, a.target, a.kind)) if (mayDefend(p, s, id, a)) opts.push(`defend ${attackLabel(s, a)} ${id}`);
  }
  if (!opts.length) return null;
  return { kind: 'decision', power: defender, prompt: 'commit-defence', options: [...opts, 'done'] };
}

export function applyDefend(p: PackIndex, s: BlitzState, c: string, ev: Events): boolean {
  if (c === 'done') return true;
  const words = c.split(' ');
  const id = words[words.length - 1]!;
  const i = attackByLabel(s, words.slice(1, -1).join(' '));
  const target = s.attacks[i]!.target;
  s.attacks[i]!.defenders.push(id);
  s.units[id]!.committed = i;
  emit(ev, 'defence-committed', `${unitName(p, id)} joins the defence of ${landName(p, target)}`, s.units[id]!.power, { target, unit: id });
  return false;
}

// ---------------------------------------------------------------- resolving

export function askResolve(s: BlitzState): Ask | null {
  // A side of several powers: each resolves its own attacks in its turn of the step.
  const open = s.attacks.filter((a) => !a.resolved && (a.power === undefined || a.power === s.power));
  if (!open.length) return null;
  return { kind: 'decision', power: s.power, prompt: 'resolve-order', options: open.map((a) => `resolve ${attackLabel(s, a)}`) };
}

export function applyResolve(p: PackIndex, s: BlitzState, c: string, ev: Events): void {
  const target = c.slice('resolve '.length);
  const i = attackByLabel(s, target);
  if (i < 0) throw new IllegalChoiceError(`no unresolved attack on ${target}`);
  startCombat(p, s, i, ev);
}

/**
 * The one empty list `parts` hands out for every list it finds empty (most combats have no paratroops,
 * AA or defending support): frozen, so a caller that wrote into it would throw rather than change the
 * next combat's answer.
 */
const NONE: string[] = Object.freeze([]) as unknown as string[];

/** The units of `ids` still in the combat: alive and not sidelined (`NONE` if none). (Not a closure in `parts`: see movement.ts `stepOk`.) */
function liveIn(s: BlitzState, c: CombatState, ids: string[]): string[] {
  let out: string[] = NONE;
  for (const x of ids) if (live(s, c, x)) (out === NONE ? (out = []) : out).push(x);
  return out;
}

const live = (s: BlitzState, c: CombatState, x: string): boolean => alive(s, x) && !c.sidelined.includes(x);


/**
 * The last `parts` worked out, with what it was worked out from: the state, its units record and the
 * count of unit writes (unit-writes.ts: every move, resize, put and removal of a unit), the combat,
 * its attack and the lists it reads (by identity and length: they only grow, by `push`), the phasing
 * side and the pack. While all are as they were, the same lists are handed out again; callers only
 * read them.
 */
let partsLast: Parts | null = null;
let partsPack: PackIndex | null = null;
let partsState: BlitzState | null = null;
let partsUnits: BlitzState['units'] | null = null;
let partsWrites = -1;
let partsCombat: CombatState | null = null;
let partsAttack = -1;
let partsSide = '';
let partsSidelined: string[] | null = null;
/** The lengths of the attack's attackers, dropped units and defenders, and of the sidelined list. */
let partsAtt = -1;
let partsDropped = -1;
let partsDef = -1;
let partsOut = -1;

/** Compare every `parts` handed out again with one worked out afresh (tests: a stale one throws). */
let checkParts = false;
export function checkCombatParts(on: boolean): void {
  checkParts = on;
}

/**
 * Participants, recomputed from the attack and the map: destroyed units drop out. Asked several times
 * a combat question (the last answer is kept, see `partsLast`); an empty list is the shared frozen
 * `NONE`, so callers only read the lists.
 */
function parts(p: PackIndex, s: BlitzState, c: CombatState): Parts {
  const a = s.attacks[c.attack]!;
  const writes = unitWrites();
  const last = partsLast;
  if (
    last !== null && partsState === s && partsCombat === c && partsWrites === writes && partsUnits === s.units && partsAttack === c.attack && last.a === a &&
    partsSide === s.side && partsSidelined === c.sidelined && partsPack === p &&
    partsAtt === a.attackers.length && partsDropped === a.dropped.length && partsDef === a.defenders.length && partsOut === c.sidelined.length
  ) {
    if (checkParts) sameParts(last, workOutParts(p, s, c));
    return last;
  }
  const q = workOutParts(p, s, c);
  partsLast = q;
  partsPack = p;
  partsState = s;
  partsUnits = s.units;
  partsWrites = writes;
  partsCombat = c;
  partsAttack = c.attack;
  partsSide = s.side;
  partsSidelined = c.sidelined;
  partsAtt = a.attackers.length;
  partsDropped = a.dropped.length;
  partsDef = a.defenders.length;
  partsOut = c.sidelined.length;
  return q;
}

function sameParts(kept: Parts, now: Parts): void {
  const same = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  if (kept.a !== now.a || !same(kept.attLand, now.attLand) || !same(kept.dropped, now.dropped) || !same(kept.attSupport, now.attSupport) || !same(kept.defLand, now.defLand) || !same(kept.defSupport, now.defSupport) || !same(kept.aa, now.aa)) {
    throw new Error('combat parts: the kept participants differ from the units');
  }
}

interface Parts {
  a: Attack;
  attLand: string[];
  dropped: string[];
  attSupport: string[];
  defLand: string[];
  defSupport: string[];
  aa: string[];
}

function workOutParts(p: PackIndex, s: BlitzState, c: CombatState): Parts {
  const a = s.attacks[c.attack]!;
  const side = s.side;
  // One pass over the attackers for both lists, one over the target's units for the defenders and their AA.
  let attLand: string[] = NONE;
  let attSupport: string[] = NONE;
  for (const x of a.attackers) {
    if (!live(s, c, x)) continue;
    if (isLand(p, s.units[x]!)) (attLand === NONE ? (attLand = []) : attLand).push(x);
    else (attSupport === NONE ? (attSupport = []) : attSupport).push(x);
  }
  const dropped = liveIn(s, c, a.dropped);
  let defLand: string[] = NONE;
  let aa: string[] = NONE;
  for (const [id, u] of unitsAt(s, a.target)) {
    if (!isLand(p, u) || sideOf(p, s, u.power) === side) continue;
    (defLand === NONE ? (defLand = []) : defLand).push(id);
    if (typeOf(p, s.units[id]!) === 'AA') (aa === NONE ? (aa = []) : aa).push(id);
  }
  const defSupport = liveIn(s, c, a.defenders);
  return { a, attLand, dropped, attSupport, defLand, defSupport, aa };
}

/**
 * Units of one side in the Air Round: air, CV and PARA that flew in (6.1); never a V-Weapon (6.1).
 * `returns`: for the round's returns to base, a CV turned BB by this round's losses still counts (6.5).
 * `q`: the combat's `parts` as they stand, where the caller has them.
 */
function airUnits(p: PackIndex, s: BlitzState, c: CombatState, side: SideId, returns = false, q: Parts = parts(p, s, c)): string[] {
  const out: string[] = [];
  if (side === s.side) {
    for (const x of q.attSupport) if (inAirRound(p, s, c, x, returns)) out.push(x);
    for (const x of q.dropped) out.push(x);
  } else for (const x of q.defSupport) if (inAirRound(p, s, c, x, returns)) out.push(x);
  return out;
}

function inAirRound(p: PackIndex, s: BlitzState, c: CombatState, x: string, returns: boolean): boolean {
  const u = s.units[x]!;
  return (isAir(p, u) && !isVWeapon(p, u)) || typeOf(p, u) === 'CV' || (returns && turnedBattleship(p, s, x, c.log));
}

function startCombat(p: PackIndex, s: BlitzState, i: number, ev: Events): void {
  const a = s.attacks[i]!;
  const side = s.side;
  const c: CombatState = { attack: i, round: 'land', att: 0, def: 0, attDie: 0, defDie: 0, armAtt: 0, armDef: 0, sidelined: [], blocked: [], tasks: [], log: [] };
  s.combat = c;
  if (controllerSide(p, s, a.target) !== enemy(side)) {
    // 5.3 attacks enemy-controlled areas only. One that stopped being enemy-held after it was announced
    // (made neutral by France's fall, say, or taken by another attack) is called off: no rounds, and the
    // committed units are freed as after a combat.
    emit(ev, 'attack-called-off', `${attackName(a)} on ${landName(p, a.target)} is called off: the area is no longer enemy-held`, s.power, { target: a.target, holder: s.control[a.target] ?? 'none' });
    return;
  }
  const q = parts(p, s, c);
  // 6.6: ARM test sizes are taken at the start of the combat; ARM from a TRS counts half.
  c.armAtt = q.attLand.filter((x) => typeOf(p, s.units[x]!) === 'ARM').reduce((t, x) => t + (s.units[x]!.from?.startsWith('trs:') ? s.units[x]!.size / 2 : s.units[x]!.size), 0);
  const bonus = Math.max(0, ...landDef(p, a.target).terrain.map((t) => ({ clear: 0, forest: 2, jungle: 4, swamp: 6, mountain: 8 })[t]));
  c.armDef = q.defLand.filter((x) => ['ARM', 'FORT'].includes(typeOf(p, s.units[x]!))).reduce((t, x) => t + s.units[x]!.size, 0) + bonus;
  emit(ev, 'combat-start', `${attackName(a)} on ${landName(p, a.target)}: ${[...q.attLand, ...q.dropped, ...q.attSupport].map((x) => unitName(p, x)).join(', ')} against ${[...q.defLand, ...q.defSupport].map((x) => unitName(p, x)).join(', ') || 'no defenders'}`, s.power, {
    target: a.target,
    attackers: [...q.attLand, ...q.dropped, ...q.attSupport],
    defenders: [...q.defLand, ...q.defSupport],
  });
  // 6.1; a Factory Attack meets the defending AA in the area as well as air units (D.6).
  const defenders = airUnits(p, s, c, enemy(side), false, q).length + (a.kind ? q.aa.length : 0);
  if (airUnits(p, s, c, side, false, q).length && defenders) setupAirRound(p, s, c);
  else c.tasks.push({ kind: 'land-round' });
}

/** Sum of (white - red) triangles in one factor box over `ids`; `whiteOnly` for 6.2's attacking land units. */
export function triangles(p: PackIndex, s: BlitzState, ids: readonly string[], box: 'air' | 'land' | 'naval', whiteOnly = false): number {
  return ids.reduce((t, x) => {
    const tri = fightFace(p, s, x).triangles?.[box];
    return t + (tri ? tri.white - (whiteOnly ? 0 : tri.red) : 0);
  }, 0);
}

/**
 * 6 and 1.8: keep fractions, round at the end (.5 up); at least 1 if any unit had a printed factor of
 * the round's type; no roll at all when nothing has a factor after modification.
 */
export function finalFactor(raw: number, printed: boolean): number {
  const r = roundHalfUp(raw);
  if (printed) return Math.max(1, r);
  return Math.max(0, r);
}

/**
 * 6.1: both sides' Air Round totals: Air Factors plus the opponents' white triangles less their red
 * (`defTriangles`: the defenders whose triangles count; AA joins without any), at least 1 with a
 * printed Air Factor (6). Over land and at sea alike.
 */
export function airRoundTotals(p: PackIndex, s: BlitzState, att: readonly string[], def: readonly string[], defTriangles: readonly string[] = def): { att: number; def: number } {
  const air = (ids: readonly string[]) => ids.reduce((t, x) => t + (fightFace(p, s, x).air ?? 0), 0);
  const printed = (ids: readonly string[]) => ids.some((x) => (fightFace(p, s, x).air ?? 0) >= 1);
  fired('6.1', s.scenario);
  return { att: finalFactor(air(att) + triangles(p, s, defTriangles, 'air'), printed(att)), def: finalFactor(air(def) + triangles(p, s, att, 'air'), printed(def)) };
}

// 6.1 Air Round
function setupAirRound(p: PackIndex, s: BlitzState, c: CombatState): void {
  const a = s.attacks[c.attack]!;
  const q = parts(p, s, c);
  const att = airUnits(p, s, c, s.side, false, q);
  const defAir = airUnits(p, s, c, enemy(s.side), false, q);
  const defAll = [...defAir, ...q.aa]; // 6.1: the defender's AA in the area joins automatically
  c.round = 'air';
  Object.assign(c, airRoundTotals(p, s, att, defAll, defAir));
  const air = (ids: string[]) => ids.map((x) => [x, fightFace(p, s, x).air ?? 0] as const);
  notePickers(p, s, c, air(att), air(defAll));
  c.attDie = c.att > 0 ? null : 0;
  c.defDie = c.def > 0 ? null : 0;
  c.log.push({ round: 'air', target: a.target, attackers: att, defenders: defAll, attFactors: c.att, defFactors: c.def });
  if (c.attDie !== null && c.defDie !== null) queueResults(p, s, c); // nobody rolls
}

// 6.2 Land Round
function setupLandRound(p: PackIndex, s: BlitzState, c: CombatState): boolean {
  const q = parts(p, s, c);
  const target = q.a.target;
  const t = landDef(p, target).terrain;
  const rough = t.some((x) => x === 'jungle' || x === 'mountain' || x === 'swamp');
  const forest = t.includes('forest');
  const attUnits = [...q.attLand, ...q.dropped];
  if (!q.defLand.length || !attUnits.length) return false;
  // (The helpers below are functions of their own, not closures made per round: see movement.ts `stepOk`.)
  let attLandLF = 0;
  for (const x of attUnits) attLandLF += attackerLF(p, s, q.a, x);
  // A.6: attacking LF halved against Jungle/Mountain/Swamp; air and naval LF halved in Forest (both sides).
  // D.2: and halved again in Snow on a Snow turn; the attackers' bombing halved under a Snowflake (1.4).
  const attMul = (rough ? 0.5 : 1) * snowLandMultiplier(p, s, target);
  const supMul = forest ? 0.5 : 1;
  const attLand = attLandLF * attMul;
  const supMulAtt = attMul * supMul * snowflakeMultiplier(p, s, target);
  const attSup = Math.min(supportLF(p, s, q.attSupport) * supMulAtt, attLand); // 5.3 support cap
  let defLandLF = 0;
  for (const x of q.defLand) defLandLF += unitLF(p, s, x);
  const defSup = Math.min(supportLF(p, s, q.defSupport) * supMul, defLandLF);
  // 6.5/6.6: each unit's own modified Land Factors in the round (support scaled down by the cap, in
  // proportion; the triangles count for the side, not for any one power).
  const attFactors: (readonly [string, number])[] = [];
  for (const x of attUnits) attFactors.push([x, attackerLF(p, s, q.a, x) * attMul]);
  cappedSupport(p, s, q.attSupport, supMulAtt, attSup, attFactors);
  const defFactors: (readonly [string, number])[] = [];
  for (const x of q.defLand) defFactors.push([x, unitLF(p, s, x)]);
  cappedSupport(p, s, q.defSupport, supMul, defSup, defFactors);
  notePickers(p, s, c, attFactors, defFactors);
  // 6.2 triangles: attackers count both colours on defending land units; defenders count only white.
  // Maginot Line map note (5.3): some units' red triangles depend on where the attackers come from.
  let attTri = 0;
  for (const x of q.defLand) {
    const only = p.unit.get(s.units[x]!.def)?.redTrianglesFrom;
    const tri = fightFace(p, s, x).triangles?.land;
    if (!tri) continue;
    const redCounts = !only || allFrom(p, s, attUnits, only);
    attTri = attTri + tri.white - (redCounts ? tri.red : 0);
  }
  // 1.7/6.2: two white triangles for the attackers per defending land unit out of supply.
  const attRaw = attLand + attSup + attTri + 2 * outOfSupplyDefenders(p, s, q.defLand);
  const mountainBonus = t.includes('mountain') || t.includes('swamp') ? attUnits.length : 0;
  const defRaw = defLandLF + defSup + triangles(p, s, attUnits, 'land', true) + mountainBonus;
  c.round = 'land';
  fired('6.2', s.scenario);
  if (rough || forest) fired('1.4', s.scenario);
  if (!Number.isInteger(attRaw) || !Number.isInteger(defRaw)) fired('1.8', s.scenario);
  c.att = finalFactor(attRaw, printsLand(p, s, attUnits) || printsLand(p, s, q.attSupport));
  c.def = finalFactor(defRaw, printsLand(p, s, q.defLand) || printsLand(p, s, q.defSupport));
  c.attDie = c.att > 0 ? null : 0;
  c.defDie = c.def > 0 ? null : 0;
  c.log.push({ round: 'land', target, attackers: [...attUnits, ...q.attSupport], defenders: [...q.defLand, ...q.defSupport], attFactors: c.att, defFactors: c.def, attRaw, defRaw, armAttack: c.armAtt, armDefence: c.armDef });
  if (c.attDie !== null && c.defDie !== null) queueResults(p, s, c); // nobody rolls
  return true;
}

/** A unit's Land Factor as it fights now (0 without one). */
function unitLF(p: PackIndex, s: BlitzState, x: string): number {
  return fightFace(p, s, x).land ?? 0;
}

/** B.5/6.2: land units attacking from a TRS use half their LF, except MAR; 9.4: so does the one across a Land Route of attack `a`. */
function attackerLF(p: PackIndex, s: BlitzState, a: Attack, x: string): number {
  const u = s.units[x]!;
  if (x === a.routed) fired('9.4', s.scenario);
  return (u.from?.startsWith('trs:') && typeOf(p, u) !== 'MAR') || x === a.routed ? unitLF(p, s, x) / 2 : unitLF(p, s, x);
}

/** B.5: naval support is 1 LF for a Small BB/CV, 2 for a Big one; air units bring their Land Factor. */
function supportUnitLF(p: PackIndex, s: BlitzState, x: string): number {
  const u = s.units[x]!;
  if (isNaval(p, u)) {
    const t = typeOf(p, u);
    return t === 'BB' || t === 'CV' ? (u.size >= 3 ? 2 : 1) : 0;
  }
  return airLandFactor(p, s, x);
}

function supportLF(p: PackIndex, s: BlitzState, ids: readonly string[]): number {
  let sum = 0;
  for (const x of ids) sum += supportUnitLF(p, s, x);
  return sum;
}

/** 6.5/6.6: each support unit of `ids` with its share of `total` (the side's capped support, `mul` applied), pushed to `out`. */
function cappedSupport(p: PackIndex, s: BlitzState, ids: readonly string[], mul: number, total: number, out: (readonly [string, number])[]): void {
  const raw = supportLF(p, s, ids) * mul;
  for (const x of ids) out.push([x, raw > 0 ? (supportUnitLF(p, s, x) * mul * total) / raw : 0]);
}

/** Maginot Line map note (5.3): whether every attacker of `ids` comes from a country of `only` (`sea` from a TRS, `air` dropped). */
function allFrom(p: PackIndex, s: BlitzState, ids: readonly string[], only: readonly string[]): boolean {
  for (const a of ids) {
    const f = s.units[a]!.from ?? '';
    if (!only.includes(p.land.get(f)?.country ?? (f.startsWith('trs:') ? 'sea' : 'air'))) return false;
  }
  return true;
}

/** Whether any unit of `ids` has a printed Land Factor for the round's minimum (6): land, air with one, or a BB/CV. */
function printsLand(p: PackIndex, s: BlitzState, ids: readonly string[]): boolean {
  for (const x of ids) {
    const u = s.units[x]!;
    if (unitLF(p, s, x) >= 1 || (isAir(p, u) && airLandFactor(p, s, x) >= 1)) return true;
    if (isNaval(p, u)) {
      const t = typeOf(p, u);
      if (t === 'BB' || t === 'CV') return true;
    }
  }
  return false;
}

/**
 * Land Factor an air unit brings (6, Unit Types Chart): its printed Land Factor, or half its primary
 * bombing factor when Land is not its primary.
 */
function airLandFactor(p: PackIndex, s: BlitzState, id: string): number {
  const u = s.units[id]!;
  const f = fightFace(p, s, id);
  if (f.land !== undefined) return f.land;
  const primary = p.unit.get(u.def)?.primary;
  return primary && primary !== 'land' ? (f[primary] ?? 0) / 2 : 0;
}

/**
 * 6.4 Strategic Round (D.6): the surviving attacking air units' Strategic Factors (half the primary
 * bombing factor of a unit whose primary is not Strategic; all halved under a Snowflake on a Snow
 * turn; terrain never counts) plus the target's Factory Factor less the damage it already has; only the
 * attacker rolls. V-Weapons take part automatically (6.1): they sat out the Air Round, so nothing in
 * it could turn them back.
 */
function setupStrategicRound(p: PackIndex, s: BlitzState, c: CombatState): boolean {
  const q = parts(p, s, c);
  const bombers = q.attSupport.filter((x) => isAir(p, s.units[x]!));
  if (!bombers.length) return false;
  const target = q.a.target;
  // 6.4: the Factory Factor counts less any damage the Factory has already taken (this turn: damage is
  // cleared at the turn's end, 7.6 step 6).
  const damage = s.factoryDamage?.[target] ?? 0;
  const factory = landDef(p, target).factory;
  const raw = bombers.reduce((t, x) => t + strategicFactor(p, s, x), 0) * snowflakeMultiplier(p, s, target) + Math.max(0, factory - damage);
  c.round = 'strategic';
  delete c.pickers; // 6.5: all its damage goes on the Factory; nobody picks
  fired('6.4', s.scenario);
  if (!Number.isInteger(raw)) fired('1.8', s.scenario);
  c.att = finalFactor(raw, true);
  c.def = 0;
  c.attDie = null;
  c.defDie = 0;
  c.log.push({ round: 'strategic', target, attackers: bombers, defenders: [], attFactors: c.att, defFactors: 0, attRaw: raw, factory, damage });
  return true;
}

/**
 * E.2 Port Attack, after any Air Round: the surviving attacking air units and carriers strike the
 * ships in port (not SUBs) in a Naval Round (6.3): carriers use half their Naval Factors, air units
 * their naval bombing factor. Only the attackers fire (5.3, 6.3: ships in port cannot fire in a Naval
 * Round, so they never fire back). Letters are not applied (6.5 ignores them in a Port Attack).
 */
function setupPortRound(p: PackIndex, s: BlitzState, c: CombatState): boolean {
  const q = parts(p, s, c);
  const strikers = q.attSupport.filter((x) => isAir(p, s.units[x]!) || typeOf(p, s.units[x]!) === 'CV');
  const ships = shipsInPort(p, s, q.a.target, enemy(s.side));
  if (!strikers.length || !ships.length) return false;
  const attRaw = strikers.reduce((t, x) => t + navalFactor(p, s, x) * (typeOf(p, s.units[x]!) === 'CV' ? 0.5 : 1), 0) + triangles(p, s, ships, 'naval');
  c.round = 'naval';
  fired('6.3', s.scenario);
  notePickers(p, s, c, strikers.map((x) => [x, navalFactor(p, s, x) * (typeOf(p, s.units[x]!) === 'CV' ? 0.5 : 1)] as const), ships.map((x) => [x, 0] as const));
  c.att = finalFactor(attRaw, strikers.some((x) => navalFactor(p, s, x) >= 1));
  c.def = 0;
  c.attDie = c.att > 0 ? null : 0;
  c.defDie = 0;
  c.log.push({ round: 'naval', target: q.a.target, attackers: strikers, defenders: ships, attFactors: c.att, defFactors: 0, attRaw, defRaw: 0 });
  if (c.attDie !== null) queueResults(p, s, c);
  return true;
}

/** Strategic Factor of an air unit (Unit Types Chart): printed, or half its primary bombing factor. */
function strategicFactor(p: PackIndex, s: BlitzState, id: string): number {
  const u = s.units[id]!;
  const f = fightFace(p, s, id);
  const primary = p.unit.get(u.def)?.primary;
  // 9.5 example: a commanded unit with Strategic Factors adds half its Land Factors (Novikov's LRA: 4 + 2/2 = 5).
  const extra = commandedStrategicExtra(p, s, id);
  if (primary === 'strategic' || (primary === undefined && f.strategic !== undefined)) return (f.strategic ?? 0) + extra;
  if (f.strategic !== undefined) return f.strategic + extra;
  return primary ? (f[primary] ?? 0) / 2 : 0;
}

/** Both dice are in: look up results and queue their effects in the order 6.5 fixes. */
function queueResults(p: PackIndex, s: BlitzState, c: CombatState): void {
  // 6: before any result of the round applies, its one-shot ('*') air units are destroyed.
  const round = c.log[c.log.length - 1];
  const spent = round ? [...(round.attackers as string[]), ...(round.defenders as string[])].filter((x) => alive(s, x) && isOneShot(p, s.units[x]!)) : [];
  if (spent.length) c.tasks.push({ kind: 'spend', units: sortIds(spent) });
  const ar = c.attDie ? chartResult(p.chart, c.att, c.attDie) : { damage: 0, letter: null, text: '-' };
  if (c.round === 'strategic') {
    // 6.4: the number is Factory damage, never more than the Factory Factor; letters are ignored.
    const target = s.attacks[c.attack]!.target;
    const was = s.factoryDamage?.[target] ?? 0;
    const hit = Math.min(ar.damage, landDef(p, target).factory - was);
    if (hit > 0) (s.factoryDamage ??= {})[target] = was + hit;
    Object.assign(c.log[c.log.length - 1]!, { attDie: c.attDie, defDie: null, attResult: ar.text, defResult: '-', factoryDamage: hit });
    c.tasks.push({ kind: 'finish' });
    return;
  }
  if (c.round === 'naval') {
    // E.2, 5.3: numbers only, and only the attacker's: they hit the ships in port.
    Object.assign(c.log[c.log.length - 1]!, { attDie: c.attDie, defDie: c.defDie, attResult: ar.text, defResult: c.defDie ? chartResult(p.chart, c.def, c.defDie).text : '-' });
    const dr = c.defDie ? chartResult(p.chart, c.def, c.defDie) : { damage: 0 };
    if (ar.damage) c.tasks.push({ kind: 'damage', victims: enemy(s.side), left: ar.damage, ownerNext: true });
    if (dr.damage) c.tasks.push({ kind: 'damage', victims: s.side, left: dr.damage, ownerNext: true });
    c.tasks.push({ kind: 'finish' });
    return;
  }
  const dr = c.defDie ? chartResult(p.chart, c.def, c.defDie) : { damage: 0, letter: null, text: '-' };
  const last = c.log[c.log.length - 1]!;
  Object.assign(last, { attDie: c.attDie, defDie: c.defDie, attResult: ar.text, defResult: dr.text });
  const side = s.side;
  const other = enemy(side);
  // 6.5: the phasing side's number first, then the other side's, then letters in the same order.
  const tasks: Task[] = [];
  if (ar.damage) tasks.push({ kind: 'damage', victims: other, left: ar.damage, ownerNext: true });
  if (dr.damage) tasks.push({ kind: 'damage', victims: side, left: dr.damage, ownerNext: true });
  if (c.round === 'air') {
    if (ar.letter) tasks.push({ kind: 'air-letter', victims: other, letter: ar.letter });
    if (dr.letter) tasks.push({ kind: 'air-letter', victims: side, letter: dr.letter });
    tasks.push({ kind: 'land-round' });
  } else {
    const island = landDef(p, s.attacks[c.attack]!.target).island;
    if (ar.letter && !island) tasks.push({ kind: 'att-letter', letter: ar.letter }); // 6.6: Islands ignore attacker letters
    if (dr.letter) tasks.push({ kind: 'def-letter', letter: dr.letter });
    tasks.push({ kind: 'finish' });
  }
  c.tasks.push(...tasks);
}

/** Units of `victims` that can take the current round's damage (6.5), or (`returns`) be sent back to base by its letter. */
function eligible(p: PackIndex, s: BlitzState, c: CombatState, victims: SideId, returns = false): string[] {
  if (c.round === 'air') return airUnits(p, s, c, victims, returns);
  if (c.round === 'naval') {
    const a = s.attacks[c.attack]!;
    if (victims !== s.side) return shipsInPort(p, s, a.target, victims);
    return parts(p, s, c).attSupport.filter((x) => typeOf(p, s.units[x]!) === 'CV');
  }
  const q = parts(p, s, c);
  return victims === s.side ? [...q.attLand, ...q.dropped] : q.defLand;
}

export function damage(p: PackIndex, s: BlitzState, id: string, ev: Events, why: string): void {
  const u = s.units[id]!;
  noteAttackerLoss(p, s, u.power);
  resizeUnit(s, u, u.size - 1);
  if (s.commanders && u.size > 0) commandedUnitHit(s, id); // 9.5: a die for its commander (dropped if the unit dies now)
  emit(ev, 'loss', `${unitName(p, id)} takes a loss (${why})${u.size > 0 ? `, now Size ${u.size}` : ''}`, u.power, { unit: id, size: u.size, why });
  if (u.size <= 0 || !unitDefHasSize(p, u.def, u.size)) eliminate(p, s, id, ev);
  else fired('1.2', s.scenario); // the counter now shows its smaller side, with that side's factors
}

/** 8 (No Casualties): a loss of the attacking side's in the land combat being fought. */
function noteAttackerLoss(p: PackIndex, s: BlitzState, power: string): void {
  if (s.combat && sideOf(p, s, power) === s.side) s.combat.attackerLoss = true;
}

/** Whether counter `def` has a side of `size` (a loss below its smallest side destroys it). */
export function unitDefHasSize(p: PackIndex, def: string, size: number): boolean {
  return size > 0 && p.unit.get(def)?.sizes[String(size) as '1'] !== undefined;
}

/**
 * 6.5: a destroyed unit goes back to its Force Pool; anything it carried dies with it. `spent`: a
 * one-shot unit used up as designed (6), or with `'voluntary'` one its owner destroyed itself (7.8):
 * either way no enemy destroyed it and it is no loss of a combat.
 */
export function eliminate(p: PackIndex, s: BlitzState, id: string, ev: Events, spent: boolean | 'voluntary' = false): void {
  const u = s.units[id]!;
  if (!spent) noteAttackerLoss(p, s, u.power);
  // 8: who destroyed it (Annihilate the Wehrmacht): the phasing power, or the power answering for the other side.
  const victimSide = sideOf(p, s, u.power);
  if (!spent) onDestroyed(p, s, id, victimSide !== s.side ? s.power : answeringPower(p, s, enemy(victimSide), [], s.combat ? s.control[s.attacks[s.combat.attack]!.target] : undefined));
  moveUnit(s, u, 'pool');
  resizeUnit(s, u, 0);
  delete u.committed;
  emit(ev, 'elimination', `${unitName(p, id)} is destroyed${spent === 'voluntary' ? ' by its own side (7.8)' : ''}`, u.power, { unit: id, type: typeOf(p, u), ...(spent === 'voluntary' ? { voluntary: true } : spent ? { spent } : {}) });
  if (s.commanders) commandedUnitLost(p, s, id, ev); // 9.5: its commander goes back to the Force Pool
  carrierLost(p, s, id, ev); // 6.5: an A-Bomb dies with its carrier (abomb.ts)
  const max = Math.max(...Object.keys(p.unit.get(u.def)!.sizes).map(Number));
  // C.8: after Italy's exit, destroyed Italian units leave the game.
  if (italyGone(p, s) && italian(p, u.def)) moveUnit(s, u, 'gone');
  else if (lostForGood(p, s, id)) {
    moveUnit(s, u, 'gone');
    setAsideLost(p, s, id); // 3.4/D.5: a conquered country's unit waits for its liberation
  }
  else if (s.scenario !== 'A') s.pool[id] = { size: max, from: 0 };
  for (const [cid] of unitsAt(s, `trs:${id}`)) eliminate(p, s, cid, ev);
}

/** The power that answers for `side` in the current combat: the attacker, or the target's controller on defence. */
function combatPower(p: PackIndex, s: BlitzState, side: SideId): string {
  if (side === s.side) return s.power;
  const target = s.attacks[s.combat!.attack]!.target;
  const holder = s.control[target];
  if (holder && sideOf(p, s, holder) === side) return holder; // answeringPower's first answer, without the list of units
  return answeringPower(p, s, side, unitsAt(s, target).map(([id]) => id), holder);
}

/**
 * 6.5/6.6: note who makes each side's picks in the round now set up (`att`, `def`: each side's units
 * in it with their Factors), kept only where it is not `combatPower`'s answer.
 */
function notePickers(p: PackIndex, s: BlitzState, c: CombatState, att: Iterable<readonly [string, number]>, def: Iterable<readonly [string, number]>): void {
  const out: Partial<Record<SideId, string>> = {};
  for (const [side, units] of [[s.side, att], [enemy(s.side), def]] as const) {
    const usual = combatPower(p, s, side);
    const pw = mostFactorsPower(p, s, side, units, usual);
    if (pw !== usual) out[side] = pw;
  }
  if (Object.keys(out).length) {
    c.pickers = out;
    fired('6.5', s.scenario);
  } else delete c.pickers;
}

/** 6.5/6.6: the power making `side`'s picks in the current round. */
const roundPower = (p: PackIndex, s: BlitzState, side: SideId): string => s.combat?.pickers?.[side] ?? combatPower(p, s, side);

const pickerOf = (p: PackIndex, s: BlitzState, victims: SideId, ownerNext: boolean) => roundPower(p, s, ownerNext ? victims : enemy(victims));

/** Returns the next question inside the current combat, or null when the combat is over. */
export function askCombat(p: PackIndex, s: BlitzState, ev: Events): Ask | null {
  const c = s.combat!;
  for (;;) {
    if (s.winner) return null;
    if (c.attDie === null) return { kind: 'chance', prompt: `${c.round}-round-attacker-die`, stream: 'combat', faces: 6 };
    if (c.defDie === null) return { kind: 'chance', prompt: `${c.round}-round-defender-die`, stream: 'combat', faces: 6 };
    const t = c.tasks[0];
    if (!t) return null;
    switch (t.kind) {
      case 'damage': {
        const el = eligible(p, s, c, t.victims);
        if (t.left <= 0 || !el.length) {
          c.tasks.shift();
          continue;
        }
        const picker = pickerOf(p, s, t.victims, t.ownerNext);
        if (el.length === 1) {
          applyCombatPick(p, s, `hit ${el[0]}`, ev);
          continue;
        }
        return { kind: 'decision', power: picker, prompt: 'assign-damage', options: sortIds(el).map((x) => `hit ${x}`) };
      }
      case 'air-letter': {
        const el = eligible(p, s, c, t.victims, true);
        const n = roundHalfUp(el.length * letterFraction(t.letter));
        c.tasks[0] = { kind: 'rtb', victims: t.victims, left: n, ownerNext: true };
        continue;
      }
      case 'rtb': {
        const el = eligible(p, s, c, t.victims, true);
        if (t.left <= 0 || !el.length) {
          c.tasks.shift();
          continue;
        }
        if (el.length <= t.left) {
          for (const x of el) sideline(p, s, c, x, ev);
          c.tasks.shift();
          continue;
        }
        return { kind: 'decision', power: pickerOf(p, s, t.victims, t.ownerNext), prompt: 'return-to-base', options: sortIds(el).map((x) => `rtb ${x}`) };
      }
      case 'spend': {
        // 6: one-shot air units were built to be used once: gone before the round's results apply.
        c.tasks.shift();
        fired('6', s.scenario);
        for (const x of t.units) {
          if (!alive(s, x)) continue;
          emit(ev, 'one-shot', `${unitName(p, x)} is used up (a one-shot unit)`, s.units[x]!.power, { unit: x });
          eliminate(p, s, x, ev, true);
        }
        continue;
      }
      case 'land-round': {
        c.tasks.shift();
        detonate(p, s, c, ev, (id) => damage(p, s, id, ev, 'A-Bomb')); // 6.1: an A-Bomb through the Air Round goes off (abomb.ts)
        const kind = s.attacks[c.attack]!.kind;
        const next = kind === 'factory' ? setupStrategicRound(p, s, c) : kind === 'port' ? setupPortRound(p, s, c) : setupLandRound(p, s, c);
        if (!next) c.tasks.push({ kind: 'finish' });
        continue;
      }
      case 'att-letter': {
        c.tasks.shift();
        const q = parts(p, s, c);
        if (c.armAtt > c.armDef && q.defLand.length) {
          const n = roundHalfUp(q.defLand.length * letterFraction(t.letter));
          if (n > 0) c.tasks.unshift({ kind: 'retreat-pick', left: n });
        }
        continue;
      }
      case 'retreat-pick': {
        const el = parts(p, s, c).defLand;
        if (t.left <= 0 || !el.length) {
          c.tasks.shift();
          continue;
        }
        // 6.6: the attacker picks every unit that must retreat (its power with the most Land Factors in the battle).
        if (el.length <= t.left) {
          t.left = 0;
          c.tasks.shift();
          c.tasks.unshift(...el.map((x) => ({ kind: 'retreat-to' as const, unit: x })));
          continue;
        }
        return { kind: 'decision', power: roundPower(p, s, s.side), prompt: 'choose-retreating-unit', options: sortIds(el).map((x) => `retreat ${x}`) };
      }
      case 'retreat-to': {
        const dest = retreatDestinations(p, s, t.unit);
        const u = s.units[t.unit]!;
        if (!alive(s, t.unit)) {
          c.tasks.shift();
          continue;
        }
        if (!dest.length || typeOf(p, u) === 'FORT') {
          // 6.6: no friendly area to retreat to (or a FORT): one extra point of damage instead.
          c.tasks.shift();
          damage(p, s, t.unit, ev, typeOf(p, u) === 'FORT' ? 'a FORT cannot retreat' : 'no retreat possible');
          continue;
        }
        if (dest.length === 1) {
          applyCombatPick(p, s, `to ${dest[0]}`, ev);
          if (s.leaveAsk) return askLeave(s); // 1.3: the one way out is an ally's area: its leave first
          continue;
        }
        return { kind: 'decision', power: u.power, prompt: 'retreat-destination', options: dest.map((x) => `to ${x}`) };
      }
      case 'def-letter': {
        c.tasks.shift();
        const q = parts(p, s, c);
        if (!q.defLand.length) {
          const adv = advancers(p, s, c);
          const n = roundHalfUp(adv.length * letterFraction(t.letter));
          if (n > 0) c.tasks.unshift({ kind: 'block', left: n });
        }
        continue;
      }
      case 'block': {
        const adv = advancers(p, s, c);
        if (t.left <= 0 || !adv.length) {
          c.tasks.shift();
          continue;
        }
        if (adv.length <= t.left) {
          c.blocked.push(...adv);
          c.tasks.shift();
          continue;
        }
        // 6.6: the defender's power with the most Land Factors in the battle picks them all.
        return { kind: 'decision', power: roundPower(p, s, enemy(s.side)), prompt: 'block-advance', options: sortIds(adv).map((x) => `block ${x}`) };
      }
      case 'finish': {
        c.tasks.shift();
        finish(p, s, c, ev);
        continue;
      }
      case 'control-coin':
        return { kind: 'chance', prompt: 'control-coin', stream: 'combat', faces: t.powers.length };
      case 'overrun': {
        if (!alive(s, t.unit)) {
          c.tasks.shift();
          continue;
        }
        const dest = overrunDestinations(p, s, t.unit);
        if (!dest.length) {
          c.tasks.shift();
          emit(ev, 'overrun', `${unitName(p, t.unit)} is overrun with nowhere to go`, s.units[t.unit]!.power, { unit: t.unit });
          eliminate(p, s, t.unit, ev);
          continue;
        }
        if (dest.length === 1) {
          applyCombatPick(p, s, `to ${dest[0]}`, ev);
          if (s.leaveAsk) return askLeave(s); // 1.3
          continue;
        }
        return { kind: 'decision', power: s.power, prompt: 'overrun-destination', options: dest.map((x) => `to ${x}`) };
      }
    }
  }
}

function sideline(p: PackIndex, s: BlitzState, c: CombatState, id: string, ev: Events): void {
  c.sidelined.push(id);
  emit(ev, 'return-to-base', `${unitName(p, id)} is forced back to base`, s.units[id]!.power, { unit: id });
}

/** Attacking land units that could advance: surviving, not sidelined, not blocked (6.6). */
function advancers(p: PackIndex, s: BlitzState, c: CombatState): string[] {
  const q = parts(p, s, c);
  return [...q.attLand, ...q.dropped].filter((x) => !c.blocked.includes(x));
}

/** 6.6: adjacent friendly area where it can stack and not under an announced enemy Ground Attack. */
function retreatDestinations(p: PackIndex, s: BlitzState, id: string): string[] {
  const u = s.units[id]!;
  const side = sideOf(p, s, u.power);
  const attacked = new Set(s.attacks.filter((a) => !a.kind).map((a) => a.target)); // 6.6: an area under a Ground Attack
  return landNeighbours(p, s, u.at)
    .map((n) => n.to)
    .filter((l) => friendlyFor(p, s, u, l) && !attacked.has(l) && canStackLand(p, s, l, side, u.size))
    .sort();
}

/**
 * 6.6 overrun: the closest area (3x movement at most) where the unit can base and a supply line of its
 * own reaches (1.7; though the unit itself need not be in supply to move); ties chosen by the attacker.
 */
export function overrunDestinations(p: PackIndex, s: BlitzState, id: string): string[] {
  const u = s.units[id]!;
  const side = sideOf(p, s, u.power);
  const f = face(p, u);
  const home = unitHome(p, s, u.def);
  const ok = (l: string) => friendlyFor(p, s, u, l) && (isNaval(p, u) ? canStackPort(p, s, l, u.size) : canStackAir(p, s, l, u.size)) && areaInSupply(p, s, u.power, home, l, 'unit');
  const v = unitViewer(p, s, u);
  const d = isNaval(p, u) ? navalDistances(p, s, u.at, 3 * f.move, side, false, v, false, typeOf(p, u) === 'SUB') : airDistances(p, s, u.at, 3 * (f.airMove ?? 0), v);
  const cands = [...d.entries()].filter(([l]) => !l.startsWith('sea:') && l !== u.at && ok(l));
  if (!cands.length) return [];
  const best = Math.min(...cands.map(([, v]) => v));
  return cands.filter(([, v]) => v === best).map(([l]) => l).sort();
}

function finish(p: PackIndex, s: BlitzState, c: CombatState, ev: Events): void {
  const q = parts(p, s, c);
  const a = q.a;
  let outcome = 'held';
  if (a.kind === 'port') {
    const naval = c.log.find((l) => l.round === 'naval');
    outcome = naval ? `ships in port struck (${naval.attResult ?? '-'} / ${naval.defResult ?? '-'})` : 'no strike reached the port';
  } else if (a.kind === 'factory') {
    const hit = c.log.find((l) => l.round === 'strategic')?.factoryDamage;
    outcome = typeof hit === 'number' ? `Factory damage ${hit} (now ${s.factoryDamage?.[a.target] ?? 0} of ${landDef(p, a.target).factory})` : 'no bombers got through';
    if (typeof hit === 'number' && hit > 0) emit(ev, 'factory-damage', `${landName(p, a.target)}'s Factory takes ${hit} damage`, s.power, { target: a.target, damage: hit, total: s.factoryDamage![a.target]! });
  } else if (!q.defLand.length) {
    const adv = advancers(p, s, c);
    if (adv.length) {
      // 6.6: every unblocked surviving attacking land unit must advance.
      for (const x of adv) {
        moveUnit(s, s.units[x]!, a.target);
        s.units[x]!.moved = true;
      }
      emit(ev, 'advance', `${adv.map((x) => unitName(p, x)).join(', ')} advance into ${landName(p, a.target)}`, s.power, { target: a.target, units: adv });
      const taker = takerOf(p, s, adv);
      // 6.6: a tie past the largest unit is settled by a coin, tossed before any overrun.
      if (typeof taker === 'string') takeControl(p, s, a.target, taker, ev, 'Ground Attack');
      else c.tasks.push({ kind: 'control-coin', target: a.target, powers: taker });
      outcome = 'taken';
      // 3.4: French warships in Vichy France are rolled for instead.
      const over = onMap(s).filter(([id, u]) => u.at === a.target && !isLand(p, u) && sideOf(p, s, u.power) !== s.side && !awaitsFleetRoll(s, id)).map(([id]) => id);
      c.tasks.push(...over.map((x) => ({ kind: 'overrun' as const, unit: x })));
    } else outcome = 'held (no attacker able to advance)';
  }
  const summary: JsonObject = { target: a.target, outcome, rounds: c.log as unknown as JsonObject[] };
  const r = c.log.map((l) => `${l.round} ${l.attFactors}:${l.defFactors} dice ${l.attDie ?? '-'}/${l.defDie ?? '-'} → ${l.attResult ?? '-'}/${l.defResult ?? '-'}`).join('; ');
  emit(ev, 'combat', `Combat for ${landName(p, a.target)}: ${r || 'no rounds'}; ${outcome}`, s.power, summary);
}

/**
 * 6.6: which power takes control when the land units advancing after a Ground Attack belong to more
 * than one power (an AFA and USA attack, 5.3): the one with the most Land Factors among them, then the
 * one with the single unit of most Land Factors (6.6's first two priorities count only for moves).
 * Powers still tied after that are returned, in code-point order, for the coin 6.6 tosses.
 */
function takerOf(p: PackIndex, s: BlitzState, adv: readonly string[]): string | string[] {
  const byPower = new Map<string, { total: number; best: number }>();
  for (const x of adv) {
    const u = s.units[x]!;
    const lf = fightFace(p, s, x).land ?? 0;
    const e = byPower.get(u.power) ?? { total: 0, best: 0 };
    byPower.set(u.power, { total: e.total + lf, best: Math.max(e.best, lf) });
  }
  if (byPower.size < 2) return byPower.keys().next().value ?? s.power;
  fired('6.6', s.scenario);
  const ranked = [...byPower.entries()].sort(([a, x], [b, y]) => y.total - x.total || y.best - x.best || (a < b ? -1 : a > b ? 1 : 0));
  const top = ranked[0]![1];
  const tied = ranked.filter(([, v]) => v.total === top.total && v.best === top.best).map(([k]) => k);
  return tied.length > 1 ? tied : tied[0]!;
}

/** Apply a pick made inside a combat (damage, return to base, retreat, block, destination). */
export function applyCombatPick(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const c = s.combat!;
  const [verb, arg] = choice.split(' ') as [string, string];
  const t = c.tasks[0];
  if (verb === 'die' && t?.kind === 'control-coin') {
    // 6.6: the coin gives the area to one of the tied powers (die 1 the first in code-point order).
    c.tasks.shift();
    const taker = t.powers[Number(arg) - 1]!;
    emit(ev, 'control-coin', `A coin gives ${landName(p, t.target)} to ${taker}`, taker, { target: t.target, powers: t.powers, taker });
    takeControl(p, s, t.target, taker, ev, 'Ground Attack');
    return;
  }
  if (verb === 'die') {
    const d = Number(arg);
    if (c.attDie === null) c.attDie = d;
    else c.defDie = d;
    if (c.attDie !== null && c.defDie !== null) queueResults(p, s, c);
    return;
  }
  if (!t) throw new IllegalChoiceError(`no pick pending for '${choice}'`);
  if (verb === 'hit' && t.kind === 'damage') {
    damage(p, s, arg, ev, ROUND_NAME[c.round]);
    t.left -= 1;
    t.ownerNext = !t.ownerNext; // 6.5: owner, then the enemy, alternately
    return;
  }
  if (verb === 'rtb' && t.kind === 'rtb') {
    sideline(p, s, c, arg, ev);
    t.left -= 1;
    t.ownerNext = !t.ownerNext;
    return;
  }
  if (verb === 'retreat' && t.kind === 'retreat-pick') {
    t.left -= 1;
    c.tasks.unshift({ kind: 'retreat-to', unit: arg });
    return;
  }
  if (verb === 'to' && t.kind === 'retreat-to') {
    // 6.6 sends a retreat only where the unit can stack (1.3): into an ally's area with its leave.
    if (holdForLeave(p, s, t.unit, arg, choice, 'combat')) return;
    const u = s.units[t.unit]!;
    emit(ev, 'retreat', `${unitName(p, t.unit)} retreats from ${landName(p, u.at)} to ${landName(p, arg)}`, u.power, { unit: t.unit, from: u.at, to: arg });
    moveUnit(s, u, arg);
    enterArea(p, s, t.unit, arg); // 1.3: the holder's air and naval units there rebase out
    c.tasks.shift();
    return;
  }
  if (verb === 'block' && t.kind === 'block') {
    c.blocked.push(arg);
    t.left -= 1;
    return;
  }
  if (verb === 'to' && t.kind === 'overrun') {
    // 6.6: the closest area where the unit can stack (1.3): an ally's with its leave.
    if (holdForLeave(p, s, t.unit, arg, choice, 'combat')) return;
    const u = s.units[t.unit]!;
    emit(ev, 'overrun', `${unitName(p, t.unit)} is overrun and moves to ${landName(p, arg)}`, u.power, { unit: t.unit, to: arg });
    moveUnit(s, u, arg);
    enterArea(p, s, t.unit, arg); // 1.3
    c.tasks.shift();
    return;
  }
  throw new IllegalChoiceError(`'${choice}' does not answer the pending combat step (${t.kind})`);
}

/** Close a combat: mark the attack resolved and free its units (6.5: air and ships go back). */
export function endCombat(s: BlitzState): void {
  const c = s.combat!;
  const a = s.attacks[c.attack]!;
  a.resolved = true;
  for (const id of [...a.attackers, ...a.dropped, ...a.defenders]) {
    const u = s.units[id];
    if (u) delete u.committed;
  }
  s.combat = null;
}

