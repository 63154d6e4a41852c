/**
 * Rule coverage of a game: every section of its rulebook with its implementation status, the tests
 * that cite it (`testCitations`), and how often it fired in games between random bots on every
 * scenario of a pack, played with rule tracing on.
 */
import { SalientError, type AnyGame, type JsonObject, type LoadedPack, type RuleSection } from '@salient/engine';
import { testCitations, type Citation } from '@salient/engine/testing';
import { createBot } from '@salient/bots';
import { runMatch } from '@salient/runner';

export interface SectionCoverage {
  section: RuleSection;
  tests: Citation[];
  /** Times it fired over all the games played. */
  fired: number;
}

export interface RulesCoverage {
  game: string;
  pack: string;
  /** Set-up options the games of each scenario were played with, where any were given. */
  options?: Record<string, JsonObject>;
  /** Games played per scenario, and the first seed. */
  gamesPerScenario: number;
  seed: number;
  scenarios: string[];
  /** Where tests were looked for, and whether any were found there. */
  testsDir?: string;
  testsFound: boolean;
  sections: SectionCoverage[];
  /** Implemented or partial sections that no test cites. */
  untested: string[];
  /** Implemented or partial sections that never fired in the games played. */
  neverFired: string[];
}

export interface CoverageOptions {
  games: number;
  seed?: number;
  /** Play only these scenarios (default: every scenario of the pack). */
  scenarios?: readonly string[];
  /**
   * Set-up options by scenario id, for every game of that scenario (e.g. Blitz's full game with its
   * optional rules: `{ full: { optional: '9.4,9.7' } }`); other scenarios play with their defaults.
   */
  options?: Readonly<Record<string, JsonObject>>;
  /** Called after each game: games done and planned in all, and the scenario of the game just played. */
  onGame?: (done: number, total: number, scenario: string) => void;
}

const CHECKED = new Set<RuleSection['status']>(['implemented', 'partial']);

export async function rulesCoverage(game: AnyGame, pack: LoadedPack, o: CoverageOptions): Promise<RulesCoverage> {
  const rules = game.rules;
  if (!rules) throw new SalientError('BAD_ARGUMENT', `${game.id} does not list its rule sections, so there is no rule coverage to report. Games that do: those whose \`rules\` field is set.`);
  const seed = o.seed ?? 1;
  const all = game.scenarios(pack);
  const unknown = (o.scenarios ?? []).filter((id) => !all.some((s) => s.id === id));
  if (unknown.length) throw new SalientError('UNKNOWN_SCENARIO', `unknown scenario ${unknown.join(', ')} for ${game.id} with pack ${pack.info.id}; its scenarios are ${all.map((s) => s.id).join(', ')}.`);
  const scenarios = o.scenarios ? all.filter((s) => o.scenarios!.includes(s.id)) : all;
  const stray = Object.keys(o.options ?? {}).filter((id) => !scenarios.some((s) => s.id === id));
  if (stray.length) throw new SalientError('BAD_ARGUMENT', `set-up options given for scenario ${stray.join(', ')}, which ${stray.length > 1 ? 'are' : 'is'} not played here (scenarios played: ${scenarios.map((s) => s.id).join(', ')}).`);
  const counts = new Map<string, number>();
  const total = scenarios.length * o.games;
  let done = 0;
  rules.trace((s) => counts.set(s, (counts.get(s) ?? 0) + 1));
  try {
    for (const sc of scenarios) {
      for (let i = 0; i < o.games; i++) {
        const seats = Object.fromEntries(sc.sides.map((side) => [side.id, createBot('random')]));
        const options = o.options?.[sc.id];
        await runMatch({ game, pack, scenario: sc.id, seed: seed + i, seats, ...(options ? { options } : {}) });
        o.onGame?.(++done, total, sc.id);
      }
    }
  } finally {
    rules.trace(undefined);
  }
  const ids = rules.sections.map((s) => s.id);
  const cited = rules.testsDir ? testCitations(rules.testsDir, ids) : new Map<string, Citation[]>();
  const sections = rules.sections.map((section) => ({ section, tests: cited.get(section.id) ?? [], fired: counts.get(section.id) ?? 0 }));
  const checked = sections.filter((x) => CHECKED.has(x.section.status));
  return {
    game: game.id,
    pack: pack.info.id,
    gamesPerScenario: o.games,
    seed,
    scenarios: scenarios.map((s) => s.id),
    ...(o.options && Object.keys(o.options).length ? { options: { ...o.options } } : {}),
    ...(rules.testsDir ? { testsDir: rules.testsDir } : {}),
    testsFound: cited.size > 0,
    sections,
    untested: checked.filter((x) => x.tests.length === 0).map((x) => x.section.id),
    neverFired: checked.filter((x) => x.fired === 0).map((x) => x.section.id),
  };
}
