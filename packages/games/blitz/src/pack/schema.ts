/**
 * The Blitz! data-pack schema: the printed components (map, counters, Combat Chart, set-up charts)
 * as JSON, one file per component. An official pack transcribed from the published game and the
 * bundled approximation use this same schema.
 *
 * Provenance: the objects that spread `provenance` may carry `refs` (rulebook sections that state its
 * facts) and `estimates` (field name -> reasoning) for every value that is NOT stated by the rulebook.
 * An approximation pack must mark every estimated field this way; an official pack has none.
 *
 * Every object is strict: a field the schema does not name is refused with its path. A lenient object
 * would drop it silently, so a misspelt field (`resouces`) would be ignored and the pack's content hash,
 * taken over the parsed data, would vouch for a file that says something the game never reads.
 */
import { z } from 'zod';
import { fidelitySchema, provenanceFields } from '@salient/engine';

const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'ids are lower-case kebab-case, e.g. western-germany');
const count = z.number().int().min(0);
const provenance = provenanceFields('"A.6", "6.2"');

export { fidelitySchema };
export const powerSchema = z.enum(['GER', 'JAP', 'AFA', 'USSR', 'USA']);
export type Nation = z.infer<typeof powerSchema>;

export const packMetaSchema = z.strictObject({
  format: z.literal('salient-pack/1'),
  game: z.literal('blitz'),
  id,
  version: z.string().min(1),
  fidelity: fidelitySchema,
  title: z.string().min(1),
  description: z.string().min(1),
  /** Where the components came from, and what is estimated. */
  sources: z.array(z.string()).min(1),
});

export const terrainSchema = z.enum(['clear', 'forest', 'jungle', 'mountain', 'swamp']);
export type Terrain = z.infer<typeof terrainSchema>;

/** Geographic position of an area's centre, so a map can be drawn. */
export const positionSchema = z.strictObject({ lon: z.number().min(-180).max(180), lat: z.number().min(-90).max(90) });

const lonLat = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]);
const ring = z.array(lonLat).min(4);
/**
 * An area's outline as printed, for the replay viewer (GeoJSON Polygon or MultiPolygon, longitude and
 * latitude, rings closed): an official pack traced from the map gives it; without it the viewer
 * generates a shape around `position` and says so.
 */
export const shapeSchema = z.union([z.strictObject({ type: z.literal('Polygon'), coordinates: z.array(ring).min(1) }), z.strictObject({ type: z.literal('MultiPolygon'), coordinates: z.array(z.array(ring).min(1)).min(1) })]);

export const countrySchema = z.strictObject({
  id,
  name: z.string().min(1),
  /** Unit-counter abbreviation from rule 1.2 (`Ger`, `Fr`, `Be Ne`). */
  code: z.string().min(1),
  /** Major power whose home country this is (1.1), if any. */
  homeOf: powerSchema.optional(),
  /** The country carries a Snow marker (1.4): on Snow turns no air unit or CV joins a land combat there. */
  snow: z.boolean().optional(),
  /**
   * 7.6: a home country of its major power whose Oil and Resources count as if outside its home
   * countries (the AFA's Australia, Canada, India and South Africa): they need a supply line from its
   * other home countries (step 1), and a country cut off from them is an isolated ally.
   */
  remoteHome: z.boolean().optional(),
  /**
   * 3.4: a home country its major power always gets back when an ally liberates it, though the power
   * has other home countries (the AFA's Great Britain, Germany's Germany); a power's only home country
   * always goes back without this flag.
   */
  returnedWhenLiberated: z.boolean().optional(),
  ...provenance,
});

export const portSchema = z.strictObject({
  size: z.enum(['big', 'small']),
  /** Sea areas the port symbol touches (1.3). */
  seas: z.array(id).min(1),
});

export const landSchema = z.strictObject({
  id,
  name: z.string().min(1),
  country: id,
  /** Terrain types present (1.4); `clear` when none. */
  terrain: z.array(terrainSchema).min(1),
  island: z.boolean(),
  oil: count,
  resources: count,
  factory: count,
  /** Sea areas the land area's coast touches (attack from / support from). */
  coast: z.array(id),
  ports: z.array(portSchema),
  position: positionSchema,
  shape: shapeSchema.optional(),
  /** A Snowflake marker (1.4): on Snow turns bombing factors against it are reduced. */
  snowflake: z.boolean().optional(),
  /** Who controls it at the start of the full game (1.5, 1.11): a major power, or `neutral`. */
  control: z.union([powerSchema, z.literal('neutral')]).optional(),
  ...provenance,
});

export const seaSchema = z.strictObject({
  id,
  name: z.string().min(1),
  position: positionSchema,
  shape: shapeSchema.optional(),
  /** The sea shows a Snow icon (1.4). */
  snow: z.boolean().optional(),
  ...provenance,
});

/**
 * A passage between two sea areas whose use depends on who holds the land beside it (4.2, 9.8):
 * Gibraltar, the Turkish Straits, Suez, Singapore, the Danish straits. The two seas are adjacent only
 * through it (they are not also listed in `seaBorders`).
 */
export const straitSchema = z.strictObject({
  id,
  seas: z.tuple([id, id]),
  /** The land areas that decide it. */
  lands: z.array(id).min(1),
  /**
   * `friendly`: open to a side only while its side holds every one of `lands` (Istanbul links the
   * Black Sea and the Mediterranean only when friendly). `not-enemy`: open unless the enemy holds
   * every one of `lands` (Egypt, Gibraltar, Singapore with South-East Asia).
   */
  passage: z.enum(['friendly', 'not-enemy']),
  /** Whether a closed passage may be forced under optional rule 9.8 (Egypt's may not). */
  forcible: z.boolean(),
  /**
   * Whether SUBs pass it whoever holds `lands` (4.2: Axis SUBs pass Gibraltar both ways while the
   * AFA hold it). Absent or false: it closes to SUBs as to any ship.
   */
  subs: z.boolean().optional(),
  ...provenance,
});

/** A Convoy printed on the map (3.5, 6.3, 7.6): it sits in one sea and carries a home country's trade. */
export const convoySchema = z.strictObject({
  id,
  name: z.string().min(1),
  sea: id,
  /** The major power it belongs to, and the home country it supplies. */
  nation: powerSchema,
  home: id,
  /** Damage it absorbs per turn (its Convoy Factor). */
  factor: z.number().int().min(1),
  /**
   * 3.5: a Convoy that carries other countries' goods (the Ger-Swe Convoy: Norway's and Sweden's) is
   * Destroyed while none of these countries provides a Resource to its power, by a trade or by an area it holds.
   */
  fedBy: z.array(id).min(1).optional(),
  ...provenance,
});

const pair = z.tuple([id, id]);

export const mapSchema = z.strictObject({
  countries: z.array(countrySchema).min(1),
  lands: z.array(landSchema).min(1),
  seas: z.array(seaSchema),
  /** Land areas sharing a border (symmetric; list each pair once). */
  borders: z.array(pair),
  /** Land Routes (1.3): adjacent for land units, but moving through one ends the move, no attack across it. */
  landRoutes: z.array(pair),
  /** Air Routes (1.3): adjacent for air units only. */
  airRoutes: z.array(pair),
  /** Sea areas that touch each other (blue dividing line). */
  seaBorders: z.array(pair),
  straits: z.array(straitSchema).optional(),
  convoys: z.array(convoySchema).optional(),
  ...provenance,
});

export const unitTypeSchema = z.enum(['INF', 'ARM', 'GAR', 'PARA', 'MAR', 'FORT', 'AA', 'AIR', 'BB', 'CV', 'SUB', 'TRS', 'LL']);
export type UnitType = z.infer<typeof unitTypeSchema>;

const triangles = z.strictObject({ white: count, red: count });

/** One side of a counter: the unit at a given Size. */
export const unitSideSchema = z.strictObject({
  /**
   * A side of a CV's counter that shows a BB (6.5: a CV that takes losses in an Air Round may turn into a
   * BB): at this Size the unit is a BB. Only on a CV's counter.
   */
  type: z.literal('BB').optional(),
  /** Land movement (green circle) for land units, naval movement (blue) for naval units. */
  move: count,
  /** Air movement (white circle) for air units and PARA. */
  airMove: count.optional(),
  air: count.optional(),
  land: count.optional(),
  naval: count.optional(),
  strategic: count.optional(),
  /** Blockade Value (4.3, the map's Blockade Table) of an enemy unit at sea against ships leaving. */
  blockade: count.optional(),
  /** Defensive triangles inside each factor box (6.1-6.3). */
  triangles: z
    .object({ air: triangles.optional(), land: triangles.optional(), naval: triangles.optional() })
    .optional(),
});
export type UnitSide = z.infer<typeof unitSideSchema>;

export const unitSchema = z.strictObject({
  id,
  name: z.string().min(1),
  /** Major power owning the counter. */
  nation: powerSchema,
  /** Home country (unit abbreviation, 1.2), a country id. */
  home: id,
  type: unitTypeSchema,
  /** Primary bombing factor of an air unit (Unit Types Chart). */
  primary: z.enum(['land', 'naval', 'strategic']).optional(),
  /**
   * Country ids. When set, the unit's red Land triangles count only if every attacking land unit
   * attacks from one of these countries (the Maginot Line's map note, 5.3: its defensive factors depend
   * on where the attackers come from).
   */
  redTrianglesFrom: z.array(id).optional(),
  /**
   * A V-Weapon (1.2, 6.1, 6.4): a special German air unit with a Strategic Factor but no Air Factor and
   * no Primary Bombing Factor. It never fights in an Air Round, joins only Factory Attacks, where it
   * always reaches the Strategic Round, and may carry Germany's A-Bomb (5.3).
   */
  vWeapon: z.boolean().optional(),
  /**
   * The counter has an asterisk ('*') after its name (6): built to be used once, it is destroyed (back
   * to its Force Pool) in every combat round it takes part in, before that round's results apply.
   */
  oneShot: z.boolean().optional(),
  /** A Lend Lease unit's named sea (7.4; C: it scores only there). */
  llSea: id.optional(),
  /** The major power whose flag is on a Lend Lease counter: it receives what the unit delivers (7.4, D.8). */
  llTo: powerSchema.optional(),
  /**
   * A Lend Lease counter that supplies a minor ally's units instead (7.4, E.4: the Bay of Bengal LL to
   * China): up to `llMax` of the giver's Resources a turn become income that only units of this home
   * country may use; delivered when the LL unit is in its sea and a supply line runs from its landing to that country.
   */
  llToHome: id.optional(),
  llMax: z.number().int().min(1).optional(),
  /** Sides by Size: "1".."4". Small counters have 1-2, Big counters 3-4 with their Small twin's 1-2. */
  sizes: z.partialRecord(z.enum(['1', '2', '3', '4']), unitSideSchema),
  ...provenance,
});
export type UnitDef = z.infer<typeof unitSchema>;

/**
 * One face of a Commander counter (optional rule 9.5): a named commander with factors like a unit's
 * and, in its shaded movement circle, the letter of the units it may command: `A` an air unit, `L` a
 * land unit, `N` a naval unit. Its factors and triangles are added to those of the unit it commands.
 */
export const commanderSideSchema = z.strictObject({
  /** The commander's id (`manstein`): unique over every face of every Commander counter. */
  id,
  name: z.string().min(1),
  letter: z.enum(['A', 'L', 'N']),
  air: count.optional(),
  land: count.optional(),
  naval: count.optional(),
  strategic: count.optional(),
  triangles: z
    .object({ air: triangles.optional(), land: triangles.optional(), naval: triangles.optional() })
    .optional(),
});
export type CommanderSide = z.infer<typeof commanderSideSchema>;

/** A Big two-sided Commander counter (9.5): two commanders of one major power, one on each face. */
export const commanderSchema = z.strictObject({
  id,
  nation: powerSchema,
  /** The home country it is placed in when it comes from the Force Pool (9.5, 7.8). */
  home: id,
  sides: z.tuple([commanderSideSchema, commanderSideSchema]),
  ...provenance,
});
export type CommanderDef = z.infer<typeof commanderSchema>;

export const unitsSchema = z.strictObject({
  units: z.array(unitSchema).min(1),
  /** Optional rule 9.5: each major power's two Commander counters; absent in a pack without them. */
  commanders: z.array(commanderSchema).optional(),
  ...provenance,
});

export const combatResultSchema = z
  .string()
  .regex(/^(-|[1-9]\d?|[SLB]|[1-9]\d?[SLB])$/, "a result is '-', a number, a letter S/L/B, or both, e.g. '1S'");

export const combatColumnSchema = z.strictObject({
  /** Smallest modified factor total using this column. */
  min: z.number().int().min(1),
  /** Largest, or null for the open-ended '30+' column. */
  max: z.number().int().min(1).nullable(),
  /** Results for die rolls 1..6. */
  results: z.array(combatResultSchema).length(6),
  ...provenance,
});

export const combatChartSchema = z.strictObject({ columns: z.array(combatColumnSchema).min(1), ...provenance });

export const placementSchema = z.strictObject({
  unit: id,
  size: z.number().int().min(1).max(4),
  /** A land area id, or `sea:<sea-id>` for a unit at sea. */
  at: z.string().min(1),
  ...provenance,
});

/**
 * One Victory Card objective (8). The cards are not in the rulebook text, so each objective is a kind
 * the engine knows with its parameters; an approximation marks what it estimated.
 *   - `industrial-might`: gain a captured enemy Factory's Factor the moment you take it, lose it if it is retaken (8, 9.9 example).
 *   - `long-war`: at the end of the listed turns, points while the power still holds any of its home countries.
 *   - `control-count`: at each turn end, `vp` if the power controls at least `atLeast` of `areas`.
 *   - `deny`: at each turn end, `vp` if no enemy controls a land area of `countries` (less `except`).
 *   - `destroy-type`: at each turn end, `vp` if the power destroyed an enemy unit of `type` of `nation` this turn.
 *   - `buffer-zone`: at each turn end, `vp` if the power controls `atLeast` land areas outside its home country (less `except`), each touching it.
 *   - `factories-intact`: at each turn end, `vp` if the power controls every one of `areas` and none has Factory damage.
 *   - `presence`: at each turn end, `vp` if enemy air and naval units at sea in `seas` total at least `atLeast` Size (Tenno-Zan).
 *   - `seas-clear`: at each turn end, `vp` if no enemy unit is at sea in any of `seas` (Pacific Domination).
 *   - `build-unit`: at each turn end, `vp` if the power built (not repaired) at least one of `units` this turn (Germany's Super Weapons).
 *   - `lend-lease`: at each turn end, `vp` if the power's Lend Lease reached `nation` this turn (for Lend Lease to a minor ally's home, `nation` is the LL counter's own) and no enemy unit is at sea in `seas` (E's Arsenal of Democracy).
 */
export const objectiveSchema = z.strictObject({
  id,
  name: z.string().min(1),
  power: z.string().min(1),
  kind: z.enum(['industrial-might', 'long-war', 'control-count', 'deny', 'destroy-type', 'buffer-zone', 'factories-intact', 'presence', 'seas-clear', 'lend-lease', 'no-casualties', 'atomic-club', 'build-unit']),
  /** `build-unit`: the unit counters whose building scores. */
  units: z.array(id).optional(),
  /** `atomic-club` (8): the points for the first, second, ... power to join; simultaneous joiners all take the best. */
  ladder: z.array(count).min(1).optional(),
  seas: z.array(id).optional(),
  vp: count.optional(),
  byTurn: z.record(z.string(), count).optional(),
  areas: z.array(id).optional(),
  countries: z.array(id).optional(),
  except: z.array(id).optional(),
  atLeast: count.optional(),
  type: unitTypeSchema.optional(),
  nation: powerSchema.optional(),
  ...provenance,
});
export type ObjectiveDef = z.infer<typeof objectiveSchema>;

/**
 * 9.2 Blitzing the Road to War: the named options the rulebook states (9.2), by the option id the rules
 * act on. Everything else on the card is the pack's.
 */
export const RTW_STATED = ['monroe-doctrine', 'dont-invade-china', 'annex-austria-czechoslovakia', 'secret-german-pact', 'secret-soviet-pact', 'anti-comintern-pact-expanded', 'liberate-foes'] as const;

/**
 * One option of the Blitzing the Road to War card (9.2) and what playing it does, in the engine's levers:
 * saved `resources` and `oil`; `itsWar` moves of neutral majors' It's War! markers; `propaganda` moves
 * every neutral major's marker that many boxes towards war when an Allied power plays it, away when an
 * Axis power does; `influence` on fixed minors, or `influenceChoice` on one the player names (from
 * `roadToWar.influence.targets`); `tradeChoice` a Trade Agreement with a neutral minor the player names
 * (from `tradeTerms`); `trade` a major power's trade (7.5's shape); `ally` a neutral minor that allies with
 * the picking power at once; `units` placed on the map for it; `research` units of its first research
 * Group joining its Force Pool. An option whose id is in RTW_STATED also switches on that stated rule.
 */
const rtwOptionSchema = z.strictObject({
  id,
  name: z.string().min(1),
  /** The power the option is listed for at its step; absent for a Standard Option. */
  power: z.string().min(1).optional(),
  resources: count.optional(),
  oil: count.optional(),
  itsWar: z.record(z.string(), z.number().int()).optional(),
  propaganda: count.optional(),
  influence: z.record(id, z.number().int().min(1)).optional(),
  influenceChoice: z.number().int().min(1).optional(),
  tradeChoice: z.boolean().optional(),
  trade: z.strictObject({ from: id, giver: z.string().min(1), to: z.string().min(1), oil: count, resources: count, endsAtItsWar: count.optional() }).optional(),
  ally: id.optional(),
  units: z.array(placementSchema).optional(),
  research: z.number().int().min(1).optional(),
  ...provenance,
});
export type RtwOption = z.infer<typeof rtwOptionSchema>;

/** 9.2: the Blitzing the Road to War card and the set-up changes the optional rule makes. */
export const roadToWarSchema = z.strictObject({
  /** The order the major powers pick in within a step. */
  order: z.array(z.string().min(1)).min(1),
  /** Steps 1-13 in order, each with the options listed for powers at that step (choices in card order). */
  steps: z.array(z.strictObject({ name: z.string().min(1), options: z.array(rtwOptionSchema), ...provenance })).length(13),
  /** The six Standard Options, open to every power at every step, as often as it likes. */
  standard: z.array(rtwOptionSchema).length(6),
  /** Countries the scenario sets up allied or at war that start the Road to War neutral, their areas neutral and their units off the map (Poland). */
  neutralAtStart: z.array(id),
  /** Neutral minors the Road to War may leave that the scenario's `minors` does not list, with the army each sets up when it joins a power (Poland, Austria-Czechoslovakia, a neutral China). */
  minors: z.array(z.strictObject({ country: id, army: z.array(placementSchema), ...provenance })),
  /** Austria-Czechoslovakia: neutral at the start, Germany's once annexed; if it is not, these units set up elsewhere. */
  annex: z.strictObject({ country: id, power: z.string().min(1), elsewhere: z.array(z.strictObject({ unit: id, at: id, ...provenance })), ...provenance }),
  /** What a Trade Agreement with each neutral minor gives a turn, while the minor stays neutral (7.5 replaced). */
  tradeTerms: z.array(z.strictObject({ country: id, oil: count, resources: count, ...provenance })).min(1),
  /** Minors options may sway, and the lead (one side's influence less the other's) at which one allies with the leading side's most influential power when the Road to War ends. */
  influence: z.strictObject({ targets: z.array(id).min(1), toAlly: z.number().int().min(1), ...provenance }),
  /** No It's War! marker passes this box during the Road to War. */
  markerMax: count,
  ...provenance,
});
export type RoadToWar = z.infer<typeof roadToWarSchema>;

export const scenarioSchema = z.strictObject({
  /** A short scenario A..F, or `full` for the full fifteen-turn game (1.11). */
  id: z.string().regex(/^([A-F]|full)$/, 'scenario ids are A..F (the short scenarios) or full (the full game)'),
  name: z.string().min(1),
  firstTurn: z.number().int().min(1).max(15),
  lastTurn: z.number().int().min(1).max(15),
  /** Powers in play; `nations` are the counter nations each power runs (B: WA runs AFA and USA). */
  powers: z.array(z.strictObject({ id: z.string().min(1), name: z.string().min(1), side: z.enum(['Axis', 'Allies']), nations: z.array(powerSchema).min(1) })),
  /** Blitz option per power (2.2). */
  blitz: z.record(z.string(), z.enum(['free', 'land', 'air', 'naval', 'total'])),
  lands: z.array(id).min(1),
  seas: z.array(id),
  /** Initial control: land id -> power id, or 'neutral'. Every land in play appears. */
  control: z.record(z.string(), z.string()),
  /**
   * The pairs at war at the start (3.1), between belligerents: each name is a power id of this scenario
   * or a minor country id (a minor at war on its own account, e.g. China with Japan). When present, only
   * these pairs, and those made later by declarations of war and entries into the war, are at war; when
   * absent, every power is at war with every non-neutral power of the other side (Scenarios A-F).
   */
  wars: z.array(z.tuple([z.string().min(1), z.string().min(1)])).optional(),
  /** Neutral minors that may be declared on, and the army that appears when they are. */
  minors: z.array(
    z.strictObject({
      country: id,
      army: z.array(placementSchema),
      /**
       * 3.2: minor countries that share this one's fate (Belgium-Netherlands' colonies): declared on with
       * it, they join the same power, except that an Axis aligner's `axis` power takes them (Japan).
       */
      colonies: z.strictObject({ countries: z.array(id).min(1), axis: z.string().min(1).optional(), ...provenance }).optional(),
      ...provenance,
    }),
  ),
  setup: z.array(placementSchema),
  /** Units arriving at the end of `turn` (A.7). */
  reinforcements: z.array(z.strictObject({ turn: z.number().int(), units: z.array(placementSchema), ...provenance })),
  /** Units that may be built (B.7), with the first turn each becomes available. */
  forcePool: z.array(z.strictObject({ unit: id, size: z.number().int().min(1).max(4), from: z.number().int().optional(), ...provenance })),
  /** Off-map income per power per turn (B.7: six for the Western Allies). */
  offMapIncome: z.record(z.string(), count),
  /**
   * Sea area activities from Scenario C on (4.3 blocking, 4.4 sea combat with Convoys, C.1/C.2 air
   * units at sea). Absent: A and B, where ships only carry and support.
   */
  seaCombat: z.boolean().optional(),
  /** Map Convoys (by id) that carry a Destroyed marker for the whole scenario (C: Western Approaches). */
  destroyedConvoys: z.array(id).optional(),
  /** Blitz options each power chooses from every Blitz phase, paying saved Oil (2.2; C.5: Free or Naval). Replaces `blitz` for those powers. */
  blitzChoice: z.record(z.string(), z.array(z.enum(['free', 'land', 'air', 'naval', 'total'])).min(1)).optional(),
  /** Saved Oil per power at the start (2.2 costs are paid from it). */
  oil: z.record(z.string(), count).optional(),
  /** Oil and Resources each power gets at every turn end instead of income from areas (C.7: from the set-up chart). */
  fixedIncome: z.record(z.string(), z.strictObject({ oil: count, resources: count })).optional(),
  /**
   * 3.4 (D.5): when a country is conquered its owner's units of that home still in the Force Pool are set
   * aside, and its units left on the map leave the game when destroyed (from Scenario D on).
   */
  setAside: z.boolean().optional(),
  /** Port Attacks (5.3, E.2) may be announced (from Scenario E on). */
  portAttacks: z.boolean().optional(),
  /** 7.8: powers may damage or destroy their own on-map units last at their builds; `false` where a scenario forbids it (B's special rule). */
  voluntaryLosses: z.boolean().optional(),
  /** Supply lines (1.7) apply (from Scenario D on). */
  supply: z.boolean().optional(),
  /** No land area ever changes control (C). */
  frozenControl: z.boolean().optional(),
  /** C.5: a Naval Blitz repeats every action except rebasing (in the full game it is sea steps only). */
  navalBlitzAllSteps: z.boolean().optional(),
  /**
   * New weapons development, simplified (C.6, 7.3): each turn end every listed power may add one unit of
   * its Future Additions to its Force Pool; `doublePicks` lets a power take two in one turn that many
   * times a game, for one saved Oil each time.
   */
  futureAdditions: z.record(z.string(), z.array(z.strictObject({ unit: id, size: z.number().int().min(1).max(4), group: z.number().int().min(1).optional(), ...provenance }))).optional(),
  /**
   * 7.3: Future Additions come a Group at a time (`group` on each, 1 when absent): a power picks only
   * from the lowest Group it has not used up. `picksPerTurn` gives, per power, how many units it may add
   * a turn while picking from Group 1, 2, ... (the last number for every higher Group); 1 when absent.
   * A unit of a minor country goes to the Force Pool of the major power of the picker's side that
   * country is allied with (7.3), so it may be listed under a power that does not run its nation.
   */
  picksPerTurn: z.record(z.string(), z.array(z.number().int().min(1)).min(1)).optional(),
  doublePicks: z.record(z.string(), count).optional(),
  /** C.8: from this turn Germany has a Resource less and Italian units leave its Force Pool for good. */
  italyExit: z.strictObject({ turn: z.number().int().min(1).max(15), power: z.string().min(1), resourceLoss: count, ...provenance }).optional(),
  /**
   * Victory points by turn (scenario C's set-up chart): at every turn end each power scores per point
   * of damage its enemies' Convoys took (`convoyDamage`) and per Lend Lease unit of its own at sea in
   * its named sea (`lendLease`); the side with more at the end wins, equal is a draw.
   */
  vp: z.strictObject({ convoyDamage: z.record(z.string(), count), lendLease: z.record(z.string(), count), ...provenance }).optional(),
  /** Turns with a Snow icon on the Victory Track (1.4, D.2): weather counts only then. */
  snowTurns: z.array(z.number().int().min(1).max(15)).optional(),
  /**
   * Income by 7.6 (D.9): every power without a `fixedIncome` entry collects the Oil and Resources of
   * the areas it controls and can trace supply to, less Factory damage, plus Lend Lease and trades.
   */
  areaIncome: z.boolean().optional(),
  /** Trade Agreements in force (7.5): a neutral minor's Oil or Resources go to a power while the minor stays neutral (D: Sweden to Germany). */
  trades: z
    .array(
      z.strictObject({
        /** The neutral minor country that trades, or (with `giver`) the country name for the record. */
        from: id,
        /** A major power that gives instead of a minor (F: the USSR's Oil to Germany); ends when the two are at war. */
        giver: z.string().min(1).optional(),
        to: z.string().min(1),
        oil: count,
        resources: count,
        /** The trade also ends for good once the giver's It's War! marker reaches this box (7.5). */
        endsAtItsWar: count.optional(),
        ...provenance,
      }),
    )
    .optional(),
  /** A Resource loss growing by `perTurn` each turn from `fromTurn`, up to `max` (D's Second Front). */
  resourceDrain: z.array(z.strictObject({ power: z.string().min(1), fromTurn: z.number().int().min(1).max(15), perTurn: count, max: count, ...provenance })).optional(),
  /** At the start of `turn`, `to` takes control of every land area of `country`; from then on the `closedTo` side may not attack it (D: Belgium-Netherlands from Turn 9). */
  handovers: z.array(z.strictObject({ turn: z.number().int().min(1).max(15), country: id, to: z.string().min(1), closedTo: z.enum(['Axis', 'Allies']).optional(), ...provenance })).optional(),
  /** At the builds of `turn`, `power` permanently removes on-map units of `type` totalling `size` (D: four Size of German ARM on Turn 9). */
  disbands: z.array(z.strictObject({ turn: z.number().int().min(1).max(15), power: z.string().min(1), type: unitTypeSchema, size: z.number().int().min(1), ...provenance })).optional(),
  /** Per power, the land area where all its new units and reinforcements are placed (D: the Western Allies' arrive in the UK). */
  buildAt: z.record(z.string(), id).optional(),
  /** Units removed from the game for good when destroyed (D: the Italian Alpini Army). */
  permanentLoss: z.array(id).optional(),
  /** Units of a country controlled by a power that stay off the map until one of the country's land areas is attacked (D: the Near East). */
  dormant: z.array(z.strictObject({ country: id, army: z.array(placementSchema), ...provenance })).optional(),
  /**
   * Supply sources off the map (E): `power` may start a supply line in any land area of `countries`,
   * in play or not, and trace it through seas out of play and through out-of-play land areas that
   * carry its nations' control flag on the map.
   */
  offMapSupply: z.record(z.string(), z.strictObject({ countries: z.array(id).min(1), ...provenance })).optional(),
  /**
   * 5.2/E.1 China entry: the other side's land units not of `home` may not enter or attack `country`
   * until it is conquered, or the side holds `need` of `openers`.
   */
  chinaEntry: z
    .object({
      country: id,
      home: id,
      openers: z.array(id).min(1),
      need: z.number().int().min(1),
      /** 5.2: only these nations' holdings count toward `need`, and only their units are let in by it (absent: the whole side). */
      openerNations: z.array(powerSchema).min(1).optional(),
      /** 5.2: the openers count only while this nation's power is not neutral. */
      unlessNeutral: powerSchema.optional(),
      /** 5.2: a nation whose power holds all of `lands` may send its own units in. */
      own: z.array(z.strictObject({ nation: powerSchema, lands: z.array(id).min(1) })).optional(),
      ...provenance,
    })
    .optional(),
  /** E.4: Resources and Oil in `country` build only units of home `home`, and only with such a land unit in that area. */
  restrictedIncome: z.array(z.strictObject({ country: id, home: id, ...provenance })).optional(),
  /**
   * E's Harbin: the power holding `land` must keep `garrison` Size of land units there or lose it to
   * `controller` (a power not in play); from `fromTurn` the other side may attack it once a turn with a
   * die against the defenders' Size, then areas next to what `controller` holds; each success costs the
   * defender `losses` and a retreat. Areas `controller` holds are out of play.
   */
  frontier: z.strictObject({ land: id, holder: z.string().min(1), controller: z.string().min(1), garrison: z.number().int().min(1), fromTurn: z.number().int().min(1).max(15), losses: count, ...provenance }).optional(),
  /**
   * E's extra Resources for `power`: on turns `optional.fromTurn`-`toTurn` it may take `amount` more for one
   * turn at a cost of `vpCost` VP (the enemy `vpToIfNone` gains it if it has none to lose); from
   * `growing.fromTurn` it gets `perTurn` more each turn, cumulative.
   */
  extraResources: z
    .object({
      power: z.string().min(1),
      optional: z.strictObject({ fromTurn: z.number().int(), toTurn: z.number().int(), amount: count, vpCost: count, vpToIfNone: z.string().min(1) }).optional(),
      growing: z.strictObject({ fromTurn: z.number().int(), perTurn: count }).optional(),
      ...provenance,
    })
    .optional(),
  /**
   * Weapons research (7.3, 7.8, E.5): the Groups of each power's Weapons Development Chart, in order.
   * A Resource buys a roll: 1-4 (one more if neutral) adds a random unit of the current Group (the next
   * when it is empty) to the Force Pool; 5-6 fails.
   */
  research: z.record(z.string(), z.array(z.array(z.strictObject({ unit: id, size: z.number().int().min(1).max(4), ...provenance })).min(1)).min(1)).optional(),
  /**
   * The Weapons Development Charts (1.11, 7.3, 7.8), one per major power: every unit of the power
   * that is neither set up nor in the Force Pool at the start sits in a numbered Group. A power adds
   * units from its lowest Group with any left, as many a turn as that Group's `picks` allows (7.3: a
   * unit taken from Group 3 uses up Group 4's one a turn), and a research success (7.8) draws at
   * random from that same Group. A minor country's unit may be on a major power's chart (7.3's Polish
   * Air Force on the USSR's); picked, it goes to the Force Pool of the power of the picker's side
   * that country is allied with. A chart replaces `futureAdditions`, `picksPerTurn` and `research`
   * for its power, which may then have no entry in those.
   */
  weaponCharts: z
    .record(
      z.string(),
      z.strictObject({
        groups: z
          .array(
            z.strictObject({
              /** 7.3: how many units the power may add a turn while this is its current Group. */
              picks: z.number().int().min(1),
              units: z.array(z.strictObject({ unit: id, size: z.number().int().min(1).max(4), ...provenance })).min(1, 'a Group holds at least one unit: drop the empty Group'),
              ...provenance,
            }),
          )
          .min(1, 'a Weapons Development Chart has at least Group 1'),
        ...provenance,
      }),
    )
    .optional(),
  /**
   * The A-Bomb (7.3, 7.8, E.5, 5.3): from `fromTurn` a listed power may take its A-Bomb as its weapon pick
   * of the turn; it then sits on the track at `startBox`, each turn it may be developed (box -1, not below
   * 1) and tested (a die above the box) for a Resource each, and once tested it may be built for `size`
   * Resources in a home land area. An air unit with at least `carrierStrategic` Strategic Factors based
   * there may carry it into a land combat; if the carrier comes through the Air Round the bomb goes off
   * over the target: each defending land unit there loses `landLosses` Size and, with `wreckFactory`, the
   * Factory takes damage up to its Factory Factor. Used or destroyed, it may be built again with no test.
   */
  /** 9.2 Blitzing the Road to War (the full game, when the optional rule is on). */
  roadToWar: roadToWarSchema.optional(),
  aBomb: z
    .object({
      startBox: z.number().int().min(1).max(6),
      size: z.number().int().min(1).max(4),
      carrierStrategic: z.number().int().min(1),
      landLosses: count,
      wreckFactory: z.boolean(),
      powers: z.record(z.string(), z.strictObject({ fromTurn: z.number().int().min(1).max(15), ...provenance })),
      ...provenance,
    })
    .optional(),
  /**
   * Neutral major powers (7.2, F.5): each starts out of the war with its It's War! marker in a box; while
   * neutral it takes no activities or Blitzes, its land areas are closed to everyone, its units at sea
   * neither fight nor block, and it may use only as many Oil and Resources a turn as its box (7.7). It
   * enters the war (against `against`) when its marker reaches `warAt`, at the start of `warTurn`, or when
   * one of those powers declares war on it (allowed for `declarers` from `fromTurn` or once they hold
   * `ifHeld`). With `wars`, `declarers` also lists the declarations of war a power at war may make on a
   * power of the other side it is not yet at war with (the full game: Japan on the AFA). A neutral major
   * listed in `mayDeclare` may itself declare war while neutral, on anyone but `except` (3.2: the USSR);
   * one not listed may not (the USA). Events move the markers (the Neutral Entry Chart, estimated);
   * every turn end adds `perTurn`; a marker an Allied action would push below 0 gives each Axis power 1
   * VP per box instead.
   */
  neutralMajors: z
    .object({
      powers: z.record(z.string(), z.strictObject({ start: count, against: z.array(z.string().min(1)).min(1) })),
      warAt: z.number().int().min(1),
      warTurn: z.number().int().min(1).max(15),
      perTurn: count,
      declarers: z.array(z.strictObject({ power: z.string().min(1), on: z.string().min(1), fromTurn: z.number().int().min(1).max(15).optional(), ifHeld: z.array(id).optional() })).optional(),
      /**
       * Neutral major powers that may declare war while still neutral (3.2), on any power or country
       * except those in `except` (power or country ids); e.g. the USSR, except on Germany, Central Europe,
       * Finland and Sweden. A neutral major not listed may declare nothing until it is at war (the USA).
       */
      mayDeclare: z.record(z.string(), z.strictObject({ except: z.array(z.string().min(1)), ...provenance })).optional(),
      /**
       * Chart entries: `conquest` (a country conquered by `by`), `capture` (a land area of `lands`, or any
       * with Oil or Resources when `lands` is absent, taken by `by` from the other side; `once` only the
       * first time), `declare-minor` (`by` declares war on a neutral minor), `declare-major` (a power of
       * `by`, or `power` when given, declares war on a major power, or on one of `on` when given; the
       * full game: Japan declaring war on the AFA moves the USA's marker).
       */
      events: z.array(
        z.strictObject({
          kind: z.enum(['conquest', 'capture', 'declare-minor', 'declare-major']),
          by: z.enum(['Axis', 'Allies']),
          /** `declare-major`: the declaring power (a power id of this scenario). */
          power: z.string().min(1).optional(),
          /** `declare-major`: the powers declared on that count (power ids of this scenario). */
          on: z.array(z.string().min(1)).optional(),
          lands: z.array(id).optional(),
          once: z.boolean().optional(),
          delta: z.record(z.string(), z.number().int()),
          ...provenance,
        }),
      ),
      ...provenance,
    })
    .optional(),
  /**
   * Automatic alignment of neutral minors (3.3): the country joins `power` with its army (from `minors`)
   * when `when` holds: `at-war` (`power` is at war, i.e. not neutral; with `with`, once `power` and
   * `with` are at war with each other: `with` is a neutral major power, or, when the scenario lists
   * `wars`, any power of the other side not at war with `power` at the start, e.g. South-East Asia
   * joining Japan once Japan and the AFA are at war), `holds` (`power`'s side holds at
   * least `count` of `lands`; with `supplied`, only areas `power` can trace supply to count: 1.7),
   * `none-touching` (the other side holds no land area touching `sea`), `near` (`power` holds a land
   * area within `range` air moves of the country with a major power's land unit in it: Argentina).
   * `poolUnlessNear`: when it aligns this way, its army goes to `power`'s Force Pool instead of the
   * map unless an enemy land unit is within that many air moves of the country (Brazil, Mexico).
   */
  alignments: z
    .array(
      z.strictObject({
        country: id,
        power: z.string().min(1),
        when: z.enum(['at-war', 'holds', 'none-touching', 'near']),
        with: z.string().min(1).optional(),
        lands: z.array(id).optional(),
        count: z.number().int().min(1).optional(),
        /** `holds`: only areas `power` itself controls count (3.3: "Germany controls"), not its side's. */
        own: z.boolean().optional(),
        supplied: z.boolean().optional(),
        sea: id.optional(),
        range: z.number().int().min(1).optional(),
        poolUnlessNear: z.number().int().min(1).optional(),
        ...provenance,
      }),
    )
    .optional(),
  /** Minors no power of `side` may declare war on (3.2: no Allied power on Brazil, Chile, Mexico or Venezuela). */
  protectedMinors: z.array(z.strictObject({ country: id, from: z.enum(['Axis', 'Allies']), ...provenance })).optional(),
  /**
   * 3.3: minors that a power of `by` liberates and aligns with itself, rather than conquers, when it
   * takes the whole country from the other side (Austria-Czechoslovakia and Iberia, by an Allied major).
   */
  liberatedByConquest: z.array(z.strictObject({ country: id, by: z.enum(['Axis', 'Allies']), ...provenance })).optional(),
  /** Partisans (7.1, F.4): each turn end `roller` rolls; the face names a country (the Partisan Table, estimated). */
  partisans: z
    .object({
      roller: z.string().min(1),
      table: z.record(z.string(), z.array(id)),
      /** 7.1: countries where either side may place a Partisan in any area the other side holds (China). */
      bothSides: z.array(id).optional(),
      ...provenance,
    })
    .optional(),
  /**
   * F's Japan: at the start of any turn `power` may announce that Japan is at war with the Allies; until
   * then `bonus.power` gets `bonus.resources` and `bonus.oil` a turn; if it happens before `early.beforeTurn`,
   * `early.power` gains `early.vp` at each turn end before then.
   */
  japanEntry: z
    .object({
      power: z.string().min(1),
      bonus: z.strictObject({ power: z.string().min(1), resources: count, oil: count }),
      early: z.strictObject({ power: z.string().min(1), beforeTurn: z.number().int(), vp: count }).optional(),
      itsWar: z.record(z.string(), z.number().int()).optional(),
      ...provenance,
    })
    .optional(),
  /** Countries conquered when one land area is lost (3.4: France with Paris, Italy with Rome). */
  capitals: z.record(z.string(), id).optional(),
  /**
   * Player splits (1.11, F): for each number of players, the powers each player runs; the winner is the
   * player with the highest average VP over its powers (8, F.8). The `players` setup option picks one.
   */
  splits: z.record(z.string(), z.array(z.array(z.string().min(1)).min(1)).min(1)).optional(),
  /**
   * Victory by points (8, D.11): the Victory Card objectives that apply, scored as they happen or at
   * each turn end; the game ends at once when a power reaches `target`, else after the last turn, and
   * the power with most points wins. A power listed in `winsWith` wins only when that power wins
   * (D: the Western Allies with the USSR).
   */
  victory: z
    .object({
      target: z.number().int().min(1),
      winsWith: z.record(z.string(), z.string()).optional(),
      objectives: z.array(objectiveSchema).min(1),
      ...provenance,
    })
    .optional(),
  ...provenance,
});
export type ScenarioDef = z.infer<typeof scenarioSchema>;

export const scenariosSchema = z.strictObject({ scenarios: z.array(scenarioSchema).min(1), ...provenance });

/** A whole pack as loaded from its directory: one key per file. */
export const packSchema = z.strictObject({
  pack: packMetaSchema,
  map: mapSchema,
  units: unitsSchema,
  'combat-chart': combatChartSchema,
  scenarios: scenariosSchema,
});

export type PackFiles = z.infer<typeof packSchema>;
export type MapDef = z.infer<typeof mapSchema>;
export type LandDef = z.infer<typeof landSchema>;
export type SeaDef = z.infer<typeof seaSchema>;
export type StraitDef = z.infer<typeof straitSchema>;
export type ConvoyDef = z.infer<typeof convoySchema>;
export type CombatChart = z.infer<typeof combatChartSchema>;
