/**
 * E's frontier with a power that is not in play (Harbin and the USSR): the holder must keep a garrison
 * of land units there or lose the area at once; from a given turn the other side has that power attack
 * once a turn (at the start of its activities): the area first, then, once it has fallen, any area of
 * the holder touching what the outside power holds. A die greater than the defenders' total Size takes
 * the area; the defenders then take losses (their owner picks first, then the attackers, alternately)
 * and the survivors retreat. Areas the outside power holds are out of play for everyone.
 */
import { IllegalChoiceError } from '@salient/engine';
import { emit, landName, unitName, type Events } from './events.ts';
import { scenarioDef, type PackIndex } from './pack-index.ts';
import { canStackLand, enemy, friendlyLand, isLand, landNeighbours, setControl, sideOf, sidePowers, unitsAt } from './query.ts';
import type { Ask, BlitzState } from './state.ts';
import { damage, eliminate, overrunDestinations } from './combat.ts';
import { fired } from './sections.ts';
import { moveUnit } from './unit-writes.ts';

const frontierOf = (p: PackIndex, s: BlitzState) => scenarioDef(p, s.scenario).frontier;

const holderLand = (p: PackIndex, s: BlitzState, land: string): [string, BlitzState['units'][string]][] => {
  const f = frontierOf(p, s)!;
  return unitsAt(s, land).filter(([, u]) => isLand(p, u) && u.power === f.holder);
};

/** Areas the outside power holds (out of play). */
export const outsideHeld = (s: BlitzState): readonly string[] => s.frontierHeld ?? [];

/** The area passes to the outside power: control becomes neutral (closed to both sides) and is remembered. */
function lose(p: PackIndex, s: BlitzState, land: string, why: string, ev: Events): void {
  const f = frontierOf(p, s)!;
  setControl(s, land, 'neutral');
  (s.frontierHeld ??= []).push(land);
  fired('E', s.scenario);
  emit(ev, 'frontier', `${f.controller} takes ${landName(p, land)} (${why}); it is out of play from now on`, f.holder, { land, controller: f.controller, why });
}

/** E: the garrison rule, checked whenever play pauses outside a combat. */
export function checkGarrison(p: PackIndex, s: BlitzState, ev: Events): void {
  const f = frontierOf(p, s);
  if (!f || s.control[f.land] !== f.holder || s.frontierAttack) return;
  const size = holderLand(p, s, f.land).reduce((t, [, u]) => t + u.size, 0);
  if (size >= f.garrison) return;
  lose(p, s, f.land, `${f.holder} kept only Size ${size} of land units there`, ev);
  for (const [id] of unitsAt(s, f.land)) displace(p, s, id, ev);
}

/** Adjacent friendly areas a land unit can fall back to. */
function fallbacks(p: PackIndex, s: BlitzState, id: string): string[] {
  const u = s.units[id]!;
  const side = sideOf(p, s, u.power);
  return landNeighbours(p, s, u.at).map((n) => n.to).filter((l) => friendlyLand(p, s, l, side) && canStackLand(p, s, l, side, u.size));
}

/** A unit left in an area the outside power took: land units to an adjacent friendly area, others to the nearest base; else lost. */
function displace(p: PackIndex, s: BlitzState, id: string, ev: Events, to0?: string): void {
  const u = s.units[id]!;
  const to = to0 ?? (isLand(p, u) ? fallbacks(p, s, id)[0] : overrunDestinations(p, s, id)[0]);
  if (to) {
    emit(ev, 'retreat', `${unitName(p, id)} falls back to ${landName(p, to)}`, u.power, { unit: id, from: u.at, to });
    moveUnit(s, u, to);
  } else eliminate(p, s, id, ev);
}

/** Start of the other side's activities: this turn's attack, if due. */
export function startFrontierAttack(p: PackIndex, s: BlitzState): void {
  const f = frontierOf(p, s);
  if (!f || s.turn < f.fromTurn || s.frontierTurn === s.turn || sideOf(p, s, f.holder) === s.side) return;
  s.frontierTurn = s.turn;
  s.frontierAttack = { stage: 'pick' };
}

/** Holder areas the outside power may attack now. */
function frontierTargets(p: PackIndex, s: BlitzState): string[] {
  const f = frontierOf(p, s)!;
  if (s.control[f.land] === f.holder) return [f.land];
  const held = new Set(outsideHeld(s));
  return Object.keys(s.control)
    .filter((l) => s.control[l] === f.holder && [...(p.borders.get(l) ?? [])].some((b) => held.has(b)))
    .sort();
}

export function askFrontier(p: PackIndex, s: BlitzState, ev: Events): Ask | null {
  const f = frontierOf(p, s)!;
  const a = s.frontierAttack!;
  const attacker = sidePowers(p, s, enemy(sideOf(p, s, f.holder)))[0]!;
  for (;;) {
    if (a.stage === 'pick') {
      const t = frontierTargets(p, s);
      if (!t.length) break;
      // Harbin itself is attacked every turn; later targets are the attacking side's choice.
      if (t.length === 1 && t[0] === f.land) {
        a.target = f.land;
        a.stage = 'die';
        continue;
      }
      return { kind: 'decision', power: attacker, prompt: 'frontier-attack', options: [...t.map((x) => `frontier ${x}`), 'frontier none'] };
    }
    if (a.stage === 'die') return { kind: 'chance', prompt: 'frontier-die', stream: 'combat', faces: 6 };
    if (a.stage === 'loss') {
      const el = holderLand(p, s, a.target!).map(([id]) => id);
      if (!el.length || !a.left) {
        a.stage = 'retreat';
        continue;
      }
      const picker = a.ownerNext ? f.holder : attacker;
      if (el.length === 1) {
        applyFrontier(p, s, `hit ${el[0]}`, ev);
        continue;
      }
      return { kind: 'decision', power: picker, prompt: 'assign-damage', options: el.map((x) => `hit ${x}`) };
    }
    // retreat: every holder unit left in the area goes; its owner picks where a land unit has a choice (E example)
    for (const [id, u] of unitsAt(s, a.target!)) {
      const to = isLand(p, u) ? fallbacks(p, s, id) : [];
      if (to.length > 1) return { kind: 'decision', power: u.power, prompt: 'retreat-to', options: to.map((l) => `to ${l}`) };
      displace(p, s, id, ev);
    }
    break;
  }
  delete s.frontierAttack;
  return null;
}

export function applyFrontier(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const f = frontierOf(p, s)!;
  const a = s.frontierAttack!;
  const [verb, arg] = choice.split(' ') as [string, string];
  if (a.stage === 'pick' && verb === 'frontier') {
    if (arg === 'none') {
      emit(ev, 'frontier', `No ${f.controller} attack this turn`, undefined, { land: null });
      a.stage = 'retreat';
      a.target = '';
      return;
    }
    a.target = arg;
    a.stage = 'die';
    return;
  }
  if (a.stage === 'die' && verb === 'die') {
    const d = Number(arg);
    const size = holderLand(p, s, a.target!).reduce((t, [, u]) => t + u.size, 0);
    fired('E', s.scenario);
    if (d > size) {
      lose(p, s, a.target!, `a ${f.controller} attack rolled ${d} against Size ${size}`, ev);
      a.stage = 'loss';
      a.left = f.losses;
      a.ownerNext = true;
    } else {
      emit(ev, 'frontier', `${f.controller} attack on ${landName(p, a.target!)} fails (rolled ${d} against Size ${size})`, f.holder, { land: a.target!, die: d, size });
      a.stage = 'retreat';
      a.target = '';
    }
    return;
  }
  if (a.stage === 'retreat' && verb === 'to') {
    const mover = unitsAt(s, a.target!).find(([id, u]) => isLand(p, u) && fallbacks(p, s, id).length > 1);
    if (!mover || !fallbacks(p, s, mover[0]).includes(arg)) throw new IllegalChoiceError(`'${choice}' is not a retreat open now`);
    displace(p, s, mover[0], ev, arg);
    return;
  }
  if (a.stage === 'loss' && verb === 'hit') {
    const u = s.units[arg];
    if (!u || u.at !== a.target) throw new IllegalChoiceError(`'${choice}' is not a unit in ${a.target}`);
    damage(p, s, arg, ev, `${f.controller} attack`);
    a.left = (a.left ?? 1) - 1;
    a.ownerNext = !a.ownerNext;
    return;
  }
  throw new IllegalChoiceError(`'${choice}' does not answer the ${f.controller} attack`);
}
