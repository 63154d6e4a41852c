/**
 * The occupancy index (fast.ts `syncOcc`: per hex the ground units there, ascending, and a mask per
 * side) is updated in place when a few units move and rebuilt when many do. Along a random game, with
 * jumps to earlier states in between, it must equal the occupancy counted afresh from the unit hexes.
 */
import { describe, expect, it } from 'vitest';
import { empiresAlliances as game } from '../src/game.ts';
import { bundled } from './helpers.ts';
import { boardOf } from '../src/rules/board.ts';
import { listAt, occIndex, occupied } from '../src/rules/flow.ts';
import type { EaState } from '../src/rules/state.ts';

/** Differences between the index and a fresh count, as readable lines (empty when they agree). */
function mismatches(s: EaState): string[] {
  const b = boardOf(s.key);
  const at = new Map<number, number[]>();
  for (let u = 0; u < s.hex.length; u++) {
    const h = s.hex[u]!;
    if (h < 0 || b.units[u]!.prof.type === 'air') continue;
    at.set(h, [...(at.get(h) ?? []), u]);
  }
  const occ = occIndex(b, s);
  const masks = [occupied(b, s, 0), occupied(b, s, 1)];
  const out: string[] = [];
  for (let h = 0; h < b.map.size; h++) {
    const want = at.get(h) ?? [];
    const got = listAt(occ, h);
    if (got.join() !== want.join()) out.push(`${b.map.id(h)}: index [${got}] fresh [${want}]`);
    for (const side of [0, 1] as const) {
      const m = want.some((u) => b.units[u]!.side === side) ? 1 : 0;
      if (masks[side]![h] !== m) out.push(`${b.map.id(h)}: mask ${side} ${masks[side]![h]} fresh ${m}`);
    }
  }
  return out;
}

describe('occupancy index: updated in place, equal to a fresh count', () => {
  it('along a random game, with jumps to earlier states', () => {
    let s = game.setup('1918', bundled());
    let x = 17;
    const rnd = (n: number) => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), (x >>> 8) % n);
    const earlier: EaState[] = [];
    let steps = 0;
    for (;;) {
      const p = game.pending(s);
      if (p.kind === 'terminal') break;
      if (steps % 3 === 0) expect(mismatches(s), `step ${s.seq}`).toEqual([]);
      if (steps % 97 === 0) earlier.push(s);
      if (steps % 41 === 0 && earlier.length > 1) {
        const e = earlier[(steps / 41) % earlier.length | 0]!;
        expect(mismatches(e), `earlier state ${e.seq} at step ${s.seq}`).toEqual([]);
      }
      const choice = p.kind === 'decision' ? p.options[rnd(p.options.length)]! : p.outcomes[rnd(p.outcomes.length)]!.outcome;
      s = game.apply(s, choice).state;
      steps++;
    }
    expect(steps).toBeGreaterThan(1000);
  });
});
