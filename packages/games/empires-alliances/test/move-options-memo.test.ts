/**
 * The Movement Phase's option list keeps each unit's rail and sea answers from one look to the next
 * (flow.ts `moveMemo`, fast.ts `feedMoveWorld`). Along random games, at every Movement Phase decision,
 * the `rail U` and `sea U` options offered must be exactly those `mayRail` and `maySea` give when asked
 * afresh, one unit at a time outside any look (every cache then compares its inputs on each call).
 */
import { describe, expect, it } from 'vitest';
import { empiresAlliances as game } from '../src/game.ts';
import { bundled } from './helpers.ts';
import { boardOf } from '../src/rules/board.ts';
import { mayRail, railBlocked, railReach, zocOf } from '../src/rules/flow.ts';
import { maySea, seaScan } from '../src/rules/sea.ts';
import { FLAG, type EaState } from '../src/rules/state.ts';

/** The rail and sea options of a Movement Phase decision, asked unit by unit without the memo. */
function afresh(s: EaState): string[] {
  const b = boardOf(s.key);
  const out: string[] = [];
  const noRail = b.scen.id === '1918' && s.turn === 0; // S3 3.67
  for (let u = 0; u < s.hex.length; u++) {
    const d = b.units[u]!;
    if (d.side !== s.seg) continue;
    const movable = s.hex[u]! >= 0 && d.prof.type !== 'air' && (s.flg[u]! & FLAG.MOVED) === 0;
    if (movable && !noRail && mayRail(b, s, u, zocOf(b, s, (1 - s.seg) as 0 | 1))) out.push(`rail ${u}`);
    if (maySea(b, s, u)) out.push(`sea ${u}`);
  }
  return out.sort();
}

describe('Movement Phase options: the kept rail and sea answers equal fresh ones', () => {
  for (const [seed, rulings] of [[5, undefined], [11, 'sea-allies=british-only']] as const) {
    it(`along a random game (seed ${seed}, ${rulings ?? 'default rulings'})`, () => {
      let s = game.setup('1918', bundled(), rulings ? { rulings } : {});
      let x = seed;
      const rnd = (n: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), (x >>> 8) % n);
      let looks = 0;
      let rail = 0;
      let sea = 0;
      let shrank = 0;
      let before: Set<string> | undefined;
      let phase = '';
      for (;;) {
        const p = game.pending(s);
        if (p.kind === 'terminal') break;
        if (p.kind === 'decision' && s.ask.k === 'move') {
          const offered = p.options.filter((o) => o.startsWith('rail ') || o.startsWith('sea ')).sort();
          expect(offered, `step ${s.seq}, turn ${s.turn}, side ${s.seg}`).toEqual(afresh(s));
          looks++;
          rail += offered.filter((o) => o.startsWith('rail ')).length;
          sea += offered.filter((o) => o.startsWith('sea ')).length;
          // An answer that went away in the same phase though its unit did not move (capacity used...).
          if (phase !== `${s.turn}:${s.seg}`) before = undefined;
          phase = `${s.turn}:${s.seg}`;
          if (before) for (const o of before) if (!offered.includes(o) && (s.flg[Number(o.split(' ')[1])]! & FLAG.MOVED) === 0) shrank++;
          before = new Set(offered);
        }
        const choice = p.kind === 'decision' ? p.options[rnd(p.options.length)]! : p.outcomes[rnd(p.outcomes.length)]!.outcome;
        s = game.apply(s, choice).state;
      }
      // The game must exercise what is kept: many looks, both kinds of option, answers that change.
      expect(looks).toBeGreaterThan(300);
      expect(rail).toBeGreaterThan(1000);
      expect(sea).toBeGreaterThan(20);
      expect(shrank).toBeGreaterThan(5);
    });
  }

  // maySea finds the ports a unit can rail to from the ports' own rail reaches (sea.ts): it rests on
  // rail reach being symmetric on the rail net, with the far end's own entry checked.
  it('rail reach is symmetric: port p is in the reach from h exactly when h is in the reach from p and p may be entered', () => {
    let s = game.setup('1918', bundled());
    let x = 21;
    const rnd = (n: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), (x >>> 8) % n);
    let pairs = 0;
    let reached = 0;
    let looks = 0;
    for (;;) {
      const p = game.pending(s);
      if (p.kind === 'terminal') break;
      if (p.kind === 'decision' && s.ask.k === 'move' && s.turn > 0 && looks++ % 5 === 0) {
        const b = boardOf(s.key);
        const side = s.seg as 0 | 1;
        const ezoc = zocOf(b, s, (1 - side) as 0 | 1);
        for (const port of seaScan(b, s).open) {
          const fromPort = new Set(railReach(b, s, side, port));
          for (let u = 0; u < s.hex.length; u++) {
            const h = s.hex[u]!;
            if (h < 0 || h === port || b.units[u]!.side !== side || !mayRail(b, s, u, ezoc)) continue;
            const there = railReach(b, s, side, h).includes(port);
            expect(there, `unit ${u} in ${b.map.id(h)}, port ${b.map.id(port)}, step ${s.seq}`).toBe(fromPort.has(h) && !railBlocked(b, s, side, port));
            pairs++;
            if (there) reached++;
          }
        }
      }
      const choice = p.kind === 'decision' ? p.options[rnd(p.options.length)]! : p.outcomes[rnd(p.outcomes.length)]!.outcome;
      s = game.apply(s, choice).state;
    }
    expect(pairs).toBeGreaterThan(500);
    expect(reached).toBeGreaterThan(50);
    expect(pairs - reached).toBeGreaterThan(50);
  });
});

