/** Shared by the BullMQ tests: small hand-made Blitz plans and a wait for a tournament to finish. */
import type { PlannedMatch } from '../src/types.ts';
import { tournamentStatus, type TournamentStatus } from '../src/bullmq/index.ts';

/** Blitz scenario A matches, one per entry: [Axis bot, Allies bot, seed]; pairs share a seed. */
export function blitzPlan(tournamentId: string, games: readonly [string, string, number][]): { tournamentId: string; matches: PlannedMatch[] } {
  return {
    tournamentId,
    matches: games.map(([axis, allies, seed], index) => ({
      id: `${tournamentId}:m${index}`,
      tournamentId,
      index,
      pairId: `${tournamentId}:p${seed}`,
      game: 'blitz',
      pack: 'approximation',
      scenario: 'A',
      seed,
      seats: { Axis: axis, Allies: allies },
      entrants: { Axis: axis, Allies: allies },
    })),
  };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000, everyMs = 150): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export function waitFinished(id: string, connection: string, timeoutMs = 30_000): Promise<TournamentStatus> {
  return waitFor(`tournament ${id} to finish`, async () => {
    const s = await tournamentStatus(id, { connection });
    return s.state === 'finished' ? s : undefined;
  }, timeoutMs, 200);
}
