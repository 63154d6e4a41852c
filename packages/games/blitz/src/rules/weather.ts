/**
 * Weather (1.4, D.2, D.6): it counts only on turns with a Snow icon on the Victory Track (which turns is
 * pack data). On such a turn, in a country with a Snow marker no air unit or CV joins a land combat
 * (so no Factory or Port Attacks there, and Ground Attacks are land units only) and the attackers'
 * Land Factors are halved; against a land area with a Snowflake marker the attackers' bombing factors
 * are halved. Only the target area's weather counts.
 */
import { landDef, scenarioDef, type PackIndex } from './pack-index.ts';
import type { BlitzState } from './state.ts';
import { fired } from './sections.ts';

export function snowTurn(p: PackIndex, s: BlitzState): boolean {
  return scenarioDef(p, s.scenario).snowTurns?.includes(s.turn) ?? false;
}

/** Whether `land` lies in a country with a Snow marker and it is a Snow turn. */
export function snowBound(p: PackIndex, s: BlitzState, land: string): boolean {
  if (!snowTurn(p, s)) return false;
  const country = landDef(p, land).country;
  return p.country.get(country)?.snow === true;
}

/**
 * Whether `sea` shows a Snow icon and it is a Snow turn. What Snow does at sea is on the Snow Effects
 * Chart, which is not in the text (4.4 only says it affects the combat). Estimated, as on land (no air
 * unit or CV joins a land combat in Snow): no air unit fights there. There is no Air Round, no air unit
 * flies in from a base, and air units already in the sea add no Naval Factors to the Naval Round; CVs
 * fight as ships with their Naval Factors.
 */
export function snowAtSea(p: PackIndex, s: BlitzState, sea: string): boolean {
  if (!snowTurn(p, s) || p.files.map.seas.find((x) => x.id === sea)?.snow !== true) return false;
  fired('1.4', s.scenario);
  return true;
}

/** Whether `land` has a Snowflake marker and it is a Snow turn. */
export function snowflakeBound(p: PackIndex, s: BlitzState, land: string): boolean {
  return snowTurn(p, s) && landDef(p, land).snowflake === true;
}

/** Multiplier for attacking Land Factors against `land` (D.2: halved in Snow on a Snow turn). */
export function snowLandMultiplier(p: PackIndex, s: BlitzState, land: string): number {
  if (!snowBound(p, s, land)) return 1;
  fired('1.4', s.scenario);
  return 0.5;
}

/** Multiplier for attacking bombing factors against `land` (D.6: halved under a Snowflake on a Snow turn). */
export function snowflakeMultiplier(p: PackIndex, s: BlitzState, land: string): number {
  if (!snowflakeBound(p, s, land)) return 1;
  fired('1.4', s.scenario);
  return 0.5;
}
