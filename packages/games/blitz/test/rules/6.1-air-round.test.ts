/** 6.1: Air Round factors: Air Factors plus the opponents' white triangles, minus their red, minimum 1. */
import { describe, expect, it } from 'vitest';
import { arrange, combatLog, play, start, until } from '../helpers.ts';

describe('6.1 Air Round', () => {
  it('6.1/6 example: Bomber Command (Air 1) against the Me-109s (1 red) fires 0 -> 1; the Me-109s fire 2 + 3 white = 5', () => {
    // Scenario B, Western Allies' activities: Bomber Command supports a landing on Belgium-Netherlands,
    // the Me-109s alone defend it from Western Germany.
    const s = until(
      arrange(start('B'), {
        units: { luftwaffe: null, 'me-109s': { at: 'western-germany' }, '2nd-army': { at: 'trs:europe-trs' }, 'europe-trs': { at: 'sea:north-sea' } },
      }),
      'WA',
      'announce-attack',
    );
    const r = play(s, 'attack belgium-netherlands', 'add 2nd-army', 'add bomber-command', 'launch', 'done', 'defend belgium-netherlands me-109s', 'resolve belgium-netherlands');
    const air = combatLog(r).find((x) => x.round === 'air')!;
    expect(air.attackers).toEqual(['bomber-command']);
    expect(air.defenders).toEqual(['me-109s']);
    expect(air.attFactors).toBe(1);
    expect(air.defFactors).toBe(5);
  });

  it('there is no Air Round unless both sides have air units in the combat', () => {
    const s = until(arrange(start('B'), { units: { '2nd-army': { at: 'trs:europe-trs' }, 'europe-trs': { at: 'sea:north-sea' } } }), 'WA', 'announce-attack');
    const r = play(s, 'attack belgium-netherlands', 'add 2nd-army', 'add bomber-command', 'launch', 'done');
    const r2 = r.state.ask.kind === 'decision' && r.state.ask.prompt === 'commit-defence' ? play(r.state, 'done') : r;
    const r3 = play(r2.state, 'resolve belgium-netherlands');
    expect(combatLog(r3).map((x) => x.round)).toEqual(['land']);
  });
});
