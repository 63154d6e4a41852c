/**
 * Empires & Alliances (Compass Games, 2018), Scenario 3 "1918: Over There", as a Salient game. The rules
 * live in `rules/` (flow.ts runs the sequence of play); the components come from a data pack whose map
 * is loaded once per pack by @salient/hexmap and kept outside the state.
 */
import { fileURLToPath } from 'node:url';
import { hashJson, IllegalChoiceError, SalientError, unknownName, type Boundary, type Game, type GameResult, type JsonObject, type LoadedPack, type Pending, type Step } from '@salient/engine';
import { loadHexMap, type HexMap } from '@salient/hexmap';
import { eaBoardView } from './board-view.ts';
import { approximationPack } from './pack/bundled.ts';
import { checkEaPack } from './pack/check.ts';
import type { PackFiles } from './pack/schema.ts';
import { boardOf, registerBoard, SIDE_IDS, SIDE_NAMES, type Board } from './rules/board.ts';
import type { Events } from './rules/events.ts';
import { openDeployment } from './rules/deploy.ts';
import { applyChoice, decider, options, start, supplyOf, vpPlaces } from './rules/flow.ts';
import { parseRulings } from './rules/rulings.ts';
import { EA_SECTIONS, traceRules } from './rules/sections.ts';
import type { EaState } from './rules/state.ts';
import { centralVp, levelReason, victoryLevel } from './rules/victory.ts';
import { evaluateCp } from './rules/evaluate.ts';

export const RULES_VERSION = '0.4.0';

const maps = new Map<string, HexMap>();

function loaded(data: PackFiles): LoadedPack<PackFiles> {
  const hash = hashJson(data as never);
  const m = data.pack;
  return { info: { id: m.id, version: m.version, fidelity: m.fidelity, hash, description: m.description }, data };
}

function mapOf(pack: LoadedPack<PackFiles>): HexMap {
  let m = maps.get(pack.info.hash);
  if (!m) {
    if (pack.data.map === undefined) {
      throw new SalientError('BAD_PACK', `pack ${pack.info.id} has no map.json: Empires & Alliances needs its hex map (salient.hexmap/1). Build it with packages/mapbuilder, or add map.json to the pack directory.`);
    }
    m = loadHexMap(pack.data.map, { source: 'map.json' });
    maps.set(pack.info.hash, m);
  }
  return m;
}

/** A private copy of a state to build the next one in: the unit arrays and the few nested records. */
function draft(s: EaState): EaState {
  // slice() rather than spreads: the same plain arrays, made faster (a search bot drafts per option).
  const rp: EaState['rp'] = {};
  for (const k in s.rp) rp[k] = s.rp[k]!.slice();
  const ww: EaState['ww'] = {};
  for (const k in s.ww) ww[k] = s.ww[k]!.slice();
  return {
    ...s,
    rulings: s.rulings,
    hex: s.hex.slice(),
    sup: s.sup.slice(),
    mor: s.mor.slice(),
    ent: s.ent.slice(),
    flg: s.flg.slice(),
    flip: s.flip.slice(),
    rails: s.rails.slice(),
    forts: s.forts.slice(),
    rp,
    ww,
    cb: s.cb && { ...s.cb, att: s.cb.att.slice(), def: s.cb.def.slice(), air: s.cb.air.slice(), todo: s.cb.todo.map((t) => (t.t === 'retreat' ? { ...t, units: t.units.slice() } : { ...t })), pairs: s.cb.pairs.slice(), queue: s.cb.queue.map((q) => ({ att: q.att.slice(), def: q.def.slice() })), pool: s.cb.pool.slice(), left: s.cb.left.slice(), sa: s.cb.sa.slice(), sd: s.cb.sd.slice() },
    hit: s.hit.slice(),
    rail: { ...s.rail },
    sea: { ...s.sea },
    ports: s.ports.slice(),
    mq: s.mq.slice(),
    dq: s.dq.slice(),
    used: s.used.slice(),
    rq: s.rq.slice(),
    ask: s.ask,
  };
}

function play(s: EaState, choice: string): Step<EaState> {
  const b = boardOf(s.key);
  const { turn, seg, phase } = s;
  const events: Events = [];
  applyChoice(b, s, choice, events);
  s.seq += 1;
  let boundary: Boundary | undefined;
  // The set-up (position turn 0) ends when Turn 1 begins.
  if (s.turn !== turn || s.phase === 'over' || (phase === 'setup' && s.phase !== 'setup')) boundary = 'turn';
  else if (s.seg !== seg) boundary = 'impulse';
  else if (s.phase !== phase) boundary = 'phase';
  return boundary ? { state: s, events, boundary } : { state: s, events };
}

function resultFor(b: Board, s: EaState, vp: number, reason: string): GameResult {
  const level = victoryLevel(vp, b.scen.victory.bands, s.rulings);
  const cp = level === 'cp-major' || level === 'cp-minor' ? 'win' : level === 'draw' ? 'draw' : 'loss';
  const al = cp === 'win' ? 'loss' : cp === 'draw' ? 'draw' : 'win';
  const [lo, , , hi] = b.scen.victory.bands;
  const margin = cp === 'win' ? vp - (b.scen.victory.bands[2] - 0.5) : al === 'win' ? b.scen.victory.bands[1] - vp : 0;
  void lo;
  void hi;
  return { sides: { CP: cp, AL: al }, scores: { CP: vp, AL: b.vp.length - vp }, margin, reason };
}

/** Readable prompt names, by the kind of question (`Game.prompts`). */
const PROMPTS: Record<string, { asks: string; options: string }> = {
  'deploy-unit': { asks: 'Set-up (S3 3.4, the Allies first): the hex of its sector (or of its 3.45 area, for the US divisions) where the named unit deploys; every hex offered keeps the remaining units placeable under 6.1', options: '`deploy HHHH` (printed hex id)' },
  'replace-unit': { asks: 'Reinforcement Phase (7.21, 17.24, 17.32, 17.34): pick a unit of the Replacement Pool to rebuild with RPs, or end the purchases', options: '`buy U` (the lowest-numbered pool unit of each counter type you can afford and place), then `done`' },
  'replace-at': { asks: 'where the rebuilt unit is placed (17.25, 17.26, 17.31, 17.33): a supplied, controlled home city of the first priority class with room (British and Commonwealth units: Britain, three a turn, 2.3)', options: '`at HHHH` (printed hex id) or `at Britain`' },
  'move-unit': { asks: 'Movement Phase (7.23, 8, 9, 11, 12, 15.21, 16.41): pick a unit to move, rail, move by sea (from a port it can reach with an MP to spare, or from Britain; not in March 1918, within its country\'s sea capacity) or entrench, an air unit to fly, an enemy hex for an Automatic Victory, or end the phase', options: '`move U` (unit number), `rail U`, `sea U`, `entrench U`, then `fly A` (air units), `av HHHH`, then `done`' },
  'av-with': { asks: 'the units making an Automatic Victory on the chosen hex (12.1), one at a time; they then neither move nor attack this segment (12.2)', options: '`with U`, `go` once the odds (8-1, 10-1 or 12-1) and 13.652 are met' },
  'air-mission': { asks: 'where the air unit flies (16.41, 6.3): over an enemy hex within 4 hexes to support attacks on it (at most three there), or to a new base within 10 hexes (a friendly city with room: two in a major city, one in a minor)', options: '`over HHHH`, `base HHHH`, or `stay`' },
  'air-landing': { asks: 'where an air unit that flew a sortie lands after the Combat Phase (16.42): a friendly city with room within 4 hexes of the hex it supported', options: '`land HHHH`' },
  'move-to': { asks: 'where the picked unit ends its move (8.1-8.4, 6.1, 3.62); after `sea U` (11.1-11.2): ground to a port, 1 MP to embark, by sea to another port held since the start of the phase or to Britain, 1 MP to debark, then ground with the MPs left', options: '`to HHHH` (printed hex id), `to Britain` (sea moves of British and Commonwealth units), or `stay`' },
  'attack-hex': { asks: 'Combat Phase (7.24, 13.1-13.2): pick an enemy hex to attack, or end the phase', options: '`attack HHHH`, then `done`' },
  'attack-with': { asks: 'the units attacking the chosen hex (13.4, 13.652), one at a time', options: '`with U`, `go` once the attack is legal, or `cancel`' },
  'pair-defenders': { asks: 'the defender pairs Artillery and Tank units with Inf/Cav in the attacked hex (13.62): at most one Artillery and one Tank per Inf/Cav; a pair is attacked as one unit and 13.73 applies on an ND', options: '`pair A,I` (support unit, Inf/Cav), then `done`' },
  'split-attack': { asks: 'the attacker may split the attack on the hex (13.3, 13.63): build one attack at a time from defending groups and attacking units; every defender must be attacked at 1-5 or better; attacks resolve in the order built', options: '`on D` (a defending group by its first unit), `with U`, `next` (close this attack), `all` (this attack takes everything left)' },
  'take-losses': { asks: 'which units to lose to meet a combat result (13.7-13.72, 16.1, 16.3); the fewest factors first', options: '`lose U,U,...`' },
  'retreat-hex': { asks: 'where a unit retreats (13.8)', options: '`retreat HHHH`' },
  'advance-unit': { asks: 'advance after combat (13.9) or after an Automatic Victory (12.2) into the emptied hex', options: '`advance U`, or `stay`' },
};
const PROMPT_OF: Record<string, string> = { fly: 'air-mission', land: 'air-landing', pair: 'pair-defenders', split: 'split-attack', deploy: 'deploy-unit', buy: 'replace-unit', place: 'replace-at', move: 'move-unit', to: 'move-to', attack: 'attack-hex', with: 'attack-with', av: 'av-with', lose: 'take-losses', retreat: 'retreat-hex', advance: 'advance-unit' };
const STREAM_OF: Record<string, string> = { weather: 'weather', combat: 'combat', morale: 'morale', desert: 'morale' };
const PHASING = [[SIDE_IDS[0]], [SIDE_IDS[1]]] as const;
const DIE = Array.from({ length: 10 }, (_, i) => ({ outcome: `die ${i + 1}`, p: 0.1 }));

/** Heuristic value for search bots (rules/evaluate.ts lists its terms); a game that has ended is worth its 3.72 level. */
function evaluate(s: EaState, power: string): number {
  const b = boardOf(s.key);
  if (s.phase === 'over') {
    const r = resultFor(b, s, s.vp ?? 0, '');
    return r.sides[power] === 'win' ? 1000 : r.sides[power] === 'draw' ? 0 : -1000;
  }
  return (power === 'CP' ? 1 : -1) * evaluateCp(b, s);
}

/**
 * The position's phase name by segment and phase, made once rather than per step (the runner asks for
 * the position at every step): `over`, `weather` and `morale` as they are, the others after the
 * phasing side (`cp-move`).
 */
function phaseNames(seg: 0 | 1): Readonly<Record<EaState['phase'], string>> {
  const name = (phase: EaState['phase']) => (phase === 'over' || phase === 'weather' || phase === 'morale' ? phase : `${SIDE_IDS[seg].toLowerCase()}-${phase}`);
  return { setup: name('setup'), weather: name('weather'), reinforce: name('reinforce'), move: name('move'), combat: name('combat'), morale: name('morale'), over: name('over') };
}
const PHASE_NAMES = [phaseNames(0), phaseNames(1)] as const;

export const empiresAlliances: Game<EaState, string, EaState, PackFiles> = {
  id: 'empires-alliances',
  name: 'Empires & Alliances (1918)',
  rulesVersion: RULES_VERSION,
  streams: ['weather', 'combat', 'morale'],
  bundledPacks: { approximation: approximationPack },
  telemetryEvents: ['combat', 'elimination', 'capture', 'retreat', 'advance', 'reinforcement', 'replacement', 'railhead', 'garrison', 'war-weariness', 'weather', 'victory'],
  measures: {
    score: { name: 'VP (3.71)', description: 'The Central Powers score the victory points of S3 3.71: a point for each of ten Allied places held by German infantry and each of five German cities free of Allied infantry, half for a place cut off from supply. The Allies score the rest of the 15.' },
    margin: { name: 'VP beyond the draw band', description: 'How far the Central Powers total lies above the draw band of 3.72 (a CP win) or below it (an Allied win); 0 for a draw.' },
  },
  prompts: PROMPTS,
  board: eaBoardView(mapOf),
  rules: { sections: EA_SECTIONS, trace: traceRules, testsDir: fileURLToPath(new URL('../test/', import.meta.url)) },

  checkPack(raw) {
    const r = checkEaPack(raw);
    if (!r.ok) return { ok: false, issues: r.issues };
    return { ok: true, pack: loaded(r.data) };
  },

  scenarios(pack) {
    return pack.data.scenarios.scenarios.map((s) => ({
      id: s.id,
      name: s.name,
      summary: s.summary,
      sides: SIDE_IDS.map((id, i) => ({ id, name: SIDE_NAMES[i]!, powers: [id] })),
    }));
  },

  setup(scenario, pack, opts: JsonObject = {}) {
    const valid = this.scenarios(pack).map((x) => x.id);
    if (!valid.includes(scenario)) throw unknownName('UNKNOWN_SCENARIO', 'scenario', scenario, valid);
    const unknown = Object.keys(opts).filter((k) => k !== 'rulings' && k !== 'deploy');
    if (unknown.length) throw new SalientError('BAD_OPTION', `Empires & Alliances takes only the options 'rulings' (e.g. "mud-mf=halve-up") and 'deploy' ("choose" or "deal"); got: ${unknown.join(', ')}. Remove them.`);
    const deploy = opts.deploy ?? 'choose';
    if (deploy !== 'choose' && deploy !== 'deal') throw new SalientError('BAD_OPTION', `Empires & Alliances option 'deploy' is "choose" (the players place their units within each sector, S3 3.4; the default) or "deal" (the pack's fixed deal); got ${JSON.stringify(deploy)}.`);
    const rulings = { ...parseRulings(opts.rulings) };
    const b = registerBoard(pack.info.hash, pack.data, mapOf(pack), scenario);
    const ww: EaState['ww'] = {};
    for (const m of b.morale) ww[m.nation] = [m.drm, 0, -1, 0];
    ww.AH = [0, 0, -1, 0];
    const rp: EaState['rp'] = {};
    for (const r of b.scen.replacements) rp[r.nation] = [r.start?.inf ?? 0, r.start?.art ?? 0, r.start?.tank ?? 0];
    const s: EaState = {
      key: `${pack.info.hash}:${scenario}`,
      rulings,
      turn: 0,
      seg: 0,
      phase: 'weather',
      wx: 'clear',
      hex: b.units.map((u) => u.start),
      sup: b.units.map(() => 0),
      mor: b.units.map(() => 0),
      ent: b.units.map((u) => u.ent),
      flg: b.units.map(() => 0),
      flip: [],
      rails: [],
      forts: b.forts.flatMap((f) => [f.hex, f.side, f.level]),
      rp,
      ww,
      cb: null,
      hit: [],
      rail: {},
      sea: {},
      ports: [],
      mq: [],
      dq: [],
      used: [],
      rq: [],
      ask: { k: 'over' },
      seq: 0,
    };
    if (deploy === 'deal') start(b, s, []);
    else openDeployment(b, s);
    return s;
  },

  pending(s): Pending<string> {
    const a = s.ask;
    if (a.k === 'over') return { kind: 'terminal', result: this.result(s) };
    if (a.k === 'die') return { kind: 'chance', stream: STREAM_OF[a.what]!, prompt: `${a.what}-die`, outcomes: DIE };
    return { kind: 'decision', power: SIDE_IDS[decider(s)], prompt: PROMPT_OF[a.k]!, options: options(boardOf(s.key), s) };
  },

  apply(state, choice) {
    return play(draft(state), choice);
  },

  applyOwned(state, choice) {
    return play(state, choice);
  },

  observe(s) {
    return draft(s);
  },

  position(s) {
    // A turn opens with its weather (7.1) before the Central Powers' segment: impulse 1, not the
    // previous turn's Allied segment that `seg` still names.
    // The S3 3.4 set-up comes before Turn 1 (its 'turn' event opens Turn 1): turn 0.
    return { turn: s.phase === 'setup' ? 0 : s.turn + 1, impulse: s.phase === 'weather' || s.phase === 'setup' ? 1 : s.seg + 1, phase: PHASE_NAMES[s.seg][s.phase], step: s.ask.k };
  },

  result(s) {
    if (s.phase !== 'over' || s.vp === undefined) throw new SalientError('NOT_A_DECISION', 'result() asked of an Empires & Alliances game that has not ended; use adjudicate()');
    return resultFor(boardOf(s.key), s, s.vp, s.end ?? '');
  },

  adjudicate(s) {
    const b = boardOf(s.key);
    const vp = s.vp ?? centralVp(vpPlaces(b, s));
    const level = victoryLevel(vp, b.scen.victory.bands, s.rulings);
    return resultFor(b, s, vp, levelReason(level, b.scen.victory.bands, s.rulings, 'as things stand (adjudicated before the end)'));
  },

  summarize(s) {
    const b = boardOf(s.key);
    const vp = centralVp(vpPlaces(b, s));
    const supply: Record<string, number> = {};
    const units: Record<string, number> = { CP: 0, AL: 0 };
    for (const side of [0, 1] as const) {
      const dist = supplyOf(b, s, side);
      let on = 0;
      let fed = 0;
      for (let u = 0; u < s.hex.length; u++) {
        if (s.hex[u]! < 0 || b.units[u]!.side !== side || b.units[u]!.prof.type === 'air') continue;
        on++;
        if (dist[s.hex[u]!]! >= 0) fed++;
      }
      supply[SIDE_IDS[side]] = on ? fed / on : 0;
      units[SIDE_IDS[side]] = on;
    }
    return { scores: { CP: vp, AL: b.vp.length - vp }, supply, extra: { unitsCP: units.CP!, unitsAL: units.AL! } };
  },

  encode(c) {
    return c;
  },
  decode(t) {
    if (typeof t !== 'string' || !/^[a-z]+( ([0-9,]+|Britain))?$/.test(t)) throw new IllegalChoiceError(`'${t}' is not an Empires & Alliances choice (e.g. 'move 12', 'to 2453', 'to Britain', 'done', 'die 7')`);
    return t;
  },

  model: {
    sample: (obs) => draft(obs),
    evaluate,
    // What `pending` says of a die, without the option list of a decision (greedy asks after every option).
    chanceAt: (s) => (s.ask.k === 'die' ? DIE : undefined),
    // 7.2-7.3: the segment's side; its opponent's decisions in it (pairing, losses, retreats) answer its attacks.
    phasing: (s) => PHASING[s.seg],
    // 13: from the hex attacked (13.1) to the attack's last advance (13.9), the queued split attacks included (13.3).
    inCombat: (s) => s.cb !== null,
  },
};
