/**
 * The map file format "salient.hexmap/1" (written by the map builder, read by `loadHexMap`): zod schema
 * and the types it yields. Every object is strict, so a misspelt field is refused with its JSON path
 * instead of being silently ignored.
 */
import { z } from 'zod';

/** Format tag of every map file. */
export const HEXMAP_FORMAT = 'salient.hexmap/1';

/** Hexside features a map file may name, in bit order (see `SideFeature`). `rail` comes from `rail`. */
export const SIDE_FEATURE_NAMES = ['river', 'major-river', 'lake', 'sea', 'strait', 'alpine', 'border'] as const;
export type SideFeatureName = (typeof SIDE_FEATURE_NAMES)[number];

const hexId = z.string().min(1, 'a hex id such as "2453"');
const bounds = z
  .tuple([z.number().int().min(0), z.number().int().min(0)])
  .refine(([a, b]) => a <= b, 'bounds are [min, max] with min <= max');
const countryCode = z.string().regex(/^[A-Z][A-Z0-9]{1,3}$/, 'country codes are 2-4 upper-case letters or digits, e.g. FR');
const pair = z.tuple([hexId, hexId]);

export const hexJsonSchema = z.strictObject({
  id: hexId,
  terrain: z.string().min(1),
  /** Country code, or null for sea and lake hexes. */
  country: countryCode.nullable(),
  port: z.boolean().optional(),
  beach: z.boolean().optional(),
  fort: z.boolean().optional(),
  name: z.string().min(1).optional(),
  weatherZone: z.string().min(1).optional(),
  /** Why this hex's data is an estimate, when it is one. */
  estimate: z.string().min(1).optional(),
});

export const hexsideJsonSchema = z.strictObject({
  between: pair,
  features: z.array(z.enum(SIDE_FEATURE_NAMES)).min(1),
  name: z.string().min(1).optional(),
  estimate: z.string().min(1).optional(),
});

export const cityJsonSchema = z.strictObject({
  hex: hexId,
  name: z.string().min(1),
  size: z.enum(['major', 'minor']),
  capital: z.boolean().optional(),
  /** Rule or digest citation, or "estimate: why". */
  source: z.string().min(1),
});

export const hexMapJsonSchema = z.strictObject({
  format: z.literal(HEXMAP_FORMAT),
  scheme: z.string().min(1),
  fidelity: z.enum(['approximation', 'official-transcribed', 'synthetic']),
  title: z.string().min(1).optional(),
  rows: bounds,
  cols: bounds,
  terrains: z.array(z.string().min(1)).min(1).max(254),
  hexes: z.array(hexJsonSchema),
  hexsides: z.array(hexsideJsonSchema).default([]),
  cities: z.array(cityJsonSchema).default([]),
  rail: z.array(pair).default([]),
  countries: z.record(countryCode, z.strictObject({ name: z.string().min(1) })),
  lines: z.record(z.string().min(1), z.array(pair)).default({}),
  notes: z.array(z.string()).default([]),
});

/** A map file as parsed (defaults filled in). */
export type HexMapJson = z.output<typeof hexMapJsonSchema>;
/** A map file as written (optional arrays may be left out). */
export type HexMapJsonInput = z.input<typeof hexMapJsonSchema>;
export type HexJson = z.output<typeof hexJsonSchema>;
export type HexsideJson = z.output<typeof hexsideJsonSchema>;
export type CityJson = z.output<typeof cityJsonSchema>;
