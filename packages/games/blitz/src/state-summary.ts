/**
 * The impulse summary of a Blitz! state (`Game.summarize`), as rules/victory.ts `summarize` gives it
 * (the same figures, members in the same order), with what depends on the scenario alone worked out
 * once per pack and scenario: its powers, its objective areas and the `<power>.<figure>` names of the
 * extra figures (made afresh at every impulse, each such name cost a string and a lookup to use as a
 * key). The runner asks for a summary at every impulse end while a sink stores rows.
 */
import type { Summary } from '@salient/engine';
import { packOf, scenarioDef, type PackIndex } from './rules/pack-index.ts';
import type { BlitzState } from './rules/state.ts';
import { scoresObjectives } from './rules/victory-points.ts';

/** What a scenario's summary counts: per power, its id and the names of its extra figures. */
interface Plan {
  readonly powers: readonly { readonly id: string; readonly objectives: string; readonly units: string; readonly size: string }[];
  /** Objective areas, each worth 10 to the power holding it (A: Paris and Poland; B: Germany's areas). */
  readonly objectives: readonly string[];
}

const plans = new WeakMap<PackIndex, Map<string, Plan>>();

function planOf(p: PackIndex, s: BlitzState): Plan {
  let byScenario = plans.get(p);
  if (!byScenario) plans.set(p, (byScenario = new Map()));
  let plan = byScenario.get(s.scenario);
  if (!plan) {
    const sc = scenarioDef(p, s.scenario);
    // As rules/victory.ts `objectives`: from C on, victory points (or scored objectives) count instead.
    const objectives =
      s.scenario === 'A' ? ['paris', 'poland'] : sc.vp || scoresObjectives(p, s) ? [] : (p.countryLands.get('germany') ?? []).filter((l) => sc.lands.includes(l));
    plan = {
      powers: sc.powers.map((x) => ({ id: x.id, objectives: `${x.id}.objectives`, units: `${x.id}.units`, size: `${x.id}.size` })),
      objectives,
    };
    byScenario.set(s.scenario, plan);
  }
  return plan;
}

export function summarizeBlitz(s: BlitzState): Summary {
  const plan = planOf(packOf(s.pack), s);
  // Object.values and Object.keys list a record in for-in's order (a state's records inherit no
  // members), so the powers come first in the same order, without for-in's check of every key: the
  // records of the larger scenarios are dictionaries, where that check is a lookup. (Object.values
  // of the unit records was slower there than a lookup of each by its key.)
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
