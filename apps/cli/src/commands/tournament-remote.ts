/**
 * The distributed side of `salient tournament`: `submit` a spec to a Redis queue (played by any
 * number of `salient worker`s), `status` of a submitted tournament with standings so far, `retry` of
 * its failed and cancelled matches, `cancel`.
 * `--redis` defaults to `SALIENT_REDIS_URL`.
 */
import type { Command } from 'commander';
import { SalientError } from '@salient/engine';
import { loadConfiguredBots } from '@salient/bots';
import { loadTournamentSpec, planTournament, sprtText, standings } from '@salient/scheduler';
import {
  cancelTournament,
  describeRedis,
  retryTournament,
  submitTournament,
  tournamentStatus,
  type TournamentStatus,
} from '@salient/scheduler/bullmq';
import { say, table } from '../output.ts';

interface RedisFlags {
  redis?: string;
  json?: boolean;
  bots?: string;
}

function redisOf(f: RedisFlags): string {
  const url = f.redis ?? process.env.SALIENT_REDIS_URL;
  if (!url) throw new SalientError('BAD_ARGUMENT', 'Which Redis? Pass --redis redis://host:6379 or set SALIENT_REDIS_URL.');
  return url;
}

export function statusLines(s: TournamentStatus): string[] {
  const c = s.counts;
  const lines = [
    `Tournament ${s.tournamentId}: ${s.state}${s.cancelledAt ? ` (cancelled ${s.cancelledAt})` : ''}${s.stopped ? ` (stopped ${s.stopped.at}: ${s.stopped.reason})` : ''}.`,
    `Matches: ${c.total} planned, ${c.completed} finished, ${c.failed} failed, ${c.active} running, ${c.waiting} waiting, ${c.delayed} waiting to retry` +
      (c.total - c.completed - c.failed - c.active - c.waiting - c.delayed > 0
        ? `, ${c.total - c.completed - c.failed - c.active - c.waiting - c.delayed} ${s.stopped ? 'left unplayed by the stop rule' : 'removed by cancel'}.`
        : '.'),
  ];
  if (s.stop) lines.push(...sprtText(s.stop));
  if (s.outcomes.length) {
    lines.push('', 'Standings (finished matches)');
    lines.push(
      table(
        ['#', 'entrant', 'games', 'wins', 'losses', 'draws', 'score', 'score %', 'forfeits', 'errors'],
        standings(s.outcomes, s.entrants).map((r, i) => [
          String(i + 1),
          r.name,
          String(r.games),
          String(r.wins),
          String(r.losses),
          String(r.draws),
          String(r.score),
          r.scorePct === null ? '-' : r.scorePct.toFixed(1),
          String(r.forfeits),
          String(r.errors),
        ]),
      ),
    );
    const odd = s.outcomes.filter((o) => o.kind === 'forfeit' || o.kind === 'error');
    if (odd.length) {
      lines.push('', 'Forfeits and engine errors');
      for (const o of odd) lines.push(`  #${o.index} ${o.matchId}: ${o.kind}${o.detail ? `: ${o.detail}` : ''}`);
    }
  }
  if (s.failed.length) {
    lines.push('', 'Failed matches (not played; see the reason)');
    for (const f of s.failed) lines.push(`  #${f.index} ${f.matchId} after ${f.attempts} attempt(s): ${f.reason}`);
    if (s.failed.some((f) => f.fault !== 'match')) lines.push(`Play the cancelled and infrastructure-failed ones again with: salient tournament retry ${s.tournamentId}`);
  }
  if (s.spool.length) {
    const pending = s.spool.reduce((n, w) => n + w.pending, 0);
    lines.push(
      '',
      `Telemetry: ${pending} finished match(es) wait in worker spools for the ClickHouse server (${s.spool.map((w) => `${w.worker}: ${w.pending}${w.since ? ` since ${w.since}` : ''}`).join(', ')}); ` +
        'they are delivered when it answers, and until then are missing from reports and the dashboard.',
    );
  }
  return lines;
}

export function addRemoteTournamentCommands(tournament: Command): void {
  tournament
    .command('submit <spec>')
    .description('Plan a tournament spec and put its matches on a Redis queue for `salient worker`s; submitting again adds nothing twice.')
    .option('--redis <url>', 'Redis of the workers (default: SALIENT_REDIS_URL)')
    .option('--json', 'print the submission as JSON')
    .option('--bots <file>', "the workers' bots file: ext:<name> bots, and the cmd:/http: bots they allow; without one only built-in bots (default: SALIENT_BOTS_FILE)")
    .action(async (specPath: string, f: RedisFlags) => {
      const url = redisOf(f);
      // Checked as the workers will check it (they refuse what their bots file does not allow), so a
      // spec they would refuse is refused here, before anything is queued.
      const bots = await loadConfiguredBots(f.bots);
      const plan = await planTournament(await loadTournamentSpec(specPath, { bots, submitted: true }));
      const r = await submitTournament(plan, { connection: url });
      if (f.json) return say(JSON.stringify(r, null, 2));
      const already = r.matches - r.added;
      say(`Tournament ${r.tournamentId}: ${r.matches} matches, ${r.added} added to ${describeRedis(url)}${already ? ` (${already} already there)` : ''}.`);
      say(`Follow it with: salient tournament status ${r.tournamentId} --redis ${describeRedis(url)}`);
    });

  tournament
    .command('status <id>')
    .description('Progress and standings so far of a submitted tournament.')
    .option('--redis <url>', 'Redis of the workers (default: SALIENT_REDIS_URL)')
    .option('--json', 'print the status (counts, outcomes, failures, standings) as JSON')
    .action(async (id: string, f: RedisFlags) => {
      const s = await tournamentStatus(id, { connection: redisOf(f) });
      if (f.json) return say(JSON.stringify({ ...s, standings: standings(s.outcomes, s.entrants) }, null, 2));
      for (const line of statusLines(s)) say(line);
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
