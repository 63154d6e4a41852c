/**
 * A binary min-heap of (hex, key) pairs on typed arrays, with lazy deletion left to the caller (push a
 * hex again when its key improves; skip stale pops). Capacity is fixed at construction; `clear()`
 * makes it reusable without allocating.
 */
export class HexHeap {
  private readonly hexes: Int32Array;
  private readonly keys: Float64Array;
  size = 0;
  /** Key of the last popped entry. */
  poppedKey = 0;

  constructor(capacity: number) {
    this.hexes = new Int32Array(capacity);
    this.keys = new Float64Array(capacity);
  }

  clear(): void {
    this.size = 0;
  }

  push(hex: number, key: number): void {
    const { hexes, keys } = this;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((keys[p] as number) <= key) break;
      hexes[i] = hexes[p] as number;
      keys[i] = keys[p] as number;
      i = p;
    }
    hexes[i] = hex;
    keys[i] = key;
  }

  /** Remove the entry with the smallest key and return its hex (its key is in `poppedKey`). Size must be > 0. */
  pop(): number {
    const { hexes, keys } = this;
    const top = hexes[0] as number;
    this.poppedKey = keys[0] as number;
    const size = --this.size;
    if (size > 0) {
      const lastHex = hexes[size] as number;
      const lastKey = keys[size] as number;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        const c = r < size && (keys[r] as number) < (keys[l] as number) ? r : l;
        if ((keys[c] as number) >= lastKey) break;
        hexes[i] = hexes[c] as number;
        keys[i] = keys[c] as number;
        i = c;
      }
      hexes[i] = lastHex;
      keys[i] = lastKey;
    }
    return top;
  }
}
