/**
 * Blitz! game state: plain JSON, no classes. The pack is referred to by its content hash; its
 * indexes live in the pack registry (pack-index.ts).
 */
import type { DecisionPrompt } from './prompts.ts';

export type SideId = 'Axis' | 'Allies';

/** What the phasing power may do in the current impulse (2.1 activities, 2.2 Blitz options). */
export type Mode = 'activities' | 'land' | 'free' | 'total' | 'air' | 'naval';

/** Steps of an activity/Blitz phase in sequence-of-play order (2.1: A-F), then turn end (7). */
export type StepId = 'blitz-choice' | 'return' | 'to-sea' | 'sea-combat' | 'rebase' | 'land-move' | 'announce' | 'defend' | 'resolve' | 'build' | 'over';

export interface UnitState {
  def: string;
  /** Scenario power controlling it (`GER`, `AFA`, `WA`). */
  power: string;
  size: number;
  /** Land id; `sea:<id>` at sea; `trs:<unit id>` aboard a transport; `pool`; `gone`. */
  at: string;
  /** Per-step flags, cleared when the phase changes. */
  moved?: boolean;
  rebased?: boolean;
  toSea?: boolean;
  /** Index of the attack it is committed to (5.3: one combat per unit). */
  committed?: number;
  /** Land area it attacked from (or `trs:`/`drop` marker) when committed. */
  from?: string;
}

/** A Ground Attack announced in step F (5.3). */
export interface Attack {
  target: string;
  attackers: string[];
  /** PARA units using air movement (5.3, B.5): fight in the Air Round, exempt from the Size-10 cap. */
  dropped: string[];
  defenders: string[];
  resolved: boolean;
  /** The attacking power, where a side has several (each resolves its own attacks). */
  power?: string;
  /** A Factory Attack (5.3, D.6) or Port Attack (5.3, E.2): air units against the Factory or the ships in port; absent for a Ground Attack. */
  kind?: 'factory' | 'port';
  /** 9.4: the one Small land unit attacking across a Land Route (its Land Factors halved). */
  routed?: string;
}

/** A step of a combat still to be carried out, in the order 6.5 fixes. */
export type Task =
  /** Number result: `left` points of damage on `victims`' eligible units; owner picks first, then alternate (6.5). */
  | { kind: 'damage'; victims: SideId; left: number; ownerNext: boolean }
  /** Air Round letter (6.5): a fraction of `victims`' air units return to base. */
  | { kind: 'air-letter'; victims: SideId; letter: Letter }
  | { kind: 'rtb'; victims: SideId; left: number; ownerNext: boolean }
  /** Attacker's Land Round letter: retreats if the ARM test passed (6.6). */
  | { kind: 'att-letter'; letter: Letter }
  | { kind: 'retreat-pick'; left: number }
  | { kind: 'retreat-to'; unit: string }
  /** Defender's Land Round letter: attackers barred from advancing (6.6). */
  | { kind: 'def-letter'; letter: Letter }
  | { kind: 'block'; left: number }
  | { kind: 'land-round' }
  /** 6: one-shot ('*') air units that took part in the round are destroyed before its results apply. */
  | { kind: 'spend'; units: string[] }
  | { kind: 'finish' }
  /** 6.6: powers of the side tied for control of the area they advanced into; a coin (a die of as many faces) decides. */
  | { kind: 'control-coin'; target: string; powers: string[] }
  | { kind: 'overrun'; unit: string };

export type Letter = 'S' | 'L' | 'B';

export interface CombatState {
  attack: number;
  round: 'air' | 'land' | 'strategic' | 'naval';
  /** Modified totals (after rounding and the minimum) and whether each side rolls. */
  att: number;
  def: number;
  attDie: number | null;
  defDie: number | null;
  /** ARM test outcome at the start of the combat (6.6). */
  armAtt: number;
  armDef: number;
  /** Units forced back to base by an Air Round letter (they sit out the Land Round). */
  sidelined: string[];
  /** Attacking land units barred from advancing by the defender's letter (6.6). */
  blocked: string[];
  tasks: Task[];
  /** Event record being built for this combat. */
  log: Record<string, unknown>[];
  /** A unit of the attacking side took a loss in this combat (8: No Casualties). */
  attackerLoss?: boolean;
  /**
   * 6.5/6.6: who makes a side's picks in the current round, where that is not the power answering for
   * the side otherwise (the attacking power; the area's holder): the power with the most Factors in it.
   */
  pickers?: Partial<Record<SideId, string>>;
}

/** A step of a sea area combat still to be carried out (4.4, 6.5). */
export type SeaTask =
  /** Number result: `left` points on `victims`' eligible units or Convoy; owner picks first, then alternate. */
  | { kind: 'damage'; victims: SideId; left: number; ownerNext: boolean }
  | { kind: 'letter'; victims: SideId; letter: Letter }
  | { kind: 'rtb'; victims: SideId; left: number; ownerNext: boolean }
  /** A unit forced back to base: its owner picks where (4.1). */
  | { kind: 'base'; unit: string }
  /** A TRS reduced below what it carries: its owner destroys land units aboard until it fits (6.5). */
  | { kind: 'shed'; trs: string }
  | { kind: 'naval-round' }
  /** 6: one-shot ('*') air units that took part in the round are destroyed before its results apply. */
  | { kind: 'spend'; units: string[] }
  | { kind: 'finish' };

/** A sea area combat in progress (4.4): the other side's choices first, then an Air Round and a Naval Round (6.3). */
export interface SeaCombatState {
  sea: string;
  /** `fly`: the other side may fly Naval-primary air in; `evade`: its SUBs may return to base; then the rounds. */
  stage: 'fly' | 'evade' | 'rounds';
  /** Powers of the other side that are done with the current `fly`/`evade` stage. */
  passed?: string[];
  round: 'air' | 'naval';
  att: number;
  def: number;
  attDie: number | null;
  defDie: number | null;
  tasks: SeaTask[];
  log: Record<string, unknown>[];
  /** 9.8: ships sent out of this combat (6.5, 4.4) that a forced strait turned back into its sea: they take no further part. */
  out?: string[];
  /** 6.5: who makes a side's picks in the current round, where that is not the power answering for it otherwise (see CombatState). */
  pickers?: Partial<Record<SideId, string>>;
}

/** A ship on its way to sea that must get past blockading enemy units (4.3). */
export interface SeaPassage {
  unit: string;
  /** Seas still to enter after the current one, in order (a return to base ends in its port, 9.8). */
  path: string[];
  /** Blockade Value it must beat to leave the current sea. */
  total: number;
  /** 9.8 only: where the move began (an L sends the ship back there), a return to base (never blocked, 4.3), the forced-passage die pending, and a TRS to lighten after a hit. */
  from?: string;
  back?: boolean;
  force?: boolean;
  bounce?: boolean;
  shed?: boolean;
}

/** The current unit being moved, or attack being committed. */
export type Selection =
  | { kind: 'move'; unit: string; mp: number; path: string[] }
  /**
   * 5.1: a rebase. A TRS may make it in legs, port to port: `left` is the movement still unspent,
   * `boarded` the land units taken aboard at the port where it now is, `dropped` those it has put ashore
   * (not taken aboard again). An air unit may stop once where its power's A-Bomb lies (`left` then
   * too) and carries it to where it ends once it picked it up (`bomb`, 7.8).
   */
  | { kind: 'rebase'; unit: string; cargo: string[]; stage: 'load' | 'dest'; left?: number; boarded?: string[]; dropped?: string[]; bomb?: boolean }
  /** `route` (4.3, 9.8): the destination `dest` is chosen (`into`: a port) and `routes` (seas joined by ',') differ in their risks: the player picks one. */
  | { kind: 'sea'; unit: string; stage: 'load' | 'dest' | 'embark' | 'route'; cargo: string[]; dest?: string; into?: boolean; routes?: string[] }
  | { kind: 'return'; unit: string; forced?: string[] }
  | { kind: 'attack'; attack: number }
  | { kind: 'build'; unit: string; size: number | null; pool: number; imposed?: boolean }
  /** 7.8: the voluntary-loss step after the builds; `pick`: choosing the unit (voluntary.ts). */
  | { kind: 'scrap'; pick?: true }
  /** 7.8: the power has finished its builds and chooses how much of what is left it saves as Oil. */
  | { kind: 'save' };

/**
 * 9.5: a Commander counter: its power, the face showing (a commander id of the pack), where it is
 * (`pool`, a land area, or `sea:<id>`; while it commands a unit it goes with that unit) and the unit it
 * commands; `placed` is the turn it last came from the Force Pool (one a turn).
 */
export interface CommanderState {
  power: string;
  face: string;
  at: string;
  unit?: string;
  placed?: number;
}

/** A question the game is waiting on: a decision (its prompt one of prompts.ts) or a die roll. */
export type Ask =
  | { kind: 'decision'; power: string; prompt: DecisionPrompt; options: string[] }
  | { kind: 'chance'; prompt: string; stream: string; faces: number }
  | { kind: 'terminal' };

export interface BlitzState {
  [k: string]: unknown;
  /** Content hash of the data pack the game is played on. */
  pack: string;
  /** Scenario id (`A` ... `F`, `full`). */
  scenario: string;
  /** Game turn as the rulebook numbers it. */
  turn: number;
  /** 1 Axis activities, 2 Allied activities, 3 Axis Blitz, 4 Allied Blitz, 5 turn end (2.1). */
  impulse: number;
  /** The current step of the impulse (2.1: A-F), or of the turn end's builds (`build`); `over` once the game has ended. */
  step: StepId;
  /** Phasing side and power (one power per side in Scenarios A and B). */
  side: SideId;
  /** The phasing power, acting now for the phasing side. */
  power: string;
  /** The phasing power's mode this impulse: its activities, or the Blitz option it chose (2.2). */
  mode: Mode;
  /** Size still movable in a Free Blitz (2.2). */
  freeLeft: number;
  /**
   * Sides with several powers (from Scenario D on) act step by step, every power of the side in turn
   * (2.1: each activity is done for all the side's powers before the next): each power's mode this
   * impulse, each Free Blitz's Size left, the powers still to act in the current step, and the
   * defending power committing support in the `defend` step. Where the acting side is one power, only
   * `defender` and `queue` are used, for the defending powers of the `defend` step (flow.ts).
   */
  modes?: Record<string, Mode>;
  /** See `modes`. */
  freeBy?: Record<string, number>;
  /** See `modes`. */
  queue?: string[];
  /** See `modes`. */
  defender?: string;
  /** 5.3: in the `announce` step of a side of several powers, how much was announced when the current round began (flow.ts). */
  announceMark?: number;
  /** Land area id -> the power controlling it (1.5); areas nobody controls are left out. */
  control: Record<string, string>;
  /** Minor countries declared on this game (3.2). */
  atWar: string[];
  /**
   * The full game's war matrix (3.1, 3.2, 7.2): pairs of belligerents at war, `a~b` in sorted order,
   * each a power or a minor country at war on its own account (see wars.ts). Absent in Scenarios A-F.
   */
  wars?: string[];
  /** Countries held by the side their owner is not on (3.4), for conquest and liberation events. */
  conquered: string[];
  /** Unit id -> the unit: its counter (`def`, a unit of the pack), power, Size and where it is (`at`). */
  units: Record<string, UnitState>;
  /** Force pool entries still available to build: unit id -> largest Size (B.7). */
  /** `power`: the major power whose Force Pool holds it, where that is not the one running its nation (7.3: a minor's unit another power picked). */
  pool: Record<string, { size: number; from: number; power?: string }>;
  /** The unit being moved or built, or the attack being set up, while a step is under way. */
  sel: Selection | null;
  /** Attacks announced this impulse, in order (5.3); `combat` indexes into it. */
  attacks: Attack[];
  /** The land area combat being resolved, if any (6). */
  combat: CombatState | null;
  /** Resources to spend at the build step, and builds chosen but not yet revealed (1.9). */
  res: Record<string, number>;
  /** `ok`: an A-Bomb test's result, known to its power only until the reveal (7.8, abomb.ts). */
  /** `to`: a pick (7.3) that went to another power's Force Pool, or `aside` when set aside until its country is allied. */
  hidden: Record<string, { unit: string; size: number; at: string; free?: boolean; earmarked?: number; imposed?: boolean; ok?: boolean; to?: string }[]>;
  /** The turn the optional extra Resources were last taken (E). */
  extraTaken?: number;
  /** Powers still to make their builds at the turn end, in order (7.8). */
  buildOrder: string[];
  /** Sea area activities (scenarios with `seaCombat`): the combat in progress, seas already fought this step, a blockade roll pending, and this turn's damage on each Convoy. */
  sea?: SeaCombatState | null;
  /** See `sea`. */
  seaDone?: string[];
  /** See `sea`. */
  passage?: SeaPassage | null;
  /** See `sea`. */
  convoys?: Record<string, number>;
  /**
   * Economy from Scenario C on: saved Oil per power (2.2, C.7), the Oil share of this turn's build
   * budget, Future Additions already picked (C.6), double picks left, victory points (C), and a drawn end.
   */
  oil?: Record<string, number>;
  /** See `oil`. */
  budgetOil?: Record<string, number>;
  /** Resources saved from turn to turn where income comes from the map (D.9). */
  saved?: Record<string, number>;
  /** See `oil`. */
  picked?: string[];
  /** See `oil`. */
  doublePicks?: Record<string, number>;
  /** See `oil`. */
  vp?: Record<string, number>;
  /** See `oil`. */
  draw?: boolean;
  /** Enemy Factories captured for Control Industrial Might (land -> captor), and this turn's kills as `by:nation:type` (8). */
  captured?: Record<string, string>;
  /** See `captured`. */
  kills?: string[];
  /** Units built (not repaired) this turn, as `power:unit`, revealed at the builds (8: Super Weapons). */
  built?: string[];
  /** Land areas taken from the other side this turn without loss, as `power:land` (8: No Casualties). */
  cleanTakes?: string[];
  /** Lend Lease delivered this turn, as `giver>recipient nation` (E's Arsenal of Democracy). */
  llThisTurn?: string[];
  /**
   * 7.4: the turn end's Lend Lease choices, secret until the deliveries are made (1.9): while `llStep`
   * is set the givers choose, LL unit by LL unit, how much of each delivery is Oil (`llOil`, by unit).
   */
  llStep?: boolean;
  /** See `llStep`. */
  llOil?: Record<string, number>;
  /** 7.6: the allied countries cut off from their power's main home countries this turn end (their units are paid from their own income only). */
  isolated?: string[];
  /** 7.8: how much of what each power left unspent it saves as Oil (the rest as Resources), secret until the builds are revealed (1.9). */
  saveOil?: Record<string, number>;
  /** E's frontier: areas the outside power (the USSR) holds, the last turn it attacked, and an attack in progress. */
  frontierHeld?: string[];
  /** See `frontierHeld`. */
  frontierTurn?: number;
  /** See `frontierHeld`. */
  frontierAttack?: { stage: 'pick' | 'die' | 'loss' | 'retreat'; target?: string; left?: number; ownerNext?: boolean };
  /** Weapons research in progress at the builds (7.8, E.5): the power rolling, and what is being drawn. */
  research?: { power: string; stage: 'die' | 'draw'; group?: number };
  /** Oil and Resources this turn that only units of one home country may use, by power and home (E.4: China). */
  earmark?: Record<string, Record<string, number>>;
  /** The player split chosen at set-up (8, F.8: VP are averaged over the powers each player runs). */
  players?: number;
  /**
   * Optional rules switched on at set-up (section 9, the full game only), sorted; absent when none.
   * With 9.1, each player grouping's bid (`GER+JAP`), added to its average once the game is over.
   */
  optional?: string[];
  /** See `optional`. */
  bids?: Record<string, number>;
  /**
   * 9.2 Blitzing the Road to War: while it is played (before Turn 1), the step (1-13), the powers still to
   * pick at it, and the influence each power has put into each minor. Then for the whole game: the options
   * played (`power:option`), the Trade Agreements they made (7.5's set aside), and the powers whose
   * production 7.7 still limits by their It's War! marker though no longer neutral (the USSR). Replaced,
   * never changed in place (but `roadToWar` while it lasts).
   */
  roadToWar?: { step: number; queue: string[]; influence: Record<string, Record<string, number>> };
  /** See `roadToWar`. */
  rtwPlayed?: string[];
  /** See `roadToWar`. */
  rtwTrades?: { from: string; to: string; oil: number; resources: number; giver?: string; endsAtItsWar?: number | undefined }[];
  /** See `roadToWar`. */
  rtwLimited?: string[];
  /** 9.7: powers in a non-motorized Land Blitz this impulse, with the one ARM, air or naval unit they used ('' while none). */
  nonMotorized?: Record<string, string>;
  /** 9.9: Factories just taken whose captor must choose their VP or loot, and Factories looted (their loss may take VP below 0). */
  loot?: { land: string; power: string; vp: number }[];
  /** See `loot`. */
  looted?: string[];
  /**
   * 9.6: results 1-3 due at a target's builds (`turn`), attempts made this turn (`by>on`), a roll in
   * progress, losses to take from what targets save at the end of these builds, and Partisans that
   * block an Oil or Resource at the next income.
   */
  sabotage?: { by: string; on: string; result: 1 | 2 | 3; turn: number }[];
  /** See `sabotage`. */
  sabotaged?: string[];
  /** See `sabotage`. */
  sabotageRoll?: { by: string; on: string; stage: 'die' | 'partisan' | 'place' | 'attack'; face?: number; kind?: 'oil' | 'res' };
  /** See `sabotage`. */
  sabotageLoss?: { on: string; kind: 'oil' | 'res'; n: number }[];
  /** See `sabotage`. */
  sabotagePartisans?: string[];
  /**
   * 9.5 (commanders.ts): the Commander counters by counter id (only in a game with 9.5); the phasing
   * side's commander step at the start of a phase (powers still to act, counters moved, whether the
   * supply check was made); a commander whose unit its power names next; loss dice owed, one per point
   * of damage on a commanded unit.
   */
  commanders?: Record<string, CommanderState>;
  /** See `commanders`. */
  cmdPhase?: { queue: string[]; moved: string[]; checked: boolean };
  /** See `commanders`. */
  cmdAssign?: { counter: string };
  /** See `commanders`. */
  cmdLoss?: string[];
  /** Neutral major powers still out of the war, their It's War! boxes, chart events used once, and trades ended for good (7.2, 7.5). */
  neutral?: string[];
  /** See `neutral`. */
  itsWar?: Record<string, number>;
  /** See `neutral`. */
  eventsDone?: number[];
  /** See `neutral`. */
  tradesEnded?: number[];
  /** F: Germany is asked at a turn's start whether Japan goes to war; the turn it did. */
  japanAsk?: boolean;
  /** See `japanAsk`. */
  japanAtWar?: number;
  /** 7.1: the Partisan roll in progress at the turn end, and the areas holding Partisans this turn. */
  partisanStep?: { stage: 'die' | 'place'; countries?: string[] };
  /** See `partisanStep`. */
  partisans?: string[];
  /** Dormant countries whose army has taken the field (D: the Near East). */
  woken?: string[];
  /** Units still to disband at this turn's builds (D's Second Front). */
  disband?: { power: string; type: string; left: number }[];
  /**
   * 3.4: France has fallen (F, the full game): the French countries now neutral and Vichy's warships,
   * held off the map until Vichy joins a side (france.ts); and units set aside by home country until
   * it is liberated. Both are replaced, never changed in place.
   */
  /** `franceBy`: the Allied power that liberated France; `rejoined`: Vichy France liberated after that, part of France again (3.4). */
  vichy?: { countries: string[]; fleet: { unit: string; size: number }[]; rolled?: boolean; franceBy?: string; rejoined?: boolean };
  /** 3.4: liberated countries with set-aside units still to come back, and the power they go to. */
  liberators?: Record<string, string>;
  /** 3.4: a liberation whose liberator a coin must pick among the powers tied for most of its areas (politics.ts). */
  libCoin?: { country: string; powers: string[] };
  /** 3.4: a liberator still to choose whether it keeps the country or returns it to `to`, its original power (liberation.ts). */
  liberation?: { country: string; power: string; to: string; land?: string };
  /** 3.4: further keep-or-return choices that came up while one was pending, asked in order (liberation.ts). */
  liberationNext?: { country: string; power: string; to: string; land?: string }[];
  /**
   * 3.4: land areas held by the side that took them from the other, and the power they were taken from
   * (the area's rightful holder, kept while the sides trade the area until its own side takes it back:
   * a single conquered area is liberated as a country is, and taking your own area back conquers
   * nothing). Replaced, never changed in place.
   */
  lostBy?: Record<string, string>;
  /**
   * 3.4: countries a side holds whole but may not conquer (or liberate) yet, a holder lacking a supply
   * line to its areas there, the power that took the last area, and whether that was an area the side
   * had lost (a retake, which conquers nothing): settled once supply reaches them (politics.ts).
   * Replaced, never changed in place.
   */
  unsupplied?: { country: string; power: string; retake?: boolean }[];
  /** 3.4: France and Italy once conquered and liberated: from then on they fall like any country (every area, no Vichy France). */
  capitalsSpent?: string[];
  /** 3.4: major powers controlling no unconquered country, out of the game until one is liberated back to them (liberation.ts). */
  out?: string[];
  /** 3.4: units left in a country made neutral by France's fall, still to be placed in their home country, in order (france.ts). Replaced, never changed in place. */
  homePlace?: string[];
  /** 3.4: units that must leave a country just returned to its power, to the closest area each may stand in (liberation.ts). Replaced, never changed in place. */
  standMoves?: string[];
  /** 3.4: liberated countries whose liberator is still to choose which set-aside unit it takes, in order (france.ts). */
  releaseAsk?: { country: string; power: string }[];
  /**
   * 3.4: conquered home countries whose units on the map have a new home country (7.6 counts it with
   * the main home countries: the AFA's British units after Great Britain's fall), and the choices of
   * one still to be made, in order. Replaced, never changed in place.
   */
  homeFor?: Record<string, string>;
  /** See `homeFor`. */
  homeAsk?: { country: string; power: string }[];
  /** 3.4: French warships in Vichy France still to be rolled for, and the Axis power that took it. */
  frenchFleetRoll?: { power: string; units: string[] };
  /** 3.4: units set aside by home country until it is liberated (see `vichy`). */
  setAside?: Record<string, string[]>;
  /**
   * 7.3: units set aside because their country was neutral, conquered or enemy-allied when a power
   * added them: who added them and at what Size (they come back when the country aligns with that
   * power's side). Replaced, never changed in place.
   */
  asidePicks?: Record<string, { by: string; size: number }>;
  /**
   * 7.8 (abomb.ts): each power's A-Bomb once picked: its box on the track, the turn its test succeeded,
   * and where the built bomb is (a land area, or `carrier:<unit>` on its way to a combat); the powers an
   * enemy major power has A-bombed (+1 on their tests); a test die to roll. Replaced, never changed in place.
   */
  aBomb?: Record<string, { box: number; tested?: number; at?: string }>;
  /** See `aBomb`. */
  aBombed?: string[];
  /** See `aBomb`. */
  aBombTest?: { power: string };
  /** Factory damage by land area this turn (6.4), cleared when income is counted (7.6). */
  factoryDamage?: Record<string, number>;
  /** Enemy air and naval units in an area just taken by a land move, waiting to be overrun (6.6). */
  overruns: string[];
  /**
   * 1.3: the holder's air and naval units among `overruns` that rebase out of an area an ally's unit
   * entered (moved as an overrun unit is, their owner choosing among equals); and the leave asked
   * this impulse, as `power>land` with `:yes` or `:no`. Absent when empty.
   */
  leaving?: string[];
  /** See `leaving`. */
  leaves?: string[];
  /**
   * 1.3: a leave the holder of `land` is asked before `unit` enters it (ally-leave.ts); `choice` is the
   * decision that would take it there (the mover's, or one made for it), applied once the leave is given.
   */
  /** `via`: the held choice answers a question of the land combat under way (its retreat or overrun), whatever was asked since (flow.ts). */
  leaveAsk?: { unit: string; land: string; choice: string; via?: 'combat' };
  /** The winning side once the game is won; null until then (and in a draw). */
  winner: SideId | null;
  /** Why the game ended, in words (the victory rule); empty until then. */
  reason: string;
  /** What the game waits for now: for a bot, the decision it is being asked (its prompt and options). */
  ask: Ask;
  /** Choices and die rolls applied so far. */
  seq: number;
}
