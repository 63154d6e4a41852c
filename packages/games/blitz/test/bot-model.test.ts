/**
 * The model's hooks for search bots besides the evaluation (src/rules/query.ts): whose impulse it is
 * (`phasing`, 2.1) and whether a combat is under way (`inCombat`, 4.4, 6, E), checked against the
 * prompts a random game poses.
 */
import { describe, expect, it } from 'vitest';
import { RngStreams } from '@salient/engine';
import { blitz } from '../src/index.ts';
import type { BlitzState } from '../src/rules/state.ts';
import { pack } from './helpers.ts';

/** Prompts only the phasing side is asked, outside any combat. */
const MOVER = new Set(['move-pick', 'move-step', 'announce-attack', 'commit-attackers', 'rebase-pick', 'resolve-order', 'sea-pick', 'sea-combat-order']);
/** Prompts asked inside a land area combat only (6.5, 6.6). */
const FIGHTING = new Set(['assign-damage', 'block-advance', 'choose-retreating-unit', 'return-to-base']);

describe('model hooks for search bots: phasing and inCombat', () => {
  it.each(['B', 'D'])('name the phasing side as the prompts of a random game of %s do', (scenario) => {
    const { phasing, inCombat } = blitz.model as Required<NonNullable<typeof blitz.model>>;
    const rng = new RngStreams(7);
    let s: BlitzState = blitz.setup(scenario, pack);
    const wrong: string[] = [];
    const seen = new Set<string>();
    for (let step = 0; step < 4_000; step++) {
      const p = blitz.pending(s);
      if (p.kind === 'terminal') break;
      if (p.kind === 'decision') {
        const reacting = !phasing(s).includes(p.power);
        const where = `step ${step} turn ${s.turn} impulse ${s.impulse}: ${p.power} ${p.prompt}`;
        if (MOVER.has(p.prompt) && (reacting || inCombat(s))) wrong.push(`${where}: reacting ${reacting}, inCombat ${inCombat(s)}`);
        // 5.3: support is committed to announced attacks before any is resolved.
        if (p.prompt === 'commit-defence' && (!reacting || inCombat(s))) wrong.push(`${where}: reacting ${reacting}, inCombat ${inCombat(s)}`);
        if (FIGHTING.has(p.prompt) && !inCombat(s)) wrong.push(`${where}: not in combat`);
        // 7.8: every power builds on its own account at the turn end.
        if (p.prompt === 'build-pick' && reacting) wrong.push(`${where}: a reaction`);
        seen.add(`${p.prompt}${reacting ? ' (reaction)' : ''}`);
      }
      const choice = p.kind === 'decision' ? rng.get('pick').pick(p.options) : rng.get(p.stream).sample(p.outcomes);
      s = blitz.apply(s, choice).state;
    }
    expect(wrong).toEqual([]);
    expect(seen).toContain('commit-defence (reaction)');
    expect(seen).toContain('assign-damage (reaction)');
    expect(seen).toContain('resolve-order');
  });
});
