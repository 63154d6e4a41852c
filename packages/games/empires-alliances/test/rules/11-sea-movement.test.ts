/**
 * 11 Sea movement on the synthetic front (ports: Calais 2057 and Le Havre 2561 of the Allies, Antwerp
 * 1950 of the Central Powers, all on the Atlantic; Britain the off-map box of 2.3): `sea U` then
 * `to HHHH` / `to Britain`.
 */
import { describe, expect, it } from 'vitest';
import { empiresAlliances } from '../../src/game.ts';
import { boardOf, type Board } from '../../src/rules/board.ts';
import { maySea, nationSails, portsAtStart, seaPlan } from '../../src/rules/sea.ts';
import { HEX, type EaState } from '../../src/rules/state.ts';
import { corpsHalves } from '../../src/rules/units.ts';
import { frontPack } from '../support/front-map.ts';
import { arrange, nb, opts, play, SCHEMES, start, unitsOf } from '../support/play.ts';

/**
 * The Allied Movement Phase of turn `turn` (1 April 1918, 2 May) in clear weather, with the ports held
 * now as the ones held at its start. Antwerp (1950) is the Central Powers', as on the real 1918 front,
 * or the Allies' with `antwerp`.
 */
function alliedMove(b: Board, s: EaState, turn = 1, antwerp = false): EaState {
  const t = JSON.parse(JSON.stringify(s)) as EaState;
  const a = b.city.get('Antwerp')!;
  const want = antwerp ? 1 : 0;
  t.flip = t.flip.filter((h) => h !== a);
  if (b.startCtl[a] !== want) t.flip = [...t.flip, a].sort((x, y) => x - y);
  t.turn = turn;
  t.wx = 'clear';
  t.seg = 1;
  t.phase = 'move';
  t.ask = { k: 'move' };
  t.sea = {};
  t.ports = portsAtStart(b, t, 1);
  return t;
}

const ids = (b: Board, hs: readonly number[]): string[] => hs.map((h) => (h === HEX.BRITAIN ? 'Britain' : b.map.id(h)));

const b0 = (scheme: (typeof SCHEMES)[number]): Board => start(undefined, scheme).b;

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  const CALAIS = '2057';
  const LE_HAVRE = '2561';

  describe('11 sea movement', () => {
    it('is not allowed in March 1918 (S3 3.67), and is from April', () => {
      const { s, b } = start(undefined, scheme);
      const gb = unitsOf(b, s, { nation: 'GB', type: 'inf' })[0]!;
      const march = alliedMove(b, arrange(b, s, { [gb]: CALAIS }), 0);
      expect(opts(march)).toContain(`move ${gb}`);
      expect(opts(march)).not.toContain(`sea ${gb}`);
      expect(opts(alliedMove(b, march, 1))).toContain(`sea ${gb}`);
    });

    it('11.1: embarking and debarking cost 1 MP each; a 4-MP corps in Britain lands at Calais and has 2 MP left to move on', () => {
      const { s, b } = start(undefined, scheme);
      const gb = unitsOf(b, s, { nation: 'GB', type: 'inf' }).find((u) => b.units[u]!.prof.move === 4)!;
      const t = alliedMove(b, arrange(b, s, {}));
      t.hex[gb] = HEX.BRITAIN;
      expect(opts(t)).toContain(`sea ${gb}`);
      const x = play(t, `sea ${gb}`).s;
      const dest = ids(b, (x.ask as { opts: number[] }).opts);
      const calais = b.map.hex(CALAIS);
      expect(dest).toContain(CALAIS);
      const one = nb(b, CALAIS, 'E');
      const two = nb(b, one, 'E');
      const three = nb(b, two, 'E');
      expect(dest).toContain(one);
      expect(dest).toContain(two);
      expect(dest).not.toContain(three);
      for (const id of dest) expect(b.map.grid.distance(b.map.hex(id), calais)).toBeLessThanOrEqual(2);
      expect(dest.length).toBeGreaterThan(3);
      expect(dest).not.toContain('Britain');
      const y = play(x, `to ${two}`);
      expect(b.map.id(y.s.hex[gb]!)).toBe(two);
      expect(y.s.sea.GB).toBe(2);
      expect(y.events.find((e) => e.type === 'sea')!.text).toMatch(new RegExp(`moves by sea: Britain -> ${CALAIS} \\(Calais\\) -> ${two} \\(GB sea capacity 1 of 3 corps used\\)`));
      expect(opts(y.s)).not.toContain(`sea ${gb}`); // it has moved
    });

    it('11.1: a unit with 1 MP may embark and still debark with none left, stopping in the port', () => {
      const { s, b } = start(undefined, scheme);
      const gb = unitsOf(b, s, { nation: 'GB', type: 'inf' }).find((u) => b.units[u]!.prof.move === 4)!;
      const t = alliedMove(b, arrange(b, s, {}));
      t.hex[gb] = HEX.BRITAIN;
      t.mor[gb] = 1; // demoralized: MF 4 halved to 2 (8.2): 1 to embark, 1 to debark
      expect(ids(b, seaPlan(b, t, gb).opts)).toEqual([CALAIS]);
      t.wx = 'mud'; // and Mud takes 1 more (ruling mud-mf minus-one): (4 - 1) / 2 = 1 MP: embark, then debark with none left
      expect(ids(b, seaPlan(b, t, gb).opts)).toEqual([CALAIS]);
    });

    it('11.1: ground movement before: a corps reaches Calais with an MP to embark from three clear hexes away, not from four', () => {
      const { s, b } = start(undefined, scheme);
      const gb = unitsOf(b, s, { nation: 'GB', type: 'inf' }).find((u) => b.units[u]!.prof.move === 4)!;
      const three = nb(b, nb(b, nb(b, CALAIS, 'E'), 'E'), 'E');
      const four = nb(b, three, 'E');
      for (const id of [nb(b, CALAIS, 'E'), nb(b, nb(b, CALAIS, 'E'), 'E'), three, four]) expect(b.map.terrainName(b.map.hex(id))).toBe('clear');
      const near = alliedMove(b, arrange(b, s, { [gb]: three }));
      expect(opts(near)).toContain(`sea ${gb}`);
      expect(ids(b, seaPlan(b, near, gb).opts)).toEqual(['Britain']); // 3 MP to Calais, 1 to embark, none left after
      const x = play(near, `sea ${gb}`, 'to Britain');
      expect(x.s.hex[gb]).toBe(HEX.BRITAIN);
      expect(x.events.find((e) => e.type === 'sea')!.text).toContain(`${three} -> ${CALAIS} (Calais) -> Britain`);
      const far = alliedMove(b, arrange(b, s, { [gb]: four }));
      expect(maySea(b, far, gb)).toBe(false);
      expect(opts(far)).not.toContain(`sea ${gb}`);
    });

    it('11.1: both ports must be held at the start of the Movement Phase: a port taken later does not count, one lost since does not either', () => {
      const { s, b } = start(undefined, scheme);
      const gb = unitsOf(b, s, { nation: 'GB', type: 'inf' })[0]!;
      const t = alliedMove(b, arrange(b, s, { [gb]: CALAIS }));
      expect(ids(b, t.ports)).toEqual([CALAIS, LE_HAVRE]);
      expect(ids(b, portsAtStart(b, t, 0))).toEqual([]); // 11.4: Antwerp is on the Atlantic; Germany sails only on the Baltic
      const lateCalais = { ...t, ports: t.ports.filter((h) => b.map.id(h) !== CALAIS) };
      expect(opts(lateCalais)).not.toContain(`sea ${gb}`);
      const held = alliedMove(b, { ...t, flip: [...t.flip, b.map.hex(CALAIS)].sort((x, y) => x - y) });
      expect(ids(b, held.ports)).toEqual([LE_HAVRE]);
    });

    it('2.7: Antwerp, when the Allies hold it, is shut to sea movement while an enemy unit stands in 2150 or 2251', () => {
      const { s, b } = start(undefined, scheme);
      const gb = unitsOf(b, s, { nation: 'GB', type: 'inf' }).find((u) => b.units[u]!.prof.move === 4)!;
      const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' })[0]!;
      const t = alliedMove(b, arrange(b, s, {}), 1, true);
      t.hex[gb] = HEX.BRITAIN;
      t.mor[gb] = 1; // 2 MP: to a port and no further
      expect(ids(b, t.ports)).toEqual(['1950', CALAIS, LE_HAVRE]);
      expect(ids(b, seaPlan(b, t, gb).opts)).toEqual(['1950', CALAIS]);
      for (const guard of ['2150', '2251']) {
        const g = alliedMove(b, arrange(b, t, { [ge]: guard }, true), 1, true);
        expect(ids(b, seaPlan(b, g, gb).opts)).toEqual([CALAIS]);
      }
    });

    it('11.6: each country moves at most its Sea Capacity Chart corps a turn (Britain 3, the Commonwealth on Britain\'s); a US division counts as a whole corps', () => {
      const { s, b } = start(undefined, scheme);
      const gb = unitsOf(b, s, { nation: 'GB', type: 'inf' })[0]!;
      const ca = unitsOf(b, s, { nation: 'CA' })[0]!;
      const t = alliedMove(b, arrange(b, s, { [gb]: CALAIS }));
      t.hex[ca] = HEX.BRITAIN;
      expect(b.data.charts.seaCapacity.corps.GB).toBe(3);
      t.sea = { GB: 4 };
      expect(opts(t)).toContain(`sea ${gb}`);
      const x = play(t, `sea ${ca}`, `to ${CALAIS}`).s;
      expect(x.sea.GB).toBe(6);
      expect(opts(x)).not.toContain(`sea ${gb}`);
      t.sea = { GB: 5 };
      expect(opts(t)).not.toContain(`sea ${gb}`);
      // 11.6: non-US divisions and 1-factor artillery are half a corps; US divisions a whole one.
      const us = unitsOf(b, s, { nation: 'US' })[0]!;
      expect(corpsHalves(b.units[us]!.prof)).toBe(2);
      expect(corpsHalves({ ...b.units[gb]!.prof, size: 'div' })).toBe(1);
      expect(corpsHalves({ ...b.units[gb]!.prof, type: 'fa', attack: 1 })).toBe(1);
    });

    it('11.3 and ruling sea-allies: French and US units sail by default, not under british-only; Belgians never; British units land only in their 3.62 sector', () => {
      const { s, b } = start(undefined, scheme);
      const fr = unitsOf(b, s, { nation: 'FR', type: 'inf' })[0]!;
      const us = unitsOf(b, s, { nation: 'US' })[0]!;
      const be = unitsOf(b, s, { nation: 'BE' })[0]!;
      expect([nationSails(b, s, fr), nationSails(b, s, us), nationSails(b, s, be)]).toEqual([true, true, false]);
      const strict = start('sea-allies=british-only', scheme).s;
      expect([nationSails(b, strict, fr), nationSails(b, strict, us)]).toEqual([false, false]);
      // In April Le Havre (row 25) is French sector: a British corps in Britain may land only at Calais; from May at both.
      const gb = unitsOf(b, s, { nation: 'GB', type: 'inf' }).find((u) => b.units[u]!.prof.move === 4)!;
      const t = alliedMove(b, arrange(b, s, {}));
      t.hex[gb] = HEX.BRITAIN;
      t.mor[gb] = 1;
      expect(ids(b, seaPlan(b, t, gb).opts)).toEqual([CALAIS]);
      const may = alliedMove(b, t, 2);
      expect(ids(b, seaPlan(b, may, gb).opts)).toEqual([CALAIS, LE_HAVRE]);
    });

    it('11.9: a unit may rail to a port (1 MP to entrain, 1 to detrain) and embark with what is left; both capacities are used', () => {
      const raw = frontPack(scheme) as { map: { rail: [string, string][] } };
      raw.map.rail.push(['2056', CALAIS]); // a spur to Calais, for this test only
      const c = empiresAlliances.checkPack(raw);
      if (!c.ok) throw new Error(c.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
      const s = empiresAlliances.setup('1918', c.pack, { deploy: 'deal' });
      const bd = boardOf(s.key);
      const gb = unitsOf(bd, s, { nation: 'GB', type: 'inf' }).find((u) => bd.units[u]!.prof.move === 4)!;
      const t = alliedMove(bd, arrange(bd, s, { [gb]: '2456' }));
      expect(bd.map.grid.distance(bd.map.hex('2456'), bd.map.hex(CALAIS))).toBeGreaterThan(3); // out of reach on foot
      expect(opts(t)).toContain(`sea ${gb}`);
      expect(ids(bd, seaPlan(bd, t, gb).opts)).toEqual(['Britain']); // 4 MP: 3 to entrain, detrain and embark, 1 to debark
      const x = play(t, `sea ${gb}`, 'to Britain');
      expect(x.s.hex[gb]).toBe(HEX.BRITAIN);
      expect([x.s.rail.GB, x.s.sea.GB]).toEqual([2, 2]);
      expect(x.events.find((e) => e.type === 'sea')!.text).toContain(`2456 -> ${CALAIS} (Calais) by rail -> Britain`);
      const full = { ...t, rail: { GB: 18 } }; // 9.5: Britain's 9 corps of rail used up
      expect(opts(full)).not.toContain(`sea ${gb}`);
      const noSpur = alliedMove(b0(scheme), arrange(b0(scheme), start(undefined, scheme).s, { [gb]: '2456' }));
      expect(opts(noSpur)).not.toContain(`sea ${gb}`);
    });

    it('11.2: from the Atlantic to the Mediterranean takes every MP: only from the port of embarkation, ending in the port of debarkation', () => {
      const raw = frontPack(scheme) as { charts: { seaCapacity: { ports: Record<string, string> } } };
      raw.charts.seaCapacity.ports['Le Havre'] = 'mediterranean'; // a test-only geography
      const c = empiresAlliances.checkPack(raw);
      if (!c.ok) throw new Error('pack');
      const s = empiresAlliances.setup('1918', c.pack, { deploy: 'deal' });
      const bd = boardOf(s.key);
      const gb = unitsOf(bd, s, { nation: 'GB', type: 'inf' }).find((u) => bd.units[u]!.prof.move === 4)!;
      const t = alliedMove(bd, arrange(bd, s, {}), 2);
      t.hex[gb] = HEX.BRITAIN;
      const dest = ids(bd, seaPlan(bd, t, gb).opts);
      expect(dest).toContain(LE_HAVRE);
      expect(dest.filter((id) => id !== LE_HAVRE && bd.map.grid.distance(bd.map.hex(id), bd.map.hex(LE_HAVRE)) <= 1 && bd.map.grid.distance(bd.map.hex(id), bd.map.hex(CALAIS)) > 2)).toEqual([]);
      const next = nb(bd, CALAIS, 'E');
      const u = alliedMove(bd, arrange(bd, s, { [gb]: next }), 2);
      expect(ids(bd, seaPlan(bd, u, gb).opts)).not.toContain(LE_HAVRE);
      const inPort = alliedMove(bd, arrange(bd, s, { [gb]: CALAIS }), 2);
      expect(ids(bd, seaPlan(bd, inPort, gb).opts)).toContain(LE_HAVRE);
    });
  });
});
