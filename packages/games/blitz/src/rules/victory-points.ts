/**
 * Victory points from the Victory Card objectives a scenario lists (8, D.11): scored the moment they
 * happen (Control Industrial Might) or at each turn end, capped at the target; the game ends at once
 * when a power reaches the target, else after the last turn, and the power with most points wins for
 * its side (D: the Western Allies score nothing and win only with the USSR). Equal leaders draw.
 */
import { IllegalChoiceError, type JsonObject } from '@salient/engine';
import type { ObjectiveDef } from '../pack/schema.ts';
import { emit, landName, type Events } from './events.ts';
import { landDef, scenarioDef, unitDef, type PackIndex } from './pack-index.ts';
import { enemy, sideOf, typeOf } from './query.ts';
import { fired } from './sections.ts';
import type { Ask, BlitzState, SideId } from './state.ts';
import { homeCountries } from './supply.ts';
import { atomicClubPoints } from './abomb.ts';

const victoryOf = (p: PackIndex, s: BlitzState) => scenarioDef(p, s.scenario).victory;

export const scoresObjectives = (p: PackIndex, s: BlitzState): boolean => victoryOf(p, s) !== undefined;

function objectivesOf(p: PackIndex, s: BlitzState, kind: ObjectiveDef['kind']): ObjectiveDef[] {
  return victoryOf(p, s)?.objectives.filter((o) => o.kind === kind) ?? [];
}

function award(p: PackIndex, s: BlitzState, power: string, n: number, why: string, ev: Events, data: JsonObject, floor = 0): void {
  if (!n || (n > 0 && s.out?.includes(power))) return; // 3.4: a power out of the game gains nothing
  const target = victoryOf(p, s)!.target;
  const was = s.vp![power] ?? 0;
  const now = Math.max(Math.min(floor, was), Math.min(target, was + n)); // 8: capped at the target
  s.vp![power] = now;
  fired('8', s.scenario);
  emit(ev, 'victory-points', `${power} ${n > 0 ? 'gains' : 'loses'} ${Math.abs(n)} VP (${why}): ${now}`, power, { ...data, vp: n, total: now });
}

/**
 * Control Industrial Might (8): taking an enemy Factory gains its Factory Factor at once; losing a
 * Factory you captured loses those points again (losing your own starting Factory costs nothing).
 */
export function onCapture(p: PackIndex, s: BlitzState, land: string, power: string, ev: Events): void {
  if (!scoresObjectives(p, s)) return;
  const factor = landDef(p, land).factory;
  if (!factor) return;
  const prior = s.captured?.[land];
  if (prior && prior !== power) {
    delete s.captured![land];
    // 9.9: a looted Factory still costs its VP when lost, even below zero.
    const looted = s.looted?.includes(land) ?? false;
    if (looted) s.looted = s.looted!.filter((x) => x !== land);
    if (objectivesOf(p, s, 'industrial-might').some((o) => o.power === prior)) award(p, s, prior, -factor, `Control Industrial Might: ${landName(p, land)} lost`, ev, { objective: 'industrial-might', land, ...(looted ? { looted } : {}) }, looted ? -Infinity : 0);
  }
  const start = scenarioDef(p, s.scenario).control[land];
  const enemyFactory = start !== undefined && start !== 'neutral' && sideOf(p, s, start) === enemy(sideOf(p, s, power));
  if (enemyFactory && objectivesOf(p, s, 'industrial-might').some((o) => o.power === power)) {
    (s.captured ??= {})[land] = power;
    // 9.9: with Looting the captor chooses, Factory by Factory, between the VP and the loot (lootOptions).
    if (s.optional?.includes('9.9')) (s.loot ??= []).push({ land, power, vp: factor });
    else award(p, s, power, factor, `Control Industrial Might: ${landName(p, land)}`, ev, { objective: 'industrial-might', land });
  }
  checkTarget(p, s, ev);
}

// ---------------------------------------------------------------- 9.9 Looting

/**
 * 9.9: the captor of a Factory that would score Control Industrial Might answers at once: its VP
 * (`score LAND vp:N`), or for each of them 2 saved Resources or 1 saved Oil instead (`loot LAND resources:R oil:O`).
 */
export function askLoot(s: BlitzState): Ask {
  const x = s.loot![0]!;
  fired('9.9', s.scenario);
  const loot = Array.from({ length: x.vp + 1 }, (_, oil) => `loot ${x.land} resources:${2 * (x.vp - oil)} oil:${oil}`);
  return { kind: 'decision', power: x.power, prompt: 'loot-factory', options: [`score ${x.land} vp:${x.vp}`, ...loot] };
}

export function applyLoot(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const x = s.loot!.shift()!;
  if (!s.loot!.length) delete s.loot;
  const m = new RegExp(`^loot ${x.land} resources:(\\d+) oil:(\\d+)$`).exec(choice);
  if (choice === `score ${x.land} vp:${x.vp}`) {
    award(p, s, x.power, x.vp, `Control Industrial Might: ${landName(p, x.land)}`, ev, { objective: 'industrial-might', land: x.land });
    checkTarget(p, s, ev);
    return;
  }
  const res = Number(m?.[1]);
  const oil = Number(m?.[2]);
  if (!m || res + 2 * oil !== 2 * x.vp) throw new IllegalChoiceError(`'${choice}' is not a choice for the Factory in ${x.land}`);
  (s.saved ??= {})[x.power] = (s.saved[x.power] ?? 0) + res;
  (s.oil ??= {})[x.power] = (s.oil[x.power] ?? 0) + oil;
  (s.looted ??= []).push(x.land);
  emit(ev, 'loot', `${x.power} loots the Factory in ${landName(p, x.land)}: ${[res ? `${res} Resources` : '', oil ? `${oil} Oil` : ''].filter(Boolean).join(' and ')} saved instead of ${x.vp} VP`, x.power, { land: x.land, resources: res, oil, vp: x.vp });
}

/**
 * No Casualties (8 and the Victory Card clarification): a land area the power takes from the other
 * side without loss counts at this turn's end if its side still holds it then. Only the power that
 * took it qualifies, even when it hands the area to an ally (the 8 example: the USA takes French North
 * Africa and liberates it to the AFA; the USA scores, the AFA does not). "Without loss": no unit of the
 * attacking side took a loss in the combat that took the area; walking into an empty area costs none.
 * Losing the area, or taking it back with a loss, cancels the earlier take.
 */
export function onTaken(p: PackIndex, s: BlitzState, land: string, before: string, power: string): void {
  if (!objectivesOf(p, s, 'no-casualties').length) return;
  if (s.cleanTakes?.length) s.cleanTakes = s.cleanTakes.filter((t) => t.slice(t.indexOf(':') + 1) !== land);
  if (before === 'neutral' || sideOf(p, s, before) !== enemy(sideOf(p, s, power))) return;
  const c = s.combat;
  const lost = c !== null && s.attacks[c.attack]?.target === land && c.attackerLoss === true;
  // A new array: the draft of a state shares this one with the state it was made from.
  if (!lost) s.cleanTakes = [...(s.cleanTakes ?? []), `${power}:${land}`];
}

/** Note a destroyed unit for "destroy a unit of this type this turn" objectives, with who destroyed it. */
export function onDestroyed(p: PackIndex, s: BlitzState, id: string, by: string): void {
  if (!objectivesOf(p, s, 'destroy-type').length) return;
  const u = s.units[id]!;
  (s.kills ??= []).push(`${by}:${unitDef(p, u.def).nation}:${typeOf(p, u)}`);
}

/** 8: note a unit `power` built this turn (revealed at the builds) for `build-unit` objectives (Super Weapons). */
export function onBuilt(p: PackIndex, s: BlitzState, power: string, unit: string): void {
  if (!objectivesOf(p, s, 'build-unit').some((o) => o.power === power && (o.units ?? []).includes(unit))) return;
  s.built = [...(s.built ?? []), `${power}:${unit}`];
}

/** Whether `power` holds any land area in play of one of its home countries. */
function holdsHome(p: PackIndex, s: BlitzState, power: string): boolean {
  const homes = homeCountries(p, s, power);
  return Object.keys(s.control).some((l) => s.control[l] === power && homes.has(landDef(p, l).country));
}

/** Points `o` earns at this turn end. */
function turnEndPoints(p: PackIndex, s: BlitzState, o: ObjectiveDef): number {
  const vp = o.vp ?? 1;
  const mine = (l: string) => s.control[l] === o.power;
  switch (o.kind) {
    case 'industrial-might':
      return 0; // scored as it happens
    case 'long-war':
      return holdsHome(p, s, o.power) ? (o.byTurn?.[String(s.turn)] ?? 0) : 0;
    case 'control-count':
      return (o.areas ?? []).filter(mine).length >= (o.atLeast ?? 1) ? vp : 0;
    case 'deny': {
      const side = sideOf(p, s, o.power);
      const lands = Object.keys(s.control).filter((l) => (o.countries ?? []).includes(landDef(p, l).country) && !(o.except ?? []).includes(l));
      return lands.every((l) => s.control[l] === 'neutral' || sideOf(p, s, s.control[l]!) !== enemy(side)) ? vp : 0;
    }
    case 'destroy-type':
      return (s.kills ?? []).includes(`${o.power}:${o.nation}:${o.type}`) ? vp : 0;
    case 'buffer-zone': {
      const homes = homeCountries(p, s, o.power);
      const zone = Object.keys(s.control).filter((l) => mine(l) && !homes.has(landDef(p, l).country) && !(o.except ?? []).includes(l) && [...(p.borders.get(l) ?? [])].some((b) => homes.has(landDef(p, b).country)));
      return zone.length >= (o.atLeast ?? 3) ? vp : 0;
    }
    case 'factories-intact':
      return (o.areas ?? []).every((l) => mine(l) && !(s.factoryDamage?.[l] ?? 0)) ? vp : 0;
    case 'presence': {
      const foe = enemy(sideOf(p, s, o.power));
      const size = enemyAtSea(p, s, o.seas ?? [], foe).filter(([, u]) => ['AIR', 'BB', 'CV', 'SUB'].includes(typeOf(p, u))).reduce((t, [, u]) => t + u.size, 0);
      return size >= (o.atLeast ?? 1) ? vp : 0;
    }
    case 'seas-clear':
      return enemyAtSea(p, s, o.seas ?? [], enemy(sideOf(p, s, o.power))).length === 0 ? vp : 0;
    case 'no-casualties': {
      const side = sideOf(p, s, o.power);
      const held = (s.cleanTakes ?? []).filter((t) => {
        const at = t.indexOf(':');
        const land = t.slice(at + 1);
        return t.slice(0, at) === o.power && s.control[land] !== undefined && s.control[land] !== 'neutral' && sideOf(p, s, s.control[land]) === side;
      });
      return held.length >= (o.atLeast ?? 1) ? vp : 0;
    }
    case 'build-unit':
      // Super Weapons (8): the card is not in the text; once per turn with any listed unit built (estimated in the pack).
      return (o.units ?? []).some((x) => (s.built ?? []).includes(`${o.power}:${x}`)) ? vp : 0;
    case 'atomic-club':
      return atomicClubPoints(s, o.power, o.ladder ?? []); // abomb.ts
    case 'lend-lease':
      return (s.llThisTurn ?? []).includes(`${o.power}>${o.nation}`) && enemyAtSea(p, s, o.seas ?? [], enemy(sideOf(p, s, o.power))).length === 0 ? vp : 0;
  }
}

/** Units of `side` at sea in any of `seas`. */
function enemyAtSea(p: PackIndex, s: BlitzState, seas: readonly string[], side: SideId): [string, BlitzState['units'][string]][] {
  const at = new Set(seas.map((x) => `sea:${x}`));
  return Object.entries(s.units).filter(([, u]) => at.has(u.at) && sideOf(p, s, u.power) === side);
}

/** 8: the turn-end tally, then the end check. */
export function scoreObjectives(p: PackIndex, s: BlitzState, ev: Events): void {
  const v = victoryOf(p, s);
  if (!v) return;
  for (const o of v.objectives) {
    const n = turnEndPoints(p, s, o);
    if (n) award(p, s, o.power, n, o.name, ev, { objective: o.id });
    if (s.winner || s.draw) return;
  }
  delete s.kills;
  delete s.built;
  delete s.llThisTurn;
  delete s.cleanTakes;
  checkTarget(p, s, ev);
}

/** 8: a power at the target ends the game at once. */
function checkTarget(p: PackIndex, s: BlitzState, ev: Events): void {
  const v = victoryOf(p, s)!;
  if (s.winner || s.draw) return;
  if (Object.values(s.vp ?? {}).some((x) => x >= v.target)) decideByPoints(p, s, ev, `a power reached ${v.target} VP on Turn ${s.turn}`);
}

/** The side of the power with most points wins (a power in `winsWith` only with its partner); equal leaders draw. */
export function decideByPoints(p: PackIndex, s: BlitzState, ev: Events, why: string): void {
  const v = victoryOf(p, s)!;
  const split = scenarioDef(p, s.scenario).splits?.[String(s.players ?? '')];
  if (split) return decideByPlayers(p, s, ev, why, split);
  const ranked = Object.entries(s.vp ?? {})
    .filter(([pw]) => !v.winsWith?.[pw])
    .sort((a, b) => b[1] - a[1]);
  const tally = ranked.map(([pw, n]) => `${pw} ${n}`).join(', ');
  const top = ranked[0]!;
  const tied = ranked.filter(([, n]) => n === top[1]);
  const sides = new Set(tied.map(([pw]) => sideOf(p, s, pw)));
  s.reason = `${why}: ${tally} (Scenario ${s.scenario} victory)`;
  if (sides.size > 1) {
    s.draw = true;
    emit(ev, 'victory', `Draw: ${s.reason}`, undefined, { side: 'draw', reason: s.reason });
    return;
  }
  const side = [...sides][0] as SideId;
  s.winner = side;
  emit(ev, 'victory', `${side} win: ${s.reason}`, undefined, { side, reason: s.reason, power: top[0] });
}

/**
 * 8/F.8: with a player split, each player scores the average VP of the powers it runs; the player
 * with the highest average wins, for its side (equal players on different sides draw).
 */
function decideByPlayers(p: PackIndex, s: BlitzState, ev: Events, why: string, split: string[][]): void {
  // 9.1: each player's bid is added to its average once the game is over (it never ends the game).
  const bidding = s.optional?.includes('9.1') ?? false;
  const avg = split.map((powers) => {
    const mean = powers.reduce((t, x) => t + (s.vp?.[x] ?? 0), 0) / powers.length;
    const bid = bidding ? (s.bids?.[powers.join('+')] ?? 0) : 0;
    return { powers, mean, bid, vp: mean + bid };
  });
  avg.sort((a, b) => b.vp - a.vp);
  const top = avg[0]!;
  const tied = avg.filter((x) => x.vp === top.vp);
  const sides = new Set(tied.map((x) => sideOf(p, s, x.powers[0]!)));
  const r2 = (x: number) => Math.round(x * 100) / 100;
  const tally = avg.map((x) => `${x.powers.join('+')} ${r2(x.vp)}${bidding ? ` (${r2(x.mean)} ${x.bid < 0 ? '-' : '+'} bid ${Math.abs(x.bid)})` : ''}`).join(', ');
  s.reason = `${why}: ${tally} average VP per player${bidding ? ' with the bids of 9.1' : ''} (${split.length} players; Scenario ${s.scenario} victory)`;
  fired('8', s.scenario);
  if (bidding) fired('9.1', s.scenario);
  const bids: JsonObject = bidding ? { players: avg.map((x) => ({ powers: x.powers.join('+'), average: x.mean, bid: x.bid, total: x.vp })) } : {};
  if (sides.size > 1) {
    s.draw = true;
    emit(ev, 'victory', `Draw: ${s.reason}`, undefined, { side: 'draw', reason: s.reason, ...bids });
    return;
  }
  s.winner = [...sides][0] as SideId;
  emit(ev, 'victory', `${s.winner} win: ${s.reason}`, undefined, { side: s.winner, reason: s.reason, powers: top.powers, ...bids });
}

/** Most points per side, for margins and adjudication. */
export function bestOfSide(p: PackIndex, s: BlitzState, side: SideId): number {
  return Math.max(0, ...Object.entries(s.vp ?? {}).filter(([pw]) => sideOf(p, s, pw) === side).map(([, n]) => n));
}
