/**
 * Hex numbering schemes: how a rulebook's printed hex ids map to axial hex coordinates.
 *
 * A scheme turns a printed id into a printed (row, col) pair and that pair into axial coordinates
 * (q, r) on a pointy-top or flat-top lattice. Everything else (neighbours, distance, hexsides, lines,
 * centres) is computed from axial coordinates, so a new game with a different numbering only adds a
 * scheme. Axial conventions (pointy-top): q grows east, r grows south, the third cube coordinate is
 * s = -q - r. Flat-top: q grows east (one column), r grows south-ish (down a column).
 */
import { SalientError } from '@salient/engine';

/** Whether hexes have a corner (pointy) or a flat side at the top. */
export type Orientation = 'pointy' | 'flat';

/** A printed hex position: the row and column numbers as the rulebook prints them. */
export interface PrintedCoord {
  readonly row: number;
  readonly col: number;
}

/** How a game numbers its hexes. Implementations are plain objects with no state. */
export interface HexScheme {
  /** Name used in map JSON (`"scheme": "rrcc-skewed"`). */
  readonly name: string;
  readonly orientation: Orientation;
  /** What a valid id looks like, for error messages: "four digits RRCC (row, then column), e.g. 2453". */
  readonly idHelp: string;
  /** Printed id -> (row, col), or undefined when the text is not an id of this scheme. */
  parse(id: string): PrintedCoord | undefined;
  /** (row, col) -> printed id. Callers pass only coordinates inside a grid's bounds. */
  format(row: number, col: number): string;
  /** Axial q of a printed position. */
  q(row: number, col: number): number;
  /** Axial r of a printed position. */
  r(row: number, col: number): number;
  /** Printed row of an axial position. */
  rowOf(q: number, r: number): number;
  /** Printed column of an axial position. */
  colOf(q: number, r: number): number;
}

const RRCC = /^(\d\d)(\d\d)$/;

function parseRrcc(id: string): PrintedCoord | undefined {
  const m = RRCC.exec(id);
  return m ? { row: Number(m[1]), col: Number(m[2]) } : undefined;
}

function formatRrcc(row: number, col: number): string {
  return String(row).padStart(2, '0') + String(col).padStart(2, '0');
}

/**
 * `rrcc-skewed` (Empires & Alliances): printed id "RRCC", rows RR grow south, columns CC grow WEST;
 * pointy-top hexes in straight horizontal rows, each row skewed half a hex east of the one above
 * (rows are not offset back and forth). Axial: q = -col, r = row. Neighbours of (row, col):
 * E (row, col-1), NE (row-1, col-1), NW (row-1, col), W (row, col+1), SW (row+1, col+1), SE (row+1, col).
 */
export const rrccSkewed: HexScheme = {
  name: 'rrcc-skewed',
  orientation: 'pointy',
  idHelp: 'four digits RRCC (two-digit row, then two-digit column), e.g. 2453',
  parse: parseRrcc,
  format: formatRrcc,
  q: (_row, col) => -col,
  r: (row) => row,
  rowOf: (_q, r) => r,
  colOf: (q) => -q,
};

/**
 * An offset-rows alternative with the same "RRCC" ids (rows grow south, columns grow west, pointy-top),
 * where rows zig-zag instead of skewing: the rows of the given parity sit half a hex EAST of the
 * others. Kept so a map builder can compare this reading with `rrcc-skewed`, and as the pattern for
 * Fatal Alliances / World in Flames style offset grids.
 *
 * Centres: x_east = -col + (odd row ? +1/2 : 0) for "odd" (odd rows east of even ones) and
 * x_east = -col + (odd row ? -1/2 : 0) for "even" (even rows east of odd ones); axial r = row and
 * q = x_east - r/2, an integer for every row.
 */
export function rrccOffsetRows(shiftedRows: 'odd' | 'even'): HexScheme {
  const sign = shiftedRows === 'odd' ? 1 : -1;
  const odd = (row: number): number => ((row % 2) + 2) % 2;
  return {
    name: `rrcc-offset-${shiftedRows}`,
    orientation: 'pointy',
    idHelp: 'four digits RRCC (two-digit row, then two-digit column), e.g. 2453',
    parse: parseRrcc,
    format: formatRrcc,
    q: (row, col) => -col + (sign * odd(row) - row) / 2,
    r: (row) => row,
    rowOf: (_q, r) => r,
    colOf: (q, r) => -q + (sign * odd(r) - r) / 2,
  };
}

/**
 * `ccrr-flat-odd-q`: the common board-wargame layout with flat-top hexes in vertical columns, printed id
 * "CCRR" (two-digit column, growing EAST, then two-digit row, growing SOUTH), odd columns sitting half a
 * hex lower than even ones. Axial (flat-top): q = col, r = row - (col - (col & 1)) / 2.
 * Not used by a game yet; it keeps the flat-top code paths honest and tested.
 */
export const ccrrFlatOddQ: HexScheme = {
  name: 'ccrr-flat-odd-q',
  orientation: 'flat',
  idHelp: 'four digits CCRR (two-digit column, then two-digit row), e.g. 0312',
  parse: (id) => {
    const p = parseRrcc(id);
    return p ? { row: p.col, col: p.row } : undefined;
  },
  format: (row, col) => formatRrcc(col, row),
  q: (_row, col) => col,
  r: (row, col) => row - (col - (((col % 2) + 2) % 2)) / 2,
  rowOf: (q, r) => r + (q - (((q % 2) + 2) % 2)) / 2,
  colOf: (q) => q,
};

/** Schemes by name, as map JSON names them. */
export const SCHEMES: ReadonlyMap<string, HexScheme> = new Map(
  [rrccSkewed, rrccOffsetRows('odd'), rrccOffsetRows('even'), ccrrFlatOddQ].map((s) => [s.name, s]),
);

/** The scheme called `name`; SalientError('BAD_ARGUMENT') listing the known ones otherwise. */
export function schemeByName(name: string): HexScheme {
  const s = SCHEMES.get(name);
  if (!s) throw new SalientError('BAD_ARGUMENT', `Unknown hex scheme '${name}'. Known schemes: ${[...SCHEMES.keys()].join(', ')}.`);
  return s;
}
