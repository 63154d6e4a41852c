/**
 * The SPRT of a tournament whose spec says `stop: sprt`, as it stands in the store: the tournament's
 * plan (from the spec its record carries) and its recorded matches, fed to the same stop rule the
 * local pool runs, in plan order, so the decision reported here is the one the run made (or will
 * make: a running tournament's test is reported live). Works for queue tournaments too, whose workers
 * record their matches in the same store.
 */
import type { FastifyBaseLogger } from 'fastify';
import { planTournament, replayStopRule, type SprtStatus, type TournamentPlan, type TournamentSpec } from '@salient/scheduler';
import { recordedOutcomes } from '@salient/scheduler/local';
import type { Telemetry } from '@salient/telemetry';

/** The test as it stands, and whether it has stopped the tournament. */
export interface SprtReport extends Omit<SprtStatus, 'pentanomial'> {
  pentanomial: number[];
  /** The hypothesis accepted (once accepted, a local run hands out no more matches). */
  accepted?: 'H0' | 'H1';
  /** Why the rule stopped: accepted, or the plan ran out first. */
  reason?: string;
}

/**
 * A reader of SPRT reports that keeps the last few plans it made (planning resolves the pack: a few ms).
 * Undefined for a tournament without `stop: sprt`, without a stored spec, or whose spec cannot be
 * planned here (its pack directory is on another machine: logged, not an error for the page).
 */
export function sprtReader(log?: FastifyBaseLogger, keep = 16): (t: Telemetry, id: string) => Promise<SprtReport | undefined> {
  const plans = new Map<string, Promise<TournamentPlan>>();
  return async (t, id) => {
    const stored = await t.tournamentSpec(id);
    const spec = stored?.spec as Partial<TournamentSpec> | undefined;
    if (!stored || spec?.stop?.rule !== 'sprt') return undefined;
    const key = `${id}\n${stored.specHash}`;
    let planned = plans.get(key);
    if (!planned) {
      planned = planTournament(spec as TournamentSpec);
      plans.set(key, planned);
      if (plans.size > keep) plans.delete(plans.keys().next().value as string);
    }
    let plan: TournamentPlan;
    try {
      plan = await planned;
    } catch (e) {
      plans.delete(key);
      log?.warn({ tournament: id, err: e }, 'cannot plan the stored spec of an SPRT tournament; its test is not reported');
      return undefined;
    }
    const { decision, status } = replayStopRule(plan, await recordedOutcomes(t, plan));
    if (!status || status.rule !== 'sprt') return undefined;
    const report: SprtReport = { ...status, pentanomial: [...status.pentanomial], ...(decision.accepted ? { accepted: decision.accepted } : {}), ...(decision.stop && decision.reason ? { reason: decision.reason } : {}) };
    return finite(report);
  };
}

/** `x` with every non-finite number (an Elo of +inf when every pair went one way) as null, for JSON. */
function finite<T>(x: T): T {
  return JSON.parse(JSON.stringify(x, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v))) as T;
}
