/** What the store keeps of a tournament besides its matches (telemetry's `tournaments` table), from its plan. */
import type { TournamentRecord } from '@salient/telemetry';
import type { TournamentPlan } from './types.ts';

export function tournamentRecord(plan: TournamentPlan, executor: TournamentRecord['executor'], state: TournamentRecord['state'], startedAt: Date): TournamentRecord {
  return {
    id: plan.tournamentId,
    ...(plan.spec.name ? { name: plan.spec.name } : {}),
    game: plan.spec.game,
    spec: plan.spec,
    specHash: plan.specHash,
    planned: plan.matches.length,
    executor,
    state,
    startedAt,
  };
}
