/**
 * 8 Victory and the end of the game, with the rulebook's Turn 12 example replayed on the full game for
 * four players (Germany; Japan; the AFA and the USA; the USSR) as far as the bundled pack's objectives go.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { enterWar } from '../../src/rules/neutrality.ts';
import { takeControl } from '../../src/rules/politics.ts';
import { decideByPoints, scoreObjectives } from '../../src/rules/victory-points.ts';
import type { BlitzState } from '../../src/rules/state.ts';
import { pack } from '../helpers.ts';

/** The full game for four players on Turn 12 with the example's VP at the start of the turn. */
const turn12 = (): BlitzState => {
  const s = structuredClone(blitz.setup('full', pack, { players: 4 }));
  s.turn = 12;
  // By Turn 12 the USA and the USSR are in the war (7.2: at the start of Turn 8 at the latest).
  for (const power of ['USA', 'USSR']) enterWar(packOf(s.pack), s, power, 'Turn 8 has come', []);
  s.vp = { GER: 9, JAP: 12, USSR: 10, AFA: 8, USA: 13 };
  return s;
};
const p = packOf(turn12().pack);
const gained = (ev: GameEvent[], objective: string) => ev.filter((e) => (e.data as { objective?: string }).objective === objective).reduce((t, e) => t + ((e.data as { vp: number }).vp ?? 0), 0);

describe('8 example: Turn 12 of a tight four-player game', () => {
  it('the USSR wrests Berlin from Germany: 2 VP for Control Industrial Might (Berlin\'s Factory Factor), 12 in all; Germany loses none for its own Factory', () => {
    const s = turn12();
    const ev: GameEvent[] = [];
    takeControl(p, s, 'berlin', 'USSR', ev, 'Ground Attack');
    expect(s.vp!.USSR).toBe(12);
    expect(s.vp!.GER).toBe(9);
    expect(s.winner).toBeNull();
  });

  it('at the turn end Long War gives Germany and Japan 2 VP each, and a German ARM destroyed by the USSR this turn gives it Annihilate the Wehrmacht', () => {
    const s = turn12();
    s.kills = ['USSR:GER:ARM'];
    const ev: GameEvent[] = [];
    scoreObjectives(p, s, ev);
    expect(gained(ev, 'ger-long-war')).toBe(2);
    expect(gained(ev, 'jap-long-war')).toBe(2);
    expect(gained(ev, 'ussr-annihilate-the-wehrmacht')).toBe(1);
  });

  it('the end: the AFA\'s 9 and the USA\'s 15 average 12 for their player; Japan\'s 15 beats the USSR\'s 14 and the two 12s, and the Axis win', () => {
    const s = turn12();
    s.vp = { GER: 12, JAP: 15, USSR: 14, AFA: 9, USA: 15 };
    decideByPoints(p, s, [], 'Turn 12 is scored');
    expect(s.winner).toBe('Axis');
    expect(s.reason).toContain('JAP 15, USSR 14, GER 12, AFA+USA 12');
  });

  it('a power at 15 does not cut the turn-end tally short: everyone scores, then the players\' averages decide', () => {
    const s = turn12();
    // The USA at 15 before the tally; Germany's and Japan's Long War still count, and the game ends decided by averages.
    s.vp = { GER: 10, JAP: 13, USSR: 14, AFA: 9, USA: 15 };
    const ev: GameEvent[] = [];
    scoreObjectives(p, s, ev);
    expect(gained(ev, 'jap-long-war')).toBe(2);
    expect(s.vp!.JAP).toBe(15);
    expect(s.winner).toBe('Axis');
  });
});
