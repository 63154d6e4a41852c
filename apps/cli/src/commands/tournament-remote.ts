/**
 * The distributed side of `salient tournament`: `submit` a spec to a Redis queue (played by any
 * number of `salient worker`s), `status` of a tournament (on the queue, or run here and in the store)
 * with its state, standings and results so far, `retry` of its failed and cancelled matches, `cancel`.
 * `--redis` defaults to `SALIENT_REDIS_URL`.
 */
import type { Command } from 'commander';
import { SalientError } from '@salient/engine';
import { loadConfiguredBots } from '@salient/bots';
import { openTelemetry } from '@salient/telemetry';
import { loadTournamentSpec, planTournament, tournamentRecord, type TournamentPlan } from '@salient/scheduler';
import { cancelTournament, describeRedis, retryTournament, submitTournament } from '@salient/scheduler/bullmq';
import { tournamentOverview, type TournamentOverview } from '@salient/scheduler/overview';
import { say } from '../output.ts';
import { withTelemetry } from '../telemetry.ts';
import { statusLines } from './tournament-results.ts';

export { statusLines } from './tournament-results.ts';

interface RedisFlags {
  redis?: string;
  json?: boolean;
  bots?: string;
  telemetry?: boolean;
  batch?: string;
  jobSeconds?: string;
}

/** A `--batch` / `--job-seconds` value: a positive number (a whole one for `--batch`), else BAD_ARGUMENT. */
function positive(flag: string, v: string | undefined, whole: boolean): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!(Number.isFinite(n) && n > 0 && (!whole || Number.isInteger(n)))) {
    throw new SalientError('BAD_ARGUMENT', `${flag} ${v}: give a ${whole ? 'whole number of pairs, 1 or more' : 'number of seconds above 0'}.`);
  }
  return n;
}

function redisOf(f: RedisFlags): string {
  const url = f.redis ?? process.env.SALIENT_REDIS_URL;
  if (!url) throw new SalientError('BAD_ARGUMENT', 'Which Redis? Pass --redis redis://host:6379 or set SALIENT_REDIS_URL.');
  return url;
}

/**
 * Record a submitted tournament in the store, as the API does when it submits, so `tournament list`
 * and the dashboard list it before any match is recorded. The store is a convenience here: when it
 * cannot be opened (a server that does not answer, an embedded store another process holds) the
 * submission stands and the user is told.
 */
async function recordSubmitted(plan: TournamentPlan): Promise<string | undefined> {
  let t;
  try {
    t = await openTelemetry(undefined, { openTimeoutMs: 5000 });
  } catch (e) {
    if (e instanceof SalientError) return `not recorded in the telemetry store (${e.message}); the workers record its matches as they play them`;
    throw e;
  }
  try {
    await t.recordTournament(tournamentRecord(plan, 'queue', 'submitted', new Date()));
    return undefined;
  } catch (e) {
    if (e instanceof SalientError) return `not recorded in the telemetry store (${e.message}); the workers record its matches as they play them`;
    throw e;
  } finally {
    await t.close();
  }
}

/**
 * Tournament `id` as `status` shows it: from the queue when Redis is given and has it, else from the
 * store. Throws `UNKNOWN_TOURNAMENT` naming every place looked in.
 */
export async function statusOf(id: string, redis: string | undefined): Promise<TournamentOverview> {
  if (redis !== undefined) {
    try {
      return await tournamentOverview(id, { redis, detail: true });
    } catch (e) {
      if (!(e instanceof SalientError && e.code === 'UNKNOWN_TOURNAMENT')) throw e;
    }
  }
  try {
    return await withTelemetry((t) => tournamentOverview(id, { telemetry: t, detail: true }));
  } catch (e) {
    if (e instanceof SalientError && e.code === 'UNKNOWN_TOURNAMENT') {
      throw new SalientError(
        'UNKNOWN_TOURNAMENT',
        `No tournament '${id}' ${redis !== undefined ? `on the queue at ${describeRedis(redis)} or ` : ''}in the telemetry store. \`salient tournament list\`${redis !== undefined ? '' : ' (with --redis URL for a queue)'} lists them.`,
      );
    }
    throw e;
  }
}

/** `status --json`: the overview without the queue's copy of the outcomes, the standings at the top. */
export function statusJson(v: TournamentOverview): unknown {
  const { queue, results, ...rest } = v;
  return {
    ...rest,
    ...(results ? { standings: results.standings, pairings: results.pairings, crossTable: results.crossTable, byScenario: results.byScenario } : {}),
    ...(queue ? { failed: queue.failed, spool: queue.spool, ...(queue.cancelledAt ? { cancelledAt: queue.cancelledAt } : {}), ...(queue.stopped ? { stopped: queue.stopped } : {}) } : {}),
  };
}

export function addRemoteTournamentCommands(tournament: Command): void {
  tournament
    .command('submit <spec>')
    .description('Plan a tournament spec and put its matches on a Redis queue for `salient worker`s; submitting again adds nothing twice.')
    .option('--redis <url>', 'Redis of the workers (default: SALIENT_REDIS_URL)')
    .option('--json', 'print the submission as JSON')
    .option('--bots <file>', "the workers' bots file: ext:<name> bots, and the cmd:/http: bots they allow; without one only built-in bots (default: SALIENT_BOTS_FILE)")
    .option('--no-telemetry', 'do not record the submission in the telemetry store (by default it is, when the store can be opened, so `tournament list` and the dashboard show it at once)')
    .option('--batch <pairs>', 'side-swapped pairs per queue job (default: as many as last about --job-seconds, from a probe game played here)')
    .option('--job-seconds <s>', 'what a queue job should last when --batch is not given (default 1)')
    .action(async (specPath: string, f: RedisFlags) => {
      const url = redisOf(f);
      const batchPairs = positive('--batch', f.batch, true);
      const jobSeconds = positive('--job-seconds', f.jobSeconds, false);
      // Checked as the workers will check it (they refuse what their bots file does not allow), so a
      // spec they would refuse is refused here, before anything is queued.
      const bots = await loadConfiguredBots(f.bots);
      const plan = await planTournament(await loadTournamentSpec(specPath, { bots, submitted: true }));
      const r = await submitTournament(plan, {
        connection: url,
        ...(batchPairs !== undefined ? { batchPairs } : {}),
        ...(jobSeconds !== undefined ? { jobSeconds } : {}),
      });
      const note = f.telemetry === false ? undefined : await recordSubmitted(plan);
      if (note) process.stderr.write(`salient: tournament ${r.tournamentId} is on the queue, but ${note}.\n`);
      if (f.json) return say(JSON.stringify({ ...r, recorded: f.telemetry !== false && note === undefined }, null, 2));
      const already = r.matches - r.added;
      say(
        `Tournament ${r.tournamentId}: ${r.matches} matches in ${r.jobs} job(s) of ${r.batchPairs} pair(s)${r.probeMs !== undefined ? ` (a probe game took ${Math.round(r.probeMs)} ms)` : ''}, ${r.added} added to ${describeRedis(url)}${already ? ` (${already} already there)` : ''}.`,
      );
      say(`Follow it with: salient tournament status ${r.tournamentId} --redis ${describeRedis(url)}`);
    });

  tournament
    .command('status <id>')
    .description(
      'State, progress, SPRT, standings and results so far of a tournament: from the queue when --redis (or SALIENT_REDIS_URL) is given and has it, else from the telemetry store (a local run, or a queue tournament as its workers recorded it).',
    )
    .option('--redis <url>', 'Redis of the workers (default: SALIENT_REDIS_URL)')
    .option('--json', 'print the status (state and reason, counts, SPRT, standings, pairings, cross-table, by scenario, outcomes, failures) as JSON')
    .action(async (id: string, f: RedisFlags) => {
      const v = await statusOf(id, f.redis ?? process.env.SALIENT_REDIS_URL);
      if (f.json) return say(JSON.stringify(statusJson(v), null, 2));
      for (const line of statusLines(v)) say(line);
    });

  tournament
    .command('retry <id>')
    .description('Put a submitted tournament\'s failed and cancelled matches back on the queue (same match ids; finished ones are kept). Lifts a cancel.')
    .option('--redis <url>', 'Redis of the workers (default: SALIENT_REDIS_URL)')
    .option('--json', 'print what was re-queued as JSON')
    .action(async (id: string, f: RedisFlags) => {
      const r = await retryTournament(id, { connection: redisOf(f) });
      if (f.json) return say(JSON.stringify(r, null, 2));
      say(
        r.requeued === 0
          ? `Tournament ${id}: nothing to retry (no failed or cancelled matches)${r.uncancelled ? '; its cancel is lifted' : ''}.`
          : `Tournament ${id}: ${r.requeued} match(es) back on the queue (${r.failed} failed, ${r.cancelled} cancelled)${r.uncancelled ? '; its cancel is lifted' : ''}.`,
      );
      say(`Follow it with: salient tournament status ${id}`);
    });

  tournament
    .command('cancel <id>')
    .description('Stop a submitted tournament: waiting matches are dropped, running ones aborted; finished ones stay.')
    .option('--redis <url>', 'Redis of the workers (default: SALIENT_REDIS_URL)')
    .action(async (id: string, f: RedisFlags) => {
      const r = await cancelTournament(id, { connection: redisOf(f) });
      say(`Tournament ${id} cancelled: ${r.removed} waiting match(es) dropped, ${r.running} running match(es) being aborted.`);
    });
}
