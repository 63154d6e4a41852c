/**
 * 2.3 Britain, an off-map box, on the synthetic front: British and Commonwealth reinforcements (17.121)
 * and replacements (17.25) arrive there, three of each a turn; units there are in supply (14.31) and
 * out of the fighting; the board view counts them.
 */
import { describe, expect, it } from 'vitest';
import { empiresAlliances } from '../../src/game.ts';
import { boardOf, type Board } from '../../src/rules/board.ts';
import { HEX, type EaState } from '../../src/rules/state.ts';
import { frontPack } from '../support/front-map.ts';
import { game, opts, play, SCHEMES, skipUntil, start, unitsOf } from '../support/play.ts';

const aprilAllied = (x: EaState) => x.turn === 1 && x.seg === 1 && x.phase === 'move';

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  describe('2.3 Britain', () => {
    it('17.121: the April British corps arrives in Britain, not on the map', () => {
      const { s, b } = start(undefined, scheme);
      const gb = b.units.findIndex((u) => u.nation === 'GB' && u.arrives === b.first + 1);
      expect(s.hex[gb]).toBe(HEX.NOT_ARRIVED);
      const april = skipUntil(s, aprilAllied);
      expect(april.hex[gb]).toBe(HEX.BRITAIN);
      expect(opts(april)).toContain(`sea ${gb}`);
      expect(opts(april)).not.toContain(`move ${gb}`);
    });

    it('17.121: at most three reinforcements a turn go to London; the rest wait for the next turn (17.11)', () => {
      const raw = frontPack(scheme) as { scenarios: { scenarios: { reinforcements: { profile: string; count: number; month: string }[] }[] } };
      const r = raw.scenarios.scenarios[0]!.reinforcements.find((x) => x.profile === 'gb-inf-464' && x.month === '1918-04')!;
      r.count = 5;
      const c = empiresAlliances.checkPack(raw);
      if (!c.ok) throw new Error(c.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
      const s = empiresAlliances.setup('1918', c.pack, { deploy: 'deal' });
      const b = boardOf(s.key);
      const five = b.units.flatMap((u, i) => (u.nation === 'GB' && u.arrives === b.first + 1 ? [i] : []));
      expect(five).toHaveLength(5);
      const april = skipUntil(s, aprilAllied);
      expect(five.map((u) => april.hex[u])).toEqual([HEX.BRITAIN, HEX.BRITAIN, HEX.BRITAIN, HEX.NOT_ARRIVED, HEX.NOT_ARRIVED]);
      const may = skipUntil(april, (x) => x.turn === 2 && x.seg === 1 && x.phase === 'move');
      expect(five.map((u) => may.hex[u])).toEqual(Array(5).fill(HEX.BRITAIN));
    });

    it('17.25: British replacements are rebuilt in Britain, three a turn', () => {
      const { s, b } = start(undefined, scheme);
      const gbInf = (bd: Board) => bd.units.flatMap((u, i) => (u.prof.id === 'gb-inf-464' && s.hex[i]! >= 0 ? [i] : []));
      const four = gbInf(b).slice(0, 4);
      const t = JSON.parse(JSON.stringify(s)) as EaState;
      for (const u of four) t.hex[u] = HEX.POOL;
      t.rp.GB = [24, 0, 0];
      const buy = skipUntil(t, (x) => x.ask.k === 'buy' && x.seg === 1);
      expect(opts(buy)).toContain(`buy ${four[0]}`);
      const x = play(buy, `buy ${four[0]}`, `buy ${four[1]}`);
      expect(x.s.ask.k).toBe('buy'); // one place only: no `at` question
      expect(x.events.find((e) => e.type === 'replacement')!.text).toMatch(/is rebuilt in Britain for 4 inf RP/);
      const y = play(x.s, `buy ${four[2]}`).s;
      expect(four.map((u) => y.hex[u])).toEqual([HEX.BRITAIN, HEX.BRITAIN, HEX.BRITAIN, HEX.POOL]);
      expect(opts(y)).not.toContain(`buy ${four[3]}`);
    });

    it('14.31: units in Britain are in supply: a marker comes off in the Supply Phase; the frame shows them on a Britain marker', () => {
      const { s, b } = start(undefined, scheme);
      const gb = unitsOf(b, s, { nation: 'GB', type: 'inf' })[0]!;
      const t = JSON.parse(JSON.stringify(s)) as EaState;
      t.hex[gb] = HEX.BRITAIN;
      t.sup[gb] = 2;
      t.mor[gb] = 1;
      const april = skipUntil(t, aprilAllied);
      expect(april.hex[gb]).toBe(HEX.BRITAIN);
      expect(april.sup[gb]).toBe(0);
      const f = game.board!.frame(april);
      const marks = Object.values(f.markers ?? {}).flat().filter((m) => m.kind === 'britain');
      expect(marks).toHaveLength(1);
      expect(marks[0]!.label).toMatch(/^Britain \(2\.3\): [1-9][0-9]* units?: .*GB 4-6-4/);
      expect(Object.values(f.units).flat().map((u) => u.id)).not.toContain(String(gb));
    });

    it('the choices `to Britain` and `at Britain` are well formed', () => {
      expect(game.decode('to Britain')).toBe('to Britain');
      expect(game.decode('at Britain')).toBe('at Britain');
      expect(() => game.decode('to London')).toThrow();
    });
  });
});
