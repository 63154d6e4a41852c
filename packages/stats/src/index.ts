/**
 * @salient/stats: the statistics Salient reports, each checked against published or hand-computed
 * values in test/. Intervals on win rates, bot ratings, SPRT on side-swapped pairs, and tests for a
 * shift between two samples with false-discovery control.
 */
export { wilson, type Interval } from './intervals.ts';
export * from './sprt.ts';
