/**
 * `salient rules coverage`: rule sections with their tests and firing counts, for Blitz!. The report
 * is built from the real tests directory and real games with rule tracing on.
 */
import { spawnSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createBot } from '@salient/bots';
import { runMatch } from '@salient/runner';
import { blitz } from '@salient/game-blitz';
import { diceRace, diceRacePack } from '@salient/engine/testing';
import { loadPack } from '../src/registry.ts';
import { rulesCoverage } from '../src/rules-coverage.ts';
import { coverageOptions, coverageProgress } from '../src/commands/rules.ts';
import { salientEntry } from '../../../test/support/salient-cli.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('rules coverage', () => {
  it('Blitz: every implemented or partial section is cited by a test and fires in random games: 25 of each of A-C, 10 of each of D-F and 5 full games with the optional rules on', async () => {
    const pack = await loadPack(blitz, 'approximation');
    let games = 0;
    // How many games: each section must fire in some game, and random play reaches the rarest ones
    // (measured over 25 seeds of each scenario and 5 full games, 2026-11-28) in most games of the
    // scenarios that have them: A.5 in 16 of 25 A games, A.2 in 19, F.2 in 18 of 25 F games, D.8 in 21
    // of 25 D games, the optional 9.4 in 3 of the 5 full games, everything else in more. The long
    // scenarios D-F (0.5-1.2 s of CPU a game, against 0.04-0.13 s for A-C) play 10 games: a section
    // reached in 72% of their games (F.2) misses all 10 about once in 300,000 seeds. The full games
    // stay at 5 for 9.4.
    const shortRun = await rulesCoverage(blitz, pack, { games: 25, scenarios: ['A', 'B', 'C'], onGame: () => games++ });
    const longRun = await rulesCoverage(blitz, pack, { games: 10, scenarios: ['D', 'E', 'F'], onGame: () => games++ });
    const short = { ...shortRun, scenarios: [...shortRun.scenarios, ...longRun.scenarios], sections: shortRun.sections.map((x, i) => ({ ...x, fired: x.fired + longRun.sections[i]!.fired })) };
    // The full games switch on every optional rule this version implements (section 9), with bids for 9.1.
    const optional = blitz.rules!.sections.filter((x) => x.part === 'optional' && x.status !== 'not-implemented').map((x) => x.id);
    expect(optional).toEqual(['9.1', '9.2', '9.3', '9.4', '9.5', '9.6', '9.7', '9.8', '9.9']);
    const options = { full: { optional: optional.join(','), bids: 'GER+JAP:-1,AFA+USA+USSR:1' } };
    const full = await rulesCoverage(blitz, pack, { games: 5, scenarios: ['full'], options, onGame: () => games++ });
    expect(games).toBe(110);
    expect(short.scenarios).toEqual(['A', 'B', 'C', 'D', 'E', 'F']);
    expect(full.scenarios).toEqual(['full']);
    expect(full.options).toEqual(options);
    expect(shortRun.testsFound).toBe(true);
    expect(shortRun.untested).toEqual([]);
    // Firing counts over both runs (a section one run never reaches the other may).
    const r = { ...short, sections: short.sections.map((x, i) => ({ ...x, fired: x.fired + full.sections[i]!.fired })) };
    expect(r.sections.filter((x) => ['implemented', 'partial'].includes(x.section.status) && x.fired === 0).map((x) => x.section.id)).toEqual([]);
    const row = (id: string) => r.sections.find((x) => x.section.id === id)!;
    // Sections not implemented never fire; scenario sections fire with the full rule they restate.
    expect(r.sections.filter((x) => x.section.status === 'not-implemented').every((x) => x.fired === 0)).toBe(true);
    expect(row('A.6').fired).toBeGreaterThan(0);
    expect(row('B.5').fired).toBeGreaterThan(0);
    const sum = (ids: string[]) => ids.reduce((n, id) => n + row(id).fired, 0);
    // Sea combat happens in C and D, so C.4 (which mirrors 4.4 and 6.3 in C only) fires, but less often
    // than they do; land combat fires in A, B and D, and A.6/B.5 mirror only A's and B's share of it.
    expect(row('C.4').fired).toBeGreaterThan(0);
    expect(row('C.4').fired).toBeLessThan(sum(['4.4', '6.3']));
    expect(row('A.6').fired + row('B.5').fired).toBeLessThanOrEqual(sum(['5.3', '6.1', '6.2', '6.5', '6.6']));
    // D's own sections fire with the full rules they restate: supply, weather, Factory Attacks, Lend Lease.
    for (const id of ['D.2', 'D.3', 'D.6', 'D.8', 'D.9', 'D.11']) expect(row(id).fired, id).toBeGreaterThan(0);
    expect(row('D.3').fired).toBeLessThanOrEqual(row('1.7').fired);
    for (const id of ['E.2', 'E.3', 'E.4', 'E.5', 'F.1', 'F.4', 'F.5', 'F.6', 'F.7', 'F.8']) expect(row(id).fired, id).toBeGreaterThan(0);
    // The optional rules fire in the full games only, which switched them on.
    for (const id of optional) {
      expect(full.sections.find((x) => x.section.id === id)!.fired, id).toBeGreaterThan(0);
      expect(short.sections.find((x) => x.section.id === id)!.fired, id).toBe(0);
    }
    // Every game starts once (1.11) and ends by its scenario's victory rule (A-F, and the full game's).
    expect(row('full').fired).toBeGreaterThanOrEqual(5);
    expect(row('1.11').fired).toBe(110);
    expect(['A', 'B', 'C', 'D', 'E', 'F', 'full'].reduce((n, id) => n + row(id).fired, 0)).toBeGreaterThanOrEqual(110);
    expect(row('6.2').tests.map((t) => t.file)).toContain(join('rules', '6.2-land-round.test.ts'));
  }, 600_000);

  it('tracing never changes a game: same final hash and replay with and without it', async () => {
    const pack = await loadPack(blitz, 'approximation');
    const play = (seed: number) => runMatch({ game: blitz, pack, scenario: 'B', seed, seats: { Axis: createBot('random'), Allies: createBot('random') } });
    const plain = await Promise.all([7, 8].map(play));
    const seen: string[] = [];
    blitz.rules!.trace((s) => seen.push(s));
    try {
      const traced = await Promise.all([7, 8].map(play));
      expect(traced.map((t) => [t.finalHash, JSON.stringify(t.replay)])).toEqual(plain.map((t) => [t.finalHash, JSON.stringify(t.replay)]));
    } finally {
      blitz.rules!.trace(undefined);
    }
    expect(seen.length).toBeGreaterThan(100);
  });

  it('set-up options go to the games of their scenario (the first test plays them); options for a scenario not played are refused', async () => {
    const pack = await loadPack(blitz, 'approximation');
    await expect(rulesCoverage(blitz, pack, { games: 1, scenarios: ['A'], options: { full: { optional: '9.9' } } })).rejects.toThrow(/set-up options given for scenario full, which is not played here \(scenarios played: A\)/);
    await expect(rulesCoverage(blitz, pack, { games: 1, scenarios: ['A'], options: { A: { optional: '9.9' } } })).rejects.toThrow(/for the full game only/);
    expect(coverageOptions(['full:optional=9.4,9.7', 'full:bids=GER+JAP:-1,AFA+USA+USSR:1'], ['A', 'full'])).toEqual({ full: { optional: '9.4,9.7', bids: 'GER+JAP:-1,AFA+USA+USSR:1' } });
    // Values parse as JSON where they can (a lone 9.4 is a number, which the set-up takes too).
    expect(coverageOptions(['players=3', 'full:optional=9.4'], ['F', 'full'])).toEqual({ F: { players: 3 }, full: { players: 3, optional: 9.4 } });
    expect(coverageOptions([], ['A'])).toEqual({});
  });

  it('--scenario limits the games to those scenarios; an unknown one is refused, naming the valid ones', async () => {
    const pack = await loadPack(blitz, 'approximation');
    const r = await rulesCoverage(blitz, pack, { games: 2, scenarios: ['A'] });
    expect(r.scenarios).toEqual(['A']);
    expect(r.sections.find((x) => x.section.id === '1.11')!.fired).toBe(2);
    expect(r.sections.find((x) => x.section.id === 'B')!.fired).toBe(0);
    await expect(rulesCoverage(blitz, pack, { games: 1, scenarios: ['Z'] })).rejects.toThrow(/unknown scenario Z .*its scenarios are A, B, C, D, E, F, full/);
  });

  it('a game without a rule list is refused with a clear error', async () => {
    await expect(rulesCoverage(diceRace, diceRacePack, { games: 1 })).rejects.toThrow(/does not list its rule sections/);
  });

  it('the command prints the table and a verdict; --check passes; --json gives the same figures', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [...salientEntry(), 'rules', 'coverage', '--games', '1', ...args], { cwd: root, encoding: 'utf8' });
    const text = run('--check');
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/Rule coverage of blitz \(pack approximation\): 1 random-bot game on each of scenarios A, B, C, D, E, F, full/);
    expect(text.stdout).toMatch(/│ 6\.2 +│ done +│ \d+ +│ \d+ +│ Land Round/);
    expect(text.stdout).toMatch(/Every implemented or partial section is cited by at least one test\./);
    const json = JSON.parse(run('--json').stdout) as { sections: { section: { id: string }; fired: number }[]; untested: string[] };
    expect(json.untested).toEqual([]);
    expect(json.sections.find((x) => x.section.id === '1.11')!.fired).toBe(7);
    const opt = run('--scenario', 'full', '--option', 'full:optional=9.4,9.9', '--json');
    expect(opt.status).toBe(0);
    expect((JSON.parse(opt.stdout) as { options: unknown }).options).toEqual({ full: { optional: '9.4,9.9' } });
    const bad = run('--game', 'nope');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/nope/);
  }, 300_000);

  it('shows progress on stderr, games played per scenario: a line every few seconds and at the end off a terminal', () => {
    const r = spawnSync(process.execPath, [...salientEntry(), 'rules', 'coverage', '--games', '2', '--scenario', 'A,B', '--json'], { cwd: root, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ scenarios: ['A', 'B'], gamesPerScenario: 2 });
    expect(r.stderr).toMatch(/^rules coverage: 4\/4 games, [\d.]+ games\/s, ETA 0s; by scenario A 2\/2, B 2\/2$/m);
    const quiet = spawnSync(process.execPath, [...salientEntry(), 'rules', 'coverage', '--games', '1', '--scenario', 'A', '--quiet', '--json'], { cwd: root, encoding: 'utf8' });
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
  }, 120_000);

  it('on a terminal the progress is a bar with the games of each scenario; off one, lines no more often than asked', () => {
    const tty = Object.assign(new PassThrough(), { isTTY: true, columns: 160 }) as unknown as NodeJS.WriteStream;
    let shown = '';
    (tty as unknown as PassThrough).on('data', (b: Buffer) => (shown += b.toString()));
    const bar = coverageProgress(['A', 'B'], 2, { stream: tty });
    for (const [i, sc] of ['A', 'A', 'B', 'B'].entries()) bar.onGame(i + 1, 4, sc);
    bar.stop();
    expect(shown).toMatch(/4\/4 games \| [\d.]+ games\/s \| ETA 0s \| A 2\/2, B 2\/2/);

    const log = new PassThrough() as unknown as NodeJS.WriteStream;
    let lines = '';
    (log as unknown as PassThrough).on('data', (b: Buffer) => (lines += b.toString()));
    const plain = coverageProgress(['A', 'B'], 2, { stream: log, everyMs: 60_000 });
    for (const [i, sc] of ['A', 'A', 'B'].entries()) plain.onGame(i + 1, 4, sc);
    plain.stop();
    // The first game's line, none until a minute has passed, and where it stopped.
    expect(lines.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^rules coverage: 1\/4 games, .*; by scenario A 1\/2, B 0\/2$/),
      expect.stringMatching(/^rules coverage: 3\/4 games, .*; by scenario A 2\/2, B 1\/2$/),
    ]);
  });
});
