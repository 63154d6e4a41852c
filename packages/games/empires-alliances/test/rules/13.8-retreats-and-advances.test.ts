/** 13.8-13.9 on the synthetic front: a combat played through the options, retreat into enemy ZOC, the owner's retreat choice, 13.84's second hex, a fort's hold (15.12), advance. */
import { describe, expect, it } from 'vitest';
import { arrange, game, nb, opts, play, SCHEMES, start, unitsOf } from '../support/play.ts';

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  function setup(attackers: number) {
    const { s, b } = start(undefined, scheme);
    const ge = unitsOf(b, s, { nation: 'GE' }).filter((u) => b.units[u]!.prof.id === 'ge-inf-684');
    const fr = unitsOf(b, s, { nation: 'FR' }).find((u) => b.units[u]!.prof.id === 'fr-inf-353')!;
    const place: Record<number, string> = { [fr]: '2444', [ge[0]!]: '2443' };
    if (attackers > 1) place[ge[1]!] = '2445';
    const t = play(arrange(b, s, place), 'done').s; // to the CP Combat Phase
    return { t, b, ge, fr };
  }

  describe('13.6 a combat through the options', () => {
    it('offers the hex, the attackers one by one, then go; two 6-8-4s on a 3-5-3 are 12 to 5, 2-1', () => {
      const { t, ge } = setup(2);
      expect(opts(t)).toEqual(['attack 2444', 'done']);
      let x = play(t, 'attack 2444');
      expect(opts(x.s)).toEqual([`with ${ge[0]}`, `with ${ge[1]}`, 'cancel']);
      x = play(x.s, `with ${ge[0]}`, `with ${ge[1]}`);
      expect(opts(x.s)).toContain('go');
      x = play(x.s, 'go');
      expect(game.pending(x.s)).toMatchObject({ kind: 'chance', stream: 'combat' });
      x = play(x.s, 'die 9');
      expect(x.events.find((e) => e.type === 'combat')!.data).toMatchObject({ odds: '2-1', drm: 0, die: 9, roll: 9, result: 'DD' });
    });
  });

  describe('13.8 retreat into enemy ZOC (13.83)', () => {
    it('eliminates a unit whose every retreat hex is in enemy ZOC (friendly units do not negate it)', () => {
      const { t, ge, fr } = setup(2);
      const x = play(t, 'attack 2444', `with ${ge[0]}`, `with ${ge[1]}`, 'go', 'die 9');
      expect(x.s.hex[fr]).toBe(-1);
      expect(x.events.some((e) => e.type === 'elimination' && /13.83/.test(e.text))).toBe(true);
    });
  });

  describe('13.8 the owner retreats (13.81)', () => {
    it('asks the defender where to go when it has a choice', () => {
      const { t, b, ge, fr } = setup(1);
      const x = play(t, 'attack 2444', `with ${ge[0]}`, 'go', 'die 10'); // 6 to 5, 1-1, a 10: DD
      const p = game.pending(x.s);
      expect(p).toMatchObject({ kind: 'decision', power: 'AL', prompt: 'retreat-hex' });
      // West, north-west and south-west of 2444 (the other three are next to the attacker in 2443).
      expect(opts(x.s).sort()).toEqual(['W', 'NW', 'SW'].map((d) => `retreat ${nb(b, '2444', d as 'W')}`).sort());
      const y = play(x.s, 'retreat 2445');
      expect(y.s.mor[fr]).toBe(1); // 13.85: Demoralized
    });
  });

  describe('13.84 over-stacking and the second retreat hex', () => {
    /** The 1-1 DD of the owner-retreat test, with three French corps in each of the defender's three retreat hexes (W, NW, SW of 2444). */
    function crowded(block: boolean) {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE' }).find((u) => b.units[u]!.prof.id === 'ge-inf-684')!;
      const fr = unitsOf(b, s, { nation: 'FR' }).find((u) => b.units[u]!.prof.id === 'fr-inf-353')!;
      const others = unitsOf(b, s, { nation: 'FR', type: 'inf' }).filter((u) => u !== fr);
      const gb = unitsOf(b, s, { nation: 'GB', type: 'inf' });
      const place: Record<number, string> = { [fr]: '2444', [ge]: '2443' };
      const ret = (['W', 'NW', 'SW'] as const).map((d) => nb(b, '2444', d));
      ret.forEach((h, i) => {
        for (let k = 0; k < 3; k++) place[others[i * 3 + k]!] = h;
      });
      // With `block`, a British corps (18.41: no stacking with the French) in each other neighbour of the west hex.
      const west = ret[0]!;
      const beyond = (['W', 'NW', 'SW'] as const).map((d) => nb(b, west, d));
      if (block) beyond.forEach((h, i) => (place[gb[i]!] = h));
      const t = play(arrange(b, s, place), 'done').s;
      const x = play(t, 'attack 2444', `with ${ge}`, 'go', 'die 10'); // 6 to 5, 1-1, a 10: DD
      return { x, b, fr, ret, west, beyond };
    }

    it('retreats into an over-stacked hex only when no hex fits, then one hex more (not back), where it must fit', () => {
      const { x, b, fr, ret, west, beyond } = crowded(false);
      expect(game.pending(x.s)).toMatchObject({ kind: 'decision', prompt: 'retreat-hex' });
      const first = opts(x.s);
      expect(first.length).toBeGreaterThan(0);
      expect(first.every((o) => ret.includes(o.slice('retreat '.length)))).toBe(true);
      expect(first).toContain(`retreat ${west}`);
      let y = play(x.s, `retreat ${west}`);
      // Four Inf/Cav in the west hex break 6.1: the retreating corps goes on, to a hex beyond.
      const second = game.pending(y.s).kind === 'decision' && y.s.ask.k === 'retreat' ? opts(y.s).map((o) => o.slice('retreat '.length)) : [b.map.id(y.s.hex[fr]!)];
      expect(second.length).toBeGreaterThan(0);
      expect(second.every((h) => beyond.includes(h))).toBe(true);
      expect(second).not.toContain('2444');
      if (y.s.ask.k === 'retreat') y = play(y.s, `retreat ${second[0]}`);
      expect(beyond).toContain(b.map.id(y.s.hex[fr]!));
      expect(y.events.filter((e) => e.type === 'retreat').length).toBeGreaterThanOrEqual(1);
    });

    it('eliminates the unit when the second hex cannot take it either', () => {
      const { x, fr, west } = crowded(true);
      const y = play(x.s, `retreat ${west}`);
      expect(y.s.hex[fr]).toBe(-1);
      expect(y.events.some((e) => e.type === 'elimination' && /13\.84/.test(e.text))).toBe(true);
    });
  });

  describe('13.9 advance after combat', () => {
    it('lets the attacking infantry into the emptied hex, taking control (4.2)', () => {
      const { t, ge } = setup(2);
      const x = play(t, 'attack 2444', `with ${ge[0]}`, `with ${ge[1]}`, 'go', 'die 9');
      expect(opts(x.s)).toEqual([`advance ${ge[0]}`, `advance ${ge[1]}`, 'stay']);
      const y = play(x.s, `advance ${ge[0]}`, 'stay');
      expect(y.s.hex[ge[0]!]).toBe(t.hex[ge[0]!]! + 1); // 2444 is the next index west of 2443
      expect(opts(y.s)).toContain('done');
    });
  });

  describe('15.1 a fort holds (15.12)', () => {
    it('lets DD-struck defenders in their own fort stay, demoralized, and counts the fort against the attack', () => {
      const { s, b } = start(undefined, scheme);
      const ge = unitsOf(b, s, { nation: 'GE' }).filter((u) => ['ge-inf-684', 'ge-inf-574'].includes(b.units[u]!.prof.id));
      const fr = unitsOf(b, s, { nation: 'FR' }).find((u) => b.units[u]!.prof.id === 'fr-inf-353')!;
      const t = play(arrange(b, s, { [fr]: '2953', [ge[0]!]: '2952', [ge[1]!]: '2954', [ge[2]!]: nb(b, '2953', 'NE') }), 'done').s;
      // 17 to 5 is 3-1; Verdun's fort gives -2: a 10 is a net 8, on 3-1 a DD.
      const x = play(t, 'attack 2953', `with ${ge[0]}`, `with ${ge[1]}`, `with ${ge[2]}`, 'go', 'die 10');
      expect(x.events.find((e) => e.type === 'combat')!.data).toMatchObject({ odds: '3-1', drm: -2, roll: 8, result: 'DD' });
      expect(x.s.hex[fr]).toBe(t.hex[fr]);
      expect(x.s.mor[fr]).toBe(1);
    });
  });

  describe('13.7 losses chosen by their owner', () => {
    it('AX: the attacker picks which 6-8-4 to lose (attack factors at least the defense, 5)', () => {
      const { t, ge } = setup(2);
      const x = play(t, 'attack 2444', `with ${ge[0]}`, `with ${ge[1]}`, 'go', 'die 1'); // 2-1, a 1: AX
      expect(game.pending(x.s)).toMatchObject({ kind: 'decision', power: 'CP', prompt: 'take-losses' });
      expect(opts(x.s)).toEqual([`lose ${ge[0]}`, `lose ${ge[1]}`]);
      const y = play(x.s, `lose ${ge[1]}`);
      expect(y.s.hex[ge[1]!]).toBe(-1);
      expect(y.s.hex[ge[0]!]).toBe(t.hex[ge[0]!]); // AX: no retreat
    });
  });
});
