/**
 * The game contract: what every game system implements so that the runner, the bots, telemetry and
 * replays can drive it without knowing its rules.
 *
 * A game is a pure state machine over plain JSON state. Nothing in here may read a clock, draw a
 * random number or touch I/O: randomness enters only as explicit *chance* nodes whose outcomes the
 * runner samples from seeded streams and records in the action log, exactly like a player's choice.
 * That is what makes every game replayable bit for bit from (game, rules version, pack, scenario,
 * options, action log).
 *
 * Modelled on OpenSpiel's `State` (explicit chance player, canonical non-empty legal actions) with
 * boardgame.io's plain-JSON ergonomics.
 *
 * @packageDocumentation
 */

/** A JSON value. Game state, observations and events are JSON: a JSON round-trip is the identity. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** Where a game stands, for telemetry, progress bars and readable logs. */
export interface Position {
  /** Game turn as the rulebook numbers it (Blitz! Scenario B starts at Turn 9); 0 for a set-up played before the first turn. */
  turn: number;
  /** Impulse (or action phase) counter within the turn, starting at 1. */
  impulse: number;
  /** Phase name, e.g. `axis-activities`, `allied-blitz`, `turn-end`. */
  phase: string;
  /** Step within the phase, e.g. `land-move`, `land-combat`. */
  step: string;
}

/** The outcome for one side. */
export type Outcome = 'win' | 'loss' | 'draw';

/** Final (or adjudicated) result of a game. */
export interface GameResult {
  /** Outcome per side id. Every side of the scenario appears. */
  sides: Record<string, Outcome>;
  /** Score per power id (victory points or the scenario's own measure). */
  scores: Record<string, number>;
  /** How decisive the result was, from the winner's point of view; 0 for a draw. */
  margin: number;
  /** A sentence a person can read: who won and why, citing the victory rule. */
  reason: string;
}

/** One chance outcome and its exact probability. */
export interface ChanceOutcome<C> {
  outcome: C;
  /** Probability in (0, 1]; the outcomes of one chance node sum to 1. */
  p: number;
}

/** A power must choose one of `options`. */
export interface PendingDecision<C> {
  kind: 'decision';
  /** The power that chooses. */
  power: string;
  /** What is being asked, a stable machine name such as `land-move-unit` or `assign-damage`. */
  prompt: string;
  /** Legal options in canonical order; never empty. */
  options: readonly C[];
}

/**
 * A decision prompt as a bot author needs to know it (see {@link Game.prompts}): what the power is
 * asked, and what the options look like as encoded text (the `labels` an external bot is sent).
 */
export interface PromptInfo {
  /** What is asked, in a phrase, citing the rule where the game has a rulebook. */
  asks: string;
  /** The options' encoded forms, e.g. "`move UNIT`, then `done`". */
  options: string;
}

/** Nature chooses: the runner samples one outcome from the named RNG stream. */
export interface PendingChance<C> {
  kind: 'chance';
  /** Name of the RNG stream this draw comes from (`combat`, `weather`, ...). */
  stream: string;
  /** What the draw is for, e.g. `combat-die-axis`. */
  prompt: string;
  outcomes: readonly ChanceOutcome<C>[];
}

/** The game is over. */
export interface PendingTerminal {
  kind: 'terminal';
  result: GameResult;
}

/** Exactly one of: a decision, a chance node, or the end of the game. */
export type Pending<C> = PendingDecision<C> | PendingChance<C> | PendingTerminal;

/**
 * A domain event, emitted by `apply` for telemetry and readable logs: a combat with its odds and dice,
 * a capture, an elimination, a declaration of war. `type` is a stable machine name; the rest is JSON.
 */
export interface GameEvent {
  type: string;
  /** The power the event is mainly about, if any. */
  power?: string;
  /** One readable line, in the project's own words. */
  text: string;
  data?: JsonObject;
}

/** What an `apply` crossed: the end of a step's phase, of an impulse, or of a whole turn (the largest wins). */
export type Boundary = 'phase' | 'impulse' | 'turn';

/** The result of applying one choice. The input state is never mutated. */
export interface Step<S> {
  state: S;
  events: GameEvent[];
  boundary?: Boundary;
}

/**
 * What a game reports about a position for telemetry, once per impulse: the scenario's own score per
 * power and, where the game has them, areas controlled and supply by power, plus anything else worth
 * charting (`extra`, flat numbers).
 */
export interface Summary {
  scores: Record<string, number>;
  control?: Record<string, number>;
  supply?: Record<string, number>;
  extra?: Record<string, number>;
}

/**
 * What a game's numbers mean, for charts and tables that show them to people (the web dashboard, Grafana).
 * A game's "score" is often not the victory points a player would name: say what it counts.
 */
export interface GameMeasures {
  /** What `GameResult.scores` and `Summary.scores` count per power. */
  score: MeasureInfo;
  /** What `GameResult.margin` counts. */
  margin: MeasureInfo;
}

/** One measure: a short name for axes, legends and menus, and a description for the page around them. */
export interface MeasureInfo {
  /** A few words, e.g. `score (objectives × 10 + Size)`. */
  name: string;
  /** One to three sentences: what it counts, where it differs by scenario, what it is not. */
  description: string;
}

/** A side of a scenario and the powers on it. */
export interface SideInfo {
  id: string;
  name: string;
  powers: readonly string[];
}

/** What a scenario offers to the CLI and the scheduler. */
export interface ScenarioInfo {
  id: string;
  name: string;
  /** One paragraph: what happens and how it is won. */
  summary: string;
  sides: readonly SideInfo[];
}

/** A validation problem in a data pack or replay, located by JSON path. */
export interface PathIssue {
  /** JSON path such as `$.units[3].land`. */
  path: string;
  message: string;
}

/** How faithful a data pack is to the published components. */
export type Fidelity = 'official' | 'approximation' | 'synthetic';

/** Provenance of a loaded data pack; recorded with every match. */
export interface PackInfo {
  id: string;
  version: string;
  fidelity: Fidelity;
  /** Canonical content hash (see {@link hashJson}). */
  hash: string;
  /** One line on what the pack is and how far to trust it. */
  description: string;
}

/** A validated data pack of a given game. `data` is opaque to everything but the game. */
export interface LoadedPack<P = unknown> {
  info: PackInfo;
  data: P;
}

/** Result of checking a pack: either the loaded pack or every problem found. */
export type PackCheck<P> = { ok: true; pack: LoadedPack<P> } | { ok: false; issues: PathIssue[] };

/**
 * A model a bot may use to look ahead from what it observes. Bots never see the game state; for a
 * game with open information `sample` simply rebuilds it, for hidden information it samples one
 * state consistent with the observation (information-set search).
 */
export interface BotModel<S, O> {
  /** A full state consistent with `observation`. `u` is a uniform number in [0,1) for sampling hidden parts. */
  sample(observation: O, u: number): S;
  /** Heuristic value of `state` for `power`, higher is better; terminal states should dominate. */
  evaluate(state: S, power: string): number;
  /**
   * Optional: the outcomes of the chance node `state` stands at, or undefined when it stands at none:
   * what `Game.pending(state)` says of a chance node, without building a decision's option list (a
   * search bot asks it after every option it looks at). Must agree with `pending`.
   */
  chanceAt?(state: S): readonly ChanceOutcome<unknown>[] | undefined;
  /**
   * Optional: the powers whose impulse it is at `state` (the phasing side's, all of them where a side
   * has several). A decision asked of any other power is a reaction to theirs (a defender's support,
   * its pairing, losses and retreats), which a search bot may look at more briefly than an impulse of
   * its own. Where the sequence of play gives nobody the initiative and every power acts on its own
   * account (a turn end's builds), every power of the scenario. Never empty while a decision is pending.
   */
  phasing?(state: S): readonly string[];
  /**
   * Optional: whether one combat is under way at `state`, from the moment the game turns to it (the
   * hex or area attacked, the attack picked to resolve) until its last result (losses, retreats,
   * advances) is applied: every decision posed meanwhile, whoever is asked, belongs to that combat.
   * With {@link BotModel.phasing} it tells a search bot where a reaction's consequences end: at the
   * phasing powers' first decision outside a combat.
   */
  inCombat?(state: S): boolean;
}

/** An area of a map, at its geographic centre. */
export interface BoardArea {
  id: string;
  name: string;
  kind: 'land' | 'sea';
  lon: number;
  lat: number;
  /** The country or region it belongs to, where the game has them. */
  group?: string;
  /**
   * The area's outline as printed, where a pack gives it: a GeoJSON Polygon or MultiPolygon in
   * longitude and latitude. A viewer draws it as given; areas without one get a generated shape.
   */
  shape?: { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] };
}

/**
 * The fixed part of a map. An area game (Blitz!) gives its `areas` and which touch (`links`); a hex
 * game gives `hex` and leaves `areas` and `links` empty. Frames then key control, units and markers by
 * area id or by printed hex id respectively.
 */
export interface BoardLayout {
  areas: BoardArea[];
  /** Pairs of area ids that border each other (each pair once). */
  links: [string, string][];
  /** The hex grid, for a hex-and-counter game (see {@link BoardHexLayout}). */
  hex?: BoardHexLayout;
  /**
   * Ids of the areas or hexes where the scenario is mainly fought, for a viewer to frame first; absent:
   * the viewer works it out from the frames (where units stand and powers in play hold ground).
   */
  focus?: string[];
}

/**
 * A hex map as a viewer draws it, game-agnostic (E&A now, Fatal Alliances and World in Flames later,
 * all from `@salient/hexmap`'s `hexBoardLayout`). Geometry is the grid's own: centres are in units of
 * the distance between neighbouring centres (x grows east, y grows south), so a hex's corners lie
 * 1/√3 from its centre, at 30° + k·60° for `pointy` grids and at k·60° for `flat` ones, and the side
 * two neighbours share is the segment of length 1/√3 through the midpoint of their centres, square to
 * the line joining them.
 */
export interface BoardHexLayout {
  /** Numbering scheme of the printed ids, as the map file names it (`rrcc-offset-even`). */
  scheme: string;
  orientation: 'pointy' | 'flat';
  /** Terrain types with their names, in the map's own order: the legend. */
  terrains: BoardTerrain[];
  /** The hexes drawn, in the map's index order. */
  hexes: BoardHex[];
  /** Hexsides with a feature between two drawn hexes (each once). */
  hexsides: BoardHexside[];
  cities: BoardCity[];
  /** Rail lines as pairs of neighbouring drawn hexes (each pair once). */
  rail: [string, string][];
}

/** A terrain type of a hex map. */
export interface BoardTerrain {
  /** As the hexes name it (`clear`, `forest`, `sea`). */
  id: string;
  /** For a legend (`Clear`, `Forest`). */
  name: string;
  /** Sea or lake: nobody controls it, so a viewer gives it no control tint. */
  water: boolean;
}

/** One hex of a hex map. */
export interface BoardHex {
  /** Printed id, as the rulebook and the game's choices write it (`2453`). */
  id: string;
  /** Centre (see {@link BoardHexLayout}), rounded to 1/1000. */
  x: number;
  y: number;
  /** A {@link BoardTerrain} id. */
  terrain: string;
  /** The country it belongs to (`FR`); absent for sea and lakes. */
  group?: string;
  /** Its name where the map gives one. */
  name?: string;
  port?: boolean;
}

/** A hexside with features: rivers, lake and sea shores, straits, alpine sides, borders. */
export interface BoardHexside {
  /** The two hexes it separates, by printed id. */
  a: string;
  b: string;
  /** `river`, `major-river`, `lake`, `sea`, `strait`, `alpine`, `border` (the map file's names). */
  features: string[];
  name?: string;
}

/** A city of a hex map. */
export interface BoardCity {
  hex: string;
  name: string;
  kind: 'major' | 'minor';
  capital?: boolean;
}

/** A unit as a map shows it. */
export interface BoardUnit {
  id: string;
  power: string;
  /** Short text for its counter (`ARM 3`, `GE 4-6-4`). */
  label: string;
  /** Its type in the game's own words (`inf`, `tank`, `air`), for a counter's symbol. */
  type?: string;
  /** States its counter carries a marker for, in the game's words (`demoralized`, `unsupplied 2`, `entrenched 2`). */
  status?: string[];
}

/** Something a map shows on an area or hex besides units: a fort, an entrenchment, a supply marker. */
export interface BoardMarker {
  /** A stable machine name in the game's words (`fort`, `entrenchment`). */
  kind: string;
  /** Whose it is, where it belongs to a power or side. */
  power?: string;
  /** Short text for the marker (`Fort 2`, `Entrenched 1`). */
  label: string;
}

/**
 * What the map shows at one moment: who controls each area or hex and which units stand there. Keys
 * are area ids, or printed hex ids for a hex layout; a hex game may list units on hexes past the part
 * its layout draws (a viewer counts them apart).
 */
export interface BoardFrame {
  /** Area (hex) id -> controlling power or side; areas nobody controls are left out. */
  control: Record<string, string>;
  /** Area (hex) id -> units there (units off the map are left out). */
  units: Record<string, BoardUnit[]>;
  /** Area (hex) id -> markers there, where the game has them; areas without any are left out. */
  markers?: Record<string, BoardMarker[]>;
}

/** How a game draws itself on its map (the dashboard's replay viewer). */
export interface BoardView<S, P = unknown> {
  /** The fixed map; `scenario`, where given, lets a game draw only the part that scenario uses. */
  layout(pack: LoadedPack<P>, scenario?: string): BoardLayout;
  /** A fresh snapshot: later steps must not change it. */
  frame(state: S): BoardFrame;
}

/**
 * A game system. `S` is the JSON state, `C` a choice (decision option or chance outcome), `O` an
 * observation, `P` the validated pack data.
 *
 * Invariants checked by the conformance kit (`@salient/engine/testing`):
 * - `pending` returns a decision with at least one option whenever a power must act;
 * - chance probabilities are positive and sum to 1;
 * - `apply` never mutates its input and `JSON.parse(JSON.stringify(state))` behaves identically;
 * - `applyOwned`, where a game has it, gives what `apply` gives;
 * - replaying the action log reproduces the final state hash.
 */
export interface Game<S = Json, C = Json, O = Json, P = unknown> {
  /** Stable id used on the command line and in telemetry (`blitz`). */
  readonly id: string;
  readonly name: string;
  /** Version of the rules code; results are never mixed across rules versions. */
  readonly rulesVersion: string;
  /** RNG stream names this game draws from, for documentation and checks. */
  readonly streams: readonly string[];

  /** Bundled packs by id; the first is the default. Raw JSON, checked with `checkPack`. */
  readonly bundledPacks: Readonly<Record<string, unknown>>;
  /** Validate raw pack JSON against the game's pack schema. Never throws for bad data. */
  checkPack(raw: unknown): PackCheck<P>;

  /** Scenarios a pack supports. */
  scenarios(pack: LoadedPack<P>): readonly ScenarioInfo[];
  /** Initial state. No randomness here: initial draws are chance nodes. Throws `SalientError` on bad input. */
  setup(scenario: string, pack: LoadedPack<P>, options?: JsonObject): S;

  pending(state: S): Pending<C>;
  /** Apply a decision option or chance outcome. Throws `IllegalChoiceError` for a choice not offered. */
  apply(state: S, choice: C): Step<S>;
  /**
   * `apply` for a caller that owns `state` and never reads it again (the match runner): may build the
   * next state in `state` itself instead of copying it first, and returns exactly what `apply` would
   * (same state, events and boundary; nothing returned shares objects that a later step changes).
   * After a throw `state` may be half changed. Optional: without it callers use `apply`.
   */
  applyOwned?(state: S, choice: C): Step<S>;
  /** Everything `power` may see. */
  observe(state: S, power: string): O;
  position(state: S): Position;
  /** Final result; only meaningful when `pending` is terminal. */
  result(state: S): GameResult;
  /** Score an unfinished game by the scenario's own victory rules (used when the decision cap is hit). */
  adjudicate(state: S): GameResult;

  /** Stable text for a choice, for logs, replays and telemetry. `decode(encode(c))` equals `c`. */
  encode(choice: C): string;
  decode(text: string): C;
  /** A short human label for a choice in context (defaults to `encode`). */
  describe?(state: S, choice: C): string;

  /** Per-impulse summary for telemetry (scores, control, supply by power). */
  summarize?(state: S): Summary;
  /** What its scores and margin count, for the people reading charts of them; absent: "score" and "margin", unexplained. */
  readonly measures?: GameMeasures;
  /** How to draw the game on its map (the dashboard's replay viewer); absent: no map view. */
  board?: BoardView<S, P>;
  /**
   * Event types worth a row each in telemetry's `events` table: outcomes an analyst asks about
   * (combats, captures, eliminations, declarations). Every event is still counted, by power and
   * type, in the impulse rows, and every step is in the replay. Absent: every event gets a row.
   */
  readonly telemetryEvents?: readonly string[];

  /**
   * Every decision prompt `pending` may ask, by name (see {@link PromptInfo}). The bot protocol's
   * reference (docs/bot-protocol.md) is rendered from it, and the conformance kit fails a game that
   * asks a prompt it does not list. Every game a user can play should give it.
   */
  readonly prompts?: Readonly<Record<string, PromptInfo>>;

  /** Optional model for search bots. */
  readonly model?: BotModel<S, O>;

  /** The rulebook's sections and how far the code implements them (`salient rules coverage`). */
  readonly rules?: RulesInfo;
}

/** One section of a game's rulebook, as the rules code implements it. */
export interface RuleSection {
  /** As the rulebook numbers it: `6.2`, `A.5`, `9.3`; a scenario as a whole by its letter. */
  id: string;
  /** A short description in the project's own words. */
  title: string;
  part: 'core' | 'optional' | 'scenario';
  /** `definitions`: the section only defines terms; there is nothing to run or test. */
  status: 'implemented' | 'partial' | 'not-implemented' | 'definitions';
  /** What is done and what is not, for a partial section. */
  note?: string;
  /** Full-rule sections a scenario section restates; it fires when they fire in that scenario. */
  restates?: readonly string[];
}

export interface RulesInfo {
  sections: readonly RuleSection[];
  /**
   * Call `onFire(section)` each time a rule is applied in any game of this kind in this thread (or stop,
   * with `undefined`). Tracing never changes a game.
   */
  trace(onFire: ((section: string) => void) | undefined): void;
  /** The directory holding the game's tests (test files cite sections in their suite titles), when shipped. */
  testsDir?: string;
}

/** Any game, for registries and generic code. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyGame = Game<any, any, any, any>;
