/**
 * 20 Weather, and the movement factor it changes with supply and morale (8.2, 13.85, 14.6). The
 * weather die is rolled once a turn by the Central Powers (7.1); S3 forces March 1918 to Mud (3.66).
 */
import { MONTHS, type Charts, type Weather } from '../pack/schema.ts';
import { reading, type RulingChoice } from './rulings.ts';

export interface TurnWeather {
  west: Weather;
  east: Weather;
}

/** 20.1: the Weather Table's result for a month (1-12) and die (1-10); a single result covers both zones. */
export function weatherFor(table: Charts['weather'], month: number, die: number): TurnWeather {
  const row = table.byMonth[MONTHS[month - 1]!];
  const cell = row[die - 1];
  if (cell === undefined) throw new Error(`weather table has no cell for month ${month}, die ${die}`);
  return typeof cell === 'string' ? { west: cell, east: cell } : { west: cell[0], east: cell[1] };
}

/** 20.2 note: across both zones the harsher weather applies. */
export const harsher = (a: Weather, b: Weather): Weather => (a === 'snow' || b === 'snow' ? 'snow' : a === 'mud' || b === 'mud' ? 'mud' : 'clear');

/** 14.2, 20.22, 20.23: the overland supply path's length (5, 4 in Mud, 3 in Snow). */
export const supplyLength = (w: Weather): number => (w === 'clear' ? 5 : w === 'mud' ? 4 : 3);
/** 10.4: hexes a railhead may advance a turn (3, 2 in Mud, 1 in Snow). */
export const railheadAdvance = (w: Weather): number => (w === 'clear' ? 3 : w === 'mud' ? 2 : 1);
/** 9.1, 20.23: hexes of one rail move (30, 24 in Snow). */
export const railHexes = (w: Weather): number => (w === 'snow' ? 24 : 30);

/** What changes a unit's MF this turn (8.2). */
export interface MfInput {
  printed: number;
  weather: Weather;
  /** Effective unsupplied level (after 14.63's delay): 1 loses a MP, 2 or more halves. */
  supplyLevel: number;
  demoralized: boolean;
}

/** 8.2: the unit's MF after weather, supply and demoralization, never below 1. */
export function movementFactor(x: MfInput, rulings: RulingChoice): number {
  const mudHalves = reading(rulings, 'mud-mf') === 'halve-up';
  let mf = x.printed;
  if (reading(rulings, 'mf-order') === 'as-listed') {
    mf = moraleStep(x, supplyStep(x, weatherStep(x, mudHalves, mf)));
  } else {
    // Every subtraction first, then every halving.
    if (x.weather === 'mud' && !mudHalves) mf -= 1;
    if (x.supplyLevel === 1) mf -= 1;
    if (x.weather === 'snow' || (x.weather === 'mud' && mudHalves)) mf = Math.ceil(mf / 2);
    if (x.supplyLevel >= 2) mf = Math.floor(mf / 2);
    mf = moraleStep(x, mf);
  }
  return Math.max(1, mf);
}

// The steps of 8.2 as module functions (not closures made per call: the movement search asks for MF often).
function weatherStep(x: MfInput, mudHalves: boolean, mf: number): number {
  return x.weather === 'snow' || (x.weather === 'mud' && mudHalves) ? Math.ceil(mf / 2) : x.weather === 'mud' ? mf - 1 : mf;
}
function supplyStep(x: MfInput, mf: number): number {
  return x.supplyLevel >= 2 ? Math.floor(mf / 2) : x.supplyLevel === 1 ? mf - 1 : mf;
}
function moraleStep(x: MfInput, mf: number): number {
  return x.demoralized ? Math.floor(mf / 2) : mf;
}
