/**
 * The CLI as a user runs it: a child process per command, checking stdout, stderr and exit codes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { killTracked, spawnTracked } from './children.ts';
import { findGame, listGames, writePackDir } from '../src/registry.ts';
import { salientEntry } from '../../../test/support/salient-cli.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const tmp = mkdtempSync(join(tmpdir(), 'salient-cli-'));
// The demo's embedded ClickHouse store is thousands of files: removing it took 7-12 s on a loaded
// 2-core machine, past the 10 s default for hooks.
afterAll(() => rmSync(tmp, { recursive: true, force: true }), 60_000);
// A test that fails before its child exits leaves no match running behind.
afterEach(killTracked, 30_000);

const HAS_BLITZ = listGames().some((g) => g.id === 'blitz');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function salient(...args: string[]): Run {
  const r = spawnSync(process.execPath, [...salientEntry(), ...args], {
    cwd: root,
    encoding: 'utf8',
    // The demo records into telemetry: keep its store out of the working tree.
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', SALIENT_CLICKHOUSE_PATH: join(tmp, 'clickhouse'), SALIENT_SPOOL_DIR: join(tmp, 'spool') },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A user mistake: exit 2, one `salient:` message, no stack trace. */
function expectUserError(r: Run, ...patterns: RegExp[]): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(/^salient: /);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  for (const p of patterns) expect(r.stderr).toMatch(p);
}

const DICE = ['--game', 'dice-race', '--scenario', 'standard'];

describe('salient games', () => {
  it('lists games, scenarios, packs and bots', () => {
    const r = salient('games', '--all');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/dice-race/);
    expect(r.stdout).toMatch(/standard/);
    expect(r.stdout).toMatch(/synthetic/);
    expect(r.stdout).toMatch(/random/);
    expect(r.stdout).toMatch(/greedy/);
    if (HAS_BLITZ) expect(r.stdout).toMatch(/blitz[\s\S]*approximation/);
  });

  it('hides test games unless asked', () => {
    const r = salient('games');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/dice-race/);
  });
});

describe('salient play', () => {
  it('--timeout, --time-bank and --strikes: a slow external bot takes strikes (the first option played for it), then forfeits', () => {
    // An external bot that answers every decision 300 ms late.
    const slow = join(tmp, 'slow-bot.mjs');
    writeFileSync(
      slow,
      `import { createInterface } from 'node:readline';
const rl = createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.type === 'hello') process.stdout.write(JSON.stringify({ type: 'hello', name: 'slow', version: '1', games: ['*'] }) + '\\n');
  else if (m.type === 'decide') setTimeout(() => process.stdout.write(JSON.stringify({ type: 'choice', index: 0 }) + '\\n'), 300);
});
`,
    );
    const seat = `Axis=cmd:${process.execPath} ${slow}`;
    const once = salient('play', '--scenario', 'A', '--seat', seat, '--timeout', '100', '--json');
    expect(once.code, once.stderr).toBe(0);
    const first = JSON.parse(once.stdout) as { kind: string; reason: string; detail: string; decisions: number };
    expect(first).toMatchObject({ kind: 'forfeit', reason: 'timeout' });
    expect(first.detail).toMatch(/did not answer within 100 ms/);
    expect(first.detail).not.toMatch(/strike/);

    const three = salient('play', '--scenario', 'A', '--seat', seat, '--timeout', '100', '--time-bank', '50', '--strikes', '3', '--json');
    expect(three.code, three.stderr).toBe(0);
    const r = JSON.parse(three.stdout) as { kind: string; reason: string; detail: string; decisions: number; strikesBySeat: object; bankMsBySeat: object };
    expect(r).toMatchObject({ kind: 'forfeit', reason: 'timeout' });
    expect(r.detail).toMatch(/\(strike 3 of 3\)/);
    // The two strikes before were decisions the runner made for it; the first took the bank as well.
    expect(r.decisions).toBeGreaterThan(first.decisions);
    // Each seat's strikes (the forfeiting one included) and time bank left are in the result.
    expect([r.strikesBySeat, r.bankMsBySeat]).toEqual([{ Axis: 3, Allies: 0 }, { Axis: 0, Allies: 50 }]);
    expect(salient('play', '--strikes', '0').stderr).toMatch(/strikes/);
  }, 60_000);

  it('-v shows each strike where it happened, and the account ends with the strikes and banks of the seats', () => {
    // An external bot that is late once, on its first decision, and quick after.
    const once = join(tmp, 'late-once-bot.mjs');
    writeFileSync(
      once,
      `import { createInterface } from 'node:readline';
let n = 0;
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  const send = (x) => process.stdout.write(JSON.stringify(x) + '\\n');
  if (m.type === 'hello') send({ type: 'hello', name: 'late-once', version: '1', games: ['*'] });
  else if (m.type === 'decide') setTimeout(() => send({ type: 'choice', index: m.options.length - 1 }), ++n === 1 ? 700 : 0);
});
`,
    );
    const r = salient('play', '--scenario', 'A', '--seat', `Axis=cmd:${process.execPath} ${once}`, '--timeout', '300', '--strikes', '2', '-v');
    expect(r.code, r.stderr).toBe(0);
    const struck = r.stdout.split('\n').filter((l) => l.includes('! timeout strike'));
    expect(struck).toHaveLength(1);
    expect(struck[0]).toMatch(/^\s+! timeout strike 1 of 2: the bot did not answer within 300 ms at \S+ \(\d+ options?\); the runner played the first option$/);
    expect(r.stdout).toMatch(/^Strikes: Axis 1, Allies 0; time bank left: Axis 0 ms, Allies 0 ms\.$/m);
    expect(r.stdout).toMatch(/^Match: .*Axis=late-once@1/m);
  }, 60_000);

  it('tells a dice-race match and names the winner', () => {
    const r = salient('play', ...DICE, '--seed', '7', '--seat', 'A=greedy', '--seat', 'B=random');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Turn 1$/m);
    expect(r.stdout).toMatch(/(red|blue) (banks|rolls a 1)/);
    expect(r.stdout).toMatch(/^(Winner: .+|Draw)\. /m);
    expect(r.stdout).toMatch(/^Ended: completed at turn \d+/m);
    expect(r.stdout).toMatch(/A=greedy@/);
  });

  it('prints every decision with --verbose', () => {
    const quiet = salient('play', ...DICE, '--seed', '7');
    const verbose = salient('play', ...DICE, '--seed', '7', '--verbose');
    expect(verbose.stdout).toMatch(/^    red: roll$/m);
    expect(verbose.stdout).toMatch(/^    · die: die:\d$/m);
    expect(quiet.stdout).not.toMatch(/red: roll/);
  });

  it('prints only the ending with --quiet: no header, no account, the winner first', () => {
    const full = salient('play', ...DICE, '--seed', '7');
    const quiet = salient('play', ...DICE, '--seed', '7', '--quiet');
    expect(quiet.code, quiet.stderr).toBe(0);
    const lines = quiet.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^(Winner: .+|Draw)\. /);
    expect(lines.some((l) => l.startsWith('Ended: completed'))).toBe(true);
    expect(quiet.stdout).not.toMatch(/seed 7 · A=random/);
    expect(quiet.stdout).not.toMatch(/^Pack .*: synthetic test data/m);
    // The ending is the same lines the full account ends with (less its event tally; the wall time differs).
    const same = (text: string) => text.trimEnd().split('\n').filter((l) => !l.startsWith('Events: ')).map((l) => l.replace(/, [\d.]+ m?s\.$/, '.'));
    expect(same(full.stdout).slice(-lines.length)).toEqual(same(quiet.stdout));
  });

  it('prints exactly one JSON object with --json', () => {
    const r = salient('play', ...DICE, '--seed', '3', '--json');
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as { kind: string; result: { sides: Record<string, string> }; replay?: unknown };
    expect(j.kind).toBe('completed');
    expect(Object.keys(j.result.sides).sort()).toEqual(['A', 'B']);
    expect(j.replay).toBeUndefined();
  });

  it('adjudicates at the decision cap', () => {
    const r = salient('play', ...DICE, '--seed', '3', '--cap', '5', '--json');
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: 'adjudicated', cap: 5, decisions: 5 });
  });

  it('gives byte-identical replay files for the same seed', () => {
    const a = join(tmp, 'a.json');
    const b = join(tmp, 'b.json');
    expect(salient('play', ...DICE, '--seed', '11', '--quiet', '--replay', a).code).toBe(0);
    expect(salient('play', ...DICE, '--seed', '11', '--quiet', '--replay', b).code).toBe(0);
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
    const c = join(tmp, 'c.json');
    salient('play', ...DICE, '--seed', '12', '--quiet', '--replay', c);
    expect(readFileSync(c, 'utf8')).not.toBe(readFileSync(a, 'utf8'));
  });

  it('names the valid choices for an unknown game, scenario, seat or bot', () => {
    expectUserError(salient('play', '--game', 'chess'), /Unknown game 'chess'/, /dice-race/);
    expectUserError(salient('play', '--game', 'dice-race', '--scenario', 'Z'), /Unknown scenario 'Z'/, /standard/);
    expectUserError(salient('play', ...DICE, '--seat', 'Q=random'), /Unknown seat 'Q'/, /A, B, red, blue/);
    expectUserError(salient('play', ...DICE, '--seat', 'A=deep-blue'), /Unknown bot 'deep-blue'/, /random/, /greedy/);
    expectUserError(salient('play', ...DICE, '--pack', 'nope'), /Unknown pack 'nope'/, /synthetic/);
    expectUserError(salient('play', ...DICE, '--seat', 'A'), /KEY=VALUE/);
  });

  it('cancels the match on Ctrl-C and says so', async () => {
    // Not --quiet: the header, printed as the match starts, is the cue to press Ctrl-C (--quiet prints nothing before the end).
    // Through main.ts under tsx, as `npm run salient` starts it (the other tests start the run's CLI bundle).
    const child = spawnTracked(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', 'play', ...DICE, '--cap', '100000000', '-o', 'target=1000000000', '-o', 'maxTurns=1000000000'], {
      cwd: root,
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        const first = stdout === '';
        stdout += d.toString();
        if (first) setTimeout(() => child.kill('SIGINT'), 300);
      });
      child.on('close', resolve);
    });
    expect(code, stderr).toBe(130);
    expect(stdout).toMatch(/^Ended: cancelled at turn \d+/m);
    expect(stderr).toMatch(/cancelling the match/);
  });

  it('leaves commander usage errors to commander', () => {
    const r = salient('play', '--seed', 'x');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--seed/);
  });
});

describe.runIf(HAS_BLITZ)('salient play blitz', () => {
  it('tells scenario A turn by turn with combats and names the winner and why', () => {
    const r = salient('play', '--game', 'blitz', '--scenario', 'A', '--seed', '42', '--seat', 'Axis=greedy', '--seat', 'Allies=random');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/APPROXIMATION/);
    expect(r.stdout).toMatch(/^Turn 1$/m);
    expect(r.stdout).toMatch(/^  impulse 1 · /m);
    expect(r.stdout).toMatch(/Combat for /);
    expect(r.stdout).toMatch(/^Winner: (Axis|Allies)\. .*Scenario A/m);
    expect(r.stdout).toMatch(/^Ended: completed at turn \d+/m);
  });

  it('plays scenario B to a result in --json', () => {
    const r = salient('play', '--game', 'blitz', '--scenario', 'B', '--seed', '5', '--json');
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as { kind: string; scenario: string; pack: { fidelity: string }; result: { sides: Record<string, string> } };
    expect(j).toMatchObject({ kind: 'completed', scenario: 'B', pack: { fidelity: 'approximation' } });
    expect(Object.keys(j.result.sides).sort()).toEqual(['Allies', 'Axis']);
  });

  it('writes byte-identical replays for the same seed, and they replay', () => {
    const a = join(tmp, 'blitz-a.json');
    const b = join(tmp, 'blitz-b.json');
    for (const f of [a, b]) expect(salient('play', '--game', 'blitz', '--scenario', 'A', '--seed', '9', '--quiet', '--replay', f).code).toBe(0);
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
    const r = salient('replay', a, '--turns');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Combat for /);
    expect(r.stdout).toMatch(/OK: the replay reproduces/);
  });

  it('names the valid scenarios, seats and bots', () => {
    expectUserError(salient('play', '--game', 'blitz', '--scenario', 'G'), /Unknown scenario 'G'/, /A, B, C, D, E, F/);
    expectUserError(salient('play', '--game', 'blitz', '--scenario', 'A', '--seat', 'Axis=random', '--seat', 'Soviets=random'), /Unknown seat 'Soviets'/, /Axis, Allies, GER, AFA/);
    expectUserError(salient('play', '--game', 'blitz', '--seat', 'Axis=alphazero'), /Unknown bot 'alphazero'/, /random, greedy/);
  });

  it('reports a broken pack by file and JSON path, and refuses to play with it', () => {
    const dir = join(tmp, 'blitz-pack');
    expect(salient('pack', 'export', 'approximation', dir).code).toBe(0);
    expect(salient('pack', 'validate', dir).code).toBe(0);
    const map = JSON.parse(readFileSync(join(dir, 'map.json'), 'utf8')) as { lands: Array<Record<string, unknown>> };
    (map.lands[3] as Record<string, unknown>).terrain = ['lava'];
    delete (map.lands[1] as Record<string, unknown>).name;
    writeFileSync(join(dir, 'map.json'), JSON.stringify(map, null, 2));
    const r = salient('pack', 'validate', dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^map\.json \$\.lands\[3\]\.terrain\[0\]: /m);
    expect(r.stdout).toMatch(/^map\.json \$\.lands\[1\]\.name: /m);
    expectUserError(salient('play', '--pack', dir), /not a valid blitz pack/, /map\.json \$\.lands\[3\]\.terrain\[0\]/);
  });

  it('refuses a pack with a field its schema does not know: validate names it, play refuses the pack', () => {
    const dir = join(tmp, 'blitz-pack-extra');
    // As `salient pack export approximation DIR` writes it, without a process for it.
    writePackDir(findGame('blitz').bundledPacks.approximation, dir);
    const meta = JSON.parse(readFileSync(join(dir, 'pack.json'), 'utf8')) as Record<string, unknown>;
    meta.license = { owner: 'me', terms: ['not read by any rule'] };
    writeFileSync(join(dir, 'pack.json'), JSON.stringify(meta, null, 2));
    const r = salient('pack', 'validate', dir);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/^pack\.json \$: Unrecognized key: "license"$/m);
    expect(r.stdout).not.toMatch(/hash/);
    expectUserError(salient('play', '--pack', dir), /not a valid blitz pack/, /pack\.json \$: Unrecognized key: "license"/);
  });

  it('runs the demo to the end', () => {
    const r = salient('demo', '--quiet');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^  blitz A: (Winner: \S+|Draw)/m);
    expect(r.stdout).toMatch(/^  blitz B: (Winner: \S+|Draw)/m);
    // It records its matches and ends with the report read back from the store.
    expect(r.stdout).toMatch(/^Telemetry: embedded ClickHouse in .*clickhouse\.$/m);
    expect(r.stdout).toMatch(/^Recorded 100 quick matches/m);
    expect(r.stdout).toMatch(/│ blitz │ A +│ approximation │ [^│]+│ Axis +│ greedy@2 │ 26 /);

    // The balance report over what the demo recorded: every side of both scenarios, as played and
    // net of bot strength, and the victory conditions adding up to the decided matches.
    const text = salient('report', 'balance', '--game', 'blitz');
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^blitz · Scenario A · pack approximation [0-9a-f]{8} · rules \S+ · \d+ matches$/m);
    expect(text.stdout).toMatch(/^  Axis \(GER\): won \d+ of \d+, [\d.]+% \([\d.]+%–[\d.]+%\).*; between equal bots [\d.]+%/m);
    expect(text.stdout).toMatch(/^  first move: \S+ decides first \(in \d+ of \d+ matches\)/m);
    expect(text.stdout).toMatch(/^  decided by:$/m);
    const json = salient('report', 'balance', '--game', 'blitz', '--scenario', 'B', '--json');
    expect(json.code, json.stderr).toBe(0);
    const b = JSON.parse(json.stdout) as { scenarios: { scenario: string; matches: number; sides: { games: number; wins: number; draws: number }[]; victoryConditions: { matches: number; share: number }[] }[] };
    expect(b.scenarios.map((s) => s.scenario)).toEqual(['B']);
    const [sB] = b.scenarios;
    expect(sB!.victoryConditions.reduce((a, v) => a + v.matches, 0)).toBe(sB!.sides[0]!.games);
    expect(sB!.victoryConditions.reduce((a, v) => a + v.share, 0)).toBeCloseTo(1, 9);
    expect(salient('report', 'balanse').stderr).toMatch(/unknown report 'balanse'/);
    // 100 matches recorded in an embedded ClickHouse store it starts, then three report processes on
    // it: past the 60 s default on a loaded two-core machine (seen at 64-84 s with a load of 13-20).
  }, 180_000);
});

describe('salient replay', () => {
  const file = join(tmp, 'replay.json');

  it('reproduces a recorded match', () => {
    expect(salient('play', ...DICE, '--seed', '21', '--quiet', '--replay', file).code).toBe(0);
    const r = salient('replay', file, '--turns');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Turn 1$/m);
    expect(r.stdout).toMatch(/OK: the replay reproduces/);
    expect(r.stdout).toMatch(/^(Winner: .+|Draw)\. /m);
  });

  it('fails with exit 3 when the final hash differs', () => {
    const text = readFileSync(file, 'utf8').replace(/"finalHash": "[0-9a-f]{16}"/, '"finalHash": "0123456789abcdef"');
    const bad = join(tmp, 'bad-hash.json');
    writeFileSync(bad, text);
    const r = salient('replay', bad);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/replay mismatch: .*0123456789abcdef/);
  });

  it('fails with exit 3 when a choice was edited', () => {
    const replay = JSON.parse(readFileSync(file, 'utf8')) as { log: Array<{ by: string; choice: string }> };
    const i = replay.log.findIndex((e) => e.by === 'chance' && e.choice !== 'die:1');
    const entry = replay.log[i] as { choice: string };
    entry.choice = 'die:1';
    const bad = join(tmp, 'bad-choice.json');
    writeFileSync(bad, JSON.stringify(replay, null, 2));
    const r = salient('replay', bad);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^salient: /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  /** The replay file with `edit` applied, written next to it. */
  const edited = (name: string, edit: (r: Record<string, any>) => void): string => {
    const replay = JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
    edit(replay);
    const out = join(tmp, name);
    writeFileSync(out, JSON.stringify(replay, null, 2));
    return out;
  };

  it('re-draws every die from the seed: a changed seed is a mismatch (exit 3), a negative one bad input (exit 2)', () => {
    const r = salient('replay', edited('seed-22.json', (x) => (x.seed = 22)));
    expect(r.code, r.stdout).toBe(3);
    expect(r.stdout).not.toMatch(/OK/);
    expect(r.stderr).toMatch(/^salient: replay mismatch: .*seed-22\.json does not re-run: \$\.log\[\d+\]: the logged chance outcome 'die:\d' \(.*stream 'dice'\) is not what seed 22 gives there: 'die:\d'/);
    expectUserError(salient('replay', edited('seed-minus-1.json', (x) => (x.seed = -1))), /not a valid Salient replay/, /\$\.seed: must be 0 or more/);
  });

  it('refuses another rules version, a bot no parser knows and a field no replay has, by path', () => {
    expectUserError(salient('replay', edited('rules.json', (x) => (x.rulesVersion = '0.0.1'))), /\$\.rulesVersion: the replay was recorded under dice-race rules 0\.0\.1, and this code has rules 1/);
    expectUserError(salient('replay', edited('bot.json', (x) => (x.seats.A = 'alphazero'))), /\$\.seats\.A: Unknown bot 'alphazero'/);
    expectUserError(salient('replay', edited('extra.json', (x) => ((x.signature = 'x'), (x.log[1].at = 3)))), /\$: Unrecognized key: "signature"/, /\$\.log\[1\]: Unrecognized key: "at"/);
  });

  it('refuses a 50,000-deep replay at once, by line and column', () => {
    const text = readFileSync(file, 'utf8').replace('"options": {}', `"options": {"x": ${'['.repeat(50_000)}${']'.repeat(50_000)}}`);
    const deep = join(tmp, 'deep.json');
    writeFileSync(deep, text);
    expectUserError(salient('replay', deep), /deep\.json:\d+:\d+: nested deeper than 64 levels at \$\.options\.x\[0\]/);
  });

  it('reports malformed JSON by line and column', () => {
    const bad = join(tmp, 'syntax.json');
    writeFileSync(bad, '{\n  "format": "salient-replay/1",\n  "game": dice\n}\n');
    expectUserError(salient('replay', bad), /syntax\.json:3:11: invalid JSON/);
  });

  it('reports a bad shape by JSON path', () => {
    const replay = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> & { log: Array<Record<string, unknown>> };
    delete replay.seed;
    (replay.log[2] as Record<string, unknown>).by = 7;
    const bad = join(tmp, 'shape.json');
    writeFileSync(bad, JSON.stringify(replay));
    expectUserError(salient('replay', bad), /not a valid Salient replay/, /\$\.seed: /, /\$\.log\[2\]\.by: /);
  });
});

describe('salient pack validate', () => {
  it('reports JSON syntax errors with file, line and column', () => {
    const dir = join(tmp, 'pack-syntax');
    mkdirSync(dir);
    writeFileSync(join(dir, 'pack.json'), '{ "id": "x",\n  "version": 1,, }\n');
    writeFileSync(join(dir, 'map.json'), '{}\n');
    const r = salient('pack', 'validate', dir, '--game', 'dice-race');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^pack\.json:2:16: invalid JSON: /m);
    expect(r.stdout).toMatch(/1 problem/);
  });

  it('reports schema errors by file and path (dice-race stand-in)', () => {
    const dir = join(tmp, 'pack-schema-dice');
    mkdirSync(dir);
    writeFileSync(join(dir, 'id.json'), '"not-synthetic"\n');
    const r = salient('pack', 'validate', dir, '--game', 'dice-race');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^id\.json \$: expected 'synthetic'$/m);
  });

  it('accepts an exported bundled pack and prints its provenance', () => {
    const dir = join(tmp, 'pack-ok');
    expect(salient('pack', 'export', 'synthetic', dir, '--game', 'dice-race').code).toBe(0);
    const r = salient('pack', 'validate', dir, '--game', 'dice-race');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/valid dice-race pack/);
    expect(r.stdout).toMatch(/fidelity synthetic, hash [0-9a-f]{16}/);
  });

  it('says so when the directory does not exist', () => {
    expectUserError(salient('pack', 'validate', join(tmp, 'nowhere'), '--game', 'dice-race'), /Cannot read pack directory/);
  });
});
