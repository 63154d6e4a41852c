/**
 * A strength sweep's levels as entrants. Each level is named `<bot> <param>=<level>` (`mcts
 * iterations=800`, `plan evals=4000`): the swept bot's registered name without its fixed parameters,
 * then the swept one.
 *
 * Sweeps recorded before 2026-11-30 named their levels `<bot>@<level>` (`mcts@800`), which reads as a
 * bot identity (`greedy@2` is name@version). Their stored specs keep those names, and a spec checked
 * again may list either. The spec hash and the match ids still hash a level under that former name, so
 * a sweep gets the same ids whichever way its levels are named: running an old sweep's spec (or the
 * same `report balance --sweep` flags) again finds its matches recorded instead of playing them a
 * second time beside the first.
 */
import { parseBotSpec } from '@salient/bots';
import type { SweepSpec } from './types.ts';

/** The entrant name of `level` in `sweep`: `mcts iterations=800`. */
export function sweepLevelName(sweep: Pick<SweepSpec, 'bot' | 'param'>, level: number): string {
  return `${parseBotSpec(sweep.bot).name} ${sweep.param}=${level}`;
}

/** The name `level` had in sweeps recorded before the rename (`mcts@800`), which ids still hash. */
export function formerSweepLevelName(sweep: Pick<SweepSpec, 'bot'>, level: number): string {
  return `${parseBotSpec(sweep.bot).name}@${level}`;
}

/**
 * The names a spec's hash and match ids are computed from, entrant by entrant: each entrant's name, but
 * for a sweep (`sweep` given) each level's former name. A sweep's entrants are its levels, in order.
 */
export function hashedEntrantNames(sweep: SweepSpec | undefined, entrants: readonly { name: string }[]): string[] {
  return entrants.map((e, i) => {
    const level = sweep?.levels[i];
    return sweep && level !== undefined ? formerSweepLevelName(sweep, level) : e.name;
  });
}
