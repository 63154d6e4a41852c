/**
 * The CLI's door to the telemetry store: open it from the environment (embedded ClickHouse under
 * `.salient/clickhouse` unless SALIENT_CLICKHOUSE_URL names a server), tell the user where rows go and
 * what is waiting in the spool, and always close it.
 */
import type { Telemetry } from '@salient/telemetry';
import type { AnyGame, LoadedPack } from '@salient/engine';
import type { SidesLookup } from '@salient/telemetry';

/** Run `f` with the store open; closes it afterwards whatever happens. */
export async function withTelemetry<T>(f: (t: Telemetry) => Promise<T>): Promise<T> {
  // Imported here, not above: the store's clients are loaded by the commands that open it, not by
  // every `play` or `replay` that records nothing.
  const { openTelemetry } = await import('@salient/telemetry');
  const t = await openTelemetry();
  try {
    return await f(t);
  } finally {
    await t.close();
  }
}

/** Lines about the store for the user: where it is, what opening delivered, what is still pending. */
export async function storeNotes(t: Telemetry): Promise<string[]> {
  const notes = [`Telemetry: ${t.where}.`];
  if (t.spoolAtOpen.delivered.length) notes.push(`Delivered ${t.spoolAtOpen.delivered.length} spooled match(es) from ${t.config.spoolDir}.`);
  for (const r of t.spoolAtOpen.rejected ?? []) notes.push(`Set aside a damaged spool file (its match must be played again to be recorded): ${r.why} (now ${r.file})`);
  const pending = await t.pendingSpool();
  if (pending.length) {
    notes.push(`${pending.length} match(es) wait in ${t.config.spoolDir} for the server; they are sent on the next run that reaches it.`);
  }
  return notes;
}

/** Sides of the match's scenario, so matches seated by power still name the bot of each side. */
export function sidesFor(game: AnyGame, pack: LoadedPack): SidesLookup {
  return (row) => game.scenarios(pack).find((s) => s.id === row.result.scenario)?.sides;
}
