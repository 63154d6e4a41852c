/**
 * The impulse summary the game hands the runner (state-summary.ts, worked out per scenario once) against
 * rules/victory.ts `summarize`: the same figures with their members in the same order (a telemetry row
 * stores them as written), at every impulse end of random games of every scenario, on states built in
 * place (`applyOwned`, the runner's path) and on copies (`apply`).
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../src/game.ts';
import { summarizeBlitz } from '../src/state-summary.ts';
import { packOf } from '../src/rules/pack-index.ts';
import type { BlitzState } from '../src/rules/state.ts';
import { summarize } from '../src/rules/victory.ts';
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

function expectSame(s: BlitzState): void {
  const want = summarize(packOf(s.pack), s);
  const got = summarizeBlitz(s);
  // toEqual ignores the order of members; the stored text does not.
  expect(JSON.stringify(got)).toBe(JSON.stringify(want));
  expect(blitz.summarize!(s)).toEqual(want);
}

describe('the impulse summary', () => {
  it.each(['A', 'B', 'C', 'D', 'E', 'F', 'full'])('is the rules summary, member for member, at every impulse end (Scenario %s)', (scenario) => {
    const short = scenario === 'A' || scenario === 'B';
    let checked = 0;
    for (let seed = 1; seed <= (short ? 6 : 2); seed++) {
      checked += checkGame(scenario, seed, seed % 2 === 1, short ? 20_000 : 800);
    }
    expect(checked).toBeGreaterThan(short ? 30 : 6);
  });
});
