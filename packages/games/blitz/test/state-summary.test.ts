/**
 * The impulse summary the game hands the runner (rules/victory.ts `summarize`, its scenario's part
 * worked out once) against a recount from the rules' own `scores` and `onMap`: the same figures with
 * their members in the same order (a telemetry row stores them as written), at every impulse end of
 * random games of every scenario, on states built in place (`applyOwned`, the runner's path) and on
 * copies (`apply`).
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../src/game.ts';
import { packOf, scenarioDef } from '../src/rules/pack-index.ts';
import { onMap } from '../src/rules/query.ts';
import type { BlitzState } from '../src/rules/state.ts';
import { scores, summarize } from '../src/rules/victory.ts';
import { pack } from './helpers.ts';

/** Checks the summary at every impulse end of a game with uniformly random choices (a small LCG, so runs repeat); returns how many. */
function checkGame(scenario: string, seed: number, owned: boolean, maxSteps: number): number {
  let x = seed >>> 0;
  const next = () => (x = (Math.imul(x, 1664525) + 1013904223) >>> 0) / 0x1_0000_0000;
  let s = blitz.setup(scenario, pack);
  let checked = 0;
  for (let i = 0; i < maxSteps; i++) {
    const p = blitz.pending(s);
    if (p.kind === 'terminal') break;
    const choice = p.kind === 'decision' ? p.options[Math.floor(next() * p.options.length)]! : p.outcomes[Math.floor(next() * p.outcomes.length)]!.outcome;
    const step = owned ? blitz.applyOwned!(s, choice) : blitz.apply(s, choice);
    s = step.state;
    if (step.boundary === 'impulse' || step.boundary === 'turn') {
      expectSame(s);
      checked++;
    }
  }
  expectSame(s);
  return checked + 1;
}

/**
 * The summary recounted plainly: areas controlled in `control`'s order; per power, in the scenario's
 * order, the units on the map and their Size, and the objective areas held as `scores` counts them
 * (its score less victory points, which the impulse summary leaves out, less the Size, over 10).
 */
function recount(s: BlitzState) {
  const p = packOf(s.pack);
  const control: Record<string, number> = {};
  for (const land in s.control) if (s.control[land] !== 'neutral') control[s.control[land]!] = (control[s.control[land]!] ?? 0) + 1;
  const total = scores(p, s);
  const out = { scores: {} as Record<string, number>, control, extra: {} as Record<string, number> };
  for (const pw of scenarioDef(p, s.scenario).powers) {
    const mine = onMap(s).filter(([, u]) => u.power === pw.id);
    const size = mine.reduce((a, [, u]) => a + u.size, 0);
    const score = total[pw.id]! - (s.vp?.[pw.id] ?? 0) * 10;
    out.extra[`${pw.id}.objectives`] = (score - size) / 10;
    out.extra[`${pw.id}.units`] = mine.length;
    out.extra[`${pw.id}.size`] = size;
    out.scores[pw.id] = score;
  }
  return out;
}

function expectSame(s: BlitzState): void {
  const got = blitz.summarize!(s);
  // toEqual ignores the order of members; the stored text does not.
  expect(JSON.stringify(got)).toBe(JSON.stringify(recount(s)));
  expect(summarize(packOf(s.pack), s)).toEqual(got);
}

describe('the impulse summary', () => {
  it.each(['A', 'B', 'C', 'D', 'E', 'F', 'full'])('is the recount, member for member, at every impulse end (Scenario %s)', (scenario) => {
    const short = scenario === 'A' || scenario === 'B';
    let checked = 0;
    for (let seed = 1; seed <= (short ? 6 : 2); seed++) {
      checked += checkGame(scenario, seed, seed % 2 === 1, short ? 20_000 : 800);
    }
    expect(checked).toBeGreaterThan(short ? 30 : 6);
  });
});
