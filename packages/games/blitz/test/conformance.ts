/**
 * The engine's conformance kit over 500 seeds of one scenario: random playouts to the end with every
 * invariant checked (legal options, chance sums, JSON round-trip, no mutation, two identical copies,
 * replay reproduces the final hash). The expensive per-step checks run on every step for the first 40
 * seeds and on every 8th step for the rest, to keep the suite fast (the longer scenarios check fewer
 * seeds in full and sample the rest more thinly; every step of every seed still gets the cheap checks). One file per scenario so vitest
 * runs them in parallel.
 */
import { expect } from 'vitest';
import { checkConformance, type PlayoutSummary } from '@salient/engine/testing';
import { blitz } from '../src/index.ts';
import { pack } from './helpers.ts';

const seeds = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

export function conformance500(scenario: string, n = 500, draws = false, deep = { seeds: 40, every: 8 }): PlayoutSummary[] {
  const full = checkConformance(blitz, { pack, scenario, seeds: seeds(1, deep.seeds), deepEvery: 1 });
  const rest = checkConformance(blitz, { pack, scenario, seeds: seeds(deep.seeds + 1, n - deep.seeds), deepEvery: deep.every });
  const all = [...full.playouts, ...rest.playouts];
  expect(all).toHaveLength(n);
  expect(new Set(all.map((p) => p.finalHash)).size).toBeGreaterThan(n * 0.98);
  // Every game ends with exactly one winning side, or none where the scenario has draws (victory paths have tests of their own).
  expect(all.every((p) => p.winners.length === 1 || (draws && p.winners.length === 0))).toBe(true);
  return all;
}
