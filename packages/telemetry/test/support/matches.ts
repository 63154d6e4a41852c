/** Real Blitz! matches for telemetry tests, and what they should have written. */
import type { GameEvent } from '@salient/engine';
import { createBot } from '@salient/bots';
import { blitz } from '@salient/game-blitz';
import { InMemorySink, runMatch, type MatchResult, type MatchSpec, type TelemetrySink } from '@salient/runner';
import { sampled, type Telemetry } from '../../src/index.ts';

const checked = blitz.checkPack(blitz.bundledPacks.approximation);
if (!checked.ok) throw new Error(`The bundled Blitz pack does not load: ${JSON.stringify(checked.issues)}`);
export const blitzPack = checked.pack;
const rowEvents = new Set(blitz.telemetryEvents);

/** A played match, with every row the runner emitted. */
export interface Played {
  result: MatchResult;
  /** Events as `apply` emitted them, in order. */
  events: GameEvent[];
  /** Everything the runner sent to the sink. */
  rows: InMemorySink;
}

/** A sink that forwards to `inner` and keeps a copy in memory (of the decisions `inner` keeps, if it samples them). */
export function tee(inner: TelemetrySink, copy: InMemorySink): TelemetrySink {
  const keeps = inner.keepsDecision?.bind(inner);
  return {
    ...(keeps ? { keepsDecision: keeps } : {}),
    impulse: (r) => (copy.impulse(r), inner.impulse(r)),
    event: (r) => (copy.event(r), inner.event(r)),
    decision: (r) => (copy.decision(r), inner.decision?.(r)),
    match: (r) => (copy.match(r), inner.match(r)),
    flush: async () => {
      copy.flush();
      await inner.flush?.();
    },
  };
}

/** Blitz! Scenario A, random against random. */
export async function playBlitz(seed: number, sink: TelemetrySink, over: Partial<MatchSpec> = {}): Promise<Played> {
  const rows = new InMemorySink();
  const events: GameEvent[] = [];
  const result = await runMatch({
    game: blitz,
    pack: blitzPack,
    scenario: 'A',
    seed,
    seats: { Axis: createBot('random'), Allies: createBot('random') },
    ...over,
    sink: tee(sink, rows),
    onStep: (s) => {
      events.push(...s.events);
      over.onStep?.(s);
    },
  });
  return { result, events, rows };
}

/** Rows a played match should leave in each table (decisions as sampled at `rate`). */
export function expectedCounts(p: Played, rate: number): Record<'matches' | 'impulses' | 'events' | 'decisions', number> {
  return {
    matches: 1,
    impulses: p.result.impulses,
    // Blitz! lists the event types worth a row; the others are only counted in impulse rows.
    events: p.events.filter((e) => rowEvents.has(e.type)).length,
    decisions: p.rows.decisions.filter((d) => sampled(d.matchId, d.seq, rate)).length,
  };
}

/** Rows per table for `matchId`, one copy of each (FINAL). */
export async function storedCounts(t: Telemetry, matchId: string): Promise<Record<'matches' | 'impulses' | 'events' | 'decisions', number>> {
  const out = { matches: 0, impulses: 0, events: 0, decisions: 0 };
  for (const table of Object.keys(out) as (keyof typeof out)[]) {
    const rs = await t.client.query({
      query: `SELECT count() AS n FROM ${t.database}.${table} FINAL WHERE match_id = '${matchId.replace(/[\\']/g, '\\$&')}'`,
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ n: string | number }>();
    out[table] = Number(row?.n ?? 0);
  }
  return out;
}

/** Rows of an arbitrary query, 64-bit numbers as numbers where the server sent strings. */
export async function rowsOf(t: Pick<Telemetry, 'client'>, query: string): Promise<Record<string, unknown>[]> {
  const rs = await t.client.query({ query, format: 'JSONEachRow' });
  return rs.json<Record<string, unknown>>();
}
