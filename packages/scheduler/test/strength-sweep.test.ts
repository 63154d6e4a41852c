/**
 * The strength-sweep format: one bot against itself at rising levels of one parameter. Its spec
 * checks (every problem located by path), its plan (matches per level, no side swap, entrant names,
 * shared seeds), the stored spec checked again unchanged, and a spec stored when levels were named
 * `mcts@4` still checked and planned, to the same ids.
 */
import { describe, expect, it } from 'vitest';
import { SalientError } from '@salient/engine';
import { checkTournamentSpec, formerSweepLevelName, pairingsOf, parseTournamentSpec, planTournament, stopContextOf, sweepLevelName } from '../src/index.ts';

const SWEEP = `
scenarios: [A, B]
format: strength-sweep
sweep: { bot: "mcts:rollout=0", param: iterations, levels: [4, 16, 64] }
gamesPerPairing: 3
baseSeed: 10
`;

/** The BAD_SPEC problems `text` gives, as `path: message` lines. */
async function problems(text: string): Promise<string[]> {
  try {
    await parseTournamentSpec(text, 'sweep.yaml');
  } catch (e) {
    if (!(e instanceof SalientError)) throw e;
    return e.issues.map((i) => `${i.path}: ${i.message}`);
  }
  throw new Error('expected the spec to be refused');
}

describe('strength-sweep: the spec', () => {
  it('makes one entrant per level, named <bot> <param>=<level>, with the parameter merged and sorted into the bot spec', async () => {
    const s = await parseTournamentSpec(SWEEP, 'sweep.yaml');
    expect(s.format).toBe('strength-sweep');
    expect(s.sweep).toEqual({ bot: 'mcts:rollout=0', param: 'iterations', levels: [4, 16, 64] });
    expect(s.entrants.map((e) => [e.name, e.bot])).toEqual([
      ['mcts iterations=4', 'mcts:iterations=4,rollout=0'],
      ['mcts iterations=16', 'mcts:iterations=16,rollout=0'],
      ['mcts iterations=64', 'mcts:iterations=64,rollout=0'],
    ]);
    // A mirror match swapped is the same game: one game per seed.
    expect(s.sideSwap).toBe(false);
    expect(s.seeds).toEqual([10, 11, 12]);
    // Checked again (as planning and the API do), the normalized spec comes back unchanged.
    expect(await checkTournamentSpec(s)).toEqual(s);
    // The bot's registered name, without its fixed parameters.
    const plan = await parseTournamentSpec(`scenarios: [A]\nformat: strength-sweep\nsweep: { bot: "plan:reply=none", param: evals, levels: [1000, 4000] }\n`, 'plan.yaml');
    expect(plan.entrants.map((e) => [e.name, e.bot])).toEqual([
      ['plan evals=1000', 'plan:evals=1000,reply=none'],
      ['plan evals=4000', 'plan:evals=4000,reply=none'],
    ]);
  });

  it('locates every problem of a bad sweep at once', async () => {
    const lines = await problems(`
scenarios: [A]
format: strength-sweep
sideSwap: true
sweep: { bot: "mcts:rollout=0", param: iterations, levels: [8, 4, 2.5, 16] }
`);
    expect(lines).toEqual([
      expect.stringMatching(/^sideSwap: a strength sweep plays each level against itself.*\(line 4, column 11\)$/),
      expect.stringMatching(/^sweep\.levels\[1\]: is 4, not above the level before it \(8\); list the levels rising/),
      expect.stringMatching(/^sweep\.levels\[2\]: is 2\.5, not above the level before it/),
      expect.stringMatching(/^sweep\.levels\[2\]: Bot 'mcts': parameter iterations=2\.5 must be a whole number/),
    ]);
  });

  it('reports a parameter the bot does not have once, at sweep.param; one given twice; an unknown bot at sweep.bot', async () => {
    expect(await problems(`scenarios: [A]\nformat: strength-sweep\nsweep: { bot: mcts, param: iters, levels: [1, 2, 3] }\n`)).toEqual([
      expect.stringMatching(/^sweep\.param: Bot 'mcts' has no parameter 'iters'/),
    ]);
    expect(await problems(`scenarios: [A]\nformat: strength-sweep\nsweep: { bot: "mcts:iterations=9", param: iterations, levels: [1, 2] }\n`)).toEqual([
      expect.stringMatching(/^sweep\.param: iterations is also given in sweep\.bot 'mcts:iterations=9'; remove it from the bot/),
    ]);
    expect(await problems(`scenarios: [A]\nformat: strength-sweep\nsweep: { bot: nosuchbot, param: n, levels: [1, 2] }\n`)).toEqual([
      expect.stringMatching(/^sweep\.bot: .*nosuchbot/),
    ]);
  });

  it('needs sweep with the format and refuses it, and entrants, where they do not belong', async () => {
    expect(await problems(`scenarios: [A]\nformat: strength-sweep\n`)).toEqual([expect.stringMatching(/^sweep: format strength-sweep needs sweep: \{ bot, param, levels \}/)]);
    expect(await problems(`scenarios: [A]\nentrants: [random, greedy]\nsweep: { bot: mcts, param: iterations, levels: [1, 2] }\n`)).toEqual([
      expect.stringMatching(/^sweep: sweep is only used with format: strength-sweep \(format is round-robin\)/),
    ]);
    expect(await problems(`${SWEEP}entrants: [random, greedy]\n`)).toEqual([
      expect.stringMatching(/^entrants: a strength sweep's entrants are its levels \(mcts iterations=4, mcts iterations=16, mcts iterations=64\), made from sweep; remove entrants\./),
    ]);
    expect(await problems(`scenarios: [A]\nformat: gauntlet\n`)).toEqual(expect.arrayContaining([expect.stringMatching(/^entrants: is required: list at least two entrants/)]));
    expect(await problems(`scenarios: [A]\nformat: strength-sweep\nsweep: { bot: mcts, param: iterations, levels: [5], colour: red }\n`)).toEqual([
      expect.stringMatching(/^sweep\.colour: unknown field 'colour'.*\(fields here: bot, param, levels\)/),
      expect.stringMatching(/^sweep\.levels: list at least two levels/),
    ]);
  });
});

describe('strength-sweep: the plan', () => {
  it('plays each level against itself on every scenario, gamesPerPairing seeds each, the same seeds at every level', async () => {
    const p = await planTournament(await parseTournamentSpec(SWEEP, 'sweep.yaml'));
    // 3 levels x 2 scenarios x 3 seeds.
    expect(p.matches).toHaveLength(18);
    expect(stopContextOf(p.spec).matches).toBe(18);
    expect(pairingsOf(p.spec)).toEqual([
      ['mcts iterations=4', 'mcts iterations=4'],
      ['mcts iterations=16', 'mcts iterations=16'],
      ['mcts iterations=64', 'mcts iterations=64'],
    ]);
    for (const m of p.matches) {
      // Both sides the same level, and no side-swapped twin.
      expect(new Set(Object.values(m.entrants)).size).toBe(1);
      expect(new Set(Object.values(m.seats)).size).toBe(1);
      expect(m.pairId).toBe(m.id);
    }
    // Seed rounds outermost: a partial run has played the same seeds at every level.
    expect(p.matches.slice(0, 6).map((m) => `${m.seed} ${m.scenario} ${m.entrants['Axis']}`)).toEqual([
      '10 A mcts iterations=4',
      '10 A mcts iterations=16',
      '10 A mcts iterations=64',
      '10 B mcts iterations=4',
      '10 B mcts iterations=16',
      '10 B mcts iterations=64',
    ]);
    for (const level of ['mcts iterations=4', 'mcts iterations=16', 'mcts iterations=64']) {
      expect(p.matches.filter((m) => m.entrants['Axis'] === level && m.scenario === 'A').map((m) => m.seed)).toEqual([10, 11, 12]);
    }
    expect(new Set(p.matches.map((m) => m.id)).size).toBe(18);
  });
});

describe('strength-sweep: a spec stored when the levels were named <bot>@<level>', () => {
  it('is checked again with its names kept, and plans to the ids the renamed spec gets', async () => {
    const now = await planTournament(await parseTournamentSpec(SWEEP, 'sweep.yaml'));
    const sweep = now.spec.sweep!;
    expect(sweep.levels.map((l) => [sweepLevelName(sweep, l), formerSweepLevelName(sweep, l)])).toEqual([
      ['mcts iterations=4', 'mcts@4'],
      ['mcts iterations=16', 'mcts@16'],
      ['mcts iterations=64', 'mcts@64'],
    ]);
    const stored = { ...now.spec, entrants: now.spec.entrants.map((e, i) => ({ ...e, name: formerSweepLevelName(sweep, sweep.levels[i]!) })) };
    expect(await checkTournamentSpec(stored)).toEqual(stored);
    const before = await planTournament(stored);
    // The hash, the tournament id made from it and every match id are the same: a level's ids hash its
    // former name, so running the sweep again finds its recorded matches instead of playing them twice.
    expect([before.specHash, before.tournamentId]).toEqual([now.specHash, now.tournamentId]);
    expect(before.matches.map((m) => m.id)).toEqual(now.matches.map((m) => m.id));
    expect(before.matches.slice(0, 3).map((m) => m.entrants['Axis'])).toEqual(['mcts@4', 'mcts@16', 'mcts@64']);
    expect(now.matches.slice(0, 3).map((m) => m.entrants['Axis'])).toEqual(['mcts iterations=4', 'mcts iterations=16', 'mcts iterations=64']);
    // Other names are still refused, and so is a former name on another level's entrant.
    const refused = (entrants: typeof stored.entrants) =>
      checkTournamentSpec({ ...stored, entrants }).then(
        () => [],
        (e: unknown) => (e instanceof SalientError ? e.issues.map((i) => `${i.path}: ${i.message}`) : [String(e)]),
      );
    const made = /^entrants: a strength sweep's entrants are its levels \(mcts iterations=4, mcts iterations=16, mcts iterations=64\), made from sweep/;
    expect(await refused(stored.entrants.map((e) => ({ ...e, name: `${e.name}x` })))).toEqual([expect.stringMatching(made)]);
    const names = ['mcts@64', 'mcts@16', 'mcts@4'];
    expect(await refused(stored.entrants.map((e, i) => ({ ...e, name: names[i]! })))).toEqual([expect.stringMatching(made)]);
  });
});
