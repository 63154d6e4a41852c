/**
 * The per-impulse telemetry summary: the same figures as the scoring rules (`scores`) and the list of
 * units on the map (`onMap`) give, at every impulse end of random games of both scenarios.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../src/game.ts';
import { onMap } from '../src/rules/query.ts';
import type { BlitzState } from '../src/rules/state.ts';
import { registerPack, scenarioDef } from '../src/rules/pack-index.ts';
import { scores } from '../src/rules/victory.ts';
import { pack } from './helpers.ts';

/** The summary spelled out from the rules' own helpers. */
function expected(s: BlitzState) {
  const p = registerPack(pack.info.hash, pack.data);
  const control: Record<string, number> = {};
  for (const c of Object.values(s.control)) if (c !== 'neutral') control[c] = (control[c] ?? 0) + 1;
  const objectives = s.scenario === 'A' ? ['paris', 'poland'] : (p.countryLands.get('germany') ?? []).filter((l) => scenarioDef(p, s.scenario).lands.includes(l));
  const extra: Record<string, number> = {};
  for (const pw of scenarioDef(p, s.scenario).powers) {
    const mine = onMap(s).filter(([, u]) => u.power === pw.id);
    extra[`${pw.id}.objectives`] = objectives.filter((l) => s.control[l] === pw.id).length;
    extra[`${pw.id}.units`] = mine.length;
    extra[`${pw.id}.size`] = mine.reduce((a, [, u]) => a + u.size, 0);
  }
  return { scores: scores(p, s), control, extra };
}

/** States at every impulse end of a game with uniformly random choices and outcomes (a small LCG, so runs repeat). */
function impulseEnds(scenario: 'A' | 'B', seed: number): BlitzState[] {
  let x = seed >>> 0;
  const next = () => ((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 0x1_0000_0000);
  let s = blitz.setup(scenario, pack);
  const out: BlitzState[] = [];
  for (let guard = 0; guard < 20_000; guard++) {
    const p = blitz.pending(s);
    if (p.kind === 'terminal') break;
    const choice = p.kind === 'decision' ? p.options[Math.floor(next() * p.options.length)]! : p.outcomes[Math.floor(next() * p.outcomes.length)]!.outcome;
    const step = blitz.apply(s, choice);
    s = step.state;
    if (step.boundary === 'impulse' || step.boundary === 'turn') out.push(s);
  }
  return out;
}

describe('summarize', () => {
  it.each(['A', 'B'] as const)('gives the scores, control and unit figures of the rules at every impulse end (Scenario %s)', (scenario) => {
    let checked = 0;
    for (let seed = 1; seed <= 8; seed++) {
      for (const s of impulseEnds(scenario, seed)) {
        expect(blitz.summarize!(s)).toEqual(expected(s));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });
});
