/**
 * Play one planned match: the same code on every path (local worker thread, BullMQ processor, tests).
 * Games and packs are resolved through the catalog and cached per process; bots are created from their
 * specs for every match. Engine faults are not thrown: the runner records them as `error` results
 * (with their replay), and they come back as outcomes like any other.
 */
import type { AnyGame, LoadedPack } from '@salient/engine';
// The lazy catalog: a process (a worker's match child, `salient replay`) imports the games it plays only.
import { loadGame, loadPack } from '@salient/catalog/lazy';
import { createBot, type ExternalBots } from '@salient/bots';
import { runMatch, type MatchResult, type Seats, type TelemetrySink } from '@salient/runner';
import type { MatchOutcome, PlannedMatch } from './types.ts';

const packs = new Map<string, Promise<LoadedPack>>();

/** The game and pack of a planned match, loaded once per process. */
export async function resolveGamePack(game: string, pack: string): Promise<{ game: AnyGame; pack: LoadedPack }> {
  const g = await loadGame(game);
  const key = `${game}\u0000${pack}`;
  let p = packs.get(key);
  if (!p) {
    p = loadPack(g, pack);
    packs.set(key, p);
    p.catch(() => packs.delete(key));
  }
  return { game: g, pack: await p };
}

export interface PlayOptions {
  sink?: TelemetrySink;
  /** Recorded in the match row (`worker`). */
  worker?: string;
  signal?: AbortSignal;
  /** The operator's bots file, for `ext:<name>` seats (default: none). Who may use what is checked before. */
  bots?: ExternalBots;
}

/** Play `m` to the end and describe how it came out. Unknown game/pack/bot names throw `SalientError`. */
export async function playPlanned(m: PlannedMatch, o: PlayOptions = {}): Promise<{ outcome: MatchOutcome; result: MatchResult }> {
  const { game, pack } = await resolveGamePack(m.game, m.pack);
  const seats: Seats = {};
  for (const [seat, spec] of Object.entries(m.seats)) seats[seat] = createBot(spec, o.bots);
  const result = await runMatch({
    game,
    pack,
    scenario: m.scenario,
    seed: m.seed,
    seats,
    seatSpecs: m.seats,
    matchId: m.id,
    tags: { tournament: m.tournamentId, ...(o.worker ? { worker: o.worker } : {}) },
    ...(m.options ? { options: m.options } : {}),
    ...(m.decisionCap !== undefined ? { decisionCap: m.decisionCap } : {}),
    ...(m.decisionTimeoutMs !== undefined ? { decisionTimeoutMs: m.decisionTimeoutMs } : {}),
    ...(m.timeBankMs !== undefined ? { timeBankMs: m.timeBankMs } : {}),
    ...(m.strikes !== undefined ? { strikes: m.strikes } : {}),
    ...(o.sink ? { sink: o.sink } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  return { outcome: outcomeOf(m, result, o.worker), result };
}

/** What the outcome of `m` says whatever happened: where it belongs in the plan and who played it. */
export function plannedPart(m: PlannedMatch): Pick<MatchOutcome, 'matchId' | 'tournamentId' | 'pairId' | 'index' | 'scenario' | 'seed' | 'entrants'> {
  return { matchId: m.id, tournamentId: m.tournamentId, pairId: m.pairId, index: m.index, scenario: m.scenario, seed: m.seed, entrants: { ...m.entrants } };
}

/** An `error` outcome of `m` that was never played to an end (its thread or job died), saying why. */
export function errorOutcome(m: PlannedMatch, detail: string): MatchOutcome {
  return { ...plannedPart(m), kind: 'error', sides: {}, scores: {}, decisions: 0, impulses: 0, wallMs: 0, detail };
}

/** Whether a runner termination kind has a result per side (completed, adjudicated, forfeit). */
export function isDecided(kind: string): boolean {
  return kind === 'completed' || kind === 'adjudicated' || kind === 'forfeit';
}

/** The outcome record of a finished match. */
export function outcomeOf(m: PlannedMatch, r: MatchResult, worker?: string): MatchOutcome {
  const decided = r.kind === 'completed' || r.kind === 'adjudicated' || r.kind === 'forfeit';
  return {
    ...plannedPart(m),
    kind: r.kind,
    sides: decided ? { ...r.result.sides } : {},
    scores: decided ? { ...r.result.scores } : {},
    decisions: r.decisions,
    impulses: r.impulses,
    wallMs: r.wallMs,
    ...(r.kind === 'forfeit' ? { detail: `${r.seat} forfeits (${r.reason}): ${r.detail}` } : {}),
    ...(r.kind === 'error' ? { detail: r.detail } : {}),
    ...(worker ? { worker } : {}),
  };
}
