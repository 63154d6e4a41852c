/**
 * S3 3.4 Initial deployment as the players' decision. The Allies deploy first, then the Central Powers
 * (3.4 "Allies deploy first"). Each sector's units (3.41-3.43) are placed one at a time, in ascending
 * unit number, in a hex of their sector (`deploy HHHH`), and so are the placements that leave a choice
 * (3.45: the US divisions within one hex of 3152, in rows 25 and south, three hexes from the line): the owner chooses any hex where the unit fits
 * the stacking limits of 6.1 (and 18.41) and the sector's units still to come can all still be placed,
 * so a deployment never runs into a dead end. A unit set up next to the start line and not in a fort
 * starts entrenched at Level 2 (3.4). The garrisons (3.63), the Belgian divisions (3.44: the pack's split
 * between 2152 and 2153) and the air units keep the pack's fixed places.
 *
 * The game option `deploy: 'deal'` skips this phase and uses the pack's fixed deal (setup.ts
 * `dealSector`, strongest first round-robin), for tests and benchmarks that want one opening.
 */
import type { Board, SideNo } from './board.ts';
import { SIDE_IDS } from './board.ts';
import { emit, type Events } from './events.ts';
import { label } from './flow.ts';
import { HEX, type EaState } from './state.ts';
import { isInfCav, sectorNation } from './units.ts';

/** The next unit of `side` still to deploy, -1 when its deployment is done. */
export function nextToDeploy(b: Board, s: EaState, side: SideNo): number {
  for (let u = 0; u < s.hex.length; u++) if (s.hex[u] === HEX.SETUP && b.units[u]!.side === side) return u;
  return -1;
}

/** Kind of a ground unit for 6.1: 0 Inf/Cav, 1 Field Artillery, 2 Siege, 3 Tank, -1 other. */
const kindOf = (t: string): number => (isInfCav(t as never) ? 0 : t === 'fa' ? 1 : t === 'siege' ? 2 : t === 'tank' ? 3 : -1);

/**
 * 6.1 as counts: whether hexes holding `cur` (per hex: Inf/Cav, FA, Siege, Tank, four numbers each) can
 * take `rest` more of each kind. Siege and Tank need a hex without one; Inf/Cav and FA trade: a hex kept
 * at two Inf/Cav or fewer takes two FA, a hex with three takes one.
 */
export function canHold(cur: readonly number[], rest: readonly number[]): boolean {
  let freeSiege = 0;
  let freeTank = 0;
  let infRoom = 0;
  let faRoom = 0;
  let convertible = 0;
  for (let k = 0; k < cur.length; k += 4) {
    const i = cur[k]!;
    const f = cur[k + 1]!;
    if (cur[k + 2] === 0) freeSiege++;
    if (cur[k + 3] === 0) freeTank++;
    if (i >= 3) {
      faRoom += Math.max(0, 1 - f); // only three Inf/Cav and one FA
    } else if (f >= 2) {
      infRoom += 2 - i; // two FA: at most two Inf/Cav
    } else {
      infRoom += 2 - i;
      faRoom += 2 - f;
      convertible++; // may take a third Inf/Cav at the cost of one FA room
    }
  }
  if (rest[2]! > freeSiege || rest[3]! > freeTank) return false;
  const extra = Math.max(0, rest[0]! - infRoom);
  return extra <= convertible && rest[1]! <= faRoom - extra;
}

/** 3.4, 6.1, 18.41: the hexes of its sector unit `u` may deploy in now, ascending. */
export function deployOptions(b: Board, s: EaState, u: number): number[] {
  const d = b.units[u]!;
  const hexes = b.sectors[d.sector]!.hexes;
  const n = hexes.length;
  const cur = new Array<number>(n * 4).fill(0);
  const rest = [0, 0, 0, 0];
  let british = 0;
  let french = 0;
  for (let v = 0; v < s.hex.length; v++) {
    const x = b.units[v]!;
    if (x.side !== d.side) continue;
    const kind = kindOf(x.prof.type);
    if (kind < 0) continue;
    if (s.hex[v] === HEX.SETUP) {
      if (v !== u && x.sector === d.sector) rest[kind]!++;
      continue;
    }
    const k = hexes.indexOf(s.hex[v]!);
    if (k < 0) continue;
    cur[k * 4 + kind]!++;
    const sn = sectorNation(x.nation);
    if (sn === 'british') british |= 1 << k;
    if (sn === 'french') french |= 1 << k;
  }
  const mine = sectorNation(d.nation);
  const kind = kindOf(d.prof.type);
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    if ((mine === 'british' && french & (1 << k)) || (mine === 'french' && british & (1 << k))) continue; // 18.41
    cur[k * 4 + kind]!++;
    const i = cur[k * 4]!;
    const legal = i <= 3 && cur[k * 4 + 1]! <= (i <= 2 ? 2 : 1) && cur[k * 4 + 2]! <= 1 && cur[k * 4 + 3]! <= 1;
    if (legal && canHold(cur, rest)) out.push(hexes[k]!);
    cur[k * 4 + kind]!--;
  }
  return out;
}

/** Ask `side` to deploy its next unit; false when it has none left. */
export function askDeploy(b: Board, s: EaState, side: SideNo): boolean {
  const u = nextToDeploy(b, s, side);
  if (u < 0) return false;
  s.seg = side;
  s.ask = { k: 'deploy', u, opts: deployOptions(b, s, u) };
  return true;
}

/** `deploy HHHH`: put the unit there, entrenched as 3.4 says. */
export function deployUnit(b: Board, s: EaState, u: number, h: number): void {
  s.hex[u] = h;
  s.ent[u] = b.startEnt[h]!;
}

/**
 * After a `deploy`: the side's next unit, or the other side's first (the Allies deploy first), or false
 * when both are done. A side that finishes gets its deployment told, one line per hex.
 */
export function nextDeploy(b: Board, s: EaState, ev: Events): boolean {
  const side = s.seg;
  if (askDeploy(b, s, side)) return true;
  for (const sec of b.sectors) {
    if (sec.side !== side) continue;
    for (const h of sec.hexes) {
      const here: string[] = [];
      for (let u = 0; u < s.hex.length; u++) if (s.hex[u] === h && b.units[u]!.side === side) here.push(label(b, u));
      if (here.length) emit(ev, 'deploy', SIDE_IDS[side], `${SIDE_IDS[side]} sets up in ${b.map.id(h)}: ${here.join(', ')}`, { hex: b.map.id(h), units: here.length });
    }
  }
  return side === 1 && askDeploy(b, s, 0);
}

/** The state before deployment: every sector unit waits off the map (`HEX.SETUP`). */
export function openDeployment(b: Board, s: EaState): void {
  for (let u = 0; u < s.hex.length; u++) {
    if (b.units[u]!.sector < 0) continue;
    s.hex[u] = HEX.SETUP;
    s.ent[u] = 0;
  }
  s.phase = 'setup';
  askDeploy(b, s, 1);
}
