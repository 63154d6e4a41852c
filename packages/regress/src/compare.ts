/**
 * Comparing a suite run with its baseline, two ways.
 *
 * Exact: the suite's games are deterministic, so a game whose state hash differs after any impulse
 * was changed by the code, the pack or a bot. For each such game the report gives the first impulse
 * whose hash differs, and there the first choice and the first event that differ: where a rules
 * change first showed.
 *
 * Statistical: whether the distributions the games describe moved, scenario by scenario: which side
 * wins and by which victory condition (χ² test of homogeneity), game lengths and each power's score
 * after each turn (k-sample Anderson–Darling on the midranks, made for data with ties), with effect
 * sizes. Many tests run at once, so p-values are adjusted by Benjamini–Hochberg and a shift counts
 * when its adjusted p is at most `q`.
 *
 * The two runs play the same seeds, so their samples are not independent: a test that treats them as
 * independent is conservative about a shift, never eager. An exact change is reported whether or not
 * any distribution moved.
 */
import { SalientError } from '@salient/engine';
import { andersonDarlingKSample, benjaminiHochberg, chiSquaredHomogeneity, ksTwoSample } from '@salient/stats';
import { byKey, type Baseline } from './baseline.ts';
import type { GameRecord, ImpulseRecord, RunFacts } from './record.ts';
import type { SuiteRun } from './run.ts';

/** Where a changed game first differs. */
export interface Divergence {
  /** 0-based impulse index. */
  index: number;
  /** Where the impulse started, in the baseline's game and in the current one. */
  at: { baseline?: string; current?: string };
  /** The first choice of that impulse that differs (index within the impulse). */
  choice?: { index: number; baseline?: string; current?: string };
  /** The first event of that impulse that differs (index within the impulse). */
  event?: { index: number; baseline?: string; current?: string };
  /** The impulse's events in full, both ways. */
  events: { baseline: string[]; current: string[] };
}

export interface ChangedGame {
  key: string;
  scenario: string;
  seed: number;
  seats: Record<string, string>;
  divergence: Divergence;
  /** How the game ended, before and after (`Axis win`, `draw`, `error`). */
  result: { baseline: string; current: string };
  impulses: { baseline: number; current: number };
  finalHash: { baseline: string; current: string };
}

/** What one side of a test looked like. */
export type SampleSummary = { kind: 'counts'; n: number; counts: Record<string, number> } | { kind: 'numbers'; n: number; mean: number; median: number };

export interface ShiftTest {
  scenario: string;
  /** What was compared: `result`, `victory condition`, `impulses`, `GER score after turn 3`, … */
  feature: string;
  test: 'chi-squared' | 'anderson-darling';
  statistic: number;
  p: number;
  /**
   * Anderson–Darling only: where `p` comes from. Its tables start at 0.25, so a statistic below that
   * critical value gives `p` = 0.25 as a floor (`at least 0.25`: no sign of a shift); the adjusted p
   * is then a floor too.
   */
  pFrom?: 'interpolated' | 'at least 0.25' | 'extrapolated';
  /** Benjamini–Hochberg adjusted over every test of the report. */
  pAdjusted: number;
  significant: boolean;
  /** Cramér's V for counts; for numbers, the Kolmogorov–Smirnov distance D (0 = same, 1 = apart). */
  effect: { name: "Cramér's V" | 'KS D'; value: number };
  /** For numbers: current mean − baseline mean. */
  meanShift?: number;
  baseline: SampleSummary;
  current: SampleSummary;
}

export interface RegressReport {
  /** What the exact comparison looked at. */
  compared: string;
  suite: { id: string; specHash: string };
  baseline: { createdAt: string; facts: RunFacts };
  current: { facts: RunFacts; wallMs: number };
  /** What differs between the two runs' packs, rules, engine and bots, as sentences. */
  notes: string[];
  games: number;
  unchanged: number;
  changed: ChangedGame[];
  q: number;
  tests: ShiftTest[];
  /** Exact changes or significant shifts? */
  moved: boolean;
  /** One line a person reads first. */
  verdict: string;
}

export interface CompareOptions {
  /** False discovery rate for the shift tests (default 0.05). */
  q?: number;
  /** Fewest games on each side for a numeric comparison (default 5). */
  minSample?: number;
}

/** How a game ended, as one category: the winning side, `draw`, or how it ended without a result. */
export function resultOf(g: GameRecord): string {
  const sides = Object.entries(g.sides);
  if (!sides.length) return g.kind;
  const winners = sides.filter(([, r]) => r === 'win').map(([s]) => s);
  const label = winners.length ? `${winners.join(' + ')} win` : sides.every(([, r]) => r === 'draw') ? 'draw' : 'no winner';
  return g.kind === 'completed' ? label : `${label} (${g.kind})`;
}

function firstDifference<T>(a: readonly T[], b: readonly T[]): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** Whether two impulse records show the same play: the same choices, events and scores. */
function samePlay(a: ImpulseRecord, b: ImpulseRecord): boolean {
  if (a.at !== b.at || firstDifference(a.choices, b.choices) >= 0 || firstDifference(a.events, b.events) >= 0) return false;
  const ka = Object.keys(a.scores);
  return ka.length === Object.keys(b.scores).length && ka.every((k) => a.scores[k] === b.scores[k]);
}

/**
 * Where two records of one game first differ; undefined when they are the same game.
 *
 * With `byState` (the default), the first impulse after which the state hashes differ: exact, and
 * it catches a change no event shows yet. A game's state may name its pack (Blitz's does, by content
 * hash), so when the pack changed every state hash differs from the first impulse on; then pass
 * `byState: false` to find the first impulse whose play differs (its choices, events or scores), the
 * first place the change can be seen.
 */
export function divergence(base: GameRecord, cur: GameRecord, o: { byState?: boolean } = {}): Divergence | undefined {
  const byState = o.byState ?? true;
  const n = Math.max(base.impulseLog.length, cur.impulseLog.length);
  let i = -1;
  for (let k = 0; k < n && i < 0; k++) {
    const b = base.impulseLog[k];
    const c = cur.impulseLog[k];
    if (!b || !c || (byState ? b.hash !== c.hash : !samePlay(b, c))) i = k;
  }
  if (i < 0) {
    const sameEnd = byState ? base.finalHash === cur.finalHash : base.reason === cur.reason && resultOf(base) === resultOf(cur);
    if (sameEnd && base.kind === cur.kind) return undefined;
    // Every impulse agrees but the end does not (a change after the last impulse row, or in how the match ended).
    return { index: n, at: {}, events: { baseline: [], current: [] } };
  }
  const b: ImpulseRecord | undefined = base.impulseLog[i];
  const c: ImpulseRecord | undefined = cur.impulseLog[i];
  const d: Divergence = {
    index: i,
    at: { ...(b ? { baseline: b.at } : {}), ...(c ? { current: c.at } : {}) },
    events: { baseline: b?.events ?? [], current: c?.events ?? [] },
  };
  const ci = firstDifference(b?.choices ?? [], c?.choices ?? []);
  if (ci >= 0) d.choice = { index: ci, ...(b?.choices[ci] !== undefined ? { baseline: b.choices[ci] } : {}), ...(c?.choices[ci] !== undefined ? { current: c.choices[ci] } : {}) };
  const ei = firstDifference(d.events.baseline, d.events.current);
  if (ei >= 0) d.event = { index: ei, ...(d.events.baseline[ei] !== undefined ? { baseline: d.events.baseline[ei] } : {}), ...(d.events.current[ei] !== undefined ? { current: d.events.current[ei] } : {}) };
  return d;
}

const counts = (values: readonly string[]): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
};

function numbers(values: readonly number[]): SampleSummary {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const mid = Math.floor(n / 2);
  const median = n === 0 ? 0 : n % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { kind: 'numbers', n, mean: n ? sorted.reduce((a, x) => a + x, 0) / n : 0, median };
}

type Pending = Omit<ShiftTest, 'pAdjusted' | 'significant'>;

function categorical(scenario: string, feature: string, a: readonly string[], b: readonly string[]): Pending | undefined {
  const ca = counts(a);
  const cb = counts(b);
  // One category on both sides: nothing can have shifted, and the test is undefined.
  if (new Set([...a, ...b]).size < 2 || !a.length || !b.length) return undefined;
  const r = chiSquaredHomogeneity(ca, cb);
  return {
    scenario,
    feature,
    test: 'chi-squared',
    statistic: r.statistic,
    p: r.pValue,
    effect: { name: "Cramér's V", value: r.cramersV },
    baseline: { kind: 'counts', n: a.length, counts: ca },
    current: { kind: 'counts', n: b.length, counts: cb },
  };
}

function numeric(scenario: string, feature: string, a: readonly number[], b: readonly number[], minSample: number): Pending | undefined {
  if (a.length < minSample || b.length < minSample) return undefined;
  // Every value the same on both sides: no spread to test, and no shift.
  if (new Set([...a, ...b]).size < 2) return undefined;
  const ad = andersonDarlingKSample([[...a], [...b]]);
  const ks = ksTwoSample([...a], [...b]);
  const sa = numbers(a);
  const sb = numbers(b);
  return {
    scenario,
    feature,
    test: 'anderson-darling',
    statistic: ad.statistic,
    p: ad.pValue,
    pFrom: ad.pValueFrom,
    effect: { name: 'KS D', value: ks.statistic },
    meanShift: (sb as { mean: number }).mean - (sa as { mean: number }).mean,
    baseline: sa,
    current: sb,
  };
}

/** Each power's score after the last impulse of each turn the game reached, as `power\0turn` -> score. */
function turnScores(g: GameRecord): Map<string, number> {
  const out = new Map<string, number>();
  for (const imp of g.impulseLog) for (const [power, score] of Object.entries(imp.scores)) out.set(`${power}\u0000${imp.turn}`, score);
  return out;
}

/** The shift tests of one scenario's games. */
function scenarioTests(scenario: string, base: readonly GameRecord[], cur: readonly GameRecord[], minSample: number): Pending[] {
  const tests: (Pending | undefined)[] = [
    categorical(scenario, 'result', base.map(resultOf), cur.map(resultOf)),
    categorical(
      scenario,
      'victory condition',
      base.filter((g) => g.kind !== 'error').map((g) => g.reason),
      cur.filter((g) => g.kind !== 'error').map((g) => g.reason),
    ),
    numeric(scenario, 'turns', base.map((g) => g.turns), cur.map((g) => g.turns), minSample),
    numeric(scenario, 'impulses', base.map((g) => g.impulses), cur.map((g) => g.impulses), minSample),
    numeric(scenario, 'decisions', base.map((g) => g.decisions), cur.map((g) => g.decisions), minSample),
  ];
  const bs = base.map(turnScores);
  const cs = cur.map(turnScores);
  const keys = new Set<string>();
  for (const m of [...bs, ...cs]) for (const k of m.keys()) keys.add(k);
  const sortedKeys = [...keys].sort((x, y) => {
    const [px, tx] = x.split('\u0000');
    const [py, ty] = y.split('\u0000');
    return Number(tx) - Number(ty) || (px as string).localeCompare(py as string);
  });
  for (const k of sortedKeys) {
    const [power, turn] = k.split('\u0000');
    const pick = (ms: Map<string, number>[]) => ms.map((m) => m.get(k)).filter((x): x is number => x !== undefined);
    tests.push(numeric(scenario, `${power} score after turn ${turn}`, pick(bs), pick(cs), minSample));
  }
  return tests.filter((t): t is Pending => t !== undefined);
}

function factNotes(b: RunFacts, c: RunFacts): string[] {
  const notes: string[] = [];
  if (b.game !== c.game) notes.push(`The game differs: baseline ${b.game}, current ${c.game}.`);
  if (b.pack.hash !== c.pack.hash) notes.push(`The pack's content changed: ${b.pack.id} ${b.pack.version} (${b.pack.hash.slice(0, 12)}) → ${c.pack.id} ${c.pack.version} (${c.pack.hash.slice(0, 12)}).`);
  if (b.rulesVersion !== c.rulesVersion) notes.push(`Rules version ${b.rulesVersion} → ${c.rulesVersion}.`);
  if (b.engineVersion !== c.engineVersion) notes.push(`Engine version ${b.engineVersion} → ${c.engineVersion}.`);
  const gone = b.bots.filter((x) => !c.bots.includes(x));
  const come = c.bots.filter((x) => !b.bots.includes(x));
  if (gone.length || come.length) notes.push(`Bots differ: ${gone.join(', ') || 'none'} in the baseline, ${come.join(', ') || 'none'} now.`);
  return notes;
}

/**
 * Compare `run` with `baseline`. Throws `BAD_BASELINE` when they are not runs of the same suite
 * (another spec, or games missing on either side): then there is nothing to compare.
 */
export function compareRuns(baseline: Baseline, run: SuiteRun, o: CompareOptions = {}): RegressReport {
  const q = o.q ?? 0.05;
  if (!(q > 0 && q < 1)) throw new SalientError('BAD_ARGUMENT', `q must be a false discovery rate between 0 and 1 (such as 0.05); got ${q}.`);
  const minSample = o.minSample ?? 5;
  const base = byKey(baseline.games);
  const cur = byKey(run.games);
  const fix = 'Record a new baseline for this suite with --update-baseline, or pass the baseline recorded from it.';
  if (baseline.suite.specHash !== run.suite.specHash) {
    throw new SalientError(
      'BAD_BASELINE',
      `The baseline was recorded from another suite (suite '${baseline.suite.id}', spec hash ${baseline.suite.specHash.slice(0, 12)}; this one is '${run.suite.id}', ${run.suite.specHash.slice(0, 12)}): its scenarios, seeds, bots or options differ. ${fix}`,
    );
  }
  const missing = [...base.keys()].filter((k) => !cur.has(k));
  const extra = [...cur.keys()].filter((k) => !base.has(k));
  if (missing.length || extra.length) {
    throw new SalientError(
      'BAD_BASELINE',
      `The baseline and this run do not hold the same games (${missing.length} only in the baseline, such as '${missing[0] ?? '-'}'; ${extra.length} only now, such as '${extra[0] ?? '-'}'). ${fix}`,
    );
  }
  const changed: ChangedGame[] = [];
  // State hashes are comparable only between runs of one pack (a state may name its pack).
  const byState = baseline.facts.pack.hash === run.facts.pack.hash;
  for (const [key, c] of cur) {
    const b = base.get(key);
    if (!b) continue;
    const d = divergence(b, c, { byState });
    if (!d) continue;
    changed.push({
      key,
      scenario: c.scenario,
      seed: c.seed,
      seats: c.seats,
      divergence: d,
      result: { baseline: resultOf(b), current: resultOf(c) },
      impulses: { baseline: b.impulses, current: c.impulses },
      finalHash: { baseline: b.finalHash, current: c.finalHash },
    });
  }
  const scenarios = [...new Set([...baseline.games, ...run.games].map((g) => g.scenario))].sort();
  const pending = scenarios.flatMap((s) =>
    scenarioTests(
      s,
      baseline.games.filter((g) => g.scenario === s),
      run.games.filter((g) => g.scenario === s),
      minSample,
    ),
  );
  const adjusted = pending.length ? benjaminiHochberg(pending.map((t) => t.p)) : [];
  const tests: ShiftTest[] = pending.map((t, i) => {
    const pAdjusted = adjusted[i] as number;
    return { ...t, pAdjusted, significant: pAdjusted <= q };
  });
  const shifted = tests.filter((t) => t.significant);
  const moved = changed.length > 0 || shifted.length > 0;
  const games = cur.size;
  const compared = byState ? 'state hash after every impulse' : 'choices, events and scores of every impulse (the pack changed, and states name their pack)';
  const verdict = !moved
    ? `Nothing moved: all ${games} games are identical to the baseline${tests.length ? ', and no distribution shifted' : ''}.`
    : [
        changed.length ? `${changed.length} of ${games} games changed` : `every game is identical`,
        shifted.length ? `${shifted.length} of ${tests.length} distributions shifted (Benjamini–Hochberg q = ${q})` : `no distribution shifted significantly (q = ${q})`,
      ].join('; ') + '.';
  return {
    compared,
    suite: run.suite,
    baseline: { createdAt: baseline.createdAt, facts: baseline.facts },
    current: { facts: run.facts, wallMs: run.wallMs },
    notes: factNotes(baseline.facts, run.facts),
    games,
    unchanged: games - changed.length,
    changed,
    q,
    tests,
    moved,
    verdict,
  };
}
