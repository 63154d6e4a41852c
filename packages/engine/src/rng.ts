/**
 * Seeded random streams, one per subsystem. Each stream is an independent xoroshiro128+ generator
 * (pure-rand) whose seed mixes the match seed with the stream's name, so changing how often one
 * subsystem rolls (say, a new weather rule) never reshuffles another subsystem's dice. Streams are
 * created on first use; their order of creation does not matter.
 *
 * Only the runner and bots use these. Games never draw: they expose chance nodes.
 */
import { xoroshiro128plus, xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator';
import type { ChanceOutcome } from './contract.ts';
import { hashString } from './hash.ts';

/** A 32-bit seed for the stream `name` of a match seeded with `seed`. */
export function streamSeed(seed: number, name: string): number {
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
  const h = hashString(`${seed}/${name}`);
  return Number.parseInt(h.slice(0, 8), 16) | 0;
}

/** One named stream. */
export class RngStream {
  readonly name: string;
  private gen: JumpableRandomGenerator;
  /** How many values were drawn: handy to show that one stream's use leaves others alone. */
  draws = 0;

  constructor(seed: number, name: string, state?: readonly number[]) {
    this.name = name;
    this.gen = state ? xoroshiro128plusFromState(state) : xoroshiro128plus(streamSeed(seed, name));
  }

  /** Uniform integer in [from, to], both included. */
  int(from: number, to: number): number {
    this.draws++;
    return uniformInt(this.gen, from, to);
  }

  /** Uniform number in [0, 1) with 32 bits of resolution. */
  unit(): number {
    return this.int(0, 0xffffffff) / 0x100000000;
  }

  /** Pick one element uniformly. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError(`stream ${this.name}: cannot pick from an empty list`);
    return items[this.int(0, items.length - 1)] as T;
  }

  /**
   * Sample a chance node. Equal probabilities (dice) draw one uniform integer, so a d6 is exact;
   * otherwise a 32-bit uniform is compared against the cumulative probabilities.
   */
  sample<C>(outcomes: readonly ChanceOutcome<C>[]): C {
    const first = outcomes[0];
    if (!first) throw new RangeError(`stream ${this.name}: chance node with no outcomes`);
    if (outcomes.every((o) => o.p === first.p)) return this.pick(outcomes).outcome;
    const u = this.unit();
    let acc = 0;
    for (const o of outcomes) {
      acc += o.p;
      if (u < acc) return o.outcome;
    }
    return (outcomes[outcomes.length - 1] as ChanceOutcome<C>).outcome;
  }

  /** Serializable generator state. */
  state(): readonly number[] {
    return this.gen.getState();
  }
}

/** The set of named streams of one match. */
export class RngStreams {
  readonly seed: number;
  private readonly streams = new Map<string, RngStream>();

  constructor(seed: number) {
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be a safe integer, got ${seed}`);
    this.seed = seed;
  }

  get(name: string): RngStream {
    let s = this.streams.get(name);
    if (!s) {
      s = new RngStream(this.seed, name);
      this.streams.set(name, s);
    }
    return s;
  }

  /** Draw counts by stream name. */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.streams].map(([k, v]) => [k, v.draws]));
  }
}
