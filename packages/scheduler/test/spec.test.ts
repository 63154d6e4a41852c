import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SalientError } from '@salient/engine';
import { ENTRIES, findGame, writePackDir, type GameEntry } from '@salient/catalog';
import { diceRace } from '@salient/engine/testing';
import { checkTournamentSpec, loadTournamentSpec, parseTournamentSpec, planTournament, specFormat } from '../src/index.ts';

/** The BAD_SPEC error `text` gives, as `path: message` lines. */
async function problems(text: string, source = 'spec.yaml'): Promise<{ error: SalientError; lines: string[] }> {
  try {
    await parseTournamentSpec(text, source);
  } catch (e) {
    if (!(e instanceof SalientError)) throw e;
    return { error: e, lines: e.issues.map((i) => `${i.path}: ${i.message}`) };
  }
  throw new Error('expected the spec to be refused');
}

const GOOD = `
scenarios: [A, B]
entrants: [random, greedy]
`;

describe('parseTournamentSpec: defaults and normalization', () => {
  it('fills in every default', async () => {
    const s = await parseTournamentSpec(GOOD, 'good.yaml');
    expect(s).toMatchObject({
      game: 'blitz',
      pack: 'approximation',
      scenarios: ['A', 'B'],
      entrants: [
        { name: 'random', bot: 'random' },
        { name: 'greedy', bot: 'greedy' },
      ],
      format: 'round-robin',
      gamesPerPairing: 2,
      sideSwap: true,
      seeds: [1],
      stop: { rule: 'fixed' },
    });
    expect(s.id).toMatch(/^t-[0-9a-f]{16}$/);
    expect(s.entrants[0]?.version).toBe('1');
    expect(s).not.toHaveProperty('options');
    expect(s).not.toHaveProperty('reference');
  });

  it('counts seeds from baseSeed: gamesPerPairing counts games, two per seed with side swap', async () => {
    const swap = await parseTournamentSpec(`${GOOD}gamesPerPairing: 6\nbaseSeed: 10\n`, 's.yaml');
    expect(swap.seeds).toEqual([10, 11, 12]);
    const once = await parseTournamentSpec(`${GOOD}gamesPerPairing: 3\nsideSwap: false\nbaseSeed: 10\n`, 's.yaml');
    expect(once.seeds).toEqual([10, 11, 12]);
    const listed = await parseTournamentSpec(`${GOOD}seeds: [5, 3]\n`, 's.yaml');
    expect(listed.seeds).toEqual([5, 3]);
    expect(listed.gamesPerPairing).toBe(4);
  });

  it('merges params into the bot spec, sorted, with true/false as 1/0, and names entrants after it', async () => {
    const s = await parseTournamentSpec(
      `scenarios: [A]
entrants:
  - { bot: 'greedy', params: { chance: false } }
  - { name: g1, bot: 'greedy:chance=1' }
  - random
`,
      's.yaml',
    );
    expect(s.entrants.map((e) => [e.name, e.bot])).toEqual([
      ['greedy:chance=0', 'greedy:chance=0'],
      ['g1', 'greedy:chance=1'],
      ['random', 'random'],
    ]);
  });

  it('reads JSON as well, to the same spec', async () => {
    const yaml = await parseTournamentSpec(GOOD, 'good.yaml');
    const json = await parseTournamentSpec(JSON.stringify({ entrants: ['random', 'greedy'], scenarios: ['A', 'B'] }), 'good.json');
    expect(json).toEqual(yaml);
  });

  it('gives a normalized spec back unchanged when checked again', async () => {
    const text = `name: x
scenarios: [A]
entrants: [random, { name: g, bot: greedy, params: { chance: 0 } }, random2-as-random]
format: gauntlet
reference: g
gamesPerPairing: 3
sideSwap: false
decisionCap: 500
stop: { rule: sprt, elo0: 0, elo1: 10 }
`.replace('random2-as-random', '{ name: r2, bot: random }');
    const s = await parseTournamentSpec(text, 's.yaml');
    expect(s.stop).toEqual({ rule: 'sprt', elo0: 0, elo1: 10, alpha: 0.05, beta: 0.05 });
    expect(await checkTournamentSpec(JSON.parse(JSON.stringify(s)))).toEqual(s);
  });

  it('takes a relative pack directory from the spec file and records its absolute path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'salient-spec-'));
    writePackDir(findGame('blitz').bundledPacks['approximation'], join(dir, 'my-pack'));
    writeFileSync(join(dir, 'ok.yaml'), `pack: my-pack\n${GOOD}`);
    const s = await loadTournamentSpec(join(dir, 'ok.yaml'));
    expect(s.pack).toBe(join(dir, 'my-pack'));
    const bundled = await parseTournamentSpec(GOOD, 'good.yaml');
    // Same content, same tournament, wherever the pack lives.
    expect(s.id).toBe(bundled.id);
    writeFileSync(join(dir, 't.yaml'), `pack: no-such-pack\n${GOOD}`);
    await expect(loadTournamentSpec(join(dir, 't.yaml'))).rejects.toMatchObject({
      code: 'BAD_SPEC',
      issues: [{ path: 'pack', message: expect.stringMatching(/neither a bundled pack of blitz \(approximation\) nor a directory/) }],
    });
  });

  it('refuses a missing file with IO', async () => {
    await expect(loadTournamentSpec('/nonexistent/spec.yaml')).rejects.toMatchObject({ code: 'IO' });
  });
});

describe('parseTournamentSpec: located errors', () => {
  it('gives the line and column of a YAML syntax error', async () => {
    const { error } = await problems('scenarios: [A, B]\nentrants:\n  - random\n  bad: 1\n', 'bad.yaml');
    expect(error.code).toBe('BAD_SPEC');
    expect(error.message).toBe('bad.yaml:4:1: invalid YAML: All mapping items must start at the same column. Fix the syntax there.');
    const twice = await problems('scenarios: [A]\nentrants: [random, greedy]\nscenarios: [B]\n', 'twice.yaml');
    expect(twice.error.message).toMatch(/^twice\.yaml:3:1: invalid YAML: Map keys must be unique/);
  });

  it('gives the line and column of a JSON syntax error', async () => {
    const { error } = await problems('{"scenarios": ["A"],\n "entrants": ["random" "greedy"]}', 'bad.json');
    expect(error.message).toMatch(/^bad\.json:2:24: invalid JSON: /);
  });

  it('refuses an empty spec and one that is not a mapping', async () => {
    await expect(parseTournamentSpec('', 'e.yaml')).rejects.toThrow(/is empty/);
    const { lines } = await problems('- a\n- b\n');
    expect(lines).toEqual([expect.stringMatching(/^\(spec\): a tournament spec is a mapping/)]);
  });

  it('locates wrong types, missing and unknown fields', async () => {
    const { error, lines } = await problems(`scenarios: [A]
entrants:
  - random
  - { bot: 7 }
sideSwap: yes please
gamesPerPairing: 2.5
seeds: [-1]
colour: red
`);
    expect(error.message).toMatch(/^spec\.yaml: invalid tournament spec \(5 problems\)/);
    expect(lines).toEqual(
      expect.arrayContaining([
        'entrants[1].bot: must be a string, not a number. (line 4, column 12)',
        'sideSwap: must be true or false, not a string. (line 5, column 11)',
        expect.stringMatching(/^gamesPerPairing: must be a whole number.* \(line 6, column 18\)$/),
        'seeds[0]: must be 0 or more. (line 7, column 9)',
        expect.stringMatching(/^colour: unknown field 'colour'; remove it or fix its spelling \(fields here: id, name, .*, stop\)\. \(line 8, column 9\)$/),
      ]),
    );
    const missing = await problems('entrants: [random, greedy]\n');
    expect(missing.lines).toEqual(['scenarios: is required (a list).']);
    const entrantField = await problems(`${GOOD.replace('[random, greedy]', '[random, { bot: greedy, parms: { chance: 0 } }]')}`);
    expect(entrantField.lines).toEqual([expect.stringMatching(/^entrants\[1\]\.parms: unknown field 'parms'.*fields here: name, bot, params, version/)]);
  });

  it('takes version tags as ids (a regression run is recorded under its tag), and refuses what would break keys, URLs or SQL', async () => {
    for (const id of ['blitz-smoke', 'v0.12', 'v1.2.3', '2026.11-rc1', 'V2_0', 'main_2026-11-23', 'a'.repeat(63)]) {
      expect((await parseTournamentSpec(`id: '${id}'${GOOD}`, 's.yaml')).id).toBe(id);
    }
    for (const id of ['.hidden', '-x', 'a/b', 'a b', "it's", 'a:b', 'a?b', 'a#b', 'a%b', 'a+b', 'a\\b', 'a'.repeat(64), '']) {
      const { lines } = await problems(`id: ${JSON.stringify(id)}${GOOD}`);
      expect(lines, id).toEqual([expect.stringMatching(/^id: must be letters, digits and \. _ - only, starting with a letter or digit, at most 63 characters/)]);
    }
  });

  it('reports shape and name problems in one go, sorted by path: the names of every well-formed part are checked too', async () => {
    const { error, lines } = await problems(`scenarios: [A, Z, 7]
entrants:
  - random
  - { bot: alphazero }
  - { name: g, bot: greedy, params: 5 }
  - { name: ref, bot: 9 }
format: gauntlet
reference: nobody
sideSwap: maybe
colour: red
`);
    expect(lines).toEqual([
      expect.stringMatching(/^colour: unknown field 'colour'/),
      "entrants[1].bot: Unknown bot 'alphazero'. Valid bots: random, greedy, mcts, plan. (line 4, column 12)",
      expect.stringMatching(/^entrants\[2\]\.params: must be a mapping, not a number/),
      expect.stringMatching(/^entrants\[3\]\.bot: must be a string, not a number/),
      "reference: no entrant is named 'nobody'. Entrants: random, alphazero, g, ref. (line 8, column 12)",
      expect.stringMatching(/^scenarios\[1\]: Unknown scenario 'Z'\. /),
      expect.stringMatching(/^scenarios\[2\]: must be a string, not a number/),
      expect.stringMatching(/^sideSwap: must be true or false/),
    ]);
    expect(error.message).toMatch(/\(8 problems\)/);
    // A malformed entrant whose name cannot be read might be the one a reference names: not reported.
    const unnamed = await problems(`scenarios: [A]\nentrants: [random, { bot: 9 }]\nformat: gauntlet\nreference: greedy\n`);
    expect(unnamed.lines).toEqual([expect.stringMatching(/^entrants\[1\]\.bot: must be a string/)]);
    // A malformed game: nothing is checked against a game it may not be.
    const game = await problems(`game: 7\nscenarios: [Z]\nentrants: [random, alphazero]\n`);
    expect(game.lines).toEqual([expect.stringMatching(/^entrants\[1\]\.bot: Unknown bot 'alphazero'/), expect.stringMatching(/^game: must be a string/)]);
  });

  it('names unknown games, scenarios and bots with the valid ones', async () => {
    const { lines } = await problems(`scenarios: [A, Z]
entrants:
  - random
  - bot: alphazero
`);
    expect(lines).toEqual([
      "entrants[1].bot: Unknown bot 'alphazero'. Valid bots: random, greedy, mcts, plan. (line 4, column 10)",
      expect.stringMatching(/^scenarios\[1\]: Unknown scenario 'Z'\. Valid scenarios: A, B, C(, [D-F])*(, full)?\. \(line 1, column 16\)$/),
    ]);
    const game = await problems(`game: chess\n${GOOD}`);
    expect(game.lines).toEqual([expect.stringMatching(/^game: Unknown game 'chess'\. Valid games: blitz, empires-alliances, dice-race\./)]);
  });

  it('refuses bad bot parameters and versions that differ from the installed bot', async () => {
    const { lines } = await problems(`scenarios: [A]
entrants:
  - { bot: greedy, params: { depth: 2 } }
  - { bot: 'greedy:chance=1', params: { chance: 0 } }
  - { bot: random, version: '9' }
  - { name: r, bot: random, params: { x: 'a,b' } }
`);
    expect(lines).toEqual([
      expect.stringMatching(/^entrants\[0\]\.params: Bot 'greedy' has no parameter 'depth'\. Its parameters: chance/),
      expect.stringMatching(/^entrants\[1\]\.params\.chance: chance is also given in bot 'greedy:chance=1'/),
      expect.stringMatching(/^entrants\[2\]\.version: the spec pins random version 9, but this installation has version 1/),
      expect.stringMatching(/^entrants\[3\]\.params\.x: a parameter value may not contain commas/),
    ]);
  });

  it('refuses duplicate entrant names, pointing at the second', async () => {
    const { lines } = await problems(`scenarios: [A]
entrants:
  - random
  - greedy
  - { bot: random }
  - { name: greedy, bot: 'greedy:chance=0' }
`);
    expect(lines).toEqual([
      expect.stringMatching(/^entrants\[2\]\.bot: entrant name 'random' is already used by entrants\[0\]; give each entrant its own name/),
      expect.stringMatching(/^entrants\[3\]\.name: entrant name 'greedy' is already used by entrants\[1\]/),
    ]);
  });

  it('refuses seeds together with baseSeed, repeated seeds and counts that do not add up', async () => {
    const both = await problems(`${GOOD}seeds: [1, 2]\nbaseSeed: 4\n`);
    expect(both.lines).toEqual([expect.stringMatching(/^baseSeed: give either seeds .* or baseSeed .*, not both\. \(line 5, column 11\)$/)]);
    const odd = await problems(`${GOOD}gamesPerPairing: 3\n`);
    expect(odd.lines).toEqual([expect.stringMatching(/^gamesPerPairing: is 3, but with sideSwap every seed is played twice .* must be even; use 4, or set sideSwap: false\./)]);
    const repeated = await problems(`${GOOD}seeds: [1, 2, 1]\n`);
    expect(repeated.lines).toEqual([expect.stringMatching(/^seeds\[2\]: seed 1 is already seeds\[0\]/)]);
    const disagree = await problems(`${GOOD}seeds: [1, 2]\ngamesPerPairing: 2\n`);
    expect(disagree.lines).toEqual([expect.stringMatching(/^gamesPerPairing: is 2, but 2 seed\(s\), each played twice with sides swapped, make 4 games/)]);
    const huge = await problems(`${GOOD}gamesPerPairing: 2000000\n`);
    expect(huge.lines).toEqual([expect.stringMatching(/^gamesPerPairing: the spec asks for 4000000 matches, more than the 1000000/)]);
  });

  it('checks gauntlet references and pairings by entrant name', async () => {
    const noRef = await problems(`${GOOD}format: gauntlet\n`);
    expect(noRef.lines).toEqual([expect.stringMatching(/^reference: format gauntlet needs reference: .*\(one of random, greedy\)\.$/)]);
    const badRef = await problems(`${GOOD}format: gauntlet\nreference: grredy\n`);
    expect(badRef.lines).toEqual(["reference: no entrant is named 'grredy'. Entrants: random, greedy. (line 5, column 12)"]);
    const stray = await problems(`${GOOD}reference: greedy\n`);
    expect(stray.lines).toEqual([expect.stringMatching(/^reference: reference is only used with format: gauntlet \(format is round-robin\)/)]);
    const pairings = await problems(`scenarios: [A]
entrants: [random, greedy, { name: g0, bot: 'greedy:chance=0' }]
format: pairings
pairings:
  - [random, greedy]
  - [greedy, random]
  - [g0, g0]
  - [g0, g1]
`);
    expect(pairings.lines).toEqual([
      expect.stringMatching(/^pairings\[1\]: greedy and random are already paired in pairings\[0\]/),
      expect.stringMatching(/^pairings\[2\]: 'g0' is paired with itself; to play a bot against itself, list it twice under two names/),
      "pairings[3][1]: no entrant is named 'g1'. Entrants: random, greedy, g0. (line 8, column 10)",
    ]);
    const none = await problems(`${GOOD}format: pairings\n`);
    expect(none.lines).toEqual([expect.stringMatching(/^pairings: format pairings needs pairings: \[\[a, b\], \.\.\.\]/)]);
  });

  it('checks the stop rule: sprt is validated, and planned only for a two-entrant gauntlet', async () => {
    const bad = await problems(`${GOOD}stop: { rule: sprt, elo0: 5, elo1: 0, alpha: 0.7 }\n`);
    expect(bad.lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^stop\.alpha: must be at most 0\.5/),
        expect.stringMatching(/^stop\.elo1: elo0 must be below elo1/),
      ]),
    );
    const unknown = await problems(`${GOOD}stop: { rule: forever }\n`);
    expect(unknown.lines).toEqual([expect.stringMatching(/^stop\.rule: rule must be 'fixed' or 'sprt'/)]);
    const roundRobin = await parseTournamentSpec(`${GOOD}stop: { rule: sprt, elo0: 0, elo1: 5 }\n`, 's.yaml');
    await expect(planTournament(roundRobin)).rejects.toMatchObject({
      code: 'BAD_SPEC',
      message: expect.stringMatching(/stop: sprt cannot run on this tournament/),
      issues: [{ path: 'format', message: expect.stringMatching(/^is round-robin, but stop: sprt needs format: gauntlet with reference: <the baseline>/) }],
    });
    const gauntlet = await parseTournamentSpec(`${GOOD}format: gauntlet\nreference: random\nstop: { rule: sprt, elo0: 0, elo1: 5 }\n`, 's.yaml');
    const plan = await planTournament(gauntlet);
    expect(plan.spec.stop).toEqual({ rule: 'sprt', elo0: 0, elo1: 5, alpha: 0.05, beta: 0.05 });
    expect(plan.matches).toHaveLength(4);
  });

  it('refuses bad scenario options with the game’s own message', async () => {
    const { lines } = await problems(`${GOOD}options: { weather: none }\n`);
    // Each scenario of the spec refuses it in its own words.
    expect(lines).toEqual([expect.stringMatching(/^options: Blitz scenario A takes no options; got: weather/), expect.stringMatching(/^options: Blitz scenario B takes no options; got: weather/)]);
  });

  it('refuses scenarios that do not have exactly two sides', async () => {
    const melee = {
      ...diceRace,
      id: 'three-way-test',
      scenarios: () => [{ id: 'melee', name: 'Melee', summary: 'Three sides.', sides: ['A', 'B', 'C'].map((id) => ({ id, name: id, powers: [id] })) }],
    } as unknown as GameEntry['game'];
    const entries = ENTRIES as GameEntry[];
    entries.push({ game: melee, hidden: true });
    try {
      const { lines } = await problems('game: three-way-test\nscenarios: [melee]\nentrants: [random, greedy]\n');
      expect(lines).toEqual([expect.stringMatching(/^scenarios\[0\]: scenario 'melee' has 3 side\(s\) \(A, B, C\); tournaments pair two entrants/)]);
    } finally {
      entries.splice(entries.findIndex((e) => e.game === melee), 1);
    }
  });
});

describe('spec text: one parser per format, the same decision everywhere, limits', () => {
  const JSON_GOOD = '{\n  "scenarios": ["A"],\n  "entrants": ["random", "greedy"]\n}\n';

  it('specFormat: given, else the extension, else { or [ first means JSON', () => {
    expect(specFormat('a: 1', { format: 'json' })).toEqual({ format: 'json', reason: 'given' });
    expect(specFormat('{"a": 1}', { source: 'x.YAML' })).toEqual({ format: 'yaml', reason: 'extension' });
    expect(specFormat('a: 1', { source: 'x.json' })).toEqual({ format: 'json', reason: 'extension' });
    expect(specFormat('\n  \t{"a": 1}', { source: 'the request body spec' })).toEqual({ format: 'json', reason: 'content' });
    expect(specFormat('[1]', { source: 'spec.txt' })).toEqual({ format: 'json', reason: 'content' });
    expect(specFormat('# {comment}\na: 1')).toEqual({ format: 'yaml', reason: 'content' });
  });

  it('reads JSON text with the JSON parser whatever its name: a trailing comma is refused by line and column', async () => {
    const text = JSON_GOOD.replace('"greedy"]', '"greedy"],');
    // The CLI's .json file, an API body (no name) and a file with another extension all refuse it.
    for (const source of ['s.json', 'the request body spec', 'spec.txt']) {
      const { error } = await problems(text, source);
      expect(error.message).toMatch(new RegExp(`^${source.replace('.', '\\.')}:4:1: invalid JSON: trailing comma before \\}`));
    }
    expect((await problems(text, 'the request body spec')).error.message).toMatch(/Read as JSON because it starts with '\{' or '\['; for YAML in flow style, send format: 'yaml'/);
    expect((await problems(text, 'spec.txt')).error.message).toMatch(/name the file \.yaml/);
    expect(await parseTournamentSpec(JSON_GOOD, 'the request body spec')).toMatchObject({ scenarios: ['A'] });
  });

  it('reads YAML in flow style when told it is YAML', async () => {
    const flow = '{scenarios: [A], entrants: [random, greedy]}';
    expect((await problems(flow, 'the request body spec')).error.message).toMatch(/invalid JSON: expected a property name in double quotes/);
    expect(await parseTournamentSpec(flow, 'the request body spec', { format: 'yaml' })).toMatchObject({ scenarios: ['A'] });
  });

  it('refuses a name given twice in JSON as YAML does', async () => {
    const text = '{"scenarios": ["A"], "entrants": ["random", "greedy"], "scenarios": ["B"]}';
    expect((await problems(text, 's.json')).error.message).toMatch(/^s\.json:1:56: property "scenarios" is given twice/);
  });

  it('refuses 50,000 levels of nesting at once, as JSON or YAML, with the limit and the line', async () => {
    const deep = (open: string, close: string) => open.repeat(50_000) + close.repeat(50_000);
    const cases: Array<[string, string, RegExp]> = [
      [`{"scenarios": ["A"], "entrants": ["random", "greedy"],\n "options": {"x": ${deep('[', ']')}}}`, 'the request body spec', /^the request body spec:2:81: nested deeper than 64 levels at \$\.options\.x\[0\]/],
      [`scenarios: [A]\nentrants: [random, greedy]\noptions:\n  x: ${deep('[', ']')}\n`, 'spec.yaml', /^spec\.yaml:4:68: nested deeper than 64 levels; a tournament spec never nests this deep/],
      [`scenarios: [A]\nentrants: [random, greedy]\noptions:\n  x: ${deep('{a: ', '}')}\n`, 'spec.yaml', /^spec\.yaml:4:\d+: nested deeper than 64 levels/],
      [`scenarios: [A]\nentrants:\n${'- '.repeat(50_000)}random\n`, 'spec.yaml', /^spec\.yaml:3:\d+: nested deeper than 64 levels/],
    ];
    for (const [text, source, message] of cases) {
      const started = performance.now();
      const { error } = await problems(text, source);
      // Refused in well under a second on an idle machine; the bound leaves room for a loaded one.
      expect(performance.now() - started).toBeLessThan(5000);
      expect(error.message).toMatch(message);
    }
  });

  it('refuses deep block nesting and alias tricks with the same limit', async () => {
    let block = 'scenarios: [A]\nentrants: [random, greedy]\noptions:\n';
    for (let i = 1; i <= 70; i++) block += `${' '.repeat(i)}k:\n`;
    expect((await problems(block)).error.message).toMatch(/^spec\.yaml:\d+:\d+: nested deeper than 64 levels/);
    // Each anchor 40 deep, one alias placed 40 deep: 80 levels once the alias is expanded.
    const forty = (inner: string) => '['.repeat(40) + inner + ']'.repeat(40);
    const aliased = `scenarios: [A]\nentrants: [random, greedy]\nx-a: &a ${forty('1')}\noptions: {x: ${forty('*a')}}\n`;
    expect((await problems(aliased)).error.message).toMatch(/^spec\.yaml: nested deeper than 64 levels at \$\.options\.x/);
  });

  it('refuses a spec over 1 MiB', async () => {
    const big = `${GOOD}name: ${'x'.repeat(1024 * 1024)}\n`;
    expect((await problems(big)).error.message).toMatch(/^spec\.yaml: 1 MiB is more than the 1 MiB a tournament spec may have/);
    const file = join(mkdtempSync(join(tmpdir(), 'salient-spec-')), 'big.yaml');
    writeFileSync(file, big);
    await expect(loadTournamentSpec(file)).rejects.toMatchObject({ code: 'BAD_SPEC', message: expect.stringMatching(/big\.yaml: 1 MiB is more than the 1 MiB/) });
  });
});
