import { describe, expect, it } from 'vitest';
import { checkConformance, ConformanceError, diceRace, diceRacePack } from '../src/testing/index.ts';
import type { Game } from '../src/index.ts';
import type { DiceRaceChoice, DiceRaceState } from '../src/testing/index.ts';

const seeds = Array.from({ length: 200 }, (_, i) => i + 1);

describe('conformance kit', () => {
  it('passes for the synthetic Dice Race over 200 seeds', () => {
    const r = checkConformance(diceRace, { pack: diceRacePack, scenario: 'standard', seeds });
    expect(r.playouts).toHaveLength(200);
    expect(new Set(r.playouts.map((p) => p.finalHash)).size).toBeGreaterThan(150);
    expect(r.playouts.every((p) => p.chances > 0)).toBe(true);
  });

  it('catches a game whose apply mutates its input', () => {
    const bad: Game<DiceRaceState, DiceRaceChoice, DiceRaceState> = {
      ...diceRace,
      apply(s, c) {
        const step = diceRace.apply(s, c);
        s.pot = -1;
        return step;
      },
    };
    expect(() => checkConformance(bad, { pack: diceRacePack, scenario: 'standard', seeds: [1] })).toThrow(/mutated/);
  });

  it('catches chance probabilities that do not sum to 1', () => {
    const bad: Game<DiceRaceState, DiceRaceChoice, DiceRaceState> = {
      ...diceRace,
      pending(s) {
        const p = diceRace.pending(s);
        return p.kind === 'chance' ? { ...p, outcomes: p.outcomes.slice(1) } : p;
      },
    };
    expect(() => checkConformance(bad, { pack: diceRacePack, scenario: 'standard', seeds: [1] })).toThrow(ConformanceError);
  });

  it('catches an empty option list', () => {
    const bad: Game<DiceRaceState, DiceRaceChoice, DiceRaceState> = {
      ...diceRace,
      pending(s) {
        const p = diceRace.pending(s);
        return p.kind === 'decision' ? { ...p, options: [] } : p;
      },
    };
    expect(() => checkConformance(bad, { pack: diceRacePack, scenario: 'standard', seeds: [1] })).toThrow(/no legal option/);
  });

  it('catches a prompt the game does not list in its prompts', () => {
    const bad: Game<DiceRaceState, DiceRaceChoice, DiceRaceState> = {
      ...diceRace,
      pending(s) {
        const p = diceRace.pending(s);
        return p.kind === 'decision' ? { ...p, prompt: 'roll-or-fold' } : p;
      },
    };
    expect(() => checkConformance(bad, { pack: diceRacePack, scenario: 'standard', seeds: [1] })).toThrow(/prompt 'roll-or-fold' is not listed in the game's prompts/);
  });

  it('catches a game that never ends', () => {
    const bad: Game<DiceRaceState, DiceRaceChoice, DiceRaceState> = {
      ...diceRace,
      setup: (sc, p, o) => ({ ...diceRace.setup(sc, p, o), target: 1e9, maxTurns: 1e9 }),
    };
    expect(() => checkConformance(bad, { pack: diceRacePack, scenario: 'standard', seeds: [1], maxSteps: 500 })).toThrow(/no terminal/);
  });
});
