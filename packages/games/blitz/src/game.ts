/**
 * Blitz! A World in Conflict (Compass Games / Australian Design Group, living rules of 6 Sep 2021),
 * short Scenarios A and B, as a Salient game. Rules are in `rules/`, one module per part of the
 * sequence of play; the printed components come from a data pack (`packs/`).
 */
import { fileURLToPath } from 'node:url';
import {
  hashJson,
  IllegalChoiceError,
  SalientError,
  unknownName,
  type Boundary,
  type ChanceOutcome,
  type Game,
  type GameResult,
  type JsonObject,
  type LoadedPack,
  type Pending,
  type ScenarioInfo,
  type Step,
} from '@salient/engine';
import { approximationPack } from './pack/bundled.ts';
import { checkBlitzPack } from './pack/check.ts';
import type { PackFiles } from './pack/schema.ts';
import { advance, applyChoice, beginImpulse } from './rules/flow.ts';
import type { Events } from './rules/events.ts';
import { packOf, registerPack, scenarioDef, type PackIndex } from './rules/pack-index.ts';
import { evaluate } from './rules/evaluate.ts';
import { inCombat, phasingPowers } from './rules/query.ts';
import type { BlitzState, SeaCombatState } from './rules/state.ts';
import { BLITZ_MEASURES, adjudicate, drawResult, resultOf, summarize } from './rules/victory.ts';
import { blitzBoard } from './rules/board.ts';
import { initiallyConquered } from './rules/politics.ts';
import { BLITZ_SECTIONS, fired, firedByEvents, traceRules } from './rules/sections.ts';
import { initialConvoys } from './rules/sea-combat.ts';
import { initialNeutrals, startJapanQuestion } from './rules/neutrality.ts';
import { parseBids, parseOptional } from './rules/optional.ts';
import { startRoadToWar } from './rules/road-to-war.ts';
import { initCommanders } from './rules/commanders.ts';
import { DECISION_PROMPTS } from './rules/prompts.ts';
import { putUnit } from './rules/unit-writes.ts';

export const RULES_VERSION = '0.11.0';
/** One line per scenario for listings. */
const SUMMARIES: Record<string, string> = {
  A: 'Turns 1-2, Germany against the Anglo-French Alliance. Germany wins the moment it controls Paris and Poland; otherwise the AFA win when Turn 2 ends.',
  B: 'Turns 9-11, Germany against the Western Allies. The Western Allies win the moment they conquer Germany; otherwise Germany wins when Turn 11 ends.',
  C: 'Turns 3-9, the war at sea: Germany against the Western Allies around Britain, frozen control, victory points for Convoy damage and Lend Lease.',
  D: 'Turns 3-12, Germany against the USSR and the Western Allies (three seats): supply, Snow, Oil-paid Blitzes, Factory Attacks, Lend Lease; first to 15 VP, else most VP after Turn 12.',
  E: 'Turns 4-15, Japan against the Western Allies in the Pacific: Port Attacks, China, the Harbin frontier, research; first to 15 VP, else most VP after Turn 15.',
  F: 'Turns 1-15, Germany against the AFA, with the USA and USSR neutral until they enter the war: declarations, alignments, Partisans, trades; first to 15 VP, players average their powers (option players: 2-4).',
  full: 'The full game, Turns 1-15 on the whole world: Germany and Japan against the AFA, the USA and the USSR, wars pair by pair (Japan starts at war with China alone), the USA and USSR neutral until they enter; first to 15 VP, players average their powers (option players: 2-5).',
};

/** Scenarios whose rules this version implements. */
const IMPLEMENTED = ['A', 'B', 'C', 'D', 'E', 'F', 'full'];

function loaded(data: PackFiles): LoadedPack<PackFiles> {
  const hash = hashJson(data);
  registerPack(hash, data);
  const m = data.pack;
  return { info: { id: m.id, version: m.version, fidelity: m.fidelity, hash, description: m.description }, data };
}

/** Play `choice` on `s`, which becomes the next state (a private copy, or a state the caller gave up). */
function play(s: BlitzState, choice: string): Step<BlitzState> {
  const p = packOf(s.pack);
  const { turn, winner, impulse, step } = s;
  const events: Events = [];
  applyChoice(p, s, choice, events);
  advance(p, s, events);
  firedByEvents(events, s.scenario);
  s.seq += 1;
  let boundary: Boundary | undefined;
  if (s.turn !== turn || s.winner !== winner) boundary = 'turn';
  else if (s.impulse !== impulse) boundary = 'impulse';
  else if (s.step !== step) boundary = 'phase';
  return boundary ? { state: s, events, boundary } : { state: s, events };
}

/**
 * A copy of JSON data as `JSON.parse(JSON.stringify(v))` gives it (undefined members left out, undefined
 * array elements and non-finite numbers as null), without the text in between: events are copied on
 * every step of the runner's path.
 */
function jsonCopy(v: unknown): unknown {
  // (-0 as 0: the text holds no sign for zero.)
  if (typeof v !== 'object' || v === null) return typeof v === 'number' ? (!Number.isFinite(v) ? null : v === 0 ? 0 : v) : v;
  if (Array.isArray(v)) {
    const n = v.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const x: unknown = v[i];
      out[i] = x === undefined || typeof x === 'function' ? null : jsonCopy(x);
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  const o = v as Record<string, unknown>;
  for (const k in o) {
    const x = o[k];
    if (x !== undefined && typeof x !== 'function') out[k] = jsonCopy(x);
  }
  return out;
}

/** The members every state has, in the order `setupState` makes them (see {@link draft}). */
const BASE_MEMBERS = ['pack', 'scenario', 'turn', 'impulse', 'step', 'side', 'power', 'mode', 'freeLeft', 'control', 'atWar', 'conquered', 'units', 'pool', 'sel', 'attacks', 'combat', 'res', 'hidden', 'buildOrder', 'overruns', 'winner', 'reason', 'ask', 'seq'];

/** A state being copied, whose members may be written undefined (as a falsy member is copied as it is). */
type Copying = { -readonly [K in keyof BlitzState]?: BlitzState[K] | undefined };

/**
 * How {@link draft} copies each optional member of the state: nested records and lists one level
 * down (two for the few that hold records of records), the rest by reference, as the spread copy
 * before it did. One function per member, each writing its member by name: a keyed store adding the
 * 13th member past the in-object ones turns the object into a dictionary.
 */
const COPY_MEMBER: Record<string, (o: Copying, s: BlitzState) => void> = {
  modes(o, s) {
    const v = s.modes;
    o.modes = v ? { ...v } : v;
  },
  freeBy: (o, s) => void (o.freeBy = s.freeBy),
  queue: (o, s) => void (o.queue = s.queue),
  defender: (o, s) => void (o.defender = s.defender),
  announceMark: (o, s) => void (o.announceMark = s.announceMark),
  wars(o, s) {
    const v = s.wars;
    o.wars = v ? [...v] : v;
  },
  extraTaken: (o, s) => void (o.extraTaken = s.extraTaken),
  sea(o, s) {
    const v = s.sea;
    o.sea = v ? jsonCopy(v) as SeaCombatState : v;
  },
  seaDone(o, s) {
    const v = s.seaDone;
    o.seaDone = v ? [...v] : v;
  },
  passage(o, s) {
    const v = s.passage;
    o.passage = v ? { ...v, path: [...v.path] } : v;
  },
  convoys(o, s) {
    const v = s.convoys;
    o.convoys = v ? { ...v } : v;
  },
  oil(o, s) {
    const v = s.oil;
    o.oil = v ? { ...v } : v;
  },
  budgetOil(o, s) {
    const v = s.budgetOil;
    o.budgetOil = v ? { ...v } : v;
  },
  saved(o, s) {
    const v = s.saved;
    o.saved = v ? { ...v } : v;
  },
  picked(o, s) {
    const v = s.picked;
    o.picked = v ? [...v] : v;
  },
  doublePicks(o, s) {
    const v = s.doublePicks;
    o.doublePicks = v ? { ...v } : v;
  },
  vp(o, s) {
    const v = s.vp;
    o.vp = v ? { ...v } : v;
  },
  draw: (o, s) => void (o.draw = s.draw),
  captured(o, s) {
    const v = s.captured;
    o.captured = v ? { ...v } : v;
  },
  kills(o, s) {
    const v = s.kills;
    o.kills = v ? [...v] : v;
  },
  built(o, s) {
    const v = s.built;
    o.built = v ? [...v] : v;
  },
  cleanTakes(o, s) {
    const v = s.cleanTakes;
    o.cleanTakes = v ? [...v] : v;
  },
  llThisTurn(o, s) {
    const v = s.llThisTurn;
    o.llThisTurn = v ? [...v] : v;
  },
  llStep: (o, s) => void (o.llStep = s.llStep),
  llOil(o, s) {
    const v = s.llOil;
    o.llOil = v ? { ...v } : v;
  },
  isolated: (o, s) => void (o.isolated = s.isolated),
  saveOil(o, s) {
    const v = s.saveOil;
    o.saveOil = v ? { ...v } : v;
  },
  frontierHeld(o, s) {
    const v = s.frontierHeld;
    o.frontierHeld = v ? [...v] : v;
  },
  frontierTurn: (o, s) => void (o.frontierTurn = s.frontierTurn),
  frontierAttack(o, s) {
    const v = s.frontierAttack;
    o.frontierAttack = v ? { ...v } : v;
  },
  research(o, s) {
    const v = s.research;
    o.research = v ? { ...v } : v;
  },
  earmark(o, s) {
    const v = s.earmark;
    o.earmark = v ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, { ...x }])) : v;
  },
  players: (o, s) => void (o.players = s.players),
  optional: (o, s) => void (o.optional = s.optional),
  bids: (o, s) => void (o.bids = s.bids),
  roadToWar(o, s) {
    const v = s.roadToWar;
    o.roadToWar = v ? { ...v, queue: [...v.queue], influence: { ...v.influence } } : v;
  },
  rtwPlayed: (o, s) => void (o.rtwPlayed = s.rtwPlayed),
  rtwTrades: (o, s) => void (o.rtwTrades = s.rtwTrades),
  rtwLimited: (o, s) => void (o.rtwLimited = s.rtwLimited),
  nonMotorized(o, s) {
    const v = s.nonMotorized;
    o.nonMotorized = v ? { ...v } : v;
  },
  loot(o, s) {
    const v = s.loot;
    o.loot = v ? v.map((x) => ({ ...x })) : v;
  },
  looted(o, s) {
    const v = s.looted;
    o.looted = v ? [...v] : v;
  },
  sabotage(o, s) {
    const v = s.sabotage;
    o.sabotage = v ? v.map((x) => ({ ...x })) : v;
  },
  sabotaged(o, s) {
    const v = s.sabotaged;
    o.sabotaged = v ? [...v] : v;
  },
  sabotageRoll(o, s) {
    const v = s.sabotageRoll;
    o.sabotageRoll = v ? { ...v } : v;
  },
  sabotageLoss(o, s) {
    const v = s.sabotageLoss;
    o.sabotageLoss = v ? v.map((x) => ({ ...x })) : v;
  },
  sabotagePartisans(o, s) {
    const v = s.sabotagePartisans;
    o.sabotagePartisans = v ? [...v] : v;
  },
  commanders(o, s) {
    const v = s.commanders;
    o.commanders = v ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, { ...x }])) : v;
  },
  cmdPhase(o, s) {
    const v = s.cmdPhase;
    o.cmdPhase = v ? { ...v, queue: [...v.queue], moved: [...v.moved] } : v;
  },
  cmdAssign(o, s) {
    const v = s.cmdAssign;
    o.cmdAssign = v ? { ...v } : v;
  },
  cmdLoss(o, s) {
    const v = s.cmdLoss;
    o.cmdLoss = v ? [...v] : v;
  },
  neutral(o, s) {
    const v = s.neutral;
    o.neutral = v ? [...v] : v;
  },
  itsWar(o, s) {
    const v = s.itsWar;
    o.itsWar = v ? { ...v } : v;
  },
  eventsDone(o, s) {
    const v = s.eventsDone;
    o.eventsDone = v ? [...v] : v;
  },
  tradesEnded(o, s) {
    const v = s.tradesEnded;
    o.tradesEnded = v ? [...v] : v;
  },
  japanAsk: (o, s) => void (o.japanAsk = s.japanAsk),
  japanAtWar: (o, s) => void (o.japanAtWar = s.japanAtWar),
  partisanStep(o, s) {
    const v = s.partisanStep;
    o.partisanStep = v ? { ...v } : v;
  },
  partisans(o, s) {
    const v = s.partisans;
    o.partisans = v ? [...v] : v;
  },
  woken(o, s) {
    const v = s.woken;
    o.woken = v ? [...v] : v;
  },
  disband(o, s) {
    const v = s.disband;
    o.disband = v ? v.map((x) => ({ ...x })) : v;
  },
  vichy: (o, s) => void (o.vichy = s.vichy),
  liberators: (o, s) => void (o.liberators = s.liberators),
  libCoin: (o, s) => void (o.libCoin = s.libCoin),
  liberation: (o, s) => void (o.liberation = s.liberation),
  liberationNext: (o, s) => void (o.liberationNext = s.liberationNext),
  lostBy: (o, s) => void (o.lostBy = s.lostBy),
  unsupplied: (o, s) => void (o.unsupplied = s.unsupplied),
  capitalsSpent: (o, s) => void (o.capitalsSpent = s.capitalsSpent),
  out: (o, s) => void (o.out = s.out),
  homePlace: (o, s) => void (o.homePlace = s.homePlace),
  standMoves: (o, s) => void (o.standMoves = s.standMoves),
  releaseAsk: (o, s) => void (o.releaseAsk = s.releaseAsk),
  homeFor: (o, s) => void (o.homeFor = s.homeFor),
  homeAsk: (o, s) => void (o.homeAsk = s.homeAsk),
  frenchFleetRoll: (o, s) => void (o.frenchFleetRoll = s.frenchFleetRoll),
  setAside: (o, s) => void (o.setAside = s.setAside),
  asidePicks: (o, s) => void (o.asidePicks = s.asidePicks),
  aBomb(o, s) {
    const v = s.aBomb;
    o.aBomb = v ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, { ...x }])) : v;
  },
  aBombed(o, s) {
    const v = s.aBombed;
    o.aBombed = v ? [...v] : v;
  },
  aBombTest(o, s) {
    const v = s.aBombTest;
    o.aBombTest = v ? { ...v } : v;
  },
  factoryDamage(o, s) {
    const v = s.factoryDamage;
    o.factoryDamage = v ? { ...v } : v;
  },
  leaving: (o, s) => void (o.leaving = s.leaving),
  leaves: (o, s) => void (o.leaves = s.leaves),
  leaveAsk: (o, s) => void (o.leaveAsk = s.leaveAsk),
};

/**
 * A private copy to build the next state in. Copies exactly the nested shapes of `BlitzState` (units
 * and selections one level down, the rare combat record through JSON); several times faster than a
 * generic deep clone, which matters because every apply makes one.
 *
 * The copy gets the original's hidden class: the members every state has are an object literal in
 * `setupState`'s order (a literal of that many members starts from the same map and keeps them
 * in-object), the others are then written by name in the original's order. A spread copy
 * (`{ ...s, control: ... }`) had a map of its own with 4 in-object members and the rest behind a
 * pointer, so every state of the copying path (MCTS, `apply`) had maps the rules' code had not seen
 * on the runner's path, and the rules ran slower on them (see PLAN.md, blitzshape).
 */
function draft(s: BlitzState): BlitzState {
  const units: BlitzState['units'] = {};
  for (const id in s.units) units[id] = { ...s.units[id]! };
  const pool: BlitzState['pool'] = {};
  for (const id in s.pool) pool[id] = { ...s.pool[id]! };
  const hidden: BlitzState['hidden'] = {};
  for (const pw in s.hidden) hidden[pw] = s.hidden[pw]!.map((h) => ({ ...h }));
  const o: BlitzState = {
    pack: s.pack,
    scenario: s.scenario,
    turn: s.turn,
    impulse: s.impulse,
    step: s.step,
    side: s.side,
    power: s.power,
    mode: s.mode,
    freeLeft: s.freeLeft,
    control: { ...s.control },
    atWar: [...s.atWar],
    conquered: [...s.conquered],
    units,
    pool,
    sel: s.sel && (jsonCopy(s.sel) as BlitzState['sel']),
    attacks: s.attacks.map((a) => ({ ...a, attackers: [...a.attackers], dropped: [...a.dropped], defenders: [...a.defenders] })),
    combat: s.combat && (jsonCopy(s.combat) as BlitzState['combat']),
    res: { ...s.res },
    hidden,
    buildOrder: [...s.buildOrder],
    overruns: [...s.overruns],
    winner: s.winner,
    reason: s.reason,
    ask: s.ask,
    seq: s.seq,
  };
  const keys = Object.keys(s);
  // The state's own members start with the common ones in that order; a state built otherwise (a
  // test's) has its other members copied all the same, after them.
  let i = 0;
  while (i < BASE_MEMBERS.length && keys[i] === BASE_MEMBERS[i]) i++;
  for (; i < keys.length; i++) {
    const k = keys[i]!;
    const copy = COPY_MEMBER[k];
    if (copy) copy(o, s);
    else if (!Object.hasOwn(o, k)) o[k] = s[k];
  }
  if (s.modes) {
    // The Blitz's bookkeeping goes together (as the spread copy wrote it: made when missing).
    o.freeBy = { ...s.freeBy };
    o.queue = [...(s.queue ?? [])];
  }
  return o;
}

/** The outcomes of a die of `faces` faces, equally likely: made once per number of faces, frozen (callers only read them). */
const dice = new Map<number, readonly ChanceOutcome<string>[]>();
function dieFaces(faces: number): readonly ChanceOutcome<string>[] {
  let d = dice.get(faces);
  if (!d) dice.set(faces, (d = Object.freeze(Array.from({ length: faces }, (_, i) => Object.freeze({ outcome: `die ${i + 1}`, p: 1 / faces })))));
  return d;
}

function setupState(p: PackIndex, scenario: string, optional: string[], bids: Record<string, number> | undefined): BlitzState {
  const sc = scenarioDef(p, scenario);
  const s: BlitzState = {
    pack: p.hash,
    scenario,
    turn: sc.firstTurn,
    impulse: 1,
    step: 'land-move',
    side: 'Axis',
    power: '',
    mode: 'activities',
    freeLeft: 0,
    control: { ...sc.control },
    atWar: [],
    conquered: [],
    units: {},
    pool: {},
    sel: null,
    attacks: [],
    combat: null,
    res: {},
    hidden: {},
    buildOrder: [],
    overruns: [],
    winner: null,
    reason: '',
    ask: { kind: 'terminal' },
    seq: 0,
  };
  // 1.11/9: the optional rules are agreed before the set-up; absent when none, so such games are unchanged.
  if (optional.length) s.optional = optional;
  if (bids) s.bids = bids;
  initCommanders(p, s); // 9.5: the Commander counters start in the Force Pools
  for (const pl of sc.setup) {
    const d = p.unit.get(pl.unit)!;
    const power = sc.powers.find((x) => x.nations.includes(d.nation))!.id;
    putUnit(s, pl.unit, { def: pl.unit, power, size: pl.size, at: pl.at });
  }
  for (const f of sc.forcePool) s.pool[f.unit] = { size: f.size, from: f.from ?? 0 };
  if (sc.seaCombat) s.convoys = initialConvoys(p, scenario);
  if (sc.blitzChoice || sc.fixedIncome || sc.areaIncome) s.oil = Object.fromEntries(sc.powers.map((x) => [x.id, sc.oil?.[x.id] ?? 0]));
  if (sc.fixedIncome || sc.areaIncome) s.budgetOil = {};
  if (sc.areaIncome) s.saved = Object.fromEntries(sc.powers.map((x) => [x.id, 0]));
  if (sc.futureAdditions || sc.weaponCharts) {
    s.picked = [];
    s.doublePicks = Object.fromEntries(sc.powers.map((x) => [x.id, sc.doublePicks?.[x.id] ?? 0]));
  }
  if (sc.vp || sc.victory) s.vp = Object.fromEntries(sc.powers.map((x) => [x.id, 0]));
  s.conquered = initiallyConquered(p, s);
  initialNeutrals(p, s); // 7.2: the USA and USSR start neutral (F)
  if (optional.includes('9.2')) startRoadToWar(p, s); // 9.2: the Road to War is played before Turn 1
  startJapanQuestion(p, s); // F: may Japan go to war this turn?
  beginImpulse(p, s, 1);
  advance(p, s, []);
  return s;
}

function describeChoice(p: PackIndex, s: BlitzState, c: string): string {
  const name = (id: string) => p.unit.get(id)?.name ?? p.land.get(id)?.name ?? p.sea.get(id)?.name ?? p.files.map.countries.find((x) => x.id === id)?.name ?? id;
  const [verb, ...rest] = c.split(' ');
  return [verb, ...rest.map(name)].join(' ') + (s.ask.kind === 'decision' ? ` (${s.ask.prompt})` : '');
}

/**
 * Events that get a row in telemetry's `events` table: what changed the war (combats with their
 * rounds, factors, dice and results; losses of areas and units; declarations; the end). The traffic
 * around them (moves, rebases, placements, announcements and commitments before a combat, step
 * losses already in the combat's results, turn markers) is counted per impulse and kept in the
 * replay, which rebuilds every event of a match on demand (`salient replay`).
 */
export const TELEMETRY_EVENTS: readonly string[] = [
  'combat',
  'overrun',
  'retreat',
  'return-to-base',
  'elimination',
  'reinforcement-lost',
  'capture',
  'conquest',
  'liberation',
  'declaration',
  'build',
  'repair',
  'income',
  'victory',
  // From Scenario C: the Atlantic war's tally, the Blitz each side paid for, blockades, new weapons.
  'convoy-damage',
  'victory-points',
  'blitz',
  'blocked',
  'weapon-pick',
  'italy-exits',
  // 7.8: A-Bomb steps as they are revealed, and its use.
  'a-bomb',
  // 3.4: what a liberator does with a liberated country.
  'liberation-keep',
  'liberation-return',
  // The optional rules: each Road to War pick (9.2), Commanders placed and lost (9.5), Sabotage rolls (9.6).
  'road-to-war',
  'commander-placed',
  'commander-lost',
  'sabotage',
];

export const blitz: Game<BlitzState, string, BlitzState, PackFiles> = {
  id: 'blitz',
  name: 'Blitz! A World in Conflict',
  rulesVersion: RULES_VERSION,
  streams: ['combat', 'research'],
  bundledPacks: { approximation: approximationPack },
  telemetryEvents: TELEMETRY_EVENTS,
  measures: BLITZ_MEASURES,
  prompts: DECISION_PROMPTS,
  // The tests sit beside src/ in the repository (not in a bundle: coverage then reports none found).
  rules: { sections: BLITZ_SECTIONS, trace: traceRules, testsDir: fileURLToPath(new URL('../test/', import.meta.url)) },

  checkPack(raw) {
    const r = checkBlitzPack(raw);
    if (!r.ok) return { ok: false, issues: r.issues };
    return { ok: true, pack: loaded(r.data) };
  },

  scenarios(pack): ScenarioInfo[] {
    return pack.data.scenarios.scenarios
      .filter((s) => IMPLEMENTED.includes(s.id))
      .map((s) => ({
        id: s.id,
        name: s.name,
        summary: SUMMARIES[s.id] ?? s.name,
        sides: (['Axis', 'Allies'] as const).map((side) => ({
          id: side,
          name: side,
          powers: s.powers.filter((x) => x.side === side).map((x) => x.id),
        })),
      }));
  },

  setup(scenario, pack, options: JsonObject = {}) {
    const valid = this.scenarios(pack).map((x) => x.id);
    if (!valid.includes(scenario)) throw unknownName('UNKNOWN_SCENARIO', 'scenario', scenario, valid);
    const p = registerPack(pack.info.hash, pack.data);
    const splits = scenarioDef(p, scenario).splits;
    // 9: the optional rules (and 9.1's bids) are the full game's; other scenarios say so when given them.
    const known = (k: string) => (k === 'players' && splits) || (scenario === 'full' && (k === 'optional' || k === 'bids'));
    const unknown = Object.keys(options).filter((k) => !known(k));
    const opt = unknown.filter((k) => k === 'optional' || k === 'bids');
    if (opt.length) {
      throw new SalientError('BAD_OPTION', `option${opt.length > 1 ? 's' : ''} ${opt.map((k) => `'${k}'`).join(' and ')} (the optional rules of section 9) ${opt.length > 1 ? 'are' : 'is'} for the full game only: scenario ${scenario} plays its own rules as they stand. Remove ${opt.length > 1 ? 'them' : 'it'}, or play scenario full.`);
    }
    if (unknown.length) {
      const takes = scenario === 'full' ? "only the options 'players', 'optional' and 'bids'" : splits ? "only the option 'players'" : 'no options';
      throw new SalientError('BAD_OPTION', `Blitz scenario ${scenario} takes ${takes}; got: ${unknown.join(', ')}. Remove them.`);
    }
    let players: number | undefined;
    if (splits) {
      const counts = Object.keys(splits).map(Number).sort((a, b) => a - b);
      players = options.players === undefined ? counts[0]! : Number(options.players);
      if (!counts.includes(players)) throw new SalientError('BAD_OPTION', `option 'players' for scenario ${scenario} must be one of ${counts.join(', ')}; got ${JSON.stringify(options.players)}.`);
    }
    const optional = parseOptional(scenario, options.optional);
    const bids = parseBids(optional, splits?.[String(players)] ?? [], options.bids);
    fired('1.11', scenario);
    fired('1.1', scenario); // the scenario's powers take their sides
    const s = setupState(p, scenario, optional, bids);
    if (players !== undefined) s.players = players;
    return s;
  },

  pending(s): Pending<string> {
    const a = s.ask;
    if (a.kind === 'terminal') return { kind: 'terminal', result: this.result(s) };
    if (a.kind === 'chance') {
      return { kind: 'chance', stream: a.stream, prompt: a.prompt, outcomes: dieFaces(a.faces) };
    }
    return { kind: 'decision', power: a.power, prompt: a.prompt, options: a.options };
  },

  apply(state, choice) {
    return play(draft(state), choice);
  },

  // The runner's path: no copy of the state per step (the copy was about a third of a random game's
  // time). Events may hold arrays of the state (a transport's cargo) that later steps change in place
  // here, so they go out as copies of their own.
  applyOwned(state, choice) {
    const step = play(state, choice);
    // `play` made the step object for this call alone: its events are replaced by their copy in place.
    if (step.events.length) step.events = jsonCopy(step.events) as Events;
    return step;
  },

  observe(s, power) {
    // Everything is open except the other powers' secret turn-end choices (1.9: builds, Lend Lease, saving). A copy, so
    // a bot that scribbles on what it sees cannot touch the game.
    const o = draft(s);
    const secret = new Set<string>();
    for (const [pw, list] of Object.entries(s.hidden)) {
      if (pw === power) continue;
      // Their Future Additions picked (or research draws made) this turn are in the Force Pool and
      // on the list of picked units already; hide them from both (1.9).
      for (const h of list) if (h.at === 'pool' || h.at === 'drawn') secret.add(h.unit);
    }
    for (const unit of secret) delete o.pool[unit];
    if (secret.size && o.picked) o.picked = o.picked.filter((u) => !secret.has(u));
    // 7.3: nor which of them were set aside for a country not allied yet.
    if (secret.size && o.asidePicks) {
      const aside = Object.entries(o.asidePicks).filter(([u]) => !secret.has(u));
      if (aside.length) o.asidePicks = Object.fromEntries(aside);
      else delete o.asidePicks;
      const open: Record<string, string[]> = {};
      for (const [c, l] of Object.entries(o.setAside ?? {})) {
        const kept = l.filter((u) => !secret.has(u));
        if (kept.length) open[c] = kept;
      }
      o.setAside = open;
    }
    o.hidden = o.hidden[power] ? { [power]: o.hidden[power]! } : {};
    // 7.4: the other powers' Lend Lease choices are secret until the deliveries are made (1.9).
    if (s.llOil) o.llOil = Object.fromEntries(Object.entries(s.llOil).filter(([id]) => s.units[id]?.power === power));
    // 7.8: so is how the others split what they save, until the builds are revealed.
    if (s.saveOil) o.saveOil = s.saveOil[power] === undefined ? {} : { [power]: s.saveOil[power]! };
    return o;
  },

  position(s) {
    const phase = s.roadToWar ? 'road-to-war' : s.impulse === 5 ? 'turn-end' : `${s.side.toLowerCase()}-${s.impulse <= 2 ? 'activities' : 'blitz'}`;
    return { turn: s.turn, impulse: s.impulse, phase, step: s.step };
  },

  result(s): GameResult {
    const p = packOf(s.pack);
    if (s.draw) return drawResult(p, s, s.reason);
    if (!s.winner) throw new SalientError('NOT_A_DECISION', 'result() asked of a Blitz game that has not ended; use adjudicate()');
    return resultOf(p, s, s.winner, s.reason);
  },

  adjudicate(s) {
    return adjudicate(packOf(s.pack), s);
  },

  summarize(s) {
    return summarize(packOf(s.pack), s);
  },

  board: blitzBoard,

  encode(c) {
    return c;
  },
  decode(t) {
    if (typeof t !== 'string' || !/^[a-z]+( [A-Za-z0-9:-]+)*$/.test(t)) throw new IllegalChoiceError(`'${t}' is not a Blitz choice`);
    return t;
  },
  describe(s, c) {
    return describeChoice(packOf(s.pack), s, c);
  },

  model: {
    sample: (obs) => obs,
    evaluate: (s, power) => evaluate(packOf(s.pack), s, power),
    phasing: (s) => phasingPowers(packOf(s.pack), s),
    inCombat,
  },
};

