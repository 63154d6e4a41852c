/**
 * Empires & Alliances on its hex map, for the dashboard's replay viewer (`Game.board`).
 *
 * What is drawn: the part of the map the scenario's units may enter, not the whole map of Europe: the
 * hexes of the countries at war in S3 (those with a side at the start, `Board.startCtl`: Germany,
 * Luxembourg and Austria-Hungary; France and Belgium; Britain is not on this pack's map), plus every
 * hex within {@link RING} of them (the Channel, the Low Countries, Switzerland, the edges of Italy and
 * Russia) so coasts and neutral borders read as such. Every unit on the map stands on a drawn hex. The
 * layout's `focus`, which the viewer frames first, is the Western Front itself: the start line's
 * hexes, the sector hexes, the forts and the 15 victory places (3.71).
 *
 * A frame gives: control of every controlled hex of the map (4.1-4.2: the start line, then the hexes
 * that changed hands); the units on the map by hex, labelled `GE 4-6-4` (nation, attack-defense-move;
 * ` XX` for a division) with their type and their status (`demoralized` 13.85, `unsupplied N` at
 * unsupplied level N, 14.1); and per hex a fort marker (15.1) and an entrenchment marker at the highest
 * level of the units there (15.2). Units in the pool, not yet arrived or removed are left out.
 *
 * Britain (2.3) is an off-map box with no hex: its units are shown as one `britain` marker on the
 * Allied Atlantic port closest to it in the pack's sea chart order that the Allies hold at the start
 * (Calais on the bundled map), labelled `Britain (2.3): N units: GB 4-6-4, ...`, so a frame counts them.
 */
import type { BoardFrame, BoardLayout, BoardMarker, BoardUnit, BoardView, LoadedPack } from '@salient/engine';
import { hexBoardLayout, type HexMap } from '@salient/hexmap';
import type { PackFiles } from './pack/schema.ts';
import { boardOf, registerBoard, SIDE_IDS, type Board } from './rules/board.ts';
import { controlMap } from './rules/flow.ts';
import { HEX, type EaState } from './rules/state.ts';

/** Hexes around the scenario's countries drawn for context. */
export const RING = 2;

/** A counter's label: nation and factors, ` XX` for a division. */
export function counterLabel(b: Board, u: number): string {
  const p = b.units[u]!.prof;
  return `${p.nation} ${p.attack}-${p.defense}-${p.move}${p.size === 'div' ? ' XX' : ''}`;
}

/** The hexes drawn for a board: those a side holds at the start, and every map hex within RING of them. */
export function drawnHexes(b: Board): Uint8Array {
  const map = b.map;
  const drawn = new Uint8Array(map.size);
  const around: number[] = [];
  for (const h of map.hexes) {
    if (b.startCtl[h]! < 0) continue;
    around.length = 0;
    for (const x of map.hexesWithin(h, RING, around)) drawn[x] = 1;
  }
  return drawn;
}

/** Printed ids of the Western Front: start-line, sector, fort and victory hexes, once each, in index order. */
function frontIds(b: Board): string[] {
  const map = b.map;
  const front = new Set<number>();
  const line = b.map.lines.get(b.scen.startLine);
  if (line) for (const side of line) for (const h of map.grid.sideHexes(side)) if (map.onMap[h] === 1) front.add(h);
  for (const sec of b.scen.sectors) for (const id of sec.hexes) front.add(map.grid.tryIndex(id));
  for (const f of b.forts) front.add(f.hex);
  for (const v of b.vp) front.add(v.hex);
  front.delete(-1);
  return [...front].sort((x, y) => x - y).map((h) => map.id(h));
}

/** The hex the Britain box's marker stands on: the first Atlantic port of the sea chart that the Allies hold at the start (-1 none). */
export function britainHex(b: Board): number {
  for (const [name, sea] of Object.entries(b.data.charts.seaCapacity.ports)) {
    const h = b.city.get(name);
    if (sea === 'atlantic' && h !== undefined && b.startCtl[h] === 1) return h;
  }
  return -1;
}

/** Printed hex ids by hex number, made once per board (a frame names every controlled hex). */
const hexIds = new WeakMap<Board, string[]>();
function idsOf(b: Board): string[] {
  let ids = hexIds.get(b);
  if (!ids) {
    ids = [];
    for (const h of b.map.hexes) ids[h] = b.map.id(h);
    hexIds.set(b, ids);
  }
  return ids;
}

/**
 * Hex id -> side for every hex someone controls (4.2). The record made for the last flip list asked
 * is handed again while the flips are the same (a replay asks after every step, and control changes
 * at few of them): frames share it, and nothing may write to it.
 */
const controlRecords = new WeakMap<Board, { flip: number[]; control: Readonly<Record<string, string>> }>();
function controlOf(b: Board, s: EaState): Record<string, string> {
  const have = controlRecords.get(b);
  if (have && have.flip.length === s.flip.length && have.flip.every((h, i) => h === s.flip[i])) return have.control as Record<string, string>;
  const control: Record<string, string> = {};
  const held = controlMap(b, s);
  const ids = idsOf(b);
  for (const h of b.map.hexes) {
    const c = held[h]!;
    if (c >= 0) control[ids[h]!] = SIDE_IDS[c as 0 | 1];
  }
  controlRecords.set(b, { flip: [...s.flip], control: Object.freeze(control) });
  return control;
}

/** The board view, given how the game gets a pack's map (loaded once per pack). */
export function eaBoardView(mapOf: (pack: LoadedPack<PackFiles>) => HexMap): BoardView<EaState, PackFiles> {
  return {
    layout(pack, scenario): BoardLayout {
      const id = scenario ?? pack.data.scenarios.scenarios[0]!.id;
      const b = registerBoard(pack.info.hash, pack.data, mapOf(pack), id);
      const drawn = drawnHexes(b);
      return { areas: [], links: [], hex: hexBoardLayout(b.map, { include: (h) => drawn[h] === 1 }), focus: frontIds(b) };
    },

    frame(s): BoardFrame {
      const b = boardOf(s.key);
      const map = b.map;
      const control = controlOf(b, s);
      const units: Record<string, BoardUnit[]> = {};
      const markers: Record<string, BoardMarker[]> = {};
      const entrenched = new Map<number, { side: number; level: number }>();
      const britain: string[] = [];
      for (let u = 0; u < s.hex.length; u++) {
        const h = s.hex[u]!;
        if (h === HEX.BRITAIN) britain.push(counterLabel(b, u));
        if (h < 0) continue;
        const d = b.units[u]!;
        const status: string[] = [];
        if (s.mor[u]! > 0) status.push('demoralized');
        if (s.sup[u]! > 0) status.push(`unsupplied ${s.sup[u]}`);
        const unit: BoardUnit = { id: String(u), power: SIDE_IDS[d.side], label: counterLabel(b, u), type: d.prof.type };
        if (status.length) unit.status = status;
        (units[map.id(h)] ??= []).push(unit);
        if (s.ent[u]! > (entrenched.get(h)?.level ?? 0)) entrenched.set(h, { side: d.side, level: s.ent[u]! });
      }
      for (let i = 0; i < s.forts.length; i += 3) {
        const [h, side, level] = [s.forts[i]!, s.forts[i + 1]!, s.forts[i + 2]!];
        (markers[map.id(h)] ??= []).push({ kind: 'fort', power: SIDE_IDS[side as 0 | 1], label: `Fort ${level}` });
      }
      for (const [h, e] of [...entrenched].sort((x, y) => x[0] - y[0])) {
        (markers[map.id(h)] ??= []).push({ kind: 'entrenchment', power: SIDE_IDS[e.side as 0 | 1], label: `Entrenched ${e.level}` });
      }
      const bh = britainHex(b);
      if (britain.length && bh >= 0) (markers[map.id(bh)] ??= []).push({ kind: 'britain', power: 'AL', label: `Britain (2.3): ${britain.length} unit${britain.length > 1 ? 's' : ''}: ${britain.join(', ')}` });
      return { control, units, markers };
    },
  };
}
