import { describe, expect, it } from 'vitest';
import { bradleyTerry, eloDifference, ELO_PER_LOGIT, type BradleyTerryResult } from '../src/bradley-terry.ts';
import { openskillRatings, type MatchResult, type RatedMatch } from '../src/ratings.ts';

/** |got - want| within `tol` of want's size (absolute below 1). */
function close(got: number | undefined, want: number, tol = 1e-9): void {
  expect(got, `want ${want}`).toBeDefined();
  expect(Math.abs((got ?? NaN) - want) / Math.max(1, Math.abs(want)), `got ${got}, want ${want}`).toBeLessThan(tol);
}

function bot(fit: BradleyTerryResult, name: string) {
  const found = fit.bots.find((b) => b.bot === name);
  if (found === undefined) throw new Error(`no bot ${name} in the fit`);
  return found;
}

function side(fit: BradleyTerryResult, scenario: string, name: string) {
  const found = fit.sides.find((s) => s.scenario === scenario && s.side === name);
  if (found === undefined) throw new Error(`no side ${scenario}/${name} in the fit`);
  return found;
}

/** A two-sided match: `first` plays `firstSide` and gets `result`; `second` gets the opposite. */
function duel(scenario: string, first: string, second: string, result: MatchResult, sides: [string, string] = ['Allies', 'Axis']): RatedMatch {
  const other: MatchResult = result === 'win' ? 'loss' : result === 'loss' ? 'win' : 'draw';
  return {
    scenario,
    sides: [
      { side: sides[0], bot: first, result },
      { side: sides[1], bot: second, result: other },
    ],
  };
}

/** mulberry32 (Tommy Ettinger's public-domain 32-bit generator): small, seeded, good enough for simulation. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const logistic = (x: number): number => 1 / (1 + Math.exp(-x));

describe('bradleyTerry: Agresti baseball, home advantage (published)', () => {
  /**
   * 1987 American League East, home wins and away wins for each (home, away) pair, from Agresti,
   * Categorical Data Analysis (2nd ed., 2002), §10.6, as shipped in the R package BradleyTerry2
   * (hturner/BradleyTerry2, data/baseball.csv). Each game is a match of one scenario whose sides are
   * 'home' and 'away'.
   */
  const BASEBALL: [home: string, away: string, homeWins: number, awayWins: number][] = [
    ['Milwaukee', 'Detroit', 4, 3], ['Milwaukee', 'Toronto', 4, 2], ['Milwaukee', 'New York', 4, 3],
    ['Milwaukee', 'Boston', 6, 1], ['Milwaukee', 'Cleveland', 4, 2], ['Milwaukee', 'Baltimore', 6, 0],
    ['Detroit', 'Milwaukee', 3, 3], ['Detroit', 'Toronto', 4, 2], ['Detroit', 'New York', 4, 3],
    ['Detroit', 'Boston', 6, 0], ['Detroit', 'Cleveland', 6, 1], ['Detroit', 'Baltimore', 4, 3],
    ['Toronto', 'Milwaukee', 2, 5], ['Toronto', 'Detroit', 4, 3], ['Toronto', 'New York', 2, 4],
    ['Toronto', 'Boston', 4, 3], ['Toronto', 'Cleveland', 4, 2], ['Toronto', 'Baltimore', 6, 0],
    ['New York', 'Milwaukee', 3, 3], ['New York', 'Detroit', 5, 1], ['New York', 'Toronto', 2, 5],
    ['New York', 'Boston', 4, 3], ['New York', 'Cleveland', 4, 2], ['New York', 'Baltimore', 6, 1],
    ['Boston', 'Milwaukee', 5, 1], ['Boston', 'Detroit', 2, 5], ['Boston', 'Toronto', 3, 3],
    ['Boston', 'New York', 4, 2], ['Boston', 'Cleveland', 5, 2], ['Boston', 'Baltimore', 6, 0],
    ['Cleveland', 'Milwaukee', 2, 5], ['Cleveland', 'Detroit', 3, 3], ['Cleveland', 'Toronto', 3, 4],
    ['Cleveland', 'New York', 4, 3], ['Cleveland', 'Boston', 4, 2], ['Cleveland', 'Baltimore', 2, 4],
    ['Baltimore', 'Milwaukee', 2, 5], ['Baltimore', 'Detroit', 1, 5], ['Baltimore', 'Toronto', 1, 6],
    ['Baltimore', 'New York', 2, 4], ['Baltimore', 'Boston', 1, 6], ['Baltimore', 'Cleveland', 3, 4],
  ];
  const matches: RatedMatch[] = BASEBALL.flatMap(([home, away, homeWins, awayWins]) => [
    ...Array.from({ length: homeWins }, () => duel('mlb/1987-al-east', home, away, 'win', ['home', 'away'])),
    ...Array.from({ length: awayWins }, () => duel('mlb/1987-al-east', home, away, 'loss', ['home', 'away'])),
  ]);
  const fit = bradleyTerry(matches, { ridge: 0, firth: false });

  it('converges', () => {
    expect(fit.converged).toBe(true);
    expect(fit.iterations).toBeLessThan(20);
  });

  it("matches Agresti's home advantage α = 0.302 and BradleyTerry2's 0.3023 (SE 0.1309)", () => {
    // Agresti §10.6 prints α̂ = 0.302; BradleyTerry2's summary (tests/baseball.Rout.save) prints
    // at.home 0.3023, Std. Error 0.1309. With two sides, `advantage` is α itself.
    const home = side(fit, 'mlb/1987-al-east', 'home');
    const away = side(fit, 'mlb/1987-al-east', 'away');
    expect(home.advantage.toFixed(3)).toBe('0.302');
    expect(home.advantage.toFixed(4)).toBe('0.3023');
    expect(home.standardError.toFixed(4)).toBe('0.1309');
    close(away.advantage, -home.advantage, 1e-12);
    close(home.winProbabilityEven, logistic(home.advantage), 1e-12);
    close(home.interval.high - home.advantage, 1.959963984540054 * home.standardError, 1e-12);
    expect(home.games).toBe(matches.length);
  });

  it("matches Agresti Table 10.11's abilities exp(θ)/Σexp(θ) to three decimals", () => {
    // BradleyTerry2 tests/testthat/test-baseball.R checks the same column sorted:
    // 0.044, 0.088, 0.137, 0.157, 0.164, 0.190, 0.220.
    const published: Record<string, string> = {
      Baltimore: '0.044', Cleveland: '0.088', Boston: '0.137', 'New York': '0.157',
      Toronto: '0.164', Detroit: '0.190', Milwaukee: '0.220',
    };
    const total = fit.bots.reduce((s, b) => s + Math.exp(b.strength), 0);
    for (const [team, ability] of Object.entries(published)) {
      expect((Math.exp(bot(fit, team).strength) / total).toFixed(3), team).toBe(ability);
    }
  });

  it("matches BradleyTerry2's coefficients (Baltimore = 0) to four decimals", () => {
    // summary(baseballModel2), BradleyTerry2 tests/baseball.Rout.save.
    const published: Record<string, string> = {
      Boston: '1.1438', Cleveland: '0.7047', Detroit: '1.4754', Milwaukee: '1.6196', 'New York': '1.2813', Toronto: '1.3271',
    };
    const baltimore = bot(fit, 'Baltimore').strength;
    for (const [team, coefficient] of Object.entries(published)) {
      expect((bot(fit, team).strength - baltimore).toFixed(4), team).toBe(coefficient);
    }
    close(fit.bots.reduce((s, b) => s + b.strength, 0), 0, 1e-12);
    expect(fit.bots[0]?.bot).toBe('Milwaukee');
    expect(fit.bots.at(-1)?.bot).toBe('Baltimore');
  });

  it("matches BradleyTerry2's standard errors of each team against Baltimore, via eloDifference", () => {
    // Same print as above: with Baltimore as reference, each coefficient is a difference of two strengths.
    const published: Record<string, [string, string]> = {
      Boston: ['1.1438', '0.3378'], Cleveland: ['0.7047', '0.3350'], Detroit: ['1.4754', '0.3446'],
      Milwaukee: ['1.6196', '0.3474'], 'New York': ['1.2813', '0.3404'], Toronto: ['1.3271', '0.3403'],
    };
    for (const [team, [coefficient, se]] of Object.entries(published)) {
      const d = eloDifference(fit, team, 'Baltimore');
      expect((d.elo / ELO_PER_LOGIT).toFixed(4), team).toBe(coefficient);
      expect((d.standardError / ELO_PER_LOGIT).toFixed(4), team).toBe(se);
      close(d.interval.high - d.elo, 1.959963984540054 * d.standardError, 1e-12);
    }
    close(eloDifference(fit, 'Baltimore', 'Toronto').elo, -eloDifference(fit, 'Toronto', 'Baltimore').elo, 1e-12);
    expect(() => eloDifference(fit, 'Toronto', 'Montreal')).toThrow(/bot 'Montreal' is not in this fit; pass one of 'Milwaukee'/);
  });

  it("matches BradleyTerry2's residual deviance 38.643", () => {
    // Deviance = 2 (saturated log-likelihood − fitted), saturated = each (home, away) pair at its own rate.
    const saturated = BASEBALL.reduce((s, [, , w, l]) => {
      const n = w + l;
      return s + (w > 0 ? w * Math.log(w / n) : 0) + (l > 0 ? l * Math.log(l / n) : 0);
    }, 0);
    expect((2 * (saturated - fit.logLikelihood)).toFixed(3)).toBe('38.643');
  });

  it('reports Elo as 400/ln 10 per logit, interval included', () => {
    const milwaukee = bot(fit, 'Milwaukee');
    close(milwaukee.elo, (400 / Math.LN10) * milwaukee.strength, 1e-12);
    close(ELO_PER_LOGIT, 173.71779276130073, 1e-15);
    close(milwaukee.interval.high - milwaukee.elo, ELO_PER_LOGIT * 1.959963984540054 * milwaukee.standardError, 1e-12);
    close(milwaukee.elo - milwaukee.interval.low, milwaukee.interval.high - milwaukee.elo, 1e-12);
  });

  it('the default ridge moves the published estimates by less than 0.001', () => {
    const ridged = bradleyTerry(matches, { firth: false });
    for (const b of fit.bots) expect(Math.abs(bot(ridged, b.bot).strength - b.strength)).toBeLessThan(1e-3);
    expect(Math.abs(side(ridged, 'mlb/1987-al-east', 'home').advantage - 0.3023)).toBeLessThan(1e-3);
  });

  it("Firth's penalty (the default) shrinks the estimates a little towards even, keeping their order", () => {
    const firth = bradleyTerry(matches);
    const shrink = (f: BradleyTerryResult) => f.bots.reduce((a, b) => a + Math.abs(b.strength), 0);
    expect(shrink(firth)).toBeLessThan(shrink(fit));
    expect(firth.bots.map((b) => b.bot)).toEqual(fit.bots.map((b) => b.bot));
    for (const b of fit.bots) expect(Math.abs(bot(firth, b.bot).strength - b.strength)).toBeLessThan(0.05);
    expect(Math.abs(side(firth, 'mlb/1987-al-east', 'home').advantage - 0.3023)).toBeLessThan(0.02);
  });

  it('does not depend on the order of the matches', () => {
    const reversed = bradleyTerry([...matches].reverse(), { ridge: 0, firth: false });
    for (const b of fit.bots) close(bot(reversed, b.bot).strength, b.strength, 1e-10);
  });
});

describe('bradleyTerry: draws, mirror matches and a three-sided scenario (scipy reference)', () => {
  const SIDES: Record<string, string[]> = {
    'ww2/bulge': ['Allies', 'Axis'],
    'ww2/crete': ['Allies', 'Axis'],
    'ffa/three': ['Red', 'Green', 'Blue'],
  };
  const RESULT: Record<string, MatchResult> = { W: 'win', L: 'loss', D: 'draw' };
  /** `scenario: bot result, ...`, one entry per side in SIDES order. */
  const LINES = [
    'ww2/bulge: mcts@1 L, greedy@1 W', 'ww2/crete: random@1 W, greedy@1 L', 'ffa/three: greedy@1 W, random@1 L, mcts@1 L',
    'ww2/bulge: mcts@1 W, greedy@1 L', 'ww2/crete: random@1 L, greedy@1 W', 'ffa/three: mcts@1 W, random@1 L, greedy@1 L',
    'ww2/bulge: greedy@1 D, mcts@1 D', 'ww2/crete: greedy@1 W, random@1 L', 'ffa/three: random@1 L, greedy@1 W, mcts@1 L',
    'ww2/bulge: random@1 L, mcts@1 W', 'ww2/crete: mcts@1 W, random@1 L', 'ffa/three: mcts@1 L, random@1 L, greedy@1 W',
    'ww2/bulge: random@1 L, greedy@1 W', 'ww2/crete: mcts@1 W, greedy@1 L', 'ffa/three: greedy@1 W, mcts@1 L, mcts@1 L',
    'ww2/bulge: greedy@1 W, random@1 L', 'ww2/crete: mcts@1 W, random@1 L', 'ffa/three: mcts@1 W, random@1 L, greedy@1 L',
    'ww2/bulge: mcts@1 W, greedy@1 L', 'ww2/crete: random@1 L, greedy@1 W', 'ffa/three: greedy@1 W, mcts@1 L, random@1 L',
    'ww2/bulge: mcts@1 L, mcts@1 W', 'ww2/crete: greedy@1 W, mcts@1 L', 'ffa/three: mcts@1 L, greedy@1 W, random@1 L',
    'ww2/bulge: greedy@1 L, mcts@1 W', 'ww2/crete: random@1 D, greedy@1 D', 'ffa/three: mcts@1 W, random@1 L, greedy@1 L',
    'ww2/bulge: mcts@1 W, random@1 L', 'ww2/crete: random@1 L, mcts@1 W', 'ffa/three: mcts@1 W, random@1 L, greedy@1 L',
    'ww2/bulge: greedy@1 W, random@1 L', 'ww2/crete: greedy@1 W, mcts@1 L', 'ffa/three: greedy@1 L, random@1 L, mcts@1 W',
    'ww2/bulge: greedy@1 L, random@1 W', 'ww2/crete: greedy@1 W, random@1 L', 'ffa/three: greedy@1 W, random@1 L, mcts@1 L',
    'ww2/bulge: mcts@1 L, greedy@1 W', 'ww2/crete: random@1 L, mcts@1 W', 'ffa/three: greedy@1 L, mcts@1 W, random@1 L',
    'ww2/bulge: greedy@1 L, mcts@1 W', 'ww2/crete: mcts@1 W, greedy@1 L', 'ffa/three: greedy@1 L, mcts@1 W, random@1 L',
    'ww2/bulge: greedy@1 L, mcts@1 W', 'ww2/crete: mcts@1 L, greedy@1 W', 'ffa/three: mcts@1 W, greedy@1 L, random@1 L',
    'ww2/bulge: greedy@1 L, random@1 W', 'ww2/crete: greedy@1 W, random@1 L', 'ffa/three: mcts@1 W, random@1 L, greedy@1 L',
  ];
  const matches: RatedMatch[] = LINES.map((line) => {
    const [scenario = '', rest = ''] = line.split(': ');
    const sides = rest.split(', ').map((entry, i) => {
      const [botName = '', r = ''] = entry.split(' ');
      return { side: SIDES[scenario]?.[i] ?? '', bot: botName, result: RESULT[r] ?? 'draw' };
    });
    return { scenario, sides };
  });

  /**
   * Produced with python3 (numpy 2.4, scipy 1.17): the same likelihood written independently (pairs
   * weighted 1/(k−1), both-lost pairs skipped, draws as 0.5), maximised by
   * scipy.optimize.minimize(method='trust-exact') with one reference bot and one reference side per
   * scenario at 0, then centred; standard errors from numpy.linalg.pinv of the observed information.
   * The two agreed with a BFGS fit to 1e-9.
   */
  const REFERENCE = {
    logLikelihood: -19.975482919681593,
    bots: { 'greedy@1': [0.62438677401, 0.32381724429], 'mcts@1': [1.0939479518, 0.39448009937], 'random@1': [-1.7183347258, 0.52110370352] },
    sides: {
      'ffa/three Blue': [-1.2557343304, 0.99722300475],
      'ffa/three Green': [0.40423524144, 0.95088077875],
      'ffa/three Red': [0.85149908899, 0.77521029172],
      'ww2/bulge Allies': [-1.4345907798, 0.71163702997],
      'ww2/bulge Axis': [1.4345907798, 0.71163702997],
      'ww2/crete Allies': [1.4263274802, 0.82014696419],
      'ww2/crete Axis': [-1.4263274802, 0.82014696419],
    },
  } as const;

  const fit = bradleyTerry(matches, { ridge: 0, firth: false });

  it('matches the scipy fit: strengths, advantages, standard errors, log-likelihood', () => {
    expect(fit.converged).toBe(true);
    close(fit.logLikelihood, REFERENCE.logLikelihood, 1e-8);
    for (const [name, [strength, se]] of Object.entries(REFERENCE.bots)) {
      close(bot(fit, name).strength, strength, 1e-8);
      close(bot(fit, name).standardError, se, 1e-8);
    }
    for (const [key, [advantage, se]] of Object.entries(REFERENCE.sides)) {
      const [scenario = '', name = ''] = key.split(' ');
      close(side(fit, scenario, name).advantage, advantage, 1e-8);
      close(side(fit, scenario, name).standardError, se, 1e-8);
    }
  });

  it('counts games per bot (a mirror match once) and per side', () => {
    const played = (name: string) => matches.filter((m) => m.sides.some((s) => s.bot === name)).length;
    for (const b of fit.bots) expect(b.games).toBe(played(b.bot));
    expect(side(fit, 'ffa/three', 'Red').games).toBe(16);
    expect(fit.sides.map((s) => `${s.scenario} ${s.side}`)).toEqual(Object.keys(REFERENCE.sides));
  });

  it('a mirror match informs the side advantage only', () => {
    const base = [duel('s', 'a', 'b', 'win'), duel('s', 'b', 'a', 'win'), duel('s', 'a', 'b', 'loss'), duel('s', 'b', 'a', 'draw')];
    const without = bradleyTerry(base);
    const withMirror = bradleyTerry([...base, duel('s', 'a', 'a', 'win')]);
    expect(side(withMirror, 's', 'Allies').advantage).toBeGreaterThan(side(without, 's', 'Allies').advantage);
    expect(bot(withMirror, 'a').games).toBe(bot(without, 'a').games + 1);
  });
});

describe('bradleyTerry: recovers simulated strengths and side advantages', () => {
  const BOTS = ['random@1', 'greedy@1', 'mcts:iterations=200@1', 'mcts:iterations=800@1'];
  /** True strengths (logits, summing to 0). */
  const THETA = [-1.0, -0.2, 0.4, 0.8];
  /** True log-odds of Axis beating Allies between equal bots: nearly balanced, and Axis at 70%. */
  const ALPHA: Record<string, number> = { 'ww2/balanced': 0.1, 'ww2/axis-favoured': Math.log(0.7 / 0.3) };
  const SCENARIOS = Object.keys(ALPHA);

  /**
   * `count` matches between two different bots on random sides of a random scenario. A draw comes
   * with probability `drawRate` and otherwise Axis wins with probability q, chosen so that Axis's
   * expected score (draw = ½) is the model's logistic(θ_axis − θ_allies + α): what the fit assumes.
   */
  function simulate(seed: number, count: number, drawRate: number, scenarios: readonly string[]): RatedMatch[] {
    const random = mulberry32(seed);
    const pick = (n: number): number => Math.floor(random() * n);
    const matches: RatedMatch[] = [];
    for (let k = 0; k < count; k += 1) {
      const scenario = scenarios[pick(scenarios.length)] ?? '';
      const axis = pick(BOTS.length);
      const allies = (axis + 1 + pick(BOTS.length - 1)) % BOTS.length;
      const p = logistic((THETA[axis] ?? 0) - (THETA[allies] ?? 0) + (ALPHA[scenario] ?? 0));
      const q = (p - drawRate / 2) / (1 - drawRate);
      const result: MatchResult = random() < drawRate ? 'draw' : random() < q ? 'win' : 'loss';
      matches.push(duel(scenario, BOTS[axis] ?? '', BOTS[allies] ?? '', result, ['Axis', 'Allies']));
    }
    return matches;
  }

  it('20000 matches with 10% draws: every true value inside its 95% interval', () => {
    const fit = bradleyTerry(simulate(20260501, 20_000, 0.1, SCENARIOS));
    expect(fit.converged).toBe(true);
    BOTS.forEach((name, i) => {
      const b = bot(fit, name);
      const trueElo = ELO_PER_LOGIT * (THETA[i] ?? 0);
      expect(b.interval.low, name).toBeLessThan(trueElo);
      expect(b.interval.high, name).toBeGreaterThan(trueElo);
      expect(b.games).toBeGreaterThan(9000);
    });
    for (const scenario of SCENARIOS) {
      const alpha = ALPHA[scenario] ?? 0;
      const axis = side(fit, scenario, 'Axis');
      expect(axis.interval.low, scenario).toBeLessThan(alpha);
      expect(axis.interval.high, scenario).toBeGreaterThan(alpha);
      expect(axis.winProbabilityInterval.low).toBeLessThan(logistic(alpha));
      expect(axis.winProbabilityInterval.high).toBeGreaterThan(logistic(alpha));
      close(side(fit, scenario, 'Allies').advantage, -axis.advantage, 1e-9);
    }
    // The headline figure: Axis wins about 70% of the favoured scenario net of bot strength.
    expect(Math.abs(side(fit, 'ww2/axis-favoured', 'Axis').winProbabilityEven - 0.7)).toBeLessThan(0.02);
  });

  it('intervals cover at about the nominal 95% over 200 simulated tournaments', () => {
    // No draws here: with draws the intervals are slightly conservative by design.
    let covered = 0;
    let total = 0;
    let sideCovered = 0;
    for (let replicate = 0; replicate < 200; replicate += 1) {
      const fit = bradleyTerry(simulate(1000 + replicate, 1000, 0, ['ww2/axis-favoured']));
      BOTS.forEach((name, i) => {
        const b = bot(fit, name);
        const trueElo = ELO_PER_LOGIT * (THETA[i] ?? 0);
        if (b.interval.low < trueElo && trueElo < b.interval.high) covered += 1;
        total += 1;
      });
      const axis = side(fit, 'ww2/axis-favoured', 'Axis');
      if (axis.interval.low < (ALPHA['ww2/axis-favoured'] ?? 0) && (ALPHA['ww2/axis-favoured'] ?? 0) < axis.interval.high) sideCovered += 1;
    }
    // 800 intervals at 95%: the binomial standard deviation of the rate is 0.8 points.
    expect(covered / total).toBeGreaterThan(0.925);
    expect(covered / total).toBeLessThan(0.975);
    expect(sideCovered / 200).toBeGreaterThan(0.9);
    expect(sideCovered / 200).toBeLessThan(0.99);
  });
});

describe("bradleyTerry: Firth's penalty", () => {
  it('two bots, two sides, side swap: the closed form, logit((y + ½)/(n + 1)) for each seating', () => {
    // With two seatings the model is two binomials reparametrised, and Firth's estimate of a binomial's
    // log-odds is the logit of (y + ½)/(n + 1), whatever the (linear) parametrisation.
    const matches: RatedMatch[] = [];
    for (let k = 0; k < 12; k += 1) matches.push(duel('s', 'a', 'b', 'win')); // a on Allies: won all 12
    for (let k = 0; k < 12; k += 1) matches.push(duel('s', 'b', 'a', k < 9 ? 'win' : 'loss')); // b on Allies: 9 of 12
    const fit = bradleyTerry(matches, { ridge: 0 });
    const eta1 = Math.log(12.5 / 0.5); // Allies (a) beats Axis (b)
    const eta2 = Math.log(9.5 / 3.5); // Allies (b) beats Axis (a)
    close(bot(fit, 'a').strength - bot(fit, 'b').strength, (eta1 - eta2) / 2, 1e-9);
    close(side(fit, 's', 'Allies').advantage, (eta1 + eta2) / 2, 1e-9);
    close(side(fit, 's', 'Allies').winProbabilityEven, logistic((eta1 + eta2) / 2), 1e-9);
    // The plain fit has no finite answer here.
    expect(() => bradleyTerry(matches, { ridge: 0, firth: false })).toThrow(/do not determine the ratings/);
  });
});

describe('bradleyTerry: separation', () => {
  // 'oracle@1' wins every game; the others split theirs, on both sides.
  const matches: RatedMatch[] = [];
  for (let k = 0; k < 10; k += 1) {
    matches.push(duel('s', 'oracle@1', k % 2 ? 'random@1' : 'greedy@1', 'win'));
    matches.push(duel('s', k % 2 ? 'random@1' : 'greedy@1', 'oracle@1', 'loss'));
    matches.push(duel('s', 'greedy@1', 'random@1', k % 3 ? 'win' : 'loss'));
    matches.push(duel('s', 'random@1', 'greedy@1', k % 4 ? 'loss' : 'win'));
  }

  it('with the ridge alone: a finite estimate with a very wide interval, and converges', () => {
    const fit = bradleyTerry(matches, { firth: false });
    expect(fit.converged).toBe(true);
    const oracle = bot(fit, 'oracle@1');
    expect(fit.bots[0]?.bot).toBe('oracle@1');
    expect(Number.isFinite(oracle.elo)).toBe(true);
    expect(Number.isFinite(oracle.interval.high)).toBe(true);
    expect(oracle.strength).toBeGreaterThan(3);
    expect(oracle.interval.high - oracle.interval.low).toBeGreaterThan(2000);
    // Centred strengths inherit the oracle's uncertainty; the difference of the other two does not.
    const between = eloDifference(fit, 'greedy@1', 'random@1');
    expect(between.interval.high - between.interval.low).toBeLessThan(600);
    expect(between.interval.high - between.interval.low).toBeLessThan((bot(fit, 'greedy@1').interval.high - bot(fit, 'greedy@1').interval.low) / 4);
  });

  it('without the ridge or Firth says the data do not determine the ratings', () => {
    expect(() => bradleyTerry(matches, { ridge: 0, firth: false })).toThrow(/do not determine the ratings.*Leave ridge at its default/);
  });

  it("with Firth's penalty (the default): finite estimates and informative intervals, as an independent Firth logistic regression gives", () => {
    // Reference: Firth's modified-score IRLS on the match-level design matrix, in numpy (independent
    // code, a different parametrisation): centred strengths and standard errors, the Allies advantage.
    const fit = bradleyTerry(matches, { ridge: 0 });
    const want: Record<string, [number, number]> = {
      'oracle@1': [2.440389139821763, 0.9327683250219041],
      'greedy@1': [-0.9370015617914906, 0.5107434420700739],
      'random@1': [-1.5033875780302721, 0.5297985995794731],
    };
    for (const [name, [strength, se]] of Object.entries(want)) {
      close(bot(fit, name).strength, strength, 1e-8);
      close(bot(fit, name).standardError, se, 1e-8);
    }
    close(side(fit, 's', 'Allies').advantage, -0.19354726224910157, 1e-8);
    close(side(fit, 's', 'Allies').standardError, 0.444099345383016, 1e-8);
    const between = eloDifference(fit, 'greedy@1', 'random@1');
    close(between.elo, ELO_PER_LOGIT * 0.5663860162387815, 1e-8);
    close(between.standardError, ELO_PER_LOGIT * 0.4615561626755161, 1e-8);
    // And with the default ridge: within a hundredth of a logit of that.
    const ridged = bradleyTerry(matches);
    for (const [name, [strength]] of Object.entries(want)) expect(Math.abs(bot(ridged, name).strength - strength)).toBeLessThan(0.01);
    const oracle = bot(ridged, 'oracle@1');
    expect(oracle.interval.high - oracle.interval.low).toBeLessThan(800);
  });

  it('reports converged: false when the iterations run out', () => {
    const fit = bradleyTerry(matches, { maxIterations: 2 });
    expect(fit.converged).toBe(false);
    expect(fit.iterations).toBe(2);
  });
});

describe('bradleyTerry: bad input', () => {
  const ok = duel('s', 'a', 'b', 'win');
  it.each([
    ['no matches', [], /no matches/],
    ['one side', [{ scenario: 's', sides: [{ side: 'Axis', bot: 'a', result: 'win' }] }], /match 0 \(scenario 's'\) has 1 side\(s\); a rated match needs at least two/],
    ['unknown result', [ok, { scenario: 's', sides: [{ side: 'Axis', bot: 'a', result: 'won' }, { side: 'Allies', bot: 'b', result: 'loss' }] }], /match 1 \(scenario 's'\): side 'Axis' has result 'won'; use 'win', 'loss' or 'draw'/],
    ['side named twice', [{ scenario: 's', sides: [{ side: 'Axis', bot: 'a', result: 'win' }, { side: 'Axis', bot: 'b', result: 'loss' }] }], /side 'Axis' appears twice/],
    ['every side won', [{ scenario: 's', sides: [{ side: 'Axis', bot: 'a', result: 'win' }, { side: 'Allies', bot: 'b', result: 'win' }] }], /every side has result 'win'/],
    ['empty bot', [{ scenario: 's', sides: [{ side: 'Axis', bot: '', result: 'win' }, { side: 'Allies', bot: 'b', result: 'loss' }] }], /side 'Axis' has no bot name/],
    ['empty scenario', [{ scenario: '', sides: ok.sides }], /match 0 has no scenario key/],
  ])('%s', (_name, matches, message) => {
    expect(() => bradleyTerry(matches as RatedMatch[])).toThrow(RangeError);
    expect(() => bradleyTerry(matches as RatedMatch[])).toThrow(message);
  });

  it('rejects out-of-range options', () => {
    expect(() => bradleyTerry([ok], { ridge: -1 })).toThrow(/ridge is -1; pass a number of 0 or more/);
    expect(() => bradleyTerry([ok], { maxIterations: 0 })).toThrow(/maxIterations is 0/);
    expect(() => bradleyTerry([ok], { tolerance: 0 })).toThrow(/tolerance is 0/);
  });

  it('the error names the rating method', () => {
    expect(() => openskillRatings([{ scenario: 's', sides: [] }])).toThrow(/^openskillRatings: match 0/);
  });
});

describe('openskillRatings', () => {
  it("one win between new bots: openskill.js's published 27.6354 / 22.3646, sigma 8.0659", () => {
    // openskill.js src/__tests__/rate.test.ts, "reverses rank": default Plackett–Luce, default tau.
    const { bots } = openskillRatings([duel('s', 'winner@1', 'loser@1', 'win')]);
    const [winner, loser] = bots;
    expect(winner?.bot).toBe('winner@1');
    close(winner?.mu, 27.635389493140497, 1e-12);
    close(winner?.sigma, 8.06590141354368, 1e-12);
    close(loser?.mu, 22.364610506859503, 1e-12);
    close(loser?.sigma, 8.06590141354368, 1e-12);
    close(winner?.ordinal, 27.635389493140497 - 3 * 8.06590141354368, 1e-12);
    expect(winner?.games).toBe(1);
  });

  it("a four-way draw between new bots: openskill.js's published mu 25, sigma 8.2636", () => {
    // openskill.js src/__tests__/rate.test.ts, "four-way-tie with newbies".
    const match: RatedMatch = {
      scenario: 'ffa/four',
      sides: ['N', 'E', 'S', 'W'].map((s) => ({ side: s, bot: `bot-${s}`, result: 'draw' as const })),
    };
    for (const b of openskillRatings([match]).bots) {
      close(b.mu, 25, 1e-12);
      close(b.sigma, 8.263571791259416, 1e-12);
    }
  });

  it("winner's mu rises, loser's falls, and a draw leaves equal bots equal", () => {
    const { bots } = openskillRatings([duel('s', 'a', 'b', 'win'), duel('s', 'c', 'd', 'draw')]);
    const by = (name: string) => bots.find((b) => b.bot === name);
    expect(by('a')?.mu).toBeGreaterThan(25);
    expect(by('b')?.mu).toBeLessThan(25);
    expect(by('c')?.mu).toBe(by('d')?.mu);
    expect(by('c')?.sigma).toBe(by('d')?.sigma);
    expect(by('c')?.sigma).toBeLessThan(25 / 3 + 0.1);
    expect(bots.map((b) => b.bot)).toEqual(['a', 'c', 'd', 'b']);
  });

  it('three sides: the winner gains, the two losers lose equally from equal ratings', () => {
    const { bots } = openskillRatings([
      { scenario: 'ffa/three', sides: [{ side: 'Red', bot: 'x', result: 'loss' }, { side: 'Green', bot: 'y', result: 'win' }, { side: 'Blue', bot: 'z', result: 'loss' }] },
    ]);
    expect(bots[0]?.bot).toBe('y');
    expect(bots[0]?.mu).toBeGreaterThan(25);
    close(bots[1]?.mu, bots[2]?.mu ?? NaN, 1e-12);
    expect(bots[1]?.mu).toBeLessThan(25);
  });

  it('is deterministic, depends on order, and ignores sides', () => {
    const matches = [duel('s', 'a', 'b', 'win'), duel('s', 'b', 'c', 'win'), duel('s', 'c', 'a', 'win'), duel('s', 'a', 'b', 'draw')];
    expect(openskillRatings(matches)).toEqual(openskillRatings(matches));
    const reversed = openskillRatings([...matches].reverse()).bots.find((b) => b.bot === 'a');
    expect(reversed?.mu).not.toBeCloseTo(openskillRatings(matches).bots.find((b) => b.bot === 'a')?.mu ?? NaN, 6);
    const swapped = matches.map((m) => ({ ...m, sides: m.sides.map((s) => ({ ...s, side: s.side === 'Axis' ? 'Allies' : 'Axis' })) }));
    expect(openskillRatings(swapped)).toEqual(openskillRatings(matches));
  });

  it('leaves mirror matches out and counts them', () => {
    const result = openskillRatings([duel('s', 'a', 'a', 'win'), duel('s', 'a', 'b', 'win')]);
    expect(result.mirrorMatches).toBe(1);
    expect(result.bots.find((b) => b.bot === 'a')?.games).toBe(1);
    close(result.bots[0]?.mu, 27.635389493140497, 1e-12);
  });

  it('passes model options through and checks them', () => {
    const { bots } = openskillRatings([duel('s', 'a', 'b', 'draw')], { mu: 1500, sigma: 100, tau: 0 });
    close(bots[0]?.mu, 1500, 1e-12);
    expect(bots[0]?.sigma).toBeLessThan(100);
    expect(() => openskillRatings([], { sigma: 0 })).toThrow(/option sigma is 0; pass a number above 0/);
    expect(openskillRatings([])).toEqual({ bots: [], mirrorMatches: 0 });
  });
});
