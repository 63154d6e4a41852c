/**
 * Small dense linear algebra for the fits (a few hundred unknowns at most): Gaussian elimination with
 * partial pivoting. Deterministic: no randomness, fixed loop order.
 */

/** Solves `a x = b` in place-safe fashion (copies its inputs). Throws when `a` is singular. */
export function solve(a: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] ?? 0]);
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[piv]![col]!)) piv = r;
    if (Math.abs(m[piv]![col]!) < 1e-12) throw new Error(`singular system at column ${col}`);
    if (piv !== col) [m[piv], m[col]] = [m[col]!, m[piv]!];
    const pr = m[col]!;
    for (let r = col + 1; r < n; r++) {
      const row = m[r]!;
      const f = row[col]! / pr[col]!;
      if (f === 0) continue;
      for (let k = col; k <= n; k++) row[k] = row[k]! - f * pr[k]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    const row = m[r]!;
    let s = row[n]!;
    for (let k = r + 1; k < n; k++) s -= row[k]! * x[k]!;
    x[r] = s / row[r]!;
  }
  return x;
}
