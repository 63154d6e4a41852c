/**
 * 8 Victory and the end of the game, with the rulebook's Turn 12 example replayed on the full game for
 * four players (Germany; Japan; the AFA and the USA; the USSR) as far as the bundled pack's objectives go.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '@salient/engine';
import { blitz } from '../../src/index.ts';
import { packOf } from '../../src/rules/pack-index.ts';
import { enterWar } from '../../src/rules/neutrality.ts';
import { declareWar, takeControl } from '../../src/rules/politics.ts';
import { advance } from '../../src/rules/flow.ts';
import { sideOf } from '../../src/rules/query.ts';
import { damage } from '../../src/rules/combat.ts';
import { decideByPoints, scoreObjectives } from '../../src/rules/victory-points.ts';
import type { BlitzState, CombatState } from '../../src/rules/state.ts';
import { options, pack, passUntil, play, prompt, reach } from '../helpers.ts';

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

  it('Germany builds the V-2 with its last Resource: at the turn end Super Weapons gives it 1 VP besides Long War\'s 2 (Super Weapons is an estimated objective: the card is not in the text)', () => {
    const s = reach(turn12(), 'GER', 'build-pick');
    expect(s.res.GER).toBe(9);
    // Eight Resources on four armies, then the last one on the V-2 (Size 1).
    const built = play(s, 'build 15th-army', 'size 2', 'at western-germany', 'build 18th-army', 'size 2', 'at east-prussia', 'build army-group-center', 'size 2', 'at berlin', 'build waffen-ss-army', 'size 2', 'at western-germany', 'build v-2', 'size 1', 'at berlin').state;
    expect(options(built).filter((o) => o.startsWith('build '))).toEqual([]); // nothing left to spend
    const ev: GameEvent[] = [];
    passUntil(play(built, 'done').state, (x) => x.turn > 12 || ev.some((e) => e.type === 'victory-points' && (e.data as { objective?: string }).objective === 'ger-long-war'), {
      onStep: (_, events) => ev.push(...events),
    });
    expect(ev.filter((e) => e.type === 'build' && (e.data as { unit: string }).unit === 'v-2').map((e) => e.text)).toEqual(['GER builds V-2 Rockets (Size 1) in Berlin']);
    expect(gained(ev, 'ger-super-weapons')).toBe(1);
    expect(gained(ev, 'ger-long-war')).toBe(2);
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

/** Turn 12 as above, French North Africa held by Germany (Vichy's colonies having gone to the Axis). */
const fnaAxis = (): BlitzState => {
  const s = turn12();
  Object.assign(s.control, { morocco: 'GER', algeria: 'GER' });
  return s;
};
/** A USA unit on the map, to take losses in a test combat. */
const usaUnit = (s: BlitzState) => Object.keys(s.units).find((id) => s.units[id]!.power === 'USA' && s.units[id]!.size >= 2 && s.units[id]!.at !== 'pool')!;
/** The USA attacking `target` now, as the combat code sets it up (only what No Casualties reads). */
const usaAttacks = (s: BlitzState, target: string): void => {
  s.side = 'Allies';
  s.power = 'USA';
  s.attacks = [{ target, attackers: [usaUnit(s)], dropped: [], defenders: [], resolved: false, power: 'USA' }];
  s.combat = { attack: 0, round: 'land', att: 0, def: 0, attDie: null, defDie: null, armAtt: 0, armDef: 0, sidelined: [], blocked: [], tasks: [], log: [] } satisfies CombatState;
};

describe('8: No Casualties (AFA and USA)', () => {
  it('8 example: the USA takes Morocco and Algeria without loss and hands French North Africa back to the AFA: the USA scores No Casualties, the AFA does not', () => {
    // French North Africa as the game brings it about: neutral since France's fall, declared on by the
    // USA (it joins the Axis), then liberated by the USA, which chooses (3.4) to return it to the AFA.
    const s = turn12();
    takeControl(p, s, 'paris', 'GER', [], 'test');
    expect(s.vichy?.countries).toContain('french-north-africa');
    s.side = 'Allies';
    s.power = 'USA';
    declareWar(p, s, 'french-north-africa', []);
    expect(sideOf(p, s, s.control.morocco!)).toBe('Axis');
    takeControl(p, s, 'morocco', 'USA', [], 'Ground Attack');
    takeControl(p, s, 'algeria', 'USA', [], 'Ground Attack');
    advance(p, s, []);
    expect(prompt(s)).toBe('USA:liberation-return');
    const r = play(s, 'return french-north-africa');
    expect([r.state.control.morocco, r.state.control.algeria]).toEqual(['AFA', 'AFA']);
    expect(r.events.find((e) => e.type === 'liberation-return')?.data).toMatchObject({ country: 'french-north-africa', from: 'USA', to: 'AFA' });
    const ev: GameEvent[] = [];
    const t = structuredClone(r.state);
    scoreObjectives(p, t, ev);
    expect(gained(ev, 'usa-no-casualties')).toBe(1);
    expect(gained(ev, 'afa-no-casualties')).toBe(0);
    expect(t.cleanTakes).toBeUndefined(); // the turn's takes are forgotten once scored
  });

  it('8/3.4: kept rather than returned, French North Africa scores the same for the USA', () => {
    const s = turn12();
    takeControl(p, s, 'paris', 'GER', [], 'test');
    s.side = 'Allies';
    s.power = 'USA';
    declareWar(p, s, 'french-north-africa', []);
    takeControl(p, s, 'morocco', 'USA', [], 'Ground Attack');
    takeControl(p, s, 'algeria', 'USA', [], 'Ground Attack');
    advance(p, s, []);
    const t = structuredClone(play(s, 'keep french-north-africa').state);
    expect([t.control.morocco, t.control.algeria]).toEqual(['USA', 'USA']);
    const ev: GameEvent[] = [];
    scoreObjectives(p, t, ev);
    expect(gained(ev, 'usa-no-casualties')).toBe(1);
    expect(gained(ev, 'afa-no-casualties')).toBe(0);
  });

  it('an area the Axis take back before the turn end scores nothing; taken again without loss, it scores', () => {
    const s = fnaAxis();
    takeControl(p, s, 'morocco', 'USA', [], 'test');
    takeControl(p, s, 'morocco', 'GER', [], 'test');
    const none: GameEvent[] = [];
    scoreObjectives(p, structuredClone(s), none);
    expect(gained(none, 'usa-no-casualties')).toBe(0);
    takeControl(p, s, 'morocco', 'USA', [], 'test');
    const ev: GameEvent[] = [];
    scoreObjectives(p, s, ev);
    expect(gained(ev, 'usa-no-casualties')).toBe(1);
  });

  it('a take in a combat where a unit of the attacking side took a loss does not count, and cancels an earlier take of that area', () => {
    const s = fnaAxis();
    takeControl(p, s, 'algeria', 'USA', [], 'test');
    takeControl(p, s, 'algeria', 'GER', [], 'test');
    usaAttacks(s, 'algeria');
    damage(p, s, s.attacks[0]!.attackers[0]!, [], 'test');
    expect(s.combat!.attackerLoss).toBe(true);
    takeControl(p, s, 'algeria', 'USA', [], 'Ground Attack');
    s.combat = null;
    const ev: GameEvent[] = [];
    scoreObjectives(p, s, ev);
    expect(gained(ev, 'usa-no-casualties')).toBe(0);
  });

  it("only the attacker's losses count: a combat in which only the defenders lost still scores; areas taken from a neutral do not", () => {
    const s = fnaAxis();
    usaAttacks(s, 'morocco');
    const ger = Object.keys(s.units).find((id) => s.units[id]!.power === 'GER' && s.units[id]!.size >= 2 && s.units[id]!.at !== 'pool')!;
    damage(p, s, ger, [], 'test');
    expect(s.combat!.attackerLoss).toBeUndefined();
    takeControl(p, s, 'morocco', 'USA', [], 'Ground Attack');
    s.combat = null;
    const neutral = Object.keys(s.control).find((l) => s.control[l] === 'neutral')!;
    takeControl(p, s, neutral, 'AFA', [], 'test');
    const ev: GameEvent[] = [];
    scoreObjectives(p, s, ev);
    expect(gained(ev, 'usa-no-casualties')).toBe(1);
    expect(gained(ev, 'afa-no-casualties')).toBe(0);
  });
});
