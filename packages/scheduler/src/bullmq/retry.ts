/**
 * `retryTournament`: play again what a submitted tournament did not finish. Submitting the same spec
 * again adds nothing (its job ids are taken), so a match whose job failed for good (its worker died
 * more often than the stall limit allows, a crash on every attempt) or that a cancel took off the
 * queue needs its own way back: this puts each such job on the queue again under its deterministic
 * id, with fresh attempts. Games already recorded are not touched: a batch put back plays only the
 * games it has not recorded (see processor.ts).
 */
import { Job, Queue } from 'bullmq';
import { SalientError } from '@salient/engine';
import type { MatchOutcome } from '../types.ts';
import { bullConnection, connectRedis } from './connection.ts';
import { MATCH_QUEUE, cancelKey, matchJobId, planKey, recordedKey, stopKey } from './names.ts';
import { planJobs, type MatchJobData, type StoredPlan } from './submit.ts';

export interface RetryOptions {
  /** Redis URL. */
  connection: string;
  /** Tries per re-queued job for infrastructure faults (default: as the tournament's other jobs, else 3). */
  attempts?: number;
}

export interface RetryReport {
  tournamentId: string;
  /** Matches put back on the queue. */
  requeued: number;
  /** Of which: in jobs that had failed for good. */
  failed: number;
  /** Of which: cancelled (taken off the queue, or aborted while running). */
  cancelled: number;
  /** The tournament had been cancelled: it is not any more. */
  uncancelled: boolean;
}

/**
 * Re-queue tournament `id`'s failed and cancelled matches. Throws `UNKNOWN_TOURNAMENT`,
 * `QUEUE_UNREACHABLE`, or `BAD_ARGUMENT` for a tournament its stop rule ended (its test decided:
 * playing more would not change the verdict).
 */
export async function retryTournament(id: string, o: RetryOptions): Promise<RetryReport> {
  const redis = await connectRedis(o.connection);
  const queue = new Queue(MATCH_QUEUE, { connection: bullConnection(o.connection) });
  try {
    const raw = await redis.get(planKey(id));
    if (raw === null) {
      throw new SalientError('UNKNOWN_TOURNAMENT', `No tournament '${id}' on this queue. Check the id printed by \`salient tournament submit\`, and that --redis points at the same Redis.`);
    }
    if ((await redis.get(stopKey(id))) !== null) {
      throw new SalientError(
        'BAD_ARGUMENT',
        `Tournament ${id} was stopped by its stop rule: its test decided, and more games would not change the verdict. \`salient tournament status ${id}\` shows it; change the spec (a new tournament id) to test anew.`,
      );
    }
    const plan = JSON.parse(raw) as StoredPlan;
    const jobs = planJobs(plan);
    const recorded = new Set(await redis.hkeys(recordedKey(id)));
    // Lift the cancel first: a worker that took a re-queued job would otherwise abort it at once.
    const uncancelled = (await redis.del(cancelKey(id))) > 0;
    const report: RetryReport = { tournamentId: id, requeued: 0, failed: 0, cancelled: 0, uncancelled };
    let template: { attempts?: number; backoff?: unknown } | undefined;
    const missing: MatchJobData[] = [];
    for (const data of jobs) {
      const jobId = matchJobId(data.tournamentId, data.batch);
      const n = data.matches.filter((m) => !recorded.has(m.id)).length;
      const job = await Job.fromId<MatchJobData, MatchOutcome[]>(queue, jobId);
      if (!job) {
        if (n > 0) missing.push(data);
        continue;
      }
      template ??= job.opts;
      if (n === 0) continue;
      const state = await job.getState();
      if (state === 'failed') {
        const cancelled = /^cancelled:/.test(job.failedReason ?? '');
        await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
        report.requeued += n;
        if (cancelled) report.cancelled += n;
        else report.failed += n;
      } else if (state === 'completed' && (job.returnvalue ?? []).some((x) => x.kind === 'cancelled')) {
        await job.retry('completed', { resetAttemptsMade: true, resetAttemptsStarted: true });
        report.requeued += n;
        report.cancelled += n;
      }
    }
    // Jobs a cancel took off the queue: added again under the same id, on their own (the tournament's
    // flow parent has completed; nothing waits on it).
    for (const data of missing) {
      await queue.add('match', data, {
        jobId: matchJobId(data.tournamentId, data.batch),
        attempts: o.attempts ?? template?.attempts ?? 3,
        backoff: (template?.backoff as { type: 'exponential'; delay: number } | undefined) ?? { type: 'exponential', delay: 2000 },
      });
      const n = data.matches.filter((m) => !recorded.has(m.id)).length;
      report.requeued += n;
      report.cancelled += n;
    }
    return report;
  } finally {
    await queue.close();
    redis.disconnect();
  }
}
