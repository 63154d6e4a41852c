/**
 * Shared fixtures for the pack tests: the bundled approximation pack as checked data, a mutable raw
 * copy to break on purpose, the checker's issues (and an assertion on one), a scenario's index and JSON path in
 * scenarios.json, lookups by id, and naval-move distances for recomputing a scenario's seas in play.
 */
import { expect } from 'vitest';
import { checkBlitzPack } from '../../src/pack/check.ts';
import { approximationPack } from '../../src/pack/bundled.ts';
import type { MapDef, PackFiles } from '../../src/pack/schema.ts';

// Mutable, untyped view of the JSON for breaking it on purpose.
export type Raw = Record<string, any>;

export const fresh = (): Raw => structuredClone(approximationPack) as Raw;

/** The bundled pack as checked data (throws with every issue if it does not check). */
export function load(): PackFiles {
  const r = checkBlitzPack(approximationPack);
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  return r.data;
}

export function issuesOf(raw: unknown): { path: string; message: string }[] {
  const r = checkBlitzPack(raw);
  return r.ok ? [] : r.issues;
}

/** The checker refuses `raw` with an issue at `path` whose message matches `message`. */
export function expectIssue(raw: Raw, path: string, message: RegExp): void {
  const found = issuesOf(raw);
  expect(found.map((i) => i.path)).toContain(path);
  expect(found.find((i) => i.path === path)!.message).toMatch(message);
}

/** Where scenario `id` sits in scenarios.json: its index, its JSON path, and its object in a raw copy. */
export function scenarioAt(id: string): { index: number; path: string; raw: (raw: Raw) => Raw } {
  const index = (fresh().scenarios.scenarios as { id: string }[]).findIndex((s) => s.id === id);
  return { index, path: `$.scenarios.scenarios[${index}]`, raw: (raw) => raw.scenarios.scenarios[index] };
}

/** Lookups by id in checked pack data. */
export function lookups(p: PackFiles) {
  return {
    land: (id: string) => p.map.lands.find((l) => l.id === id)!,
    unit: (id: string) => p.units.units.find((u) => u.id === id)!,
    landsOf: (country: string) => p.map.lands.filter((l) => l.country === country).map((l) => l.id),
  };
}

/** Naval moves from a land area's port: its port's sea is move 1, each further sea border or strait one more. */
export function naval(map: MapDef, from: string): Map<string, number> {
  const adj = new Map<string, Set<string>>();
  const link = (a: string, b: string): void => {
    adj.set(a, (adj.get(a) ?? new Set()).add(b));
    adj.set(b, (adj.get(b) ?? new Set()).add(a));
  };
  for (const [a, b] of map.seaBorders) link(a, b);
  for (const st of map.straits ?? []) link(st.seas[0], st.seas[1]);
  const dist = new Map<string, number>();
  let frontier = map.lands.find((l) => l.id === from)!.ports.flatMap((p) => p.seas);
  for (const s of frontier) dist.set(s, 1);
  while (frontier.length) {
    const next: string[] = [];
    for (const s of frontier)
      for (const t of adj.get(s) ?? []) {
        if (dist.has(t)) continue;
        dist.set(t, dist.get(s)! + 1);
        next.push(t);
      }
    frontier = next;
  }
  return dist;
}
