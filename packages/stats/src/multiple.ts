/**
 * Many tests at once: Benjamini–Hochberg control of the false discovery rate, so that among the
 * shifts a report calls significant, at most a share q is expected to be flukes.
 */

/** Adjusted p-values in the input's order (R's `p.adjust(p, "BH")`): monotone, capped at 1. */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  const bad = pValues.findIndex((p) => !(p >= 0 && p <= 1));
  if (bad >= 0) throw new RangeError(`benjaminiHochberg: p-value ${bad} is ${pValues[bad]}; every p-value must be between 0 and 1.`);
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => b[0] - a[0]);
  const out = new Array<number>(m);
  let running = 1;
  order.forEach(([p, i], r) => {
    const rank = m - r;
    running = Math.min(running, (p * m) / rank);
    out[i] = running;
  });
  return out;
}

/** Which of `pValues` are discoveries at false discovery rate `q` (default 0.05). */
export function significant(pValues: readonly number[], q = 0.05): boolean[] {
  if (!(q > 0 && q < 1)) throw new RangeError(`significant: q is ${q}; give a false discovery rate between 0 and 1, such as 0.05.`);
  return benjaminiHochberg(pValues).map((p) => p <= q);
}
