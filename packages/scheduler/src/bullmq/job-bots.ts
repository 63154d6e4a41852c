/**
 * The worker's own check of who may run what (docs/bot-protocol.md, "Registered bots"). A match job
 * on Redis was written by whoever could reach Redis, not necessarily through the API's check, so the
 * sandboxed child checks every seat of a job against this worker's bots file before it plays any, and
 * refuses the job for good (no retry can mend it) when a seat would run a command or call a host the
 * operator did not name there, or the match would read a pack directory the operator did not list. The file is the one `startWorker` was given, passed down to the
 * children as `SALIENT_BOTS_FILE` (empty: none, so only built-in bots play).
 */
import { UnrecoverableError } from 'bullmq';
import { loadConfiguredBots, refusedBot, refusedPack, type ExternalBots } from '@salient/bots';
import { bundledPackIds, findGame } from '@salient/catalog';
import type { MatchJobData } from './submit.ts';

let loaded: Promise<ExternalBots> | undefined;

/** This worker's bots file, read once per child; a failed read is thrown (the job is retried) and tried again. */
function workerBots(): Promise<ExternalBots> {
  loaded ??= loadConfiguredBots().catch((e: unknown) => {
    loaded = undefined;
    throw e;
  });
  return loaded;
}

/**
 * The worker's bots file, once every seat of every match of `data` is allowed by it (a built-in bot,
 * a registered `ext:<name>`, an allowed command line or host). Otherwise throws an
 * `UnrecoverableError` naming the match, the seat and what the operator can do.
 */
export async function allowedJobBots(data: MatchJobData): Promise<ExternalBots> {
  const bots = await workerBots();
  for (const m of data.matches ?? []) {
    // A pack directory is read here: only the bundled packs and the ones the operator lists.
    let bundled: string[] = [];
    try {
      bundled = bundledPackIds(findGame(m.game));
    } catch {
      // An unknown game: playing it fails with its own clear error.
    }
    const packWhy = typeof m.pack === 'string' && bundled.length ? refusedPack(m.pack, bundled, bots) : undefined;
    if (packWhy) {
      const e = new UnrecoverableError(`PACK_NOT_ALLOWED: match ${m.id}: ${packWhy}`);
      e.name = 'UnrecoverableError';
      throw e;
    }
    for (const [seat, spec] of Object.entries(m.seats ?? {})) {
      const why = typeof spec === 'string' ? refusedBot(spec, bots) : `its bot is ${JSON.stringify(spec)}, not a bot spec.`;
      if (why) {
        // BullMQ knows an unrecoverable error by its name once it has crossed the process boundary.
        const e = new UnrecoverableError(`BOT_NOT_ALLOWED: match ${m.id}, seat ${seat}: ${why}`);
        e.name = 'UnrecoverableError';
        throw e;
      }
    }
  }
  return bots;
}
