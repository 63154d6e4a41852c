/**
 * 7.1 Partisans in the full game: China, where either side may place one in an area the other side holds
 * (the Axis first), the rulebook's example, a 3 giving the Axis their choice, which they use on
 * Chungking, and a face of several countries, where the placing side picks the country.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { applyPartisans, askPartisans } from '../../src/rules/minors.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { pack } from '../helpers.ts';

const start = (): BlitzState => structuredClone(blitz.setup('full', pack));
const p = packOf(blitz.setup('full', pack).pack);

/** Roll `face` on the Partisan Table at the turn end, and the placement question that follows. */
function roll(s: BlitzState, face: number): { power: string; options: string[] } {
  s.partisanStep = { stage: 'die' };
  expect(applyPartisans(p, s, `die ${face}`, [])).toBe(false);
  const q = askPartisans(p, s)!;
  expect(q).toMatchObject({ kind: 'decision', prompt: 'place-partisan' });
  return q as { power: string; options: string[] };
}

describe('7.1 Partisans in China', () => {
  it('on a 1 (China) the Axis may place one in any USA-held Chinese area with a Resource, though the USA held it first', () => {
    const s = start();
    const q = roll(s, 1);
    expect(['GER', 'JAP']).toContain(q.power);
    expect(q.options).toContain('partisan chungking');
    for (const o of q.options.filter((x) => x !== 'partisan none')) expect(s.control[o.slice('partisan '.length)]).toBe('USA');
  });

  it('with every Resource area of China in Japanese hands, the Allies may place it there instead', () => {
    const s = start();
    for (const l of Object.keys(s.control)) if (landCountry(l) === 'china') s.control[l] = 'JAP';
    const q = roll(s, 1);
    expect(['AFA', 'USA', 'USSR']).toContain(q.power);
    expect(q.options).toContain('partisan chungking');
  });

  it('7.1 example: a 3 gives the Axis their choice, and they place the Partisan in Chungking, which loses a Resource this turn', () => {
    const s = start();
    const q = roll(s, 3);
    expect(q.options).toContain('partisan chungking');
    const ev: GameEvent[] = [];
    expect(applyPartisans(p, s, 'partisan chungking', ev)).toBe(true);
    expect(s.partisans).toEqual(['chungking']);
    expect(ev.some((e) => e.type === 'partisans' && (e.data as { land?: string }).land === 'chungking')).toBe(true);
  });
});

describe('7.1: a face of several countries lets the placing side pick the country', () => {
  it('7.1: on a 3 with Austria-Czechoslovakia and Western Germany in Allied hands, the Axis may place it in either or in Chungking', () => {
    const s = start();
    s.control['austria-czechoslovakia'] = 'AFA';
    s.control['western-germany'] = 'AFA';
    const q = roll(s, 3);
    expect(['GER', 'JAP']).toContain(q.power);
    // Germany, Austria-Czechoslovakia and China are all on the face: every open area of each, in code-point order.
    expect(q.options).toEqual(['partisan austria-czechoslovakia', 'partisan chungking', 'partisan western-germany', 'partisan none']);
    expect(applyPartisans(p, s, 'partisan chungking', [])).toBe(true);
    expect(s.partisans).toEqual(['chungking']);
  });

  it('7.1: the side of the first country of the face with an open area places, and only in the countries it places for', () => {
    const s = start();
    s.control['austria-czechoslovakia'] = 'AFA';
    // China wholly Japanese: there the Allies would place; Austria-Czechoslovakia comes first on the face, so the Axis place.
    for (const l of Object.keys(s.control)) if (landCountry(l) === 'china') s.control[l] = 'JAP';
    const q = roll(s, 3);
    expect(['GER', 'JAP']).toContain(q.power);
    expect(q.options).toEqual(['partisan austria-czechoslovakia', 'partisan none']);
    expect(() => applyPartisans(p, s, 'partisan chungking', [])).toThrow(/no Partisan can be placed in chungking/);
  });
});

const landCountry = (l: string) => p.land.get(l)!.country;
