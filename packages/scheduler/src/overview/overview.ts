/**
 * What a tournament is and how it stands, read the same way by every reader (the CLI's `tournament
 * list` and `status`, the API's list and page): from the queue when it is on one and Redis is given
 * (the workers' own view: job states, and the outcomes they fed their stop rule), else from the
 * telemetry store (its runner's record, its recorded matches against its planned spec). The state and
 * its reason come from `tournamentState`, the SPRT from `replayStopRule`, the results from
 * `tournamentResults`, so two readers of one source cannot disagree.
 */
import { SalientError } from '@salient/engine';
import type { Telemetry, TelemetryFilter, TournamentSummary } from '@salient/telemetry';
import { planTournament } from '../plan.ts';
import { resultsContextOf, tournamentResults, type TournamentResults } from '../results.ts';
import { tournamentState, type StateFacts, type TournamentState } from '../state.ts';
import { replayStopRule, type SprtStatus, type StopDecision } from '../stop-rule.ts';
import type { MatchOutcome, TournamentPlan, TournamentSpec } from '../types.ts';
import type { TournamentStatus } from '../bullmq/status.ts';

// The queue's reader (BullMQ, ioredis) and the local pool's module (worker threads, the bundler) load
// only when a reader needs them: `salient tournament list` without --redis reads the store alone, and
// a tournament without an SPRT or results to show needs no recorded outcomes.
const queueStatus = () => import('../bullmq/status.ts');
const localPool = () => import('../local/local-pool.ts');

/** The SPRT as it stands and what it decided (as the executor that ran it decided). */
export interface SprtReport extends SprtStatus {
  /** The hypothesis accepted (latched when the LLR first reached a bound, in plan order). */
  accepted?: 'H0' | 'H1';
  /** Why the rule stopped the tournament: accepted, or the plan ran out. */
  reason?: string;
}

/** Match counts, as the source has them. */
export interface OverviewCounts {
  planned: number;
  /** Finished with a result or an engine error (cancelled matches are not done). */
  done: number;
  /** Of the done: forfeited, ended in an engine error. */
  forfeits: number;
  errors: number;
  /** Failed for good without being played (queue jobs). */
  failed: number;
  /** Being played now (the queue's count; a local run's is not kept). */
  running: number;
  /** Not handed out yet. */
  waiting: number;
  /** Never to be played: taken off by a cancel or a stop rule, or left when a run stopped. */
  unplayed: number;
}

export interface TournamentOverview {
  id: string;
  name?: string;
  game: string;
  /** `local` (a pool on one machine), `queue` (workers), `unknown` (matches with no runner's record). */
  executor: 'local' | 'queue' | 'unknown';
  state: TournamentState;
  /** `<state>: <why>`, one line (see `tournamentState`). */
  reason: string;
  /** Where the figures come from: the queue (Redis) or the store. */
  source: 'queue' | 'store';
  counts: OverviewCounts;
  /** ISO times ('' when unknown): when it was started or submitted, and its latest sign of life. */
  startedAt: string;
  lastActivity: string;
  sprt?: SprtReport;
  /** With `detail`: the finished matches' outcomes (plan order) and the results drawn from them. */
  outcomes?: MatchOutcome[];
  results?: TournamentResults;
  /** The store's summary of it, where the store was read and has it. */
  summary?: TournamentSummary;
  /** The queue's status of it, when read from the queue (failed jobs with reasons, worker spools). */
  queue?: TournamentStatus;
  /** What could not be read (a queue that did not answer, a spec that cannot be planned here). */
  notes: string[];
}

export interface OverviewOptions {
  /** The store; without it only the queue is read. */
  telemetry?: Telemetry;
  /** Redis URL of the queue; without it only the store is read. */
  redis?: string;
  /** Also read the outcomes and draw the results (pairings, cross-table, by scenario). */
  detail?: boolean;
  /** A local run recorded as running and not heard of for this long is taken as dead (default 120 000 ms). */
  stalledAfterMs?: number;
  /** Plans made from stored specs, kept between calls (see `planCache`). */
  plans?: PlanCache;
  /** Stored specs read already, by tournament id (one absent: it has none); without it each is read. */
  specs?: ReadonlyMap<string, { spec: unknown; specHash: string }>;
}

/** Plans of stored specs, by id and spec hash, the last `keep` of them (planning resolves the pack: a few ms). */
export interface PlanCache {
  get(id: string, specHash: string, spec: TournamentSpec): Promise<TournamentPlan>;
}

export function planCache(keep = 16): PlanCache {
  const plans = new Map<string, Promise<TournamentPlan>>();
  return {
    get(id, specHash, spec) {
      const key = `${id}\n${specHash}`;
      let p = plans.get(key);
      if (!p) {
        p = planTournament(spec);
        plans.set(key, p);
        p.catch(() => plans.delete(key));
        if (plans.size > keep) plans.delete(plans.keys().next().value as string);
      }
      return p;
    },
  };
}

/** Default of `stalledAfterMs`: four missed heartbeats of a local run. */
export const STALLED_AFTER_MS = 120_000;

const unknownTournament = (id: string, o: OverviewOptions) =>
  new SalientError(
    'UNKNOWN_TOURNAMENT',
    `No tournament '${id}' ${o.telemetry && o.redis ? 'in the store or on the queue' : o.redis ? 'on the queue' : 'in the store'}. \`salient tournament list\` lists them${o.redis ? '' : ' (with --redis URL, those on a queue too)'}.`,
  );

/**
 * Tournament `id` as its source has it (see the file comment). Throws `UNKNOWN_TOURNAMENT` when
 * neither the queue nor the store knows it; a queue that does not answer is a note when the store
 * has the tournament, else its error (`QUEUE_UNREACHABLE`).
 */
export async function tournamentOverview(id: string, o: OverviewOptions): Promise<TournamentOverview> {
  const summary = o.telemetry ? (await o.telemetry.tournaments({ tournament: id }, 1))[0] : undefined;
  const r = await overviewOf(id, summary, o);
  if (!r) throw unknownTournament(id, o);
  return r;
}

/**
 * Every tournament the store or the queue knows (the store's filtered by `filter`, the queue's only
 * when the filter names no more than the game or the tournament), latest activity first, at most `limit`.
 */
export async function listTournaments(o: OverviewOptions & { filter?: TelemetryFilter; limit?: number }): Promise<TournamentOverview[]> {
  const filter = o.filter ?? {};
  const limit = o.limit ?? 100;
  const summaries = o.telemetry ? await o.telemetry.tournaments(filter, limit) : [];
  const notes: string[] = [];
  let queued: string[] = [];
  const onlyGameOrId = Object.entries(filter).every(([k, v]) => v === undefined || k === 'game' || k === 'tournament');
  if (o.redis && onlyGameOrId) {
    try {
      queued = await (await queueStatus()).queuedTournamentIds(o.redis);
    } catch (e) {
      if (!(e instanceof SalientError) || !o.telemetry) throw e;
      notes.push(`the queue did not answer: ${e.message}`);
    }
  }
  const known = new Set(summaries.map((s) => s.id));
  const ids = [...summaries.map((s) => s.id), ...queued.filter((q) => !known.has(q) && (filter.tournament === undefined || q === filter.tournament))];
  const out: TournamentOverview[] = [];
  // The specs of the store's tournaments in one query, rather than one a tournament.
  const specs = o.telemetry && summaries.length ? await o.telemetry.tournamentSpecs(summaries.map((s) => s.id)) : undefined;
  const byId = new Map(summaries.map((s) => [s.id, s]));
  // A few at a time: each may read an SPRT's matches, or a queue's jobs.
  for (let i = 0; i < ids.length; i += 8) {
    const views = await Promise.all(ids.slice(i, i + 8).map((id) => overviewOf(id, byId.get(id), { ...o, detail: false, ...(specs ? { specs } : {}) })));
    for (const v of views) {
      if (!v || (filter.game !== undefined && v.game !== filter.game)) continue;
      v.notes.push(...notes);
      out.push(v);
    }
  }
  return out.sort((a, b) => b.lastActivity.localeCompare(a.lastActivity) || a.id.localeCompare(b.id)).slice(0, limit);
}

async function overviewOf(id: string, summary: TournamentSummary | undefined, o: OverviewOptions): Promise<TournamentOverview | undefined> {
  const notes: string[] = [];
  // The queue first when the tournament is (or may be) on one: its workers' view is the live one.
  if (o.redis && (summary === undefined || summary.executor === 'queue')) {
    try {
      const status = await (await queueStatus()).tournamentStatus(id, { connection: o.redis });
      return fromQueue(status, summary, o, notes);
    } catch (e) {
      if (!(e instanceof SalientError)) throw e;
      if (e.code !== 'UNKNOWN_TOURNAMENT') {
        if (!summary) throw e;
        notes.push(`the queue did not answer (${e.message}); figures from the store`);
      }
    }
  }
  if (!summary) return undefined;
  return fromStore(summary, o, notes);
}

/** The overview of a queue tournament from its status (what `tournamentOverview` does with the queue's answer). */
export function overviewOfQueueStatus(s: TournamentStatus, o: Pick<OverviewOptions, 'detail'> = {}, summary?: TournamentSummary): TournamentOverview {
  return fromQueue(s, summary, o, []);
}

function fromQueue(s: TournamentStatus, summary: TournamentSummary | undefined, o: Pick<OverviewOptions, 'detail'>, notes: string[]): TournamentOverview {
  const c = s.counts;
  const done = c.completed;
  const problems = { forfeits: 0, errors: 0 };
  for (const x of s.outcomes) {
    if (x.kind === 'forfeit') problems.forfeits++;
    else if (x.kind === 'error') problems.errors++;
  }
  const failed = { infrastructure: 0, input: 0 };
  for (const f of s.failed) {
    if (f.fault === 'match') failed.input++;
    else if (f.fault !== 'cancelled') failed.infrastructure++;
  }
  const open = c.waiting + c.active + c.delayed;
  const sprt = sprtReport(s.stop, s.stopDecision);
  const facts: StateFacts = {
    planned: c.total,
    done,
    running: c.active,
    waiting: c.waiting + c.delayed,
    failed,
    ...problems,
    open: open > 0,
    started: c.active + c.completed + c.failed > 0,
    cancelled: s.cancelledAt !== undefined,
    ...(sprt ? { sprt: { pairs: sprtPairs(s.stopDecision, s.stop), ...(sprt.accepted ? { accepted: sprt.accepted } : {}) } } : {}),
  };
  let { state, reason } = tournamentState(facts);
  // The workers' stop record without a decision in the outcomes read here (their writes lag): trust it.
  if (s.stopped && state !== 'stopped') ({ state, reason } = { state: 'stopped', reason: `stopped: ${s.stopped.reason}` });
  const spec = s.spec;
  const overview: TournamentOverview = {
    id: s.tournamentId,
    ...((spec?.name ?? summary?.name) !== undefined ? { name: (spec?.name ?? summary?.name) as string } : {}),
    game: spec?.game ?? summary?.game ?? '',
    executor: 'queue',
    state,
    reason,
    source: 'queue',
    counts: { planned: c.total, done, ...problems, failed: c.failed, running: c.active, waiting: c.waiting + c.delayed, unplayed: Math.max(0, c.total - done - c.failed - open) },
    startedAt: s.submittedAt ?? summary?.firstStartedAt ?? '',
    lastActivity: latest(s.lastActivity, s.submittedAt, summary?.lastEndedAt, summary?.updatedAt),
    ...(sprt ? { sprt } : {}),
    ...(summary ? { summary } : {}),
    queue: s,
    notes,
  };
  if (o.detail) {
    overview.outcomes = s.outcomes;
    overview.results = tournamentResults(s.outcomes, spec ? resultsContextOf(spec) : { entrants: s.entrants });
  }
  return overview;
}

async function fromStore(summary: TournamentSummary, o: OverviewOptions, notes: string[]): Promise<TournamentOverview> {
  const t = o.telemetry as Telemetry;
  const executor = summary.executor === 'local' || summary.executor === 'queue' ? summary.executor : 'unknown';
  const kinds = summary.kinds;
  const done = summary.matches - (kinds.cancelled ?? 0);
  const planned = summary.planned ?? done;
  const stored = o.specs ? o.specs.get(summary.id) : await t.tournamentSpec(summary.id);
  const spec = stored?.spec as TournamentSpec | undefined;
  // Outcomes need the plan (they are keyed by entrant names, which the store's match rows do not hold).
  const wantOutcomes = o.detail === true || spec?.stop?.rule === 'sprt';
  let plan: TournamentPlan | undefined;
  if (stored && spec && wantOutcomes) {
    try {
      plan = await (o.plans ?? planCache(1)).get(summary.id, stored.specHash, spec);
    } catch (e) {
      // Its pack directory may be on another machine: the rest of the overview stands.
      notes.push(`its stored spec cannot be planned here (${e instanceof Error ? e.message : String(e)}), so its SPRT and results by entrant are not shown`);
    }
  }
  const outcomes = plan ? await (await localPool()).recordedOutcomes(t, plan) : undefined;
  const replayed = plan && outcomes && plan.spec.stop.rule === 'sprt' ? replayStopRule(plan, outcomes) : undefined;
  const sprt = sprtReport(replayed?.status, replayed?.decision);

  const heardOf = Math.max(Date.parse(summary.updatedAt ?? '') || 0, Date.parse(summary.lastEndedAt) || 0);
  const stalled = executor === 'local' && summary.state === 'running' && Date.now() - heardOf > (o.stalledAfterMs ?? STALLED_AFTER_MS);
  const runningLocally = executor === 'local' && summary.state === 'running' && !stalled;
  // A queue tournament read from the store alone: open until every planned match is recorded.
  const openOnQueue = executor === 'queue' && done < planned;
  const open = runningLocally || openOnQueue;
  const runFailed =
    stalled
      ? `its runner has not been heard of since ${new Date(heardOf).toISOString()} (killed or hung), after ${done} of ${planned} matches; run it again to resume`
      : executor === 'local' && summary.state === 'failed'
        ? `its run stopped on an error after ${done} of ${planned} matches (the run's output says which); run it again to resume`
        : undefined;
  const facts: StateFacts = {
    planned,
    done,
    running: 0,
    waiting: open ? planned - done : 0,
    failed: { infrastructure: 0, input: 0 },
    forfeits: kinds.forfeit ?? 0,
    errors: kinds.error ?? 0,
    open,
    started: executor !== 'queue' || done > 0,
    cancelled: summary.state === 'cancelled',
    ...(sprt ? { sprt: { pairs: sprtPairs(replayed?.decision, replayed?.status), ...(sprt.accepted ? { accepted: sprt.accepted } : {}) } } : {}),
    ...(runFailed ? { runFailed } : {}),
  };
  const { state, reason } = tournamentState(facts);
  if (executor === 'queue') notes.push('read from the store only (the queue was not asked): matches still in worker spools are not counted');
  const overview: TournamentOverview = {
    id: summary.id,
    ...(summary.name ? { name: summary.name } : {}),
    game: summary.game,
    executor,
    state,
    reason,
    source: 'store',
    counts: { planned, done, forfeits: facts.forfeits, errors: facts.errors, failed: 0, running: 0, waiting: facts.waiting, unplayed: open ? 0 : Math.max(0, planned - done) },
    startedAt: summary.firstStartedAt,
    lastActivity: latest(summary.lastEndedAt, summary.updatedAt),
    ...(sprt ? { sprt } : {}),
    summary,
    notes,
  };
  if (o.detail && outcomes) {
    overview.outcomes = [...outcomes].sort((a, b) => a.index - b.index);
    overview.results = tournamentResults(outcomes, resultsContextOf((plan as TournamentPlan).spec));
  } else if (o.detail && !plan && !notes.some((n) => n.startsWith('its stored spec'))) {
    notes.push('no spec is stored for it, so its results by entrant are not shown');
  }
  return overview;
}

function sprtReport(status: SprtStatus | undefined, decision: StopDecision | undefined): SprtReport | undefined {
  if (status?.rule !== 'sprt') return undefined;
  return { ...status, ...(decision?.accepted ? { accepted: decision.accepted } : {}), ...(decision?.stop && decision.reason ? { reason: decision.reason } : {}) };
}

/** Pairs the decision was taken on (latched with it), else the pairs counted now. */
function sprtPairs(decision: StopDecision | undefined, status: SprtStatus | undefined): number {
  return decision?.pairs ?? status?.pairs ?? 0;
}

function latest(...times: (string | undefined)[]): string {
  return times.filter((t): t is string => typeof t === 'string' && t !== '').sort().at(-1) ?? '';
}

