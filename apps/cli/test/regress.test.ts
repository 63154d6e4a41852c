/**
 * `salient regress` end to end, as a CI job runs it: record a baseline of a Blitz suite, then check an
 * unchanged copy of the pack (exit 0) and a copy with one combat number changed (exit 1, naming the
 * first impulse where each changed game diverged, which the test finds for itself by playing the
 * games), bad input (exit 2), and a run tagged in a real embedded telemetry store used as a baseline.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemorySink } from '@salient/runner';
import { parseTournamentSpec, planTournament, playPlanned } from '@salient/scheduler';
import { salientEntry } from '../../../test/support/salient-cli.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const PACK = join(root, 'packages/games/blitz/packs/approximation');
const tmp = mkdtempSync(join(tmpdir(), 'salient-regress-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SUITE = 'id: blitz-regress\ngame: blitz\nscenarios: [A, B]\nentrants: [random, greedy]\ngamesPerPairing: 10\nsideSwap: true\nbaseSeed: 11\n';
const suite = join(tmp, 'suite.yaml');
const same = join(tmp, 'pack-same');
const changed = join(tmp, 'pack-changed');
/** The cell changed: the 7-factor column, die 2, L (a loss) becomes S (a step). */
const COLUMN = 6;
const DIE = 2;

function salient(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...salientEntry(), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', SALIENT_CLICKHOUSE_PATH: join(tmp, 'clickhouse'), SALIENT_SPOOL_DIR: join(tmp, 'spool') },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  writeFileSync(suite, SUITE);
  cpSync(PACK, same, { recursive: true });
  cpSync(PACK, changed, { recursive: true });
  const chartPath = join(changed, 'combat-chart.json');
  const chart = JSON.parse(readFileSync(chartPath, 'utf8')) as { columns: { min: number; results: string[] }[] };
  expect(chart.columns[COLUMN]?.min).toBe(7);
  expect(chart.columns[COLUMN]?.results[DIE - 1]).toBe('L');
  chart.columns[COLUMN]!.results[DIE - 1] = 'S';
  writeFileSync(chartPath, JSON.stringify(chart, null, 1));
});

/** Each game of the suite played with the original pack and with `pack`: where its play first differs (-1: never). */
async function firstDifferences(pack: string): Promise<Map<string, number>> {
  const plan = await planTournament(await parseTournamentSpec(SUITE, 'suite.yaml'));
  const out = new Map<string, number>();
  for (const m of plan.matches) {
    const play = async (p: string) => {
      const sink = new InMemorySink();
      await playPlanned({ ...m, pack: p }, { sink });
      return sink.impulses.map((i) => JSON.stringify([i.choices, i.summary?.scores, sink.events.filter((e) => e.impulseSeq === i.seq).map((e) => e.event.text)]));
    };
    const [a, b] = [await play(PACK), await play(pack)];
    const i = a.findIndex((x, k) => x !== b[k]);
    out.set(`${m.scenario} seed ${m.seed} ${Object.entries(m.seats).sort().map(([s, b2]) => `${s}=${b2}`).join(',')}`, i >= 0 ? i : a.length !== b.length ? Math.min(a.length, b.length) : -1);
  }
  return out;
}

describe('salient regress', () => {
  it('records a baseline, then passes on the same code and on an unchanged copy of the pack', () => {
    const w = salient('regress', suite, '--update-baseline');
    expect(w.code, w.stderr).toBe(0);
    expect(w.stdout).toMatch(/Baseline written: .*suite\.baseline\.json\.gz \(20 games/);
    expect(existsSync(join(tmp, 'suite.baseline.json.gz'))).toBe(true);
    expect(w.stderr).toMatch(/regress: 20\/20 games/);

    const again = salient('regress', suite);
    expect(again.code, again.stderr + again.stdout).toBe(0);
    expect(again.stdout).toMatch(/^OK: Nothing moved: all 20 games are identical to the baseline, and no distribution shifted\./);

    const copy = salient('regress', suite, '--pack', same);
    expect(copy.code, copy.stderr + copy.stdout).toBe(0);
    expect(copy.stdout).toMatch(/^OK: Nothing moved/);
  }, 120_000);

  it('flags one changed combat number: exit 1, and for every changed game the impulse where it first diverged', async () => {
    const r = salient('regress', suite, '--pack', changed, '--json');
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as { moved: boolean; notes: string[]; changed: { key: string; divergence: { index: number; event?: { baseline?: string; current?: string } } }[] };
    expect(report.moved).toBe(true);
    expect(report.notes.join(' ')).toMatch(/pack's content changed/);
    const truth = await firstDifferences(changed);
    const expected = [...truth].filter(([, i]) => i >= 0);
    expect(expected.length).toBeGreaterThan(0);
    expect(Object.fromEntries(report.changed.map((c) => [c.key, c.divergence.index]))).toEqual(Object.fromEntries(expected));
    // Where they diverge, a combat was fought: the event that differs is a combat's, or one it caused.
    for (const c of report.changed) expect(`${c.divergence.event?.baseline ?? ''} ${c.divergence.event?.current ?? ''}`).toMatch(/combat|loss|Combat|eliminat|destroyed|step|takes/i);

    const text = salient('regress', suite, '--pack', changed);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^MOVED: \d+ of 20 games changed/);
    expect(text.stdout).toMatch(/first diverges in impulse \d+ \(turn\.impulse \d+\.\d+ /);
    expect(text.stdout).toMatch(/was: .*\n\s+now: /);
  }, 240_000);

  it('bad input exits 2 with a message: no baseline, a damaged one, another suite, a bad --q, a bad tag', () => {
    const none = salient('regress', suite, '--baseline', join(tmp, 'nowhere.json.gz'));
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/No baseline at .*--update-baseline/);
    writeFileSync(join(tmp, 'damaged.json'), '{"format": "salient-regress-baseline", "version": 1}');
    const damaged = salient('regress', suite, '--baseline', join(tmp, 'damaged.json'));
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toMatch(/damaged\.json: .*--update-baseline/);
    const other = join(tmp, 'other.yaml');
    writeFileSync(other, SUITE.replace('baseSeed: 11', 'baseSeed: 12'));
    // Another suite's baseline is refused before a game is played (no progress line), naming the file.
    const moved = salient('regress', other, '--baseline', join(tmp, 'suite.baseline.json.gz'));
    expect(moved.code).toBe(2);
    expect(moved.stderr).toMatch(/^salient: The baseline file .*suite\.baseline\.json\.gz was recorded from another suite \(suite 'blitz-regress', spec hash \w{12}; .*other\.yaml is 'blitz-regress', \w{12}\).* no game was played\. Record a baseline of this suite with --update-baseline/);
    expect(moved.stderr).not.toMatch(/regress: \d+\/\d+ games/);
    expect(salient('regress', suite, '--q', '3').stderr).toMatch(/--q: '3' is not a false discovery rate/);
    expect(salient('regress', suite, '--tag', "x'; DROP TABLE matches").stderr).toMatch(/--tag: .* is not a usable tag/);
  }, 120_000);

  it('a run tagged in the telemetry store (a version tag: v0.12) is a baseline too', () => {
    const tag = salient('regress', suite, '--tag', 'v0.12', '--update-baseline', '--baseline', join(tmp, 'tagged.json.gz'));
    expect(tag.code, tag.stderr).toBe(0);
    const ok = salient('regress', suite, '--baseline-tag', 'v0.12');
    expect(ok.code, ok.stderr + ok.stdout).toBe(0);
    expect(ok.stdout).toMatch(/^OK: Nothing moved: all 20 games/);
    const moved = salient('regress', suite, '--baseline-tag', 'v0.12', '--pack', changed);
    expect(moved.code, moved.stderr).toBe(1);
    // A tag recorded from another suite is refused before a game is played too.
    const other = join(tmp, 'other-tagged.yaml');
    writeFileSync(other, SUITE.replace('baseSeed: 11', 'baseSeed: 13'));
    const another = salient('regress', other, '--baseline-tag', 'v0.12');
    expect(another.code).toBe(2);
    expect(another.stderr).toMatch(/^salient: The baseline tagged 'v0\.12' in .* was recorded from another suite .* no game was played/);
    expect(another.stderr).not.toMatch(/regress: \d+\/\d+ games/);
    const missing = salient('regress', suite, '--baseline-tag', 'no-such-tag');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no regression run tagged 'no-such-tag'/);
  }, 240_000);
});
