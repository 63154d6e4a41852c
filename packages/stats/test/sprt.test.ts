import { describe, expect, it } from 'vitest';
import {
  llrLogistic,
  llrNormalized,
  pentanomial,
  pentanomialCell,
  pentanomialElo,
  pentanomialNormalizedElo,
  sprt,
  sprtBounds,
  sprtElo,
  type GameScore,
  type Pentanomial,
} from '../src/sprt.ts';

/** |got - want| within `tol` of want's size (absolute below 1). */
function close(got: number, want: number, tol = 1e-9): void {
  expect(Math.abs(got - want) / Math.max(1, Math.abs(want)), `got ${got}, want ${want}`).toBeLessThan(tol);
}

/**
 * Finished fishtest SPRT tests as published. Each block is `LLR: x (-2.94,2.94) <e0,e1>` (normalized
 * bounds) or `{e0,e1}` (logistic bounds), `Total: games W: L: D:`, `Ptnml(0-2): ...`.
 *
 * Sources:
 * - 6549951b: fishtest run 6549951b136acbc573529528 (Vizvezdenec, "phRed8", STC, rejected), the run
 *   document copied into vdbergh/vtjson `bench.py`; it stores fishtest's own unrounded LLR too.
 * - The others are Stockfish commit messages (official-stockfish/Stockfish), read from their copies
 *   at https://m.nextchessmove.com/dev-builds/<commit>:
 *   d212e663bb00226f861f3046b36a5d8a3a127865 "Introduction evaluation grain of 16 (and randomize)",
 *   e551964ef63e4e4af4bb6132538b98fad4a51afe "Negative extension on cutNodes based on depth",
 *   510aca1ef62279dc35941fa45ed61fb9d3796f10 "Assign negative stat bonuses for quiet moves at Pv nodes",
 *   6596f0eac0c1d25a12bfd923907bfc78beedbc90 "Always remember the ttMove" (logistic bounds),
 *   221893bf679f70098e6f751fded2fe843471c6be "Apply multicut pruning more often" (logistic bounds).
 *
 * fishtest stopped every one of these at its bound, but several sit a little inside ±2.944: fishtest
 * also moves the bounds in by an estimate of its batched updates' overshoot, which we do not (we
 * update per pair). So the state is checked against the plain bounds, the LLR against the print.
 */
const PUBLISHED: {
  source: string;
  model: 'normalized' | 'logistic';
  elo0: number;
  elo1: number;
  llr: string;
  total: number;
  wld: [number, number, number];
  ptnml: Pentanomial;
  fishtestLlr?: number;
}[] = [
  { source: 'fishtest 6549951b (H0)', model: 'normalized', elo0: 0, elo1: 2, llr: '-2.94', total: 106368, wld: [26829, 26934, 52605], ptnml: [369, 12695, 27124, 12664, 332], fishtestLlr: -2.936953911013966 },
  { source: 'd212e663 STC', model: 'normalized', elo0: 0, elo1: 2, llr: '2.95', total: 220960, wld: [57249, 56668, 107043], ptnml: [499, 26017, 56882, 26568, 514] },
  { source: 'd212e663 LTC', model: 'normalized', elo0: 0.5, elo1: 2.5, llr: '2.94', total: 48966, wld: [12574, 12233, 24159], ptnml: [14, 5233, 13654, 5562, 20] },
  { source: 'e551964e STC', model: 'normalized', elo0: 0, elo1: 2, llr: '2.98', total: 122208, wld: [32776, 32350, 57082], ptnml: [310, 13250, 33553, 13686, 305] },
  { source: 'e551964e LTC', model: 'normalized', elo0: 0.5, elo1: 2.5, llr: '2.94', total: 145092, wld: [39617, 39115, 66360], ptnml: [54, 13691, 44552, 14197, 52] },
  { source: '510aca1e STC', model: 'normalized', elo0: 0, elo1: 2, llr: '2.94', total: 548944, wld: [147287, 146254, 255403], ptnml: [1662, 59772, 150671, 60605, 1762] },
  { source: '510aca1e LTC', model: 'normalized', elo0: 0.5, elo1: 2.5, llr: '2.95', total: 93352, wld: [25400, 24994, 42958], ptnml: [44, 8817, 28547, 9225, 43] },
  { source: '6596f0ea STC', model: 'logistic', elo0: -1.5, elo1: 0.5, llr: '2.94', total: 66424, wld: [12903, 12806, 40715], ptnml: [1195, 7730, 15230, 7897, 1160] },
  { source: '6596f0ea LTC', model: 'logistic', elo0: -1.5, elo1: 0.5, llr: '2.94', total: 45682, wld: [5989, 5926, 33767], ptnml: [329, 4361, 13443, 4334, 374] },
  { source: '221893bf STC', model: 'logistic', elo0: -0.5, elo1: 1.5, llr: '2.94', total: 58238, wld: [11192, 10917, 36129], ptnml: [1007, 6704, 13442, 6939, 1027] },
  { source: '221893bf LTC', model: 'logistic', elo0: 0.25, elo1: 1.75, llr: '2.94', total: 137852, wld: [17460, 16899, 103493], ptnml: [916, 12610, 41383, 13031, 986] },
];

describe('SPRT: published fishtest results', () => {
  for (const p of PUBLISHED) {
    it(`${p.source}: LLR ${p.llr} <${p.elo0},${p.elo1}> (${p.model}) from Ptnml ${p.ptnml.join(', ')}`, () => {
      // The block is self-consistent (guards against a mistyped count): pairs x 2 = games = W + L + D.
      const pairs = p.ptnml.reduce((s, c) => s + c, 0);
      expect(2 * pairs).toBe(p.total);
      expect(p.wld[0] + p.wld[1] + p.wld[2]).toBe(p.total);

      const r = sprt(p.ptnml, { elo0: p.elo0, elo1: p.elo1, model: p.model });
      expect(r.llr.toFixed(2)).toBe(p.llr);
      expect(r.pairs).toBe(pairs);
      if (p.fishtestLlr !== undefined) close(r.llr, p.fishtestLlr, 1e-12);
      expect(r.state).toBe(r.llr >= r.upper ? 'H1' : r.llr <= r.lower ? 'H0' : 'continue');
      expect(Math.sign(r.llr)).toBe(p.llr.startsWith('-') ? -1 : 1);
    });
  }

  it('the plain Wald bounds are ±log(19) = ±2.944 at alpha = beta = 0.05, as fishtest stores them', () => {
    const b = sprtBounds(0.05, 0.05);
    expect(b.lower).toBe(-2.9444389791664403);
    expect(b.upper).toBe(2.9444389791664403);
    const asym = sprtBounds(0.1, 0.02);
    close(asym.lower, Math.log(0.02 / 0.9), 1e-15);
    close(asym.upper, Math.log(0.98 / 0.1), 1e-15);
  });
});

/**
 * Numbers produced by fishtest's own Python (server/fishtest/stats LLRcalc.py, stat_util.py, sprt.py,
 * brownian.py, read from official-stockfish/fishtest and run with python3 + scipy 1.17 in a scratch
 * directory outside this repository; only the numbers are kept here):
 * - llrNormalized: LLRcalc.LLR_normalized(0, 2, counts)
 * - llrLogistic: LLRcalc.LLR_logistic(0, 5, counts)
 * - elo: stat_util.get_elo(counts) -> [elo, elo95, los]
 * - nelo: the pentanomial nElo and its 95% interval as the tests_stats page computes them
 * - sprtElo: stat_util.SPRT_elo({pentanomial: counts}, elo0=0, elo1=2, elo_model='normalized')
 *   -> [elo, ci[0], ci[1], LOS]
 * The vectors cover a large run, small ones, zero cells and one-sided sweeps.
 */
const FISHTEST_PYTHON: {
  counts: Pentanomial;
  llrNormalized: number;
  llrLogistic: number;
  elo: [number, number, number];
  nelo: [number, number, number];
  sprtElo: [number, number, number, number];
}[] = [
  { counts: [369, 12695, 27124, 12664, 332], llrNormalized: -2.936953911013966, llrLogistic: -47.293676442270396, elo: [-0.34296732409512376, 1.0743630477819084, 0.2657628206914644], nelo: [-0.6665308287166781, -2.754446085517396, 1.42138442808404], sprtElo: [-0.17513730930345808, -1.2852642106165766, 0.9722691896454307, 0.3801188232802929] },
  { counts: [2, 197, 434, 179, 4], llrNormalized: -0.18971807380728165, llrLogistic: -1.5059188727002306, elo: [-2.980525439998977, 8.344825826734553, 0.24189800058517408], nelo: [-6.022026954176602, -22.893829570834587, 10.849775662481386], sprtElo: [-2.980525439999021, -11.363398109840778, 5.365837122462976, 0.24181053713777456] },
  { counts: [3, 10, 18, 12, 7], llrNormalized: 0.07194737935459417, llrLogistic: 0.21872132514981416, elo: [34.86007028756008, 53.71662234088841, 0.9016471987705268], nelo: [44.853741220295305, -23.85063921331655, 113.55812165390716], sprtElo: [34.860070287560134, -17.411987088520505, 95.44208097796692, 0.9051371234177736] },
  { counts: [0, 4, 9, 6, 1], llrNormalized: 0.039940404560459816, llrLogistic: 0.16588941832138268, elo: [34.84076938283922, 63.19236682500761, 0.8643800325929585], nelo: [60.4379420106034, -46.03445666904065, 166.91034069024744], sprtElo: [34.84076938283921, -26.336601200339796, 123.88266560759608, 0.8711712854424989] },
  { counts: [0, 0, 7, 0, 3], llrNormalized: 0.044300654861282325, llrLogistic: 0.14281954913052894, elo: [107.46560971682119, 113.37964081867926, 0.9806959678120853], nelo: [160.6630819847121, 51.60790239487138, 269.71826157455274], sprtElo: [107.46560971682116, 21.049821160424475, 1000, 0.9931828235557508] },
  { counts: [5, 0, 0, 0, 0], llrNormalized: -0.0408737328313604, llrLogistic: -0.07250270169857488, elo: [-1199.826195290393, 249.82236613646864, 0.0], nelo: [-6341.585502033004, -129714.74609108354, 117031.57508701754], sprtElo: [-1000, -1000, -970.4892003174475, 0.0] },
  { counts: [0, 0, 0, 0, 12], llrNormalized: 0.0972956671002598, llrLogistic: 0.17147965006857477, elo: [1199.8261952903777, 172.9420001392678, 1.0], nelo: [9825.87049135727, -181223.82697148176, 200875.56795419625], sprtElo: [1000, 1000, 1000, 1.0] },
  { counts: [1, 0, 0, 0, 0], llrNormalized: -0.008178043453493206, llrLogistic: -0.014523779645967582, elo: [-1041.084377983023, 395.5919342530141, 3.4963722958110603e-31], nelo: [-2833.0186948140954, -58163.887264577046, 52497.84987494886], sprtElo: [-1000, -1000, -684.1855559574842, 0.0] },
  { counts: [40, 120, 200, 90, 30], llrNormalized: -0.4176110515838748, llrLogistic: -1.5901077964274357, elo: [-18.1119925846196, 15.671306865996332, 0.01157739933669902], nelo: [-25.464263119424025, -47.589787043914846, -3.3387391949332064], sprtElo: [-18.111992584619625, -34.041118094537914, -2.564684013819895, 0.011186067824930694] },
];

describe('SPRT: the same numbers as fishtest’s Python', () => {
  for (const r of FISHTEST_PYTHON) {
    it(`counts [${r.counts.join(', ')}]`, () => {
      close(llrNormalized(r.counts, 0, 2), r.llrNormalized);
      close(llrLogistic(r.counts, 0, 5), r.llrLogistic);

      const e = pentanomialElo(r.counts);
      close(e.elo, r.elo[0]);
      close(e.plusMinus, r.elo[1]);
      close(e.los, r.elo[2]);
      close(e.ci.low, r.elo[0] - r.elo[1]);
      close(e.ci.high, r.elo[0] + r.elo[1]);

      const n = pentanomialNormalizedElo(r.counts);
      close(n.nelo, r.nelo[0]);
      close(n.ci.low, r.nelo[1]);
      close(n.ci.high, r.nelo[2]);

      const a = sprtElo(r.counts, { elo0: 0, elo1: 2 });
      close(a.elo, r.sprtElo[0]);
      close(a.ci.low, r.sprtElo[1]);
      close(a.ci.high, r.sprtElo[2]);
      close(a.los, r.sprtElo[3]);
    });
  }

  it('decides H1 for a clear winner and H0 for a clear loser, and continues on nothing', () => {
    expect(sprt([0, 0, 0, 300, 0], { elo0: 0, elo1: 5 }).state).toBe('H1');
    expect(sprt([0, 300, 0, 0, 0], { elo0: 0, elo1: 5 }).state).toBe('H0');
    const none = sprt([0, 0, 0, 0, 0], { elo0: 0, elo1: 5 });
    expect(none.state).toBe('continue');
    expect(none.pairs).toBe(0);
    expect(Math.abs(none.llr)).toBeLessThan(1e-3);
    // Equal play: the LLR drifts down towards H0 = "no better than elo0".
    expect(sprt([10, 200, 400, 200, 10], { elo0: 0, elo1: 5 }).llr).toBeLessThan(0);
  });

  it('lower alpha and beta widen the bounds, so the same counts stay undecided', () => {
    const counts: Pentanomial = [0, 0, 0, 4, 0];
    expect(sprt(counts, { elo0: 0, elo1: 5, alpha: 0.5, beta: 0.5 }).state).toBe('H1'); // bounds are ±0
    expect(sprt(counts, { elo0: 0, elo1: 5, alpha: 0.01, beta: 0.01 }).state).toBe('continue');
  });
});

describe('pentanomial counts from game pairs', () => {
  it('puts each pair in the cell of its summed score', () => {
    const pairs: [GameScore, GameScore][] = [
      [0, 0],
      [0, 0.5],
      [0.5, 0],
      [1, 0],
      [0.5, 0.5],
      [0, 1],
      [1, 0.5],
      [0.5, 1],
      [1, 1],
      [1, 1],
    ];
    expect(pentanomial(pairs)).toEqual([1, 2, 3, 2, 2]);
    expect(pentanomial([])).toEqual([0, 0, 0, 0, 0]);
    expect(pentanomialCell(0.5, 1)).toBe(3);
  });

  it('refuses a score that is not a loss, draw or win, saying which pair', () => {
    expect(() => pentanomialCell(0.7 as GameScore, 1)).toThrow(RangeError);
    expect(() => pentanomialCell(1, 2 as GameScore)).toThrow(/second game's score is 2; pass the candidate's score, 0 \(loss\), 0.5 \(draw\) or 1 \(win\)/);
    expect(() => pentanomial([[1, 1], [1, -1 as GameScore]])).toThrow(/^pentanomial: pair 1: pentanomialCell: the second game's score is -1/);
  });
});

describe('input checks', () => {
  const ok = { elo0: 0, elo1: 2 };
  it('counts: five whole numbers of 0 or more', () => {
    for (const bad of [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [1, 2, -3, 4, 5], [1, 2, 3.5, 4, 5], [1, 2, Number.NaN, 4, 5], [1, 2, Infinity, 4, 5]]) {
      expect(() => sprt(bad as unknown as Pentanomial, ok)).toThrow(RangeError);
    }
    expect(() => llrNormalized([1, 2, -3, 4, 5], 0, 2)).toThrow(
      /counts must be 5 whole numbers of 0 or more, .*\[LL, LD\+DL, LW\+DD\+WL, DW\+WD, WW\]\); got \[1, 2, -3, 4, 5\]\. Build them with pentanomial\(\)\./,
    );
    expect(() => pentanomialElo([1, 2, 3] as unknown as Pentanomial)).toThrow(/got \[1, 2, 3\]/);
    expect(() => pentanomialNormalizedElo(null as unknown as Pentanomial)).toThrow(/got null/);
  });

  it('alpha and beta: in (0, 0.5]', () => {
    expect(() => sprt([1, 1, 1, 1, 1], { ...ok, alpha: 0 })).toThrow(/alpha is 0; pass an error rate above 0 and at most 0.5 \(0.05 is usual\)/);
    expect(() => sprt([1, 1, 1, 1, 1], { ...ok, beta: 0.6 })).toThrow(/beta is 0.6;/);
    expect(() => sprtBounds(0.05, Number.NaN)).toThrow(RangeError);
    expect(sprt([1, 1, 1, 1, 1], { ...ok, alpha: 0.5, beta: 0.5 }).upper).toBe(0);
  });

  it('elo0 below elo1, both finite; a known model', () => {
    expect(() => sprt([1, 1, 1, 1, 1], { elo0: 2, elo1: 2 })).toThrow(/elo0 \(2\) must be below elo1 \(2\); H0 is the smaller difference/);
    expect(() => llrLogistic([1, 1, 1, 1, 1], 5, 0)).toThrow(RangeError);
    expect(() => sprt([1, 1, 1, 1, 1], { elo0: Number.NaN, elo1: 2 })).toThrow(/must be finite numbers/);
    expect(() => sprt([1, 1, 1, 1, 1], { ...ok, model: 'bayes' as 'logistic' })).toThrow(/model is 'bayes'; pass 'normalized' \(the default\) or 'logistic'/);
    expect(() => sprtElo([1, 1, 1, 1, 1], ok, 1.5)).toThrow(/level is 1.5/);
  });
});
