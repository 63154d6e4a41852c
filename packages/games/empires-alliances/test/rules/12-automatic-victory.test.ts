/** 12 Automatic Victory: the odds (12.1), and an AV played in the Movement Phase on the synthetic front under both grid schemes (12.1-12.3). */
import { describe, expect, it } from 'vitest';
import { avNeeded } from '../../src/rules/automatic-victory.ts';
import { avOddsNeeded, avReached } from '../../src/rules/combat.ts';
import { occIndex } from '../../src/rules/flow.ts';
import { FLAG, type EaState } from '../../src/rules/state.ts';
import { arrange, nb, opts, play, SCHEMES, start, unitsOf } from '../support/play.ts';

describe('12.1 automatic victory', () => {
  it('needs 8-1, 10-1 in defensive terrain or Mud/Snow, 12-1 with both', () => {
    expect(avOddsNeeded(false, false)).toBe(8);
    expect(avOddsNeeded(true, false)).toBe(10);
    expect(avOddsNeeded(false, true)).toBe(10);
    expect(avOddsNeeded(true, true)).toBe(12);
  });
  it('is reached at exactly the odds', () => {
    expect(avReached(24, 3, 8)).toBe(true);
    expect(avReached(23, 3, 8)).toBe(false);
  });
});

const DIRS = ['E', 'W', 'NE', 'NW', 'SE', 'SW'] as const;

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  /**
   * In clear 2444 a French 2-2-2 Tank (defense 2), or with `entrenched` a Belgian 2-3-3 infantry (defense 3)
   * at entrenchment level 1, and `n` German 4-6-4s around it (round the six neighbours, up to two a hex),
   * the CP to move; April (Clear) unless `march`.
   */
  function ring(n: number, opt: { march?: boolean; entrenched?: boolean; spare?: boolean } = {}) {
    const { s, b } = start(undefined, scheme);
    const ge = unitsOf(b, s, { nation: 'GE' }).filter((u) => b.units[u]!.prof.id === 'ge-inf-464');
    const fr = opt.entrenched ? unitsOf(b, s, { nation: 'BE' })[0]! : unitsOf(b, s, { nation: 'FR', type: 'tank' })[0]!;
    const place: Record<number, string> = { [fr]: '2444' };
    for (let i = 0; i < n; i++) place[ge[i]!] = nb(b, '2444', DIRS[i % 6]!);
    if (opt.spare) place[ge[9]!] = nb(b, nb(b, '2444', 'E'), 'E'); // 2442, behind the ring
    const t: EaState = arrange(b, s, place);
    if (!opt.march) {
      t.turn = 1;
      t.wx = 'clear';
    }
    if (opt.entrenched) t.ent[fr] = 1;
    expect(b.avHard[b.map.hex('2444')]).toBe(0);
    return { t, b, ge, fr, att: ge.slice(0, n) };
  }

  describe('12.1 the odds in play', () => {
    it('offers an AV at 8-1 in Clear: four 4-6-4s (16) on a 2-2-2 (2), not three (12)', () => {
      expect(opts(ring(3).t)).not.toContain('av 2444');
      const { t, att } = ring(4);
      expect(opts(t)).toContain('av 2444');
      // The units are added one at a time; `go` only once they reach 8-1.
      let x = play(t, 'av 2444', `with ${att[0]}`, `with ${att[1]}`, `with ${att[2]}`).s;
      expect(opts(x)).toEqual([`with ${att[3]}`]);
      x = play(x, `with ${att[3]}`).s;
      expect(opts(x)).toEqual(['go']);
    });

    it('needs 10-1 in Mud (March 1918): four are not enough, five (20 on 2) are', () => {
      expect(opts(ring(4, { march: true }).t)).not.toContain('av 2444');
      expect(opts(ring(5, { march: true }).t)).toContain('av 2444');
    });

    it('needs 10-1 against an entrenchment (8 corps, 32 on 3) and 12-1 against one in Mud (9 corps, 36 on 3)', () => {
      expect(opts(ring(7, { entrenched: true }).t)).not.toContain('av 2444');
      expect(opts(ring(8, { entrenched: true }).t)).toContain('av 2444');
      expect(opts(ring(8, { march: true, entrenched: true }).t)).not.toContain('av 2444');
      expect(opts(ring(9, { march: true, entrenched: true }).t)).toContain('av 2444');
    });

    it('needs 10-1 in forest or a major city (avHard), 12-1 there in Mud', () => {
      const { t, b, fr } = ring(0);
      const forest = b.map.hexes.find((h) => b.map.terrainName(h) === 'forest' && b.startCtl[h]! >= 0)!;
      t.hex[fr] = forest;
      expect(avNeeded(b, t, forest, occIndex(b, t))).toBe(10);
      t.wx = 'mud';
      expect(avNeeded(b, t, forest, occIndex(b, t))).toBe(12);
    });
  });

  describe('12.2-12.3 after the AV', () => {
    it('eliminates the defenders to the pool, stops the units used, lets them advance and others pass through', () => {
      const { t, b, fr, att, ge } = ring(4, { spare: true });
      const x = play(t, 'av 2444', ...att.map((u) => `with ${u}`), 'go');
      expect(x.s.hex[fr]).toBe(-1); // Replacement Pool
      expect(x.events.find((e) => e.type === 'combat')!.data).toMatchObject({ hex: '2444', result: 'AV', defenders: 1 });
      // Where the attack came from (for a map to draw its arrows): the hexes of the units used, by id.
      expect(x.events.find((e) => e.type === 'combat')!.data!.from).toEqual([...new Set(att.map((u) => t.hex[u]!))].sort((p, q) => p - q).map((h) => b.map.id(h)));
      // 12.2: the units used may advance into the vacated hex, one at a time.
      expect(opts(x.s)).toEqual([...[...att].sort((p, q) => p - q).map((u) => `advance ${u}`), 'stay']);
      const y = play(x.s, `advance ${att[0]}`, 'stay');
      expect(b.map.id(y.s.hex[att[0]!]!)).toBe('2444');
      // They may not move on; the spare unit moves as if the cavalry had never been there (12.3).
      const o = opts(y.s);
      for (const u of att) expect(o).not.toContain(`move ${u}`);
      for (const u of att) expect(y.s.flg[u]! & FLAG.AV).toBe(FLAG.AV);
      expect(o).toContain(`move ${ge[9]}`);
      expect(opts(play(y.s, `move ${ge[9]}`).s)).toContain(`to ${nb(b, '2444', 'W')}`);
      // ... and they cannot attack in the Combat Phase (12.2): a French unit next to them is not offered.
      const z = JSON.parse(JSON.stringify(y.s)) as EaState;
      const fr2 = unitsOf(b, z, { nation: 'FR', type: 'inf' }).find((u) => z.hex[u]! < 0)!;
      z.hex[fr2] = b.map.hex(nb(b, nb(b, '2444', 'W'), 'W')); // next to the AV unit in 2445 only
      expect(opts(play(z, 'done').s)).toEqual(['done']);
      z.flg[att[1]!] = 0; // without the marker it could attack
      expect(opts(play(z, 'done').s)).toEqual([`attack ${b.map.id(z.hex[fr2]!)}`, 'done']);
    });
  });
});
