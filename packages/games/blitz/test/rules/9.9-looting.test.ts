/**
 * 9.9 Looting: taking an enemy Factory that would score Control Industrial Might (8), the captor
 * chooses at once, Factory by Factory, its VP or, for each of them, 2 saved Resources or 1 saved
 * Oil; losing a looted Factory still costs its VP, even below zero.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { advance } from '../../src/rules/flow.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { takeControl } from '../../src/rules/politics.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, options, pack, play, prompt, until } from '../helpers.ts';

const full = (optional?: string): BlitzState => blitz.setup('full', pack, optional ? { optional } : {});
const p = packOf(full().pack);

/** `power` takes `land` outright (as a Ground Attack or a walk-in would), then play waits on the next question. */
function take(s0: BlitzState, land: string, power: string): { s: BlitzState; events: GameEvent[] } {
  const s = structuredClone(s0);
  const events: GameEvent[] = [];
  takeControl(p, s, land, power, events, 'test');
  advance(p, s, events);
  return { s, events };
}

describe('9.9 looting a Factory', () => {
  it('without the option the captor scores the Factory at once, and losing it takes the VP back (never below 0)', () => {
    const { s } = take(full(), 'london', 'GER');
    expect(s.vp!.GER).toBe(2);
    expect(s.loot).toBeUndefined();
    expect(prompt(s)).not.toBe('GER:loot-factory');
    expect(take(s, 'london', 'AFA').s.vp!.GER).toBe(0);
  });

  it('with it the captor is asked at once: the VP, or per VP 2 saved Resources or 1 saved Oil', () => {
    const { s } = take(full('9.9'), 'london', 'GER');
    expect(prompt(s)).toBe('GER:loot-factory');
    expect(options(s)).toEqual(['score london vp:2', 'loot london resources:4 oil:0', 'loot london resources:2 oil:1', 'loot london resources:0 oil:2']);
    expect(s.vp!.GER).toBe(0);
  });

  it('looting pays into the saved Oil and Resources instead of the VP', () => {
    const { s } = take(full('9.9'), 'london', 'GER');
    const r = play(s, 'loot london resources:2 oil:1');
    expect(r.state.vp!.GER).toBe(0);
    expect(r.state.saved!.GER).toBe(s.saved!.GER! + 2);
    expect(r.state.oil!.GER).toBe(s.oil!.GER! + 1);
    expect(r.state.looted).toEqual(['london']);
    expect(r.events.find((e) => e.type === 'loot')!.data).toMatchObject({ land: 'london', resources: 2, oil: 1, vp: 2 });
    // Lost again, the Factory still costs its 2 VP: Germany goes below zero.
    const lost = take(r.state, 'london', 'AFA').s;
    expect(lost.vp!.GER).toBe(-2);
    expect(lost.looted).toEqual([]);
  });

  it('choosing the VP scores as without the option', () => {
    const { s } = take(full('9.9'), 'london', 'GER');
    const r = play(s, 'score london vp:2');
    expect(r.state.vp!.GER).toBe(2);
    expect(r.state.saved!.GER).toBe(s.saved!.GER);
    expect(take(r.state, 'london', 'AFA').s.vp!.GER).toBe(0);
  });

  it('is asked Factory by Factory, and only for Factories that would score (not those of the own side)', () => {
    const a = take(full('9.9'), 'london', 'GER').s;
    const b = take(a, 'paris', 'GER').s;
    // London's question first, then Paris's.
    expect(options(b)[0]).toBe('score london vp:2');
    const c = play(b, 'score london vp:2').state;
    expect(options(c)).toEqual(['score paris vp:1', 'loot paris resources:2 oil:0', 'loot paris resources:0 oil:1']);
    const d = play(c, 'loot paris resources:0 oil:1').state;
    expect(d.vp!.GER).toBe(2);
    // Japan taking Germany's Berlin is no enemy Factory: nothing to answer.
    expect(take(full('9.9'), 'berlin', 'JAP').s.loot).toBeUndefined();
  });

  it('interrupts a move that walks into an empty enemy Factory, which then goes on', () => {
    const s0 = full('9.9');
    const empty = Object.fromEntries(Object.entries(s0.units).filter(([, u]) => u.at === 'paris').map(([id]) => [id, null]));
    let s = until(arrange(s0, { units: empty }), 'GER', 'move-pick');
    s = play(s, 'move army-group-b', 'to paris').state;
    expect(prompt(s)).toBe('GER:loot-factory');
    const r = play(s, 'score paris vp:1');
    expect(r.state.vp!.GER).toBe(1);
    expect(r.state.units['army-group-b']!.at).toBe('paris');
    expect(prompt(r.state)).toMatch(/^GER:move-(pick|step)$/);
  });
});
