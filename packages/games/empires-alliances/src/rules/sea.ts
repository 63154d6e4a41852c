/**
 * 2.3 Britain and 11 sea movement, as Scenario 3 uses them.
 *
 * Britain is an off-map box (2.3): a unit there has `hex` = `HEX.BRITAIN` (state.ts). British and
 * Commonwealth reinforcements and replacements arrive there, at most three of each a turn (17.121,
 * 17.25; flow.ts, replacement-choice.ts); units there are in supply (14.31: London is a Full Supply
 * Source), take no part in combat and leave only by sea.
 *
 * Sea movement (11.1-11.6, 11.9) is one compound decision: `sea U` picks the unit, then `to HHHH` (or
 * `to Britain`) the hex where it ends its move, or `stay`. A route is: ground movement to a port with
 * at least 1 MP left (or the unit's own port, or Britain), 1 MP to embark, any distance by sea to
 * another port (or Britain) on a sea the unit's country may use, 1 MP to debark (with no MP left it may
 * still debark and stops in the port, 11.1), then ground movement with what is left. Both ports must
 * have been the phasing side's at the start of its Movement Phase (`EaState.ports`). From the Atlantic
 * to the Mediterranean or back takes all the unit's MPs: it must start in the port of embarkation and
 * stop in the port of debarkation (11.2). Each country moves at most its Sea Capacity Chart corps a
 * turn (charts.json `seaCapacity`, an estimate; a non-US division or a 1-factor artillery unit counts
 * half, 11.6). No sea movement in March 1918 (S3 3.67) and no invasions (S3 3.65: 11.7-11.8 are not
 * built).
 *
 * Who sails where: the Western Allies in the Atlantic and the Mediterranean (11.3, ruling `sea-allies`;
 * the Black Sea needs five Ottoman hexes, none in the S3 area, so never); Germany to and from its
 * ports and Riga on the Baltic (11.4): on the bundled map Konigsberg and Danzig, both in the S3 area,
 * far from the Western Front. 2.7: Antwerp is shut while an enemy unit stands in 2150 or 2251.
 *
 * 11.9 (rail and sea in one phase): a unit may rail from its hex to a port (1 MP to entrain, 1 to
 * detrain, 9.1; the rail capacity of its net, 9.5) and embark there with the MP it has left. Rail
 * after the sea leg, and ground movement before a rail leg (9.1), are not built: a unit that has
 * railed has moved.
 */
import type { Sea } from '../pack/schema.ts';
import type { Board, SideNo } from './board.ts';
import { SIDE_IDS } from './board.ts';
import { emit, type Events } from './events.ts';
import { fastOf, sortHexes } from './fast.ts';
import { controlMap, first, label, listAt, mayRail, mfOf, railBlocked, occIndex, occupied, railNet, railReach, reachFrom, reachOf, sectorOk, setCtl, zocOf } from './flow.ts';
import { reading } from './rulings.ts';
import type { LimitedSource } from './supply-sources.ts';
import { fired } from './sections.ts';
import { nationsMayStack, stackLegal } from './stacking.ts';
import { FLAG, HEX, type EaState } from './state.ts';
import { corpsHalves } from './units.ts';

/** The sea geography of a board, from the pack's Sea Capacity Chart (`ports` by city name, `boxes`). */
interface SeaBoard {
  /** Port hexes the chart places on a sea, ascending. */
  ports: number[];
  /** Sea per port hex. */
  sea: Map<number, Sea>;
  britain: Sea;
  /** 2.7: Antwerp's hex (-1 off this map) and the hexes whose enemy units shut it. */
  antwerp: number;
  guards: number[];
}
const seaBoards = new WeakMap<Board, SeaBoard>();

export function seaBoard(b: Board): SeaBoard {
  const have = seaBoards.get(b);
  if (have) return have;
  const chart = b.data.charts.seaCapacity;
  const sea = new Map<number, Sea>();
  for (const [name, area] of Object.entries(chart.ports)) {
    const h = b.city.get(name);
    // A port of another map (the chart lists the whole map's ports; a smaller map has fewer) is skipped.
    if (h !== undefined && (b.map.flags[h]! & 1) !== 0) sea.set(h, area);
  }
  const antwerp = b.city.get('Antwerp') ?? -1;
  const guards = ['2150', '2251'].map((id) => b.map.grid.tryIndex(id)).filter((h) => h >= 0 && b.map.onMap[h] === 1);
  const x: SeaBoard = { ports: [...sea.keys()].sort((p, q) => p - q), sea, britain: chart.boxes.Britain, antwerp, guards };
  seaBoards.set(b, x);
  return x;
}

/** The country whose sea capacity unit `u` uses (11.6; the Commonwealth on Britain's). */
export function seaCountry(b: Board, u: number): string {
  const n = b.units[u]!.nation;
  return b.data.charts.seaCapacity.usesCapacityOf?.[n] ?? n;
}

/**
 * 11.3-11.4 and ruling `sea-allies`: whether unit `u`'s nation may move by sea at all. Germany
 * (11.4); the Western Allies (France, Britain with the Commonwealth, the US: 3.2's note), or under
 * `british-only` Britain and the Commonwealth alone; Austria-Hungary and Belgium never.
 */
export function nationSails(b: Board, s: EaState, u: number): boolean {
  const n = b.units[u]!.nation;
  if (n === 'GE') return true;
  if (n === 'GB' || n === 'CA' || n === 'AU') return true;
  if (n === 'FR' || n === 'US') return reading(s.rulings, 'sea-allies') === 'western-allies';
  return false;
}

/** 11.3-11.4: whether `side` may use port `h` (a hex, or `HEX.BRITAIN`) by sea: its sea, and for Germany a German port or Riga on the Baltic. */
function portSea(b: Board, side: SideNo, h: number): Sea | undefined {
  const x = seaBoard(b);
  const area = h === HEX.BRITAIN ? x.britain : x.sea.get(h);
  if (area === undefined) return undefined;
  if (side === 1) return area === 'atlantic' || area === 'mediterranean' ? area : undefined; // 11.3 (the Black Sea: never in S3)
  if (h === HEX.BRITAIN || area !== 'baltic') return undefined; // 11.4
  const name = b.map.city[h]! >= 0 ? b.map.cities[b.map.city[h]!]!.name : '';
  return b.map.countryCode(h) === 'GE' || name === 'Riga' ? area : undefined;
}

/** 11.1: the ports `side` controls now (called at the start of its Movement Phase), ascending. */
export function portsAtStart(b: Board, s: EaState, side: SideNo): number[] {
  const control = controlMap(b, s);
  return seaBoard(b).ports.filter((h) => control[h] === side && portSea(b, side, h) !== undefined);
}

/** 11.6: whether unit `u`'s country has sea capacity left for it this turn (in half-corps). */
export function seaRoom(b: Board, s: EaState, u: number): boolean {
  const c = seaCountry(b, u);
  const cap = b.data.charts.seaCapacity.corps[c];
  return cap !== undefined && (s.sea[c] ?? 0) + corpsHalves(b.units[u]!.prof) <= 2 * cap;
}

/** S3 3.67: no sea movement on the March 1918 turn. */
export const seaBanned = (b: Board, s: EaState): boolean => b.scen.id === '1918' && s.turn === 0;

/**
 * What one look at the Movement Phase needs for every unit's sea moves: the ports open now (held at
 * the start of the phase, 11.1; not shut by 2.7; no enemy unit in them), and, made when first asked,
 * the hexes from which the side's rail reaches one of them (11.9; rail reach is the same both ways).
 * Valid for one state as it stands: make a new one after any change.
 */
export interface SeaScan {
  side: SideNo;
  open: number[];
  /**
   * Per hex, bit i set when the rail reach of open port i (`open[i]`, the first 31) holds the hex or
   * the hex is that port (`railFromOf`).
   */
  railFrom: Int32Array | undefined;
  /** The enemy's ZOC (`zocOf`), made when first asked. */
  ezoc?: Uint8Array;
}

/** 2.7: Antwerp is shut while an enemy unit (`theirs`) stands in 2150 or 2251. */
function antwerpShut(x: SeaBoard, theirs: Uint8Array): boolean {
  return x.antwerp >= 0 && x.guards.some((g) => theirs[g] === 1);
}

/** A port a side may sail from or trace supply to now: no enemy unit in it, and not Antwerp while it is shut (2.7). */
function portFree(x: SeaBoard, theirs: Uint8Array, p: number, shut: boolean): boolean {
  return theirs[p] === 0 && !(shut && p === x.antwerp);
}

export function seaScan(b: Board, s: EaState): SeaScan {
  const side = s.seg;
  const x = seaBoard(b);
  const theirs = occupied(b, s, (1 - side) as SideNo);
  const shut = antwerpShut(x, theirs);
  const open: number[] = [];
  for (const p of s.ports) if (portFree(x, theirs, p, shut)) open.push(p);
  return { side, open, railFrom: undefined };
}

function railFromOf(b: Board, s: EaState, scan: SeaScan): Int32Array {
  if (scan.railFrom) return scan.railFrom;
  const m = new Int32Array(b.map.size);
  for (let i = 0; i < scan.open.length; i++) {
    const p = scan.open[i]!;
    const bit = i < 31 ? 1 << i : 1 << 31; // past 31 ports the bit says only "some port"
    m[p] = m[p]! | bit;
    const r = railReach(b, s, scan.side, p);
    for (let j = 0; j < r.length; j++) {
      const h = r[j]!;
      m[h] = m[h]! | bit;
    }
  }
  return (scan.railFrom = m);
}

/**
 * Embarkation points of unit `u`, ascending: [port, MP left after embarking, 1 when it gets there by
 * rail (11.9) else 0]: the unit's own port or Britain, the ports its ground movement reaches with an MP
 * to spare (`ground`), and (`rail`) the ports its rail movement reaches (1 MP to entrain, 1 to detrain)
 * when that leaves more MPs than ground movement.
 */
function embarkations(b: Board, s: EaState, u: number, scan: SeaScan, ground = true, rail = true): [number, number, number][] {
  const from = s.hex[u]!;
  const mf = mfOf(b, s, u);
  if (from === HEX.BRITAIN) return [[HEX.BRITAIN, mf - 1, 0]];
  const out: [number, number, number][] = [];
  const e = ground ? reachOf(b, s, u) : undefined;
  // 11.9, 9.1: entrain (1 MP), rail, detrain (1 MP), embark (1 MP).
  const byRail = rail && mf >= 3 && railFromOf(b, s, scan)[from] !== 0 && mayRail(b, s, u, (scan.ezoc ??= zocOf(b, s, (1 - scan.side) as SideNo))) ? railReach(b, s, scan.side, from) : undefined;
  for (const p of scan.open) {
    if (p === from) {
      out.push([p, mf - 1, 0]);
      continue;
    }
    let left = -1;
    let how = 0;
    if (e) {
      const i = e.cand.indexOf(p);
      if (i >= 0 && i < e.reached && e.cost[i]! + 1 <= mf) left = mf - e.cost[i]! - 1;
    }
    if (byRail && mf - 3 > left && byRail.includes(p) && sectorOk(b, s, u, p)) {
      left = mf - 3;
      how = 1;
    }
    if (left >= 0) out.push([p, left, how]);
  }
  return out;
}

/** Debarkation points from `p` for unit `u`: open ports (or Britain) other than `p`, in the unit's 3.62 sector. */
function debarkations(b: Board, s: EaState, u: number, scan: SeaScan, p: number): number[] {
  const out: number[] = [];
  if (p !== HEX.BRITAIN && scan.side === 1 && (b.units[u]!.nation === 'GB' || b.units[u]!.nation === 'CA' || b.units[u]!.nation === 'AU')) out.push(HEX.BRITAIN);
  for (const q of scan.open) if (q !== p && sectorOk(b, s, u, q)) out.push(q);
  return out;
}

/** Whether a unit embarking at `p` has somewhere to land (see `maySea`); a plain function: no closure per call. */
function debarks(p: number, toBritain: boolean, okCount: number, okOne: number): boolean {
  return (toBritain && p !== HEX.BRITAIN) || okCount >= 2 || (okCount === 1 && okOne !== p);
}

/**
 * Whether unit `u` may start a sea move now (`sea U`): a ground unit of the phasing side that has not
 * moved, of a nation that sails, with capacity left, not in March 1918, in Britain or able to reach an
 * open port with an MP to spare (on foot, or by rail with three), and with an open port (or Britain) to
 * sail to. `scan` (`seaScan`) may be shared by every unit of one look at the state.
 */
export function maySea(b: Board, s: EaState, u: number, scan?: SeaScan): boolean {
  if (seaBanned(b, s) || (s.ports.length === 0 && s.hex[u] !== HEX.BRITAIN)) return false;
  const f = fastOf(b);
  const h = s.hex[u]!;
  if ((h < 0 && h !== HEX.BRITAIN) || f.side[u] !== s.seg || f.ground[u] !== 1 || (s.flg[u]! & FLAG.MOVED) !== 0) return false;
  if (!nationSails(b, s, u) || !seaRoom(b, s, u)) return false;
  const sc = scan ?? seaScan(b, s);
  // What `debarkations` would give, without building it: Britain for a British unit sailing from a
  // port, else an open port in the unit's sector other than the embarkation port.
  const toBritain = sc.side === 1 && (b.units[u]!.nation === 'GB' || b.units[u]!.nation === 'CA' || b.units[u]!.nation === 'AU');
  let okCount = 0;
  let okOne = -1;
  for (const q of sc.open) {
    if (!sectorOk(b, s, u, q)) continue;
    okCount++;
    okOne = q;
  }
  if (h === HEX.BRITAIN) return debarks(HEX.BRITAIN, toBritain, okCount, okOne);
  if (!toBritain && okCount === 0) return false;
  // The embarkation points of `embarkations`, cheapest test first, stopping at the first that has a
  // debarkation: the unit's own port; a port its ground movement reaches with an MP to spare (every
  // hex costs at least 1 MP, so only ports within MF - 1 hexes can be); a port its rail reaches (11.9).
  for (const p of sc.open) if (p === h && debarks(p, toBritain, okCount, okOne)) return true;
  const mf = mfOf(b, s, u);
  let near = false;
  for (const p of s.ports) if (b.map.grid.distance(h, p) <= mf - 1) near = true;
  if (near) {
    let any = false;
    for (const p of sc.open) if (p !== h && debarks(p, toBritain, okCount, okOne) && b.map.grid.distance(h, p) <= mf - 1) any = true;
    if (any) {
      const e = reachOf(b, s, u);
      for (const p of sc.open) {
        if (p === h || !debarks(p, toBritain, okCount, okOne)) continue;
        const i = e.cand.indexOf(p);
        if (i >= 0 && i < e.reached && e.cost[i]! + 1 <= mf) return true;
      }
    }
  }
  // 11.9: by rail only from a rail hex, with 3 MP (entrain, detrain, embark).
  const fromPorts = f.onRail[h] === 1 && mf >= 3 ? railFromOf(b, s, sc)[h]! : 0;
  if (fromPorts === 0 || !mayRail(b, s, u, (sc.ezoc ??= zocOf(b, s, (1 - sc.side) as SideNo)))) return false;
  // 9.1-9.2: on the rail net the search steps along, a path's hexes between its ends are the same both
  // ways, so port p is in h's rail reach exactly when h is in p's (bit i) and p itself may be entered,
  // h being enterable (mayRail says so, and a unit of the side stands there). Otherwise search from h.
  if (sc.open.length > 31 || railBlocked(b, s, sc.side, h)) {
    const byRail = railReach(b, s, sc.side, h);
    for (const p of sc.open) if (p !== h && debarks(p, toBritain, okCount, okOne) && byRail.includes(p) && sectorOk(b, s, u, p)) return true;
    return false;
  }
  for (let i = 0; i < sc.open.length; i++) {
    const p = sc.open[i]!;
    if (p !== h && (fromPorts & (1 << i)) !== 0 && debarks(p, toBritain, okCount, okOne) && !railBlocked(b, s, sc.side, p) && sectorOk(b, s, u, p)) return true;
  }
  return false;
}

/**
 * 11.1-11.2: where unit `u` may end a sea move, ascending (Britain, -5, first), and for each the route:
 * [embarkation, debarkation, 1 if it railed to the embarkation port (11.9) else 0, then the enemy-held
 * hexes entered on the way, which change hands (4.2)]. Of several routes to a hex the first is kept:
 * embarkation port ascending, then debarkation port ascending.
 */
export function seaPlan(b: Board, s: EaState, u: number): { opts: number[]; routes: number[][] } {
  const side = s.seg;
  const scan = seaScan(b, s);
  const control = controlMap(b, s);
  const start = s.hex[u]!;
  const prof = b.units[u]!.prof;
  const found = new Map<number, number[]>();
  const fits = (h: number): boolean => {
    if (h === HEX.BRITAIN) return true;
    const occ = occIndex(b, s);
    if (first(occ, h) < 0) return true;
    const here = listAt(occ, h).map((x) => b.units[x]!.prof);
    here.push(prof);
    return stackLegal(here) && nationsMayStack(here);
  };
  // The ground leg to each embarkation port, kept before the next search overwrites the paths.
  const pre = new Map<number, number[]>();
  if (start >= 0) {
    const e = reachOf(b, s, u);
    const parent = new Map<number, number>();
    for (let i = 0; i < e.reached; i++) parent.set(e.cand[i]!, e.parent[i]!);
    for (const [p, , byRail] of embarkations(b, s, u, scan)) {
      const flips: number[] = [];
      // By rail the unit passes only its own side's rail (9.1): nothing changes hands on the way.
      if (!byRail) for (let x = p; x !== start && x >= 0; x = parent.get(x) ?? -1) if (b.startCtl[x]! >= 0 && control[x] !== side) flips.push(x);
      pre.set(p, flips.reverse());
    }
  }
  const all = embarkations(b, s, u, scan).sort((x, y) => x[0] - y[0]);
  for (const [p, left, byRail] of all) {
    const seaP = portSea(b, side, p)!;
    for (const q of debarkations(b, s, u, scan, p)) {
      const cross = portSea(b, side, q) !== seaP;
      if (cross && p !== start) continue; // 11.2: start in the port of embarkation
      const route = (extra: number[]) => [p, q, byRail, ...(pre.get(p) ?? []), ...extra];
      if (!found.has(q) && q !== start && fits(q)) found.set(q, route([]));
      const after = left - 1; // 1 MP to debark (11.1); with none left the unit stops in the port
      if (cross || q === HEX.BRITAIN || after <= 0) continue;
      const r = reachFrom(b, s, u, q, after);
      for (let i = 1; i < r.count; i++) {
        const h = r.hexes[i]!;
        if (found.has(h) || h === start || !fits(h)) continue;
        const flips: number[] = [];
        for (let x = h; x !== q && x >= 0; x = r.parent[x]!) if (b.startCtl[x]! >= 0 && control[x] !== side) flips.push(x);
        found.set(h, route(flips.reverse()));
      }
    }
  }
  const opts = sortHexes(fastOf(b), [...found.keys()]);
  return { opts, routes: opts.map((h) => found.get(h)!) };
}

/**
 * 14.31: London is a Full Supply Source: `side`'s units in Britain are in supply (their markers come
 * off). In the Administrative Phase (`admin`) their Demoralized markers come off too and DTS turns to
 * Demoralized (13.86: supplied, and no enemy ZOC reaches Britain).
 */
export function britainSupplied(b: Board, s: EaState, side: SideNo, admin = false): void {
  for (let u = 0; u < s.hex.length; u++) {
    if (s.hex[u] !== HEX.BRITAIN || b.units[u]!.side !== side) continue;
    s.sup[u] = 0;
    if (admin) s.mor[u] = s.mor[u] === 2 ? 1 : 0;
  }
}

/**
 * 14.5 sea supply, as a limited source for `sourcesOf` (supply-sources.ts): a unit that traces its
 * 14.2 path to one of the side's ports (14.51: held now, no enemy unit in it, 2.7) is supplied across
 * the sea from London (14.31), on the seas the side may sail (14.52: the Allies the Atlantic and the
 * Mediterranean, 11.3), 6 corps for every corps of sea capacity not used for sea movement this turn
 * (14.53). The capacities of the side's sailing countries (ruling `sea-allies`) are pooled, so any
 * Allied unit may draw on them. Germany gets none: its Baltic ports (11.4) are its own cities, already
 * sources, and no Supply Source lies across the Baltic in S3. The ports are listed even with no
 * capacity left, so that the path trace (which ignores capacity) does not depend on sea movement.
 */
export function seaSupplySource(b: Board, s: EaState, side: SideNo, control: Int8Array, theirs: Uint8Array): LimitedSource | undefined {
  if (side !== 1) return undefined;
  const x = seaBoard(b);
  const shut = antwerpShut(x, theirs);
  const hexes: number[] = [];
  for (const p of x.ports) if (control[p] === side && portFree(x, theirs, p, shut) && portSea(b, side, p) !== undefined) hexes.push(p);
  if (!hexes.length) return undefined;
  fired('14.5');
  return { hexes, halves: seaSupplyHalves(b, s, side), rule: '14.53' };
}

/**
 * 14.53: `set` (a side's cached sources, `sourcesOf`) with the sea source's capacity as the sea
 * movement of this turn leaves it: the source cache follows units, control and weather, not the
 * capacity used. Returns `set` itself when nothing changes.
 */
export function withSeaCapacity<T extends { limited: LimitedSource[] }>(b: Board, s: EaState, side: SideNo, set: T): T {
  const i = set.limited.findIndex((l) => l.rule === '14.53');
  if (i < 0) return set;
  const halves = seaSupplyHalves(b, s, side);
  if (set.limited[i]!.halves === halves) return set;
  const limited = set.limited.slice();
  limited[i] = { ...limited[i]!, halves };
  return { ...set, limited };
}

/** 14.53: corps halves of sea supply `side` has: 6 corps per unused corps of its sailing countries' sea capacity. */
function seaSupplyHalves(b: Board, s: EaState, side: SideNo): number {
  if (side !== 1) return 0;
  const chart = b.data.charts.seaCapacity;
  const countries = reading(s.rulings, 'sea-allies') === 'western-allies' ? ['GB', 'FR', 'US'] : ['GB'];
  let unused = 0;
  for (const c of countries) unused += Math.max(0, 2 * (chart.corps[c] ?? 0) - (s.sea[c] ?? 0)); // in half-corps
  return 6 * unused;
}

/** The name of a place in the account: `2057 (Calais)`, or `Britain`. */
export function placeName(b: Board, h: number): string {
  if (h === HEX.BRITAIN) return 'Britain';
  const c = b.map.city[h]!;
  return c >= 0 ? `${b.map.id(h)} (${b.map.cities[c]!.name})` : b.map.id(h);
}

/** Play a sea move of unit `u` to `to` along `route` (`seaPlan`): capacity, control of the hexes entered, the unit moved. */
export function playSea(b: Board, s: EaState, u: number, to: number, route: readonly number[], ev: Events): void {
  const side = b.units[u]!.side;
  const from = s.hex[u]!;
  const [p, q, byRail] = [route[0]!, route[1]!, route[2]!];
  const c = seaCountry(b, u);
  s.sea[c] = (s.sea[c] ?? 0) + corpsHalves(b.units[u]!.prof); // 11.6
  if (byRail) {
    const net = railNet(b, u);
    s.rail[net] = (s.rail[net] ?? 0) + corpsHalves(b.units[u]!.prof); // 11.9, 9.5
    fired('9');
  }
  s.hex[u] = to;
  s.ent[u] = 0;
  s.flg[u] = s.flg[u]! | FLAG.MOVED;
  for (let i = 3; i < route.length; i++) setCtl(b, s, route[i]!, side, ev); // 4.2
  fired('11');
  if (from === HEX.BRITAIN || to === HEX.BRITAIN) fired('2.3');
  const legs = [placeName(b, from), ...(p !== from ? [`${placeName(b, p)}${byRail ? ' by rail' : ''}`] : []), ...(q !== to ? [placeName(b, q)] : []), placeName(b, to)];
  const used = s.sea[c]!;
  const cap = b.data.charts.seaCapacity.corps[c]!;
  emit(ev, 'sea', SIDE_IDS[side], `${label(b, u)} moves by sea: ${legs.join(' -> ')} (${c} sea capacity ${used / 2} of ${cap} corps used)`, { unit: u, from: placeName(b, from), embark: placeName(b, p), debark: placeName(b, q), to: placeName(b, to) });
}
