/** 10 Railheads on the synthetic front, under both grid schemes: the gauge at the start (10.1, 10.3, S3 3.46), railing up to the railhead (9.0, ruling rail-railhead), the advance in the Administrative Phase (10.2) and its rate (10.4), the Allied push-back (10.3). */
import { describe, expect, it } from 'vitest';
import { boardOf } from '../../src/rules/board.ts';
import { railDestinations, supplyOf } from '../../src/rules/flow.ts';
import { advanceRailheads, gaugeOf } from '../../src/rules/railheads.ts';
import type { EaState } from '../../src/rules/state.ts';
import { frontPack } from '../support/front-map.ts';
import { arrange, game, play, SCHEMES, unitsOf, type FrontScheme } from '../support/play.ts';

/** S3 on the synthetic front with the Central Powers' row-24 railhead put at 2450 (the rail beyond, 2451-2453, is CP ground of Allied gauge). */
function startAt2450(scheme: FrontScheme) {
  const raw = frontPack(scheme) as { scenarios: { scenarios: { railheads: string[] }[] } };
  raw.scenarios.scenarios[0]!.railheads = ['2450', ...raw.scenarios.scenarios[0]!.railheads];
  const checked = game.checkPack(raw);
  if (!checked.ok) throw new Error(checked.issues.map((i) => `${i.path}: ${i.message}`).join('\n'));
  const s = game.setup('1918', checked.pack, { deploy: 'deal' });
  return { s, b: boardOf(s.key) };
}

const ids = (b: ReturnType<typeof boardOf>, hs: number[]) => hs.map((h) => b.map.id(h));

describe.each(SCHEMES)('on the %s grid', (scheme) => {
  /** April, Clear, a German 4-6-4 in 2442 on the row-24 line and nothing else on the map. */
  function april(weather: EaState['wx'] = 'clear') {
    const { s, b } = startAt2450(scheme);
    const ge = unitsOf(b, s, { nation: 'GE', type: 'inf' }).filter((u) => b.units[u]!.prof.id === 'ge-inf-464');
    const t = arrange(b, s, { [ge[0]!]: '2442' });
    t.turn = 1;
    t.wx = weather;
    return { t, b, ge };
  }

  describe('10.1 the railheads at the start (S3 3.46, 10.3)', () => {
    it('ends the Central Powers\' rail at each railhead; the CP-held rail beyond is Allied gauge', () => {
      const { t, b } = april();
      for (const id of ['2449', '2450']) expect(gaugeOf(b, t, b.map.hex(id))).toBe(0);
      for (const id of ['2451', '2452', '2453']) {
        expect(gaugeOf(b, t, b.map.hex(id))).toBe(1);
        expect(b.startCtl[b.map.hex(id)]).toBe(0); // CP ground all the same
      }
      expect(gaugeOf(b, t, b.map.hex('2454'))).toBe(1);
    });

    it('lets a German unit rail up to the railhead and no further (9.0, ruling rail-railhead)', () => {
      const { t, b, ge } = april();
      const dest = ids(b, railDestinations(b, t, ge[0]!));
      expect(dest).toContain('2450');
      expect(dest).not.toContain('2451');
    });
  });

  describe('10.2 the advance in the Administrative Phase', () => {
    it('moves the railhead 3 hexes in Clear (10.4) along CP-held rail, after which units rail on and supply runs by rail', () => {
      const { t, b, ge } = april();
      const x = play(t, 'done', 'done'); // CP movement and combat: the admin phase advances the railheads
      const e = x.events.find((v) => v.type === 'railhead');
      const got = String(e?.data?.hexes).split(',');
      expect(got).toEqual(expect.arrayContaining(['2451', '2452', '2453']));
      // No further than 3 hexes of rail from the old railhead (2352 and 2552 lie on the column-52 line through 2452).
      for (const id of got) expect(b.map.grid.distance(b.map.hex(id), b.map.hex('2450'))).toBeLessThanOrEqual(3);
      expect(got).not.toContain('2454');
      for (const id of ['2451', '2452', '2453']) expect(gaugeOf(b, x.s, b.map.hex(id))).toBe(0);
      const y = JSON.parse(JSON.stringify(x.s)) as EaState;
      y.seg = 0;
      y.ask = { k: 'move' };
      expect(ids(b, railDestinations(b, y, ge[0]!))).toContain('2453');
    });

    it('moves it 2 hexes in Mud and 1 in Snow (10.4)', () => {
      for (const [w, want] of [['mud', ['2451', '2452']], ['snow', ['2451']]] as const) {
        const { t, b } = april(w);
        expect(ids(b, advanceRailheads(b, t, 0, []))).toEqual(want);
      }
    });

    it('stops at an enemy ZOC or unit on the line (10.2)', () => {
      const { t, b } = april();
      const fr = unitsOf(b, t, { nation: 'FR', type: 'inf' })[0]!;
      t.hex[fr] = b.map.hex('2453'); // its ZOC covers 2452; 2453 is held by it
      expect(ids(b, advanceRailheads(b, t, 0, []))).toEqual(['2451']);
    });

    it('needs the hex held by the side (a unit has entered it, 4.2)', () => {
      const { t, b } = april();
      t.flip.push(b.map.hex('2452')); // the Allies hold 2452
      t.flip.sort((p, q) => p - q);
      expect(ids(b, advanceRailheads(b, t, 0, []))).toEqual(['2451']);
    });
  });

  describe('10.3 the Allies push the Central Powers\' railheads back', () => {
    it('turns CP rail the Allies have taken into Allied rail, from their own rail onwards', () => {
      const { t, b } = april();
      for (const id of ['2453', '2452', '2451', '2450']) t.flip.push(b.map.hex(id));
      t.flip.sort((p, q) => p - q);
      t.seg = 1;
      expect(gaugeOf(b, t, b.map.hex('2450'))).toBe(0);
      expect(ids(b, advanceRailheads(b, t, 1, []))).toEqual(['2450']);
      expect(gaugeOf(b, t, b.map.hex('2450'))).toBe(1);
      // and the Allies' supply now runs by rail to it
      expect(supplyOf(b, t, 1)[b.map.hex('2450')]).toBeGreaterThanOrEqual(0);
    });
  });
});
