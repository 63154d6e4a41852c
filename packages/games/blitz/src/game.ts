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

/**
 * A private copy to build the next state in. Copies exactly the nested shapes of `BlitzState` (units
 * and selections one level down, the rare combat record through JSON); several times faster than a
 * generic deep clone, which matters because every apply makes one.
 */
function draft(s: BlitzState): BlitzState {
  const units: BlitzState['units'] = {};
  for (const id in s.units) units[id] = { ...s.units[id]! };
  const pool: BlitzState['pool'] = {};
  for (const id in s.pool) pool[id] = { ...s.pool[id]! };
  const hidden: BlitzState['hidden'] = {};
  for (const pw in s.hidden) hidden[pw] = s.hidden[pw]!.map((h) => ({ ...h }));
  return {
    ...s,
    control: { ...s.control },
    atWar: [...s.atWar],
    conquered: [...s.conquered],
    units,
    pool,
    sel: s.sel && (jsonCopy(s.sel) as BlitzState['sel']),
    attacks: s.attacks.map((a) => ({ ...a, attackers: [...a.attackers], dropped: [...a.dropped], defenders: [...a.defenders] })),
    combat: s.combat && (jsonCopy(s.combat) as BlitzState['combat']),
    res: { ...s.res },
    ...(s.convoys ? { convoys: { ...s.convoys } } : {}),
    ...(s.seaDone ? { seaDone: [...s.seaDone] } : {}),
    ...(s.sea ? { sea: jsonCopy(s.sea) as SeaCombatState } : {}),
    ...(s.passage ? { passage: { ...s.passage, path: [...s.passage.path] } } : {}),
    ...(s.nonMotorized ? { nonMotorized: { ...s.nonMotorized } } : {}),
    ...(s.roadToWar ? { roadToWar: { ...s.roadToWar, queue: [...s.roadToWar.queue], influence: { ...s.roadToWar.influence } } } : {}),
    ...(s.loot ? { loot: s.loot.map((x) => ({ ...x })) } : {}),
    ...(s.looted ? { looted: [...s.looted] } : {}),
    ...(s.sabotage ? { sabotage: s.sabotage.map((x) => ({ ...x })) } : {}),
    ...(s.sabotaged ? { sabotaged: [...s.sabotaged] } : {}),
    ...(s.sabotageRoll ? { sabotageRoll: { ...s.sabotageRoll } } : {}),
    ...(s.sabotageLoss ? { sabotageLoss: s.sabotageLoss.map((x) => ({ ...x })) } : {}),
    ...(s.sabotagePartisans ? { sabotagePartisans: [...s.sabotagePartisans] } : {}),
    ...(s.oil ? { oil: { ...s.oil } } : {}),
    ...(s.budgetOil ? { budgetOil: { ...s.budgetOil } } : {}),
    ...(s.saved ? { saved: { ...s.saved } } : {}),
    ...(s.picked ? { picked: [...s.picked] } : {}),
    ...(s.doublePicks ? { doublePicks: { ...s.doublePicks } } : {}),
    ...(s.vp ? { vp: { ...s.vp } } : {}),
    ...(s.factoryDamage ? { factoryDamage: { ...s.factoryDamage } } : {}),
    ...(s.woken ? { woken: [...s.woken] } : {}),
    ...(s.neutral ? { neutral: [...s.neutral] } : {}),
    ...(s.wars ? { wars: [...s.wars] } : {}),
    ...(s.itsWar ? { itsWar: { ...s.itsWar } } : {}),
    ...(s.eventsDone ? { eventsDone: [...s.eventsDone] } : {}),
    ...(s.tradesEnded ? { tradesEnded: [...s.tradesEnded] } : {}),
    ...(s.partisanStep ? { partisanStep: { ...s.partisanStep } } : {}),
    ...(s.partisans ? { partisans: [...s.partisans] } : {}),
    ...(s.frontierHeld ? { frontierHeld: [...s.frontierHeld] } : {}),
    ...(s.frontierAttack ? { frontierAttack: { ...s.frontierAttack } } : {}),
    ...(s.research ? { research: { ...s.research } } : {}),
    ...(s.aBomb ? { aBomb: Object.fromEntries(Object.entries(s.aBomb).map(([k, v]) => [k, { ...v }])) } : {}),
    ...(s.aBombed ? { aBombed: [...s.aBombed] } : {}),
    ...(s.aBombTest ? { aBombTest: { ...s.aBombTest } } : {}),
    ...(s.earmark ? { earmark: Object.fromEntries(Object.entries(s.earmark).map(([k, v]) => [k, { ...v }])) } : {}),
    ...(s.captured ? { captured: { ...s.captured } } : {}),
    ...(s.kills ? { kills: [...s.kills] } : {}),
    ...(s.built ? { built: [...s.built] } : {}),
    ...(s.cleanTakes ? { cleanTakes: [...s.cleanTakes] } : {}),
    ...(s.llThisTurn ? { llThisTurn: [...s.llThisTurn] } : {}),
    ...(s.llOil ? { llOil: { ...s.llOil } } : {}),
    ...(s.saveOil ? { saveOil: { ...s.saveOil } } : {}),
    ...(s.disband ? { disband: s.disband.map((d) => ({ ...d })) } : {}),
    ...(s.commanders ? { commanders: Object.fromEntries(Object.entries(s.commanders).map(([k, v]) => [k, { ...v }])) } : {}),
    ...(s.cmdPhase ? { cmdPhase: { ...s.cmdPhase, queue: [...s.cmdPhase.queue], moved: [...s.cmdPhase.moved] } } : {}),
    ...(s.cmdAssign ? { cmdAssign: { ...s.cmdAssign } } : {}),
    ...(s.cmdLoss ? { cmdLoss: [...s.cmdLoss] } : {}),
    ...(s.modes ? { modes: { ...s.modes }, freeBy: { ...s.freeBy }, queue: [...(s.queue ?? [])] } : {}),
    hidden,
    buildOrder: [...s.buildOrder],
    overruns: [...s.overruns],
    ask: s.ask,
  };
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
  },
};

