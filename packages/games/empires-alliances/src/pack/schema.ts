/**
 * The Empires & Alliances data-pack schema: the printed components the rulebook text does not contain
 * (the Terrain Effects Chart and CRT card, the "Other Charts" card with the Weather, War Weariness and
 * Rail Capacity tables, the counters and the Order of Battle cards) as JSON, one file per component.
 * An official pack transcribed from the published game and the bundled approximation use this same
 * schema; the map itself is `map.json` in the `salient.hexmap/1` format, read by @salient/hexmap.
 *
 * Provenance: objects that spread `provenance` may carry `refs` (rulebook sections that state their
 * facts) and `estimates` (field -> reasoning) for every value the rulebook does NOT state. An
 * approximation pack must mark every estimate this way; an official pack has none.
 *
 * Every object is strict: a misspelt field is refused with its JSON path instead of being dropped.
 */
import { z } from 'zod';
import { fidelitySchema, provenanceFields } from '@salient/engine';

const provenance = provenanceFields('"13.643", "S3 3.41"');

export { fidelitySchema };

export const packMetaSchema = z.strictObject({
  format: z.literal('salient-pack/1'),
  game: z.literal('empires-alliances'),
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'pack ids are lower-case kebab-case'),
  version: z.string().min(1),
  fidelity: fidelitySchema,
  title: z.string().min(1),
  description: z.string().min(1),
  sources: z.array(z.string()).min(1),
});

/** The eight CRT results (13.7), from the attacker's worst to its best. */
export const CRT_RESULTS = ['AE', 'AX', 'AD', 'ND', 'EX', 'HX', 'DD', 'DE'] as const;
export type CrtResult = (typeof CRT_RESULTS)[number];
export const crtResultSchema = z.enum(CRT_RESULTS);

/** The eleven odds columns (13.641): 1-5 up to 7-1. */
export const CRT_COLUMNS = ['1-5', '1-4', '1-3', '1-2', '1-1', '2-1', '3-1', '4-1', '5-1', '6-1', '7-1'] as const;
/** Net rolls -1..12 (13.643 note): fourteen rows. */
export const CRT_MIN_ROLL = -1;
export const CRT_MAX_ROLL = 12;

export const crtSchema = z.strictObject({
  /** The column heads, in order 1-5 .. 7-1 (checked against {@link CRT_COLUMNS}). */
  columns: z.array(z.enum(CRT_COLUMNS)).length(CRT_COLUMNS.length),
  /** `results[column][roll + 1]`: one row of 14 results (rolls -1..12) per odds column. */
  results: z.array(z.array(crtResultSchema).length(CRT_MAX_ROLL - CRT_MIN_ROLL + 1)).length(CRT_COLUMNS.length),
  ...provenance,
});

export const TERRAINS = ['clear', 'forest', 'mountain', 'swamp', 'sea', 'lake'] as const;
export type Terrain = (typeof TERRAINS)[number];
export const HEXSIDE_FEATURES = ['river', 'major-river', 'lake', 'sea', 'strait', 'alpine', 'border'] as const;
export type HexsideFeature = (typeof HEXSIDE_FEATURES)[number];

/** One terrain type's line on the Terrain Effects Chart. */
export const terrainEffectSchema = z.strictObject({
  /** MP to enter (8.1); absent: not enterable by ground units (sea, lake). */
  mp: z.number().int().min(1).max(9).optional(),
  /** Defender's combat DRM as a non-positive number (added to the defender's side of 13.642). */
  defenseDrm: z.number().int().min(-3).max(0),
  /** 16.3: Tanks give no DRM against a defender in this terrain. */
  noTankDrm: z.boolean(),
  /** 12.1: the defender here raises the AV odds (forest, swamp, major city). */
  avHarder: z.boolean(),
  ...provenance,
});

/** A hexside feature's line on the TEC: what it does to movement and to attacks across it. */
export const hexsideEffectSchema = z.strictObject({
  /** Extra MP to cross (added to the entered hex's cost); absent: cannot be crossed by ground units. */
  mpExtra: z.number().int().min(0).max(9).optional(),
  /** Attack factors of units attacking across it are multiplied by this (1, 1/2, ...); 0: no attack across. */
  attackTimes: z.strictObject({ num: z.number().int().min(0), den: z.number().int().min(1) }),
  /** 16.3: a Tank attacking across it is halved (rivers). */
  tankHalved: z.boolean(),
  ...provenance,
});

export const tecSchema = z.strictObject({
  terrain: z.strictObject(Object.fromEntries(TERRAINS.map((t) => [t, terrainEffectSchema])) as Record<Terrain, typeof terrainEffectSchema>),
  /** A major city's own defensive DRM (the TEC lists cities as terrain). */
  majorCity: z.strictObject({ defenseDrm: z.number().int().min(-3).max(0), avHarder: z.literal(true), ...provenance }),
  hexside: z.strictObject(
    Object.fromEntries(HEXSIDE_FEATURES.map((f) => [f, hexsideEffectSchema])) as Record<HexsideFeature, typeof hexsideEffectSchema>,
  ),
  ...provenance,
});

export const WEATHERS = ['clear', 'mud', 'snow'] as const;
export type Weather = (typeof WEATHERS)[number];
export const weatherSchema = z.enum(WEATHERS);
/** One die result: a single weather for both zones, or a West/East pair (20.1). */
export const weatherResultSchema = z.union([weatherSchema, z.tuple([weatherSchema, weatherSchema])]);
export const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;
export const weatherTableSchema = z.strictObject({
  /** Month -> ten results, for die rolls 1..10. */
  byMonth: z.strictObject(Object.fromEntries(MONTHS.map((m) => [m, z.array(weatherResultSchema).length(10)])) as Record<(typeof MONTHS)[number], z.ZodArray<typeof weatherResultSchema>>),
  ...provenance,
});

/** A War Weariness Table result (21.3): NE, R<percent>, M, D or S. */
export const wwResultSchema = z.string().regex(/^(NE|R[1-9][0-9]?|M|D|S)$/, 'a War Weariness result is NE, R<percent> (R10, R30), M, D or S');
export const wwTableSchema = z.strictObject({
  /** Results for modified rolls 1..15 (21.2). */
  results: z.array(wwResultSchema).length(15),
  ...provenance,
});

export const railCapacitySchema = z.strictObject({
  /** Country code -> corps per turn (9.5); a country absent from here cannot rail. */
  corps: z.record(z.string().regex(/^[A-Z]{2}$/), z.number().int().min(0).max(30)),
  /** Country code -> the country whose net and capacity its units use (the US on the French net). */
  usesNetOf: z.record(z.string().regex(/^[A-Z]{2}$/), z.string().regex(/^[A-Z]{2}$/)).optional(),
  ...provenance,
});

/** The sea areas of 2.6 and 11.3-11.5. */
export const SEAS = ['atlantic', 'mediterranean', 'baltic', 'black'] as const;
export type Sea = (typeof SEAS)[number];

/**
 * The Sea Capacity Chart (11.6, 14.53): corps per turn each country may move by sea, and the sea
 * each port and off-map box lies on (2.3, 2.6; the map marks ports but not their seas).
 */
export const seaCapacitySchema = z.strictObject({
  /** Country code -> corps per turn (11.6); a country absent from here cannot move by sea. */
  corps: z.record(z.string().regex(/^[A-Z]{2}$/), z.number().int().min(0).max(30)),
  /** Country code -> the country whose capacity its units use (the Commonwealth on Britain's). */
  usesCapacityOf: z.record(z.string().regex(/^[A-Z]{2}$/), z.string().regex(/^[A-Z]{2}$/)).optional(),
  /** Port city name -> its sea. A port not listed is not used for sea movement or sea supply. */
  ports: z.record(z.string().min(1), z.enum(SEAS)),
  /** Off-map box -> its sea (2.3: Britain). */
  boxes: z.strictObject({ Britain: z.enum(SEAS) }),
  ...provenance,
});

export const chartsSchema = z.strictObject({
  crt: crtSchema,
  tec: tecSchema,
  weather: weatherTableSchema,
  warWeariness: wwTableSchema,
  railCapacity: railCapacitySchema,
  seaCapacity: seaCapacitySchema,
});

// --- counters ------------------------------------------------------------------------------------

export const NATIONS = ['GE', 'AH', 'FR', 'GB', 'CA', 'AU', 'BE', 'US'] as const;
export type Nation = (typeof NATIONS)[number];
export const nationSchema = z.enum(NATIONS);
export const UNIT_TYPES = ['inf', 'stoss', 'cav', 'fa', 'siege', 'tank', 'air'] as const;
export type UnitType = (typeof UNIT_TYPES)[number];

/** A counter profile: type, size and printed factors A-D-M (3.1). */
export const profileSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  nation: nationSchema,
  type: z.enum(UNIT_TYPES),
  size: z.enum(['corps', 'div']),
  attack: z.number().int().min(0).max(12),
  defense: z.number().int().min(0).max(12),
  move: z.number().int().min(0).max(10),
  ...provenance,
});
export type Profile = z.infer<typeof profileSchema>;

export const countersSchema = z.strictObject({
  profiles: z.array(profileSchema).min(1),
  ...provenance,
});

// --- scenario ------------------------------------------------------------------------------------

const hexId = z.string().regex(/^[0-9]{4}$/, 'a hex is four digits RRCC, e.g. 2453');
const placeName = z.string().min(1);
const monthKey = z.string().regex(/^19[0-9]{2}-(0[1-9]|1[0-2])$/, 'a month is YYYY-MM, e.g. 1918-04');

export const sectorSchema = z.strictObject({
  id: z.string().regex(/^[A-Z]$/),
  side: z.enum(['CP', 'AL']),
  hexes: z.array(hexId).min(1),
  /** Profile id -> number of counters set up in this sector. */
  units: z.record(z.string(), z.number().int().min(1)),
  ...provenance,
});

export const placementSchema = z.strictObject({
  profile: z.string(),
  count: z.number().int().min(1),
  /** A city name (resolved on the map) or a hex id. */
  at: z.union([hexId, placeName]),
  /** Alternatives: within this many hexes of `at`. */
  within: z.number().int().min(0).max(5).optional(),
  note: z.string().optional(),
  ...provenance,
});

export const fortSchema = z.strictObject({ at: z.union([hexId, placeName]), side: z.enum(['CP', 'AL']), level: z.number().int().min(1).max(2), ...provenance });

export const reinforcementSchema = z.strictObject({
  month: monthKey,
  profile: z.string(),
  count: z.number().int().min(1),
  /** A named city, or `port` (17.31: any British or French port except Calais), or `any` (17.12 order). */
  at: z.union([placeName, z.literal('port'), z.literal('any')]),
  ...provenance,
});

export const rpRateSchema = z.strictObject({
  nation: nationSchema,
  /** RPs per turn, gross, before blockade, submarines and War Weariness. */
  inf: z.number().int().min(0),
  art: z.number().int().min(0),
  tank: z.number().int().min(0),
  /** OB cap on stored RPs of each kind (17.21). */
  cap: z.strictObject({ inf: z.number().int().min(0), art: z.number().int().min(0), tank: z.number().int().min(0) }),
  /** RPs stored at the start. */
  start: z.strictObject({ inf: z.number().int().min(0), art: z.number().int().min(0), tank: z.number().int().min(0) }).optional(),
  ...provenance,
});

export const vpPlaceSchema = z.strictObject({
  /** A city name or hex id; the 15 places of 3.71. */
  place: z.union([hexId, placeName]),
  /** `take`: +1 if occupied by German infantry; `hold`: +1 unless occupied by Allied infantry. */
  kind: z.enum(['take', 'hold']),
});

export const scenarioSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  name: z.string().min(1),
  summary: z.string().min(1),
  first: monthKey,
  last: monthKey,
  /** S3 3.61: the countries (map.json country codes) whose hexes the scenario uses; no unit enters any other hex. */
  area: z.array(z.string().regex(/^[A-Z]{2}$/, 'a two-letter country code of map.json')).min(1),
  sectors: z.array(sectorSchema).min(1),
  placements: z.array(placementSchema),
  /** 3.63: units taken from a sector's forces to garrison (profile, count, sector, where). */
  garrisons: z.array(z.strictObject({ sector: z.string(), profile: z.string(), count: z.number().int().min(1), at: placeName, ...provenance })),
  forts: z.array(fortSchema),
  railheads: z.array(hexId),
  /** Named line on the map (map.json `lines`) that splits control at the start (4.11). */
  startLine: z.string().min(1),
  reinforcements: z.array(reinforcementSchema),
  replacements: z.array(rpRateSchema),
  /** Nations with a national-morale roll and their starting accumulated M/D DRM (S3 3.68b). */
  morale: z.record(z.string(), z.number().int().min(0).max(10)),
  victory: z.strictObject({
    places: z.array(vpPlaceSchema).length(15),
    /** Lower bounds of the CP VP bands (3.72), in order Allied Minor, Draw, CP Minor, CP Major. */
    bands: z.tuple([z.number(), z.number(), z.number(), z.number()]),
    ...provenance,
  }),
  ...provenance,
});
export type ScenarioDef = z.infer<typeof scenarioSchema>;

/** The whole pack, one key per file (without `map`, which @salient/hexmap validates). */
export const packSchema = z.strictObject({
  pack: packMetaSchema,
  charts: chartsSchema,
  counters: countersSchema,
  scenarios: z.strictObject({ scenarios: z.array(scenarioSchema).min(1) }),
  /** `map.json` in the salient.hexmap/1 format, checked by @salient/hexmap. */
  map: z.unknown().optional(),
  /** The map builder's inputs kept beside its output (`anchors.json`, `borders-1918.json`, see MAP.md); the rules never read them. */
  anchors: z.unknown().optional(),
  'borders-1918': z.unknown().optional(),
});
export type PackFiles = z.infer<typeof packSchema>;
export type Charts = z.infer<typeof chartsSchema>;
