/**
 * 3.4: a major power that controls no unconquered country is out of the game until one of its
 * countries is liberated back to it. On the full game: Japan loses Japan and Manchuria-Korea.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { takeControl } from '../../src/rules/politics.ts';
import { advance, beginImpulse } from '../../src/rules/flow.ts';
import { controlsACountry } from '../../src/rules/liberation.ts';
import { sidePowers } from '../../src/rules/query.ts';
import { onCapture } from '../../src/rules/victory-points.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { options, pack, passUntil, play, prompt } from '../helpers.ts';

const p = packOf(blitz.setup('full', pack).pack);
const JAPAN = ['tokyo', 'osaka', 'hokkaido', 'okinawa', 'formosa', 'caroline-islands', 'marshall-islands'];
const MANCHURIA_KOREA = ['korea', 'harbin', 'port-arthur'];

/** The full game with the USA at war with Japan, Japan's units off the map. */
function pacificWar(): BlitzState {
  const s = structuredClone(blitz.setup('full', pack));
  s.wars = [...s.wars!, 'JAP~USA'].sort();
  s.neutral = (s.neutral ?? []).filter((x) => x !== 'USA');
  for (const [id, u] of Object.entries(s.units)) if (u.power === 'JAP') s.units[id] = { ...u, at: 'gone' };
  return s;
}

/** The USA takes every area of Japan and Manchuria-Korea. */
function japanOut(ev: GameEvent[] = []): BlitzState {
  const s = pacificWar();
  for (const l of [...JAPAN, ...MANCHURIA_KOREA]) takeControl(p, s, l, 'USA', ev, 'test');
  advance(p, s, ev);
  return s;
}

describe('3.4 a major power out of the game', () => {
  it('no power is out at the start of any scenario', () => {
    for (const sc of ['A', 'B', 'C', 'D', 'E', 'F', 'full']) {
      const s = blitz.setup(sc, pack);
      for (const pw of p.files.scenarios.scenarios.find((x) => x.id === sc)!.powers) expect(controlsACountry(p, s, pw.id), `${sc} ${pw.id}`).toBe(true);
      expect(s.out).toBeUndefined();
    }
  });

  it('Japan still controls a country while Manchuria-Korea, its minor ally, is not conquered; with both gone it is out', () => {
    const s = pacificWar();
    const ev: GameEvent[] = [];
    for (const l of JAPAN) takeControl(p, s, l, 'USA', ev, 'test');
    expect(s.conquered).toContain('japan');
    expect(s.out).toBeUndefined();
    expect(controlsACountry(p, s, 'JAP')).toBe(true);
    for (const l of MANCHURIA_KOREA) takeControl(p, s, l, 'USA', ev, 'test');
    expect(s.conquered).toContain('manchuria-korea');
    // Japan still holds an area of China, but China is no country of its own: it is out.
    expect(Object.entries(s.control).some(([, h]) => h === 'JAP')).toBe(true);
    expect(s.out).toEqual(['JAP']);
    expect(ev.filter((e) => e.type === 'out-of-game').map((e) => e.power)).toEqual(['JAP']);
    expect(sidePowers(p, s, 'Axis')).toEqual(['GER']);
  });

  it('a minor ally keeps it in: with the AFA at war with Japan too, South-East Asia allies with Japan, which stays in the game', () => {
    const s = pacificWar();
    s.wars = [...s.wars!, 'AFA~JAP'].sort();
    const ev: GameEvent[] = [];
    for (const l of [...JAPAN, ...MANCHURIA_KOREA]) takeControl(p, s, l, 'USA', ev, 'test');
    expect(s.conquered).toEqual(expect.arrayContaining(['japan', 'manchuria-korea']));
    expect(ev.find((e) => e.type === 'alignment' && e.power === 'JAP')?.data).toMatchObject({ country: 'south-east-asia' });
    expect(s.out).toBeUndefined();
    expect(ev.some((e) => e.type === 'out-of-game')).toBe(false);
  });

  it('out of the game, Japan is asked nothing through a turn of passive play and gets no build budget', () => {
    const s = japanOut();
    const asked = new Set<string>();
    const built = passUntil(s, (x) => x.step === 'build' && x.buildOrder.length > 0, { onStep: (q) => q.kind === 'decision' && asked.add(q.power) });
    expect(built).not.toBeNull();
    expect(asked.has('GER')).toBe(true);
    expect(asked.has('JAP')).toBe(false);
    expect(built!.buildOrder).not.toContain('JAP');
    expect(built!.buildOrder).toContain('GER');
    expect(built!.res.JAP).toBeUndefined();
  });

  it('a side whose powers are all out has no impulse: play goes straight to the other side', () => {
    const s = japanOut();
    s.out = ['GER', 'JAP']; // Germany too (set directly: conquering it is not this test's)
    beginImpulse(p, s, 1);
    expect(s.impulse).toBe(2);
    expect(s.side).toBe('Allies');
    beginImpulse(p, s, 3);
    expect(s.impulse).toBe(4);
  });

  it('out of the game, a power gains no VP (8), though it may still lose them', () => {
    const s = japanOut();
    s.vp = { ...s.vp, JAP: 3 };
    onCapture(p, s, 'london', 'JAP', []); // an enemy Factory: would gain its Factory Factor
    expect(s.vp.JAP).toBe(3);
    const t = japanOut();
    t.vp = { ...t.vp, JAP: 3 };
    delete t.out;
    onCapture(p, t, 'london', 'JAP', []);
    expect(t.vp.JAP).toBeGreaterThan(3);
  });

  it('back in the game once an ally liberates one of its countries and returns it', () => {
    const s = japanOut();
    s.wars = [...s.wars!, 'GER~USA'].sort();
    const ev: GameEvent[] = [];
    for (const l of MANCHURIA_KOREA) takeControl(p, s, l, 'GER', ev, 'test');
    advance(p, s, ev);
    expect(prompt(s)).toBe('GER:liberation-return');
    expect(options(s)).toEqual(['keep manchuria-korea', 'return manchuria-korea']);
    const kept = play(s, 'keep manchuria-korea');
    expect(kept.state.out).toEqual(['JAP']); // kept by Germany: still not Japan's
    const r = play(s, 'return manchuria-korea');
    expect(r.events.filter((e) => e.type === 'back-in-game').map((e) => e.power)).toEqual(['JAP']);
    expect(r.state.out).toBeUndefined();
    expect(sidePowers(p, r.state, 'Axis')).toEqual(['GER', 'JAP']);
  });
});
