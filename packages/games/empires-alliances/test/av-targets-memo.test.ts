/**
 * The Movement Phase's `av HHHH` options come from verdicts kept per hex between looks
 * (automatic-victory.ts `avTargets`, `AvMemo`): only the hexes in and next to where a unit fact changed
 * are worked out again. Along random games, at every Movement Phase decision, the AV options offered
 * must be exactly the hexes a fresh count finds (every hex an enemy ground unit stands in, all its
 * eligible attackers together, 12.1). Every few looks an earlier state of the game is asked in between,
 * so the memo must also follow a jump to another state and back.
 */
import { describe, expect, it } from 'vitest';
import { empiresAlliances as game } from '../src/game.ts';
import { bundled } from './helpers.ts';
import { avAchieved, avEligible } from '../src/rules/automatic-victory.ts';
import { boardOf } from '../src/rules/board.ts';
import type { EaState } from '../src/rules/state.ts';

/** The AV options of a Movement Phase decision, counted afresh hex by hex. */
function afresh(s: EaState): string[] {
  const b = boardOf(s.key);
  const hexes = new Set<number>();
  for (let u = 0; u < s.hex.length; u++) {
    const d = b.units[u]!;
    if (d.side === s.seg || s.hex[u]! < 0 || d.prof.type === 'air') continue;
    hexes.add(s.hex[u]!);
  }
  return [...hexes]
    .filter((h) => avAchieved(b, s, h, avEligible(b, s, h)))
    .sort((x, y) => x - y)
    .map((h) => `av ${b.map.id(h)}`);
}

const avOptions = (s: EaState): string[] => {
  const p = game.pending(s);
  return p.kind === 'decision' ? p.options.filter((o) => o.startsWith('av ')) : [];
};

describe('Movement Phase options: the kept AV verdicts equal a fresh count', () => {
  for (const seed of [3, 8]) {
    it(`along a random game (seed ${seed})`, () => {
      let s = game.setup('1918', bundled());
      let x = seed;
      const rnd = (n: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), (x >>> 8) % n);
      let looks = 0;
      let offered = 0;
      let jumps = 0;
      const earlier: EaState[] = [];
      for (;;) {
        const p = game.pending(s);
        if (p.kind === 'terminal') break;
        if (p.kind === 'decision' && s.ask.k === 'move') {
          const av = p.options.filter((o) => o.startsWith('av '));
          expect(av, `step ${s.seq}, turn ${s.turn}, side ${s.seg}`).toEqual(afresh(s));
          offered += av.length;
          looks++;
          if (looks % 50 === 0) earlier.push(s);
          if (looks % 7 === 0 && earlier.length > 0) {
            const e = earlier[(looks / 7) % earlier.length | 0]!;
            expect(avOptions(e), `earlier state ${e.seq} asked at step ${s.seq}`).toEqual(afresh(e));
            jumps++;
          }
        }
        const choice = p.kind === 'decision' ? p.options[rnd(p.options.length)]! : p.outcomes[rnd(p.outcomes.length)]!.outcome;
        s = game.apply(s, choice).state;
      }
      // The game must exercise what is kept: many looks, AVs offered, jumps between states.
      expect(looks).toBeGreaterThan(300);
      expect(offered).toBeGreaterThan(10);
      expect(jumps).toBeGreaterThan(30);
    });
  }
});
