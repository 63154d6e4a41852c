/**
 * `submitTournament`: a tournament plan onto the queue as one BullMQ flow. The parent job (in
 * `salient-tournaments`) completes once every match has finished; each side-swapped pair is one child
 * job (in `salient-matches`) whose id comes from the pair id, so submitting the same plan again adds
 * nothing. Without side swap a pair is one match.
 *
 * One job per pair rather than per match: the queue's own cost (Redis scripts, locks, the hand-over to
 * the sandboxed child) is paid once for two games, which halves it per game; for the cheapest games
 * (random bots, a few ms) that cost is several percent of the work. The price: a worker that dies
 * mid-pair has the whole pair replayed (the telemetry rows' deterministic keys keep the first game's
 * rows one copy), and a pair cannot be split over two workers.
 */
import { FlowProducer } from 'bullmq';
import { SalientError } from '@salient/engine';
import type { PlannedMatch } from '../types.ts';
import { bullConnection, connectRedis } from './connection.ts';
import { MATCH_QUEUE, TOURNAMENT_QUEUE, cancelKey, matchJobId, planKey, stopKey, tournamentJobId } from './names.ts';

/** What the executor needs of a plan (`planTournament` gives more; the rest is stored for status). */
export interface SubmittablePlan {
  tournamentId: string;
  matches: readonly PlannedMatch[];
  specHash?: string;
  spec?: unknown;
}

export interface SubmitOptions {
  /** Redis URL. */
  connection: string;
  /** Tries per match for infrastructure faults (default 3); bad input fails at once. */
  attempts?: number;
  /** First retry delay in ms, doubled each time (default 2000). */
  backoffMs?: number;
}

export interface SubmitReport {
  tournamentId: string;
  matches: number;
  /** Match jobs (one per side-swapped pair). */
  jobs: number;
  /** Matches whose jobs were not on the queue before this call. */
  added: number;
}

/** The job data of a match job: the planned matches of one pair, in plan order. */
export interface MatchJobData {
  tournamentId: string;
  pairId: string;
  matches: PlannedMatch[];
}

/** The plan's matches as match jobs: grouped by pair id, in the order each pair first appears. */
export function matchJobs(matches: readonly PlannedMatch[]): MatchJobData[] {
  const byPair = new Map<string, MatchJobData>();
  for (const m of matches) {
    let job = byPair.get(m.pairId);
    if (!job) byPair.set(m.pairId, (job = { tournamentId: m.tournamentId, pairId: m.pairId, matches: [] }));
    job.matches.push(m);
  }
  return [...byPair.values()];
}

function sameMatches(a: SubmittablePlan, b: SubmittablePlan): boolean {
  return a.matches.length === b.matches.length && a.matches.every((m, i) => m.id === b.matches[i]?.id);
}

/** Put `plan` on the queue. Throws `QUEUE_UNREACHABLE` when Redis cannot be reached, `BAD_ARGUMENT` for a cancelled tournament or
 * one whose id is already taken by a different spec. */
export async function submitTournament(plan: SubmittablePlan, o: SubmitOptions): Promise<SubmitReport> {
  const redis = await connectRedis(o.connection);
  const flow = new FlowProducer({ connection: bullConnection(o.connection) });
  try {
    // Cancelled matches were taken off the queue, so BullMQ would take them as new: refuse instead.
    const cancelled = await redis.get(cancelKey(plan.tournamentId));
    if (cancelled !== null) {
      throw new SalientError(
        'BAD_ARGUMENT',
        `Tournament ${plan.tournamentId} was cancelled at ${cancelled}; it is not run again. Change the spec (which gives a new tournament id) to play it anew.`,
      );
    }
    // Its stop rule decided and its waiting matches were taken off: submitting it again would play them anyway.
    const stopped = await redis.get(stopKey(plan.tournamentId));
    if (stopped !== null) {
      let why = stopped;
      try {
        why = (JSON.parse(stopped) as { reason?: string }).reason ?? stopped;
      } catch {
        // a plain value: shown as it is
      }
      throw new SalientError(
        'BAD_ARGUMENT',
        `Tournament ${plan.tournamentId} was stopped by its stop rule (${why}); nothing is left to play. \`salient tournament status ${plan.tournamentId}\` shows the result; change the spec (a new tournament id) to test anew.`,
      );
    }
    const jobs = matchJobs(plan.matches);
    const there = jobs.length ? ((await redis.pipeline(jobs.map((j) => ['exists', `bull:${MATCH_QUEUE}:${matchJobId(j.pairId)}`])).exec()) ?? []) : [];
    const before = jobs.reduce((n, j, i) => n + (there[i]?.[1] === 1 ? j.matches.length : 0), 0);
    // Stored first and never overwritten: status reads the plan a worker may already be playing.
    const fresh = await redis.set(planKey(plan.tournamentId), JSON.stringify({ ...plan, submittedAt: new Date().toISOString() }), 'NX');
    const stored = fresh === null ? await redis.get(planKey(plan.tournamentId)) : null;
    if (stored !== null) {
      const earlier = JSON.parse(stored) as SubmittablePlan;
      const same = earlier.specHash !== undefined && plan.specHash !== undefined ? earlier.specHash === plan.specHash : sameMatches(earlier, plan);
      if (!same) {
        throw new SalientError(
          'BAD_ARGUMENT',
          `Tournament id '${plan.tournamentId}' is already on this queue with a different spec. Give the changed spec a new id (resubmitting the original unchanged is fine).`,
        );
      }
    }
    await flow.add({
      name: 'tournament',
      queueName: TOURNAMENT_QUEUE,
      data: { tournamentId: plan.tournamentId, matches: plan.matches.length },
      opts: { jobId: tournamentJobId(plan.tournamentId) },
      children: jobs.map((j) => ({
        name: 'match',
        queueName: MATCH_QUEUE,
        data: j,
        opts: {
          jobId: matchJobId(j.pairId),
          attempts: o.attempts ?? 3,
          backoff: { type: 'exponential', delay: o.backoffMs ?? 2000 },
          // A match that fails for good is reported, not a reason to hold up the tournament.
          ignoreDependencyOnFailure: true,
        },
      })),
    });
    return { tournamentId: plan.tournamentId, matches: plan.matches.length, jobs: jobs.length, added: plan.matches.length - before };
  } finally {
    await flow.close();
    redis.disconnect();
  }
}
