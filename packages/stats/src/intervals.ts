/**
 * The 95% Wilson score interval for a binomial proportion: the interval the API puts on every win
 * rate. Sound at small counts and at 0% and 100%, where the normal approximation is not.
 */

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
