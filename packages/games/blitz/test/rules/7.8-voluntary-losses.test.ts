/**
 * 7.8 (and 1.7): last at its builds a power may damage or destroy any of its own on-map units, supplied
 * or not; secret like the builds (1.9) and carried out at the reveal. Scenario B's special rule forbids it.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { eventsOf, options, pack, passUntil, play, prompt, reach, start } from '../helpers.ts';
import { usaBuilds } from '../support/usa-turn-2.ts';

/** The USA's builds of the full game's Turn 2, spent and saved, at the voluntary-loss question. */
function atLastStep(): BlitzState {
  const s = usaBuilds();
  const r = play(s, 'done');
  return prompt(r.state) === 'USA:save-split' ? play(r.state, options(r.state)[0]!).state : r.state;
}

/** Play on passively to the start of the next turn, keeping the events. */
function toNextTurn(s: BlitzState) {
  const events: GameEvent[] = [];
  const next = passUntil(s, (x) => x.turn === s.turn + 1, { onStep: (_, ev) => events.push(...ev) })!;
  return { next, events };
}

describe('7.8: voluntary losses, last at the builds', () => {
  it('after spending and saving, the power is asked whether to give up units: keep, or scrap one', () => {
    const s = atLastStep();
    expect(prompt(s)).toBe('USA:voluntary-losses');
    expect(options(s)).toEqual(['keep', 'scrap']);
  });

  it('scrap lists every on-map unit of the power: destroy any, damage those with a smaller side', () => {
    const s = play(atLastStep(), 'scrap').state;
    expect(prompt(s)).toBe('USA:voluntary-loss');
    const o = options(s);
    const usa = Object.entries(s.units).filter(([, u]) => u.power === 'USA' && u.at !== 'pool' && u.at !== 'gone');
    expect(usa.length).toBeGreaterThan(0);
    for (const [id, u] of usa) {
      expect(o).toContain(`destroy ${id}`);
      const smaller = pack.data.units.units.find((d) => d.id === u.def)!.sizes[String(u.size - 1) as '1'];
      expect(o.includes(`damage ${id}`)).toBe(u.size > 1 && smaller !== undefined);
    }
    expect(o.every((x) => /^(destroy|damage) /.test(x))).toBe(true);
  });

  it('1.9: the choice is secret (the unit stays on the map, hidden from the other powers) until the reveal, which destroys it with no VP to anyone', () => {
    const s0 = play(atLastStep(), 'scrap').state;
    const id = options(s0).find((o) => o.startsWith('destroy '))!.slice(8);
    const s = play(s0, `destroy ${id}`).state;
    expect(prompt(s)).toBe('USA:voluntary-losses'); // asked again: another unit, or keep the rest
    expect(s.units[id]!.at).not.toBe('pool');
    expect(blitz.observe(s, 'USA').hidden.USA).toContainEqual({ unit: id, size: 0, at: 'destroy' });
    expect(blitz.observe(s, 'GER').hidden.USA).toBeUndefined();
    const r = play(s, 'keep');
    const { next, events } = toNextTurn(r.state);
    expect(next.units[id]!.at === 'pool' || next.units[id]!.at === 'gone').toBe(true);
    const elim = [...r.events, ...events].filter((e) => e.type === 'elimination' && e.data?.unit === id);
    expect(elim).toHaveLength(1);
    expect(elim[0]!.data).toMatchObject({ voluntary: true });
    // Nobody scored for it (the turn's VP are those of the turn's own conditions, the same as keeping it).
    const kept = toNextTurn(play(atLastStep(), 'keep').state).next;
    expect(next.vp ?? {}).toEqual(kept.vp ?? {});
  });

  it('damage takes one Size off at the reveal, and the damaged unit is no longer offered this turn', () => {
    const s0 = play(atLastStep(), 'scrap').state;
    const pick = options(s0).find((o) => o.startsWith('damage '));
    expect(pick).toBeDefined();
    const id = pick!.slice(7);
    const size = s0.units[id]!.size;
    const s = play(s0, pick!, 'scrap').state;
    expect(options(s).some((o) => o.endsWith(` ${id}`))).toBe(false);
    const r = play(s, options(s)[0]!, 'keep');
    const { next, events } = toNextTurn(r.state);
    expect(next.units[id]!.size).toBe(size - 1);
    expect([...r.events, ...events].some((e) => e.type === 'voluntary-loss' && e.data?.unit === id)).toBe(true);
  });

  it('keep ends the builds with nothing lost', () => {
    const s = atLastStep();
    const before = Object.entries(s.units).filter(([, u]) => u.power === 'USA' && u.at !== 'pool').length;
    const { next } = toNextTurn(play(s, 'keep').state);
    expect(Object.entries(next.units).filter(([, u]) => u.power === 'USA' && u.at !== 'pool').length).toBe(before);
  });

  it('B: the scenario\'s special rule forbids it, so the builds end at done', () => {
    const s = reach(start('B'), 'GER', 'build-pick');
    const r = play(s, 'done');
    expect(prompt(r.state)).not.toMatch(/voluntary/);
    expect(eventsOf(r, 'voluntary-loss')).toHaveLength(0);
  });
});
