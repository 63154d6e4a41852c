/**
 * Intervals on a binomial proportion (a win rate). Wilson's is the one the API puts on every win
 * rate; Jeffreys' is the Bayesian one with the uninformative prior. Both are sound at small counts
 * and at 0% and 100%, where the normal approximation is not. Newcombe's, built from two Wilson
 * intervals, is on the difference of two proportions (a win rate's change between two samples).
 */
import { createRequire } from 'node:module';

const { beta } = createRequire(import.meta.url)('jstat') as { beta: { inv(p: number, a: number, b: number): number } };

/** Two-sided 95% normal quantile. */
const Z95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

/** Wilson interval for `successes` out of `trials` (both whole, 0 ≤ successes ≤ trials); [0, 1] when there are no trials. */
export function wilson(successes: number, trials: number, z: number = Z95): Interval {
  if (!(Number.isInteger(successes) && Number.isInteger(trials) && successes >= 0 && successes <= trials)) {
    throw new RangeError(`wilson: need whole counts with 0 <= successes <= trials; got ${successes} of ${trials}`);
  }
  if (trials === 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const spread = z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  const denominator = 1 + z2 / trials;
  return { low: Math.max(0, (centre - spread) / denominator), high: Math.min(1, (centre + spread) / denominator) };
}

/**
 * The Jeffreys interval: the equal-tailed interval of the Beta(x + ½, n − x + ½) posterior, with the
 * lower end 0 when x = 0 and the upper end 1 when x = n (Brown, Cai & DasGupta 2001). Like Wilson's,
 * it keeps close to its nominal coverage at small counts; `level` is its coverage (default 0.95).
 */
export function jeffreys(successes: number, trials: number, level = 0.95): Interval {
  if (!(Number.isInteger(successes) && Number.isInteger(trials) && successes >= 0 && successes <= trials)) {
    throw new RangeError(`jeffreys: need whole counts with 0 <= successes <= trials; got ${successes} of ${trials}`);
  }
  if (!(level > 0 && level < 1)) throw new RangeError(`jeffreys: level is ${level}; give a coverage between 0 and 1, such as 0.95`);
  if (trials === 0) return { low: 0, high: 1 };
  const tail = (1 - level) / 2;
  const a = successes + 0.5;
  const b = trials - successes + 0.5;
  return { low: successes === 0 ? 0 : beta.inv(tail, a, b), high: successes === trials ? 1 : beta.inv(1 - tail, a, b) };
}

/**
 * Newcombe's hybrid score interval (method 10 of Newcombe 1998) on p2 − p1, where p1 = w1 / n1 and
 * p2 = w2 / n2, from the two 95% Wilson intervals: sound at small counts and at 0% and 100%, where the
 * Wald interval is not. Both samples need at least one trial.
 */
export function differenceInterval(w1: number, n1: number, w2: number, n2: number): Interval {
  if (!(n1 > 0 && n2 > 0)) throw new RangeError(`differenceInterval: each sample needs at least one trial; got ${n1} and ${n2}`);
  const a = wilson(w1, n1);
  const b = wilson(w2, n2);
  const p1 = w1 / n1;
  const p2 = w2 / n2;
  const d = p2 - p1;
  return { low: d - Math.hypot(p2 - b.low, a.high - p1), high: d + Math.hypot(b.high - p2, p1 - a.low) };
}
