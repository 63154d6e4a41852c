/**
 * The sequence of play (2.1, 2.2) for the short scenarios: each turn the Axis then the Allies take
 * their Activities (steps A-F), then each side's Blitz (Scenario A: German Land Blitz, AFA Free Blitz;
 * B: German Land Blitz, Western Allies Total Blitz), then turn end. `advance` runs everything that
 * needs no choice and leaves the state waiting on exactly one question (`state.ask`).
 */
import { IllegalChoiceError, type JsonObject } from '@salient/engine';
import { applyFrenchFleetDie, applyHomePlace, applyRelease, askHomePlace, askRelease, liberationUnits } from './france.ts';
import { applyLiberation, applyNewHome, applyStandMove, askLiberation, askNewHome, askStandMove } from './liberation.ts';
import { askCombat, applyCombatPick, eliminate, overrunDestinations, applyAnnounce, applyDefend, applyResolve, askAnnounce, askDefend, askResolve, endCombat } from './combat.ts';
import { emit, landName, unitName, type Events } from './events.ts';
import { afterRefusal, applyLandMove, applyRebase, applyReturn, applyToSea, askLandMove, askRebase, askReturn, askToSea, destroyStranded } from './movement.ts';
import { answerLeave, askLeave, enterArea, holdForLeave } from './ally-leave.ts';
import { scenarioDef, type PackIndex } from './pack-index.ts';
import { applyLiberationCoin, declarations, declare, settleUnsupplied } from './politics.ts';
import { enemy, enterReadOnly, leaveReadOnly, sidePowers } from './query.ts';
import type { Ask, BlitzState, Mode, SideId, StepId, UnitState } from './state.ts';
import { applyBuild, askBuild, income, placeReinforcements, revealBuilds } from './turn-end.ts';
import { endOfGame } from './victory.ts';
import { applyBlitz, askBlitz, choosesBlitz, fixedBudget, italyLeaves, saveOil, scoreTurn } from './economy.ts';
import { applyPassageDie, applyPassagePick, applySeaPick, askPassage, askSeaCombat, clearConvoyDamage, hasSeaCombat } from './sea-combat.ts';
import { applySabotage, applySabotageLosses, askSabotage } from './optional.ts';
import { applyRoadToWar, askRoadToWar } from './road-to-war.ts';
import { fired } from './sections.ts';
import { applyLendLease, askLendLease, turnIncome } from './income.ts';
import { applyFrontier, askFrontier, checkGarrison, startFrontierAttack } from './frontier.ts';
import { applyResearchDie, askResearch } from './research.ts';
import { applyABombTest, askABombTest } from './abomb.ts';
import { applyJapan, askJapan, japanEarlyVp, neutralCap, startJapanQuestion, turnEndMarkers, turnStartEntry } from './neutrality.ts';
import { applyPartisans, askPartisans, checkAlignments, startPartisans } from './minors.ts';
import { applyLoot, askLoot, scoreObjectives } from './victory-points.ts';
import { enterSupplyMemo, leaveSupplyMemo } from './supply.ts';
import { applyAssign, applyCommanderPhase, applyLossDie, askAssign, askCommanderPhase, askLossDie, startCommanderPhase, sweepCommanders } from './commanders.ts';
import { applyDisband, applyHandovers, askDisband, startDisbands } from './specials.ts';
import { moveUnit, putUnit } from './unit-writes.ts';

/** 2.2: which of steps A-F each kind of impulse performs. */
const STEPS: Record<Mode, StepId[]> = {
  activities: ['return', 'to-sea', 'sea-combat', 'rebase', 'land-move', 'announce', 'defend', 'resolve'],
  total: ['return', 'to-sea', 'sea-combat', 'rebase', 'land-move', 'announce', 'defend', 'resolve'],
  land: ['land-move', 'announce', 'defend', 'resolve'],
  air: ['return', 'to-sea', 'sea-combat', 'rebase', 'land-move', 'announce', 'defend', 'resolve'],
  naval: ['return', 'to-sea', 'sea-combat'],
  // 2.2 / A.8: a Free Blitz moves land units and rebases air (Size 4 in all) and never attacks; a sea
  // it sails into sees combat only if the other side wants it (2.2; where there is sea combat at all).
  free: ['return', 'to-sea', 'sea-combat', 'rebase', 'land-move'],
};

const FREE_BLITZ_SIZE = 4;

/** Steps A-F of 2.1 in order. */
const STEP_ORDER: readonly StepId[] = STEPS.activities;

/** Impulses of a turn: 1 Axis activities, 2 Allied activities, 3 Axis Blitz, 4 Allied Blitz, 5 turn end. */
function impulseSide(impulse: number): SideId {
  return impulse % 2 === 1 ? 'Axis' : 'Allies';
}

/** A unit's per-step flags (state.ts), cleared when an impulse begins. */
const STEP_FLAG_NAMES = ['moved', 'rebased', 'toSea', 'committed', 'from'] as const;
const STEP_FLAGS: ReadonlySet<string> = new Set(STEP_FLAG_NAMES);
/** Whether unit `u` carries a step flag (five property tests cost less than a pass over its keys). */
function hasStepFlag(u: UnitState): boolean {
  for (const f of STEP_FLAG_NAMES) if (f in u) return true;
  return false;
}

export function beginImpulse(p: PackIndex, s: BlitzState, impulse: number): void {
  s.impulse = impulse;
  for (const id in s.units) {
    const u = s.units[id]!;
    if (!hasStepFlag(u)) continue;
    // A fresh record without the step's flags, its other members in the same order: deleting them in
    // place would leave every unit that moved a slow (dictionary-mode) object for the rest of the game.
    const fresh: Record<string, unknown> = {};
    for (const k in u) if (!STEP_FLAGS.has(k)) fresh[k] = u[k as keyof UnitState];
    putUnit(s, id, fresh as unknown as UnitState);
  }
  s.attacks = [];
  s.sel = null;
  delete s.nonMotorized; // 9.7: the limit lasts one Blitz
  delete s.leaves; // 1.3: a holder's leave is asked afresh each impulse
  if (impulse === 5) {
    clearShared(s);
    s.step = 'build';
    return;
  }
  s.side = impulseSide(impulse);
  // 3.4: a side whose major powers are all out of the game (or, in F, neutral) has no impulse.
  if (!sidePowers(p, s, s.side).length) return beginImpulse(p, s, impulse + 1);
  if (s.commanders) startCommanderPhase(p, s); // 9.5: its commanders first, as the phase begins
  if (impulse > 2) fired('2.2', s.scenario);
  startFrontierAttack(p, s); // E: the USSR's attack on Harbin, at the start of the Allied activities
  const powers = sidePowers(p, s, s.side);
  if (hasSeaCombat(p, s)) {
    s.seaDone = [];
    s.sea = null;
    s.passage = null;
  }
  if (powers.length > 1) return beginSharedImpulse(p, s, powers);
  clearShared(s);
  s.power = powers[0]!;
  s.mode = impulse <= 2 ? 'activities' : scenarioDef(p, s.scenario).blitz[s.power] ?? 'free';
  s.freeLeft = s.mode === 'free' ? FREE_BLITZ_SIZE : 0;
  // 2.2/C.5: from C on a power picks its Blitz and pays for it first (the mode above is a placeholder).
  s.step = impulse > 2 && choosesBlitz(p, s, s.power) ? 'blitz-choice' : stepsOf(p, s)[0]!;
}

/** Forget the step-by-step bookkeeping of a side of several powers (2.1). */
function clearShared(s: BlitzState): void {
  if (!s.modes) return;
  delete s.modes;
  delete s.freeBy;
  delete s.queue;
  delete s.defender;
  delete s.announceMark;
}

/** The steps of an impulse in `mode`: sea combat only in scenarios that have it (4.4, from C). */
function stepsOf(p: PackIndex, s: BlitzState, mode: Mode = s.mode): readonly StepId[] {
  // C.5: there a Naval Blitz repeats every action but rebasing.
  const all = mode === 'naval' && scenarioDef(p, s.scenario).navalBlitzAllSteps;
  const sea = hasSeaCombat(p, s);
  let lists = STEP_LISTS.get(mode);
  if (!lists) STEP_LISTS.set(mode, (lists = []));
  const k = (all ? 2 : 0) + (sea ? 1 : 0);
  let steps = lists[k];
  if (!steps) {
    const base = all ? STEPS.activities.filter((x) => x !== 'rebase') : STEPS[mode];
    lists[k] = steps = sea ? base : base.filter((x) => x !== 'sea-combat');
  }
  return steps;
}

/** `stepsOf`'s lists, made once (by mode, then C.5's whole Naval Blitz and sea combat as bits): callers only read them. */
const STEP_LISTS = new Map<Mode, (readonly StepId[] | undefined)[]>();

// ---------------------------------------------------------------- sides of several powers (2.1)

/**
 * 2.1/2.2 for a side of several powers: every power announces its Blitz first, then each step (A-F)
 * is done by every power of the side in scenario order before the next step begins; once all attacks
 * are announced the defending side's powers each commit support in turn (5.3).
 */
function beginSharedImpulse(p: PackIndex, s: BlitzState, powers: string[]): void {
  const sc = scenarioDef(p, s.scenario);
  s.modes = {};
  s.freeBy = {};
  s.power = '';
  delete s.defender;
  for (const pw of powers) {
    const mode: Mode = s.impulse <= 2 ? 'activities' : sc.blitz[pw] ?? 'free';
    s.modes[pw] = mode;
    s.freeBy[pw] = mode === 'free' ? FREE_BLITZ_SIZE : 0;
  }
  const choosers = s.impulse > 2 ? powers.filter((pw) => choosesBlitz(p, s, pw)) : [];
  if (choosers.length) {
    s.step = 'blitz-choice';
    s.queue = choosers.slice(1);
    actAs(s, choosers[0]!);
    return;
  }
  startSharedStep(p, s, 0);
}

/** The powers acting in `step`: the side's powers whose mode includes it; for `defend`, the other side's. */
function actorsOf(p: PackIndex, s: BlitzState, step: StepId): string[] {
  if (step === 'defend') return sidePowers(p, s, enemy(s.side));
  return sidePowers(p, s, s.side).filter((pw) => stepsOf(p, s, s.modes![pw]!).includes(step));
}

/** Move to the first step from `STEP_ORDER[from]` on that some power acts in; past the last, the next impulse. */
function startSharedStep(p: PackIndex, s: BlitzState, from: number): void {
  for (let i = from; i < STEP_ORDER.length; i++) {
    const step = STEP_ORDER[i]!;
    // 5.3: support is committed only against announced attacks.
    if (step === 'defend' && !s.attacks.length) continue;
    const actors = actorsOf(p, s, step);
    if (!actors.length) continue;
    s.step = step;
    s.queue = actors.slice(1);
    if (step === 'announce') s.announceMark = commitments(s);
    else delete s.announceMark;
    actAs(s, actors[0]!);
    return;
  }
  delete s.announceMark;
  beginImpulse(p, s, s.impulse + 1);
}

/** How much the side has announced so far: attacks, and units committed to them (5.3). */
function commitments(s: BlitzState): number {
  return s.attacks.reduce((n, a) => n + 1 + a.attackers.length + a.dropped.length, 0);
}

/** Hand the current step to `power` (in `defend`, the defending power), keeping each Free Blitz's Size left. */
function actAs(s: BlitzState, power: string): void {
  if (s.step === 'defend') {
    s.defender = power;
    return;
  }
  delete s.defender;
  if (s.power && s.power in s.freeBy!) s.freeBy![s.power] = s.freeLeft;
  s.power = power;
  s.mode = s.modes![power]!;
  s.freeLeft = s.freeBy![power]!;
}

/** Next power in the step, else the next step (sides of several powers). */
function nextSharedStep(p: PackIndex, s: BlitzState, ev: Events): void {
  if (s.queue!.length) {
    actAs(s, s.queue!.shift()!);
    return;
  }
  // 5.3: the powers of a side announce their combats one at a time, so the turn goes round them
  // again, in scenario order, for as long as a round brought a new attack or unit committed: the
  // AFA may then join the attacks the USA announced after it, as the USA joins the AFA's. A round in
  // which every power passes ends the announcements.
  if (s.step === 'announce' && s.announceMark !== undefined && commitments(s) !== s.announceMark) {
    const actors = actorsOf(p, s, 'announce');
    s.announceMark = commitments(s);
    s.queue = actors.slice(1);
    actAs(s, actors[0]!);
    return;
  }
  if (s.step === 'blitz-choice') startSharedStep(p, s, 0);
  else startSharedStep(p, s, STEP_ORDER.indexOf(s.step) + 1);
  if (s.impulse === 5) startTurnEnd(p, s, ev);
}

function nextStep(p: PackIndex, s: BlitzState, ev: Events): void {
  s.sel = null;
  if (s.step === 'build') return endTurn(p, s, ev);
  if (s.modes) return nextSharedStep(p, s, ev);
  if (s.step === 'defend' && s.queue?.length) {
    // 5.3: the next defending power commits its support (the queue replaced, not changed in place).
    const [next, ...rest] = s.queue;
    s.defender = next!;
    if (rest.length) s.queue = rest;
    else delete s.queue;
    return;
  }
  delete s.queue;
  delete s.defender;
  const steps = stepsOf(p, s);
  const i = steps.indexOf(s.step);
  const next = steps[i + 1];
  if (next) {
    s.step = next;
    if (next === 'defend') {
      // 5.3: every power of the defending side commits support in turn, in scenario order, also when
      // the attacking side is a single power.
      const [first, ...rest] = sidePowers(p, s, enemy(s.side));
      if (first !== undefined) s.defender = first;
      if (rest.length) s.queue = rest;
    }
    return;
  }
  beginImpulse(p, s, s.impulse + 1);
  if (s.impulse === 5) startTurnEnd(p, s, ev);
}

function startTurnEnd(p: PackIndex, s: BlitzState, ev: Events): void {
  const sc = scenarioDef(p, s.scenario);
  s.buildOrder = [];
  s.res = {};
  if (s.turn >= sc.lastTurn) return; // nothing built at the very end
  placeReinforcements(p, s, ev); // A.7
  italyLeaves(p, s, ev); // C.8
  startDisbands(p, s); // D: Second Front
  if (startPartisans(p, s)) return; // 7.1 (5.A): the Partisan roll first; resumeTurnEnd follows it
  resumeTurnEnd(p, s, ev);
}

/** Turn end after the Partisans: neutral entry (7.2, 5.B), then income and the build budgets (5.C). */
function resumeTurnEnd(p: PackIndex, s: BlitzState, ev: Events): void {
  const sc = scenarioDef(p, s.scenario);
  turnEndMarkers(p, s, ev);
  if (sc.areaIncome) {
    s.llStep = true; // 7.4: the givers' secret Lend Lease choices first (advance), then the income
    return;
  }
  if (sc.forcePool.length || Object.keys(sc.offMapIncome).length || sc.fixedIncome || sc.futureAdditions || sc.weaponCharts) {
    // B.7/C.7: builds, Axis power first; choices stay hidden until both are done (1.9).
    for (const pw of [...sc.powers].sort((a, b) => (a.side === b.side ? 0 : a.side === 'Axis' ? -1 : 1))) {
      if (s.out?.includes(pw.id)) continue; // 3.4: out of the game
      s.res[pw.id] = sc.fixedIncome ? fixedBudget(p, s, pw.id) : income(p, s, pw.id);
      s.buildOrder.push(pw.id);
    }
    emit(ev, 'income', `Build resources: ${s.buildOrder.map((x) => `${x} ${s.res[x]}`).join(', ')}`, undefined, { ...s.res });
  }
}

/**
 * D.9/7.6: each power's build budget is its saved Oil and Resources plus this turn's income; the Oil
 * share is remembered so that what is left after the builds is saved as Oil first (D.10).
 */
function areaBudgets(p: PackIndex, s: BlitzState, ev: Events): void {
  const sc = scenarioDef(p, s.scenario);
  const purses = turnIncome(p, s, ev);
  growExtra(p, s, purses);
  // 7.6: the isolated allies this turn, whose units only their own income pays for (turn-end.ts).
  const isolated = [...new Set(Object.values(purses).flatMap((x) => Object.values(x.isolated ?? {})))].sort();
  if (isolated.length) s.isolated = isolated;
  else delete s.isolated;
  const detail: JsonObject = {};
  for (const pw of [...sc.powers].sort((a, b) => (a.side === b.side ? 0 : a.side === 'Axis' ? -1 : 1))) {
    if (s.out?.includes(pw.id)) continue; // 3.4: out of the game: no income, no builds; what it saved waits for its return
    const x = purses[pw.id]!;
    const savedOil = s.oil?.[pw.id] ?? 0;
    const savedRes = s.saved?.[pw.id] ?? 0;
    let oil = savedOil + x.oil;
    let res = savedRes + x.res;
    // 7.7: a neutral major power uses no more than its It's War! box; the rest goes to its civilian economy.
    const cap = neutralCap(s, pw.id);
    if (cap !== undefined) fired('7.7', s.scenario);
    if (cap !== undefined && oil + res > cap) {
      // 7.7, 7.8 example: the limit counts Oil saved as well as Resources spent, so Oil is kept within it
      // first (an Oil does all a Resource does, 7.8) and what is left of it can be saved (saveOil). China's
      // earmarked Resources are spent within the same limit (spentOf).
      const keepOil = Math.min(oil, cap);
      x.lines.limit = cap - oil - res;
      res = Math.min(res, cap - keepOil);
      oil = keepOil;
    }
    (s.budgetOil ??= {})[pw.id] = oil;
    (s.oil ??= {})[pw.id] = 0;
    (s.saved ??= {})[pw.id] = 0;
    s.res[pw.id] = oil + res;
    if (Object.keys(x.earmark).length) (s.earmark ??= {})[pw.id] = { ...x.earmark };
    else if (s.earmark) delete s.earmark[pw.id];
    s.buildOrder.push(pw.id);
    detail[pw.id] = { oil: x.oil, resources: x.res, savedOil, savedResources: savedRes, budget: oil + res, lines: x.lines };
  }
  emit(ev, 'income', `Oil and Resources: ${s.buildOrder.map((x) => `${x} ${purses[x]!.oil} Oil + ${purses[x]!.res} Resources (budget ${s.res[x]})`).join(', ')}`, undefined, detail);
}

/** E: from `growing.fromTurn` the power gets `perTurn` more Resources each turn, cumulative. */
function growExtra(p: PackIndex, s: BlitzState, purses: Record<string, { res: number; lines: Record<string, number> }>): void {
  const x = scenarioDef(p, s.scenario).extraResources;
  const g = x?.growing;
  if (!g || s.turn < g.fromTurn || !purses[x!.power]) return;
  const n = g.perTurn * (s.turn - g.fromTurn + 1);
  purses[x!.power]!.res += n;
  purses[x!.power]!.lines.extra = n;
}

function endTurn(p: PackIndex, s: BlitzState, ev: Events): void {
  saveOil(s); // C.7, before the builds are revealed and the budget forgotten
  if (s.optional) applySabotageLosses(s, ev); // 9.6: results 5 and 6 strike what is saved
  revealBuilds(p, s, ev);
  scoreTurn(p, s, ev); // C: victory points, before Convoy damage is cleared
  japanEarlyVp(p, s, ev); // F: an early Japanese war pays the USA
  scoreObjectives(p, s, ev); // 8: Victory Card objectives (D on)
  clearConvoyDamage(s);
  if (s.factoryDamage) s.factoryDamage = {}; // 7.6 step 6: counted at the income, cleared once the turn is scored
  if (s.winner || s.draw) return;
  s.buildOrder = [];
  const sc = scenarioDef(p, s.scenario);
  if (s.turn >= sc.lastTurn) {
    endOfGame(p, s, ev);
    return;
  }
  s.turn += 1;
  emit(ev, 'turn', `Turn ${s.turn} begins`, undefined, { turn: s.turn });
  applyHandovers(p, s, ev); // D: Second Front
  liberationUnits(p, s, ev); // 3.4: one more set-aside unit for each liberated country
  turnStartEntry(p, s, ev); // 7.2: the war turn brings the neutrals in
  checkAlignments(p, s, ev); // 3.3
  startJapanQuestion(p, s); // F
  beginImpulse(p, s, 1);
}

/** Steps whose question only reads the state, so supply answers can be shared while it is worked out. */
const READ_ONLY: ReadonlySet<StepId> = new Set(['blitz-choice', 'return', 'to-sea', 'rebase', 'land-move', 'announce', 'defend', 'resolve', 'build']);

const NO_DECLARATIONS: readonly string[] = [];

function stepAsk(p: PackIndex, s: BlitzState, ev: Events): Ask | null {
  if (!READ_ONLY.has(s.step)) return rawStepAsk(p, s, ev);
  // As readOnly(s, () => withSupplyMemo(() => rawStepAsk(p, s, ev))), without the two closures per question.
  const ro = enterReadOnly(s);
  const memo = enterSupplyMemo();
  try {
    return rawStepAsk(p, s, ev);
  } finally {
    leaveSupplyMemo(memo);
    leaveReadOnly(ro);
  }
}

function rawStepAsk(p: PackIndex, s: BlitzState, ev: Events): Ask | null {
  switch (s.step) {
    case 'blitz-choice':
      return askBlitz(p, s);
    case 'return':
      return askReturn(p, s);
    case 'to-sea':
      return askToSea(p, s);
    case 'sea-combat':
      return askSeaCombat(p, s, ev);
    case 'rebase':
      return askRebase(p, s);
    case 'land-move': {
      // A.1: war on a neutral minor may be declared while performing actions.
      const decl = s.mode === 'free' ? NO_DECLARATIONS : declarations(p, s);
      return askLandMove(p, s, decl);
    }
    case 'announce':
      return askAnnounce(p, s);
    case 'defend':
      return askDefend(p, s);
    case 'resolve':
      return askResolve(s);
    case 'build':
      return askBuild(p, s);
    case 'over':
      return null;
  }
}

/** Run until a choice is needed; store it in `s.ask`. */
export function advance(p: PackIndex, s: BlitzState, ev: Events): void {
  const frontierRule = scenarioDef(p, s.scenario).frontier !== undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    if (s.unsupplied) settleUnsupplied(p, s, ev); // 3.4: a country held whole that supply now reaches falls
    if (s.winner || s.draw) {
      s.step = 'over';
      s.ask = { kind: 'terminal' };
      s.sel = null;
      s.combat = null;
      return;
    }
    if (s.leaveAsk) {
      s.ask = askLeave(s); // 1.3: a held move waits on the holder of the ally's area it enters
      return;
    }
    if (s.roadToWar) {
      s.ask = askRoadToWar(p, s); // 9.2: before Turn 1
      return;
    }
    if (s.commanders) {
      // 9.5: a loss die owed for damage to a commanded unit comes first, whatever is under way; then a
      // commander whose unit is gone, or whose area fell, goes back; then a commander's unit to name.
      if (s.cmdLoss) {
        s.ask = askLossDie();
        return;
      }
      sweepCommanders(p, s, ev);
      if (s.cmdAssign) {
        s.ask = askAssign(p, s);
        return;
      }
    }
    if (s.loot) {
      s.ask = askLoot(s); // 9.9: the captor answers at once, whatever else is under way
      return;
    }
    if (s.libCoin) {
      s.ask = { kind: 'chance', prompt: 'liberation-coin', stream: 'combat', faces: s.libCoin.powers.length }; // 3.4: a tie for the liberator
      return;
    }
    if (s.standMoves) {
      const q = askStandMove(p, s, ev); // 3.4: units leaving a returned country, their owner picking among equals
      if (q) {
        s.ask = q;
        return;
      }
      continue;
    }
    if (s.releaseAsk) {
      s.ask = askRelease(p, s); // 3.4: the liberator's pick of a set-aside unit
      return;
    }
    if (s.liberation) {
      s.ask = askLiberation(s); // 3.4: the liberator decides at once
      return;
    }
    if (s.homeAsk) {
      s.ask = askNewHome(p, s); // 3.4: at once, too
      return;
    }
    if (s.homePlace) {
      const q = askHomePlace(p, s, ev); // 3.4: units in a country France's fall made neutral, placed in their home country (once it is known)
      if (q) {
        s.ask = q;
        return;
      }
      continue;
    }
    if (s.combat) {
      const q = askCombat(p, s, ev);
      if (s.loot || s.libCoin || s.releaseAsk || s.liberation || s.homeAsk || s.standMoves || s.homePlace) continue; // 9.9, 3.4: a Factory or a country taken in this combat is answered for first
      if (q) {
        s.ask = q;
        return;
      }
      if (s.winner) continue;
      endCombat(s);
      continue;
    }
    if (s.passage) {
      s.ask = askPassage(s)!;
      return;
    }
    if (s.frenchFleetRoll) {
      s.ask = { kind: 'chance', prompt: 'french-fleet-roll', stream: 'combat', faces: 6 }; // 3.4
      return;
    }
    if (s.japanAsk) {
      s.ask = askJapan(p, s);
      return;
    }
    if (s.partisanStep) {
      s.ask = askPartisans(p, s)!;
      return;
    }
    if (s.frontierAttack) {
      const q = askFrontier(p, s, ev);
      if (s.loot || s.releaseAsk || s.liberation || s.homeAsk || s.standMoves || s.homePlace) continue;
      if (q) {
        s.ask = q;
        return;
      }
      continue;
    }
    if (s.research) {
      s.ask = askResearch(p, s);
      return;
    }
    if (s.aBombTest) {
      s.ask = askABombTest(); // 7.8
      return;
    }
    if (s.sabotageRoll) {
      s.ask = askSabotage(p, s); // 9.6
      return;
    }
    if (frontierRule) checkGarrison(p, s, ev); // E: Harbin's garrison, whenever play pauses outside a combat
    if (s.cmdPhase) {
      const q = askCommanderPhase(p, s, ev); // 9.5: the phase's first action
      if (q) {
        s.ask = q;
        return;
      }
      continue;
    }
    if (s.overruns.length) {
      const q = askOverrun(p, s, ev);
      if (q) {
        s.ask = q;
        return;
      }
      continue;
    }
    if (s.disband) {
      const q = askDisband(p, s, ev);
      if (q) {
        s.ask = q;
        return;
      }
      continue;
    }
    if (s.llStep) {
      const q = askLendLease(p, s);
      if (q) {
        s.ask = q;
        return;
      }
      // 7.4, 1.9 (after D's disbands, which come first at the turn end): every choice made; the
      // deliveries (revealed in their events) and 7.6's income.
      delete s.llStep;
      areaBudgets(p, s, ev);
      delete s.llOil;
      continue;
    }
    if (s.step === 'build' && s.buildOrder.length === 0) {
      nextStep(p, s, ev);
      continue;
    }
    if (s.step === 'return' && !s.sel) destroyStranded(p, s, ev); // 4.1: no base at all left to return to
    const q = stepAsk(p, s, ev);
    if (q) {
      s.ask = q;
      return;
    }
    if (s.step === 'build') s.buildOrder.shift();
    else nextStep(p, s, ev);
  }
  throw new Error('Blitz flow did not settle (internal error)');
}

/**
 * 6.6 overrun after a land move took an area: each enemy air or naval unit there goes to the closest
 * area where it can base, the moving side choosing among equals; with none in reach it is destroyed.
 * 1.3: the holder's air and naval units leaving an area an ally entered (`leaving`) move the same way,
 * their owner choosing.
 */
function askOverrun(p: PackIndex, s: BlitzState, ev: Events): Ask | null {
  const id = s.overruns[0]!;
  const u = s.units[id]!;
  const out = s.leaving?.includes(id) ?? false;
  const dest = overrunDestinations(p, s, id);
  if (dest.length > 1) return { kind: 'decision', power: out ? u.power : s.power, prompt: out ? 'rebase-out-destination' : 'overrun-destination', options: dest.map((x) => `to ${x}`) };
  if (dest.length === 1 && holdForLeave(p, s, id, dest[0]!, `to ${dest[0]!}`)) return askLeave(s); // 1.3
  const from = u.at;
  doneOverrun(s, id);
  if (dest.length === 1) {
    if (out) emit(ev, 'rebase-out', `${unitName(p, id)} rebases out of ${landName(p, from)} to ${landName(p, dest[0]!)}`, u.power, { unit: id, from, to: dest[0]! });
    else emit(ev, 'overrun', `${unitName(p, id)} is overrun and moves to ${landName(p, dest[0]!)}`, u.power, { unit: id, to: dest[0]! });
    moveUnit(s, u, dest[0]!);
    enterArea(p, s, id, dest[0]!); // 1.3
  } else {
    if (out) emit(ev, 'rebase-out', `${unitName(p, id)} must rebase out of ${landName(p, from)} but has nowhere to go`, u.power, { unit: id, from });
    else emit(ev, 'overrun', `${unitName(p, id)} is overrun with nowhere to go`, u.power, { unit: id });
    eliminate(p, s, id, ev);
  }
  return null;
}

/** Take `id` off the overrun queue (and off the 1.3 list of units rebasing out). */
function doneOverrun(s: BlitzState, id: string): void {
  s.overruns.shift();
  if (!s.leaving) return;
  s.leaving = s.leaving.filter((x) => x !== id);
  if (!s.leaving.length) delete s.leaving;
}

/** The face of die roll `choice` (`die 1` to `die 6`), or 0 if it is none (as `/^die ([1-6])$/`, without a match array per roll). */
function dieRolled(choice: string): number {
  if (choice.length !== 5 || !choice.startsWith('die ')) return 0;
  const d = choice.charCodeAt(4) - 48;
  return d >= 1 && d <= 6 ? d : 0;
}

/** Apply one decision or die roll to a draft state. */
export function applyChoice(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  const ask = s.ask;
  if (ask.kind === 'terminal') throw new IllegalChoiceError('the game is over');
  if (ask.kind === 'chance') {
    const die = dieRolled(choice);
    if (die === 0 || die > ask.faces) throw new IllegalChoiceError(`'${choice}' is not a die roll`);
    if (s.cmdLoss) {
      applyLossDie(p, s, die, ev); // 9.5
      return;
    }
    if (s.libCoin) {
      applyLiberationCoin(p, s, die, ev); // 3.4
      return;
    }
    if (s.passage) applyPassageDie(p, s, die, ev);
    else if (s.frenchFleetRoll && !s.combat) {
      // 3.4: a ship the Allies keep must leave at once, as an overrun unit does (6.6).
      const leaves = applyFrenchFleetDie(p, s, die, ev, (id) => eliminate(p, s, id, ev));
      if (leaves) s.overruns.push(leaves);
    }
    else if (s.sabotageRoll) applySabotage(p, s, choice, ev);
    else if (s.frontierAttack) applyFrontier(p, s, choice, ev);
    else if (s.partisanStep) {
      if (applyPartisans(p, s, choice, ev)) resumeTurnEnd(p, s, ev);
    }
    else if (s.research) applyResearchDie(p, s, die, ev);
    else if (s.aBombTest) applyABombTest(p, s, die); // 7.8
    else if (s.sea) applySeaPick(p, s, choice, ev);
    else applyCombatPick(p, s, choice, ev);
    return;
  }
  if (!ask.options.includes(choice)) {
    throw new IllegalChoiceError(`'${choice}' is not a legal option for ${ask.prompt}; legal: ${ask.options.slice(0, 8).join(', ')}${ask.options.length > 8 ? ', ...' : ''}`);
  }
  if (s.leaveAsk) {
    // 1.3: the holder's answer; given, the held move goes ahead as chosen; refused, it is asked again
    // without that area (ally-leave.ts).
    const { unit, via } = s.leaveAsk;
    const held = answerLeave(p, s, choice, ev);
    // A combat's retreat or overrun goes back to the combat even if the area's capture has since raised
    // a question of its own (9.9's loot, 3.4's liberation), which is asked next.
    if (held !== null && via === 'combat') applyCombatPick(p, s, held, ev);
    else if (held !== null) applyDecision(p, s, held, ev);
    else afterRefusal(p, s, unit, ev);
    return;
  }
  applyDecision(p, s, choice, ev);
}

/** Apply a decision already checked against the options asked (or a held one the holder allowed, 1.3). */
function applyDecision(p: PackIndex, s: BlitzState, choice: string, ev: Events): void {
  if (s.roadToWar) {
    applyRoadToWar(p, s, choice, ev); // 9.2
    return;
  }
  if (s.cmdAssign) {
    applyAssign(p, s, choice, ev); // 9.5
    return;
  }
  if (s.loot) {
    applyLoot(p, s, choice, ev);
    return;
  }
  if (s.standMoves) {
    applyStandMove(p, s, choice, ev);
    return;
  }
  if (s.releaseAsk) {
    applyRelease(p, s, choice, ev);
    return;
  }
  if (s.liberation) {
    applyLiberation(p, s, choice, ev);
    return;
  }
  if (s.homeAsk) {
    applyNewHome(p, s, choice, ev);
    return;
  }
  if (s.homePlace) {
    applyHomePlace(p, s, choice, ev);
    return;
  }
  if (s.sabotageRoll) {
    applySabotage(p, s, choice, ev);
    return;
  }
  if (s.passage) {
    applyPassagePick(p, s, choice, ev); // 9.8: a TRS lightened after a forced passage
    return;
  }
  if (s.combat) {
    applyCombatPick(p, s, choice, ev);
    return;
  }
  // Before the sea combat's own picks: a unit rebasing out of an area a ship sent back to base entered
  // (1.3) is asked about as soon as it must go, as `advance` does.
  if (s.overruns.length) {
    const id = s.overruns[0]!;
    const to = choice.slice(3);
    if (holdForLeave(p, s, id, to, choice)) return; // 1.3: an ally's area only with its leave
    const from = s.units[id]!.at;
    if (s.leaving?.includes(id)) emit(ev, 'rebase-out', `${unitName(p, id)} rebases out of ${landName(p, from)} to ${landName(p, to)}`, s.units[id]!.power, { unit: id, from, to });
    else emit(ev, 'overrun', `${unitName(p, id)} is overrun and moves to ${landName(p, to)}`, s.units[id]!.power, { unit: id, to });
    doneOverrun(s, id);
    moveUnit(s, s.units[id]!, to);
    enterArea(p, s, id, to); // 1.3: the holder's own air and naval units there rebase out in turn
    return;
  }
  if (s.step === 'sea-combat') {
    applySeaPick(p, s, choice, ev);
    return;
  }
  if (s.disband) {
    applyDisband(p, s, choice, ev);
    return;
  }
  if (s.frontierAttack) {
    applyFrontier(p, s, choice, ev);
    return;
  }
  if (s.japanAsk) {
    applyJapan(p, s, choice, ev);
    return;
  }
  if (s.partisanStep) {
    if (applyPartisans(p, s, choice, ev)) resumeTurnEnd(p, s, ev);
    return;
  }
  if (s.llStep) {
    applyLendLease(s, choice);
    return;
  }
  if (s.cmdPhase) {
    applyCommanderPhase(p, s, choice, ev); // 9.5
    return;
  }
  if (choice.startsWith('declare ')) {
    declare(p, s, choice.slice(8), ev);
    return;
  }
  let done = false;
  switch (s.step) {
    case 'blitz-choice':
      applyBlitz(p, s, choice, ev);
      done = true;
      break;
    case 'return':
      done = applyReturn(p, s, choice, ev);
      break;
    case 'to-sea':
      done = applyToSea(p, s, choice, ev);
      break;
    case 'rebase':
      done = applyRebase(p, s, choice, ev);
      break;
    case 'land-move':
      done = applyLandMove(p, s, choice, ev);
      break;
    case 'announce':
      done = applyAnnounce(p, s, choice, ev);
      break;
    case 'defend':
      done = applyDefend(p, s, choice, ev);
      break;
    case 'resolve':
      applyResolve(p, s, choice, ev);
      break;
    case 'build':
      if (applyBuild(p, s, choice, ev)) s.buildOrder.shift();
      return;
    case 'over':
      throw new IllegalChoiceError('the game is over');
  }
  if (done) nextStep(p, s, ev);
}

