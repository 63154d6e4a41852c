/**
 * 16.41-16.42 air sorties, transfers and landings, and 6.3 air bases, as the owner's decisions, on the
 * synthetic front: two German air units based at Lille (2250, a major city), the French one at Reims.
 */
import { describe, expect, it } from 'vitest';
import type { EaState } from '../../src/rules/state.ts';
import { arrange, game, opts, play, start, unitsOf } from '../support/play.ts';

function setup() {
  const { s, b } = start();
  const air = unitsOf(b, s, { nation: 'GE', type: 'air' });
  const ge = unitsOf(b, s, { nation: 'GE' }).filter((u) => b.units[u]!.prof.id === 'ge-inf-464');
  const fr = unitsOf(b, s, { nation: 'FR' }).find((u) => b.units[u]!.prof.id === 'fr-inf-353')!;
  const frAir = unitsOf(b, s, { nation: 'FR', type: 'air' })[0]!;
  // A French corps in 2351, two German corps next to it, the German air at Lille (2250).
  const t = arrange(b, s, { [fr]: '2351', [ge[0]!]: '2350', [ge[1]!]: '2250', [air[0]!]: '2250', [air[1]!]: '2250', [frAir]: b.map.id(b.city.get('Reims')!) });
  return { t, b, air, ge, fr, frAir };
}

const drmOf = (x: { events: { type: string; data?: Record<string, unknown> }[] }) => x.events.find((e) => e.type === 'combat')!.data!.drm as number;

describe('16.41 air units fly in the Movement Phase', () => {
  it('offers each air unit after the ground units, then over an enemy hex within 4, a base within 10 with room, or stay', () => {
    const { t, b, air } = setup();
    const o = opts(t);
    expect(o.slice(-3)).toEqual([`fly ${air[0]}`, `fly ${air[1]}`, 'done']);
    const x = play(t, `fly ${air[0]}`).s;
    expect(game.pending(x)).toMatchObject({ kind: 'decision', power: 'CP', prompt: 'air-mission' });
    const fo = opts(x);
    expect(fo).toContain('over 2351');
    expect(fo[fo.length - 1]).toBe('stay');
    for (const c of fo.filter((c) => c.startsWith('base '))) {
      const h = b.map.hex(c.slice(5));
      expect(b.map.city[h]!).toBeGreaterThanOrEqual(0);
      expect(b.map.grid.distance(b.map.hex('2250'), h)).toBeLessThanOrEqual(10);
    }
    for (const c of fo.filter((c) => c.startsWith('over '))) expect(b.map.grid.distance(b.map.hex('2250'), b.map.hex(c.slice(5)))).toBeLessThanOrEqual(4);
  });

  it('16.42: only air flown over the hex supports its attack, +1 each (a base within 4 no longer suffices)', () => {
    const { t, air, ge } = setup();
    const attack = (x: EaState) => play(x, 'done', 'attack 2351', `with ${ge[0]}`, 'go', ...(x.ask.k === 'pair' ? ['done'] : []), 'die 5');
    const none = attack(t);
    const one = attack(play(t, `fly ${air[0]}`, 'over 2351').s);
    expect(drmOf(one)).toBe(drmOf(none) + 1);
    expect(one.events.find((e) => e.type === 'attack')!.text).toMatch(/and air #\d+/);
    // Two air units need two infantry corps of their nation in the attack: one corps takes one.
    const two = attack(play(t, `fly ${air[0]}`, 'over 2351', `fly ${air[1]}`, 'over 2351').s);
    expect(drmOf(two)).toBe(drmOf(none) + 1);
  });

  it('16.42: after the Combat Phase a sortie lands at a friendly city within 4 hexes of the hex it supported', () => {
    const { t, b, air } = setup();
    let x = play(t, `fly ${air[0]}`, 'over 2351', 'done', 'done').s; // no attack made: it lands all the same
    if (x.ask.k === 'land') {
      expect(game.pending(x)).toMatchObject({ prompt: 'air-landing', power: 'CP' });
      for (const c of opts(x)) expect(b.map.grid.distance(b.map.hex('2351'), b.map.hex(c.slice(5)))).toBeLessThanOrEqual(4);
      x = play(x, opts(x)[0]!).s;
    }
    expect(b.map.city[x.hex[air[0]!]!]!).toBeGreaterThanOrEqual(0);
    expect(x.flg[air[0]!]! & 32).toBe(0);
    expect(x.seg).toBe(1); // the Allied segment has begun
  });
});

describe('6.3 air bases', () => {
  it('a minor city bases one air unit: once one German air unit transfers to Aachen, the other may not', () => {
    const { t, air } = setup();
    const aachen = 'base 2146';
    expect(opts(play(t, `fly ${air[0]}`).s)).toContain(aachen);
    const x = play(t, `fly ${air[0]}`, aachen).s;
    expect(opts(play(x, `fly ${air[1]}`).s)).not.toContain(aachen);
  });

  it('when the enemy takes its city, the air unit based there flies to a friendly city within 8 hexes', () => {
    const { s, b } = start();
    const reims = b.city.get('Reims')!;
    const frAir = unitsOf(b, s, { nation: 'FR', type: 'air' })[0]!;
    const ge = unitsOf(b, s, { nation: 'GE' }).find((u) => b.units[u]!.prof.id === 'ge-inf-464')!;
    const nb = [0, 1, 2, 3, 4, 5].map((d) => b.map.neighbours[reims * 6 + d]!).find((h) => h >= 0 && b.mp[h]! < 255)!;
    const t = arrange(b, s, { [ge]: b.map.id(nb), [frAir]: b.map.id(reims) });
    const x = play(t, `move ${ge}`, `to ${b.map.id(reims)}`);
    const moved = x.events.find((e) => e.type === 'air');
    expect(moved?.text).toMatch(/\(6\.3\)$/);
    const h = x.s.hex[frAir]!;
    expect(h).not.toBe(reims);
    expect(b.map.grid.distance(reims, h)).toBeLessThanOrEqual(8);
    expect(b.map.city[h]!).toBeGreaterThanOrEqual(0);
  });
});
