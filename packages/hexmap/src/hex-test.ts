/** A per-hex yes/no rule: a callback, or a mask indexed by hex (nonzero = yes) that costs no call. */
export type HexTest = ((hex: number) => boolean) | Uint8Array;

/** `test(hex)` for either form; `undefined` is "no hex". */
export function hexTest(test: HexTest | undefined, hex: number): boolean {
  if (test === undefined) return false;
  return typeof test === 'function' ? test(hex) : test[hex] !== 0 && test[hex] !== undefined;
}
