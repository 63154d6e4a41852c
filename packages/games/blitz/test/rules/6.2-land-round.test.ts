/** 6.2 (A.6): Land Round arithmetic: terrain, triangles on each side, and the Maginot Line map note. */
import { describe, expect, it } from 'vitest';
import { arrange, play, skipTo, start } from '../helpers.ts';

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
