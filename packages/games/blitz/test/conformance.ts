/**
 * The engine's conformance kit over up to 500 seeds of one scenario: random playouts to the end with every
 * invariant checked (legal options, chance sums, JSON round-trip, no mutation, two identical copies,
 * replay reproduces the final hash). The expensive per-step checks run on every step for the first 40
 * seeds and on every 8th step for the rest, to keep the suite fast (the longer scenarios check fewer
 * seeds in full and sample the rest more thinly; every step of every seed still gets the cheap checks). One file per scenario so vitest
 * runs them in parallel.
 */
import { expect } from 'vitest';
import type { JsonObject } from '@salient/engine';
import { checkConformance, type PlayoutSummary } from '@salient/engine/testing';
import { blitz } from '../src/index.ts';
import { pack } from './helpers.ts';

const seeds = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

export function conformance500(scenario: string, n = 500, draws = false, deep = { seeds: 40, every: 8 }, options?: JsonObject): PlayoutSummary[] {
  const opts = options ? { options } : {};
  const full = checkConformance(blitz, { pack, scenario, seeds: seeds(1, deep.seeds), deepEvery: 1, ...opts });
  const rest = checkConformance(blitz, { pack, scenario, seeds: seeds(deep.seeds + 1, n - deep.seeds), deepEvery: deep.every, ...opts });
  const all = [...full.playouts, ...rest.playouts];
  expect(all).toHaveLength(n);
  expect(new Set(all.map((p) => p.finalHash)).size).toBeGreaterThan(n * 0.98);
  // Every game ends with exactly one winning side, or none where the scenario has draws (victory paths have tests of their own).
  expect(all.every((p) => p.winners.length === 1 || (draws && p.winners.length === 0))).toBe(true);
  return all;
}

/**
 * The long scenarios (D-F and the full game, thousands of steps a game): `npm run test:conformance`
 * plays 200 seeds each (20 checked in full on every step, the rest on every 16th; the full game 60, 6 in
 * full); `npm test` plays 40 (F 20, the full game 6, with the optional rules 4), every step of every
 * seed with the cheap checks, the expensive ones on every step of the first seeds (4 of D and E, 2 of
 * F, 1 of the full game) and on every 32nd step of the rest. The expensive checks are most of the cost
 * (a D game checked on every step costs about seven cheap ones): `npm test` samples them more thinly
 * to keep the suite within its budget on two cores, and the full run checks as before. bench/RESULTS.md
 * records the last full run.
 */
export function conformanceSeeds(scenario: string, options?: JsonObject): PlayoutSummary[] {
  const full = process.env.SALIENT_CONFORMANCE === 'full';
  // The full game with set-up options (the optional rules): 20 games in the full run, 4 in `npm test`.
  if (options) return full ? conformance500(scenario, 20, true, { seeds: 2, every: 16 }, options) : conformance500(scenario, 4, true, { seeds: 1, every: 32 }, options);
  // The full game (about 4000 steps on the whole world): 60 games in the full run, 6 in `npm test`.
  if (scenario === 'full') return full ? conformance500(scenario, 60, true, { seeds: 6, every: 16 }) : conformance500(scenario, 6, true, { seeds: 1, every: 32 });
  if (full) return conformance500(scenario, 200, true, { seeds: 20, every: 16 });
  // F's games are the longest of the short scenarios (about 3500 steps): half as many in `npm test`.
  return scenario === 'F' ? conformance500(scenario, 20, true, { seeds: 2, every: 32 }) : conformance500(scenario, 40, true, { seeds: 4, every: 32 });
}

/**
 * Scenarios A, B and C (short games, about 150 steps): `npm test` plays 200 seeds each, the expensive
 * checks on every step of the first 10 and on every 16th step of the rest; `npm run test:conformance`
 * plays `full` seeds (500 of A and B, 200 of C), the expensive checks on every step of the first 40
 * and on every 8th step of the rest. (`npm test` played 500 until 2026-11-28, and checked the first 40
 * seeds on every step and every 8th step of the rest until 2026-11-30: the 200 seeds of C took 29-33 s
 * of CPU that way and 18 s this way, A 4.6-7.1 s and 3.7 s, measured in one process. Every step of
 * every seed still gets the cheap checks, and the full run checks as before.)
 */
export function conformanceShort(scenario: string, full = 500, draws = false): PlayoutSummary[] {
  return process.env.SALIENT_CONFORMANCE === 'full' ? conformance500(scenario, full, draws) : conformance500(scenario, 200, draws, { seeds: 10, every: 16 });
}

/**
 * Outcomes of `n` more random games from seed `from`, played with the cheap per-step checks only (the
 * expensive ones at most once a game): for judging whether random play reaches more than one outcome
 * where one side rarely wins.
 */
export function outcomesOnly(scenario: string, from: number, n: number): PlayoutSummary[] {
  return checkConformance(blitz, { pack, scenario, seeds: seeds(from, n), deepEvery: 1_000_000 }).playouts;
}
