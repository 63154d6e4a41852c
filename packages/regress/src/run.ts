/**
 * Playing a regression suite: a tournament spec whose every game is played here, in this process, on
 * the current code, each through an in-memory sink from which its record is taken. The games are the
 * plan's, so the same suite gives the same games on any machine, and a game changes only when the
 * code, the pack or a bot does.
 */
import { InMemorySink, type MatchRow, type TelemetrySink } from '@salient/runner';
import { planTournament, playPlanned, resolveGamePack, type TournamentSpec } from '@salient/scheduler';
import { recordGame, runFacts, type GameRecord, type RunFacts } from './record.ts';

export interface SuiteRunOptions {
  /** Play with this pack instead of the suite's (a bundled id or a pack directory). */
  pack?: string;
  /** Also send every row here (a telemetry store's sink, for a tagged run). */
  sink?: TelemetrySink;
  /** Recorded as the tournament of every match (a tagged run); the match ids then differ per tag. */
  tag?: string;
  /** Called after each game with the number played and planned. */
  onProgress?(played: number, planned: number): void;
  signal?: AbortSignal;
}

export interface SuiteRun {
  /** The suite's id and the hash of what decides its games (the spec as written, whatever `pack` says). */
  suite: { id: string; specHash: string };
  facts: RunFacts;
  games: GameRecord[];
  /** Wall time of the run, ms. */
  wallMs: number;
}

/** Forward every call to each sink in turn. */
function tee(a: TelemetrySink, b: TelemetrySink | undefined): TelemetrySink {
  if (!b) return a;
  return {
    impulse: (r) => (a.impulse(r), b.impulse(r)),
    event: (r) => (a.event(r), b.event(r)),
    decision: (r) => (a.decision?.(r), b.decision?.(r)),
    match: (r) => (a.match(r), b.match(r)),
    flush: async () => {
      await a.flush?.();
      await b.flush?.();
    },
  };
}

/** Play every game of `spec` and record it. Unknown game, pack or bot names throw `SalientError`. */
export async function runSuite(spec: TournamentSpec, o: SuiteRunOptions = {}): Promise<SuiteRun> {
  const planned = { ...spec, ...(o.pack !== undefined ? { pack: o.pack } : {}), ...(o.tag !== undefined ? { id: o.tag } : {}) };
  const plan = await planTournament(planned);
  const specHash = o.pack === undefined && o.tag === undefined ? plan.specHash : (await planTournament(spec)).specHash;
  // Load the pack once up front, so a bad pack fails before any game.
  await resolveGamePack(planned.game, planned.pack);
  const started = performance.now();
  const games: GameRecord[] = [];
  const rows: MatchRow[] = [];
  for (const m of plan.matches) {
    if (o.signal?.aborted) throw o.signal.reason;
    const memory = new InMemorySink();
    const { result } = await playPlanned(m, { sink: tee(memory, o.sink), ...(o.signal ? { signal: o.signal } : {}) });
    games.push(recordGame(m, result, memory.impulses, memory.events));
    rows.push(...memory.matches);
    o.onProgress?.(games.length, plan.matches.length);
  }
  const facts = runFacts(rows);
  if (!facts) throw new Error(`regress: the suite '${spec.id}' planned no games`);
  return { suite: { id: spec.id, specHash }, facts, games, wallMs: performance.now() - started };
}
