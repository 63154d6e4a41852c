/**
 * 9.4 Land Route attacks: one Small land unit may attack across a Land Route (5.3 otherwise forbids
 * it), its Land Factors halved on top of every other modifier. On the full game's map Sicily reaches
 * Rome by a Land Route only; Milan borders it.
 */
import { describe, expect, it } from 'vitest';
import { blitz } from '../../src/index.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { arrange, options, pack, play, until } from '../helpers.ts';

const full = (optional?: string): BlitzState => blitz.setup('full', pack, optional ? { optional } : {});

/** The AFA in Sicily (Small units, Size 1 each) facing an Italian army in Rome. */
const sicily = (optional?: string) =>
  arrange(full(optional), {
    units: { '8th-army': { power: 'AFA', at: 'sicily', size: 1 }, bef: { power: 'AFA', at: 'sicily', size: 1 }, 'italian-submarines': null, 'italian-alpini-army': { at: 'rome', size: 1 } },
    control: { sicily: 'AFA' },
  });

/** The same army attacking Rome over the Milan border instead. */
const milan = (optional?: string) =>
  arrange(full(optional), {
    units: { '8th-army': { power: 'AFA', at: 'milan', size: 1 }, 'italian-1st-army': null, 'italian-alpini-army': { at: 'rome', size: 1 } },
    control: { milan: 'AFA' },
  });

/** Announce the attack on Rome with `units`, then start resolving it: the Land Round's record. */
function landRound(s0: BlitzState, units: string[]): Record<string, unknown> {
  let s = until(s0, 'AFA', 'announce-attack');
  s = play(s, 'attack rome', ...units.map((u) => `add ${u}`), 'launch', 'done').state;
  s = until(s, 'AFA', 'resolve-order');
  s = play(s, 'resolve rome').state;
  return s.combat!.log.find((l) => l.round === 'land')!;
}

describe('9.4 attacking across a Land Route', () => {
  it('without the option no attack crosses a Land Route (5.3)', () => {
    expect(options(until(sicily(), 'AFA', 'announce-attack'))).not.toContain('attack rome');
  });

  it('with it, one Small land unit may: after one is committed, no second comes across', () => {
    const s = until(sicily('9.4'), 'AFA', 'announce-attack');
    expect(options(s)).toContain('attack rome');
    const a = play(s, 'attack rome').state;
    expect(options(a)).toEqual(expect.arrayContaining(['add 8th-army', 'add bef']));
    const b = play(a, 'add 8th-army').state;
    expect(options(b)).not.toContain('add bef');
    expect(options(b)).toContain('launch');
    expect(b.attacks[0]!.routed).toBe('8th-army');
  });

  it('a Big unit (Size 3 or more) may not', () => {
    // A Size-3 army (any counter with a Big side will do) alone in Sicily.
    const s = arrange(full('9.4'), {
      units: { 'army-group-south': { power: 'AFA', at: 'sicily', size: 3 }, 'italian-submarines': null, 'italian-alpini-army': { at: 'rome', size: 1 } },
      control: { sicily: 'AFA' },
    });
    expect(options(until(s, 'AFA', 'announce-attack'))).not.toContain('attack rome');
  });

  it("halves the unit's Land Factors on top of everything else (Rome's Mountain already halves them)", () => {
    const across = landRound(sicily('9.4'), ['8th-army']);
    const border = landRound(milan('9.4'), ['8th-army']);
    // Land Factor 2, halved for the Mountain: 1 over the border, 0.5 across the Land Route.
    expect(Number(border.attRaw) - Number(across.attRaw)).toBe(0.5);
    // The option changes nothing for an attack over a border.
    expect(landRound(milan(), ['8th-army']).attRaw).toBe(border.attRaw);
  });
});
