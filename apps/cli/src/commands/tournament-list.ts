/**
 * `salient tournament list`: every tournament the telemetry store and (with `--redis`) the queue know,
 * one line each with the state `status` and the dashboard show; and `salient tournament export ID`:
 * its recorded matches with their replays as JSON lines, which `salient replay` reads back.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { SalientError } from '@salient/engine';
import { tournamentMatchReplays, type MatchWithReplay, type Telemetry } from '@salient/telemetry';
import type { PlannedMatch, TournamentSpec } from '@salient/scheduler';
import { listTournaments, planCache, type TournamentOverview } from '@salient/scheduler/overview';
import { integer } from '../args.ts';
import { say, table } from '../output.ts';
import { withTelemetry } from '../telemetry.ts';
import { EXPORT_FORMAT } from '../replay-file.ts';

interface ListFlags {
  redis?: string;
  json?: boolean;
  limit: number;
  telemetry: boolean;
}

/** When a time was, as a list shows it: `2026-11-23 08:00:12 UTC`. */
const when = (iso: string) => (iso ? `${iso.slice(0, 19).replace('T', ' ')} UTC` : '-');

/** The list's rows in JSON: what each line shows, nothing more (status has the rest). */
function listed(v: TournamentOverview) {
  return {
    id: v.id,
    ...(v.name ? { name: v.name } : {}),
    game: v.game,
    executor: v.executor,
    state: v.state,
    reason: v.reason,
    done: v.counts.done,
    planned: v.counts.planned,
    lastActivity: v.lastActivity,
    source: v.source,
    ...(v.notes.length ? { notes: v.notes } : {}),
  };
}

/**
 * The tournaments of the store (unless `--no-telemetry`) and of the queue at `redis`. A store that
 * cannot be opened (held by `serve`, a server that does not answer) is a note when the queue can
 * still be listed.
 */
async function list(f: ListFlags, redis: string | undefined): Promise<{ tournaments: TournamentOverview[]; notes: string[] }> {
  if (!f.telemetry) {
    if (redis === undefined) throw new SalientError('BAD_ARGUMENT', 'With --no-telemetry there is only the queue to list: give --redis URL (or set SALIENT_REDIS_URL).');
    return { tournaments: await listTournaments({ redis, limit: f.limit }), notes: [] };
  }
  try {
    return await withTelemetry(async (t: Telemetry) => ({
      tournaments: await listTournaments({ telemetry: t, ...(redis !== undefined ? { redis } : {}), limit: f.limit, plans: planCache() }),
      notes: [],
    }));
  } catch (e) {
    if (!(e instanceof SalientError && e.code.startsWith('TELEMETRY_')) || redis === undefined) throw e;
    return { tournaments: await listTournaments({ redis, limit: f.limit }), notes: [`the telemetry store could not be read (${e.message}); only the queue is listed`] };
  }
}

interface ExportFlags {
  out?: string;
}

/** One line of an export: the match's outcome, where it sits in the plan, and its replay. */
export function exportLine(m: MatchWithReplay, planned: PlannedMatch | undefined): string {
  const s = m.match;
  return JSON.stringify({
    format: EXPORT_FORMAT,
    tournamentId: s.tournament,
    matchId: s.matchId,
    ...(planned ? { index: planned.index, pairId: planned.pairId, entrants: planned.entrants } : {}),
    scenario: s.scenario,
    seed: s.seed,
    kind: s.kind,
    sides: s.sides,
    bots: s.sideBots,
    scores: s.scores,
    reason: s.reason,
    detail: s.detail,
    turns: s.turns,
    impulses: s.impulses,
    decisions: s.decisions,
    wallMs: s.wallMs,
    startedAt: s.startedAt,
    endedAt: s.endedAt,
    worker: s.worker,
    replay: m.replay,
  });
}

/** Every recorded match of `id` with its replay, in plan order when its spec can be planned here, else by match id. */
async function exportTournament(t: Telemetry, id: string): Promise<{ lines: string[]; planned: boolean }> {
  const all: MatchWithReplay[] = [];
  for (let page = await tournamentMatchReplays(t, id); page.length; page = await tournamentMatchReplays(t, id, { after: page.at(-1)!.match.matchId })) {
    all.push(...page);
  }
  if (all.length === 0) {
    throw new SalientError('UNKNOWN_TOURNAMENT', `No match of tournament '${id}' in the telemetry store (${t.where}); \`salient tournament list\` lists the tournaments it has.`);
  }
  let byId = new Map<string, PlannedMatch>();
  const stored = await t.tournamentSpec(id);
  if (stored) {
    try {
      const plan = await planCache(1).get(id, stored.specHash, stored.spec as TournamentSpec);
      byId = new Map(plan.matches.map((m) => [m.id, m]));
    } catch {
      // Its pack directory is elsewhere: the lines go out without their place in the plan.
    }
  }
  const index = (m: MatchWithReplay) => byId.get(m.match.matchId)?.index ?? Number.MAX_SAFE_INTEGER;
  all.sort((a, b) => index(a) - index(b) || (a.match.matchId < b.match.matchId ? -1 : 1));
  return { lines: all.map((m) => exportLine(m, byId.get(m.match.matchId))), planned: byId.size > 0 };
}

export function addStoreTournamentCommands(tournament: Command): void {
  tournament
    .command('list')
    .description('Every tournament of the telemetry store and (with --redis or SALIENT_REDIS_URL) of the queue: one line each with its id, game, executor, state and why, matches done of planned, and last activity.')
    .option('--redis <url>', 'also list the tournaments on this queue, with the state its workers report (default: SALIENT_REDIS_URL)')
    .option('--json', 'print the list as JSON')
    .option('--limit <n>', 'at most this many, latest activity first', integer(1, 10_000), 100)
    .option('--no-telemetry', 'list only the queue (do not open the telemetry store)')
    .action(async (f: ListFlags) => {
      const redis = f.redis ?? process.env.SALIENT_REDIS_URL;
      const { tournaments, notes } = await list(f, redis);
      if (f.json) return say(JSON.stringify({ tournaments: tournaments.map(listed), ...(notes.length ? { notes } : {}) }, null, 2));
      for (const n of notes) process.stderr.write(`salient: ${n}.\n`);
      if (tournaments.length === 0) {
        // The queue's module (BullMQ, ioredis) only when a queue was asked about.
        const where = redis !== undefined ? ` in the store or on the queue at ${(await import('@salient/scheduler/bullmq')).describeRedis(redis)}` : ' in the telemetry store (give --redis URL to list a queue too)';
        say(`No tournaments${where}. Run one with: salient tournament run SPEC`);
        return;
      }
      say(
        table(
          ['id', 'game', 'executor', 'state', 'matches', 'last activity'],
          tournaments.map((v) => [v.id, v.game, v.executor, v.reason, `${v.counts.done}/${v.counts.planned}`, when(v.lastActivity)]),
        ),
      );
      const unread = tournaments.flatMap((v) => v.notes.map((n) => `${v.id}: ${n}`));
      for (const n of [...new Set(unread)]) say(`Note: ${n}.`);
    });

  tournament
    .command('export <id>')
    .description(
      "Write a tournament's recorded matches from the telemetry store as JSON lines, one object per match: its outcome (kind, sides, scores, entrants and place in the plan where known) and its replay. `salient replay FILE` re-runs them.",
    )
    .option('--out <file>', 'write to FILE (default: stdout)')
    .action(async (id: string, f: ExportFlags) => {
      const { lines, planned } = await withTelemetry((t) => exportTournament(t, id));
      const text = lines.map((l) => `${l}\n`).join('');
      if (f.out === undefined) {
        process.stdout.write(text);
        return;
      }
      // Whole or not at all: a half-written export would read as one with fewer matches.
      const tmp = `${f.out}.${process.pid}.tmp`;
      try {
        writeFileSync(tmp, text);
        renameSync(tmp, f.out);
      } catch (e) {
        rmSync(tmp, { force: true });
        throw new SalientError('IO', `Cannot write the export to '${f.out}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}.`);
      }
      process.stderr.write(
        `Exported ${lines.length} match(es) of tournament ${id} to ${f.out}${planned ? '' : " (its spec could not be planned here, so the lines carry no plan index or entrant names)"}. Check them with: salient replay ${f.out}\n`,
      );
    });
}
