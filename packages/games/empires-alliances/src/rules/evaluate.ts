/**
 * The evaluation search bots look ahead with (`Game.model.evaluate`: greedy's one ply, mcts's leaves,
 * the planner's genomes). A heuristic for bots, not a rule of the game: it scores a position for the
 * Central Powers (the Allies' value is its negation) as a sum of terms:
 *
 * | term | weight | why |
 * |---|---|---|
 * | game over | ±1000 (0 a draw) | the 3.72 level decides |
 * | victory points | 10 × (VP − 9.75) | S3 3.71 as things stand, supply of each place included (vp-supply.ts `vpScore`, exact) |
 * | strength | 0.2 × (attack + defense) per ground unit on the map; × 0.7 with an unsupplied level (14.1), × 0.6 Demoralized (13.85), × 0.75 where its side cannot trace supply to it now (14.2) | losses count, and a unit stepping out of supply is on its way to attrition (14.1) and cannot hold |
 * | strength balance | 5 × (CP − AL) / (CP + AL) | the side ahead gains by trading evenly: trading well counts, not only the sum |
 * | VP places under threat | 4 × pressure on each of the 15 places (3.71) | pressure = a / (a + 3d + 1), a the attack factors of the side that does not score the place in the six hexes next to it, d the defense factors in it (+ ½ of its own side's next to it); diminishing in a, near 1 for an empty place with enemy stacks next to it; counted against the side scoring the place now |
 *
 * What does not depend on the position (each place's neighbour hexes) is worked out once per board.
 * Supply is the rules' own 14.2 trace (vp-supply.ts), asked once per side per position and then per hex
 * holding units. That live supply is most of the cost: one evaluation takes about 2.4x the CPU time of
 * the one before issue 31 (150 positions of random games); a whole greedy game about 1.4x.
 */
import type { Board, SideNo } from './board.ts';
import { beginLook, endLook, fastOf } from './fast.ts';
import { first, occIndex } from './flow.ts';
import type { EaState } from './state.ts';
import { supplyTester, vpScore } from './vp-supply.ts';

/** Weights of the terms, named as the table above names them. */
export const EVAL_WEIGHTS = { win: 1000, vp: 10, vpMid: 9.75, strength: 0.2, unsuppliedLevel: 0.7, demoralized: 0.6, cutOff: 0.75, balance: 5, place: 4 } as const;
const W = EVAL_WEIGHTS;

/** Pressure on a place: `a` attack factors against it, `d` defense factors holding it; 0 with nothing against, near 1 when `d` is 0. */
export const pressure = (a: number, d: number): number => (a <= 0 ? 0 : a / (a + 3 * d + 1));

/** Per board: a stamp per side and hex, for the supply answers of one evaluation (`gen` supplied, `gen + 1` not). */
const scratch = new WeakMap<Board, { stamp: Uint32Array; gen: number }>();
function scratchOf(b: Board): { stamp: Uint32Array; gen: number } {
  let x = scratch.get(b);
  if (!x) scratch.set(b, (x = { stamp: new Uint32Array(2 * b.map.size), gen: 0 }));
  return x;
}

/** Per board: the ground hexes next to each VP place. */
const nearCache = new WeakMap<Board, number[][]>();
function nearOf(b: Board): number[][] {
  let n = nearCache.get(b);
  if (!n) {
    n = b.vp.map((p) => {
      const out: number[] = [];
      for (let d = 0; d < 6; d++) {
        const h = b.map.neighbours[p.hex * 6 + d]!;
        if (h >= 0 && b.mp[h] !== 255) out.push(h);
      }
      return out;
    });
    nearCache.set(b, n);
  }
  return n;
}

/**
 * The value of a position that has not ended, for the Central Powers. `over` is the value of an ended
 * one (game.ts works out the 3.72 level).
 */
export function evaluateCp(b: Board, s: EaState): number {
  beginLook(s);
  try {
    return value(b, s);
  } finally {
    endLook();
  }
}

function value(b: Board, s: EaState): number {
  const f = fastOf(b);
  // 14.2 now, per side, per hex holding its units (stacks share the answer): 1 supplied, 2 not, 0 not asked.
  const tests = [supplyTester(b, s, 0), supplyTester(b, s, 1)] as const;
  const x = scratchOf(b);
  const gen = (x.gen = (x.gen + 2) >>> 0 || 2);
  if (gen === 2) x.stamp.fill(0);
  const size = b.map.size;
  const supplied = (side: SideNo, h: number): boolean => {
    const k = side * size + h;
    const st = x.stamp[k]!;
    if (st === gen) return true;
    if (st === gen + 1) return false;
    const r = tests[side](h);
    x.stamp[k] = r ? gen : gen + 1;
    return r;
  };
  let cp = 0;
  let al = 0;
  for (let u = 0; u < s.hex.length; u++) {
    const h = s.hex[u]!;
    if (h < 0) continue;
    const d = b.units[u]!;
    const p = d.prof;
    if (p.type === 'air') {
      const w = p.attack + p.defense;
      if (d.side === 0) cp += w;
      else al += w;
      continue;
    }
    const w = (p.attack + p.defense) * (s.sup[u] ? W.unsuppliedLevel : 1) * (s.mor[u] ? W.demoralized : 1) * (supplied(d.side, h) ? 1 : W.cutOff);
    if (d.side === 0) cp += w;
    else al += w;
  }
  let v = W.strength * (cp - al);
  if (cp + al > 0) v += (W.balance * (cp - al)) / (cp + al);
  // The same VP as centralVp(vpPlaces(b, s)), without a whole supply trace per position (vp-supply.ts).
  v += W.vp * (vpScore(b, s) - W.vpMid);
  // Threats to and from the VP places: who scores each now, and the pressure of the other side next to it.
  const occ = occIndex(b, s);
  const near = nearOf(b);
  for (let i = 0; i < b.vp.length; i++) {
    const place = b.vp[i]!;
    let germanInf = false;
    let alliedInf = false;
    const def: [number, number] = [0, 0];
    for (let u = first(occ, place.hex); u >= 0; u = occ.next[u]!) {
      const d = b.units[u]!;
      def[d.side] += d.prof.defense;
      if (f.infantry[u] === 1) {
        if (d.nation === 'GE') germanInf = true;
        if (d.side === 1) alliedInf = true;
      }
    }
    const cpScores = place.kind === 'take' ? germanInf : !alliedInf;
    const holder: SideNo = cpScores ? 0 : 1;
    const att: [number, number] = [0, 0];
    const support: [number, number] = [0, 0];
    for (const h of near[i]!) {
      for (let u = first(occ, h); u >= 0; u = occ.next[u]!) {
        const d = b.units[u]!;
        att[d.side] += d.prof.attack;
        support[d.side] += d.prof.defense;
      }
    }
    const threat = pressure(att[1 - holder]!, def[holder] + 0.5 * support[holder]);
    v += (holder === 0 ? -1 : 1) * W.place * threat;
  }
  return v;
}
