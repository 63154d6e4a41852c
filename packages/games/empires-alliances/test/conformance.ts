/**
 * The engine's conformance kit on Scenario 3 over the synthetic front map (test/support/front-map.ts):
 * random playouts to the end with every invariant checked. `npm test` plays 100 seeds, 1-50 and 101-150,
 * the expensive per-step checks on every step of the first 5 of each file and every 16th step of the
 * rest (200 seeds until 2026-11-30: a file's 100 took 24.4 s of CPU, its 50 take 15.9, measured in one
 * process); `npm run test:conformance` (SALIENT_CONFORMANCE=full) plays 1,000.
 */
import { expect } from 'vitest';
import { checkConformance, type PlayoutSummary } from '@salient/engine/testing';
import { empiresAlliances } from '../src/game.ts';
import { frontPack } from './support/front-map.ts';

const seeds = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

export function packForTests() {
  const r = empiresAlliances.checkPack(frontPack());
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  return r.pack;
}

/** `n` seeds from `from`, the first `deep` checked in full on every step. */
export function conformance(from: number, n: number, deep: number): PlayoutSummary[] {
  const pack = packForTests();
  const a = deep ? checkConformance(empiresAlliances, { pack, scenario: '1918', seeds: seeds(from, deep), deepEvery: 1 }).playouts : [];
  const b = checkConformance(empiresAlliances, { pack, scenario: '1918', seeds: seeds(from + deep, n - deep), deepEvery: 16 }).playouts;
  const all = [...a, ...b];
  expect(all).toHaveLength(n);
  expect(new Set(all.map((p) => p.finalHash)).size).toBeGreaterThan(n * 0.98);
  return all;
}
