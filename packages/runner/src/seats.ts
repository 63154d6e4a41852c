/**
 * Seats: which bot plays which powers. A seat is named by a side id (the bot plays every power of
 * that side) or by a power id (the bot plays that power alone), and every power of the scenario must be
 * covered by exactly one seat.
 */
import { SalientError, unknownName } from '@salient/engine';
import type { AnyGame, LoadedPack, ScenarioInfo } from '@salient/engine';

/** The resolved seating of one match. */
export interface Seating {
  /** Power id -> the seat that plays it. */
  seatOf: ReadonlyMap<string, string>;
  /** Seat id -> the powers it plays, in scenario order. */
  powersOf: Readonly<Record<string, readonly string[]>>;
  /** Power id -> its side id. */
  sideOf: ReadonlyMap<string, string>;
}

/** The scenario's description, or `UNKNOWN_SCENARIO` listing the scenarios the pack offers. */
export function findScenario(game: AnyGame, pack: LoadedPack, id: string): ScenarioInfo {
  const all = game.scenarios(pack);
  const hit = all.find((s) => s.id === id);
  if (!hit) throw unknownName('UNKNOWN_SCENARIO', 'scenario', id, all.map((s) => s.id));
  return hit;
}

/**
 * Map seats to powers. Throws `UNKNOWN_SEAT` for a name that is neither a side nor a power, and
 * `BAD_SEATS` naming every uncovered or doubly covered power.
 */
export function resolveSeats(scenario: ScenarioInfo, seats: readonly string[]): Seating {
  const sideOf = new Map<string, string>();
  for (const side of scenario.sides) for (const p of side.powers) sideOf.set(p, side.id);
  const sideIds = scenario.sides.map((s) => s.id);
  const powerIds = [...sideOf.keys()];

  const claims = new Map<string, string[]>();
  const powersOf: Record<string, readonly string[]> = {};
  for (const seat of seats) {
    const side = scenario.sides.find((s) => s.id === seat);
    if (!side && !sideOf.has(seat)) throw unknownName('UNKNOWN_SEAT', 'seat', seat, [...sideIds, ...powerIds]);
    const powers = side ? [...side.powers] : [seat];
    powersOf[seat] = powers;
    for (const p of powers) claims.set(p, [...(claims.get(p) ?? []), seat]);
  }

  const uncovered = powerIds.filter((p) => !claims.has(p));
  const doubled = powerIds.filter((p) => (claims.get(p)?.length ?? 0) > 1);
  if (uncovered.length || doubled.length) {
    const problems = [
      ...(uncovered.length ? [`not covered by any seat: ${uncovered.map((p) => `${p} (side ${sideOf.get(p)})`).join(', ')}`] : []),
      ...(doubled.length ? [`covered by more than one seat: ${doubled.map((p) => `${p} (by ${claims.get(p)?.join(' and ')})`).join(', ')}`] : []),
    ];
    throw new SalientError(
      'BAD_SEATS',
      `Scenario '${scenario.id}' powers ${problems.join('; powers ')}. Give every power exactly one seat: ` +
        `one seat per side (${sideIds.join(', ')}) or one per power (${powerIds.join(', ')}), or a mix that covers each power once.`,
    );
  }
  const seatOf = new Map([...claims].map(([p, [seat]]) => [p, seat as string]));
  return { seatOf, powersOf, sideOf };
}
