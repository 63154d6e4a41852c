/**
 * Hex-space helpers the builder needs beyond @salient/hexmap: centres of printed ids under the layouts
 * compared, and the hex containing a point (pointy-top, unit = distance between neighbouring centres,
 * x east, y south).
 */
import { rrccSkewed, rrccOffsetRows, type HexScheme } from '@salient/hexmap';

const SQ3_2 = Math.sqrt(3) / 2;

/** Layouts the anchors are fitted under. */
export const LAYOUTS: readonly HexScheme[] = [rrccSkewed, rrccOffsetRows('odd'), rrccOffsetRows('even')];

/** Centre (x east, y south) of printed (row, col) under `scheme` (pointy-top). */
export function centreOf(scheme: HexScheme, row: number, col: number): [number, number] {
  const q = scheme.q(row, col);
  const r = scheme.r(row, col);
  return [q + r / 2, r * SQ3_2];
}

/** Printed (row, col) of an id "RRCC". */
export function parseId(id: string): { row: number; col: number } {
  const m = /^(\d\d)(\d\d)$/.exec(id);
  if (!m) throw new Error(`'${id}' is not an RRCC hex id`);
  return { row: Number(m[1]), col: Number(m[2]) };
}

export function formatId(row: number, col: number): string {
  return String(row).padStart(2, '0') + String(col).padStart(2, '0');
}

/** The printed (row, col) under `scheme` of the hex whose cell contains the point. */
export function hexAt(scheme: HexScheme, x: number, y: number): { row: number; col: number } {
  const rf = y / SQ3_2;
  const qf = x - rf / 2;
  const sf = -qf - rf;
  let q = Math.round(qf);
  let r = Math.round(rf);
  const s = Math.round(sf);
  const dq = Math.abs(q - qf), dr = Math.abs(r - rf), ds = Math.abs(s - sf);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  return { row: scheme.rowOf(q, r), col: scheme.colOf(q, r) };
}

/** Printed id of the hex containing the point. */
export function idAt(scheme: HexScheme, x: number, y: number): string {
  const { row, col } = hexAt(scheme, x, y);
  return formatId(row, col);
}
