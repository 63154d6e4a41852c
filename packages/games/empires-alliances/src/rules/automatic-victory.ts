/**
 * 12 Automatic Victory: combat in the Movement Phase. The phasing player gathers units next to an enemy
 * hex until they reach 8-1 (10-1 in forest, swamp, a major city, an entrenchment or a fort, or in Mud or
 * Snow; 12-1 with both, 12.1); the defenders go to the Replacement Pool at once (12.2), the units used
 * may neither move on nor attack this segment but may advance into the hex (12.2), and the rest of the
 * side moves as if the defenders had never been there (12.3).
 *
 * Choices: `av HHHH` in the Movement Phase (offered when every eligible unit together reaches the
 * odds), then `with U` one at a time, `go` once the odds and 13.652's mix are met, or `cancel`; then
 * `advance U` / `stay` (the advance-unit prompt) while a unit used may still enter the emptied hex.
 */
import { SIDE_IDS, type Board, type SideNo } from './board.ts';
import { attackEighths, attackMixLegal, avOddsNeeded, defenseEighths } from './combat.ts';
import { emit, type Events } from './events.ts';
import { fastOf } from './fast.ts';
import { attackedFrom, effLevel, eliminate, first, label, occIndex, sectorOk, setCtl, type Occ } from './flow.ts';
import { fired } from './sections.ts';
import { nationsMayStack, stackLegal } from './stacking.ts';
import { FLAG, type EaState } from './state.ts';

/** 12.1: the odds hex `hex` needs for an AV now: defensive terrain, a defender's entrenchment or any fort there, and the weather. */
export function avNeeded(b: Board, s: EaState, hex: number, occ: Occ): number {
  let hard = b.avHard[hex] === 1;
  for (let i = 0; i < s.forts.length && !hard; i += 3) if (s.forts[i] === hex) hard = true;
  for (let u = first(occ, hex); u >= 0 && !hard; u = occ.next[u]!) if (s.ent[u]! > 0) hard = true;
  return avOddsNeeded(hard, s.wx !== 'clear');
}

/** 12.1 with 13.2, 13.4, 13.85: the phasing units next to `hex` that could attack it: across a side that can be attacked, not demoralized, not already used in an AV. Ascending. */
export function avEligible(b: Board, s: EaState, hex: number, occ: Occ = occIndex(b, s)): number[] {
  const out: number[] = [];
  for (let d = 0; d < 6; d++) {
    const nb = b.map.neighbours[hex * 6 + d]!;
    if (nb < 0 || b.sideAtt8[b.map.grid.sides[hex * 6 + d]!] === 0) continue;
    for (let u = first(occ, nb); u >= 0; u = occ.next[u]!) {
      if (b.units[u]!.side !== s.seg || s.mor[u] !== 0 || (s.flg[u]! & FLAG.AV) !== 0) continue;
      out.push(u);
    }
  }
  return out.sort((x, y) => x - y);
}

/** Attack strength in eighths of `att` on `hex` (supply, hexsides, 16.3's halved tanks), as 13.641 counts it. */
function attack8(b: Board, s: EaState, hex: number, att: readonly number[]): number {
  let t = 0;
  for (const u of att) {
    const side = b.map.grid.sideBetween(s.hex[u]!, hex);
    let across = b.sideAtt8[side]!;
    if (b.units[u]!.prof.type === 'tank' && b.sideTankHalf[side]) across = Math.min(across, 4);
    t += attackEighths(b.units[u]!.prof.attack, effLevel(b, s, u), { num: across, den: 8 });
  }
  return t;
}

/** Defense strength in eighths of the units in `hex` (supply, demoralization). */
function defense8(b: Board, s: EaState, hex: number, occ: Occ): number {
  let t = 0;
  for (let u = first(occ, hex); u >= 0; u = occ.next[u]!) t += defenseEighths(b.units[u]!.prof.defense, effLevel(b, s, u), s.mor[u] !== 0);
  return t;
}

/** 12.1: whether `att` achieves an AV on `hex`: 13.652's mix and the odds. */
export function avAchieved(b: Board, s: EaState, hex: number, att: readonly number[], occ: Occ = occIndex(b, s)): boolean {
  if (att.length === 0 || !attackMixLegal(att.map((u) => b.units[u]!.prof.type))) return false;
  const def = defense8(b, s, hex, occ);
  return def > 0 && attack8(b, s, hex, att) >= avNeeded(b, s, hex, occ) * def;
}

/**
 * The enemy hexes an AV can be made on now (12.1): every eligible unit together reaches the odds.
 * Printed attack is an upper bound on the strength, so most hexes are dismissed without the full count.
 *
 * A hex's verdict reads only the units in it and next to it (their hex, supply, morale, entrenchment
 * and AV mark), the forts, the weather and the phasing side. The verdicts are kept per board (`AvMemo`);
 * a call works out only the hexes in and next to wherever such a unit fact changed since the last call
 * (a Movement Phase moves one unit at a time, so most verdicts hold from one look to the next). A change
 * of phasing side, weather or forts works them all out again.
 */
export function avTargets(b: Board, s: EaState): number[] {
  const occ = occIndex(b, s);
  const m = avMemoOf(b, s);
  const enemy = 1 - s.seg;
  const f = fastOf(b);
  if (m.all) {
    // Every hex an enemy ground unit stands in.
    const them = f.ofSide[enemy as SideNo];
    for (let i = 0; i < them.length; i++) {
      const u = them[i]!;
      const h = s.hex[u]!;
      if (h >= 0 && f.ground[u] === 1 && m.verdict[h] === 0) judge(b, s, occ, m, h);
    }
    m.all = false;
  } else {
    for (let i = 0; i < m.dirtyN; i++) {
      const h = m.dirty[i]!;
      m.marked[h] = 0;
      const u = first(occ, h);
      if (u >= 0 && f.side[u] === enemy && m.verdict[h] === 0) judge(b, s, occ, m, h);
    }
  }
  m.dirtyN = 0;
  return m.yes.length === 0 ? [] : m.yes.slice().sort((x, y) => x - y);
}

/** Work out and keep hex `h`'s verdict (it holds an enemy ground unit). */
function judge(b: Board, s: EaState, occ: Occ, m: AvMemo, h: number): void {
  const f = fastOf(b);
  const { side, attack } = f;
  const { neighbours } = b.map;
  const sides = b.map.grid.sides;
  // The printed attack of every unit that could join bounds the strength from above: most hexes
  // have no phasing unit next to them at all, and are dismissed before any count.
  let upper = 0;
  for (let d = 0; d < 6; d++) {
    const nb = neighbours[h * 6 + d]!;
    if (nb < 0 || b.sideAtt8[sides[h * 6 + d]!] === 0) continue;
    for (let a = first(occ, nb); a >= 0; a = occ.next[a]!) {
      if (side[a] === s.seg && s.mor[a] === 0 && (s.flg[a]! & FLAG.AV) === 0) upper += 8 * attack[a]!;
    }
  }
  let yes = false;
  if (upper > 0) {
    const def = defense8(b, s, h, occ);
    // Below even 8-1, or below the odds the hex needs: no AV.
    if (def > 0 && upper >= 8 * def && upper >= avNeeded(b, s, h, occ) * def) yes = avAchieved(b, s, h, avEligible(b, s, h, occ), occ);
  }
  m.verdict[h] = yes ? 2 : 1;
  if (yes) m.yes.push(h);
}

/**
 * Per board, what `avTargets` knows, for the unit facts, forts, weather and phasing side it last saw
 * (copies of them here): the verdict of every hex an enemy ground unit stands in (1 no AV, 2 an AV; 0
 * elsewhere and where not yet worked out), the hexes with an AV, and the hexes to work out again.
 */
interface AvMemo {
  seg: number;
  wx: string;
  forts: number[];
  hex: Int32Array;
  /** Per unit: supply + 4 × morale + 16 × entrenchment + 64 when marked as used in an AV (12.2). */
  fact: Int32Array;
  verdict: Int8Array;
  yes: number[];
  /** Work out every enemy hex (after a change of side, weather or forts). */
  all: boolean;
  dirty: Int32Array;
  dirtyN: number;
  marked: Uint8Array;
}
const avMemos = new WeakMap<Board, AvMemo>();

const unitFact = (s: EaState, u: number): number => s.sup[u]! + 4 * s.mor[u]! + 16 * s.ent[u]! + ((s.flg[u]! & FLAG.AV) !== 0 ? 64 : 0);

/** The board's AV memo, brought up to `s`: the verdicts in and next to every hex whose units changed forgotten. */
function avMemoOf(b: Board, s: EaState): AvMemo {
  let m = avMemos.get(b);
  const n = s.hex.length;
  const size = b.map.size;
  if (!m || m.hex.length !== n) {
    m = { seg: -1, wx: '', forts: [], hex: new Int32Array(n), fact: new Int32Array(n), verdict: new Int8Array(size), yes: [], all: true, dirty: new Int32Array(size), dirtyN: 0, marked: new Uint8Array(size) };
    avMemos.set(b, m);
  }
  let same = !m.all && m.seg === s.seg && m.wx === s.wx && m.forts.length === s.forts.length;
  for (let i = 0; same && i < s.forts.length; i++) same = m.forts[i] === s.forts[i];
  if (!same) {
    m.seg = s.seg;
    m.wx = s.wx;
    m.forts = s.forts.slice();
    m.verdict.fill(0);
    m.yes.length = 0;
    m.all = true;
    for (let i = 0; i < m.dirtyN; i++) m.marked[m.dirty[i]!] = 0;
    m.dirtyN = 0;
    for (let u = 0; u < n; u++) {
      m.hex[u] = s.hex[u]!;
      m.fact[u] = unitFact(s, u);
    }
    return m;
  }
  for (let u = 0; u < n; u++) {
    const h = s.hex[u]!;
    const x = unitFact(s, u);
    if (m.hex[u] === h && m.fact[u] === x) continue;
    forgetAround(b, m, m.hex[u]!);
    forgetAround(b, m, h);
    m.hex[u] = h;
    m.fact[u] = x;
  }
  return m;
}

/** Forget the verdicts of hex `h` (nothing when off the map) and its neighbours, and mark them to work out again. */
function forgetAround(b: Board, m: AvMemo, h: number): void {
  if (h < 0) return;
  forget(m, h);
  const { neighbours } = b.map;
  for (let d = 0; d < 6; d++) {
    const nb = neighbours[h * 6 + d]!;
    if (nb >= 0) forget(m, nb);
  }
}

function forget(m: AvMemo, h: number): void {
  if (m.verdict[h] === 2) m.yes.splice(m.yes.indexOf(h), 1);
  m.verdict[h] = 0;
  if (m.marked[h] === 0) {
    m.marked[h] = 1;
    m.dirty[m.dirtyN++] = h;
  }
}

/** 12.2: the AV is achieved: the defenders go to the Replacement Pool, the units used are marked (no more moving, no attack this segment). */
export function playAv(b: Board, s: EaState, hex: number, att: readonly number[], ev: Events): void {
  const occ = occIndex(b, s);
  const defs: number[] = [];
  for (let u = first(occ, hex); u >= 0; u = occ.next[u]!) defs.push(u);
  const needed = avNeeded(b, s, hex, occ);
  emit(ev, 'combat', SIDE_IDS[s.seg], `${b.map.id(hex)}: automatic victory at ${needed}-1 or better (12.1): ${defs.length} unit(s) eliminated`, {
    hex: b.map.id(hex),
    odds: `${needed}-1`,
    result: 'AV',
    attackers: att.length,
    defenders: defs.length,
    from: attackedFrom(b, s, att),
  });
  for (const u of defs) eliminate(b, s, u, ev, 'automatic victory (12.2)');
  for (const u of att) s.flg[u] = s.flg[u]! | FLAG.AV | FLAG.MOVED | FLAG.ATTACKED;
  fired('12');
}

/** 12.2: units used in the AV on `hex` that may still advance into it (adjacent, within stacking and 3.62's sectors). */
export function avAdvanceOptions(b: Board, s: EaState, hex: number, used: readonly number[]): number[] {
  const occ = occIndex(b, s);
  const here: number[] = [];
  for (let u = first(occ, hex); u >= 0; u = occ.next[u]!) {
    if (b.units[u]!.side !== s.seg) return [];
    here.push(u);
  }
  const profs = here.map((u) => b.units[u]!.prof);
  return used.filter((u) => {
    if (s.hex[u]! < 0 || s.hex[u] === hex || b.map.grid.distance(s.hex[u]!, hex) !== 1) return false;
    const p = b.units[u]!.prof;
    return stackLegal([...profs, p]) && nationsMayStack([...profs, p]) && sectorOk(b, s, u, hex);
  });
}

/** 12.2: unit `u` advances into the AV hex: control passes (4.2), an enemy fort there is destroyed (as 13.9). */
export function avAdvance(b: Board, s: EaState, u: number, hex: number, ev: Events): void {
  const from = s.hex[u]!;
  s.hex[u] = hex;
  s.ent[u] = 0;
  setCtl(b, s, hex, s.seg as SideNo, ev);
  for (let i = 0; i < s.forts.length; i += 3) {
    if (s.forts[i] === hex && s.forts[i + 1] !== s.seg) {
      s.forts.splice(i, 3);
      break;
    }
  }
  emit(ev, 'advance', SIDE_IDS[s.seg], `${label(b, u)} advances ${b.map.id(from)} -> ${b.map.id(hex)} after the automatic victory`, { unit: u });
}

