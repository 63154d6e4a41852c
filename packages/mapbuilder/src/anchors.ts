/** The anchors file (packs/approximation/anchors.json): printed hex ids tied to real places. */
import { readFileSync } from 'node:fs';

/** How sure an anchor is (weights in the fit: exact 4, named-area 2, estimate 1). */
export type Certainty = 'exact' | 'named-area' | 'estimate';

export interface Anchor {
  readonly hex: string;
  readonly place: string;
  readonly lon: number;
  readonly lat: number;
  readonly certainty: Certainty;
  readonly cite: string;
  readonly note?: string;
  /** S3 sector letter, for sector hexes. */
  readonly sector?: string;
  /** Side of the 1918 start line, for S3 sector hexes. */
  readonly side?: 'german' | 'allied';
  /** The country the rules need this hex to belong to in 1914 (set-up hexes). */
  readonly country?: string;
}

export interface AnchorsFile {
  readonly format: 'salient.anchors/1';
  readonly game: string;
  readonly about: string;
  readonly anchors: readonly Anchor[];
}

export const CERTAINTY_WEIGHT: Readonly<Record<Certainty, number>> = { exact: 4, 'named-area': 2, estimate: 1 };

/** Reads and checks an anchors file; throws naming the file and the bad entry. */
export function readAnchors(path: string): AnchorsFile {
  const doc = JSON.parse(readFileSync(path, 'utf8')) as AnchorsFile;
  if (doc.format !== 'salient.anchors/1') throw new Error(`${path}: format must be "salient.anchors/1"`);
  const seen = new Set<string>();
  doc.anchors.forEach((a, i) => {
    if (!/^\d{4}$/.test(a.hex)) throw new Error(`${path}: $.anchors[${i}].hex '${a.hex}' is not an RRCC id`);
    if (seen.has(a.hex)) throw new Error(`${path}: $.anchors[${i}].hex ${a.hex} appears twice`);
    seen.add(a.hex);
    if (!(a.certainty in CERTAINTY_WEIGHT)) throw new Error(`${path}: $.anchors[${i}].certainty '${a.certainty}' is not one of exact, named-area, estimate`);
    if (Math.abs(a.lon) > 180 || Math.abs(a.lat) > 90) throw new Error(`${path}: $.anchors[${i}] lon/lat out of range`);
  });
  return doc;
}
