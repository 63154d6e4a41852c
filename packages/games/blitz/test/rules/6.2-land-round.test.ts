/** 6.2 (A.6): Land Round arithmetic: terrain, triangles on each side, and the Maginot Line map note. */
import { describe, expect, it } from 'vitest';
import { face, isLand } from '../../src/rules/query.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { arrange, combatLog, options, play, skipTo, start, until } from '../helpers.ts';
import { donBasin, donBasinRound } from '../support/don-basin.ts';

const p = packOf(start('D').pack);

function landRound(s: ReturnType<typeof start>, target: string, attackers: string[]) {
  const r = play(s, `attack ${target}`, ...attackers.map((a) => `add ${a}`), 'launch', 'done');
  const again = r.state.ask.kind === 'decision' && r.state.ask.options.includes('done') ? play(r.state, 'done') : r;
  return play(again.state, `resolve ${target}`).state.combat!.log.at(-1)!;
}

describe('6.2 Land Round', () => {
  it('Mountain halves the attack and gives the defenders one white triangle per attacking land unit', () => {
    // German 18th Army (LF 3) in a German-held London attacks the B.E.F. (LF 3) in Mountain Scotland.
    const s = skipTo(
      arrange(start('A'), { control: { london: 'GER' }, units: { bef: { at: 'scotland' }, 'home-guard': null, 'royal-air-force': { at: 'paris' }, '18th-army': { at: 'london' } } }),
      'announce-attack',
    );
    const land = landRound(s, 'scotland', ['18th-army']);
    expect(land.attRaw).toBe(1.5);
    expect(land.attFactors).toBe(2);
    expect(land.defRaw).toBe(4);
    expect(land.armDefence).toBe(8);
  });

  it("defenders ignore the attackers' red triangles and count their white ones", () => {
    // Waffen SS Army (3 red) and 1st Para (1 white) attack Poland: the Poles get +1, not -3.
    const s = skipTo(arrange(start('A'), { units: { 'waffen-ss-army': { at: 'berlin', power: 'GER', size: 2 } } }), 'announce-attack');
    const land = landRound(s, 'poland', ['waffen-ss-army', '1st-para']);
    expect(land.defRaw).toBe(3 + 1);
  });

  it("the Maginot Line's five red triangles count against attacks from Germany only", () => {
    const fromGermany = skipTo(arrange(start('A'), { units: { 'armee-de-l-air': { at: 'london' } } }), 'announce-attack');
    const a = landRound(fromGermany, 'paris', ['18th-army']);
    expect(a.attRaw).toBe(3 - 5);
    expect(a.attFactors).toBe(1); // minimum of 1 for a side with printed factors (6)

    const fromBeNe = skipTo(
      arrange(start('A'), { atWar: ['belgium-netherlands'], control: { 'belgium-netherlands': 'GER' }, units: { '18th-army': { at: 'belgium-netherlands' }, 'armee-de-l-air': { at: 'london' } } }),
      'announce-attack',
    );
    expect(landRound(fromBeNe, 'paris', ['18th-army']).attRaw).toBe(3);
  });
});

describe('6.2 example: the Waffen SS Army attacks Swamp Leningrad', () => {
  it('the defenders ignore its three red triangles and count one white triangle for the Swamp', () => {
    // Scenario D: the Waffen SS Army (Size 2, Land 5, three red triangles) attacks from a German-held Byelorussia.
    const d = arrange(start('D'), { units: { 'waffen-ss-army': { at: 'byelorussia', size: 2 } }, control: { byelorussia: 'GER' } });
    const s = until(d, 'GER', 'announce-attack');
    const r = play(s, 'attack leningrad', 'add waffen-ss-army', 'launch');
    const at = until(r.state, 'GER', 'resolve-order');
    const land = combatLog(play(at, 'resolve leningrad')).find((x) => x.round === 'land')!;
    const defenders = (land.defenders as string[]).filter((x) => isLand(p, at.units[x]!));
    const lf = defenders.reduce((t, x) => t + (face(p, at.units[x]!).land ?? 0), 0);
    const white = defenders.reduce((t, x) => t + (face(p, at.units[x]!).triangles?.land?.white ?? 0) - (face(p, at.units[x]!).triangles?.land?.red ?? 0), 0);
    expect(defenders.length).toBeGreaterThan(0);
    expect(land.defRaw).toBe(lf + 1);
    // Swamp halves the attack (5 / 2), and the defenders' own triangles count against it.
    expect(land.attRaw).toBe(5 / 2 + white);
  });
});

describe('6.2 example: the Soviet attack on the Don Basin', () => {
  const s = donBasin();
  it('the Cavalry cannot join from Stalingrad once Size 10 is committed from there; it could instead of the Far Eastern Front', () => {
    const r = play(s, 'attack don-basin', 'add byelorussian-front', 'add western-front', 'add guards-banner-army');
    expect(options(r.state)).toContain('add far-eastern-front');
    expect(options(r.state)).toContain('add cavalry');
    const full = play(r.state, 'add far-eastern-front');
    expect(options(full.state)).not.toContain('add cavalry');
    expect(options(full.state)).toEqual(expect.arrayContaining(['add transbaikal-front', 'add 1st-air-army', 'add black-sea-fleet']));
  });

  it('19 Land Factors + (5 air + 1 naval, halved by Forest to 3) = 22, less three red triangles = 19; the Germans fire 9 + 4 white triangles = 13', () => {
    const land = combatLog(donBasinRound()).find((x) => x.round === 'land')!;
    expect(land.attRaw).toBe(19);
    expect(land.attFactors).toBe(19);
    expect(land.defRaw).toBe(13);
    expect(land.defFactors).toBe(13);
  });
});
