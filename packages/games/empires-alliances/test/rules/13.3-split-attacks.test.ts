/**
 * 13.3 split attacks, 13.62 pairing Artillery and Tanks with Inf/Cav, 13.63 resolution in the order
 * designated, 13.73 a pair on an ND. On the synthetic front: a French 4-6-4 and a 3-3-3 Field Artillery
 * in 2444, two German 4-6-4s next to them.
 */
import { describe, expect, it } from 'vitest';
import type { EaState } from '../../src/rules/state.ts';
import { arrange, game, opts, play, start, unitsOf } from '../support/play.ts';

function setup() {
  const { s, b } = start();
  const ge = unitsOf(b, s, { nation: 'GE' }).filter((u) => b.units[u]!.prof.id === 'ge-inf-464');
  const inf = unitsOf(b, s, { nation: 'FR' }).find((u) => b.units[u]!.prof.id === 'fr-inf-464')!;
  const fa = unitsOf(b, s, { nation: 'FR' }).find((u) => b.units[u]!.prof.id === 'fr-fa-333')!;
  const t = play(arrange(b, s, { [inf]: '2444', [fa]: '2444', [ge[0]!]: '2443', [ge[1]!]: '2445' }), 'done').s; // the CP Combat Phase
  return { t, b, g0: ge[0]!, g1: ge[1]!, inf, fa };
}

/** The attack designated with both Germans: up to the defender's pairing question. */
const toPairing = (t: EaState, g0: number, g1: number) => play(t, 'attack 2444', `with ${g0}`, `with ${g1}`, 'go').s;

describe('13.62 the defender pairs Artillery with Inf/Cav', () => {
  it('asks the Allies (the defender) after the attacker\'s go, pair or done', () => {
    const { t, g0, g1, inf, fa } = setup();
    const x = toPairing(t, g0, g1);
    expect(game.pending(x)).toMatchObject({ kind: 'decision', power: 'AL', prompt: 'pair-defenders', options: [`pair ${fa},${inf}`, 'done'] });
    // Paired, the hex is one group: no split to ask, the die is next; the combat takes both.
    const y = play(x, `pair ${fa},${inf}`).s;
    expect(game.pending(y)).toMatchObject({ kind: 'chance', stream: 'combat' });
    expect(y.cb!.def).toEqual([inf, fa].sort((p, q) => p - q));
  });
});

describe('13.3 split attacks', () => {
  it('lets the attacker attack the artillery with one corps and the infantry with the other, each at 1-5 or better, resolved in that order (13.63)', () => {
    const { t, b, g0, g1, inf, fa } = setup();
    let x = play(toPairing(t, g0, g1), 'done').s; // no pair
    expect(game.pending(x)).toMatchObject({ kind: 'decision', power: 'CP', prompt: 'split-attack' });
    expect(opts(x)).toEqual([...[inf, fa].sort((p, q) => p - q).map((u) => `on ${u}`), `with ${g0}`, `with ${g1}`, 'all']);
    x = play(x, `on ${fa}`, `with ${g0}`).s;
    expect(opts(x)).toContain('next'); // 4 on 3, and 4 on 6 (1-2) is left
    x = play(x, 'next').s;
    expect(opts(x)).toEqual([`with ${g1}`, 'all']); // one group left: it goes with `all`
    const r = play(x, 'all', 'die 5');
    const first = r.events.find((e) => e.type === 'attack')!;
    expect(first.text).toContain(`#${g0} `);
    expect(first.text).toContain(`against #${fa} `);
    expect(first.text).not.toContain(`#${inf} `);
    // The first attack over (whatever its result), the second is set up against the infantry.
    let y = r.s;
    for (let i = 0; i < 10 && y.cb && y.cb.att[0] === g0; i++) {
      const o = opts(y);
      y = play(y, o.includes('stay') ? 'stay' : o[0]!).s;
    }
    expect(y.cb?.att).toEqual([g1]);
    expect(y.cb?.def).toEqual([inf]);
    expect(game.pending(y)).toMatchObject({ kind: 'chance', stream: 'combat' });
    void b;
  });

  it('does not let a split leave a defender unattacked: with both corps on the artillery, only all remains', () => {
    const { t, g0, g1, fa } = setup();
    const x = play(toPairing(t, g0, g1), 'done', `on ${fa}`, `with ${g0}`, `with ${g1}`).s;
    expect(opts(x)).toEqual(['all']);
    const y = play(x, 'all').s;
    expect(y.cb!.def.length).toBe(2); // everything left joined the one attack
  });
});

describe('13.73 a pair on a No Decision', () => {
  it('when the defender loses the infantry, its paired artillery retreats demoralized', () => {
    const { t, g0, g1, inf, fa } = setup();
    const paired = play(toPairing(t, g0, g1), `pair ${fa},${inf}`).s;
    let found = false;
    for (let die = 1; die <= 10 && !found; die++) {
      let x = play(paired, `die ${die}`);
      if (x.events.find((e) => e.type === 'combat')?.data?.result !== 'ND') continue;
      found = true;
      let y = x.s;
      // The attacker picks which of his two 4-factor corps to lose; the defender must lose 4 factors: the 4-6-4.
      for (let i = 0; i < 10 && y.cb && y.ask.k !== 'retreat'; i++) y = play(y, opts(y)[0]!).s;
      expect(y.hex[inf]).toBe(-1);
      expect(y.mor[fa]).toBe(1);
      if (y.ask.k === 'retreat') {
        expect(y.ask.u).toBe(fa);
        expect(game.pending(y)).toMatchObject({ power: 'AL' });
        y = play(y, opts(y)[0]!).s;
      }
      expect(y.hex[fa]).not.toBe(t.hex[inf]);
      x = { s: y, events: [] };
    }
    expect(found).toBe(true);
  });
});
