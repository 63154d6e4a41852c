/**
 * Victory exactly as each short scenario states it, plus scores for telemetry and adjudication.
 *
 * A (The Blitz of Western Europe): Germany wins the moment it controls Paris and Poland; otherwise the
 * AFA wins at the end of Turn 2.
 * B (The Longest Day): the Western Allies win the moment they conquer Germany (3.4: every German land
 * area in play); otherwise Germany wins when Turn 11 ends.
 */
import type { GameMeasures, GameResult, Summary } from '@salient/engine';
import { emit, type Events } from './events.ts';
import { scenarioDef, type PackIndex } from './pack-index.ts';
import { heldBySide, onMap } from './query.ts';
import type { BlitzState, SideId } from './state.ts';
import { isConquered } from './politics.ts';
import { bestOfSide, decideByPoints, scoresObjectives } from './victory-points.ts';

const held = heldBySide;

export function checkImmediateVictory(p: PackIndex, s: BlitzState, ev: Events): void {
  if (s.winner) return;
  if (s.scenario === 'A' && held(p, s, 'paris', 'Axis') && held(p, s, 'poland', 'Axis')) {
    win(s, 'Axis', `Germany controls Paris and Poland on Turn ${s.turn} (Scenario A victory)`, ev);
  }
  if (s.scenario === 'B' && isConquered(p, s, 'germany', 'Allies')) {
    win(s, 'Allies', `the Western Allies conquered Germany on Turn ${s.turn} (Scenario B victory)`, ev);
  }
}

/** Victory points of a side (C): the sum over its powers. */
function sideVp(p: PackIndex, s: BlitzState, side: SideId): number {
  return scenarioDef(p, s.scenario).powers.filter((x) => x.side === side).reduce((t, x) => t + (s.vp?.[x.id] ?? 0), 0);
}

/** End of the last turn: the side the scenario names wins (A: AFA; B: Germany; C: more victory points, equal a draw). */
export function endOfGame(p: PackIndex, s: BlitzState, ev: Events): void {
  if (s.winner || s.draw) return;
  if (scoresObjectives(p, s)) return decideByPoints(p, s, ev, `Turn ${s.turn} is complete`);
  if (scenarioDef(p, s.scenario).vp) {
    const axis = sideVp(p, s, 'Axis');
    const allies = sideVp(p, s, 'Allies');
    const tally = `Axis ${axis}, Allies ${allies} victory points after Turn ${s.turn} (Scenario ${s.scenario} victory)`;
    if (axis === allies) {
      s.draw = true;
      s.reason = tally;
      emit(ev, 'victory', `Draw: ${tally}`, undefined, { side: 'draw', reason: s.reason });
    } else win(s, axis > allies ? 'Axis' : 'Allies', tally, ev);
    return;
  }
  if (s.scenario === 'A') win(s, 'Allies', 'Germany did not hold both Paris and Poland by the end of Turn 2 (Scenario A victory)', ev);
  else win(s, 'Axis', `Germany was not conquered by the end of Turn ${scenarioDef(p, s.scenario).lastTurn} (Scenario B victory)`, ev);
}

function win(s: BlitzState, side: SideId, reason: string, ev: Events): void {
  s.winner = side;
  s.reason = reason;
  emit(ev, 'victory', `${side} win: ${reason}`, undefined, { side, reason });
}

/** The objective areas each scenario turns on (none in C, which scores victory points). */
function objectives(p: PackIndex, s: BlitzState): string[] {
  if (s.scenario === 'A') return ['paris', 'poland'];
  if (scenarioDef(p, s.scenario).vp || scoresObjectives(p, s)) return [];
  return (p.countryLands.get('germany') ?? []).filter((l) => scenarioDef(p, s.scenario).lands.includes(l));
}

/**
 * What {@link scores}, {@link summarize} and the margin of {@link resultOf} count, in the words the
 * dashboards show. Keep it in step with them: the impulse summary leaves victory points out.
 */
export const BLITZ_MEASURES: GameMeasures = {
  score: {
    name: 'score (objectives × 10 + unit Size)',
    description:
      "Salient's score for a Blitz! power, not victory points: 10 for each objective area it holds (A: Paris and Poland; B: Germany's areas) plus the total Size of its units on the map. " +
      "From Scenario C on, the final score counts 10 per victory point instead of objective areas; the impulse-by-impulse score leaves victory points out, so there it is the Size of the power's units alone.",
  },
  margin: {
    name: 'margin (objectives or victory points)',
    description:
      "How far apart the sides ended, never negative and 0 for a draw: the difference in objective areas held (A: Paris and Poland; B: Germany's areas), in victory points (C), or between the victory points of each side's leading power (D to F and the full game). " +
      'A decided game can have margin 0 (in A, Germany holding Poland but not Paris loses by 0).',
  },
};

/**
 * Per-power score: objective areas held (A: Paris and Poland; B: German areas) times 10, plus the
 * Size of units on the map. The margin is the difference in objective areas held.
 */
export function scores(p: PackIndex, s: BlitzState): Record<string, number> {
  const out: Record<string, number> = {};
  const obj = objectives(p, s);
  for (const pw of scenarioDef(p, s.scenario).powers) {
    const areas = obj.filter((l) => s.control[l] === pw.id).length;
    const size = onMap(s).filter(([, u]) => u.power === pw.id).reduce((a, [, u]) => a + u.size, 0);
    // C: victory points weigh like objective areas do elsewhere.
    out[pw.id] = (areas + (s.vp?.[pw.id] ?? 0)) * 10 + size;
  }
  return out;
}

function objectiveCount(p: PackIndex, s: BlitzState, side: SideId): number {
  return objectives(p, s).filter((l) => held(p, s, l, side)).length;
}

export function resultOf(p: PackIndex, s: BlitzState, winner: SideId, reason: string): GameResult {
  const loser: SideId = winner === 'Axis' ? 'Allies' : 'Axis';
  return {
    sides: { [winner]: 'win', [loser]: 'loss' },
    scores: scores(p, s),
    margin: scoresObjectives(p, s) ? Math.abs(bestOfSide(p, s, 'Axis') - bestOfSide(p, s, 'Allies')) : scenarioDef(p, s.scenario).vp ? Math.abs(sideVp(p, s, 'Axis') - sideVp(p, s, 'Allies')) : Math.abs(objectiveCount(p, s, 'Axis') - objectiveCount(p, s, 'Allies')),
    reason,
  };
}

/** A drawn end (C: equal victory points). */
export function drawResult(p: PackIndex, s: BlitzState, reason: string): GameResult {
  return { sides: { Axis: 'draw', Allies: 'draw' }, scores: scores(p, s), margin: 0, reason };
}

/** Adjudication when a match is stopped early: the scenario's own rule applied to the current position. */
export function adjudicate(p: PackIndex, s: BlitzState): GameResult {
  if (s.winner) return resultOf(p, s, s.winner, s.reason);
  if (s.draw) return drawResult(p, s, s.reason);
  if (scoresObjectives(p, s)) {
    const axis = bestOfSide(p, s, 'Axis');
    const allies = bestOfSide(p, s, 'Allies');
    const why = `stopped on Turn ${s.turn} with the leading Axis power on ${axis} and the leading Allied power on ${allies} VP; under Scenario ${s.scenario} the most VP wins`;
    return axis === allies ? drawResult(p, s, why) : resultOf(p, s, axis > allies ? 'Axis' : 'Allies', why);
  }
  if (scenarioDef(p, s.scenario).vp) {
    const axis = sideVp(p, s, 'Axis');
    const allies = sideVp(p, s, 'Allies');
    const why = `stopped on Turn ${s.turn} with Axis ${axis}, Allies ${allies} victory points; under Scenario ${s.scenario} the side with more wins`;
    return axis === allies ? drawResult(p, s, why) : resultOf(p, s, axis > allies ? 'Axis' : 'Allies', why);
  }
  if (s.scenario === 'A') {
    return resultOf(p, s, 'Allies', `stopped on Turn ${s.turn} with Germany not holding both Paris and Poland; under Scenario A the AFA win`);
  }
  return resultOf(p, s, 'Axis', `stopped on Turn ${s.turn} with Germany not conquered; under Scenario B Germany wins`);
}

/** What a scenario's summary counts: per power, its id and the names of its extra figures; the objective areas. */
interface SummaryPlan {
  readonly powers: readonly { readonly id: string; readonly objectives: string; readonly units: string; readonly size: string }[];
  readonly objectives: readonly string[];
}

const summaryPlans = new WeakMap<PackIndex, Map<string, SummaryPlan>>();

/** The summary's plan of `s`'s scenario, made once per pack and scenario (all it reads is the scenario's). */
function summaryPlan(p: PackIndex, s: BlitzState): SummaryPlan {
  let byScenario = summaryPlans.get(p);
  if (!byScenario) summaryPlans.set(p, (byScenario = new Map()));
  let plan = byScenario.get(s.scenario);
  if (!plan) {
    const powers = scenarioDef(p, s.scenario).powers.map((x) => ({ id: x.id, objectives: `${x.id}.objectives`, units: `${x.id}.units`, size: `${x.id}.size` }));
    plan = { powers, objectives: objectives(p, s) };
    byScenario.set(s.scenario, plan);
  }
  return plan;
}

/**
 * Telemetry summary at the end of an impulse: scores as above, land areas controlled by power, and
 * per power the objective areas held, units on the map and their total Size.
 */
export function summarize(p: PackIndex, s: BlitzState): Summary {
  // Called at every impulse end when telemetry is on: one pass over the units (sums need no order),
  // the same figures as `scores` and `onMap` give. Object.values and Object.keys list a record in
  // for-in's order (a state's records inherit nothing) without for-in's check of every key, a lookup
  // in the larger scenarios' records, which are dictionaries.
  const plan = summaryPlan(p, s);
  const control: Record<string, number> = {};
  const holders = Object.values(s.control);
  for (let i = 0; i < holders.length; i++) {
    const c = holders[i] as string;
    if (c !== 'neutral') control[c] = (control[c] ?? 0) + 1;
  }
  const units: Record<string, number> = {};
  const size: Record<string, number> = {};
  const ids = Object.keys(s.units);
  for (let i = 0; i < ids.length; i++) {
    const u = s.units[ids[i] as string]!;
    if (u.at === 'pool' || u.at === 'gone') continue;
    units[u.power] = (units[u.power] ?? 0) + 1;
    size[u.power] = (size[u.power] ?? 0) + u.size;
  }
  const extra: Record<string, number> = {};
  const scoreOf: Record<string, number> = {};
  const obj = plan.objectives;
  for (const pw of plan.powers) {
    let held = 0;
    for (const l of obj) if (s.control[l] === pw.id) held++;
    extra[pw.objectives] = held;
    extra[pw.units] = units[pw.id] ?? 0;
    extra[pw.size] = size[pw.id] ?? 0;
    scoreOf[pw.id] = held * 10 + (size[pw.id] ?? 0);
  }
  return { scores: scoreOf, control, extra };
}
